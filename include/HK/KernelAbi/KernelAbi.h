//===- KernelAbi.h - the arguments of a compiled hk kernel ------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The argument list of a kernel after hk-lower-kernel-abi: the one
// definition the pass rewrites a kernel to, hk-compile describes in a
// launch description (LaunchDescription.h) and a harness fills in. This
// layer holds the entries and their spelling, without MLIR's IR; the list
// a signature gives (getKernelAbi) is read from IR by
// HK/Dialect/HK/Analysis/KernelLaunch.h.
//
//===----------------------------------------------------------------------===//

#ifndef HK_KERNELABI_KERNELABI_H
#define HK_KERNELABI_KERNELABI_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir::hk {

/// One argument of a kernel after hk-lower-kernel-abi, in order: a memref's
/// data pointer, one of its dynamic sizes or strides (`dim`, as i32), or a
/// non-memref argument passed as it is.
struct KernelAbiEntry {
  enum class Kind { pointer, size, stride, value };
  Kind kind;
  /// The source argument it comes from.
  unsigned arg;
  /// For a size or a stride: which dimension; -1 otherwise.
  int64_t dim = -1;

  bool hasDim() const { return kind == Kind::size || kind == Kind::stride; }
  bool operator==(const KernelAbiEntry &other) const {
    return kind == other.kind && arg == other.arg && dim == other.dim;
  }
};

/// "pointer", "size", "stride" or "value", as launch descriptions spell it.
StringRef stringifyKernelAbiKind(KernelAbiEntry::Kind kind);
std::optional<KernelAbiEntry::Kind> symbolizeKernelAbiKind(StringRef name);

} // namespace mlir::hk

#endif // HK_KERNELABI_KERNELABI_H
