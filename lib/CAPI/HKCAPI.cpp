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

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/InitAllDialects.h"
#include "HK/InitAllPasses.h"
#include "HK/Pipelines/Pipelines.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(HK, hk, mlir::hk::HKDialect)

void hkRegisterAllDialects(MlirDialectRegistry registry) {
  hk::registerAllDialects(*unwrap(registry));
}

void hkRegisterAllPasses(void) { hk::registerAllPasses(); }

MlirLogicalResult hkCompileModule(MlirModule cModule, MlirStringRef cOptions,
                                  MlirStringRef cFormat,
                                  MlirStringCallback callback, void *userData) {
  ModuleOp module = unwrap(cModule);
  hk::HKPipelineOptions options;
  std::string why;
  llvm::raw_string_ostream whyStream(why);
  if (failed(options.parseFromString(unwrap(cOptions), whyStream))) {
    module.emitError() << "hkCompileModule: bad pipeline options '"
                       << unwrap(cOptions) << "': " << StringRef(why).trim();
    return wrap(failure());
  }
  if (llvm::Error invalid = hk::checkPipelineOptions(options)) {
    module.emitError() << "hkCompileModule: "
                       << llvm::toString(std::move(invalid));
    return wrap(failure());
  }
  PassManager pm(module.getContext());
  hk::buildHKToROCDLPipeline(pm, options);
  if (failed(pm.run(module)))
    return wrap(failure());
  FailureOr<std::string> bytes =
      hk::serializeGpuModule(module, unwrap(cFormat));
  if (failed(bytes))
    return wrap(failure());
  callback(mlirStringRefCreate(bytes->data(), bytes->size()), userData);
  return wrap(success());
}
