//===- WorkgroupOrderTest.cpp - the XCD workgroup order -------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Both steps of the XCD order and their composition are bijections for
// every grid up to 64 x 64, whatever its divisibility; values pinned against
// HipKittens' formulas; the arith hk-remap-workgroups emits computes the
// same tiles as the pure functions.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Utils/WorkgroupOrder.h"
#include "HK/Dialect/HK/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Matchers.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::hk;

namespace {

constexpr int64_t kMaxGrid = 64;

/// (xcds, chunk) pairs: HipKittens', one die, and small blocks so that the
/// grids up to 64 x 64 have many full blocks and tails of every length.
const std::pair<int64_t, int64_t> kChunkings[] = {
    {8, 64}, {1, 64}, {8, 1}, {4, 2}, {3, 5}, {8, 8}, {2, 7}};

const int64_t kGroupRows[] = {8, 1, 3, 5, 64, 100};

/// Every grid gx x gy (gx columns, gy rows) with 1 <= gx, gy <= kMaxGrid.
template <typename Fn> void forEachGrid(Fn &&fn) {
  for (int64_t gy = 1; gy <= kMaxGrid; ++gy)
    for (int64_t gx = 1; gx <= kMaxGrid; ++gx)
      fn(gx, gy);
}

TEST(WorkgroupOrderTest, ChipletChunkingIsABijection) {
  for (auto [xcds, chunk] : kChunkings)
    forEachGrid([&, xcds = xcds, chunk = chunk](int64_t gx, int64_t gy) {
      int64_t count = gx * gy;
      std::vector<bool> seen(count, false);
      for (int64_t id = 0; id < count; ++id) {
        int64_t to = chipletChunkedId(id, count, xcds, chunk);
        ASSERT_TRUE(to >= 0 && to < count && !seen[to])
            << "xcds " << xcds << " chunk " << chunk << " grid " << gx << "x"
            << gy << " id " << id << " -> " << to;
        seen[to] = true;
      }
    });
}

TEST(WorkgroupOrderTest, GroupedOrderIsABijection) {
  for (int64_t groupRows : kGroupRows)
    forEachGrid([&](int64_t gx, int64_t gy) {
      std::vector<bool> seen(gx * gy, false);
      for (int64_t id = 0; id < gx * gy; ++id) {
        Coord t = groupedTile(id, /*gridM=*/gy, /*gridN=*/gx, groupRows);
        ASSERT_TRUE(t.row >= 0 && t.row < gy && t.col >= 0 && t.col < gx &&
                    !seen[t.row * gx + t.col])
            << "group " << groupRows << " grid " << gx << "x" << gy << " id "
            << id << " -> (" << t.row << ", " << t.col << ")";
        seen[t.row * gx + t.col] = true;
      }
    });
}

TEST(WorkgroupOrderTest, XcdOrderIsABijection) {
  for (auto [xcds, chunk] : kChunkings)
    for (int64_t groupRows : {int64_t(8), int64_t(3)})
      forEachGrid([&, xcds = xcds, chunk = chunk](int64_t gx, int64_t gy) {
        XcdOrder order{xcds, chunk, groupRows};
        std::vector<bool> seen(gx * gy, false);
        for (int64_t linear = 0; linear < gx * gy; ++linear) {
          Coord t = xcdOrderTile(linear, gy, gx, order);
          ASSERT_TRUE(t.row >= 0 && t.row < gy && t.col >= 0 && t.col < gx &&
                      !seen[t.row * gx + t.col])
              << "xcds " << xcds << " chunk " << chunk << " group " << groupRows
              << " grid " << gx << "x" << gy << " linear " << linear;
          seen[t.row * gx + t.col] = true;
        }
      });
}

// The point of the chunking: in each full block, the workgroups one XCD
// receives (linear ids xcd, xcd + xcds, ...) get `chunk` consecutive ids,
// in dispatch order.
TEST(WorkgroupOrderTest, OneXcdGetsConsecutiveIds) {
  for (auto [xcds, chunk] : kChunkings) {
    int64_t block = xcds * chunk;
    int64_t count = 3 * block + block / 2; // three full blocks and a tail
    for (int64_t b = 0; b < 3; ++b)
      for (int64_t xcd = 0; xcd < xcds; ++xcd)
        for (int64_t i = 0; i < chunk; ++i)
          ASSERT_EQ(
              chipletChunkedId(b * block + i * xcds + xcd, count, xcds, chunk),
              b * block + xcd * chunk + i);
    for (int64_t id = 3 * block; id < count; ++id)
      ASSERT_EQ(chipletChunkedId(id, count, xcds, chunk), id);
  }
}

// Values of HipKittens' chiplet_transform_chunked(wgid, NUM_WGS, 8, 64) and
// grouped order (WGM = 8) as its MI355X bf16 GEMM calls them
// (kernels/gemm/bf16fp32/mi350x/256_256_64_32_with16x32.cpp; the transform
// in include/common/util.cuh), worked out by hand from its formulas:
//   xcd = wgid % 8; local = wgid / 8
//   new = (local / 64) * 512 + xcd * 64 + local % 64, unless wgid > limit
// with limit = NUM_WGS / 512 * 512. HipKittens tests `wgid > limit` where
// the tail starts at `limit`; at wgid == limit its formula gives limit
// (xcd 0, local % 64 == 0), so it is the same bijection as ours.
TEST(WorkgroupOrderTest, MatchesHipKittens) {
  // 8192 x 8192 with 256 x 256 tiles: 32 x 32 workgroups, two full blocks.
  const int64_t count = 1024;
  EXPECT_EQ(chipletChunkedId(0, count, 8, 64), 0);
  EXPECT_EQ(chipletChunkedId(1, count, 8, 64), 64);
  EXPECT_EQ(chipletChunkedId(7, count, 8, 64), 448);
  EXPECT_EQ(chipletChunkedId(8, count, 8, 64), 1);
  EXPECT_EQ(chipletChunkedId(9, count, 8, 64), 65);
  EXPECT_EQ(chipletChunkedId(511, count, 8, 64), 511);
  EXPECT_EQ(chipletChunkedId(512, count, 8, 64), 512);
  EXPECT_EQ(chipletChunkedId(513, count, 8, 64), 576);
  EXPECT_EQ(chipletChunkedId(1023, count, 8, 64), 1023);
  // 600 workgroups: one full block, a tail of 88 from the limit 512 on.
  EXPECT_EQ(chipletChunkedId(511, 600, 8, 64), 511);
  EXPECT_EQ(chipletChunkedId(512, 600, 8, 64), 512);
  EXPECT_EQ(chipletChunkedId(513, 600, 8, 64), 513);
  EXPECT_EQ(chipletChunkedId(599, 600, 8, 64), 599);
  // Fewer workgroups than one block: unchanged.
  EXPECT_EQ(chipletChunkedId(5, 6, 8, 64), 5);

  // Grouped order, num_pid_m = num_pid_n = 32, WGM = 8:
  //   pid_m = first_pid_m + (wgid % 256) % group_size_m
  //   pid_n = (wgid % 256) / group_size_m
  EXPECT_EQ(groupedTile(0, 32, 32, 8), (Coord{0, 0}));
  EXPECT_EQ(groupedTile(1, 32, 32, 8), (Coord{1, 0}));
  EXPECT_EQ(groupedTile(8, 32, 32, 8), (Coord{0, 1}));
  EXPECT_EQ(groupedTile(255, 32, 32, 8), (Coord{7, 31}));
  EXPECT_EQ(groupedTile(256, 32, 32, 8), (Coord{8, 0}));
  // 12 x 5 tiles: the last group has 4 rows.
  EXPECT_EQ(groupedTile(40, 12, 5, 8), (Coord{8, 0}));
  EXPECT_EQ(groupedTile(45, 12, 5, 8), (Coord{9, 1}));
  EXPECT_EQ(groupedTile(59, 12, 5, 8), (Coord{11, 4}));

  // Composed: workgroup 1 (on XCD 1) computes tile (0, 8), workgroup 8
  // (the second on XCD 0) tile (1, 0).
  XcdOrder hk;
  EXPECT_EQ(xcdOrderTile(1, 32, 32, hk), (Coord{0, 8}));
  EXPECT_EQ(xcdOrderTile(8, 32, 32, hk), (Coord{1, 0}));
  EXPECT_EQ(xcdOrderTile(513, 32, 32, hk), (Coord{16, 8}));
}

// The header's tables.
TEST(WorkgroupOrderTest, DocumentedExamples) {
  const int64_t ids[] = {0,  2,  4, 6,  1,  3,  5,  7,  8,  10,
                         12, 14, 9, 11, 13, 15, 16, 17, 18, 19};
  for (int64_t l = 0; l < 20; ++l)
    EXPECT_EQ(chipletChunkedId(l, 20, 4, 2), ids[l]) << l;
  const int64_t tiles[5][3] = {
      {0, 2, 4}, {1, 3, 5}, {6, 8, 10}, {7, 9, 11}, {12, 13, 14}};
  for (int64_t r = 0; r < 5; ++r)
    for (int64_t c = 0; c < 3; ++c)
      EXPECT_EQ(groupedTile(tiles[r][c], 5, 3, 2), (Coord{r, c}));
}

//===----------------------------------------------------------------------===//
// The emitted arithmetic
//===----------------------------------------------------------------------===//

class WorkgroupOrderEmissionTest : public ::testing::Test {
protected:
  WorkgroupOrderEmissionTest()
      : loc(UnknownLoc::get(&context)), builder(&context) {
    context.loadDialect<arith::ArithDialect>();
  }

