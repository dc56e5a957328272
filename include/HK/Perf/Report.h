//===- Report.h - hk-perf's results as text and JSON ------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// How a PerfResult is shown: a text summary (cycles per iteration, matrix
// pipe utilisation per SIMD, the stall breakdown of each wave) and a JSON
// object with the same facts (`cycles_per_iteration`, `mfma_utilization`,
// ...), and the parameter table of a chip.
//
//===----------------------------------------------------------------------===//

#ifndef HK_PERF_REPORT_H
#define HK_PERF_REPORT_H

#include "HK/Perf/Perf.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::hk::perf {

/// The counters a chip's waits name, in the order they are reported.
llvm::ArrayRef<isa::Counter> getReportedCounters(isa::Arch arch);

void printResult(llvm::raw_ostream &os, const PerfResult &result);
llvm::json::Object toJson(const PerfResult &result);
/// The `count` instructions of `stream` waves stalled longest before, with
/// the reasons.
void printTopStalls(llvm::raw_ostream &os, const PerfResult &result,
                    const isa::InstructionStream &stream, unsigned count);

void printParameters(llvm::raw_ostream &os, const ChipTiming &timing);
llvm::json::Array parametersToJson(const ChipTiming &timing);

} // namespace mlir::hk::perf

#endif // HK_PERF_REPORT_H
