//===- hk-run.cpp - run an hk GEMM kernel and check its results -----------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Compiles an hk GEMM kernel (C[M,N] = A[M,K] @ B[N,K]^T, bf16 in and out),
// runs it on the CPU simulator from the LLVM IR the AMDGPU backend would
// compile, and checks C against an fp64 reference (SPEC section 9):
//
//   hk-run examples/gemm_bf16_gfx950.mlir --chip=gfx950 --size=256,256,128 \
//       --test=random
//
// Exit status: 0 PASS, 1 FAIL, 2 bad input or a simulation error.
//
#include "GenericRun.h"
#include "Launch.h"
#include "Options.h"

//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/InitAllDialects.h"
#include "HK/Pipelines/Pipelines.h"
#include "HK/Runtime/BFloat16.h"
#include "HK/Runtime/Hip.h"
#include "HK/Runtime/Npy.h"
#include "HK/Runtime/Simulator.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <random>
#include <unordered_set>

using namespace mlir;
using namespace mlir::hk;
using namespace mlir::hk::run;

/// Fills a rows x cols matrix of bf16 bits as `spec` says: empty or
/// "random" keeps what is there (seeded N(0, 1)), "zeros", "range" (small
/// exact integers (row + col) % 16 - 8), or a .npy file: float32 values are
/// rounded to nearest even, uint16 values are taken as bf16 bits.
static llvm::Error fillMatrix(StringRef spec, int64_t rows, int64_t cols,
                              std::vector<uint16_t> &out) {
  if (spec.empty() || spec == "random")
    return llvm::Error::success();
  if (spec == "zeros" || spec == "range") {
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        out[r * cols + c] =
            spec == "zeros" ? 0 : floatToBf16(float((r + c) % 16 - 8));
    return llvm::Error::success();
  }
  StringRef path = spec;
  llvm::Expected<NpyArray> array = readNpy(path);
  if (!array)
    return array.takeError();
  if (array->shape != std::vector<int64_t>{rows, cols})
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("'{0}' has shape ({1}), the kernel needs ({2}, {3})",
                      path,
                      llvm::join(llvm::map_range(array->shape,
                                                 [](int64_t n) {
                                                   return std::to_string(n);
                                                 }),
                                 ", "),
                      rows, cols));
  if (array->dtype == "<u2") {
    std::memcpy(out.data(), array->data.data(), rows * cols * 2);
  } else if (array->dtype == "<f4") {
    for (int64_t i = 0; i < rows * cols; ++i) {
      float f;
      std::memcpy(&f, array->data.data() + 4 * i, 4);
      out[i] = floatToBf16(f);
    }
  } else {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "'" + path + "' holds " + array->dtype +
            "; hk-run reads float32 (<f4) or bf16 bits (<u2)");
  }
  return llvm::Error::success();
}

/// How C compares with what the test expects of it.
struct GemmCheck {
  double maxAbs = 0, maxRel = 0;
  int64_t bad = 0;     // elements outside the tolerance
  int64_t checked = 0; // elements looked at (--check-sample)
};

