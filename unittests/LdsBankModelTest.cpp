//===- LdsBankModelTest.cpp - the LDS bank-conflict model -----------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The LDS bank model (HK/Target/LdsBanks.h), shared by the simulator and
// hk-check-bank-conflicts, and what it says of the reference layouts.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Utils/LaneLayout.h"
#include "HK/Target/LdsBanks.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <vector>

using namespace mlir::hk;

namespace {

/// Worst conflict ways over every 16-byte A-fragment read of `tile` on
/// `chip` with its matrix instruction's lane layout.
unsigned worstOverTile(Chip chip, const TileLayout &tile) {
  const ChipInfo &info = getChipInfo(chip);
  MmaLayout layout = info.mmas[0].layout;
  FragmentShape shape = getFragmentShape(layout, FragmentRole::a);
  unsigned worst = 0;
  for (int64_t r0 = 0; r0 < tile.rows; r0 += shape.rows) {
    for (int64_t c0 = 0; c0 < tile.cols; c0 += shape.cols) {
      std::vector<std::optional<uint64_t>> addr(shape.waveSize);
      for (int64_t lane = 0; lane < shape.waveSize; ++lane) {
        Coord c = getFragmentElement(layout, FragmentRole::a, lane, 0);
        addr[lane] = tile.physicalOffset(r0 + c.row, c0 + c.col) * 2;
      }
      worst = std::max(worst, getLdsConflictWays(info, 16, addr));
    }
  }
  return worst;
}

TEST(LdsBankModelTest, PhasesCoverTheWaveOnce) {
  for (Chip chip : {Chip::gfx950, Chip::gfx1201}) {
    const ChipInfo &info = getChipInfo(chip);
    for (unsigned bytes : {2u, 4u, 8u, 16u}) {
      std::vector<int> seen(info.waveSize, 0);
      for (const auto &phase : getLdsPhases(info, bytes))
        for (unsigned lane : phase)
          ++seen[lane];
      for (int count : seen)
        EXPECT_EQ(count, 1) << info.name.str() << " " << bytes;
    }
  }
}

TEST(LdsBankModelTest, BroadcastAndConflicts) {
  const ChipInfo &gfx950 = getChipInfo(Chip::gfx950);
  // Every lane reading the same word: a broadcast, 1 way.
  EXPECT_EQ(
      getLdsConflictWays(
          gfx950, 4, std::vector<std::optional<uint64_t>>(64, uint64_t(128))),
      1u);
  // Lanes 256 bytes apart hit one bank at 64 different words.
  std::vector<std::optional<uint64_t>> strided(64);
  for (unsigned l = 0; l < 64; ++l)
    strided[l] = l * 256;
  EXPECT_EQ(getLdsConflictWays(gfx950, 4, strided), 64u);
  // No active lane, no access.
  EXPECT_EQ(
      getLdsConflictWays(gfx950, 16, std::vector<std::optional<uint64_t>>(64)),
      0u);
}

// docs/Hardware.md#lds-banks: the MFMA fragment reads of an st_16x32 tile are
// conflict-free on gfx950, and conflicted without the swizzle.
TEST(LdsBankModelTest, St16x32FragmentReadsAreConflictFree) {
  EXPECT_EQ(worstOverTile(Chip::gfx950, {256, 64, 2, Swizzle::st_16x32,
                                         ColumnPermutation::identity}),
            1u);
  EXPECT_GT(worstOverTile(Chip::gfx950, {256, 64, 2, Swizzle::none,
                                         ColumnPermutation::identity}),
            1u);
}

// gfx1201 under the measured RDNA4 model: a phase of a 16-byte read is 8
// lanes = rows 0-7 of a fragment at the same k. With st_16x32 (64-byte rows
// in LDS) rows r and r + 2 share banks: 4 ways. st_8x64 (128-byte rows, the
// 16-byte chunk index XORed with row % 8) gives each row its own bank group.
TEST(LdsBankModelTest, Gfx1201FragmentReads) {
  EXPECT_EQ(worstOverTile(Chip::gfx1201, {128, 64, 2, Swizzle::st_16x32,
                                          ColumnPermutation::block4_0213}),
            4u);
  EXPECT_EQ(worstOverTile(Chip::gfx1201, {128, 64, 2, Swizzle::st_8x64,
                                          ColumnPermutation::block4_0213}),
            1u);
}

} // namespace
