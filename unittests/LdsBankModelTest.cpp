//===- LdsBankModelTest.cpp - why st_16x32 is the gfx950 swizzle ----------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Checks the claim of SPEC section 5 under its published gfx950 LDS model
// (64 banks of 4 bytes; a wave's ds_read_b128 is serviced in 4 phases of 16
// lanes; two lanes of one phase reading different 16-byte chunks that share
// a bank conflict): MFMA fragment reads from an st_16x32 tile are
// conflict-free, and conflicted without the swizzle.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Utils/LaneLayout.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

using namespace mlir::hk;

namespace {

/// Lanes of phase 0 and 2 of a gfx950 ds_read_b128; phases 1 and 3 are the
/// same lanes + 32.
const int kPhase0[] = {0, 1, 2, 3, 12, 13, 14, 15, 20, 21, 22, 23, 24, 25, 26, 27};
const int kPhase2[] = {4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 28, 29, 30, 31};

/// Worst number of distinct 16-byte chunks sharing one bank within a phase,
/// for one ds_read_b128 of the wave reading byte addresses `addr[lane]`.
int worstConflictWays(const std::vector<int64_t> &addr) {
  int worst = 0;
  for (const int *phase : {kPhase0, kPhase2}) {
    for (int half : {0, 32}) {
      std::map<int64_t, std::set<int64_t>> chunksPerBank;
      for (int j = 0; j < 16; ++j) {
        int64_t a = addr[phase[j] + half];
        for (int64_t dword = 0; dword < 4; ++dword)
          chunksPerBank[(a / 4 + dword) % 64].insert(a / 16);
      }
      for (auto &entry : chunksPerBank)
        worst = std::max<int>(worst, entry.second.size());
    }
  }
  return worst;
}

/// Worst conflict ways over every A-fragment read of a 256x64 bf16 tile.
int worstOverTile(const TileLayout &tile) {
  int worst = 0;
  for (int64_t r0 = 0; r0 < tile.rows; r0 += 16) {
    for (int64_t c0 = 0; c0 < tile.cols; c0 += 32) {
      std::vector<int64_t> addr(64);
      for (int64_t lane = 0; lane < 64; ++lane) {
        Coord c = getFragmentElement(MmaLayout::Mfma16x16x32, FragmentRole::a,
                                     lane, 0);
        addr[lane] = tile.physicalOffset(r0 + c.row, c0 + c.col) * 2;
      }
      worst = std::max(worst, worstConflictWays(addr));
    }
  }
  return worst;
}

TEST(LdsBankModelTest, St16x32FragmentReadsAreConflictFree) {
  EXPECT_EQ(worstOverTile({256, 64, 2, Swizzle::st_16x32,
                           ColumnPermutation::identity}),
            1);
}

TEST(LdsBankModelTest, RowMajorFragmentReadsConflict) {
  EXPECT_GT(worstOverTile({256, 64, 2, Swizzle::none,
                           ColumnPermutation::identity}),
            1);
}

} // namespace
