//===- GenericRun.h - hk-run on any kernel --------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// hk-run's path for kernels other than its GEMM: arguments from --arg,
// checks from --expect, results saved with --save.
//
//===----------------------------------------------------------------------===//

#ifndef HK_HARNESS_GENERICRUN_H
#define HK_HARNESS_GENERICRUN_H

#include "mlir/IR/MLIRContext.h"

namespace mlir::hk::run {

/// Runs the kernel of --arg and checks --expect; returns the exit status.
int runGeneric(MLIRContext &context);

} // namespace mlir::hk::run

#endif // HK_HARNESS_GENERICRUN_H
