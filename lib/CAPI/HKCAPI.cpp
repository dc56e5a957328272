//===- HKCAPI.cpp - hk through the MLIR C API -----------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The C functions of include/HK-c/ over the C++ registration and pipeline
// entry points the tools use.
//
//===----------------------------------------------------------------------===//

#include "HK-c/Dialects.h"
#include "HK-c/Passes.h"

#include "HK/Dialect/HK/Analysis/KernelLaunch.h"
#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/InitAllDialects.h"
#include "HK/InitAllPasses.h"
#include "HK/Pipelines/Pipelines.h"
#include "HK/Target/Chip.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(HK, hk, mlir::hk::HKDialect)

void hkRegisterAllDialects(MlirDialectRegistry registry) {
  hk::registerAllDialects(*unwrap(registry));
}

void hkRegisterAllPasses(void) { hk::registerAllPasses(); }

/// Why `text` does not parse as pipeline options. llvm::cl reports a value
/// an enum option does not take on stderr, not on the stream it is given:
/// each word is then parsed alone to name the one refused.
static std::string explainBadOptions(StringRef text, StringRef reported) {
  if (!reported.trim().empty())
    return reported.trim().str();
  SmallVector<StringRef> words;
  text.split(words, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef word : words) {
    hk::HKPipelineOptions alone;
    std::string ignored;
    llvm::raw_string_ostream os(ignored);
    if (succeeded(alone.parseFromString(word, os)))
      continue;
    auto [key, value] = word.split('=');
    std::string why =
        ("'" + value + "' is not a value of option '" + key + "'").str();
    if (key == "chip")
      why += " (supported chips: " + hk::describeSupportedChips() + ")";
    return why;
  }
  return "the options do not parse";
}

/// Parses and checks `text` into `options` (hk-to-rocdl-pipeline's), or
/// emits why not on `module`. `caller` names the C function in diagnostics.
static LogicalResult parseOptions(ModuleOp module, StringRef text,
                                  StringRef caller,
                                  hk::HKPipelineOptions &options) {
  std::string why;
  llvm::raw_string_ostream whyStream(why);
  if (failed(options.parseFromString(text, whyStream))) {
    module.emitError() << caller << ": bad pipeline options '" << text
                       << "': " << explainBadOptions(text, why);
    return failure();
  }
  if (!options.chip.hasValue()) {
    module.emitError() << caller << ": the options '" << text
                       << "' name no chip; add chip=<chip> (supported chips: "
                       << hk::describeSupportedChips() << ")";
    return failure();
  }
  if (llvm::Error invalid = hk::checkPipelineOptions(options)) {
    module.emitError() << caller << ": " << llvm::toString(std::move(invalid));
    return failure();
  }
  return success();
}

MlirLogicalResult hkCompileModule(MlirModule cModule, MlirStringRef cOptions,
                                  MlirStringRef cFormat,
                                  MlirStringCallback callback, void *userData) {
  ModuleOp module = unwrap(cModule);
  hk::HKPipelineOptions options;
  if (failed(
          parseOptions(module, unwrap(cOptions), "hkCompileModule", options)))
    return wrap(failure());
  size_t gpuModules = llvm::range_size(module.getOps<gpu::GPUModuleOp>());
  if (gpuModules != 1) {
    module.emitError() << "hkCompileModule: the module holds " << gpuModules
                       << " gpu.modules; hkCompileModule compiles exactly one "
                          "(hkCompileGpuModules compiles each)";
    return wrap(failure());
  }
  FailureOr<std::string> bytes =
      hk::compileGpuModule(module, options, unwrap(cFormat));
  if (failed(bytes))
    return wrap(failure());
  callback(mlirStringRefCreate(bytes->data(), bytes->size()), userData);
  return wrap(success());
}

MlirLogicalResult hkCompileGpuModules(MlirModule cModule,
                                      MlirStringRef cOptions,
                                      MlirStringRef cFormat,
                                      HkGpuModuleCallback callback,
                                      void *userData) {
  ModuleOp module = unwrap(cModule);
  hk::HKPipelineOptions options;
  if (failed(parseOptions(module, unwrap(cOptions), "hkCompileGpuModules",
                          options)))
    return wrap(failure());
  auto names = llvm::map_to_vector(
      module.getOps<gpu::GPUModuleOp>(),
      [](gpu::GPUModuleOp m) { return m.getSymName().str(); });
  if (names.empty()) {
    module.emitError() << "hkCompileGpuModules: the module holds no "
                          "gpu.module";
    return wrap(failure());
  }
  // Each gpu.module alone in a copy of the module, as hk-compile --kernel
  // and hk-run compile one of a host program: the host code and the other
  // kernels are not compiled with it. All are compiled before any is handed
  // over, so that a failure hands over nothing.
  SmallVector<std::string> objects;
  for (const std::string &name : names) {
    OwningOpRef<ModuleOp> alone = module.clone();
    hk::eraseAllButGpuModule(alone->lookupSymbol<gpu::GPUModuleOp>(name));
    FailureOr<std::string> bytes =
        hk::compileGpuModule(*alone, options, unwrap(cFormat));
    if (failed(bytes))
      return wrap(failure());
    objects.push_back(std::move(*bytes));
  }
  for (auto [name, bytes] : llvm::zip(names, objects))
    callback(mlirStringRefCreate(name.data(), name.size()),
             mlirStringRefCreate(bytes.data(), bytes.size()), userData);
  return wrap(success());
}
