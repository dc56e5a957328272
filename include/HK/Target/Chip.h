//===- Chip.h - the chips hk compiles for -----------------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The target description: every per-chip fact hk relies on (wave size, LDS
// capacity and banks, matrix instructions and their lane layouts,
// direct-to-LDS support, barrier form) as data in one table. Passes query
// it (through hk::resolveChip for IR); nothing else compares chip names.
//
//===----------------------------------------------------------------------===//

#ifndef HK_TARGET_CHIP_H
#define HK_TARGET_CHIP_H

#include "HK/Dialect/HK/Utils/Enums.h"
#include "HK/Dialect/HK/Utils/LaneLayout.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"

namespace mlir::hk {

/// One matrix instruction of a chip.
struct MmaInstr {
  /// ISA mnemonic, e.g. "v_mfma_f32_16x16x32_bf16".
  StringRef mnemonic;
  MmaLayout layout;
  ElementKind operandKind;
  ElementKind accumulatorKind;
  /// Whether the instruction also takes E8M0 block scales (MXFP8).
  bool blockScales = false;
};

/// How a workgroup barrier is spelled in the ISA.
enum class BarrierKind {
  /// `s_barrier` (CDNA).
  Single,
  /// `s_barrier_signal -1` then `s_barrier_wait -1` (gfx12).
  SplitSignalWait,
};

/// Everything hk knows about one chip.
struct ChipInfo {
  Chip chip;
  /// The LLVM processor name, e.g. "gfx950".
  StringRef name;
  /// Marketing family, for messages: "CDNA4", "RDNA4".
  StringRef family;
  int64_t waveSize;
  /// LDS bytes available to one workgroup.
  int64_t ldsBytes;
  /// LDS banks of 4 bytes.
  int64_t ldsBanks;
  /// Architectural VGPRs (plus AGPRs on CDNA) per lane of a wave.
  int64_t maxRegistersPerLane;
  ArrayRef<MmaInstr> mmas;
  /// Bytes per lane of a direct-to-LDS buffer load, 0 if the chip has none.
  int64_t directToLdsBytesPerLane;
  /// Whether the chip has transposed 16-bit LDS reads (ds_read_b64_tr_b16,
  /// amdgpu.transpose_load: gfx950;
  /// docs/hardware/SchedulesTailsLayouts.md#operand-layouts).
  bool transposedLdsReads;
  /// Whether the chip converts f32 to bf16 in one instruction
  /// (v_cvt_pk_bf16_f32: gfx950); gfx1201 rounds with integer VALU.
  bool bf16Conversion;
  /// Word 3 (flags) of the raw buffer resources copies read through, as
  /// MLIR's AMDGPU lowering builds them
  /// (docs/hardware/SchedulesTailsLayouts.md#descriptor): a 32-bit data
  /// format; on RDNA also the reserved bit 24 and raw byte-offset range
  /// checks (OOB_SELECT = 3).
  uint32_t rawBufferResourceFlags;
  /// Whether a multi-dword raw buffer load is range-checked word by word,
  /// so one partly past num_records still returns its words in range
  /// (CDNA; docs/hardware/SchedulesTailsLayouts.md#range-check). RDNA's
  /// OOB_SELECT = 3 checks the whole access.
  bool perWordBufferRangeCheck;
  BarrierKind barrier;

  // Occupancy model, as LLVM's AMDGPU backend computes it
  // (AMDGPUBaseInfo.cpp: getVGPRAllocGranule, getTotalNumVGPRs,
  // getMaxWavesPerEU, getNumWavesPerEUWithNumVGPRs; AMDGPUSubtarget.cpp:
  // getOccupancyWithWorkGroupSizes).
  /// VGPRs (VGPR + AGPR on CDNA) are allocated in blocks of this many.
  int64_t vgprAllocGranule;
  /// VGPRs per lane of one SIMD, shared by the waves resident on it.
  int64_t vgprsPerSimd;
  int64_t maxWavesPerSimd;
  /// SIMDs of a CU (gfx950) or WGP (gfx1201, LLVM's default WGP mode).
  int64_t simdsPerCu;
  /// LDS shared by the workgroups resident on a CU/WGP.
  int64_t ldsBytesPerCu;
  int64_t maxWorkgroupsPerCu;
  /// Whether the SGPR count limits occupancy (not on gfx10+).
  bool sgprsLimitOccupancy;
  /// Dense bf16 matrix peak of the reference product, TFLOPS (MI355X,
  /// RX 9070 XT; docs/Hardware.md#published-numbers), for percent-of-peak
  /// figures.
  double peakBf16Tflops;
  /// Accelerator complex dies (XCDs), each with its own L2, that the
  /// hardware deals workgroups to round-robin: 8 on MI355X, 1 on a
  /// monolithic die. The XCD workgroup order chunks over this many.
  int64_t xcds;
  /// Compute units of the reference product: 256 on MI355X (8 XCDs of 32,
  /// docs/hardware/TimingModel.md#memory), 64 on RX 9070 XT (32 WGPs of 2,
  /// docs/hardware/Fp8Facts.md#f8-sources). A persistent kernel's default
  /// grid (hk-run --moe).
  int64_t computeUnits;
  /// Whether hk's pipeline makes loops exit on != (hk-exact-loop-exits): a
  /// scalar 64-bit compare for the vector one an index less-than takes.
  /// gfx1201 (1-5 fewer instructions per trip); on gfx950 the backend then
  /// spills around the attention and GEMM loops (docs/Attention.md).
  bool exactLoopExits;
  /// Lanes of the largest workgroup the backend compiles for
  /// (docs/Hardware.md#targets).
  int64_t maxWorkgroupSize;
  /// The largest count a wait can name on the counter of global and
  /// direct-to-LDS loads (vmcnt, gfx12's loadcnt) and on the counter of LDS
  /// reads (lgkmcnt, gfx12's dscnt): the counters' widths, as LLVM's
  /// AMDGPUBaseInfo.cpp gives them (6 and 4 bits on gfx9, 6 and 6 on gfx12).
  int64_t maxVmCount;
  int64_t maxLgkmCount;

  bool hasDirectToLds() const { return directToLdsBytesPerLane != 0; }
  bool hasTransposedLdsReads() const { return transposedLdsReads; }

  /// The instruction computing `shape` on `operand` elements into `acc`
  /// elements, or null if the chip has none.
  const MmaInstr *findMma(MmaShape shape, ElementKind operand,
                          ElementKind acc) const;

  /// The MMA shapes of the chip for messages, e.g. "16x16x32".
  std::string describeMmaShapes() const;
};

/// What limits how many waves of a kernel fit on one SIMD.
struct Occupancy {
  int64_t byRegisters;
  int64_t byLds;
  int64_t bySgprs;
  int64_t wavesPerSimd; // the minimum of the three
};

/// Waves per SIMD of a kernel using `vgprs` registers per lane (VGPR + AGPR
/// total on CDNA), `sgprs` scalar registers and `ldsBytes` of LDS per
/// workgroup of `workgroupSize` lanes.
Occupancy estimateOccupancy(const ChipInfo &chip, int64_t vgprs, int64_t sgprs,
                            int64_t ldsBytes, int64_t workgroupSize);

/// The description of `chip`.
const ChipInfo &getChipInfo(Chip chip);

/// All chips hk supports, for messages: "gfx950, gfx1201".
std::string describeSupportedChips();

} // namespace mlir::hk

#endif // HK_TARGET_CHIP_H
