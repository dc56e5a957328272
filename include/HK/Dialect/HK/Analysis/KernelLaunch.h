//===- KernelLaunch.h - a kernel's launch, read from its IR -----*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// What the IR of a kernel says about launching it: the argument list
// hk-lower-kernel-abi gives its signature, its launch description
// (HK/KernelAbi/LaunchDescription.h, which holds no IR) and the stored
// layout of a GEMM's operands; and the edits that leave one kernel of a
// module to compile alone. The IR readers of the kernel ABI, above the
// dialect; the ABI's entries and the description's format sit below it.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_ANALYSIS_KERNELLAUNCH_H
#define HK_DIALECT_HK_ANALYSIS_KERNELLAUNCH_H

#include "HK/KernelAbi/LaunchDescription.h"

#include "mlir/IR/TypeRange.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::gpu {
class GPUFuncOp;
class GPUModuleOp;
} // namespace mlir::gpu

namespace mlir::hk {

/// The arguments hk-lower-kernel-abi gives a kernel of `argTypes`: for each
/// memref its pointer, its dynamic sizes, then (strided layouts) its
/// dynamic strides, in dimension order.
SmallVector<KernelAbiEntry> getKernelAbi(TypeRange argTypes);

/// Whether arguments 0 and 1 of `kernel` (hk source, before the pipeline)
/// are stored K-major (A K x M, B K x N): an operand whose shared tiles are
/// copied transposed or read transposed, not both, is. Each unset where the
/// source copies no shared tile from the argument, or its reads disagree.
struct OperandLayout {
  std::optional<bool> transposeA, transposeB;
};
OperandLayout readOperandLayout(gpu::GPUFuncOp kernel);

/// The description of `kernel` from its source signature (before
/// hk-lower-kernel-abi): its argument types, the argument list it will
/// take, its block size and its #hk.launch.
LaunchDescription::Kernel describeKernel(gpu::GPUFuncOp kernel);

/// Erases the other kernels of `kernel`'s gpu.module (functions it calls
/// stay), so that the module compiles to `kernel` alone.
void eraseOtherKernels(gpu::GPUFuncOp kernel);

/// Erases every other op of the module holding `kept` (host code, other
/// gpu.modules), so that the module compiles to `kept` alone.
void eraseAllButGpuModule(gpu::GPUModuleOp kept);

/// The names of the kernels in `root`, in order, as "a, b", or "none": what
/// a tool lists when asked for a kernel `root` does not have.
std::string listKernelNames(Operation *root);

} // namespace mlir::hk

#endif // HK_DIALECT_HK_ANALYSIS_KERNELLAUNCH_H
