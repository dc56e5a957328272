//===- RunReport.h - what hk-run prints about a run -----------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The parts of hk-run's report every workload shares: the simulator's
// counters as text and as JSON fields.
//
//===----------------------------------------------------------------------===//

#ifndef HK_HARNESS_RUNREPORT_H
#define HK_HARNESS_RUNREPORT_H

#include "HK/Runtime/Simulator.h"

#include "llvm/Support/JSON.h"

namespace mlir::hk::run {

/// Prints compile and simulation times, instruction, MMA, barrier and byte
/// counts, the LDS access histograms and the instruction classes.
void printSimulatorCounters(const sim::Counters &counters,
                            double compileSeconds, double runSeconds);

/// Adds the same figures to `report` as JSON fields.
void addCountersJson(llvm::json::Object &report,
                     const sim::Counters &counters, double compileSeconds,
                     double runSeconds);

/// The name --test gave.
const char *testName();

} // namespace mlir::hk::run

#endif // HK_HARNESS_RUNREPORT_H
