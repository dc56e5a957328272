//===- GemmRun.cpp - hk-run's GEMM command --------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The GEMM workload's run: the configuration checked, the kernel (and the
// compared one) prepared for the problem, the inputs, the launch, the
// check and the vendor library's baseline.
//
//===----------------------------------------------------------------------===//

#include "HK/Harness/GemmWorkload.h"

#include "HK/Dialect/HK/Analysis/KernelLaunch.h"

#include "HK/Runtime/Npy.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::hk;

namespace mlir::hk::run {

llvm::Error checkGemmConfig(const GemmConfig &config) {
  const GemmShape &shape = config.shape;
  const RunConfig &run = config.run;
  int64_t M = shape.M, N = shape.N, K = shape.K;
  // Past 32768 the host buffers reach gigabytes: beyond what hk-run is for.
  constexpr int64_t kMaxSize = 32768;
  if (M <= 0 || N <= 0 || K <= 0 || M > kMaxSize || N > kMaxSize ||
      K > kMaxSize)
    return badInput(llvm::formatv("sizes must be between 1 and {0}, got "
                                  "{1},{2},{3}",
                                  kMaxSize, M, N, K));
  if (llvm::Error e = checkTimingSettings(run))
    return e;
  if (llvm::Error e = checkCompareSettings(run))
    return e;
  if (config.baseline != Baseline::none && run.backend != Backend::hip)
    return badInput("--baseline times a vendor library on a GPU: it needs "
                    "--backend=hip");
  if (config.batch < 1 || config.batch > 65535)
    return badInput(llvm::formatv("--batch must be between 1 and 65535 (the "
                                  "grid's z dimension), got {0}",
                                  config.batch));
  if (config.pad < 0 || config.pad > kMaxSize)
    return badInput(llvm::formatv("--pad must be between 0 and {0}, got {1}",
                                  kMaxSize, config.pad));
  float alpha = config.alpha.value_or(1.0f), beta = config.beta.value_or(0.0f);
  float scaleA = config.scaleA.value_or(1.0f),
        scaleB = config.scaleB.value_or(1.0f);
  if (!std::isfinite(alpha) || !std::isfinite(beta) || !std::isfinite(scaleA) ||
      !std::isfinite(scaleB))
    return badInput("--alpha, --beta, --scale-a and --scale-b must be finite");
  if (run.test != TestKind::identity)
    return llvm::Error::success();
  if (scaleA != 1.0f || scaleB != 1.0f)
    return badInput("the identity test needs --scale-a=1 --scale-b=1 (the "
                    "defaults)");
  if (alpha != 1.0f || beta != 0.0f ||
      !(!config.bias || config.bias->empty() || *config.bias == "zeros"))
    return badInput("the identity test needs --alpha=1 --beta=0 --bias=zeros "
                    "(the defaults)");
  if (!config.inputB.empty())
    return badInput("the identity test sets B itself; --b does not go with "
                    "it");
  if (N != K)
    return badInput(llvm::formatv("the identity test needs N = K, got N = "
                                  "{0}, K = {1}",
                                  N, K));
  return llvm::Error::success();
}

/// Takes the kernel's operand layout where `layout` gives it; a --layout
/// that says another is refused, naming both.
static llvm::Error takeKernelLayout(const GemmConfig &config,
                                    const GemmOperandLayout &layout,
                                    StringRef kernel, GemmShape &shape) {
  GemmShape given = shape;
  shape.transposeA = layout.transposeA.value_or(given.transposeA);
  shape.transposeB = layout.transposeB.value_or(given.transposeB);
  if (config.layoutGiven && (shape.transposeA != given.transposeA ||
                             shape.transposeB != given.transposeB))
    return badInput(llvm::formatv("--layout={0} but kernel '{1}' is {2}",
                                  getLayoutName(given), kernel,
                                  getLayoutName(shape)));
  return llvm::Error::success();
}

llvm::Error readGemmProblem(const GemmConfig &config, StringRef kernel,
                            ArrayRef<Type> types,
                            const GemmOperandLayout &layout,
                            GemmProblem &problem) {
  llvm::Expected<GemmSignature> signature =
      readGemmSignature(types, config.run.schedule.fp8Format);
  if (!signature)
    return badInput("'" + kernel + "' is " +
                    llvm::toString(signature.takeError()));
  if (llvm::Error e = makeGemmProblem(config, *signature, kernel, problem))
    return e;
  return takeKernelLayout(config, layout, kernel, problem.shape);
}

/// Prepares the kernel of `run.inputFile` for `run.backend` and the problem
/// `config` poses; its signature and, from source, its operand layout say
/// which inputs it takes, into `problem`.
static llvm::Expected<PreparedKernel>
prepareGemm(MLIRContext &context, const GemmConfig &config,
            const RunConfig &run, Version version, GemmProblem &problem) {
  GemmOperandLayout layout;
  auto readSource = [&](gpu::GPUFuncOp kernel) {
    layout = readOperandLayout(kernel);
  };
  // A launch description holds the layout hk-compile read from the source.
  auto readDescription = [&](const LaunchDescription::Kernel &kernel) {
    layout = {kernel.transposeA, kernel.transposeB};
  };
  auto read = [&](StringRef name, ArrayRef<Type> types,
                  const KernelArguments *&arguments) {
    arguments = &problem;
    return readGemmProblem(config, name, types, layout, problem);
  };
  return prepareKernel(context, run, run.inputFile, read, version, readSource,
                       readDescription);
}

/// Runs a GEMM kernel on `inputs`: C and the figures.
static llvm::Expected<GemmRun> execute(const RunConfig &config,
                                       const PreparedKernel &kernel,
                                       const GemmInputs &inputs) {
  GemmRun run;
  run.kernel = kernel.name;
  run.variant = kernel.variant;
  run.grid = kernel.grid;
  run.compileSeconds = kernel.compileSeconds;
  std::vector<std::vector<uint8_t>> buffers = inputs.buffers;
  std::vector<bool> outputs(buffers.size(), false);
  outputs[argC] = true;
  llvm::Expected<LaunchStats> stats =
      launchKernel(config, kernel, buffers, outputs);
  if (!stats)
    return stats.takeError();
  run.c = std::move(buffers[argC]);
  run.counters = std::move(stats->counters);
  run.timing = std::move(stats->timing);
  run.runSeconds = stats->runSeconds;
  return std::move(run);
}

/// TestKind::expected: C's expected values, batch x M x N.
static llvm::Expected<std::vector<float>>
readExpected(const GemmConfig &config, const GemmProblem &problem) {
  int64_t M = problem.shape.M, N = problem.shape.N, batch = problem.batch;
  const std::string &path = config.expectedFile;
  if (path.empty())
    return badInput("--test=expected needs --expected=<file.npy>");
  llvm::Expected<NpyArray> e = readNpy(path);
  if (!e)
    return e.takeError();
  std::vector<int64_t> want = {M, N};
  if (batch > 1)
    want.insert(want.begin(), batch);
  if (e->dtype != "<f4" || e->shape != want)
    return badInput(llvm::formatv(
        "'{0}' must be float32 (<f4) of shape ({1}{2}, {3}), got {4} of {5} "
        "dimensions",
        path, batch > 1 ? std::to_string(batch) + ", " : "", M, N, e->dtype,
        e->shape.size()));
  std::vector<float> expected(batch * M * N);
  std::memcpy(expected.data(), e->data.data(), expected.size() * 4);
  return std::move(expected);
}

/// The compared kernel's C on the same inputs, on its backend
/// (TestKind::compare).
static llvm::Expected<GemmRun> runCompared(MLIRContext &context,
                                           const GemmConfig &config,
                                           const GemmProblem &problem,
                                           StringRef testedName,
                                           const GemmInputs &inputs) {
  RunConfig compared = getComparedRunConfig(config.run);
  GemmProblem secondProblem;
  llvm::Expected<PreparedKernel> second =
      prepareGemm(context, config, compared, Version::compared, secondProblem);
  if (!second)
    return second.takeError();
  const GemmSignature &s1 = problem.signature, &s2 = secondProblem.signature;
  if (s1.rank != s2.rank || s1.strided != s2.strided ||
      s1.cElement != s2.cElement || s1.bias != s2.bias ||
      s1.alphaBeta != s2.alphaBeta)
    return badInput("'" + second->name + "' does not take the arguments '" +
                    testedName +
                    "' takes: --test=compare needs the same signature");
  if (getLayoutName(problem.shape) != getLayoutName(secondProblem.shape))
    return badInput(llvm::formatv("'{0}' is {1} but '{2}' is {3}: "
                                  "--test=compare needs the same layout",
                                  second->name,
                                  getLayoutName(secondProblem.shape),
                                  testedName, getLayoutName(problem.shape)));
  return execute(compared, *second, inputs);
}

/// The vendor library on the same inputs, checked the same way first. A
/// library that does not cover the GEMM, or is missing, is a note: hk's
/// own result stands.
static GemmBaseline runBaseline(const GemmConfig &config,
                                const GemmProblem &problem,
                                const GemmInputs &inputs,
                                const std::vector<float> &expected) {
  const GemmSignature &signature = problem.signature;
  const GemmShape &shape = problem.shape;
  bool rocblas = config.baseline == Baseline::rocblas;
  GemmBaseline result;
  result.library = rocblas ? "rocBLAS" : "hipBLASLt";
  bool unbatched =
      problem.batch == 1 && problem.pad == 0 && !signature.epilogue();
  bool covered = rocblas ? unbatched && !signature.fp8() &&
                               signature.cElement == ElementKind::bf16
                         : unbatched && signature.scaled &&
                               !signature.blockScales && !shape.transposeA &&
                               shape.transposeB &&
                               (signature.cElement == ElementKind::bf16 ||
                                signature.cElement == ElementKind::f32);
  if (!covered) {
    result.skipped =
        rocblas ? "the rocBLAS baseline covers unbatched, unpadded bf16 GEMMs "
                  "without an epilogue (fp8 GEMMs: --baseline=hipblaslt)"
                : "the hipBLASLt baseline covers unbatched fp8 GEMMs with "
                  "per-tensor scales, A M x K and B N x K, C bf16 or f32 "
                  "(bf16 GEMMs: --baseline=rocblas)";
    return result;
  }
  int64_t M = shape.M, N = shape.N, K = shape.K;
  int warmup = config.run.warmup, iterations = config.run.iterations;
  std::vector<uint8_t> baselineC(M * N * signature.cBytes());
  llvm::Expected<hip::Timing> timed =
      rocblas ? hip::rocblasGemm(inputs.buffers[argA], inputs.buffers[argB],
                                 baselineC, M, N, K, shape.transposeA,
                                 shape.transposeB, warmup, iterations)
              : hip::hipblasLtFp8Gemm(
                    inputs.buffers[argA], inputs.buffers[argB], baselineC, M, N,
                    K, signature.abElement == ElementKind::f8e5m2,
                    signature.cElement == ElementKind::f32, problem.scaleA,
                    problem.scaleB, warmup, iterations);
  if (!timed) {
    result.skipped = llvm::toString(timed.takeError());
    return result;
  }
  result.check =
      checkGemm(config.run, problem, inputs, baselineC, nullptr, expected);
  if (result.check->bad == 0)
    result.timing = std::move(*timed);
  return result;
}

/// Writes C as float32 (GemmConfig::outputFile).
static llvm::Error writeC(StringRef path, const GemmProblem &problem,
                          const std::vector<uint8_t> &c) {
  int64_t M = problem.shape.M, N = problem.shape.N, batch = problem.batch;
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
  return writeNpy(path, out);
}

llvm::Expected<GemmResult> runGemmWorkload(MLIRContext &context,
                                           const GemmConfig &config) {
  if (llvm::Error e = checkGemmConfig(config))
    return std::move(e);
  const RunConfig &rc = config.run;
  GemmResult result;
  GemmProblem &problem = result.problem;
  llvm::Expected<PreparedKernel> primary =
      prepareGemm(context, config, rc, Version::tested, problem);
  if (!primary)
    return primary.takeError();
  GemmInputs inputs;
  if (llvm::Error e = makeGemmInputs(config, problem, inputs))
    return std::move(e);
  result.saved = std::move(inputs.saved);
  std::vector<float> expected;
  if (rc.test == TestKind::expected) {
    llvm::Expected<std::vector<float>> read = readExpected(config, problem);
    if (!read)
      return read.takeError();
    expected = std::move(*read);
  }
  llvm::Expected<GemmRun> run = execute(rc, *primary, inputs);
  if (!run)
    return run.takeError();
  result.run = std::move(*run);
  std::optional<GemmRun> other;
  if (rc.test == TestKind::compare) {
    llvm::Expected<GemmRun> second =
        runCompared(context, config, problem, primary->name, inputs);
    if (!second)
      return second.takeError();
    other = std::move(*second);
  }
  result.check = checkGemm(rc, problem, inputs, result.run.c,
                           other ? &other->c : nullptr, expected);
  if (config.baseline != Baseline::none)
    result.baseline = runBaseline(config, problem, inputs, expected);
  if (!config.outputFile.empty())
    if (llvm::Error e = writeC(config.outputFile, problem, result.run.c))
      return std::move(e);
  return std::move(result);
}

} // namespace mlir::hk::run
