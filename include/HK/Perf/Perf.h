//===- Perf.h - a cycle-level model of one CU over a loop -------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// hk-perf's model: the waves of one CU (a WGP on gfx1201) run one loop body
// (an InstructionStream from the ISA layer) for a number of iterations.
// Waves are placed on the SIMDs round-robin; each cycle every SIMD issues
// at most one instruction per category from different waves, by s_setprio
// priority then age; the matrix pipe, the VALU, the CU-shared LDS and
// vector memory pipes, the wait counters and s_barrier decide when an
// instruction may go. The steady state (iterations after the warm-up)
// gives cycles per iteration, matrix pipe utilisation and, per wave, why it
// did not issue. docs/hardware/TimingModel.md describes the model and its
// sources.
//
//===----------------------------------------------------------------------===//

#ifndef HK_PERF_PERF_H
#define HK_PERF_PERF_H

#include "HK/Isa/Isa.h"
#include "HK/Perf/ChipTiming.h"

#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace mlir::hk::perf {

/// How a run of the model is set up.
struct PerfConfig {
  /// Waves of one workgroup; the CU holds simds * wavesPerSimd waves, as
  /// whole workgroups.
  unsigned workgroupWaves = 4;
  unsigned wavesPerSimd = 1;
  /// Trips of the loop every wave runs, and how many of the first are
  /// left out of the figures (0: a fifth of them).
  unsigned iterations = 100;
  unsigned warmupIterations = 0;
  /// Whether the second half of each workgroup's waves enters the loop one
  /// barrier ahead of the first, as HipKittens' 8-wave ping-pong kernels
  /// do (docs/Hardware.md#reference-loops), and the first half takes the
  /// balancing barrier after it. Unset: on when a workgroup holds two waves
  /// per SIMD (workgroupWaves == 2 * simds), the ping-pong layout.
  std::optional<bool> pingPong;
  /// The parameters; the chip's table unless a test overrides them.
  const ChipTiming *timing = nullptr;
};

/// Why a wave did not issue in a cycle.
enum class StallReason {
  Counter,    // an s_waitcnt / s_wait_* on a counter (see counterCycles)
  Barrier,    // waiting for the workgroup at s_barrier
  Dependency, // an operand not ready yet
  MatrixPipe, // its matrix instruction waits for the SIMD's matrix pipe
  Issue,      // ready, but another wave took the slot or the VALU was busy
  Nop,        // s_nop / s_sleep / a taken branch
};
constexpr unsigned kNumStallReasons = 6;

llvm::StringRef getStallReasonName(StallReason reason);

/// Cycles of the measured window a wave spent issuing and stalled.
struct WaveStalls {
  unsigned simd = 0;
  uint64_t issued = 0;
  /// Cycles the wave had nothing to do after its last iteration.
  uint64_t finished = 0;
  std::array<uint64_t, kNumStallReasons> cycles{};
  /// Counter stalls split by the counter waited on.
  std::array<uint64_t, isa::kNumCounters> counterCycles{};
};

struct PerfResult {
  isa::Arch arch = isa::Arch::gfx950;
  unsigned workgroupWaves = 0, wavesPerSimd = 0;
  unsigned iterations = 0, warmupIterations = 0;
  unsigned instructionsPerIteration = 0;
  bool pingPong = false;
  /// Steady-state cycles (and clocks) per loop iteration of every wave.
  double cyclesPerIteration = 0;
  double clocksPerIteration = 0;
  /// Matrix pipe busy cycles over the window, per SIMD, and their mean.
  std::vector<double> simdMatrixUtilization;
  double matrixUtilization = 0;
  /// Matrix pipe cycles one wave's iteration asks for (sum of passes).
  uint64_t matrixCyclesPerWaveIteration = 0;
  /// The measured window and the whole run, in cycles.
  uint64_t windowCycles = 0, totalCycles = 0;
  std::vector<WaveStalls> waves;
  /// Per instruction of the loop: stall cycles of all waves before it
  /// issued, by reason, over the whole run.
  std::vector<std::array<uint64_t, kNumStallReasons>> instructionStalls;
};

/// The most waves per SIMD the registers of `stream` allow on its chip.
unsigned getMaxWavesPerSimd(const isa::InstructionStream &stream,
                            const ChipTiming &timing);

/// Checks that the model can run `stream` as configured: a non-empty loop
/// of instructions the model knows, wave counts the chip and the loop's
/// registers allow. The error says what is wrong.
llvm::Error validate(const isa::InstructionStream &stream,
                     const PerfConfig &config);

/// Runs the model (after validate()).
llvm::Expected<PerfResult> simulateLoop(const isa::InstructionStream &stream,
                                        const PerfConfig &config);

} // namespace mlir::hk::perf

#endif // HK_PERF_PERF_H
