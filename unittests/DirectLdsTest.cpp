//===- DirectLdsTest.cpp - direct-to-LDS fill addressing ------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The global-side mapping of a direct-to-LDS fill
// (docs/Hardware.md#direct-lds-fill) is a bijection over the tile and equals
// the inverse of the st_16x32 layout.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Utils/DirectLds.h"

#include "gtest/gtest.h"

#include <vector>

using namespace mlir::hk;

namespace {

TEST(DirectLdsTest, EqualsInverseSwizzleAndIsBijection) {
  for (int64_t rows : {16, 32, 128, 256}) {
    SCOPED_TRACE("rows " + std::to_string(rows));
    TileLayout tile{rows, 64, 2, Swizzle::st_16x32,
                    ColumnPermutation::identity};
    std::vector<int> hits(rows * 64, 0);
    for (int64_t p = 0; p < rows * 64; ++p) {
      Coord source = directLdsSourceSt16x32Cols64(p);
      ASSERT_GE(source.row, 0);
      ASSERT_LT(source.row, rows);
      ASSERT_GE(source.col, 0);
      ASSERT_LT(source.col, 64);
      ++hits[source.row * 64 + source.col];
      ASSERT_EQ(source, tile.logicalCoord(p)) << "p = " << p;
      // A register-path fill stores (row, col) at the same position.
      ASSERT_EQ(tile.physicalOffset(source.row, source.col), p);
    }
    for (int h : hits)
      ASSERT_EQ(h, 1);
  }
}

// A lane's 16-byte chunk (8 elements starting at a multiple of 8) comes from
// 8 consecutive elements of one row: one 16-byte global load.
TEST(DirectLdsTest, ChunksAreContiguousInGlobalMemory) {
  for (int64_t chunk = 0; chunk < 256 * 64 / 8; ++chunk) {
    Coord first = directLdsSourceSt16x32Cols64(chunk * 8);
    EXPECT_EQ(first.col % 8, 0);
    for (int64_t i = 1; i < 8; ++i)
      EXPECT_EQ(directLdsSourceSt16x32Cols64(chunk * 8 + i),
                (Coord{first.row, first.col + i}));
  }
}

} // namespace
