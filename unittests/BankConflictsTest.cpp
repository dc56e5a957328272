//===- BankConflictsTest.cpp - static LDS conflicts of tile accesses ------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The static conflict analysis of HK/Target/BankConflicts.h on the reference
// tiles of both chips, swizzled and not; the expected figures are the ones
// the simulator measures on the compiled GEMMs
// (test/Integration/lds-bank-conflicts.test).
//
//===----------------------------------------------------------------------===//

#include "HK/Target/BankConflicts.h"
#include "HK/Target/LdsBanks.h"

#include "llvm/Support/FormatVariadic.h"
#include "gtest/gtest.h"

#include <random>

using namespace mlir::hk;

namespace {

constexpr TileLayout kTile950{128, 64, 2, Swizzle::st_16x32,
                              ColumnPermutation::identity};
constexpr TileLayout kTile950None{128, 64, 2, Swizzle::none,
                                  ColumnPermutation::identity};
constexpr TileLayout kTile1201{128, 64, 2, Swizzle::st_8x64,
                               ColumnPermutation::block4_0213};
constexpr TileLayout kTile1201None{128, 64, 2, Swizzle::none,
                                   ColumnPermutation::block4_0213};

/// The one instruction kind of `kinds`, checked to be alone.
LdsInstrConflicts only(const std::vector<LdsInstrConflicts> &kinds) {
  EXPECT_EQ(kinds.size(), 1u);
  return kinds.empty() ? LdsInstrConflicts() : kinds.front();
}

int64_t placements(const LdsInstrConflicts &kind) {
  int64_t total = 0;
  for (auto [ways, count] : kind.placementsByWays)
    total += count;
  return total;
}

TEST(BankConflictsTest, Gfx950FragmentLoads) {
  const ChipInfo &chip = getChipInfo(Chip::gfx950);
  for (FragmentRole role : {FragmentRole::a, FragmentRole::b}) {
    LdsInstrConflicts swizzled = only(getFragmentLoadConflicts(
        chip, kTile950, {MmaLayout::Mfma16x16x32, role, 8}));
    EXPECT_EQ(swizzled.mnemonic, "ds_read_b128");
    EXPECT_EQ(swizzled.bytes, 16u);
    EXPECT_EQ(swizzled.perWave, 8);
    EXPECT_EQ(swizzled.worstWays, 1u);
    // 8 x 2 fragment positions of 16x32, one read each.
    EXPECT_EQ(placements(swizzled), 16);

    LdsInstrConflicts plain = only(getFragmentLoadConflicts(
        chip, kTile950None, {MmaLayout::Mfma16x16x32, role, 4}));
    EXPECT_EQ(plain.mnemonic, "ds_read_b128");
    EXPECT_EQ(plain.perWave, 4);
    EXPECT_EQ(plain.worstWays, 4u);
  }
}

TEST(BankConflictsTest, Gfx950Fills) {
  const ChipInfo &chip = getChipInfo(Chip::gfx950);
  for (const TileLayout &tile : {kTile950, kTile950None}) {
    // 1024 chunks of 16 bytes over 512 threads: 2 per thread.
    LdsInstrConflicts reg = only(getFillConflicts(chip, tile, {16, 512}));
    EXPECT_EQ(reg.mnemonic, "ds_write_b128");
    EXPECT_EQ(reg.perWave, 2);
    EXPECT_EQ(reg.worstWays, 1u);
    EXPECT_EQ(placements(reg), 2 * 8);

    LdsInstrConflicts direct =
        only(getFillConflicts(chip, tile, {16, 512, /*direct=*/true}));
    EXPECT_EQ(direct.mnemonic, "buffer_load_dwordx4 ... lds");
    EXPECT_EQ(direct.perWave, 2);
    EXPECT_EQ(direct.worstWays, 1u);
  }
}

// Fragment reads of 16 bytes: one run, as the column permutation puts a
// lane's two 4-element halves side by side. Fills: the permutation splits
// each 16-byte chunk into two 8-byte runs.
TEST(BankConflictsTest, Gfx1201) {
  const ChipInfo &chip = getChipInfo(Chip::gfx1201);
  struct Case {
    TileLayout tile;
    unsigned readWays, writeWays;
  };
  TileLayout st16x32{128, 64, 2, Swizzle::st_16x32,
                     ColumnPermutation::block4_0213};
  for (auto [tile, readWays, writeWays] :
       {Case{kTile1201, 1, 1}, Case{kTile1201None, 8, 2},
        Case{st16x32, 4, 2}}) {
    LdsInstrConflicts read = only(getFragmentLoadConflicts(
        chip, tile, {MmaLayout::Wmma16x16x16Gfx12, FragmentRole::a, 4}));
    EXPECT_EQ(read.mnemonic, "ds_read_b128");
    EXPECT_EQ(read.perWave, 4);
    EXPECT_EQ(read.worstWays, readWays) << stringifySwizzle(tile.swizzle).str();

    // 1024 chunks over 256 threads: 4 iterations of two ds_write_b64.
    LdsInstrConflicts write = only(getFillConflicts(chip, tile, {16, 256}));
    EXPECT_EQ(write.mnemonic, "ds_write_b64");
    EXPECT_EQ(write.perWave, 8);
    EXPECT_EQ(write.worstWays, writeWays)
        << stringifySwizzle(tile.swizzle).str();
  }
}

// Without the permutation a gfx12 lane's fragment elements are two runs of
// 4 at columns 8 apart: two ds_read_b64 per fragment.
TEST(BankConflictsTest, Gfx1201WithoutPermutationReadsHalves) {
  const ChipInfo &chip = getChipInfo(Chip::gfx1201);
  TileLayout tile{128, 64, 2, Swizzle::none, ColumnPermutation::identity};
  LdsInstrConflicts read = only(getFragmentLoadConflicts(
      chip, tile, {MmaLayout::Wmma16x16x16Gfx12, FragmentRole::b, 2}));
  EXPECT_EQ(read.mnemonic, "ds_read_b64");
  EXPECT_EQ(read.bytes, 8u);
  EXPECT_EQ(read.perWave, 4);
  EXPECT_GT(read.worstWays, 1u);
}

// Every swizzle and permutation hk has gives one figure at every position
// of a fragment load or fill (the positions are translations of each other,
// or XOR images with the same bank pattern), so the figure of the worst
// position is that of every access the simulator sees. Every position is
// counted once per instruction.
TEST(BankConflictsTest, OneFigureAtEveryPosition) {
  for (Chip c : {Chip::gfx950, Chip::gfx1201}) {
    const ChipInfo &chip = getChipInfo(c);
    MmaLayout mma = chip.mmas[0].layout;
    for (Swizzle swizzle :
         {Swizzle::none, Swizzle::st_16x16, Swizzle::st_16x32,
          Swizzle::st_32x16, Swizzle::st_32x32, Swizzle::st_8x64})
      for (ColumnPermutation perm :
           {ColumnPermutation::identity, ColumnPermutation::block4_0213})
        for (int64_t rows : {32, 64, 128})
          for (int64_t cols : {32, 64, 128}) {
            TileLayout tile{rows, cols, 2, swizzle, perm};
            if (!tile.isValid())
              continue;
            std::string what = llvm::formatv(
                "{0} {1}x{2} {3} {4}", chip.name, rows, cols,
                stringifySwizzle(swizzle), stringifyColumnPermutation(perm));
            for (FragmentRole role : {FragmentRole::a, FragmentRole::b}) {
              FragmentShape shape = getFragmentShape(mma, role);
              int64_t positions = (rows / shape.rows) * (cols / shape.cols);
              for (const LdsInstrConflicts &kind :
                   getFragmentLoadConflicts(chip, tile, {mma, role, 1})) {
                EXPECT_EQ(kind.placementsByWays.size(), 1u) << what;
                EXPECT_EQ(placements(kind), positions * kind.perWave) << what;
              }
            }
            for (const LdsInstrConflicts &kind :
                 getFillConflicts(chip, tile, {16, 2 * chip.waveSize}))
              EXPECT_EQ(kind.placementsByWays.size(), 1u) << what;
          }
  }
}

// A fill by fewer threads than a wave leaves the other lanes inactive.
TEST(BankConflictsTest, PartialWave) {
  const ChipInfo &chip = getChipInfo(Chip::gfx950);
  TileLayout tile{16, 64, 2, Swizzle::none, ColumnPermutation::identity};
  LdsInstrConflicts write = only(getFillConflicts(chip, tile, {16, 32}));
  EXPECT_EQ(write.perWave, 4);
  EXPECT_EQ(placements(write), 4);
  EXPECT_EQ(write.worstWays, 1u);
}

// The analysis uses addresses relative to the tile's slot: conflict ways do
// not change when every lane's address moves by the same multiple of 4.
TEST(BankConflictsTest, WaysInvariantUnderAlignedShift) {
  std::mt19937 rng(7);
  for (Chip c : {Chip::gfx950, Chip::gfx1201}) {
    const ChipInfo &chip = getChipInfo(c);
    for (unsigned bytes : {4u, 8u, 16u}) {
      for (int trial = 0; trial < 200; ++trial) {
        std::vector<std::optional<uint64_t>> addr(chip.waveSize), moved;
        for (auto &a : addr)
          a = uint64_t(rng() % 4096) / bytes * bytes;
        uint64_t shift = 4 * (rng() % 1024);
        moved = addr;
        for (auto &a : moved)
          *a += shift;
        EXPECT_EQ(getLdsConflictWays(chip, bytes, addr),
                  getLdsConflictWays(chip, bytes, moved));
      }
    }
  }
}

TEST(BankConflictsTest, TransposedAccesses) {
  // gfx950's K-major operand tile: two conflict-free ds_read_b64_tr_b16 per
  // fragment at every position.
  const ChipInfo &gfx950 = getChipInfo(Chip::gfx950);
  TileLayout kMajor{64, 128, 2, Swizzle::st_16x32, ColumnPermutation::identity};
  FragmentAccess read{MmaLayout::Mfma16x16x32, FragmentRole::a, 4};
  read.transposed = true;
  LdsInstrConflicts reads =
      only(getFragmentLoadConflicts(gfx950, kMajor, read));
  EXPECT_EQ(reads.mnemonic, "ds_read_b64_tr_b16");
  EXPECT_EQ(reads.bytes, 8u);
  EXPECT_EQ(reads.perWave, 8);
  EXPECT_EQ(reads.worstWays, 1u);
  // 2 x 8 positions of a 32 (k) x 16 (m) block, two reads each.
  EXPECT_EQ(placements(reads), 32);

  // gfx1201's transposing copy: 8-byte runs, conflict-free along a row.
  const ChipInfo &gfx1201 = getChipInfo(Chip::gfx1201);
  FillAccess fill;
  fill.threads = 256;
  fill.transposed = true;
  LdsInstrConflicts writes = only(getFillConflicts(gfx1201, kTile1201, fill));
  EXPECT_EQ(writes.mnemonic, "ds_write_b64");
  EXPECT_EQ(writes.perWave, 8);
  EXPECT_EQ(writes.worstWays, 1u);
}

} // namespace
