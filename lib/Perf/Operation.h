//===- Operation.h - an instruction as the timing model sees it -*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The facts of one instruction the model reads every time a wave meets it,
// computed once per loop: its issue category, the register slots it reads
// and writes, its latency, pipe occupancy and memory bytes.
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_PERF_OPERATION_H
#define HK_LIB_PERF_OPERATION_H

#include "HK/Isa/Isa.h"
#include "HK/Perf/ChipTiming.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace mlir::hk::perf {

/// The issue categories of a SIMD's arbiter: per cycle, at most one
/// instruction of each, from different waves (docs/hardware/
/// TimingModel.md#issue). `Internal` instructions (waits, s_nop, s_setprio,
/// s_barrier) are resolved in the sequencer and take no category.
enum class Category : uint8_t {
  Internal = 0,
  Valu = 1,
  Salu = 2,
  Vmem = 4,
  Lds = 8,
  Branch = 16,
};

/// Slots of the model's register scoreboard: VGPRs, AGPRs, SGPRs and the
/// special registers a dependency can go through.
constexpr unsigned kVgprBase = 0, kAgprBase = 512, kSgprBase = 768,
                   kVccBase = 896, kExecBase = 898, kSccSlot = 900,
                   kM0Slot = 901, kNumRegSlots = 902;

struct RegSpan {
  uint16_t first = 0;
  uint16_t count = 0;
};

/// How a barrier instruction takes part in the workgroup's barrier.
enum class BarrierRole : uint8_t { None, SignalAndWait, Signal, Wait };

struct Operation {
  isa::InstrClass cls = isa::InstrClass::Other;
  Category category = Category::Internal;
  BarrierRole barrier = BarrierRole::None;
  llvm::SmallVector<RegSpan, 4> reads;
  /// For matrix instructions: the index in `reads` of source C, which
  /// reads an accumulator chain at the producer's passes.
  int srcCRead = -1;
  llvm::SmallVector<RegSpan, 2> writes;
  /// Cycles from issue to results (the sched model's latency); for matrix
  /// instructions, to the results as source C of the next one, and to
  /// other matrix and non-matrix readers.
  unsigned latency = 1;
  unsigned latencyToSrcAB = 1, latencyToOther = 1;
  /// Cycles the matrix pipe is held (matrix instructions) and the VALU is
  /// held (VALU instructions: the sched model's HWVALU occupancy).
  unsigned matrixPasses = 0;
  unsigned valuCycles = 0;
  /// Bytes an LDS or vector memory instruction moves (a full wave).
  unsigned bytes = 0;
  /// Counters it increments; the wait's counts for waits.
  isa::CounterSet counters;
  std::optional<isa::WaitCounts> wait;
  /// s_nop's wait states, s_sleep's cycles, s_setprio's priority.
  unsigned stallCycles = 0;
  int priority = 0;
  /// Scalar memory: completes out of order with LDS on lgkmcnt.
  bool outOfOrder = false;
};

/// The operations of `stream`, under `timing`.
std::vector<Operation> buildOperations(const isa::InstructionStream &stream,
                                       const ChipTiming &timing);

} // namespace mlir::hk::perf

#endif // HK_LIB_PERF_OPERATION_H
