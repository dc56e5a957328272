//===- ChipTiming.h - the timing model's parameters per chip ----*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Every number hk-perf's model of one CU uses that LLVM's sched model does
// not give per instruction, in one table per chip (lib/Perf/ChipTiming.cpp)
// with its source. Latencies and pipe occupancies of single instructions
// come from the chip's MCSchedModel through the ISA layer; this table holds
// the rest: the machine's shape, bandwidths, memory latencies and the
// values LLVM leaves out or models as placeholders. The model's unit of time
// is the sched model's cycle: one issue slot of a SIMD (docs/hardware/
// TimingModel.md#time-unit).
//
//===----------------------------------------------------------------------===//

#ifndef HK_PERF_CHIPTIMING_H
#define HK_PERF_CHIPTIMING_H

#include "HK/Isa/Instruction.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace mlir::hk::perf {

/// Where a parameter's value comes from.
enum class ParameterOrigin {
  Published, // an AMD document (ISA guide, whitepaper, product page)
  Llvm,      // LLVM's AMDGPU backend (AMDGPU.td, SISchedule.td, ...)
  Derived,   // arithmetic on published values
  Assumed,   // no source: a stated assumption of the model
  Fitted,    // fitted on the calibration set (at most three)
};

llvm::StringRef getOriginName(ParameterOrigin origin);

/// One row of the table as it is printed: name, value, origin and source.
struct ParameterRow {
  llvm::StringRef name;
  double value;
  llvm::StringRef unit;
  ParameterOrigin origin;
  llvm::StringRef source;
};

/// The model's parameters of one chip. Times are in sched-model cycles
/// unless the name says clocks.
struct ChipTiming {
  isa::Arch arch = isa::Arch::gfx950;
  /// Clocks per sched-model cycle: one issue slot of a SIMD.
  unsigned clocksPerCycle = 1;
  /// SIMDs the model's unit holds (a CU on gfx950, a WGP on gfx1201).
  unsigned simds = 4;
  /// Wave slots per SIMD and the vector registers per lane of one SIMD,
  /// with their allocation granule: the occupancy a loop's registers allow.
  unsigned maxWavesPerSimd = 8;
  unsigned vgprsPerSimdLane = 512;
  unsigned vgprGranule = 8;
  /// Whether AGPRs come out of the same file as VGPRs (unified, gfx90a on).
  bool unifiedAgprs = true;

  /// Matrix instructions the sched model gives no matrix pipe for (WMMA on
  /// gfx1201): MACs per cycle of a SIMD's matrix pipe at 16-bit inputs, 8-
  /// bit inputs twice that. 0: the sched model's HWXDL occupancy is used.
  unsigned matrixMacsPerCycle16Bit = 0;
  /// Whether a matrix instruction holds the SIMD's VALU while it runs.
  bool matrixHoldsValu = false;
  /// Cycles after a matrix instruction's passes before other instructions
  /// may read its result: matrix instructions as source A/B, and the rest
  /// (VALU, memory). The next matrix instruction accumulating into the
  /// same registers (source C = its destination) needs only the passes.
  unsigned matrixToMatrixSrcAB = 0;
  unsigned matrixToOther = 0;
  /// Cycles a VALU instruction issued while its SIMD's matrix pipe is busy
  /// delays that pipe: the cost of running both at once (di/dt throttling).
  unsigned valuDuringMatrixPenalty = 0;

  /// LDS: bytes per clock of the unit's LDS pipe, and the latency (cycles)
  /// from the pipe's last byte to the data in registers.
  unsigned ldsBytesPerClock = 256;
  unsigned ldsLatency = 16;
  /// Vector memory: bytes per clock the unit moves from L2, and the
  /// L2-hit latency (cycles) from the request's last byte to completion.
  unsigned vmemBytesPerClock = 64;
  unsigned vmemLatency = 120;
  /// Release of a barrier after its last wave arrives (SISchedule.td's
  /// 500 cycles for s_barrier is a placeholder).
  unsigned barrierLatency = 1;

  /// The table, for printing (the model reads the fields above).
  llvm::ArrayRef<ParameterRow> rows;
};

/// The table of `arch` (lib/Perf/ChipTiming.cpp).
const ChipTiming &getChipTiming(isa::Arch arch);

/// Sets the parameter printed as `name` (e.g. "lds_latency",
/// "lds_bytes_per_clock") in `timing`: what a fit or a what-if run varies.
/// The printed rows keep the table's values. An error for a name the table
/// has no settable field for.
llvm::Error setParameter(ChipTiming &timing, llvm::StringRef name,
                         double value);

} // namespace mlir::hk::perf

#endif // HK_PERF_CHIPTIMING_H
