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
// what a harness accepts (a chip, a kind of kernel) is its own call. No
// MLIR IR here: describing a kernel from its IR is
// HK/Dialect/HK/Analysis/KernelLaunch.h's.
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
    /// the kernel's reads of them say (readOperandLayout,
    /// KernelLaunch.h); each unset where
    /// they do not.
    std::optional<bool> transposeA, transposeB;
  };
  Chip chip = Chip::gfx950;
  /// The files it names, relative to its own directory when beside it.
  std::optional<std::string> codeObject, llvmIr;
  std::vector<Kernel> kernels;
};

/// The JSON text of `description`.
std::string writeLaunchDescription(const LaunchDescription &description);

/// Reads a launch description; the error says what is malformed (without
/// naming the file: the caller does).
llvm::Expected<LaunchDescription> parseLaunchDescription(llvm::StringRef json);

} // namespace mlir::hk

#endif // HK_KERNELABI_LAUNCHDESCRIPTION_H
