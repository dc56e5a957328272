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

const char *mlir::hk::run::stringifyBackend(Backend backend) {
  switch (backend) {
  case Backend::sim:
    return "sim";
  case Backend::isa:
    return "isa";
  case Backend::hip:
    return "hip";
  }
  llvm_unreachable("unknown backend");
}

llvm::Error mlir::hk::run::badInput(const llvm::Twine &message) {
  return llvm::make_error<RunError>(RunError::Kind::badInput, message.str());
}

llvm::Error mlir::hk::run::checkTimingSettings(const RunConfig &config) {
  bool hip =
      config.backend == Backend::hip || (config.test == TestKind::compare &&
                                         config.compareBackend == Backend::hip);
  if (hip && (config.iterations < 1 || config.warmup < 0))
    return badInput(llvm::formatv("--iterations must be at least 1 and "
                                  "--warmup at least 0, got {0} and {1}",
                                  config.iterations, config.warmup));
  return llvm::Error::success();
}

llvm::Error mlir::hk::run::checkShuffleSettings(const RunConfig &config) {
  if (!config.shuffleWorkgroups)
    return llvm::Error::success();
  for (Backend backend :
       {config.backend, config.test == TestKind::compare
                            ? config.compareBackend.value_or(config.backend)
                            : config.backend})
    if (backend != Backend::sim)
      return badInput(llvm::formatv(
          "--shuffle-workgroups orders the simulator's workgroups; the {0} "
          "backend does not run them in an order hk-run sets (use "
          "--backend=sim)",
          stringifyBackend(backend)));
  return llvm::Error::success();
}

llvm::Error mlir::hk::run::checkCompareSettings(const RunConfig &config) {
  if (config.test != TestKind::compare) {
    if (config.compareBackend)
      return badInput("--compare-backend runs the compared version of "
                      "--test=compare; give --test=compare");
    return llvm::Error::success();
  }
  if (!config.compareWith.empty())
    return llvm::Error::success();
  // Without another source the versions differ only by their backends.
  if (!config.compareBackend)
    return badInput("--test=compare needs --compare=<file.mlir> or a "
                    "--compare-backend other than --backend");
  if (*config.compareBackend == config.backend)
    return badInput(llvm::formatv(
        "--compare-backend={0} is --backend's: without --compare=<file.mlir> "
        "the compared version would be the same run; give --compare or "
        "another backend",
        stringifyBackend(config.backend)));
  return llvm::Error::success();
}

RunConfig mlir::hk::run::getComparedRunConfig(const RunConfig &config) {
  RunConfig compared = config;
  if (!config.compareWith.empty())
    compared.inputFile = config.compareWith;
  compared.backend = config.compareBackend.value_or(config.backend);
  return compared;
}
