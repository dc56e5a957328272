//===- BackendOptions.h - backend options a module asks for -----*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Some settings of LLVM's AMDGPU backend have no function attribute: they are
// LLVM command-line options, global to the process. A gpu.module names the
// ones its code object needs in `hk.backend_options` (a schedule records them:
// hk-schedule-interleave); hk's serialization compiles each gpu.module apart,
// with the options it asks for set, and resets them to LLVM's defaults after.
//
//===----------------------------------------------------------------------===//

#ifndef HK_PIPELINES_BACKENDOPTIONS_H
#define HK_PIPELINES_BACKENDOPTIONS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace mlir::hk {

/// Runs `compile` with the backend options `module` asks for set, then
/// resets them to LLVM's defaults (also when `compile` fails). An option the
/// user set on the command line (`hk-compile --<option>=<value>`) keeps the
/// user's value. Fails, naming the module, on an option that is not an
/// AMDGPU backend option of this LLVM or a value it refuses.
///
/// Calls run one at a time (a process-wide lock), so no hk compilation sees
/// another's options; a compilation outside hk in another thread of the
/// process is not ordered with them. `compile` must not call it again.
LogicalResult withBackendOptions(gpu::GPUModuleOp module,
                                 function_ref<LogicalResult()> compile);

/// Calls `compile` for each gpu.module directly in `root`'s blocks (the ones
/// gpu-module-to-binary compiles), one at a time, within withBackendOptions
/// for that module: `compile` gets a builtin.module holding that gpu.module
/// alone, in its place, and what it leaves there (the gpu.binary) takes the
/// gpu.module's place in `root`.
LogicalResult
compileEachModuleApart(Operation *root,
                       function_ref<LogicalResult(ModuleOp alone)> compile);

} // namespace mlir::hk

#endif // HK_PIPELINES_BACKENDOPTIONS_H
