//===- RunReport.cpp - what hk-run prints about a run ---------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HK/Harness/RunReport.h"
#include "HK/Harness/Options.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>

using namespace mlir::hk;

namespace mlir::hk::run {

void printSimulatorCounters(const sim::Counters &counters,
                            double compileSeconds, double runSeconds) {
  llvm::outs() << llvm::formatv(
      "  compile {0:F2} s, simulate {1:F2} s: {2} wave instructions, {3} "
      "lane instructions ({4:F1} M/s), {5} MMAs, {6} barriers\n",
      compileSeconds, runSeconds, counters.waveInstructions,
      counters.laneInstructions, counters.laneInstructions / runSeconds / 1e6,
      counters.mmas, counters.barriers);
  llvm::outs() << llvm::formatv(
      "  global bytes read {0}, written {1}; LDS bytes read {2}, written "
      "{3}\n",
      counters.globalBytesRead, counters.globalBytesWritten,
      counters.ldsBytesRead, counters.ldsBytesWritten);
  auto histogram = [](StringRef what,
                      const std::map<unsigned, std::map<unsigned, uint64_t>>
                          &h) {
    for (auto &[bytes, ways] : h) {
      uint64_t total = 0;
      std::string parts;
      for (auto &[w, count] : ways) {
        total += count;
        parts += llvm::formatv("{0}{1}-way {2}", parts.empty() ? "" : ", ", w,
                               count);
      }
      llvm::outs() << llvm::formatv("  LDS {0} of {1} bytes/lane: {2} ({3})\n",
                                    what, bytes, total, parts);
    }
  };
  histogram("reads", counters.ldsReads);
  histogram("writes", counters.ldsWrites);
  std::string classes;
  for (auto &[name, count] : counters.instructionClasses)
    classes +=
        llvm::formatv("{0}{1} {2}", classes.empty() ? "" : ", ", name, count);
  llvm::outs() << "  wave instructions by class: " << classes << "\n";
}

void addCountersJson(llvm::json::Object &report,
                     const sim::Counters &counters, double compileSeconds,
                     double runSeconds) {
  llvm::json::Object lds;
  for (auto [name, h] : {std::pair{"reads", &counters.ldsReads},
                         std::pair{"writes", &counters.ldsWrites}}) {
    llvm::json::Object byWidth;
    for (auto &[bytes, ways] : *h) {
      llvm::json::Object byWays;
      for (auto &[w, count] : ways)
        byWays[std::to_string(w) + "-way"] = count;
      byWidth[std::to_string(bytes) + "B"] = std::move(byWays);
    }
    lds[name] = std::move(byWidth);
  }
  llvm::json::Object classes;
  for (auto &[name, count] : counters.instructionClasses)
    classes[name] = count;
  report["compile_seconds"] = compileSeconds;
  report["simulate_seconds"] = runSeconds;
  report["wave_instructions"] = counters.waveInstructions;
  report["lane_instructions"] = counters.laneInstructions;
  report["lane_instructions_per_second"] =
      counters.laneInstructions / runSeconds;
  report["mmas"] = counters.mmas;
  report["mmas_per_second"] = counters.mmas / runSeconds;
  report["barriers"] = counters.barriers;
  report["global_bytes_read"] = counters.globalBytesRead;
  report["global_bytes_written"] = counters.globalBytesWritten;
  report["lds_bytes_read"] = counters.ldsBytesRead;
  report["lds_bytes_written"] = counters.ldsBytesWritten;
  report["lds_accesses"] = std::move(lds);
  report["instruction_classes"] = std::move(classes);
}

const char *testName() {
  static const char *names[] = {"identity", "random", "expected", "compare"};
  return names[static_cast<int>(testKind.getValue())];
}

} // namespace mlir::hk::run
