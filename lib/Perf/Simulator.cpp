//===- Simulator.cpp - the cycle loop of hk-perf's CU model ---------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements simulateLoop: every wave of the CU walks the loop
// body `iterations` times; each cycle each SIMD's arbiter looks at its
// waves by priority, then age, and issues at most one instruction per
// category, each from a different wave (docs/hardware/TimingModel.md#issue).
// An instruction goes when its wave is not held (s_nop, a barrier, a wait
// on a counter), its operands are ready (scoreboard of result times) and
// its pipe is free: the SIMD's matrix pipe and VALU; LDS and vector memory
// are CU-wide pipes with a bandwidth, whose results land after a latency,
// in order per wave where the counter is in order.
//
//===----------------------------------------------------------------------===//

#include "Operation.h"

#include "HK/Perf/Perf.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>

using namespace llvm;

namespace mlir::hk::perf {

using isa::Counter;
using isa::InstrClass;

StringRef getStallReasonName(StallReason reason) {
  static constexpr StringLiteral names[] = {
      "counter", "barrier", "dependency", "matrix_pipe", "issue", "nop"};
  return names[unsigned(reason)];
}

/// Whether the waves run one barrier apart: as configured, else when a
/// workgroup holds two waves per SIMD and the loop has barriers to keep
/// them apart.
static bool usesPingPong(const PerfConfig &config, const ChipTiming &timing,
                         ArrayRef<Operation> ops) {
  if (config.pingPong)
    return *config.pingPong;
  return config.workgroupWaves == 2 * timing.simds &&
         any_of(ops, [](const Operation &op) {
           return op.barrier == BarrierRole::SignalAndWait ||
                  op.barrier == BarrierRole::Signal;
         });
}

namespace {

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

/// An outstanding memory operation on one counter of a wave.
struct Pending {
  uint64_t completion;
};

struct WaveState {
  unsigned id = 0, simd = 0, workgroup = 0;
  unsigned pc = 0, iteration = 0;
  /// Barriers still to take before the first iteration and after the last
  /// (the ping-pong offset).
  unsigned preBarriers = 0, postBarriers = 0;
  bool done = false;
  int priority = 0;
  /// The first cycle the wave may issue again (s_nop, s_sleep, branches).
  uint64_t heldUntil = 0;
  /// Waiting at a barrier of this generation (kNever: not waiting).
  uint64_t barrierGeneration = kNever;
  bool blockedOnBarrier = false;
  /// Per register: when its value may be read as a matrix instruction's
  /// source C, as its source A/B, and by anything else.
  std::vector<uint64_t> readyAsSrcC = std::vector<uint64_t>(kNumRegSlots, 0);
  std::vector<uint64_t> readyAsSrcAB = std::vector<uint64_t>(kNumRegSlots, 0);
  std::vector<uint64_t> readyAt = std::vector<uint64_t>(kNumRegSlots, 0);
  std::array<std::vector<Pending>, isa::kNumCounters> pending;
  /// Completion of the last in-order operation per counter.
  std::array<uint64_t, isa::kNumCounters> lastInOrder{};
  /// Cycle the wave issued the first instruction of the measured window
  /// and its last one; stall counters at the window's start.
  uint64_t windowStart = 0, windowEnd = 0;
  WaveStalls stalls, stallsAtWindowStart, stallsAtWindowEnd;
};

struct Workgroup {
  unsigned arrived = 0;
  uint64_t generation = 0;
  uint64_t releasedAt = 0;
};

class CuModel {
public:
  CuModel(const isa::InstructionStream &stream, const PerfConfig &config,
          const ChipTiming &timing);
  Expected<PerfResult> run();

private:
  std::optional<StallReason> whyNotIssue(WaveState &wave, uint64_t now,
                                         unsigned usedCategories);
  void issue(WaveState &wave, const Operation &op, uint64_t now);
  void issueMemory(WaveState &wave, const Operation &op, uint64_t now);
  void arriveAtBarrier(WaveState &wave, uint64_t now);
  void advance(WaveState &wave, uint64_t now);
  unsigned countOutstanding(WaveState &wave, Counter counter, uint64_t now);
  PerfResult summarize(uint64_t totalCycles);