/// Checks C (bf16 bits, M x N) against the test: A itself (identity), the
/// other version's C bit for bit (compare, when `other` is given), the
/// --expected array, or else the fp64 product of A and B. Looks at every
/// element, or at --check-sample random ones; prints the first mismatches.
static GemmCheck checkGemm(const std::vector<uint8_t> &c,
                           const std::vector<uint16_t> &a,
                           const std::vector<uint16_t> &b, int64_t M, int64_t N,
                           int64_t K, const std::vector<uint8_t> *other,
                           const std::vector<float> &expected) {
  GemmCheck r;
  int64_t shown = 0;
  // Against a float reference, C may be one bf16 rounding of the result
  // (2^-8 relative) off, plus fp32 accumulation error, which grows like
  // sqrt(K).
  double accumulationError = std::ldexp(std::sqrt(double(K)), -12);
  auto checkElement = [&](int64_t m, int64_t n) {
    uint16_t got;
    std::memcpy(&got, c.data() + 2 * (m * N + n), 2);
    double value = bf16ToFloat(got);
    double ref = 0;
    bool ok;
    if (testKind == TestKind::identity) {
      ref = bf16ToFloat(a[m * K + n]);
      ok = got == a[m * K + n];
    } else if (other) {
      uint16_t theirs;
      std::memcpy(&theirs, other->data() + 2 * (m * N + n), 2);
      ref = bf16ToFloat(theirs);
      ok = got == theirs;
    } else {
      if (testKind == TestKind::expected)
        ref = expected[m * N + n];
      else
        for (int64_t k = 0; k < K; ++k)
          ref += double(bf16ToFloat(a[m * K + k])) * bf16ToFloat(b[n * K + k]);
      ok = std::fabs(value - ref) <=
           std::ldexp(std::fabs(ref), -8) + accumulationError;
    }
    double err = std::fabs(value - ref);
    if (std::isnan(value))
      err = INFINITY;
    r.maxAbs = std::max(r.maxAbs, err);
    // Relative error where it means something: away from zero.
    if (std::fabs(ref) > accumulationError)
      r.maxRel = std::max(r.maxRel, err / std::fabs(ref));
    ++r.checked;
    if (!ok) {
      ++r.bad;
      if (shown++ < 5)
        llvm::errs() << llvm::formatv("mismatch at C[{0}][{1}]: got {2}, "
                                      "expected {3}\n",
                                      m, n, value, ref);
    }
  };
  // A sample of more than half of C costs about as much as all of it, and
  // drawing it distinct would take ever longer: check everything instead.
  if (checkSample == 0 || checkSample > uint64_t(M * N) / 2) {
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n)
        checkElement(m, n);
    return r;
  }
  // Distinct elements, so that the count checked is the count asked for.
  std::mt19937_64 rng(seed + 1);
  std::uniform_int_distribution<int64_t> element(0, M * N - 1);
  std::unordered_set<int64_t> seen;
  while (seen.size() < checkSample) {
    int64_t e = element(rng);
    if (seen.insert(e).second)
      checkElement(e / N, e % N);
  }
  return r;
}

