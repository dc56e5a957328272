//===- TileLayout.h - shared-tile layout math -------------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Pure math of where a shared tile's logical element (row, col) lives in LDS:
// the HipKittens swizzles and the gfx1201 column-block permutation. Every
// pass, conversion and test that needs a tile address uses these functions.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_UTILS_TILELAYOUT_H
#define HK_DIALECT_HK_UTILS_TILELAYOUT_H

#include "HK/Dialect/HK/Utils/Enums.h"

#include <optional>

namespace mlir::hk {

/// Parameters of a swizzle: within a sub-tile of `subtileBytes` bytes the
/// byte offset `off` is stored at `off ^ (((off % subtileBytes) >> rowShift)
/// << xorShift)`. Sub-tile sizes are in elements of `elementBytes` bytes,
/// the one element size the swizzle is defined for. `none` has all fields 0.
struct SwizzleParams {
  int64_t subtileRows = 0;
  int64_t subtileCols = 0;
  int64_t subtileBytes = 0;
  unsigned rowShift = 0;
  unsigned xorShift = 0;
  int64_t elementBytes = 0;
};

/// The parameters of `swizzle` (see #hk.swizzle for the table).
SwizzleParams getSwizzleParams(Swizzle swizzle);

/// Applies `swizzle` to a byte offset inside one sub-tile. An involution.
int64_t swizzleByteOffset(Swizzle swizzle, int64_t byteOffset);

/// Applies the column permutation to a column index. An involution.
int64_t permuteColumn(ColumnPermutation permutation, int64_t col);

/// A logical (row, col) position in a tile or fragment.
struct Coord {
  int64_t row = 0;
  int64_t col = 0;
  bool operator==(const Coord &other) const {
    return row == other.row && col == other.col;
  }
};

/// The layout of one slot of a shared tile.
struct TileLayout {
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t elementBytes = 2;
  Swizzle swizzle = Swizzle::none;
  ColumnPermutation permutation = ColumnPermutation::identity;

  int64_t numElements() const { return rows * cols; }

  /// Element offset in LDS (from the start of the slot) of logical (r, c).
  /// Requires a layout accepted by `isValid` and an in-range (r, c).
  int64_t physicalOffset(int64_t row, int64_t col) const;

  /// Inverse of `physicalOffset`: the logical position stored at `offset`.
  Coord logicalCoord(int64_t offset) const;

  /// Why this layout is unusable, or empty if it is valid. The message is a
  /// lowercase diagnostic fragment, e.g. "tile 100x64 is not a whole number
  /// of st_16x32 sub-tiles (16x32)".
  std::string whyInvalid() const;
  bool isValid() const { return whyInvalid().empty(); }
};

/// The one logical displacement (rows, cols) that moving each of the
/// `count` element offsets 0, step, 2 * step, ... by `shift` causes, if it is
/// the same for all of them; otherwise none. This lets a direct fill serve
/// every iteration from one set of lane offsets plus a uniform scalar offset.
std::optional<Coord> uniformDisplacement(const TileLayout &layout,
                                         int64_t count, int64_t step,
                                         int64_t shift);

} // namespace mlir::hk

#endif // HK_DIALECT_HK_UTILS_TILELAYOUT_H