  const PerfConfig &config;
  const ChipTiming &timing;
  std::vector<Operation> ops;
  unsigned warmup;
  std::vector<WaveState> waves;
  std::vector<Workgroup> workgroups;
  /// Per SIMD: its waves, the matrix pipe and VALU free times, and the
  /// matrix pipe's busy intervals.
  std::vector<std::vector<unsigned>> simdWaves;
  std::vector<uint64_t> matrixFree, valuFree;
  std::vector<std::vector<std::pair<uint64_t, uint64_t>>> matrixBusy;
  uint64_t ldsFreeClock = 0, vmemFreeClock = 0;
  unsigned finishedWaves = 0;
  std::vector<std::array<uint64_t, kNumStallReasons>> instructionStalls;
};

} // namespace

CuModel::CuModel(const isa::InstructionStream &stream, const PerfConfig &config,
                 const ChipTiming &timing)
    : config(config), timing(timing), ops(buildOperations(stream, timing)) {
  warmup =
      config.warmupIterations ? config.warmupIterations : config.iterations / 5;
  unsigned numWaves = timing.simds * config.wavesPerSimd;
  bool pingPong = usesPingPong(config, timing, ops);
  waves.resize(numWaves);
  workgroups.resize(numWaves / config.workgroupWaves);
  simdWaves.resize(timing.simds);
  matrixFree.assign(timing.simds, 0);
  valuFree.assign(timing.simds, 0);
  matrixBusy.resize(timing.simds);
  instructionStalls.resize(ops.size());
  for (unsigned id = 0; id < numWaves; ++id) {
    WaveState &wave = waves[id];
    wave.id = id;
    // Waves are dispatched to the SIMDs in turn (docs/hardware/
    // TimingModel.md#placement); a lower id is an older wave.
    wave.simd = id % timing.simds;
    wave.workgroup = id / config.workgroupWaves;
    wave.stalls.simd = wave.simd;
    if (pingPong) {
      bool secondHalf = id % config.workgroupWaves >= config.workgroupWaves / 2;
      (secondHalf ? wave.preBarriers : wave.postBarriers) = 1;
    }
    simdWaves[wave.simd].push_back(id);
  }
}

unsigned CuModel::countOutstanding(WaveState &wave, Counter counter,
                                   uint64_t now) {
  std::vector<Pending> &list = wave.pending[unsigned(counter)];
  llvm::erase_if(list, [&](const Pending &p) { return p.completion <= now; });
  return list.size();
}

std::optional<StallReason> CuModel::whyNotIssue(WaveState &wave, uint64_t now,
                                                unsigned usedCategories) {
  if (wave.blockedOnBarrier) {
    const Workgroup &group = workgroups[wave.workgroup];
    if (group.generation <= wave.barrierGeneration || now < group.releasedAt)
      return StallReason::Barrier;
    wave.blockedOnBarrier = false;
    wave.barrierGeneration = kNever;
  }
  if (wave.heldUntil > now)
    return StallReason::Nop;
  // Barriers around the loop (ping-pong offset) take no category.
  if (wave.preBarriers || wave.iteration == config.iterations)
    return std::nullopt;
  const Operation &op = ops[wave.pc];
  if (op.wait) {
    for (unsigned c = 0; c < isa::kNumCounters; ++c) {
      std::optional<unsigned> limit = op.wait->counts[c];
      if (limit && countOutstanding(wave, Counter(c), now) > *limit) {
        ++wave.stalls.counterCycles[c];
        return StallReason::Counter;
      }
    }
  }
  if (op.barrier == BarrierRole::Wait && wave.barrierGeneration != kNever) {
    const Workgroup &group = workgroups[wave.workgroup];
    if (group.generation <= wave.barrierGeneration || now < group.releasedAt)
      return StallReason::Barrier;
  }
  uint64_t operandsReady = 0;
  for (unsigned i = 0, e = op.reads.size(); i < e; ++i) {
    const std::vector<uint64_t> &ready = !op.matrixPasses ? wave.readyAt
                                         : int(i) == op.srcCRead
                                             ? wave.readyAsSrcC
                                             : wave.readyAsSrcAB;
    const RegSpan &span = op.reads[i];
    for (unsigned r = span.first, end = span.first + span.count; r < end; ++r)
      operandsReady = std::max(operandsReady, ready[r]);
  }
  // A matrix instruction waiting for both is charged to what it waits
  // for longer.
  if (op.matrixPasses && matrixFree[wave.simd] > now &&
      matrixFree[wave.simd] >= operandsReady)
    return StallReason::MatrixPipe;
  if (operandsReady > now)
    return StallReason::Dependency;
  if (op.valuCycles && valuFree[wave.simd] > now)
    return StallReason::Issue;
  if (usedCategories & unsigned(op.category))
    return StallReason::Issue;
  return std::nullopt;
}

void CuModel::arriveAtBarrier(WaveState &wave, uint64_t now) {
  Workgroup &group = workgroups[wave.workgroup];
  wave.barrierGeneration = group.generation;
  if (++group.arrived < config.workgroupWaves)
    return;
  group.arrived = 0;
  ++group.generation;
  group.releasedAt = now + timing.barrierLatency;
}

void CuModel::issueMemory(WaveState &wave, const Operation &op, uint64_t now) {
  // The shared pipes keep time in clocks, so that an access shorter than
  // an issue cycle costs only its share of one.
  auto usePipe = [&](uint64_t &freeClock, unsigned bytesPerClock) {
    uint64_t start = std::max(now * timing.clocksPerCycle, freeClock);
    freeClock = start + divideCeil(op.bytes, bytesPerClock);
    return divideCeil(freeClock, timing.clocksPerCycle);
  };
  uint64_t completion;
  if (op.cls == InstrClass::Lds)
    completion =
        usePipe(ldsFreeClock, timing.ldsBytesPerClock) + timing.ldsLatency;
  else if (op.cls == InstrClass::Smem)
    completion = now + op.latency;
  else
    completion =
        usePipe(vmemFreeClock, timing.vmemBytesPerClock) + timing.vmemLatency;
  for (unsigned c = 0; c < isa::kNumCounters; ++c) {
    if (!op.counters.contains(Counter(c)))
      continue;
    // Vector memory and LDS return in order on their counters; scalar
    // memory out of order (docs/hardware/TimingModel.md#counters).
    if (!op.outOfOrder) {
      completion = std::max(completion, wave.lastInOrder[c]);
      wave.lastInOrder[c] = completion;
    }
    wave.pending[c].push_back({completion});
  }
  for (const RegSpan &span : op.writes)
    for (unsigned r = span.first, e = span.first + span.count; r < e; ++r)
      wave.readyAt[r] = wave.readyAsSrcAB[r] = wave.readyAsSrcC[r] = completion;
}

void CuModel::issue(WaveState &wave, const Operation &op, uint64_t now) {
  switch (op.cls) {
  case InstrClass::Lds:
  case InstrClass::VmemLoad:
  case InstrClass::VmemStore:
  case InstrClass::DirectToLdsLoad:
  case InstrClass::Smem:
    issueMemory(wave, op, now);
    return;
  case InstrClass::Matrix:
    matrixFree[wave.simd] = now + op.matrixPasses;
    matrixBusy[wave.simd].push_back({now, now + op.matrixPasses});
    break;
  case InstrClass::Nop:
  case InstrClass::Sleep:
    wave.heldUntil = now + op.stallCycles;
    break;
  case InstrClass::Branch:
    wave.heldUntil = now + op.latency;
    break;
  case InstrClass::SetPrio:
    wave.priority = op.priority;
    break;
  case InstrClass::Barrier:
    if (op.barrier == BarrierRole::Wait) {
      wave.barrierGeneration = kNever;
    } else {
      arriveAtBarrier(wave, now);
      wave.blockedOnBarrier = op.barrier == BarrierRole::SignalAndWait;
    }
    break;
  default:
    break;
  }
  if (op.valuCycles)
    valuFree[wave.simd] = now + op.valuCycles;
  if (!op.matrixPasses && op.valuCycles && matrixFree[wave.simd] > now &&
      timing.valuDuringMatrixPenalty) {
    // The pipe stalls: the delay is not matrix work.
    matrixFree[wave.simd] += timing.valuDuringMatrixPenalty;
  }
  for (const RegSpan &span : op.writes)
    for (unsigned r = span.first, e = span.first + span.count; r < e; ++r) {
      wave.readyAsSrcC[r] = now + op.latency;
      wave.readyAsSrcAB[r] = now + op.latencyToSrcAB;
      wave.readyAt[r] = now + op.latencyToOther;
    }
}

/// Moves `wave` past the instruction (or ping-pong barrier) it issued.
void CuModel::advance(WaveState &wave, uint64_t now) {
  if (wave.preBarriers) {
    --wave.preBarriers;
    return;
  }
  if (wave.iteration == config.iterations) {
    if (--wave.postBarriers == 0) {
      wave.done = true;
      ++finishedWaves;
    }
    return;
  }
  if (++wave.pc < ops.size())
    return;
  wave.pc = 0;
  ++wave.iteration;
  if (wave.iteration == warmup) {
    wave.windowStart = now + 1;
    wave.stallsAtWindowStart = wave.stalls;
  }
  if (wave.iteration == config.iterations) {
    wave.windowEnd = now + 1;
    wave.stallsAtWindowEnd = wave.stalls;
    if (!wave.postBarriers) {
      wave.done = true;
      ++finishedWaves;
    }
  }
}

Expected<PerfResult> CuModel::run() {
  if (warmup == 0)
    for (WaveState &wave : waves)
      wave.stallsAtWindowStart = wave.stalls;
  std::vector<unsigned> order;
  uint64_t now = 0, lastIssue = 0;
  // No wave waits longer than its longest latency unless it never will.
  uint64_t deadlockCycles = 1000000;
  for (; finishedWaves < waves.size(); ++now) {
    if (now - lastIssue > deadlockCycles)
      return createStringError(
          "no wave issued for " + std::to_string(deadlockCycles) +
          " cycles at cycle " + std::to_string(now) +
          ": the loop deadlocks (a barrier not every wave reaches?)");
    for (unsigned simd = 0; simd < timing.simds; ++simd) {
      order = simdWaves[simd];
      // Priority first, then age (a lower id is older).
      llvm::stable_sort(order, [&](unsigned a, unsigned b) {
        return waves[a].priority > waves[b].priority;
      });
      unsigned used = 0;
      for (unsigned id : order) {
        WaveState &wave = waves[id];
        if (wave.done) {
          ++wave.stalls.finished;
          continue;
        }
        if (std::optional<StallReason> reason = whyNotIssue(wave, now, used)) {
          ++wave.stalls.cycles[unsigned(*reason)];
          if (!wave.preBarriers && wave.iteration < config.iterations)
            ++instructionStalls[wave.pc][unsigned(*reason)];
          continue;
        }
        if (wave.preBarriers || wave.iteration == config.iterations) {
          arriveAtBarrier(wave, now);
          wave.blockedOnBarrier = true;
        } else {
          const Operation &op = ops[wave.pc];
          issue(wave, op, now);
          used |= unsigned(op.category);
        }
        ++wave.stalls.issued;
        lastIssue = now;
        advance(wave, now);
      }
    }
  }
  return summarize(now);
}

PerfResult CuModel::summarize(uint64_t totalCycles) {
  PerfResult result;
  result.arch = timing.arch;
  result.workgroupWaves = config.workgroupWaves;
  result.wavesPerSimd = config.wavesPerSimd;
  result.iterations = config.iterations;
  result.warmupIterations = warmup;
  result.instructionsPerIteration = ops.size();
  result.pingPong = usesPingPong(config, timing, ops);
  result.totalCycles = totalCycles;
  result.instructionStalls = instructionStalls;
  for (const Operation &op : ops)
    result.matrixCyclesPerWaveIteration += op.matrixPasses;

  unsigned measured = config.iterations - warmup;
  uint64_t windowStart = 0, windowEnd = kNever;
  double cycles = 0;
  for (WaveState &wave : waves) {
    cycles += double(wave.windowEnd - wave.windowStart) / measured;
    windowStart = std::max(windowStart, wave.windowStart);
    windowEnd = std::min(windowEnd, wave.windowEnd);
    WaveStalls stalls = wave.stallsAtWindowEnd;
    const WaveStalls &base = wave.stallsAtWindowStart;
    stalls.issued -= base.issued;
    for (unsigned r = 0; r < kNumStallReasons; ++r)
      stalls.cycles[r] -= base.cycles[r];
    for (unsigned c = 0; c < isa::kNumCounters; ++c)
      stalls.counterCycles[c] -= base.counterCycles[c];
    stalls.finished = 0;
    result.waves.push_back(stalls);
  }
  result.cyclesPerIteration = cycles / waves.size();
  result.clocksPerIteration = result.cyclesPerIteration * timing.clocksPerCycle;
  // Utilisation over the cycles every wave was in its steady state; a run
  // too short for one falls back to the whole run.
  if (windowEnd <= windowStart)
    windowStart = 0, windowEnd = totalCycles;
  result.windowCycles = windowEnd - windowStart;
  double sum = 0;
  for (unsigned simd = 0; simd < timing.simds; ++simd) {
    uint64_t busy = 0;
    for (auto [begin, end] : matrixBusy[simd]) {
      uint64_t lo = std::max(begin, windowStart), hi = std::min(end, windowEnd);
      busy += hi > lo ? hi - lo : 0;
    }
    double utilization =
        result.windowCycles ? double(busy) / result.windowCycles : 0;
    result.simdMatrixUtilization.push_back(utilization);
    sum += utilization;
  }
  result.matrixUtilization = sum / timing.simds;
  return result;
}

Expected<PerfResult> simulateLoop(const isa::InstructionStream &stream,
                                  const PerfConfig &config) {
  if (Error error = validate(stream, config))
    return std::move(error);
  const ChipTiming &timing =
      config.timing ? *config.timing : getChipTiming(stream.target->getArch());
  CuModel model(stream, config, timing);
  return model.run();
}

} // namespace mlir::hk::perf
