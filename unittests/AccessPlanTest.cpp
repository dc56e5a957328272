//===- AccessPlanTest.cpp - per-lane LDS access runs ----------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The access plans the lowering follows: one 16-byte access where the
// layout keeps a lane's elements together, smaller aligned runs where not.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Utils/AccessPlan.h"

#include "gtest/gtest.h"

using namespace mlir::hk;

namespace {

// The operands in an accumulator's k order.
const FragmentLayout kAAccK{FragmentRole::a, KOrder::acc};
const FragmentLayout kBAccK{FragmentRole::b, KOrder::acc};

using Runs = std::vector<Run>;

TEST(AccessPlanTest, ReferenceFragmentsAreOneRead) {
  TileLayout gfx950{256, 64, 2, Swizzle::st_16x32, ColumnPermutation::identity};
  EXPECT_EQ(
      planFragmentAccess(MmaLayout::Mfma16x16x32, FragmentRole::a, gfx950),
      (Runs{{0, 8}}));
  TileLayout gfx1201{128, 64, 2, Swizzle::st_16x32,
                     ColumnPermutation::block4_0213};
  EXPECT_EQ(planFragmentAccess(MmaLayout::Wmma16x16x16Gfx12, FragmentRole::b,
                               gfx1201),
            (Runs{{0, 8}}));
}

// A row vector's lane holds runs of consecutive rows: 4 per MFMA block, 8
// per WMMA lane group, cut to the widest load.
TEST(AccessPlanTest, RowVectorsLoadFourRowsAtOnce) {
  EXPECT_EQ(planRowVectorAccess(MmaLayout::Mfma16x16x32, 4), (Runs{{0, 4}}));
  EXPECT_EQ(planRowVectorAccess(MmaLayout::Mfma32x32x16, 4),
            (Runs{{0, 4}, {4, 4}, {8, 4}, {12, 4}}));
  EXPECT_EQ(planRowVectorAccess(MmaLayout::Wmma16x16x16Gfx12, 4),
            (Runs{{0, 4}, {4, 4}}));
  EXPECT_EQ(planRowVectorAccess(MmaLayout::Wmma16x16x16Gfx12, 8),
            (Runs{{0, 8}}));
  EXPECT_EQ(planRowVectorAccess(MmaLayout::Mfma16x16x32, 2),
            (Runs{{0, 2}, {2, 2}}));
}

TEST(AccessPlanTest, UnpermutedGfx1201FragmentsAreTwoReads) {
  TileLayout tile{128, 64, 2, Swizzle::st_16x32, ColumnPermutation::identity};
  EXPECT_EQ(
      planFragmentAccess(MmaLayout::Wmma16x16x16Gfx12, FragmentRole::a, tile),
      (Runs{{0, 4}, {4, 4}}));
}

TEST(AccessPlanTest, CopyChunks) {
  // A 16-byte chunk of a row is one store under st_16x32...
  EXPECT_EQ(
      planChunkAccess(
          {256, 64, 2, Swizzle::st_16x32, ColumnPermutation::identity}, 8),
      (Runs{{0, 8}}));
  // ... two 8-byte stores under the block permutation ...
  EXPECT_EQ(
      planChunkAccess(
          {128, 64, 2, Swizzle::st_16x32, ColumnPermutation::block4_0213}, 8),
      (Runs{{0, 4}, {4, 4}}));
  // ... and 8-byte pieces under st_16x16, which moves 8-byte groups.
  EXPECT_EQ(planChunkAccess(
                {64, 64, 2, Swizzle::st_16x16, ColumnPermutation::identity}, 8),
            (Runs{{0, 4}, {4, 4}}));
}

TEST(AccessPlanTest, TransposedReadsServeMfmaOperands) {
  // Lanes 0-3 read row 0, columns 0-15 of the first 4 x 16 block; lane 17
  // row 8 (+ 4 for the second read), columns 4-7; lane 20 row 9.
  EXPECT_EQ(
      transposedReadSource(MmaLayout::Mfma16x16x32, FragmentRole::a, 0, 0),
      (Coord{0, 0}));
  EXPECT_EQ(
      transposedReadSource(MmaLayout::Mfma16x16x32, FragmentRole::a, 3, 0),
      (Coord{0, 12}));
  EXPECT_EQ(
      transposedReadSource(MmaLayout::Mfma16x16x32, FragmentRole::a, 17, 0),
      (Coord{8, 4}));
  EXPECT_EQ(
      transposedReadSource(MmaLayout::Mfma16x16x32, FragmentRole::a, 17, 1),
      (Coord{12, 4}));
  EXPECT_EQ(
      transposedReadSource(MmaLayout::Mfma16x16x32, FragmentRole::a, 20, 0),
      (Coord{9, 0}));
  for (FragmentLayout role :
       std::initializer_list<FragmentLayout>{FragmentRole::a, FragmentRole::b})
    EXPECT_TRUE(transposedReadsMatchLayout(MmaLayout::Mfma16x16x32, role));
  EXPECT_FALSE(
      transposedReadsMatchLayout(MmaLayout::Mfma16x16x32, FragmentRole::acc));
  // In an accumulator's k order (k = acc) lane group g reads k rows 4g..
  // and 16 + 4g..: lane 17 rows 4 and 20.
  EXPECT_EQ(transposedReadSource(MmaLayout::Mfma16x16x32, kAAccK, 17, 0),
            (Coord{4, 4}));
  EXPECT_EQ(transposedReadSource(MmaLayout::Mfma16x16x32, kAAccK, 17, 1),
            (Coord{20, 4}));
  for (FragmentLayout role :
       std::initializer_list<FragmentLayout>{kAAccK, kBAccK})
    EXPECT_TRUE(transposedReadsMatchLayout(MmaLayout::Mfma16x16x32, role));
  // 32x32x16: lanes 16-31 read the block's columns 16-31 and lanes 32-63
  // the next k rows, 8 on in the MMA's k order (HipKittens' V^T addresses,
  // docs/hardware/AttentionFacts.md#attn-hipkittens), 4 on in an
  // accumulator's with the second read 8 rows further.
  MmaLayout mfma32 = MmaLayout::Mfma32x32x16;
  EXPECT_EQ(transposedReadSource(mfma32, FragmentRole::a, 17, 0),
            (Coord{0, 20}));
  EXPECT_EQ(transposedReadSource(mfma32, FragmentRole::a, 37, 1),
            (Coord{13, 4}));
  EXPECT_EQ(transposedReadSource(mfma32, kAAccK, 53, 0), (Coord{5, 20}));
  EXPECT_EQ(transposedReadSource(mfma32, kAAccK, 53, 1), (Coord{13, 20}));
  for (FragmentLayout role : std::initializer_list<FragmentLayout>{
           FragmentRole::a, FragmentRole::b, kAAccK, kBAccK})
    EXPECT_TRUE(transposedReadsMatchLayout(mfma32, role));
  EXPECT_FALSE(transposedReadsMatchLayout(mfma32, FragmentRole::acc));
  // gfx1201's operand layout holds k 0-3 and 8-11 in a lane: not what two
  // transposed reads give.
  EXPECT_FALSE(transposedReadsMatchLayout(MmaLayout::Wmma16x16x16Gfx12,
                                          FragmentRole::a));
}

} // namespace
