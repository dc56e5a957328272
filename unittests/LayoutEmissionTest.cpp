//===- LayoutEmissionTest.cpp - layout math emitted as IR -----------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The arith the lowering emits computes exactly what the pure layout
// functions compute: every formula is emitted on constants, folded, and
// compared, over whole tiles and every lane.
//
//===----------------------------------------------------------------------===//

#include "HK/Conversion/HKToAMDGPU/LayoutEmission.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Matchers.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::hk;

namespace {

// The operands in an accumulator's and in each lane's run k order.
const FragmentLayout kAAccK{FragmentRole::a, KOrder::acc};
const FragmentLayout kBAccK{FragmentRole::b, KOrder::acc};
const FragmentLayout kARunK{FragmentRole::a, KOrder::run};
const FragmentLayout kBRunK{FragmentRole::b, KOrder::run};

class LayoutEmissionTest : public ::testing::Test {
protected:
  LayoutEmissionTest()
      : loc(UnknownLoc::get(&context)), builder(&context),
        module(ModuleOp::create(loc)) {
    context.loadDialect<arith::ArithDialect>();
    builder.setInsertionPointToStart(module->getBody());
  }

  Value index(int64_t v) {
    return arith::ConstantIndexOp::create(builder, loc, v);
  }

  /// The constant `value` folded to, or -1 if it did not fold.
  static int64_t folded(Value value) {
    APInt result;
    if (!matchPattern(value, m_ConstantInt(&result)))
      return -1;
    return result.getSExtValue();
  }

  MLIRContext context;
  Location loc;
  OpBuilder builder;
  OwningOpRef<ModuleOp> module;
};

TEST_F(LayoutEmissionTest, PhysicalOffsetMatchesTileLayout) {
  const TileLayout layouts[] = {
      {256, 64, 2, Swizzle::st_16x32, ColumnPermutation::identity},
      {128, 64, 2, Swizzle::st_16x32, ColumnPermutation::block4_0213},
      {64, 64, 2, Swizzle::st_16x16, ColumnPermutation::identity},
      {64, 32, 2, Swizzle::st_32x16, ColumnPermutation::block4_0213},
      {64, 64, 2, Swizzle::st_32x32, ColumnPermutation::identity},
      {32, 128, 2, Swizzle::st_16x64, ColumnPermutation::identity},
      {32, 48, 4, Swizzle::none, ColumnPermutation::block4_0213},
      {32, 128, 1, Swizzle::st_16x128, ColumnPermutation::identity},
      {32, 128, 1, Swizzle::st_16x128_b64, ColumnPermutation::identity},
  };
  for (const TileLayout &tile : layouts) {
    SCOPED_TRACE(stringifySwizzle(tile.swizzle).str() + " " +
                 stringifyColumnPermutation(tile.permutation).str());
    for (int64_t r = 0; r < tile.rows; ++r)
      for (int64_t c = 0; c < tile.cols; ++c)
        ASSERT_EQ(
            folded(emitPhysicalOffset(builder, loc, tile, index(r), index(c))),
            tile.physicalOffset(r, c))
            << r << ", " << c;
  }
}

TEST_F(LayoutEmissionTest, LogicalCoordMatchesTileLayout) {
  const TileLayout layouts[] = {
      {256, 64, 2, Swizzle::st_16x32, ColumnPermutation::identity},
      {128, 64, 2, Swizzle::st_16x32, ColumnPermutation::block4_0213},
      {64, 64, 2, Swizzle::st_32x32, ColumnPermutation::identity},
      {32, 48, 4, Swizzle::none, ColumnPermutation::block4_0213},
  };
  for (const TileLayout &tile : layouts)
    for (int64_t p = 0; p < tile.numElements(); ++p) {
      auto [row, col] = emitLogicalCoord(builder, loc, tile, index(p));
      Coord expected = tile.logicalCoord(p);
      ASSERT_EQ(folded(row), expected.row) << p;
      ASSERT_EQ(folded(col), expected.col) << p;
    }
}

TEST_F(LayoutEmissionTest, FragmentElementMatchesLaneLayout) {
  for (MmaLayout layout :
       {MmaLayout::Mfma16x16x32, MmaLayout::Mfma32x32x16,
        MmaLayout::Wmma16x16x16Gfx12, MmaLayout::Mfma16x16x128F8,
        MmaLayout::Wmma16x16x16F8Gfx12}) {
    for (FragmentLayout role : std::initializer_list<FragmentLayout>{
             FragmentRole::a, FragmentRole::b, FragmentRole::acc,
             FragmentRole::row, FragmentRole::col, kAAccK, kBAccK, kARunK,
             kBRunK}) {
      FragmentShape shape = getFragmentShape(layout, role);
      for (int64_t lane = 0; lane < shape.waveSize; ++lane) {
        for (int64_t i = 0; i < shape.elemsPerLane; ++i) {
          auto [row, col] =
              emitFragmentElement(builder, loc, layout, role, index(lane), i);
          Coord expected = getFragmentElement(layout, role, lane, i);
          ASSERT_EQ(folded(row), expected.row) << lane << ", " << i;
          ASSERT_EQ(folded(col), expected.col) << lane << ", " << i;
        }
      }
    }
  }
}

} // namespace
