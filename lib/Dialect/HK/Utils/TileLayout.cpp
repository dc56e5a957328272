//===- TileLayout.cpp - shared-tile layout math ---------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the swizzle and column-permutation math of shared
// tiles.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Utils/TileLayout.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir::hk;

SwizzleParams mlir::hk::getSwizzleParams(Swizzle swizzle) {
  switch (swizzle) {
  case Swizzle::none:
    return {};
  case Swizzle::st_16x16:
    return {16, 16, 512, 7, 3, 2};
  case Swizzle::st_16x32:
    return {16, 32, 1024, 9, 5, 2};
  case Swizzle::st_32x16:
    return {32, 16, 1024, 9, 4, 2};
  case Swizzle::st_32x32:
    return {32, 32, 2048, 10, 4, 2};
  case Swizzle::st_8x64:
    return {8, 64, 1024, 7, 4, 2};
  case Swizzle::st_16x64:
    return {16, 64, 2048, 8, 4, 2};
  case Swizzle::st_16x128:
    return {16, 128, 2048, 8, 4, 1};
  case Swizzle::st_16x128_b64:
    return {16, 128, 2048, 7, 3, 1};
  }
  llvm_unreachable("covered switch over Swizzle");
}

int64_t mlir::hk::swizzleByteOffset(Swizzle swizzle, int64_t byteOffset) {
  SwizzleParams p = getSwizzleParams(swizzle);
  if (p.subtileBytes == 0)
    return byteOffset;
  return byteOffset ^
         (((byteOffset % p.subtileBytes) >> p.rowShift) << p.xorShift);
}

int64_t mlir::hk::permuteColumn(ColumnPermutation permutation, int64_t col) {
  switch (permutation) {
  case ColumnPermutation::identity:
    return col;
  case ColumnPermutation::block4_0213: {
    // Blocks 1 and 2 of each 16-column group trade places.
    int64_t block = (col % 16) / 4;
    static constexpr int64_t kOrder[4] = {0, 2, 1, 3};
    return col - block * 4 + kOrder[block] * 4;
  }
  }
  llvm_unreachable("covered switch over ColumnPermutation");
}

int64_t TileLayout::physicalOffset(int64_t row, int64_t col) const {
  int64_t pcol = permuteColumn(permutation, col);
  SwizzleParams p = getSwizzleParams(swizzle);
  if (p.subtileBytes == 0)
    return row * cols + pcol;
  int64_t subtile =
      (row / p.subtileRows) * (cols / p.subtileCols) + pcol / p.subtileCols;
  int64_t inner = (row % p.subtileRows) * p.subtileCols + pcol % p.subtileCols;
  int64_t swizzled = swizzleByteOffset(swizzle, inner * elementBytes);
  return subtile * p.subtileRows * p.subtileCols + swizzled / elementBytes;
}

Coord TileLayout::logicalCoord(int64_t offset) const {
  SwizzleParams p = getSwizzleParams(swizzle);
  Coord physical;
  if (p.subtileBytes == 0) {
    physical = {offset / cols, offset % cols};
  } else {
    int64_t subtileElems = p.subtileRows * p.subtileCols;
    int64_t subtile = offset / subtileElems;
    // The swizzle is an involution: applying it again undoes it.
    int64_t inner =
        swizzleByteOffset(swizzle, (offset % subtileElems) * elementBytes) /
        elementBytes;
    int64_t subtilesPerRow = cols / p.subtileCols;
    physical = {
        (subtile / subtilesPerRow) * p.subtileRows + inner / p.subtileCols,
        (subtile % subtilesPerRow) * p.subtileCols + inner % p.subtileCols};
  }
  return {physical.row, permuteColumn(permutation, physical.col)};
}

std::optional<Coord> mlir::hk::uniformDisplacement(const TileLayout &layout,
                                                   int64_t count, int64_t step,
                                                   int64_t shift) {
  std::optional<Coord> common;
  for (int64_t i = 0; i < count; ++i) {
    int64_t from = i * step;
    if (from + shift >= layout.numElements())
      return std::nullopt;
    Coord a = layout.logicalCoord(from), b = layout.logicalCoord(from + shift);
    Coord d{b.row - a.row, b.col - a.col};
    if (common && !(*common == d))
      return std::nullopt;
    common = d;
  }
  return common;
}

std::string TileLayout::whyInvalid() const {
  if (rows <= 0 || cols <= 0)
    return llvm::formatv("tile {0}x{1} must have positive dimensions", rows,
                         cols);
  SwizzleParams p = getSwizzleParams(swizzle);
  if (p.subtileBytes != 0) {
    if (elementBytes != p.elementBytes)
      return llvm::formatv("swizzle {0} is defined for {1}-bit elements, not "
                           "{2}-byte ones",
                           stringifySwizzle(swizzle), 8 * p.elementBytes,
                           elementBytes);
    if (rows % p.subtileRows != 0 || cols % p.subtileCols != 0)
      return llvm::formatv(
          "tile {0}x{1} is not a whole number of {2} sub-tiles ({3}x{4})", rows,
          cols, stringifySwizzle(swizzle), p.subtileRows, p.subtileCols);
  }
  if (permutation == ColumnPermutation::block4_0213 && cols % 16 != 0)
    return llvm::formatv("column permutation {0} needs a multiple of 16 "
                         "columns, got {1}",
                         stringifyColumnPermutation(permutation), cols);
  return "";
}
