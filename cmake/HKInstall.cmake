# Installs headers, libraries and tools, and the find_package(HK) config.
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

get_property(hk_targets GLOBAL PROPERTY HK_EXPORTED_TARGETS)
install(TARGETS ${hk_targets} EXPORT HKTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${HK_SOURCE_DIR}/include/HK ${HK_BINARY_DIR}/include/HK
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.def" PATTERN "*.inc" PATTERN "*.td")
install(DIRECTORY ${HK_SOURCE_DIR}/include/HK-c
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(EXPORT HKTargets NAMESPACE HK::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/HK)

set(HK_CONFIG_MLIR_DIR "${MLIR_DIR}")
configure_package_config_file(${HK_SOURCE_DIR}/cmake/HKConfig.cmake.in
  ${HK_BINARY_DIR}/HKConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/HK)
write_basic_package_version_file(${HK_BINARY_DIR}/HKConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${HK_BINARY_DIR}/HKConfig.cmake ${HK_BINARY_DIR}/HKConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/HK)
