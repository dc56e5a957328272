//===- Chip.cpp - the chips hk compiles for -------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the target description table.
//
//===----------------------------------------------------------------------===//

#include "HK/Target/Chip.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::hk;

// Sources: AMD CDNA4 ISA guide (MFMA 16x16x32 and 32x32x16 bf16/f16, 160 KiB
// LDS, 64 banks), AMD RDNA4 ISA guide (WMMA 16x16x16 bf16/f16 wave32, 64 KiB
// LDS per workgroup, split barriers) and docs/Hardware.md#targets.
static const MmaInstr kGfx950Mmas[] = {
    {"v_mfma_f32_16x16x32_bf16", MmaLayout::Mfma16x16x32, ElementKind::bf16,
     ElementKind::f32},
    {"v_mfma_f32_16x16x32_f16", MmaLayout::Mfma16x16x32, ElementKind::f16,
     ElementKind::f32},
    // Twice the MACs of 16x16x32 in twice the cycles; a 32-lane column of
    // the accumulator takes one permlane32 swap to reduce
    // (docs/hardware/AttentionFacts.md#attn-mfma32).
    {"v_mfma_f32_32x32x16_bf16", MmaLayout::Mfma32x32x16, ElementKind::bf16,
     ElementKind::f32},
    {"v_mfma_f32_32x32x16_f16", MmaLayout::Mfma32x32x16, ElementKind::f16,
     ElementKind::f32},
    // The f8f6f4 MFMA at twice the bf16 rate
    // (docs/hardware/Fp8Facts.md#f8-rates); the CDNA3-style 16x16x32 fp8
    // forms run at the bf16 rate and are left out. With block scales it is
    // v_mfma_scale_f32_16x16x128_f8f6f4 (docs/hardware/Fp8Facts.md#mxfp8).
    {"v_mfma_f32_16x16x128_f8f6f4", MmaLayout::Mfma16x16x128F8,
     ElementKind::f8e4m3, ElementKind::f32, /*blockScales=*/true},
    {"v_mfma_f32_16x16x128_f8f6f4", MmaLayout::Mfma16x16x128F8,
     ElementKind::f8e5m2, ElementKind::f32, /*blockScales=*/true},
};

static const MmaInstr kGfx1201Mmas[] = {
    {"v_wmma_f32_16x16x16_bf16", MmaLayout::Wmma16x16x16Gfx12,
     ElementKind::bf16, ElementKind::f32},
    {"v_wmma_f32_16x16x16_f16", MmaLayout::Wmma16x16x16Gfx12, ElementKind::f16,
     ElementKind::f32},
    {"v_wmma_f32_16x16x16_fp8_fp8", MmaLayout::Wmma16x16x16F8Gfx12,
     ElementKind::f8e4m3, ElementKind::f32},
    {"v_wmma_f32_16x16x16_bf8_bf8", MmaLayout::Wmma16x16x16F8Gfx12,
     ElementKind::f8e5m2, ElementKind::f32},
};

