# Helpers for hk's own targets.

# add_hk_library(name src... [MLIR_LIBS lib...] [LINK_LIBS lib...] [DEPENDS tgt...])
#
# A static library linked (PUBLIC) against libMLIR.so for the MLIR libraries it
# names, and exported in the HKTargets set so find_package(HK) consumers get it.
function(add_hk_library name)
  cmake_parse_arguments(ARG "" "" "MLIR_LIBS;LINK_LIBS;DEPENDS" ${ARGN})
  add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  add_library(HK::${name} ALIAS ${name})
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${HK_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${HK_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  if(ARG_MLIR_LIBS)
    mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
  endif()
  # libLLVM.so for LLVMSupport, as MLIR itself links it.
  target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS} LLVM)
  set_property(GLOBAL APPEND PROPERTY HK_EXPORTED_TARGETS ${name})
endfunction()
