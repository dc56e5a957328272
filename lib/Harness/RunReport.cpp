//===- RunReport.cpp - what hk-run prints about a run ---------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HK/Harness/RunReport.h"

#include "HK/Target/Chip.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>
#include <string>

using namespace mlir::hk;

namespace mlir::hk::run {

void printSimulatorCounters(llvm::raw_ostream &out,
                            const sim::Counters &counters,
                            double compileSeconds, double runSeconds) {
  out << llvm::formatv(
      "  compile {0:F2} s, simulate {1:F2} s: {2} wave instructions, {3} "
      "lane instructions ({4:F1} M/s), {5} MMAs, {6} barriers\n",
      compileSeconds, runSeconds, counters.waveInstructions,
      counters.laneInstructions, counters.laneInstructions / runSeconds / 1e6,
      counters.mmas, counters.barriers);
  if (counters.workgroupShuffle)
    out << "  workgroups run in the order drawn from --shuffle-workgroups="
        << counters.workgroupShuffle << "\n";
  if (!counters.isaCompletion.empty()) {
    // The executor counts instructions, not bytes or classes.
    out << "  isa executor: counted memory operations completed "
        << (counters.isaCompletion == "eager"    ? "at issue"
            : counters.isaCompletion == "latest" ? "at the waits covering them"
                                                 : "at seeded random moments")
        << " (--isa-completion=" << counters.isaCompletion << ")\n";
    return;
  }
  out << llvm::formatv(
      "  global bytes read {0}, written {1}; LDS bytes read {2}, written "
      "{3}\n",
      counters.globalBytesRead, counters.globalBytesWritten,
      counters.ldsBytesRead, counters.ldsBytesWritten);
  auto histogram =
      [&](StringRef what,
          const std::map<unsigned, std::map<unsigned, uint64_t>> &h) {
        for (auto &[bytes, ways] : h) {
          uint64_t total = 0;
          std::string parts;
          for (auto &[w, count] : ways) {
            total += count;
            parts += llvm::formatv("{0}{1}-way {2}", parts.empty() ? "" : ", ",
                                   w, count);
          }
          out << llvm::formatv("  LDS {0} of {1} bytes/lane: {2} ({3})\n", what,
                               bytes, total, parts);
        }
      };
  histogram("reads", counters.ldsReads);
  histogram("writes", counters.ldsWrites);
  std::string classes;
  for (auto &[name, count] : counters.instructionClasses)
    classes +=
        llvm::formatv("{0}{1} {2}", classes.empty() ? "" : ", ", name, count);
  out << "  wave instructions by class: " << classes << "\n";
  out << (counters.ranBothAsyncOrders
              ? "  asynchronous LDS completion modelled both ways: "
                "direct-to-LDS loads landing at their waits, and LDS reads "
                "finishing at theirs, gave the same results\n"
              : "  no direct-to-LDS loads: every access completed at issue\n");
}

void addCountersJson(llvm::json::Object &report, const sim::Counters &counters,
                     double compileSeconds, double runSeconds) {
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
  report["both_async_orders"] = counters.ranBothAsyncOrders;
  report["compile_seconds"] = compileSeconds;
  report["simulate_seconds"] = runSeconds;
  report["wave_instructions"] = counters.waveInstructions;
  report["lane_instructions"] = counters.laneInstructions;
  report["lane_instructions_per_second"] =
      counters.laneInstructions / runSeconds;
  report["mmas"] = counters.mmas;
  report["mmas_per_second"] = counters.mmas / runSeconds;
  report["barriers"] = counters.barriers;
  report["shuffle_workgroups"] = counters.workgroupShuffle;
  if (!counters.isaCompletion.empty()) {
    // The ISA executor counts instructions, MMAs and barriers only: the
    // simulator's byte and class counters would read as zeros.
    report["isa_completion"] = counters.isaCompletion;
    return;
  }
  report["global_bytes_read"] = counters.globalBytesRead;
  report["global_bytes_written"] = counters.globalBytesWritten;
  report["lds_bytes_read"] = counters.ldsBytesRead;
  report["lds_bytes_written"] = counters.ldsBytesWritten;
  report["lds_accesses"] = std::move(lds);
  report["instruction_classes"] = std::move(classes);
}

/// TestKind::compare: what the tested version was compared with, and where
/// it ran ("'other.mlir' on sim", "the same input on isa"), so that a PASS
/// names the two runs that agreed.
static std::string describeCompared(const RunConfig &rc) {
  RunConfig compared = getComparedRunConfig(rc);
  std::string what =
      rc.compareWith.empty() ? "the same input" : "'" + rc.compareWith + "'";
  std::string stages =
      rc.compareStages ? llvm::formatv(" (the plain baseline at stages={0})",
                                       *rc.compareStages)
                             .str()
                       : std::string();
  return what + " on " + stringifyBackend(compared.backend) + stages;
}

/// The compared version's line of a text report (none without a compare).
static void printCompared(const RunConfig &rc, llvm::raw_ostream &out) {
  if (rc.test == TestKind::compare)
    out << "  compared bit for bit with " << describeCompared(rc) << "\n";
}

/// The compared version's input and backend as JSON fields.
static void addComparedJson(llvm::json::Object &report, const RunConfig &rc) {
  if (rc.test != TestKind::compare)
    return;
  RunConfig compared = getComparedRunConfig(rc);
  report["compare_with"] = compared.inputFile;
  report["compare_backend"] = stringifyBackend(compared.backend);
}

/// A workload's FLOPs, the chip's peak and, when timed (hip), the median
/// time and the rate, as JSON fields.
static void addTimingJson(llvm::json::Object &report, double flops,
                          double peakTflops, std::optional<double> ms) {
  report["flops"] = flops;
  report["peak_tflops"] = peakTflops;
  report["median_milliseconds"] = ms ? llvm::json::Value(*ms) : nullptr;
  report["tflops"] =
      ms ? llvm::json::Value(flops / (*ms * 1e-3) / 1e12) : nullptr;
}

/// The first wrong elements and the padding writes of a GEMM check.
static void printGemmMismatches(const GemmCheck &check,
                                llvm::raw_ostream &errors) {
  for (const std::string &line : check.mismatches)
    errors << line << "\n";
  if (check.paddingWrites)
    errors << "the kernel wrote " << check.paddingWrites
           << " elements of C's row padding\n";
}

void printGemmReport(const GemmConfig &config, const GemmResult &result,
                     bool json, llvm::raw_ostream &out,
                     llvm::raw_ostream &errors) {
  const RunConfig &rc = config.run;
  const GemmProblem &problem = result.problem;
  const GemmRun &run = result.run;
  const GemmCheck &check = result.check;
  int64_t M = problem.shape.M, N = problem.shape.N, K = problem.shape.K;
  int64_t batch = problem.batch, bad = result.wrong();
  for (const std::string &line : result.saved)
    out << "hk-run: " << line << "\n";
  printGemmMismatches(check, errors);
  const std::optional<GemmBaseline> &baseline = result.baseline;
  if (baseline && !baseline->skipped.empty())
    errors << "hk-run: note: no " << baseline->library
           << " baseline: " << baseline->skipped << "\n";
  if (baseline && baseline->check) {
    printGemmMismatches(*baseline->check, errors);
    if (baseline->check->bad)
      errors << "hk-run: " << baseline->library << "'s C failed the check ("
             << baseline->check->bad << " wrong elements): its time is "
             << "not reported\n";
  }

  // The chips' dense fp8 peak is twice their bf16 peak
  // (docs/hardware/Fp8Facts.md#f8-peaks).
  bool fp8 = problem.signature.fp8();
  double peakTflops = getChipInfo(rc.chip).peakBf16Tflops * (fp8 ? 2 : 1);
  auto tflopsAt = [&](double ms) {
    return 2.0 * batch * M * N * K / (ms * 1e-3) / 1e12;
  };
  bool hip = rc.backend == Backend::hip;
  if (json) {
    llvm::json::Value baselineJson = nullptr;
    if (baseline) {
      llvm::json::Object o{{"library", config.baseline == Baseline::rocblas
                                           ? "rocblas"
                                           : "hipblaslt"}};
      if (!baseline->skipped.empty())
        o["skipped"] = baseline->skipped;
      if (baseline->check) {
        o["pass"] = baseline->check->bad == 0;
        o["wrong_elements"] = baseline->check->bad;
        o["max_abs_error"] = baseline->check->maxAbs;
      }
      if (baseline->timing) {
        o["median_milliseconds"] = baseline->timing->median();
        o["tflops"] = tflopsAt(baseline->timing->median());
      }
      baselineJson = std::move(o);
    }
    llvm::json::Object report{
        {"kernel", run.kernel},
        {"chip", stringifyChip(rc.chip)},
        {"backend", stringifyBackend(rc.backend)},
        {"median_milliseconds",
         hip ? llvm::json::Value(run.timing.median()) : nullptr},
        {"tflops",
         hip ? llvm::json::Value(tflopsAt(run.timing.median())) : nullptr},
        {"peak_tflops", peakTflops},
        {"size", llvm::json::Array{M, N, K}},
        {"batch", batch},
        {"layout", getLayoutName(problem.shape)},
        {"padding_writes", check.paddingWrites},
        {"test", stringifyTestKind(rc.test)},
        {"pass", bad == 0},
        {"wrong_elements", bad},
        {"checked_elements", check.checked},
        {"baseline", std::move(baselineJson)},
        {"max_abs_error", check.maxAbs},
        {"max_rel_error", check.maxRel},
    };
    addComparedJson(report, rc);
    addCountersJson(report, run.counters, run.compileSeconds, run.runSeconds);
    out << llvm::formatv("{0}\n", llvm::json::Value(std::move(report)));
    return;
  }
  const std::array<int64_t, 3> &grid = run.grid;
  out << llvm::formatv(
      "hk-run: {0} on {1} ({8}), M={2} N={3} K={4}{9}{11}, grid {5}x{6}{10}, "
      "{7} test, at {12}\n",
      run.kernel, stringifyChip(rc.chip), M, N, K, grid[0], grid[1],
      stringifyTestKind(rc.test), stringifyBackend(rc.backend),
      batch > 1 ? " batch=" + std::to_string(batch) : std::string(),
      grid[2] > 1 ? "x" + std::to_string(grid[2]) : std::string(),
      getLayoutName(problem.shape) == "nt"
          ? std::string()
          : " layout=" + getLayoutName(problem.shape),
      run.variant);
  printCompared(rc, out);
  if (hip) {
    double ms = run.timing.median();
    double tflops = tflopsAt(ms);
    out << llvm::formatv(
        "  median of {0} timed runs after {1} warm-up: {2:F3} ms, {3:F1} "
        "TFLOPS ({4:F1}% of the {5}'s {6} TFLOPS {7} peak)\n",
        run.timing.milliseconds.size(), rc.warmup, ms, tflops,
        100 * tflops / peakTflops, stringifyChip(rc.chip), peakTflops,
        fp8 ? "fp8" : "bf16");
    if (baseline && baseline->timing)
      out << llvm::formatv(
          "  {3} (checked): {0:F3} ms, {1:F1} TFLOPS; hk at {2:F0}% of "
          "it\n",
          baseline->timing->median(), tflopsAt(baseline->timing->median()),
          100 * baseline->timing->median() / ms, baseline->library);
  } else {
    const sim::Counters &counters = run.counters;
    printSimulatorCounters(out, counters, run.compileSeconds, run.runSeconds);
  }
  if (!hip && run.counters.isaCompletion.empty()) {
    const sim::Counters &counters = run.counters;
    // The kernels' K tile is 128 bytes of each row (64 bf16, 128 fp8); a
    // partial K tile counts as one.
    int64_t kTile = 128 / problem.signature.abBytes();
    int64_t tiles = std::max<int64_t>(1, grid[0] * grid[1] * grid[2] *
                                             ((K + kTile - 1) / kTile));
    out << llvm::formatv(
        "  per workgroup per K tile of {4}: {0} MMAs, {1} global bytes read, "
        "{2} LDS bytes read, {3} written\n",
        counters.mmas / tiles, counters.globalBytesRead / tiles,
        counters.ldsBytesRead / tiles, counters.ldsBytesWritten / tiles, kTile);
  }
  out << llvm::formatv("  max abs error {0:E3}, max rel error "
                       "{1:E3}, {2} of {3} elements wrong{4}\n",
                       check.maxAbs, check.maxRel, bad, check.checked,
                       check.checked == batch * M * N ? ""
                                                      : " (a random sample)");
  out << (bad == 0 ? "PASS\n" : "FAIL\n");
}

void printAttentionReport(const AttentionConfig &config,
                          const AttentionResult &result, bool json,
                          llvm::raw_ostream &out) {
  const RunConfig &rc = config.run;
  const AttentionProblem &p = config.problem;
  const AttentionCheck &check = result.check;
  const hip::Timing &timing = result.stats.timing;
  const sim::Counters &counters = result.stats.counters;
  double compileSeconds = result.kernel.compileSeconds;
  double runSeconds = result.stats.runSeconds;
  double peakTflops = getChipInfo(rc.chip).peakBf16Tflops;
  bool hip = rc.backend == Backend::hip, pass = result.passed();
  if (json) {
    llvm::json::Object report{
        {"kernel", result.kernel.name},
        {"chip", stringifyChip(rc.chip)},
        {"backend", stringifyBackend(rc.backend)},
        {"attention", llvm::json::Array{p.batch, p.qHeads, p.kvHeads, p.queries,
                                        p.keys, p.headDim}},
        {"causal", p.causal},
        {"test", stringifyTestKind(rc.test)},
        {"pass", pass},
        {"wrong_o", check.badO},
        {"wrong_lse", check.badLse},
        {"checked_elements", check.checked},
        {"max_abs_error_o", check.maxAbsO},
        {"max_abs_error_lse", check.maxAbsLse},
    };
    addTimingJson(report, result.flops, peakTflops,
                  hip ? std::optional(timing.median()) : std::nullopt);
    addComparedJson(report, rc);
    addCountersJson(report, counters, compileSeconds, runSeconds);
    out << llvm::formatv("{0}\n", llvm::json::Value(std::move(report)));
    return;
  }
  const std::array<int64_t, 3> &grid = result.kernel.grid;
  out << llvm::formatv(
      "hk-run: {0} on {1} ({2}), B={3} Hq={4} Hkv={5} Nq={6} Nkv={7} d={8}"
      "{9}, grid {10}x{11}x{12}, {13} test, at {14}\n",
      result.kernel.name, stringifyChip(rc.chip), stringifyBackend(rc.backend),
      p.batch, p.qHeads, p.kvHeads, p.queries, p.keys, p.headDim,
      p.causal ? " causal" : "", grid[0], grid[1], grid[2],
      stringifyTestKind(rc.test), result.kernel.variant);
  printCompared(rc, out);
  if (hip) {
    double ms = timing.median();
    double tflops = result.flops / (ms * 1e-3) / 1e12;
    out << llvm::formatv(
        "  median of {0} timed runs after {1} warm-up: {2:F3} ms, {3:F1} "
        "TFLOPS ({4:F1}% of the {5}'s {6} TFLOPS bf16 peak)\n",
        timing.milliseconds.size(), rc.warmup, ms, tflops,
        100 * tflops / peakTflops, stringifyChip(rc.chip), peakTflops);
  } else {
    printSimulatorCounters(out, counters, compileSeconds, runSeconds);
  }
  out << llvm::formatv(
      "  O: max abs error {0:E3}, {1} of {2} elements wrong; LSE: max abs "
      "error {3:E3}, {4} of {5} wrong{6}\n",
      check.maxAbsO, check.badO, check.checked / (p.headDim + 1) * p.headDim,
      check.maxAbsLse, check.badLse, check.checked / (p.headDim + 1),
      check.checked == p.elements(argO) + p.elements(argLse)
          ? ""
          : " (a random sample of query rows)");
  out << (pass ? "PASS\n" : "FAIL\n");
}

/// A kernel run as a JSON object: its name, grid, median time (hip) and
/// counters (sim, isa).
static llvm::json::Value kernelRunJson(const PreparedKernel &kernel,
                                       const LaunchStats &stats, bool hip) {
  llvm::json::Object o{
      {"kernel", kernel.name},
      {"grid",
       llvm::json::Array{kernel.grid[0], kernel.grid[1], kernel.grid[2]}},
      {"median_milliseconds",
       hip ? llvm::json::Value(stats.timing.median()) : nullptr}};
  if (!hip)
    addCountersJson(o, stats.counters, kernel.compileSeconds, stats.runSeconds);
  return std::move(o);
}

/// The backward variant's line of a text report: its kernels and what
/// each computes.
static void printBackwardVariant(const AttentionBackwardResult &result,
                                 llvm::raw_ostream &out) {
  const std::vector<BackwardKernelRun> &k = result.kernels;
  if (result.variant == AttentionBackwardVariant::fused) {
    out << llvm::formatv(
        "  fused: {0} (D, dQacc zeroed), {1} (dK, dV, and dQ added into the "
        "f32 workspace dQacc [B, Hq, Nq, d] with atomics; dQacc starts as "
        "NaN), {2} (dQ from dQacc)\n",
        k[0].kernel.name, k[1].kernel.name, k[2].kernel.name);
    return;
  }
  out << llvm::formatv("  deterministic: {0} (dQ, D), then {1} (dK, dV)\n",
                       k[0].kernel.name, k[1].kernel.name);
}

void printAttentionBackwardReport(const AttentionBackwardConfig &config,
                                  const AttentionBackwardResult &result,
                                  bool json, llvm::raw_ostream &out) {
  const RunConfig &rc = config.run;
  const AttentionProblem &p = config.problem.forward;
  const AttentionBackwardCheck &check = result.check;
  bool hip = rc.backend == Backend::hip, pass = result.passed();
  double ms = 0, compileSeconds = 0, runSeconds = 0;
  for (const BackwardKernelRun &k : result.kernels) {
    ms += hip ? k.stats.timing.median() : 0;
    compileSeconds += k.kernel.compileSeconds;
    runSeconds += k.stats.runSeconds;
  }
  double peakTflops = getChipInfo(rc.chip).peakBf16Tflops;
  const char *variant = stringifyAttentionBackwardVariant(result.variant);
  bool withinDq = rc.test == TestKind::compare && !result.compareExactDq;
  struct Named {
    const char *name;
    const GradientCheck &check;
  } gradients[] = {
      {"dq", check.dq}, {"dk", check.dk}, {"dv", check.dv}, {"d", check.d}};
  if (json) {
    llvm::json::Array names, runs;
    for (const BackwardKernelRun &k : result.kernels) {
      names.push_back(k.kernel.name);
      runs.push_back(kernelRunJson(k.kernel, k.stats, hip));
    }
    llvm::json::Object report{
        {"kernels", std::move(names)},
        {"variant", variant},
        {"kernel_runs", std::move(runs)},
        {"chip", stringifyChip(rc.chip)},
        {"backend", stringifyBackend(rc.backend)},
        {"attention_bwd", llvm::json::Array{p.batch, p.qHeads, p.kvHeads,
                                            p.queries, p.keys, p.headDim}},
        {"causal", p.causal},
        {"test", stringifyTestKind(rc.test)},
        {"pass", pass},
        {"compile_seconds", compileSeconds},
        {"run_seconds", runSeconds}};
    llvm::json::Array saved;
    for (const auto &save : config.saves)
      saved.push_back(save.second);
    report["saved"] = std::move(saved);
    addTimingJson(report, result.flops, peakTflops,
                  hip ? std::optional(ms) : std::nullopt);
    for (const Named &g : gradients) {
      report[std::string("wrong_") + g.name] = g.check.bad;
      report[std::string("max_abs_error_") + g.name] = g.check.maxAbs;
      report[std::string("checked_") + g.name] = g.check.checked;
    }
    addComparedJson(report, rc);
    if (rc.test == TestKind::compare)
      report["compare_dq"] = withinDq ? "within_tolerance" : "bit_for_bit";
    out << llvm::formatv("{0}\n", llvm::json::Value(std::move(report)));
    return;
  }
  for (const std::string &line : result.saved)
    out << "hk-run: " << line << "\n";
  for (const BackwardKernelRun &k : result.kernels)
    out << llvm::formatv(
        "hk-run: {0} on {1} ({2}), B={3} Hq={4} Hkv={5} Nq={6} Nkv={7} "
        "d={8}{9}, grid {10}x{11}x{12}, {13} test, at {14}\n",
        k.kernel.name, stringifyChip(rc.chip), stringifyBackend(rc.backend),
        p.batch, p.qHeads, p.kvHeads, p.queries, p.keys, p.headDim,
        p.causal ? " causal" : "", k.kernel.grid[0], k.kernel.grid[1],
        k.kernel.grid[2], stringifyTestKind(rc.test), k.kernel.variant);
  printBackwardVariant(result, out);
  if (withinDq)
    out << "  compared with " << describeCompared(rc)
        << ": dK, dV and D bit for bit, dQ within the fp64 check's tolerance "
           "(a fused backward's atomic adds come in any order)\n";
  else
    printCompared(rc, out);
  if (hip) {
    for (const BackwardKernelRun &k : result.kernels)
      out << llvm::formatv("  {0}: median {1:F3} ms\n", k.kernel.name,
                           k.stats.timing.median());
    double tflops = result.flops / (ms * 1e-3) / 1e12;
    out << llvm::formatv(
        "  {0}: {1:F3} ms, {2:F1} TFLOPS "
        "({3:F1}% of the {4}'s {5} TFLOPS bf16 peak)\n",
        result.kernels.size() == 2
            ? std::string("both kernels")
            : llvm::formatv("all {0} kernels", result.kernels.size()).str(),
        ms, tflops, 100 * tflops / peakTflops, stringifyChip(rc.chip),
        peakTflops);
  } else {
    for (const BackwardKernelRun &k : result.kernels) {
      out << "  " << k.kernel.name << ":\n";
      printSimulatorCounters(out, k.stats.counters, k.kernel.compileSeconds,
                             k.stats.runSeconds);
    }
  }
  for (const Named &g : gradients)
    out << llvm::formatv("  {0}: max abs error {1:E3}, {2} of {3} elements "
                         "wrong\n",
                         g.name, g.check.maxAbs, g.check.bad, g.check.checked);
  out << (pass ? "PASS\n" : "FAIL\n");
}

/// The rows the least and the most loaded experts get, and how many get
/// none.
struct ExpertLoad {
  int64_t min = 0, max = 0, empty = 0;
};

static ExpertLoad getExpertLoad(const MoeRouting &routing) {
  ExpertLoad load;
  load.min = routing.rows();
  for (int64_t e = 0; e < routing.experts; ++e) {
    int64_t rows = routing.rowsOf(e);
    load.min = std::min(load.min, rows);
    load.max = std::max(load.max, rows);
    load.empty += rows == 0;
  }
  return load;
}

/// The sum kernel's lines of a text report: its grid and median time with
/// both kernels' (hip, `mainMs` the first's), or its counters.
static void printMoeSumKernel(const PreparedKernel &sum,
                              const LaunchStats &stats, bool hip, double mainMs,
                              llvm::raw_ostream &out) {
  out << llvm::formatv("  then {0}, grid {1}x{2}x{3}", sum.name, sum.grid[0],
                       sum.grid[1], sum.grid[2]);
  if (hip) {
    double ms = stats.timing.median();
    out << llvm::formatv(": median {0:F3} ms, both kernels {1:F3} ms\n", ms,
                         mainMs + ms);
    return;
  }
  out << ":\n";
  printSimulatorCounters(out, stats.counters, sum.compileSeconds,
                         stats.runSeconds);
}

void printMoeReport(const MoeConfig &config, const MoeResult &result, bool json,
                    llvm::raw_ostream &out, llvm::raw_ostream &errors) {
  const RunConfig &rc = config.run;
  const MoeSizes &z = config.sizes;
  const MoeCheck &check = result.check;
  const hip::Timing &timing = result.stats.timing;
  const sim::Counters &counters = result.stats.counters;
  double compileSeconds = result.kernel.compileSeconds;
  double runSeconds = result.stats.runSeconds;
  ExpertLoad load = getExpertLoad(result.routing);
  std::string routing = config.routing == MoeRoutingKind::file
                            ? config.routingFile
                            : stringifyMoeRoutingKind(config.routing);
  // The chips' dense fp8 peak is twice their bf16 peak
  // (docs/hardware/Fp8Facts.md#f8-peaks).
  bool fp8 = result.problem.signature.fp8();
  double peakTflops = getChipInfo(rc.chip).peakBf16Tflops * (fp8 ? 2 : 1);
  bool hip = rc.backend == Backend::hip, pass = result.passed();
  int64_t total = result.problem.outRows() * result.problem.outColumns();
  bool gathered = result.problem.signature.gathered;
  bool combine = result.problem.signature.combine();
  bool deterministic = result.problem.signature.deterministic;
  const std::optional<PreparedKernel> &sum = result.sumKernel;
  const MoeAlignment &alignment = result.problem.alignment;
  auto ifGathered = [&](int64_t value) {
    return gathered ? llvm::json::Value(value) : nullptr;
  };
  for (const std::string &line : check.mismatches)
    errors << line << "\n";
  if (json) {
    llvm::json::Array saved;
    for (const std::string &path : config.saveFiles)
      saved.push_back(path);
    llvm::json::Object report{
        {"kernel", result.kernel.name},
        {"chip", stringifyChip(rc.chip)},
        {"backend", stringifyBackend(rc.backend)},
        {"saved", std::move(saved)},
        {"moe", llvm::json::Array{z.experts, z.n, z.k, z.tokens, z.topk}},
        {"routing", routing},
        {"gated", result.problem.signature.gated()},
        {"combine", combine},
        {"deterministic", deterministic},
        {"sum_kernel", sum ? kernelRunJson(*sum, result.sumStats, hip)
                           : llvm::json::Value(nullptr)},
        {"form", gathered ? "gathered" : "contiguous"},
        {"sorted_token_ids", ifGathered(alignment.entries())},
        {"padding_entries", ifGathered(alignment.entries() - z.rows())},
        {"tiles", ifGathered(alignment.tiles())},
        {"block_m", ifGathered(alignment.blockM)},
        {"workgroups", result.problem.workgroups},
        {"rows", z.rows()},
        {"rows_per_expert", llvm::json::Object{{"min", load.min},
                                               {"max", load.max},
                                               {"empty", load.empty}}},
        {"test", stringifyTestKind(rc.test)},
        {"pass", pass},
        {"wrong_elements", check.bad},
        {"checked_elements", check.checked},
        {"max_abs_error", check.maxAbs},
    };
    addTimingJson(report, result.flops, peakTflops,
                  hip ? std::optional(timing.median()) : std::nullopt);
    addComparedJson(report, rc);
    addCountersJson(report, counters, compileSeconds, runSeconds);
    out << llvm::formatv("{0}\n", llvm::json::Value(std::move(report)));
    return;
  }
  for (const std::string &line : result.saved)
    out << "hk-run: " << line << "\n";
  const std::array<int64_t, 3> &grid = result.kernel.grid;
  out << llvm::formatv(
      "hk-run: {0} on {1} ({2}), E={3} N={4} K={5} T={6} topk={7}, routing "
      "{8}, grid {9}x{10}x{11}, {12} test, at {13}\n",
      result.kernel.name, stringifyChip(rc.chip), stringifyBackend(rc.backend),
      z.experts, z.n, z.k, z.tokens, z.topk, routing, grid[0], grid[1], grid[2],
      stringifyTestKind(rc.test), result.kernel.variant);
  out << llvm::formatv("  {0} rows; per expert: min {1}, max {2}, {3} of {4} "
                       "experts empty\n",
                       z.rows(), load.min, load.max, load.empty, z.experts);
  if (gathered)
    out << llvm::formatv("  gathered: {0} sorted_token_ids ({1} padding), {2} "
                         "tile{3} of {4}\n",
                         alignment.entries(), alignment.entries() - z.rows(),
                         alignment.tiles(), alignment.tiles() == 1 ? "" : "s",
                         alignment.blockM);
  else
    out << "  contiguous: A's rows sorted by expert, group_offsets\n";
  if (combine && !deterministic)
    out << llvm::formatv(
        "  combine: C [{0}, {1}] f32 from zeros, each slot's product times "
        "its weight (per token the softmax of {2} N(0, 1) logits, seed {3}) "
        "added into its token's row\n",
        z.tokens, result.problem.outColumns(), z.topk, rc.seed);
  if (deterministic)
    out << llvm::formatv(
        "  combine, deterministic: per-slot rows Y [{0}, {1}] f32 (each "
        "slot's product times its weight: per token the softmax of {2} N(0, "
        "1) logits, seed {3}), then {4} sums each token's {2} rows in order "
        "into C [{5}, {1}] f32 (both from NaN)\n",
        z.rows(), result.problem.outColumns(), z.topk, rc.seed,
        kMoeCombineSumKernel, z.tokens);
  if (rc.test == TestKind::compare && !result.compareExact)
    out << "  compared within the tolerance with " << describeCompared(rc)
        << " (a combine kernel's atomic adds come in any order)\n";
  else
    printCompared(rc, out);
  if (hip) {
    double ms = timing.median();
    double tflops = result.flops / (ms * 1e-3) / 1e12;
    out << llvm::formatv(
        "  median of {0} timed runs after {1} warm-up: {2:F3} ms, {3:F1} "
        "TFLOPS ({4:F1}% of the {5}'s {6} TFLOPS {7} peak)\n",
        timing.milliseconds.size(), rc.warmup, ms, tflops,
        100 * tflops / peakTflops, stringifyChip(rc.chip), peakTflops,
        fp8 ? "fp8" : "bf16");
  } else {
    printSimulatorCounters(out, counters, compileSeconds, runSeconds);
  }
  if (sum)
    printMoeSumKernel(*sum, result.sumStats, hip, hip ? timing.median() : 0,
                      out);
  out << llvm::formatv("  max abs error {0:E3}, {1} of {2} elements wrong{3}\n",
                       check.maxAbs, check.bad, check.checked,
                       check.checked == total ? "" : " (a random sample)");
  out << (pass ? "PASS\n" : "FAIL\n");
}

void printGenericReport(const GenericConfig &config,
                        const GenericResult &result, llvm::raw_ostream &out) {
  const RunConfig &rc = config.run;
  const ExpectTolerance &tolerance = config.tolerance;
  std::string within;
  if (tolerance.kind != ExpectTolerance::Kind::rounding)
    llvm::raw_string_ostream(within)
        << " (within " << llvm::format("%g", tolerance.value)
        << (tolerance.kind == ExpectTolerance::Kind::ulps ? " ulp)" : ")");
  for (const std::string &line : result.saved)
    out << "hk-run: " << line << "\n";
  for (const ArgumentCheck &c : result.checks)
    out << llvm::formatv("  argument #{0}: max abs error {1:E3}, {2} "
                         "of {3} elements wrong{4}\n",
                         c.argument, c.maxAbs, c.bad, c.elements, within);
  for (auto [b, differ] : llvm::enumerate(result.differingBytes))
    out << llvm::formatv("  memory argument {0}: {1} bytes differ "
                         "from {2}\n",
                         b, differ, describeCompared(rc));
  out << llvm::formatv(
      "hk-run: {0} on {1} ({2}), grid {3}x{4}x{5}: {6} wave instructions, "
      "{7:F2} s\n",
      result.kernel, stringifyChip(rc.chip), stringifyBackend(rc.backend),
      result.grid[0], result.grid[1], result.grid[2],
      result.stats.counters.waveInstructions, result.stats.runSeconds);
  if (!result.checked())
    out << "nothing checked\n";
  else
    out << (result.passed() ? "PASS\n" : "FAIL\n");
}

} // namespace mlir::hk::run
