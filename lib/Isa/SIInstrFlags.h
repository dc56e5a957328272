//===- SIInstrFlags.h - the AMDGPU TSFlags bits hk reads --------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The bits of MCInstrDesc::TSFlags that the AMDGPU backend sets per opcode.
// LLVM defines them in lib/Target/AMDGPU/SIDefines.h (namespace
// SIInstrFlags, kept in sync with InstSI in SIInstrFormats.td), which is not
// an installed header, so the ones this layer uses are mirrored here with
// their values in LLVM 22.1. unittests/Isa/IsaTest.cpp checks each bit
// against instructions that must (and must not) have it.
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_ISA_SIINSTRFLAGS_H
#define HK_LIB_ISA_SIINSTRFLAGS_H

#include <cstdint>

namespace mlir::hk::isa::si_flags {

// Low bits: the encoding family.
constexpr uint64_t kSalu = UINT64_C(1) << 0;
constexpr uint64_t kValu = UINT64_C(1) << 1;
constexpr uint64_t kTrans = UINT64_C(1) << 16;
constexpr uint64_t kMubuf = UINT64_C(1) << 17;
constexpr uint64_t kMtbuf = UINT64_C(1) << 18;
constexpr uint64_t kSmrd = UINT64_C(1) << 19;
constexpr uint64_t kMimg = UINT64_C(1) << 20;
constexpr uint64_t kVimage = UINT64_C(1) << 21;
constexpr uint64_t kVsample = UINT64_C(1) << 22;
constexpr uint64_t kFlat = UINT64_C(1) << 24;
constexpr uint64_t kDs = UINT64_C(1) << 25;

// High bits: the counters an instruction uses (VM_CNT, EXP_CNT, LGKM_CNT),
// the FLAT segment, and the matrix families.
constexpr uint64_t kVmCnt = UINT64_C(1) << 32;
constexpr uint64_t kExpCnt = UINT64_C(1) << 33;
constexpr uint64_t kLgkmCnt = UINT64_C(1) << 34;
constexpr uint64_t kFlatGlobal = UINT64_C(1) << 51;
constexpr uint64_t kIsMai = UINT64_C(1) << 54;
constexpr uint64_t kFlatScratch = UINT64_C(1) << 56;
constexpr uint64_t kIsAtomicNoRet = UINT64_C(1) << 57;
constexpr uint64_t kIsWmma = UINT64_C(1) << 59;
constexpr uint64_t kIsSwmmac = UINT64_C(1) << 63;

constexpr uint64_t kVectorMemory =
    kMubuf | kMtbuf | kFlat | kMimg | kVimage | kVsample;

} // namespace mlir::hk::isa::si_flags

#endif // HK_LIB_ISA_SIINSTRFLAGS_H