// Occupancy numbers: LLVM's AMDGPU backend (AMDGPUBaseInfo.cpp), checked
// against llc 22.1.8 on kernels of known register counts. gfx1201 LDS banks:
// 32 x 4 bytes, measured on RX 9070 XT (nod-ai/amd-shark-ai
// docs/empirical-lds/rdna4info.md); gfx950: 64 x 4 bytes
// (docs/Hardware.md#lds-banks).
// XCDs: MI355X has 8 (HipKittens include/common/util.cuh, NUM_XCDS); the
// RX 9070's graphics die is one.
static const ChipInfo kChips[] = {
    {Chip::gfx950,
     "gfx950",
     "CDNA4",
     /*waveSize=*/64,
     /*ldsBytes=*/160 * 1024,
     /*ldsBanks=*/64,
     /*maxRegistersPerLane=*/512,
     kGfx950Mmas,
     /*directToLdsBytesPerLane=*/16,
     /*transposedLdsReads=*/true,
     /*bf16Conversion=*/true,
     /*rawBufferResourceFlags=*/0x27000,
     /*perWordBufferRangeCheck=*/true,
     BarrierKind::Single,
     /*vgprAllocGranule=*/8,
     /*vgprsPerSimd=*/512,
     /*maxWavesPerSimd=*/8,
     /*simdsPerCu=*/4,
     /*ldsBytesPerCu=*/160 * 1024,
     /*maxWorkgroupsPerCu=*/16,
     /*sgprsLimitOccupancy=*/true,
     /*peakBf16Tflops=*/2500,
     /*xcds=*/8,
     /*computeUnits=*/256,
     /*exactLoopExits=*/false,
     /*maxWorkgroupSize=*/1024,
     /*maxVmCount=*/63,
     /*maxLgkmCount=*/15},
    {Chip::gfx1201,
     "gfx1201",
     "RDNA4",
     /*waveSize=*/32,
     /*ldsBytes=*/64 * 1024,
     /*ldsBanks=*/32,
     /*maxRegistersPerLane=*/256,
     kGfx1201Mmas,
     /*directToLdsBytesPerLane=*/0,
     /*transposedLdsReads=*/false,
     /*bf16Conversion=*/false,
     /*rawBufferResourceFlags=*/0x31027000,
     /*perWordBufferRangeCheck=*/false,
     BarrierKind::SplitSignalWait,
     /*vgprAllocGranule=*/24,
     /*vgprsPerSimd=*/1536,
     /*maxWavesPerSimd=*/16,
     /*simdsPerCu=*/4,
     /*ldsBytesPerCu=*/128 * 1024,
     /*maxWorkgroupsPerCu=*/32,
     /*sgprsLimitOccupancy=*/false,
     /*peakBf16Tflops=*/195,
     /*xcds=*/1,
     /*computeUnits=*/64,
     /*exactLoopExits=*/true,
     /*maxWorkgroupSize=*/1024,
     /*maxVmCount=*/63,
     /*maxLgkmCount=*/63},
};

Occupancy mlir::hk::estimateOccupancy(const ChipInfo &chip, int64_t vgprs,
                                      int64_t sgprs, int64_t ldsBytes,
                                      int64_t workgroupSize) {
  Occupancy o;
  int64_t max = chip.maxWavesPerSimd;
  int64_t allocated =
      llvm::alignTo(std::max<int64_t>(vgprs, 1), chip.vgprAllocGranule);
  o.byRegisters = std::clamp<int64_t>(chip.vgprsPerSimd / allocated, 1, max);

  int64_t workgroups = chip.maxWorkgroupsPerCu;
  if (ldsBytes > 0)
    workgroups = std::min(workgroups, chip.ldsBytesPerCu / ldsBytes);
  int64_t wavesPerWorkgroup = llvm::divideCeil(workgroupSize, chip.waveSize);
  o.byLds = std::clamp<int64_t>(
      workgroups * wavesPerWorkgroup / chip.simdsPerCu, 1, max);

  // GFX9 SGPR table (getOccupancyWithNumSGPRs): <= 80 -> 10, <= 88 -> 9,
  // <= 100 -> 8, else 7.
  o.bySgprs = max;
  if (chip.sgprsLimitOccupancy)
    o.bySgprs = std::min<int64_t>(max, sgprs <= 80    ? 10
                                       : sgprs <= 88  ? 9
                                       : sgprs <= 100 ? 8
                                                      : 7);
  o.wavesPerSimd = std::min({o.byRegisters, o.byLds, o.bySgprs});
  return o;
}

const ChipInfo &mlir::hk::getChipInfo(Chip chip) {
  for (const ChipInfo &info : kChips)
    if (info.chip == chip)
      return info;
  llvm_unreachable("every Chip has an entry in kChips");
}

std::string mlir::hk::describeSupportedChips() {
  return llvm::join(
      llvm::map_range(kChips, [](const ChipInfo &c) { return c.name; }), ", ");
}

const MmaInstr *ChipInfo::findMma(MmaShape shape, ElementKind operand,
                                  ElementKind acc) const {
  for (const MmaInstr &instr : mmas)
    if (getMmaShape(instr.layout) == shape && instr.operandKind == operand &&
        instr.accumulatorKind == acc)
      return &instr;
  return nullptr;
}

std::string ChipInfo::describeMmaShapes() const {
  SmallVector<std::string> shapes;
  for (const MmaInstr &instr : mmas) {
    MmaShape s = getMmaShape(instr.layout);
    std::string text = llvm::formatv("{0}x{1}x{2}", s.m, s.n, s.k);
    if (!llvm::is_contained(shapes, text))
      shapes.push_back(text);
  }
  return llvm::join(shapes, ", ");
}
