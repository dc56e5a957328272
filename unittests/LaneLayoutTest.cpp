//===- LaneLayoutTest.cpp - MMA fragment lane layouts ---------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Exhaustive checks of the lane layouts, and of the property the shared-tile
// layouts exist for: every lane's fragment is 8 contiguous elements in LDS.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Utils/LaneLayout.h"

#include "gtest/gtest.h"

#include <map>

#include <vector>

using namespace mlir::hk;

namespace {

// The operands in an accumulator's and in each lane's run k order.
const FragmentLayout kAAccK{FragmentRole::a, KOrder::acc};
const FragmentLayout kBAccK{FragmentRole::b, KOrder::acc};
const FragmentLayout kARunK{FragmentRole::a, KOrder::run};
const FragmentLayout kBRunK{FragmentRole::b, KOrder::run};

const MmaLayout kLayouts[] = {MmaLayout::Mfma16x16x32, MmaLayout::Mfma32x32x16,
                              MmaLayout::Wmma16x16x16Gfx12,
                              MmaLayout::Mfma16x16x128F8,
                              MmaLayout::Wmma16x16x16F8Gfx12};
const FragmentLayout kRoles[] = {
    FragmentRole::a, FragmentRole::b, FragmentRole::acc, kAAccK, kBAccK,
    kARunK,          kBRunK};

TEST(LaneLayoutTest, FragmentShapes) {
  FragmentShape a950 =
      getFragmentShape(MmaLayout::Mfma16x16x32, FragmentRole::a);
  EXPECT_EQ(a950.rows, 16);
  EXPECT_EQ(a950.cols, 32);
  EXPECT_EQ(a950.elemsPerLane, 8);
  EXPECT_EQ(a950.waveSize, 64);
  EXPECT_EQ(
      getFragmentShape(MmaLayout::Mfma16x16x32, FragmentRole::acc).elemsPerLane,
      4);
  FragmentShape b1201 =
      getFragmentShape(MmaLayout::Wmma16x16x16Gfx12, FragmentRole::b);
  EXPECT_EQ(b1201.rows, 16);
  EXPECT_EQ(b1201.cols, 16);
  EXPECT_EQ(b1201.elemsPerLane, 8);
  EXPECT_EQ(b1201.waveSize, 32);
  EXPECT_EQ(getFragmentShape(MmaLayout::Wmma16x16x16Gfx12, FragmentRole::acc)
                .elemsPerLane,
            8);
}

// The fp8 layouts (docs/hardware/Fp8Facts.md#f8-lanes-gfx950 and
// #f8-lanes-gfx1201): 32 bytes per lane on gfx950, k 16g..16g+15 then
// 64+16g..; 8 contiguous bytes on gfx1201.
TEST(LaneLayoutTest, Fp8Layouts) {
  FragmentShape a950 =
      getFragmentShape(MmaLayout::Mfma16x16x128F8, FragmentRole::a);
  EXPECT_EQ(a950.cols, 128);
  EXPECT_EQ(a950.elemsPerLane, 32);
  EXPECT_EQ(
      getFragmentElement(MmaLayout::Mfma16x16x128F8, FragmentRole::a, 37, 0),
      (Coord{5, 32}));
  EXPECT_EQ(
      getFragmentElement(MmaLayout::Mfma16x16x128F8, FragmentRole::b, 37, 17),
      (Coord{5, 32 + 64 + 1}));
  EXPECT_EQ(
      getFragmentElement(MmaLayout::Mfma16x16x128F8, FragmentRole::acc, 37, 3),
      (Coord{11, 5}));
  FragmentShape a1201 =
      getFragmentShape(MmaLayout::Wmma16x16x16F8Gfx12, FragmentRole::a);
  EXPECT_EQ(a1201.elemsPerLane, 8);
  EXPECT_EQ(a1201.waveSize, 32);
  EXPECT_EQ(getFragmentElement(MmaLayout::Wmma16x16x16F8Gfx12, FragmentRole::a,
                               21, 6),
            (Coord{5, 14}));
}

// v_mfma_f32_32x32x16_bf16 (docs/hardware/AttentionFacts.md#attn-mfma32):
// A and B give lane l row l % 32 and k 8 (l / 32) .. + 7; the accumulator
// gives lane l column l % 32 and rows 8 (i / 4) + 4 (l / 32) + i % 4.
TEST(LaneLayoutTest, Mfma32x32x16) {
  MmaLayout mfma32 = MmaLayout::Mfma32x32x16;
  FragmentShape a = getFragmentShape(mfma32, FragmentRole::a);
  EXPECT_EQ(a.rows, 32);
  EXPECT_EQ(a.cols, 16);
  EXPECT_EQ(a.elemsPerLane, 8);
  EXPECT_EQ(a.waveSize, 64);
  FragmentShape acc = getFragmentShape(mfma32, FragmentRole::acc);
  EXPECT_EQ(acc.rows, 32);
  EXPECT_EQ(acc.cols, 32);
  EXPECT_EQ(acc.elemsPerLane, 16);
  EXPECT_EQ(getFragmentElement(mfma32, FragmentRole::a, 37, 2), (Coord{5, 10}));
  EXPECT_EQ(getFragmentElement(mfma32, FragmentRole::b, 31, 7), (Coord{31, 7}));
  EXPECT_EQ(getFragmentElement(mfma32, FragmentRole::acc, 0, 5), (Coord{9, 0}));
  EXPECT_EQ(getFragmentElement(mfma32, FragmentRole::acc, 40, 15),
            (Coord{31, 8}));
  // An accumulator-k operand: 16 k per fragment, a lane's k the rows of its
  // accumulator elements 0-7 (HipKittens' P^T as the B operand).
  EXPECT_EQ(getFragmentElement(mfma32, kBAccK, 40, 5), (Coord{8, 13}));
  for (int64_t lane = 0; lane < 64; ++lane)
    for (int64_t i = 0; i < 8; ++i)
      EXPECT_EQ(getFragmentElement(mfma32, kAAccK, lane, i).col,
                getFragmentElement(mfma32, FragmentRole::acc, lane, i).row);
}

// (lane, i) over the whole wave covers each element of the fragment exactly
// once.
TEST(LaneLayoutTest, CoversFragmentExactlyOnce) {
  for (MmaLayout layout : kLayouts) {
    for (FragmentLayout role : kRoles) {
      SCOPED_TRACE(std::to_string(static_cast<int>(layout)) + " " + role.str());
      FragmentShape shape = getFragmentShape(layout, role);
      ASSERT_EQ(shape.rows * shape.cols, shape.waveSize * shape.elemsPerLane);
      std::vector<int> hits(shape.rows * shape.cols, 0);
      for (int64_t lane = 0; lane < shape.waveSize; ++lane) {
        for (int64_t i = 0; i < shape.elemsPerLane; ++i) {
          Coord c = getFragmentElement(layout, role, lane, i);
          ASSERT_GE(c.row, 0);
          ASSERT_LT(c.row, shape.rows);
          ASSERT_GE(c.col, 0);
          ASSERT_LT(c.col, shape.cols);
          ++hits[c.row * shape.cols + c.col];
        }
      }
      for (int h : hits)
        EXPECT_EQ(h, 1);
    }
  }
}

// Spot values straight from docs/Hardware.md#lane-layouts.
TEST(LaneLayoutTest, SpecExamples) {
  // gfx950 A: lane 17 holds row 1, k = 8..15.
  EXPECT_EQ(getFragmentElement(MmaLayout::Mfma16x16x32, FragmentRole::a, 17, 3),
            (Coord{1, 11}));
  // gfx950 accumulator: lane 33 holds m = 8..11 of column 1.
  EXPECT_EQ(
      getFragmentElement(MmaLayout::Mfma16x16x32, FragmentRole::acc, 33, 2),
      (Coord{10, 1}));
  // gfx1201 A/B: lanes 0-15 hold k 0-3 and 8-11, lanes 16-31 k 4-7, 12-15.
  EXPECT_EQ(
      getFragmentElement(MmaLayout::Wmma16x16x16Gfx12, FragmentRole::a, 0, 4),
      (Coord{0, 8}));
  EXPECT_EQ(
      getFragmentElement(MmaLayout::Wmma16x16x16Gfx12, FragmentRole::b, 20, 5),
      (Coord{4, 13}));
  // gfx1201 accumulator: lane 16 holds m = 8..15 of column 0.
  EXPECT_EQ(getFragmentElement(MmaLayout::Wmma16x16x16Gfx12, FragmentRole::acc,
                               16, 7),
            (Coord{15, 0}));
}

/// True if, for every fragment of an operand tile and every lane, the
/// lane's elements sit at 8 consecutive, 16-byte-aligned LDS positions in
/// element order: the condition for one ds_read_b128 per fragment.
bool everyFragmentIsOneRead(MmaLayout mma, const TileLayout &tile,
                            FragmentLayout role = FragmentRole::a) {
  FragmentShape shape = getFragmentShape(mma, role);
  for (int64_t r0 = 0; r0 < tile.rows; r0 += shape.rows) {
    for (int64_t c0 = 0; c0 < tile.cols; c0 += shape.cols) {
      for (int64_t lane = 0; lane < shape.waveSize; ++lane) {
        Coord first = getFragmentElement(mma, role, lane, 0);
        int64_t base = tile.physicalOffset(r0 + first.row, c0 + first.col);
        if (base % 8 != 0)
          return false;
        for (int64_t i = 1; i < shape.elemsPerLane; ++i) {
          Coord c = getFragmentElement(mma, role, lane, i);
          if (tile.physicalOffset(r0 + c.row, c0 + c.col) != base + i)
            return false;
        }
      }
    }
  }
  return true;
}

TEST(LaneLayoutTest, Gfx950FragmentsAreContiguousInSt16x32) {
  TileLayout tile{256, 64, 2, Swizzle::st_16x32, ColumnPermutation::identity};
  EXPECT_TRUE(everyFragmentIsOneRead(MmaLayout::Mfma16x16x32, tile));
}

// The block permutation is what makes gfx1201 fragments contiguous: with it
// every fragment is 8 contiguous elements, without it they are not.
TEST(LaneLayoutTest, Gfx1201BlockPermutationMakesFragmentsContiguous) {
  for (Swizzle swizzle : {Swizzle::none, Swizzle::st_16x32}) {
    TileLayout permuted{128, 64, 2, swizzle, ColumnPermutation::block4_0213};
    EXPECT_TRUE(everyFragmentIsOneRead(MmaLayout::Wmma16x16x16Gfx12, permuted));
    TileLayout plain{128, 64, 2, swizzle, ColumnPermutation::identity};
    EXPECT_FALSE(everyFragmentIsOneRead(MmaLayout::Wmma16x16x16Gfx12, plain));
  }
}

// Run-k operands are one contiguous run per lane without the permutation,
// on every layout; where the MMA's own k order is already a run, they are
// the plain operands.
TEST(LaneLayoutTest, RunKFragmentsAreContiguousWithoutPermutation) {
  for (MmaLayout layout : kLayouts) {
    SCOPED_TRACE(int(layout));
    TileLayout plain{128, 128, 2, Swizzle::none, ColumnPermutation::identity};
    EXPECT_TRUE(everyFragmentIsOneRead(layout, plain, kARunK));
    EXPECT_TRUE(everyFragmentIsOneRead(layout, plain, kBRunK));
    bool differs = false;
    FragmentShape shape = getFragmentShape(layout, FragmentRole::a);
    for (int64_t lane = 0; lane < shape.waveSize; ++lane)
      for (int64_t i = 0; i < shape.elemsPerLane; ++i)
        differs |= !(getFragmentElement(layout, FragmentRole::a, lane, i) ==
                     getFragmentElement(layout, kARunK, lane, i));
    EXPECT_EQ(differs, layout == MmaLayout::Wmma16x16x16Gfx12 ||
                           layout == MmaLayout::Mfma16x16x128F8);
  }
}

// What makes a product of two run-k operands the matrices' product: the
// MMA multiplies A's and B's elements that sit in the same k slot, and in
// every slot (a lane of A's row group, a lane of B's column group, the
// same element index) the two run-k operands hold the same k.
TEST(LaneLayoutTest, RunKOperandsPairTheSameK) {
  for (MmaLayout layout : kLayouts) {
    SCOPED_TRACE(int(layout));
    FragmentShape a = getFragmentShape(layout, FragmentRole::a);
    for (int64_t lane = 0; lane < a.waveSize; ++lane)
      for (int64_t i = 0; i < a.elemsPerLane; ++i) {
        // The MMA's own slots: a's k and b's k agree lane for lane.
        int64_t slotK =
            getFragmentElement(layout, FragmentRole::a, lane, i).col;
        ASSERT_EQ(getFragmentElement(layout, FragmentRole::b, lane, i).col,
                  slotK);
        // Run-k: both operands' k in that slot are one value, whatever it is.
        ASSERT_EQ(getFragmentElement(layout, kARunK, lane, i).col,
                  getFragmentElement(layout, kBRunK, lane, i).col);
      }
  }
}

// A row (column) vector holds, in each lane, exactly the rows (the column)
// of the lane's accumulator elements: reductions and broadcasts move no
// data between a lane's accumulator and its vectors.
TEST(LaneLayoutTest, RowAndColumnVectorsFollowTheAccumulator) {
  for (MmaLayout layout : kLayouts) {
    FragmentShape acc = getFragmentShape(layout, FragmentRole::acc);
    FragmentShape row = getFragmentShape(layout, FragmentRole::row);
    FragmentShape col = getFragmentShape(layout, FragmentRole::col);
    EXPECT_EQ(row.elemsPerLane, acc.elemsPerLane);
    EXPECT_EQ(col.elemsPerLane, 1);
    EXPECT_EQ(row.rows, acc.rows);
    EXPECT_EQ(col.cols, acc.cols);
    for (int64_t lane = 0; lane < acc.waveSize; ++lane)
      for (int64_t i = 0; i < acc.elemsPerLane; ++i) {
        Coord a = getFragmentElement(layout, FragmentRole::acc, lane, i);
        EXPECT_EQ(getFragmentElement(layout, FragmentRole::row, lane, i).row,
                  a.row);
        EXPECT_EQ(getFragmentElement(layout, FragmentRole::col, lane, 0).col,
                  a.col);
      }
    // Each column is held by waveSize / width lanes and each row by width
    // (16, or 32 at 32x32x16): the lanes hk.reduce's cross-lane steps
    // combine.
    std::map<int64_t, int> lanesOfColumn, lanesOfRow;
    for (int64_t lane = 0; lane < acc.waveSize; ++lane) {
      ++lanesOfColumn[getFragmentElement(layout, FragmentRole::col, lane, 0)
                          .col];
      for (int64_t i = 0; i < acc.elemsPerLane; ++i)
        ++lanesOfRow[getFragmentElement(layout, FragmentRole::row, lane, i)
                         .row];
    }
    int64_t width = getLaneGroupWidth(layout);
    for (auto [c, n] : lanesOfColumn)
      EXPECT_EQ(n, acc.waveSize / width) << c;
    for (auto [r, n] : lanesOfRow)
      EXPECT_EQ(n, width) << r;
  }
}

} // namespace

TEST(LaneLayoutTest, ElementsAreTheLanesFirstPlusAStep) {
  // hk.mask's lowering relies on it: one lane value plus immediates.
  for (MmaLayout layout : kLayouts)
    for (FragmentLayout role : std::initializer_list<FragmentLayout>{
             FragmentRole::a, FragmentRole::b, FragmentRole::acc, kAAccK,
             kBAccK, kARunK, kBRunK, FragmentRole::row, FragmentRole::col,
             FragmentRole::scale}) {
      FragmentShape shape = getFragmentShape(layout, role);
      for (int64_t lane = 0; lane < shape.waveSize; ++lane) {
        Coord first = getFragmentElement(layout, role, lane, 0);
        for (int64_t i = 0; i < shape.elemsPerLane; ++i) {
          Coord step = getFragmentElementStep(layout, role, i);
          EXPECT_EQ(getFragmentElement(layout, role, lane, i),
                    (Coord{first.row + step.row, first.col + step.col}))
              << "layout " << int(layout) << " role " << role.str() << " lane "
              << lane << " element " << i;
        }
      }
    }
}
