//===- RunReport.h - what hk-run prints about a run -----------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The workloads' results as hk-run reports them: a summary as text or as
// one JSON object on `out`, the details of what went wrong (the first wrong
// elements, baseline notes) on `errors`. The tool's main chooses the
// streams; the workloads print nothing.
//
//===----------------------------------------------------------------------===//

#ifndef HK_HARNESS_RUNREPORT_H
#define HK_HARNESS_RUNREPORT_H

#include "HK/Harness/AttentionBackwardWorkload.h"
#include "HK/Harness/AttentionWorkload.h"
#include "HK/Harness/GemmWorkload.h"
#include "HK/Harness/GenericRun.h"
#include "HK/Harness/MoeWorkload.h"

#include "HK/Runtime/Simulator.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::hk::run {

/// Prints compile and simulation times, instruction, MMA, barrier and byte
/// counts, the LDS access histograms and the instruction classes.
void printSimulatorCounters(llvm::raw_ostream &out,
                            const sim::Counters &counters,
                            double compileSeconds, double runSeconds);

/// Adds the same figures to `report` as JSON fields.
void addCountersJson(llvm::json::Object &report, const sim::Counters &counters,
                     double compileSeconds, double runSeconds);

/// The GEMM's summary (sizes, grid, timing or counters, errors, PASS or
/// FAIL), as text or JSON.
void printGemmReport(const GemmConfig &config, const GemmResult &result,
                     bool json, llvm::raw_ostream &out,
                     llvm::raw_ostream &errors);

/// The attention backward run's summary, as text or JSON.
void printAttentionBackwardReport(const AttentionBackwardConfig &config,
                                  const AttentionBackwardResult &result,
                                  bool json, llvm::raw_ostream &out);

/// The attention run's summary, as text or JSON.
void printAttentionReport(const AttentionConfig &config,
                          const AttentionResult &result, bool json,
                          llvm::raw_ostream &out);

/// The MoE run's summary (sizes, routing, rows per expert, timing or
/// counters, errors, PASS or FAIL), as text or JSON; the first wrong
/// elements on `errors`.
void printMoeReport(const MoeConfig &config, const MoeResult &result, bool json,
                    llvm::raw_ostream &out, llvm::raw_ostream &errors);

/// A generic run's checks and summary.
void printGenericReport(const GenericConfig &config,
                        const GenericResult &result, llvm::raw_ostream &out);

} // namespace mlir::hk::run

#endif // HK_HARNESS_RUNREPORT_H
