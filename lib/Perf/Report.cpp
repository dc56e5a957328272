//===- Report.cpp - hk-perf's results as text and JSON --------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the text and JSON forms of a PerfResult and of a
// chip's parameter table. Stall figures are fractions of each wave's own
// steady-state window.
//
//===----------------------------------------------------------------------===//

#include "HK/Perf/Report.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace mlir::hk::perf {

using isa::Counter;

ArrayRef<Counter> getReportedCounters(isa::Arch arch) {
  static constexpr Counter gfx9[] = {Counter::Vm, Counter::Lgkm};
  static constexpr Counter gfx12[] = {Counter::Load, Counter::Store,
                                      Counter::Ds, Counter::Km};
  if (arch == isa::Arch::gfx950)
    return gfx9;
  return gfx12;
}

static StringRef getMatrixName(isa::Arch arch) {
  return arch == isa::Arch::gfx950 ? "MFMA" : "WMMA";
}

/// Cycles of a wave's window: issued plus every stall.
static uint64_t getWindow(const WaveStalls &wave) {
  uint64_t total = wave.issued;
  for (uint64_t cycles : wave.cycles)
    total += cycles;
  return std::max<uint64_t>(total, 1);
}

void printResult(raw_ostream &os, const PerfResult &result) {
  StringRef chip = isa::getArchName(result.arch);
  os << formatv("hk-perf {0}: {1} waves per workgroup, {2} per SIMD, {3} "
                "iterations ({4} warm-up){5}\n",
                chip, result.workgroupWaves, result.wavesPerSimd,
                result.iterations, result.warmupIterations,
                result.pingPong ? ", ping-pong" : "");
  os << formatv("instructions per iteration: {0}\n",
                result.instructionsPerIteration);
  os << formatv("cycles per iteration: {0:F1} ({1:F1} clocks)\n",
                result.cyclesPerIteration, result.clocksPerIteration);
  os << formatv("{0} utilization: {1:F1}%", getMatrixName(result.arch),
                100 * result.matrixUtilization);
  os << " (per SIMD:";
  for (double u : result.simdMatrixUtilization)
    os << formatv(" {0:F1}%", 100 * u);
  os << formatv("; {0} {1} cycles per wave per iteration)\n",
                result.matrixCyclesPerWaveIteration,
                getMatrixName(result.arch));

  ArrayRef<Counter> counters = getReportedCounters(result.arch);
  os << "stalls per wave (% of its cycles):\n  wave simd  issued";
  for (Counter c : counters)
    os << formatv(" {0,9}", isa::getCounterName(c));
  os << "   barrier dependency matrix_pipe   issue     nop\n";
  for (unsigned w = 0; w < result.waves.size(); ++w) {
    const WaveStalls &wave = result.waves[w];
    double total = getWindow(wave);
    auto pct = [&](uint64_t cycles) { return 100.0 * cycles / total; };
    os << formatv("  {0,4} {1,4} {2,6:F1}%", w, wave.simd, pct(wave.issued));
    for (Counter c : counters)
      os << formatv(" {0,8:F1}%", pct(wave.counterCycles[unsigned(c)]));
    os << formatv(" {0,8:F1}% {1,9:F1}% {2,10:F1}% {3,6:F1}% {4,6:F1}%\n",
                  pct(wave.cycles[unsigned(StallReason::Barrier)]),
                  pct(wave.cycles[unsigned(StallReason::Dependency)]),
                  pct(wave.cycles[unsigned(StallReason::MatrixPipe)]),
                  pct(wave.cycles[unsigned(StallReason::Issue)]),
                  pct(wave.cycles[unsigned(StallReason::Nop)]));
  }
}

json::Object toJson(const PerfResult &result) {
  json::Object root;
  root["chip"] = isa::getArchName(result.arch).str();
  root["workgroup_waves"] = int64_t(result.workgroupWaves);
  root["waves_per_simd"] = int64_t(result.wavesPerSimd);
  root["iterations"] = int64_t(result.iterations);
  root["warmup_iterations"] = int64_t(result.warmupIterations);
  root["ping_pong"] = result.pingPong;
  root["instructions_per_iteration"] = int64_t(result.instructionsPerIteration);
  root["cycles_per_iteration"] = result.cyclesPerIteration;
  root["clocks_per_iteration"] = result.clocksPerIteration;
  root["mfma_utilization"] = result.matrixUtilization;
  json::Array perSimd;
  for (double u : result.simdMatrixUtilization)
    perSimd.push_back(u);
  root["mfma_utilization_per_simd"] = std::move(perSimd);
  root["mfma_cycles_per_wave_iteration"] =
      int64_t(result.matrixCyclesPerWaveIteration);
  root["window_cycles"] = int64_t(result.windowCycles);
  root["total_cycles"] = int64_t(result.totalCycles);
  json::Array waves;
  for (const WaveStalls &wave : result.waves) {
    json::Object entry;
    entry["simd"] = int64_t(wave.simd);
    entry["cycles"] = int64_t(getWindow(wave));
    entry["issued"] = int64_t(wave.issued);
    json::Object stalls;
    for (Counter c : getReportedCounters(result.arch))
      stalls[isa::getCounterName(c)] = int64_t(wave.counterCycles[unsigned(c)]);
    for (unsigned r = 0; r < kNumStallReasons; ++r)
      if (StallReason(r) != StallReason::Counter)
        stalls[getStallReasonName(StallReason(r))] = int64_t(wave.cycles[r]);
    entry["stall_cycles"] = std::move(stalls);
    waves.push_back(std::move(entry));
  }
  root["waves"] = std::move(waves);
  return root;
}

void printTopStalls(raw_ostream &os, const PerfResult &result,
                    const isa::InstructionStream &stream, unsigned count) {
  std::vector<std::pair<uint64_t, unsigned>> totals;
  for (unsigned i = 0; i < result.instructionStalls.size(); ++i) {
    uint64_t sum = 0;
    for (uint64_t cycles : result.instructionStalls[i])
      sum += cycles;
    if (sum)
      totals.push_back({sum, i});
  }
  llvm::sort(totals, [](auto a, auto b) { return a.first > b.first; });
  os << "instructions stalled on longest (cycles over all waves):\n";
  for (unsigned k = 0; k < std::min<size_t>(count, totals.size()); ++k) {
    auto [sum, i] = totals[k];
    os << formatv("  {0,8} #{1,-4} {2}   [", sum, i,
                  stream.instructions[i].text);
    ListSeparator separator(" ");
    for (unsigned r = 0; r < kNumStallReasons; ++r)
      if (uint64_t cycles = result.instructionStalls[i][r])
        os << separator << getStallReasonName(StallReason(r)) << " " << cycles;
    os << "]\n";
  }
}

void printParameters(raw_ostream &os, const ChipTiming &timing) {
  os << "parameters of " << isa::getArchName(timing.arch) << ":\n";
  for (const ParameterRow &row : timing.rows)
    os << formatv("  {0,-28} {1,8} {2,-18} {3,-9} {4}\n", row.name, row.value,
                  row.unit, getOriginName(row.origin), row.source);
}

json::Array parametersToJson(const ChipTiming &timing) {
  json::Array rows;
  for (const ParameterRow &row : timing.rows)
    rows.push_back(json::Object{{"name", row.name},
                                {"value", row.value},
                                {"unit", row.unit},
                                {"origin", getOriginName(row.origin)},
                                {"source", row.source}});
  return rows;
}

} // namespace mlir::hk::perf
