//===- PerfTest.cpp - hk-perf's model, one mechanism per test ------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Tiny gfx950 loops whose cycles are derived by hand in each test: issue
// arbitration (categories, age), s_setprio, the matrix pipe and operand
// dependencies, s_waitcnt on the shared LDS pipe, s_barrier, and the
// refusals. Times are sched-model cycles (4 clocks on gfx950). With one
// iteration and no warm-up a wave's window is the cycles from 0 to its last
// issue, inclusive: issued + stalls.
//
//===----------------------------------------------------------------------===//

#include "HK/Perf/Perf.h"

#include "ParseGfx950.h"

#include "llvm/Support/Error.h"

#include "gtest/gtest.h"

using namespace mlir::hk;
using namespace mlir::hk::perf;

namespace {

using test::parse;

/// gfx950's table with round numbers for the hand derivations: a
/// ds_read_b128 (1024 B) takes the LDS pipe 4 clocks = 1 cycle.
ChipTiming testTiming() {
  ChipTiming timing = getChipTiming(isa::Arch::gfx950);
  timing.ldsBytesPerClock = 256;
  timing.ldsLatency = 10;
  timing.barrierLatency = 2;
  timing.valuDuringMatrixPenalty = 0;
  return timing;
}

PerfResult run(llvm::StringRef text, unsigned workgroupWaves,
               unsigned wavesPerSimd, unsigned iterations = 1) {
  static ChipTiming timing = testTiming();
  isa::InstructionStream stream = parse(text);
  PerfConfig config;
  config.workgroupWaves = workgroupWaves;
  config.wavesPerSimd = wavesPerSimd;
  config.iterations = iterations;
  config.timing = &timing;
  llvm::Expected<PerfResult> result = simulateLoop(stream, config);
  if (!result) {
    ADD_FAILURE() << llvm::toString(result.takeError());
    return {};
  }
  return std::move(*result);
}

uint64_t window(const WaveStalls &wave) {
  uint64_t total = wave.issued;
  for (uint64_t cycles : wave.cycles)
    total += cycles;
  return total;
}

uint64_t stalls(const WaveStalls &wave, StallReason reason) {
  return wave.cycles[unsigned(reason)];
}

} // namespace

// Two waves per SIMD (waves 0 and 4 on SIMD 0), three VALU instructions
// each. One VALU issue per SIMD per cycle, oldest wave first: wave 0 issues
// at cycles 0, 1, 2 (window 3); wave 4 loses the slot those three cycles
// and issues at 3, 4, 5 (window 6).
TEST(PerfIssue, OldestWaveFirst) {
  PerfResult r = run("v_add_f32 v0, v1, v2\n"
                     "v_add_f32 v3, v1, v2\n"
                     "v_add_f32 v4, v1, v2\n",
                     8, 2);
  EXPECT_EQ(window(r.waves[0]), 3u);
  EXPECT_EQ(window(r.waves[4]), 6u);
  EXPECT_EQ(stalls(r.waves[4], StallReason::Issue), 3u);
}

// A VALU and a SALU instruction per trip, 50 trips, two waves per SIMD:
// the SIMD issues one instruction of each category per cycle, from
// different waves. Cycle 0: wave 0 VALU (wave 4's VALU loses); cycle 1:
// wave 0 SALU, wave 4 VALU; cycle 2: wave 0 VALU, wave 4 SALU; ... wave 0
// issues its 100 instructions in cycles 0-99, wave 4 in 1-100: 101 cycles.
// With two VALU instructions per trip the one VALU slot serves one wave at
// a time, the oldest first: wave 0 in cycles 0-99, wave 4 in 100-199.
TEST(PerfIssue, OneInstructionPerCategoryFromDifferentWaves) {
  PerfResult mixed = run("v_add_f32 v0, v1, v2\n"
                         "s_add_u32 s0, s1, s2\n",
                         8, 2, 50);
  EXPECT_EQ(mixed.totalCycles, 101u);
  PerfResult valu = run("v_add_f32 v0, v1, v2\n"
                        "v_add_f32 v3, v1, v2\n",
                        8, 2, 50);
  EXPECT_EQ(valu.totalCycles, 200u);
}

// s_setprio beats age. Waves 0 (older) and 4 on SIMD 0:
//   c0: both s_setprio 1 (no issue slot)   c1: 0 v0; 4 loses the slot
//   c2: 0 v1; 4 loses                      c3: 0 s_setprio 0; 4 v0
//   c4: 0 (prio 0) and 4 (prio 1) both want the VALU: 4 takes it (v1)
//   c5: 0 v2; 4 s_setprio 0                c6: 0 v3 (older); c7: 0 v4
//   c8..c10: 4 v2, v3, v4.
// Wave 0: window 8 with one issue stall (c4); wave 4: window 11. By age
// alone wave 0 would win at c4 and have no stall there.
TEST(PerfIssue, PriorityBeforeAge) {
  PerfResult r = run("s_setprio 1\n"
                     "v_add_f32 v0, v1, v2\n"
                     "v_add_f32 v3, v1, v2\n"
                     "s_setprio 0\n"
                     "v_add_f32 v4, v1, v2\n"
                     "v_add_f32 v5, v1, v2\n"
                     "v_add_f32 v6, v1, v2\n",
                     8, 2);
  EXPECT_EQ(window(r.waves[0]), 8u);
  EXPECT_EQ(stalls(r.waves[0], StallReason::Issue), 1u);
  EXPECT_EQ(window(r.waves[4]), 11u);
}

