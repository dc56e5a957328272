//===- LaunchDescription.h - hk-compile's launch descriptions ---*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The JSON `hk-compile --launch` writes beside a code object: the chip, the
// files it names and per kernel its grid and divisibility terms, its block
// and its argument list (KernelAbi.h). One writer and one reader of the
// format, over one typed description. Reading checks the structure only;
// what a harness accepts (a chip, a kind of kernel) is its own call.
//
//===----------------------------------------------------------------------===//

#ifndef HK_KERNELABI_LAUNCHDESCRIPTION_H
#define HK_KERNELABI_LAUNCHDESCRIPTION_H

#include "HK/Dialect/HK/Utils/Enums.h"
#include "HK/KernelAbi/KernelAbi.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace mlir::gpu {
class GPUFuncOp;
class GPUModuleOp;
} // namespace mlir::gpu

namespace mlir::hk {

struct LaunchDescription {
  /// One entry of a kernel's argument list, in order.
  struct Kernarg {
    KernelAbiEntry entry;
    /// A pointer's element type ("bf16"), a value's type ("f32"), as MLIR
    /// prints them; empty for a size or a stride.
    std::string type;
  };
  /// The grid of #hk.launch: one term per grid dimension, and the
  /// divisibility the kernel requires of its sizes.
  struct Launch {
    std::vector<SizeTerm> grid, divisible;
  };
  struct Kernel {
    std::string name;
    /// The source type of each argument, as MLIR prints it.
    std::vector<std::string> argTypes;
    std::vector<Kernarg> kernargs;
    /// gpu.known_block_size; the reader requires it.
    std::optional<std::array<int64_t, 3>> block;
    /// The kernel's #hk.launch; the reader requires its grid.
    std::optional<Launch> launch;
    /// Whether arguments 0 and 1 (a GEMM's A and B) are stored K-major, as
    /// the kernel's reads of them say (readOperandLayout); each unset where
    /// they do not.
    std::optional<bool> transposeA, transposeB;
  };
  Chip chip = Chip::gfx950;
  /// The files it names, relative to its own directory when beside it.
  std::optional<std::string> codeObject, llvmIr;
  std::vector<Kernel> kernels;
};

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

/// The JSON text of `description`.
std::string writeLaunchDescription(const LaunchDescription &description);

/// Reads a launch description; the error says what is malformed (without
/// naming the file: the caller does).
llvm::Expected<LaunchDescription> parseLaunchDescription(llvm::StringRef json);

} // namespace mlir::hk

#endif // HK_KERNELABI_LAUNCHDESCRIPTION_H
