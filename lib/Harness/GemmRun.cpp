//===- GemmRun.cpp - hk-run's GEMM command --------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The GEMM workload's run: the kernel (and --compare's) prepared for the
// problem, the inputs, the launch, the check, the rocBLAS baseline and the
// report.
//
//===----------------------------------------------------------------------===//

#include "HK/Harness/GemmWorkload.h"
#include "HK/Harness/RunReport.h"

#include "HK/Runtime/Npy.h"
#include "HK/Target/Chip.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace mlir::hk;

namespace mlir::hk::run {

int readGemmProblem(StringRef kernel, ArrayRef<Type> types,
                    const GemmShape &shape, GemmProblem &problem) {
  llvm::Expected<GemmSignature> signature =
      readGemmSignature(types, schedule.fp8Format.getValue());
  if (!signature)
    return fail("'" + kernel + "' is " + llvm::toString(signature.takeError()));
  return makeGemmProblem(shape, *signature, kernel, problem);
}

/// Runs a GEMM kernel on `inputs`; C comes back in `run`.
static int execute(const PreparedKernel &kernel, const GemmInputs &inputs,
                   GemmRun &run) {
  run.kernel = kernel.name;
  run.grid = kernel.grid;
  run.compileSeconds = kernel.compileSeconds;
  std::vector<std::vector<uint8_t>> buffers = inputs.buffers;
  std::vector<bool> outputs(buffers.size(), false);
  outputs[argC] = true;
  LaunchStats stats;
  if (int status = launchKernel(kernel, buffers, outputs, stats))
    return status;
  run.c = std::move(buffers[argC]);
  run.counters = std::move(stats.counters);
  run.timing = std::move(stats.timing);
  run.runSeconds = stats.runSeconds;
  return 0;
}

int runGemmWorkload(MLIRContext &context) {
  GemmShape shape;
  if (int status = checkGemmOptions(shape))
    return status;
  int64_t M = shape.M, N = shape.N, K = shape.K;

  // The kernel first: its signature says which inputs it takes.
  auto prepare = [&](StringRef path, PreparedKernel &kernel, Version version,
                     GemmProblem &problem) {
    auto read = [&](StringRef name, ArrayRef<Type> types,
                    const KernelArguments *&arguments) {
      arguments = &problem;
      return readGemmProblem(name, types, shape, problem);
    };
    return prepareKernel(context, path, read, kernel, version);
  };
  PreparedKernel primary;
  GemmProblem problem;
  if (int status = prepare(inputFile, primary, Version::tested, problem))
    return status;
  int64_t batch = problem.batch;
  GemmInputs inputs;
  if (int status = makeGemmInputs(problem, inputs))
    return status;
  std::vector<float> expected;
  if (testKind == TestKind::expected) {
    if (expectedFile.empty())
      return fail("--test=expected needs --expected=<file.npy>");
    llvm::Expected<NpyArray> e = readNpy(expectedFile);
    if (!e)
      return fail(llvm::toString(e.takeError()));
    std::vector<int64_t> want = {M, N};
    if (batch > 1)
      want.insert(want.begin(), batch);
    if (e->dtype != "<f4" || e->shape != want)
      return fail(llvm::formatv("'{0}' must be float32 (<f4) of shape "
                                "({1}{2}, {3}), got {4} of {5} dimensions",
                                expectedFile,
                                batch > 1 ? std::to_string(batch) + ", " : "",
                                M, N, e->dtype, e->shape.size()));
    expected.resize(batch * M * N);
    std::memcpy(expected.data(), e->data.data(), expected.size() * 4);
  }
  GemmRun run;
  if (int status = execute(primary, inputs, run))
    return status;
  GemmRun other;
  if (testKind == TestKind::compare) {
    if (compareWith.empty())
      return fail("--test=compare needs --compare=<file.mlir>");
    PreparedKernel second;
    GemmProblem secondProblem;
    if (int status =
            prepare(compareWith, second, Version::compared, secondProblem))
      return status;
    const GemmSignature &s1 = problem.signature, &s2 = secondProblem.signature;
    if (s1.rank != s2.rank || s1.strided != s2.strided ||
        s1.cElement != s2.cElement || s1.epilogue != s2.epilogue)
      return fail("'" + second.name + "' does not take the arguments '" +
                  primary.name +
                  "' takes: --test=compare needs the same "
                  "signature");
    if (int status = execute(second, inputs, other))
      return status;
  }
  const std::vector<uint8_t> &c = run.c;
  std::string kernelName = run.kernel;
  std::array<int64_t, 3> grid = run.grid;
  sim::Counters &counters = run.counters;
  hip::Timing &timing = run.timing;
  double compileSeconds = run.compileSeconds, runSeconds = run.runSeconds;

  GemmCheck check =
      checkGemm(problem, inputs, c,
                testKind == TestKind::compare ? &other.c : nullptr, expected);
  double maxAbs = check.maxAbs, maxRel = check.maxRel;
  int64_t bad = check.bad + check.paddingWrites;

  // The vendor library on the same inputs, checked the same way first.
  std::optional<hip::Timing> baselineTiming;
  std::optional<GemmCheck> baselineCheck;
  std::string baselineNote;
  const GemmSignature &signature = problem.signature;
  bool rocblas = baseline == Baseline::rocblas;
  StringRef library = rocblas ? "rocBLAS" : "hipBLASLt";
  bool unbatched = batch == 1 && problem.pad == 0 && !signature.epilogue;
  bool covered =
      rocblas
          ? unbatched && !signature.fp8() && signature.cElement == "bf16"
          : unbatched && signature.scaled && !signature.blockScales &&
                !shape.transposeA && shape.transposeB &&
                (signature.cElement == "bf16" || signature.cElement == "f32");
  if (baseline != Baseline::none && !covered) {
    baselineNote =
        rocblas ? "the rocBLAS baseline covers unbatched, unpadded bf16 GEMMs "
                  "without an epilogue (fp8 GEMMs: --baseline=hipblaslt)"
                : "the hipBLASLt baseline covers unbatched fp8 GEMMs with "
                  "per-tensor scales, A M x K and B N x K, C bf16 or f32 "
                  "(bf16 GEMMs: --baseline=rocblas)";
    llvm::errs() << "hk-run: note: no " << library
                 << " baseline: " << baselineNote << "\n";
  } else if (baseline != Baseline::none) {
    std::vector<uint8_t> baselineC(M * N * signature.cBytes());
    llvm::Expected<hip::Timing> timed =
        rocblas
            ? hip::rocblasGemm(inputs.buffers[argA], inputs.buffers[argB],
                               baselineC, M, N, K, shape.transposeA,
                               shape.transposeB, warmup, iterations)
            : hip::hipblasLtFp8Gemm(
                  inputs.buffers[argA], inputs.buffers[argB], baselineC, M, N,
                  K, signature.abElement == "e5m2", signature.cElement == "f32",
                  problem.scaleA, problem.scaleB, warmup, iterations);
    if (!timed) {
      // hk's own result stands: a missing or failing library is a note.
      baselineNote = llvm::toString(timed.takeError());
      llvm::errs() << "hk-run: note: no " << library
                   << " baseline: " << baselineNote << "\n";
    } else {
      baselineCheck = checkGemm(problem, inputs, baselineC, nullptr, expected);
      if (baselineCheck->bad == 0)
        baselineTiming = std::move(*timed);
      else
        llvm::errs() << "hk-run: " << library << "'s C failed the check ("
                     << baselineCheck->bad << " wrong elements): its time is "
                     << "not reported\n";
    }
  }

  if (!outputFile.empty()) {
    std::vector<int64_t> outShape = {M, N};
    if (batch > 1)
      outShape.insert(outShape.begin(), batch);
    NpyArray out{"<f4", outShape, std::vector<uint8_t>(batch * M * N * 4)};
    for (int64_t b = 0, i = 0; b < batch; ++b)
      for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n, ++i) {
          float f = readC(problem, c, b, m, n);
          std::memcpy(out.data.data() + 4 * i, &f, 4);
        }
    if (llvm::Error e = writeNpy(outputFile, out))
      return fail(llvm::toString(std::move(e)));
  }

