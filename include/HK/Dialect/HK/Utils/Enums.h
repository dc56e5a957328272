//===- Enums.h - hk enums ---------------------------------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The C++ enums generated from Enums.td (Swizzle, ColumnPermutation,
// BoundsMode, ReduceKind, FragmentRole, Chip) and the grid terms of a
// launch. The layout utilities and the target description use them without
// the dialect.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_UTILS_ENUMS_H
#define HK_DIALECT_HK_UTILS_ENUMS_H

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>

#include "HK/Dialect/HK/Utils/Enums.h.inc"

namespace mlir::hk {

/// Whether an access in `bounds` masks the columns past the matrix.
inline bool masksColumns(BoundsMode bounds) {
  return bounds == BoundsMode::partial || bounds == BoundsMode::partial_chunks;
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
