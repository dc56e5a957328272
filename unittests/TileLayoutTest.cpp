//===- TileLayoutTest.cpp - swizzle and tile layout math ------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Exhaustive checks of the swizzles, the column permutation and the tile
// layouts built from them.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Utils/TileLayout.h"

#include "gtest/gtest.h"

#include <vector>

using namespace mlir::hk;

namespace {

const Swizzle kSwizzles[] = {
    Swizzle::none,      Swizzle::st_16x16,      Swizzle::st_16x32,
    Swizzle::st_32x16,  Swizzle::st_32x32,      Swizzle::st_8x64,
    Swizzle::st_16x128, Swizzle::st_16x128_b64, Swizzle::st_16x64};

// Every byte offset of a sub-tile maps inside the sub-tile, each target is
// hit exactly once, and applying the swizzle twice is the identity.
TEST(SwizzleTest, InvolutionAndBijectionOnSubtile) {
  for (Swizzle swizzle : kSwizzles) {
    SwizzleParams p = getSwizzleParams(swizzle);
    if (p.subtileBytes == 0)
      continue;
    SCOPED_TRACE(stringifySwizzle(swizzle).str());
    EXPECT_EQ(p.subtileBytes, p.subtileRows * p.subtileCols * p.elementBytes);
    std::vector<int> hits(p.subtileBytes, 0);
    for (int64_t off = 0; off < p.subtileBytes; ++off) {
      int64_t swizzled = swizzleByteOffset(swizzle, off);
      ASSERT_GE(swizzled, 0);
      ASSERT_LT(swizzled, p.subtileBytes);
      ++hits[swizzled];
      EXPECT_EQ(swizzleByteOffset(swizzle, swizzled), off);
    }
    for (int64_t off = 0; off < p.subtileBytes; ++off)
      EXPECT_EQ(hits[off], 1) << "offset " << off;
  }
}

// The swizzles never split a 16-byte chunk (what keeps fragment reads and
// fills single 16-byte accesses), except st_16x16 and st_16x128_b64, which
// move 8-byte groups.
TEST(SwizzleTest, ChunkGranularity) {
  for (Swizzle swizzle : kSwizzles) {
    SwizzleParams p = getSwizzleParams(swizzle);
    if (p.subtileBytes == 0)
      continue;
    int64_t granule =
        swizzle == Swizzle::st_16x16 || swizzle == Swizzle::st_16x128_b64 ? 8
                                                                          : 16;
    for (int64_t off = 0; off < p.subtileBytes; ++off)
      EXPECT_EQ(swizzleByteOffset(swizzle, off) % granule, off % granule);
  }
}

// st_16x32 agrees with the element formula of docs/Hardware.md#lds-swizzle
// on every element of a 256x64 tile.
TEST(SwizzleTest, St16x32MatchesSpecFormula) {
  TileLayout layout{256, 64, 2, Swizzle::st_16x32, ColumnPermutation::identity};
  for (int64_t r = 0; r < 256; ++r) {
    for (int64_t c = 0; c < 64; ++c) {
      int64_t subtile = (r / 16) * (64 / 32) + c / 32;
      int64_t expected = subtile * 512 + (r % 16) * 32 +
                         ((((c % 32) >> 2) ^ (((r % 16) >> 3) << 2)) << 2) +
                         c % 4;
      ASSERT_EQ(layout.physicalOffset(r, c), expected) << r << "," << c;
    }
  }
}

// st_8x64: one sub-tile per 8 rows of a 64-column tile, the 16-byte chunk
// index (c / 8) XORed with the row within the sub-tile.
TEST(SwizzleTest, St8x64ElementFormula) {
  TileLayout layout{128, 64, 2, Swizzle::st_8x64, ColumnPermutation::identity};
  for (int64_t r = 0; r < 128; ++r)
    for (int64_t c = 0; c < 64; ++c)
      ASSERT_EQ(layout.physicalOffset(r, c), (r / 8) * 512 + (r % 8) * 64 +
                                                 (((c / 8) ^ (r % 8)) * 8) +
                                                 c % 8)
          << r << "," << c;
}

TEST(ColumnPermutationTest, Block4Order0213) {
  // Block 1 (columns 4-7) is stored where block 2 (8-11) would be, and
  // the other way round; blocks 0 and 3 stay.
  EXPECT_EQ(permuteColumn(ColumnPermutation::block4_0213, 0), 0);
  EXPECT_EQ(permuteColumn(ColumnPermutation::block4_0213, 5), 9);
  EXPECT_EQ(permuteColumn(ColumnPermutation::block4_0213, 10), 6);
  EXPECT_EQ(permuteColumn(ColumnPermutation::block4_0213, 15), 15);
  EXPECT_EQ(permuteColumn(ColumnPermutation::block4_0213, 16 + 4), 16 + 8);
  for (int64_t c = 0; c < 256; ++c) {
    int64_t p = permuteColumn(ColumnPermutation::block4_0213, c);
    EXPECT_EQ(p / 16, c / 16) << "stays in its 16-column group";
    EXPECT_EQ(permuteColumn(ColumnPermutation::block4_0213, p), c);
    EXPECT_EQ(permuteColumn(ColumnPermutation::identity, c), c);
  }
}

// For every layout hk accepts, physicalOffset is a bijection of the tile
// onto [0, rows * cols) and logicalCoord is its inverse.
TEST(TileLayoutTest, PhysicalOffsetIsBijection) {
  const ColumnPermutation perms[] = {ColumnPermutation::identity,
                                     ColumnPermutation::block4_0213};
  const std::pair<int64_t, int64_t> shapes[] = {{32, 32},  {64, 64}, {128, 64},
                                                {256, 64}, {32, 96}, {96, 128}};
  int checked = 0;
  for (Swizzle swizzle : kSwizzles) {
    for (ColumnPermutation perm : perms) {
      for (auto [rows, cols] : shapes) {
        TileLayout layout{rows, cols, 2, swizzle, perm};
        if (!layout.isValid())
          continue;
        ++checked;
        SCOPED_TRACE(std::string(stringifySwizzle(swizzle)) + " " +
                     std::string(stringifyColumnPermutation(perm)) + " " +
                     std::to_string(rows) + "x" + std::to_string(cols));
        std::vector<int> hits(rows * cols, 0);
        for (int64_t r = 0; r < rows; ++r) {
          for (int64_t c = 0; c < cols; ++c) {
            int64_t off = layout.physicalOffset(r, c);
            ASSERT_GE(off, 0);
            ASSERT_LT(off, rows * cols);
            ++hits[off];
            Coord back = layout.logicalCoord(off);
            ASSERT_EQ(back.row, r);
            ASSERT_EQ(back.col, c);
          }
        }
        for (int h : hits)
          ASSERT_EQ(h, 1);
      }
    }
  }
  // 5 swizzles x 2 permutations x 6 shapes, all valid, and st_8x64 and
  // st_16x64 with the 4 shapes whose columns are a multiple of 64.
  EXPECT_EQ(checked, 76);
}

TEST(TileLayoutTest, UniformDisplacementOfDirectFillIterations) {
  // 256 threads x 8 elements: iteration 1 of a direct fill of a 256x64
  // st_16x32 tile is iteration 0 moved down 32 rows
  // (docs/Hardware.md#direct-lds-fill: a shift by 2048 elements adds 4 to
  // `sub`).
  TileLayout st{256, 64, 2, Swizzle::st_16x32, ColumnPermutation::identity};
  std::optional<Coord> d = uniformDisplacement(st, 256, 8, 2048);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->row, 32);
  EXPECT_EQ(d->col, 0);
  d = uniformDisplacement(st, 64, 8, 1024);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->row, 16);
  EXPECT_EQ(d->col, 0);
  // One sub-tile on: even sub-tiles move right 32 columns, odd ones move
  // down 16 rows and left 32, so no single displacement exists.
  EXPECT_FALSE(uniformDisplacement(st, 128, 8, 512).has_value());
  // Past the end of the tile.
  EXPECT_FALSE(uniformDisplacement(st, 256, 8, 16384).has_value());
  TileLayout plain{64, 64, 2, Swizzle::none, ColumnPermutation::identity};
  d = uniformDisplacement(plain, 64, 8, 512);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->row, 8);
  EXPECT_EQ(d->col, 0);
}

TEST(TileLayoutTest, RejectsWhatTheLayoutCannotHold) {
  EXPECT_EQ(
      (TileLayout{100, 64, 2, Swizzle::st_16x32, ColumnPermutation::identity})
          .whyInvalid(),
      "tile 100x64 is not a whole number of st_16x32 sub-tiles (16x32)");
  EXPECT_EQ(
      (TileLayout{64, 64, 4, Swizzle::st_16x32, ColumnPermutation::identity})
          .whyInvalid(),
      "swizzle st_16x32 is defined for 16-bit elements, not 4-byte ones");
  EXPECT_EQ(
      (TileLayout{16, 8, 2, Swizzle::none, ColumnPermutation::block4_0213})
          .whyInvalid(),
      "column permutation block4_0213 needs a multiple of 16 columns, "
      "got 8");
  EXPECT_EQ((TileLayout{0, 8, 2, Swizzle::none, ColumnPermutation::identity})
                .whyInvalid(),
            "tile 0x8 must have positive dimensions");
  EXPECT_TRUE((TileLayout{17, 3, 4, Swizzle::none, ColumnPermutation::identity})
                  .isValid());
}

} // namespace
