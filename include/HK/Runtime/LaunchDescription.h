//===- LaunchDescription.h - hk-compile's launch descriptions ---*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The JSON `hk-compile --launch` writes beside a code object, read back:
// the chip, the files it names and per kernel its grid and divisibility
// terms, its block and its argument list. Reading checks the structure
// only; what a harness accepts (a chip, a kind of kernel) is its own call.
//
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_LAUNCHDESCRIPTION_H
#define HK_RUNTIME_LAUNCHDESCRIPTION_H

#include "HK/Dialect/HK/IR/HKEnums.h"

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
    /// "pointer" (a memref's data), "size" or "stride" (one of its dynamic
    /// sizes or strides), "value" (another argument), or another kind the
    /// reader passes through.
    std::string kind;
    /// The memref argument it belongs to.
    int64_t arg = 0;
    /// For a size or a stride: which dimension.
    std::optional<int64_t> dim;
    /// For a pointer: the element type, e.g. "bf16".
    std::optional<std::string> element;
  };
  struct Kernel {
    std::string name;
    std::vector<SizeTerm> grid, divisible;
    std::array<int64_t, 3> block = {1, 1, 1};
    std::vector<Kernarg> kernargs;
    /// The source type of each argument, as MLIR prints it (empty when the
    /// description has no "args").
    std::vector<std::string> argTypes;
  };
  std::optional<std::string> chip;
  /// The files it names, relative to its own directory.
  std::optional<std::string> codeObject, llvmIr;
  std::vector<Kernel> kernels;
};

/// Reads a launch description; the error says what is malformed (without
/// naming the file: the caller does).
llvm::Expected<LaunchDescription> parseLaunchDescription(llvm::StringRef json);

} // namespace mlir::hk

#endif // HK_RUNTIME_LAUNCHDESCRIPTION_H
