//===- ChipTest.cpp - the target description ------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The target description holds the facts of docs/Hardware.md#targets.
//
//===----------------------------------------------------------------------===//

#include "HK/Target/Chip.h"

#include "gtest/gtest.h"

using namespace mlir::hk;

namespace {

TEST(ChipTest, Gfx950) {
  const ChipInfo &chip = getChipInfo(Chip::gfx950);
  EXPECT_EQ(chip.name, "gfx950");
  EXPECT_EQ(chip.waveSize, 64);
  EXPECT_EQ(chip.ldsBytes, 163840);
  EXPECT_TRUE(chip.hasDirectToLds());
  EXPECT_EQ(chip.barrier, BarrierKind::Single);
  EXPECT_EQ(chip.xcds, 8);
  const MmaInstr *mfma =
      chip.findMma({16, 16, 32}, ElementKind::bf16, ElementKind::f32);
  ASSERT_NE(mfma, nullptr);
  EXPECT_EQ(mfma->mnemonic, "v_mfma_f32_16x16x32_bf16");
  EXPECT_EQ(chip.findMma({16, 16, 16}, ElementKind::bf16, ElementKind::f32),
            nullptr);
  const MmaInstr *mfma32 =
      chip.findMma({32, 32, 16}, ElementKind::bf16, ElementKind::f32);
  ASSERT_NE(mfma32, nullptr);
  EXPECT_EQ(mfma32->mnemonic, "v_mfma_f32_32x32x16_bf16");
  EXPECT_EQ(mfma32->layout, MmaLayout::Mfma32x32x16);
  EXPECT_EQ(chip.findMma({32, 32, 16}, ElementKind::f8e4m3, ElementKind::f32),
            nullptr);
  EXPECT_EQ(chip.describeMmaShapes(), "16x16x32, 32x32x16, 16x16x128");
  // fp8 at the f8f6f4 rate only, never the half-rate 16x16x32 forms.
  for (ElementKind fp8 : {ElementKind::f8e4m3, ElementKind::f8e5m2}) {
    const MmaInstr *f8 = chip.findMma({16, 16, 128}, fp8, ElementKind::f32);
    ASSERT_NE(f8, nullptr);
    EXPECT_EQ(f8->mnemonic, "v_mfma_f32_16x16x128_f8f6f4");
    EXPECT_EQ(chip.findMma({16, 16, 32}, fp8, ElementKind::f32), nullptr);
  }
}

TEST(ChipTest, Gfx1201) {
  const ChipInfo &chip = getChipInfo(Chip::gfx1201);
  EXPECT_EQ(chip.name, "gfx1201");
  EXPECT_EQ(chip.waveSize, 32);
  EXPECT_EQ(chip.ldsBytes, 65536);
  EXPECT_FALSE(chip.hasDirectToLds());
  EXPECT_EQ(chip.barrier, BarrierKind::SplitSignalWait);
  EXPECT_EQ(chip.xcds, 1);
  const MmaInstr *wmma =
      chip.findMma({16, 16, 16}, ElementKind::bf16, ElementKind::f32);
  ASSERT_NE(wmma, nullptr);
  EXPECT_EQ(wmma->mnemonic, "v_wmma_f32_16x16x16_bf16");
  EXPECT_EQ(chip.findMma({16, 16, 32}, ElementKind::bf16, ElementKind::f32),
            nullptr);
  EXPECT_EQ(chip.findMma({32, 32, 16}, ElementKind::bf16, ElementKind::f32),
            nullptr);
  const MmaInstr *fp8 =
      chip.findMma({16, 16, 16}, ElementKind::f8e4m3, ElementKind::f32);
  ASSERT_NE(fp8, nullptr);
  EXPECT_EQ(fp8->mnemonic, "v_wmma_f32_16x16x16_fp8_fp8");
  EXPECT_EQ(chip.findMma({16, 16, 16}, ElementKind::f8e5m2, ElementKind::f32)
                ->mnemonic,
            "v_wmma_f32_16x16x16_bf8_bf8");
  EXPECT_EQ(chip.findMma({16, 16, 128}, ElementKind::f8e4m3, ElementKind::f32),
            nullptr);
}

// The wave size of every instruction's lane layout is its chip's.
TEST(ChipTest, LaneLayoutsMatchWaveSize) {
  for (Chip c : {Chip::gfx950, Chip::gfx1201}) {
    const ChipInfo &chip = getChipInfo(c);
    for (const MmaInstr &instr : chip.mmas)
      EXPECT_EQ(getFragmentShape(instr.layout, FragmentRole::acc).waveSize,
                chip.waveSize)
          << instr.mnemonic.str();
  }
}

// The register tables LLVM 22's llc produced for kernels of known register
// counts (VGPR + AGPR on gfx950), with LDS and SGPRs not limiting.
TEST(ChipTest, OccupancyByRegistersMatchesLlc) {
  const ChipInfo &gfx950 = getChipInfo(Chip::gfx950);
  const std::pair<int64_t, int64_t> gfx950Table[] = {
      {64, 8},  {72, 7},  {80, 6},  {96, 5}, {128, 4},
      {168, 3}, {256, 2}, {257, 1}, {512, 1}};
  for (auto [vgprs, waves] : gfx950Table)
    EXPECT_EQ(estimateOccupancy(gfx950, vgprs, 32, 0, 256).byRegisters, waves)
        << vgprs << " registers";
  const ChipInfo &gfx1201 = getChipInfo(Chip::gfx1201);
  const std::pair<int64_t, int64_t> gfx1201Table[] = {
      {96, 16}, {120, 12}, {144, 10}, {168, 9},
      {192, 8}, {216, 7},  {240, 6},  {256, 5}};
  for (auto [vgprs, waves] : gfx1201Table)
    EXPECT_EQ(estimateOccupancy(gfx1201, vgprs, 32, 0, 256).byRegisters, waves)
        << vgprs << " registers";
}

TEST(ChipTest, OccupancyByLdsAndSgprs) {
  // 40 KiB per 256-lane workgroup: 4 workgroups per CU on gfx950 (4 waves
  // each over 4 SIMDs), 3 per WGP on gfx1201 (8 waves each).
  EXPECT_EQ(
      estimateOccupancy(getChipInfo(Chip::gfx950), 64, 32, 40960, 256).byLds,
      4);
  EXPECT_EQ(
      estimateOccupancy(getChipInfo(Chip::gfx1201), 64, 32, 40960, 256).byLds,
      6);
  // The reference gfx950 kernel, double-buffered: 128 KiB, 512 lanes.
  Occupancy o =
      estimateOccupancy(getChipInfo(Chip::gfx950), 256, 40, 131072, 512);
  EXPECT_EQ(o.byLds, 2);
  EXPECT_EQ(o.byRegisters, 2);
  EXPECT_EQ(o.wavesPerSimd, 2);
  EXPECT_EQ(estimateOccupancy(getChipInfo(Chip::gfx950), 64, 102, 0, 256)
                .wavesPerSimd,
            7);
  EXPECT_EQ(
      estimateOccupancy(getChipInfo(Chip::gfx1201), 64, 102, 0, 256).bySgprs,
      16);
}

TEST(ChipTest, SupportedChips) {
  EXPECT_EQ(describeSupportedChips(), "gfx950, gfx1201");
}

} // namespace