// Independent 16x16x32 MFMAs (4 passes in gfx950's sched model) issue when
// the pipe frees: cycles 0, 4, 8; window 9, 6 cycles waiting for the pipe.
// Steady state: 12 cycles per trip, the pipe always busy.
TEST(PerfMatrix, IndependentMfmasIssueWhenThePipeFrees) {
  llvm::StringRef loop =
      "v_mfma_f32_16x16x32_bf16 v[0:3], v[16:19], v[20:23], v[0:3]\n"
      "v_mfma_f32_16x16x32_bf16 v[4:7], v[16:19], v[20:23], v[4:7]\n"
      "v_mfma_f32_16x16x32_bf16 v[8:11], v[16:19], v[20:23], v[8:11]\n";
  PerfResult once = run(loop, 4, 1);
  EXPECT_EQ(window(once.waves[0]), 9u);
  EXPECT_EQ(stalls(once.waves[0], StallReason::MatrixPipe), 6u);
  PerfResult many = run(loop, 4, 1, 50);
  EXPECT_DOUBLE_EQ(many.cyclesPerIteration, 12.0);
  EXPECT_DOUBLE_EQ(many.matrixUtilization, 1.0);
}

// A VALU reading an MFMA's result waits for its passes + 4 (gfx950's wait
// states after an XDL write); an independent one does not. (The test table
// has no VALU-during-MFMA penalty.) c0 MFMA; c1 independent v_add;
// c2-c7 the dependent v_add waits (dependency); c8 it issues; c9 the next
// MFMA (pipe free since c4).
TEST(PerfMatrix, DependentInstructionWaitsForLatency) {
  PerfResult r =
      run("v_mfma_f32_16x16x32_bf16 v[0:3], v[16:19], v[20:23], v[0:3]\n"
          "v_add_f32 v24, v25, v26\n"
          "v_add_f32 v27, v0, v1\n"
          "v_mfma_f32_16x16x32_bf16 v[4:7], v[16:19], v[20:23], v[4:7]\n",
          4, 1);
  EXPECT_EQ(window(r.waves[0]), 10u);
  EXPECT_EQ(stalls(r.waves[0], StallReason::Dependency), 6u);
}

// Four waves (one per SIMD) issue a ds_read_b128 at cycle 0; the CU's LDS
// pipe serves them in turn, 4 clocks (1 cycle) each, then 10 cycles of
// latency: wave k's data lands at cycle 11 + k. Its s_waitcnt lgkmcnt(0)
// (cycle 1) waits until then: 10 + k cycles on lgkmcnt; the v_add follows.
TEST(PerfWaitcnt, LdsPipeAndLatency) {
  PerfResult r = run("ds_read_b128 v[0:3], v4\n"
                     "s_waitcnt lgkmcnt(0)\n"
                     "v_add_f32 v5, v0, v1\n",
                     4, 1);
  for (unsigned k = 0; k < 4; ++k) {
    EXPECT_EQ(r.waves[k].counterCycles[unsigned(isa::Counter::Lgkm)], 10 + k);
    EXPECT_EQ(window(r.waves[k]), 13 + k);
  }
}

// The waits above, then s_barrier: wave k arrives at cycle 12 + k, the last
// (wave 3) at 15; the barrier opens 2 cycles later, at 17, when every wave
// issues its v_add (window 18). Wave 0 waits at the barrier 4 cycles
// (13-16), wave 3 one (16).
TEST(PerfBarrier, WaitsForTheLastWave) {
  PerfResult r = run("ds_read_b128 v[0:3], v4\n"
                     "s_waitcnt lgkmcnt(0)\n"
                     "s_barrier\n"
                     "v_add_f32 v5, v0, v1\n",
                     4, 1);
  for (unsigned k = 0; k < 4; ++k)
    EXPECT_EQ(window(r.waves[k]), 18u);
  EXPECT_EQ(stalls(r.waves[0], StallReason::Barrier), 4u);
  EXPECT_EQ(stalls(r.waves[3], StallReason::Barrier), 1u);
}

// s_nop 3 holds its wave 4 cycles (3 + 1 wait states, its own included):
// c0 s_nop, c4 v_add.
TEST(PerfNop, WaitStates) {
  PerfResult r = run("s_nop 3\n"
                     "v_add_f32 v0, v1, v2\n",
                     4, 1);
  EXPECT_EQ(window(r.waves[0]), 5u);
  EXPECT_EQ(stalls(r.waves[0], StallReason::Nop), 3u);
}

TEST(PerfValidate, RefusesImpossibleWaveCounts) {
  isa::InstructionStream stream = parse("v_accvgpr_write_b32 a255, v255\n");
  PerfConfig config;
  config.workgroupWaves = 4;
  config.wavesPerSimd = 2; // 256 VGPRs + 256 AGPRs: one wave fills a SIMD.
  llvm::Error error = validate(stream, config);
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("512 registers"),
            std::string::npos);
  config.wavesPerSimd = 1;
  config.workgroupWaves = 3; // 4 resident waves are not whole workgroups.
  error = validate(stream, config);
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("does not divide"),
            std::string::npos);
  config.workgroupWaves = 4;
  EXPECT_FALSE(bool(validate(stream, config)));
}

TEST(PerfValidate, RefusesAnEmptyLoop) {
  isa::InstructionStream stream = parse("; nothing\n");
  PerfConfig config;
  llvm::Error error = validate(stream, config);
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("empty"), std::string::npos);
}
