//===- Enums.h - hk enums ---------------------------------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The C++ enums generated from Enums.td (Swizzle, ColumnPermutation,
// FragmentRole, Chip, ElementKind) and the grid terms of a launch. The
// layout utilities, the target description and the runtime use them
// without the dialect, and without MLIR's IR: no attribute classes here
// (the enums ops store are the dialect's, HKEnums.td).
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_UTILS_ENUMS_H
#define HK_DIALECT_HK_UTILS_ENUMS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMapInfo.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <optional>

#include "HK/Dialect/HK/Utils/Enums.h.inc"

namespace mlir::hk {

/// The OCP fp8 formats (E4M3, E5M2).
inline bool isFp8(ElementKind kind) {
  return kind == ElementKind::f8e4m3 || kind == ElementKind::f8e5m2;
}

/// `arg<arg>[<dim>]` with a tile size or a divisor: one term of #hk.launch.
/// A grid term divides exactly (the size must be a multiple of the tile)
/// unless it rounds up (`ceildiv`: partial tiles at the end).
struct SizeTerm {
  int64_t arg = 0;
  int64_t dim = 0;
  int64_t factor = 1;
  bool roundUp = false;
  bool operator==(const SizeTerm &other) const {
    return arg == other.arg && dim == other.dim && factor == other.factor &&
           roundUp == other.roundUp;
  }
  /// Whether a size of `size` satisfies the term.
  bool accepts(int64_t size) const { return roundUp || size % factor == 0; }
  /// The grid extent of a grid term for a size of `size`.
  int64_t divide(int64_t size) const {
    return roundUp ? (size + factor - 1) / factor : size / factor;
  }
};

inline llvm::hash_code hash_value(const SizeTerm &term) {
  return llvm::hash_combine(term.arg, term.dim, term.factor, term.roundUp);
}

} // namespace mlir::hk

#endif // HK_DIALECT_HK_UTILS_ENUMS_H
