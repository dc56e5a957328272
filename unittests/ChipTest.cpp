//===- ChipTest.cpp - the target description ------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The target description holds the facts of SPEC section 3.
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
  const MmaInstr *mfma =
      chip.findMma({16, 16, 32}, ElementKind::bf16, ElementKind::f32);
  ASSERT_NE(mfma, nullptr);
  EXPECT_EQ(mfma->mnemonic, "v_mfma_f32_16x16x32_bf16");
  EXPECT_EQ(chip.findMma({16, 16, 16}, ElementKind::bf16, ElementKind::f32),
            nullptr);
  EXPECT_EQ(chip.describeMmaShapes(), "16x16x32");
}

TEST(ChipTest, Gfx1201) {
  const ChipInfo &chip = getChipInfo(Chip::gfx1201);
  EXPECT_EQ(chip.name, "gfx1201");
  EXPECT_EQ(chip.waveSize, 32);
  EXPECT_EQ(chip.ldsBytes, 65536);
  EXPECT_FALSE(chip.hasDirectToLds());
  EXPECT_EQ(chip.barrier, BarrierKind::SplitSignalWait);
  const MmaInstr *wmma =
      chip.findMma({16, 16, 16}, ElementKind::bf16, ElementKind::f32);
  ASSERT_NE(wmma, nullptr);
  EXPECT_EQ(wmma->mnemonic, "v_wmma_f32_16x16x16_bf16");
  EXPECT_EQ(chip.findMma({16, 16, 32}, ElementKind::bf16, ElementKind::f32),
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

TEST(ChipTest, SupportedChips) {
  EXPECT_EQ(describeSupportedChips(), "gfx950, gfx1201");
}

} // namespace
