//===- BackendOptions.h - backend options a module asks for -----*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Some settings of LLVM's AMDGPU backend have no function attribute: they are
// LLVM command-line options, global to the process. A gpu.module names the
// ones its code object needs in `hk.backend_options` (a schedule records them:
// hk-schedule-interleave); hk's serialization sets them for the length of the
// compilation and restores them after.
//
//===----------------------------------------------------------------------===//

#ifndef HK_PIPELINES_BACKENDOPTIONS_H
#define HK_PIPELINES_BACKENDOPTIONS_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir::hk {

/// Runs `compile` with the backend options that the gpu.modules under `root`
/// (or `root` itself) ask for set, then restores them. An option the user set
/// on the command line (`hk-compile --<option>=<value>`) keeps the user's
/// value. Compilations through this function run one at a time, so none sees
/// another's options. Fails, naming the module, on an option this LLVM does
/// not have, a value it refuses, or two modules asking different values.
LogicalResult withBackendOptions(Operation *root,
                                 function_ref<LogicalResult()> compile);

} // namespace mlir::hk

#endif // HK_PIPELINES_BACKENDOPTIONS_H