  /// The tile emitXcdOrderTile gives workgroup (x, y) of a gx x gy grid,
  /// folded; (-1, -1) if it did not fold to constants.
  Coord emitted(int64_t x, int64_t y, int64_t gx, int64_t gy,
                const XcdOrder &order) {
    OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
    builder.setInsertionPointToStart(module->getBody());
    auto cst = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, v);
    };
    auto [row, col] =
        emitXcdOrderTile(builder, loc, cst(x), cst(y), cst(gx), cst(gy), order);
    APInt r, c;
    if (!matchPattern(row, m_ConstantInt(&r)) ||
        !matchPattern(col, m_ConstantInt(&c)))
      return {-1, -1};
    return {r.getSExtValue(), c.getSExtValue()};
  }

  MLIRContext context;
  Location loc;
  OpBuilder builder;
};

TEST_F(WorkgroupOrderEmissionTest, MatchesPureOrder) {
  const XcdOrder orders[] = {{8, 64, 8}, {1, 64, 8}, {4, 2, 3}, {3, 5, 8}};
  // Small grids of every shape, and ones with full 512-blocks and tails.
  std::vector<std::pair<int64_t, int64_t>> grids;
  for (int64_t gy = 1; gy <= 10; ++gy)
    for (int64_t gx = 1; gx <= 10; ++gx)
      grids.push_back({gx, gy});
  grids.insert(grids.end(), {{32, 32}, {33, 17}, {64, 9}, {7, 80}});
  for (const XcdOrder &order : orders)
    for (auto [gx, gy] : grids)
      for (int64_t y = 0; y < gy; ++y)
        for (int64_t x = 0; x < gx; ++x)
          ASSERT_EQ(emitted(x, y, gx, gy, order),
                    xcdOrderTile(y * gx + x, gy, gx, order))
              << "xcds " << order.xcds << " chunk " << order.chunk << " group "
              << order.groupRows << " grid " << gx << "x" << gy
              << " workgroup (" << x << ", " << y << ")";
}

} // namespace