/// `matrix` (rows x cols, row-major) as stored: itself, or its transpose
/// (cols x rows) when `transpose`.
static std::vector<uint16_t> stored(const std::vector<uint16_t> &matrix,
                                    int64_t rows, int64_t cols,
                                    bool transpose) {
  if (!transpose)
    return matrix;
  std::vector<uint16_t> out(matrix.size());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      out[c * rows + r] = matrix[r * cols + c];
  return out;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (int status = parseCommandLine(argc, argv, llvm::errs()))
    return status;
  if (!genericArgs.empty()) {
    DialectRegistry registry;
    registerAllDialects(registry);
    MLIRContext context(registry);
    return runGeneric(context);
  }
  GemmShape shape;
  if (int status = checkGemmOptions(shape))
    return status;
  int64_t M = shape.M, N = shape.N, K = shape.K;

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);

  // Inputs.
  std::vector<uint16_t> a(M * K), b(N * K);
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (uint16_t &x : a)
    x = floatToBf16(normal(rng));
  if (testKind == TestKind::identity) {
    for (int64_t n = 0; n < N; ++n)
      for (int64_t k = 0; k < K; ++k)
        b[n * K + k] = n == k ? floatToBf16(1.0f) : 0;
  } else {
    for (uint16_t &x : b)
      x = floatToBf16(normal(rng));
  }
  // a and b are A (M x K) and B (N x K) for the reference; the kernel
  // gets them as --layout stores them, and --a/--b files hold them so.
  int64_t dims[3][2];
  shape.argumentSizes(dims);
  std::vector<uint16_t> storedA = stored(a, M, K, shape.transposeA);
  std::vector<uint16_t> storedB = stored(b, N, K, !shape.transposeB);
  if (llvm::Error e = fillMatrix(inputA, dims[0][0], dims[0][1], storedA))
    return fail(llvm::toString(std::move(e)));
  if (llvm::Error e = fillMatrix(inputB, dims[1][0], dims[1][1], storedB))
    return fail(llvm::toString(std::move(e)));
  a = stored(storedA, dims[0][0], dims[0][1], shape.transposeA);
  b = stored(storedB, dims[1][0], dims[1][1], !shape.transposeB);
  std::vector<float> expected;
  if (testKind == TestKind::expected) {
    if (expectedFile.empty())
      return fail("--test=expected needs --expected=<file.npy>");
    llvm::Expected<NpyArray> e = readNpy(expectedFile);
    if (!e)
      return fail(llvm::toString(e.takeError()));
    if (e->dtype != "<f4" || e->shape != std::vector<int64_t>{M, N})
      return fail(llvm::formatv("'{0}' must be float32 (<f4) of shape ({1}, "
                                "{2}), got {3} of {4} dimensions",
                                expectedFile, M, N, e->dtype, e->shape.size()));
    expected.resize(M * N);
    std::memcpy(expected.data(), e->data.data(), M * N * 4);
  }
  std::vector<uint8_t> bytesA(a.size() * 2), bytesB(b.size() * 2);
  std::memcpy(bytesA.data(), storedA.data(), bytesA.size());
  std::memcpy(bytesB.data(), storedB.data(), bytesB.size());
  auto prepare = [&](StringRef path, PreparedKernel &kernel, Version version) {
    return path.ends_with(".json")
               ? prepareFromLaunch(path, shape, kernel)
               : prepareFromSource(context, path, shape, kernel, version);
  };
  PreparedKernel primary;
  GemmRun run;
  if (int status = prepare(inputFile, primary, Version::tested))
    return status;
  if (int status = execute(primary, M, N, bytesA, bytesB, run))
    return status;
  GemmRun other;
  if (testKind == TestKind::compare) {
    if (compareWith.empty())
      return fail("--test=compare needs --compare=<file.mlir>");
    PreparedKernel second;
    if (int status = prepare(compareWith, second, Version::compared))
      return status;
    if (int status = execute(second, M, N, bytesA, bytesB, other))
      return status;
  }
  const std::vector<uint8_t> &c = run.c;
  std::string kernelName = run.kernel;
  std::array<int64_t, 3> grid = run.grid;
  sim::Counters &counters = run.counters;
  hip::Timing &timing = run.timing;
  double compileSeconds = run.compileSeconds, runSeconds = run.runSeconds;

  GemmCheck check =
      checkGemm(c, a, b, M, N, K,
                testKind == TestKind::compare ? &other.c : nullptr, expected);
  double maxAbs = check.maxAbs, maxRel = check.maxRel;
  int64_t bad = check.bad;

  // The vendor library on the same inputs, checked the same way first.
  std::optional<hip::Timing> baselineTiming;
  std::optional<GemmCheck> baselineCheck;
  std::string baselineNote;
  if (baseline == Baseline::rocblas) {
    std::vector<uint8_t> baselineC(M * N * 2);
    llvm::Expected<hip::Timing> timed =
        hip::rocblasGemm(bytesA, bytesB, baselineC, M, N, K, shape.transposeA,
                         shape.transposeB, warmup, iterations);
    if (!timed) {
      // hk's own result stands: a missing or failing library is a note.
      baselineNote = llvm::toString(timed.takeError());
      llvm::errs() << "hk-run: note: no rocBLAS baseline: " << baselineNote
                   << "\n";
    } else {
      baselineCheck = checkGemm(baselineC, a, b, M, N, K, nullptr, expected);
      if (baselineCheck->bad == 0)
        baselineTiming = std::move(*timed);
      else
        llvm::errs() << "hk-run: rocBLAS's C failed the check ("
                     << baselineCheck->bad << " wrong elements): its time is "
                     << "not reported\n";
    }
  }

  if (!outputFile.empty()) {
    NpyArray out{"<f4", {M, N}, std::vector<uint8_t>(M * N * 4)};
    for (int64_t i = 0; i < M * N; ++i) {
      uint16_t h;
      std::memcpy(&h, c.data() + 2 * i, 2);
      float f = bf16ToFloat(h);
      std::memcpy(out.data.data() + 4 * i, &f, 4);
    }
    if (llvm::Error e = writeNpy(outputFile, out))
      return fail(llvm::toString(std::move(e)));
  }

  const char *testNames[] = {"identity", "random", "expected", "compare"};
  auto tflopsAt = [&](double ms) {
    return 2.0 * M * N * K / (ms * 1e-3) / 1e12;
  };
  auto baselineJson = [&]() -> llvm::json::Value {
    if (baseline == Baseline::none)
      return nullptr;
    llvm::json::Object o{{"library", "rocblas"}};
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
    llvm::outs() << llvm::formatv(
        "{0}\n",
        llvm::json::Value(llvm::json::Object{
            {"kernel", kernelName},
            {"chip", stringifyChip(chipOption)},
            {"backend", backend == Backend::sim ? "sim" : "hip"},
            {"median_milliseconds", backend == Backend::hip
                                        ? llvm::json::Value(timing.median())
                                        : llvm::json::Value(nullptr)},
            {"tflops", backend == Backend::hip
                           ? llvm::json::Value(tflopsAt(timing.median()))
                           : llvm::json::Value(nullptr)},
            {"peak_tflops", getChipInfo(chipOption).peakBf16Tflops},
            {"size", llvm::json::Array{M, N, K}},
            {"test", testNames[static_cast<int>(testKind.getValue())]},
            {"pass", bad == 0},
            {"wrong_elements", bad},
            {"checked_elements", check.checked},
            {"baseline", baselineJson()},
            {"max_abs_error", maxAbs},
            {"max_rel_error", maxRel},
            {"compile_seconds", compileSeconds},
            {"simulate_seconds", runSeconds},
            {"wave_instructions", counters.waveInstructions},
            {"lane_instructions", counters.laneInstructions},
            {"lane_instructions_per_second",
             counters.laneInstructions / runSeconds},
            {"mmas", counters.mmas},
            {"mmas_per_second", counters.mmas / runSeconds},
            {"barriers", counters.barriers},
            {"global_bytes_read", counters.globalBytesRead},
            {"global_bytes_written", counters.globalBytesWritten},
            {"lds_bytes_read", counters.ldsBytesRead},
            {"lds_bytes_written", counters.ldsBytesWritten},
            {"lds_accesses", std::move(lds)},
            {"instruction_classes", std::move(classes)}}));
    return bad == 0 ? 0 : 1;
  }
  llvm::outs() << llvm::formatv(
      "hk-run: {0} on {1} ({8}), M={2} N={3} K={4}, grid {5}x{6}, {7} test\n",
      kernelName, stringifyChip(chipOption), M, N, K, grid[0], grid[1],
      testNames[static_cast<int>(testKind.getValue())],
      backend == Backend::sim ? "sim" : "hip");
  if (backend == Backend::hip) {
    double ms = timing.median();
    double tflops = tflopsAt(ms);
    llvm::outs() << llvm::formatv(
        "  median of {0} timed runs after {1} warm-up: {2:F3} ms, {3:F1} "
        "TFLOPS ({4:F1}% of the {5}'s {6} TFLOPS bf16 peak)\n",
        timing.milliseconds.size(), warmup.getValue(), ms, tflops,
        100 * tflops / getChipInfo(chipOption).peakBf16Tflops,
        stringifyChip(chipOption), getChipInfo(chipOption).peakBf16Tflops);
    if (baselineTiming)
      llvm::outs() << llvm::formatv(
          "  rocBLAS (checked): {0:F3} ms, {1:F1} TFLOPS; hk at {2:F0}% of "
          "it\n",
          baselineTiming->median(), tflopsAt(baselineTiming->median()),
          100 * baselineTiming->median() / ms);
  } else {
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
    auto histogram =
        [](StringRef what,
           const std::map<unsigned, std::map<unsigned, uint64_t>> &h) {
          for (auto &[bytes, ways] : h) {
            uint64_t total = 0;
            std::string parts;
            for (auto &[w, count] : ways) {
              total += count;
              parts += llvm::formatv("{0}{1}-way {2}",
                                     parts.empty() ? "" : ", ", w, count);
            }
            llvm::outs() << llvm::formatv(
                "  LDS {0} of {1} bytes/lane: {2} ({3})\n", what, bytes, total,
                parts);
          }
        };
    histogram("reads", counters.ldsReads);
    histogram("writes", counters.ldsWrites);
    std::string classes;
    for (auto &[name, count] : counters.instructionClasses)
      classes +=
          llvm::formatv("{0}{1} {2}", classes.empty() ? "" : ", ", name, count);
    llvm::outs() << "  wave instructions by class: " << classes << "\n";
    // A partial K tile counts as one.
    int64_t tiles = std::max<int64_t>(1, grid[0] * grid[1] * ((K + 63) / 64));
    llvm::outs() << llvm::formatv(
        "  per workgroup per K tile of 64: {0} MMAs, {1} global bytes read, "
        "{2} "
        "LDS bytes read, {3} written\n",
        counters.mmas / tiles, counters.globalBytesRead / tiles,
        counters.ldsBytesRead / tiles, counters.ldsBytesWritten / tiles);
  }
  llvm::outs() << llvm::formatv("  max abs error {0:E3}, max rel error "
                                "{1:E3}, {2} of {3} elements wrong{4}\n",
                                maxAbs, maxRel, bad, check.checked,
                                check.checked == M * N ? ""
                                                       : " (a random sample)");
  llvm::outs() << (bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