  // The chips' dense fp8 peak is twice their bf16 peak
  // (docs/hardware/Fp8Facts.md#f8-peaks).
  double peakTflops = getChipInfo(chipOption).peakBf16Tflops *
                      (problem.signature.fp8() ? 2 : 1);
  auto tflopsAt = [&](double ms) {
    return 2.0 * batch * M * N * K / (ms * 1e-3) / 1e12;
  };
  auto baselineJson = [&]() -> llvm::json::Value {
    if (baseline == Baseline::none)
      return nullptr;
    llvm::json::Object o{{"library", rocblas ? "rocblas" : "hipblaslt"}};
    if (!baselineNote.empty())
      o["skipped"] = baselineNote;
    if (baselineCheck) {
      o["pass"] = baselineCheck->bad == 0;
      o["wrong_elements"] = baselineCheck->bad;
      o["max_abs_error"] = baselineCheck->maxAbs;
    }
    if (baselineTiming) {
      o["median_milliseconds"] = baselineTiming->median();
      o["tflops"] = tflopsAt(baselineTiming->median());
    }
    return std::move(o);
  };
  if (emitJson) {
    llvm::json::Object result{
        {"kernel", kernelName},
        {"chip", stringifyChip(chipOption)},
        {"backend", backend == Backend::sim ? "sim" : "hip"},
        {"median_milliseconds", backend == Backend::hip
                                    ? llvm::json::Value(timing.median())
                                    : llvm::json::Value(nullptr)},
        {"tflops", backend == Backend::hip
                       ? llvm::json::Value(tflopsAt(timing.median()))
                       : llvm::json::Value(nullptr)},
        {"peak_tflops", peakTflops},
        {"size", llvm::json::Array{M, N, K}},
        {"batch", batch},
        {"padding_writes", check.paddingWrites},
        {"test", testName()},
        {"pass", bad == 0},
        {"wrong_elements", bad},
        {"checked_elements", check.checked},
        {"baseline", baselineJson()},
        {"max_abs_error", maxAbs},
        {"max_rel_error", maxRel},
    };
    addCountersJson(result, counters, compileSeconds, runSeconds);
    llvm::outs() << llvm::formatv("{0}\n",
                                  llvm::json::Value(std::move(result)));
    return bad == 0 ? 0 : 1;
  }
  llvm::outs() << llvm::formatv(
      "hk-run: {0} on {1} ({8}), M={2} N={3} K={4}{9}, grid {5}x{6}{10}, {7} "
      "test\n",
      kernelName, stringifyChip(chipOption), M, N, K, grid[0], grid[1],
      testName(), backend == Backend::sim ? "sim" : "hip",
      batch > 1 ? " batch=" + std::to_string(batch) : std::string(),
      grid[2] > 1 ? "x" + std::to_string(grid[2]) : std::string());
  if (backend == Backend::hip) {
    double ms = timing.median();
    double tflops = tflopsAt(ms);
    llvm::outs() << llvm::formatv(
        "  median of {0} timed runs after {1} warm-up: {2:F3} ms, {3:F1} "
        "TFLOPS ({4:F1}% of the {5}'s {6} TFLOPS {7} peak)\n",
        timing.milliseconds.size(), warmup.getValue(), ms, tflops,
        100 * tflops / peakTflops, stringifyChip(chipOption), peakTflops,
        problem.signature.fp8() ? "fp8" : "bf16");
    if (baselineTiming)
      llvm::outs() << llvm::formatv(
          "  {3} (checked): {0:F3} ms, {1:F1} TFLOPS; hk at {2:F0}% of "
          "it\n",
          baselineTiming->median(), tflopsAt(baselineTiming->median()),
          100 * baselineTiming->median() / ms, library);
  } else {
    printSimulatorCounters(counters, compileSeconds, runSeconds);
    // The kernels' K tile is 128 bytes of each row (64 bf16, 128 fp8); a
    // partial K tile counts as one.
    int64_t kTile = 128 / problem.signature.abBytes();
    int64_t tiles = std::max<int64_t>(1, grid[0] * grid[1] * grid[2] *
                                             ((K + kTile - 1) / kTile));
    llvm::outs() << llvm::formatv(
        "  per workgroup per K tile of {4}: {0} MMAs, {1} global bytes read, "
        "{2} LDS bytes read, {3} written\n",
        counters.mmas / tiles, counters.globalBytesRead / tiles,
        counters.ldsBytesRead / tiles, counters.ldsBytesWritten / tiles, kTile);
  }
  llvm::outs() << llvm::formatv(
      "  max abs error {0:E3}, max rel error "
      "{1:E3}, {2} of {3} elements wrong{4}\n",
      maxAbs, maxRel, bad, check.checked,
      check.checked == batch * M * N ? "" : " (a random sample)");
  llvm::outs() << (bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}

} // namespace mlir::hk::run
