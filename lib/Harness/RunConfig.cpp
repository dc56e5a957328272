//===- RunConfig.cpp - what every hk-run workload is given ----------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HK/Harness/RunConfig.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir::hk::run;

char RunError::ID = 0;

const char *mlir::hk::run::stringifyTestKind(TestKind test) {
  switch (test) {
  case TestKind::identity:
    return "identity";
  case TestKind::random:
    return "random";
  case TestKind::expected:
    return "expected";
  case TestKind::compare:
    return "compare";
  }
  llvm_unreachable("unknown test kind");
}

llvm::Error mlir::hk::run::badInput(const llvm::Twine &message) {
  return llvm::make_error<RunError>(RunError::Kind::badInput, message.str());
}

llvm::Error mlir::hk::run::checkTimingSettings(const RunConfig &config) {
  if (config.backend == Backend::hip &&
      (config.iterations < 1 || config.warmup < 0))
    return badInput(llvm::formatv("--iterations must be at least 1 and "
                                  "--warmup at least 0, got {0} and {1}",
                                  config.iterations, config.warmup));
  return llvm::Error::success();
}
