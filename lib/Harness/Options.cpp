//===- Options.cpp - hk-run's command line --------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HK/Harness/Options.h"

#include "llvm/Support/FormatVariadic.h"
#include <cmath>
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::hk;

namespace mlir::hk::run {

/// The tool's own options; --help lists only these, not LLVM's.
llvm::cl::OptionCategory toolOptions("hk-run options");

llvm::cl::opt<std::string> inputFile(
    llvm::cl::Positional, llvm::cl::Required, llvm::cl::cat(toolOptions),
    llvm::cl::desc("<hk GEMM source (.mlir), or the launch description "
                   "(.json) of a kernel compiled by hk-compile>"));
llvm::cl::opt<Chip> chipOption("chip", llvm::cl::Required,
                                      llvm::cl::cat(toolOptions),
                                      llvm::cl::desc("the chip to compile for"),
                                      chipOptionValues());
llvm::cl::list<int64_t>
    sizes("size", llvm::cl::CommaSeparated, llvm::cl::cat(toolOptions),
          llvm::cl::desc("GEMM: M,N,K of C[M,N] = op(A)[M,K] op(B)[K,N]"));
llvm::cl::list<std::string> genericArgs(
    "arg", llvm::cl::cat(toolOptions),
    llvm::cl::desc("any kernel: one per argument, in order: an integer, or "
                   "for a memref random:SHAPE, zeros:SHAPE, range:SHAPE (the "
                   "flat index mod 256), out:SHAPE (unset) or a .npy file; "
                   "SHAPE like 64x64"),
    llvm::cl::value_desc("spec"));
llvm::cl::list<int64_t>
    gridOption("grid", llvm::cl::CommaSeparated, llvm::cl::cat(toolOptions),
               llvm::cl::desc("any kernel: the grid, when it has no "
                              "hk.launch"));
llvm::cl::list<std::string> expectations(
    "expect", llvm::cl::cat(toolOptions),
    llvm::cl::desc("any kernel: memref argument I must match the .npy after "
                   "the run (within one rounding of its element type)"),
    llvm::cl::value_desc("I:file.npy"));
llvm::cl::list<std::string>
    saves("save", llvm::cl::cat(toolOptions),
          llvm::cl::desc("any kernel: write memref argument I"),
          llvm::cl::value_desc("I:file.npy"));
llvm::cl::opt<TestKind> testKind(
    "test", llvm::cl::init(TestKind::random), llvm::cl::cat(toolOptions),
    llvm::cl::desc("the inputs and the check"),
    llvm::cl::values(
        clEnumValN(TestKind::identity, "identity",
                   "B = identity (N = K); C must equal A bit for bit"),
        clEnumValN(TestKind::random, "random",
                   "A, B ~ N(0, 1) in bf16 (or --a/--b); C within one bf16 "
                   "rounding of the fp64 product"),
        clEnumValN(TestKind::expected, "expected",
                   "C within one bf16 rounding of --expected"),
        clEnumValN(TestKind::compare, "compare",
                   "C equal bit for bit to that of --compare")));
llvm::cl::opt<std::string> layoutOption(
    "layout", llvm::cl::init("nt"), llvm::cl::cat(toolOptions),
    llvm::cl::desc("how the kernel takes A and B, BLAS op(A) op(B): n for "
                   "A is M x K, t for K x M; t for B is N x K (hk's own), n "
                   "for K x N"),
    llvm::cl::value_desc("nt|nn|tn|tt"));
llvm::cl::opt<int64_t>
    batchOption("batch", llvm::cl::init(1), llvm::cl::cat(toolOptions),
                llvm::cl::desc("GEMM: the batch count, for kernels taking "
                               "3-D (batch-first) A, B and C"));
llvm::cl::opt<int64_t> padOption(
    "pad", llvm::cl::init(0), llvm::cl::cat(toolOptions),
    llvm::cl::desc("GEMM: pad every row of A, B and C by this many elements "
                   "(leading dimension = row length + pad), for kernels "
                   "taking strided memrefs; the padding holds NaN, and C's "
                   "must come back unchanged"));
llvm::cl::opt<float>
    alphaOption("alpha", llvm::cl::init(1.0f), llvm::cl::cat(toolOptions),
                llvm::cl::desc("GEMM with an epilogue: alpha of C = alpha "
                               "op(A) op(B) + beta C + bias"));
llvm::cl::opt<float>
    betaOption("beta", llvm::cl::init(0.0f), llvm::cl::cat(toolOptions),
               llvm::cl::desc("GEMM with an epilogue: beta (C starts as "
                              "N(0, 1) values when it is not 0, as NaN when "
                              "it is: BLAS reads no C then)"));
llvm::cl::opt<float> scaleAOption(
    "scale-a", llvm::cl::init(1.0f), llvm::cl::cat(toolOptions),
    llvm::cl::desc("fp8 GEMM: the per-tensor scale of A (C = scale_a scale_b "
                   "A B^T)"));
llvm::cl::opt<float> scaleBOption(
    "scale-b", llvm::cl::init(1.0f), llvm::cl::cat(toolOptions),
    llvm::cl::desc("fp8 GEMM: the per-tensor scale of B"));
llvm::cl::opt<std::string> scalesAOption(
    "scales-a", llvm::cl::cat(toolOptions),
    llvm::cl::desc("MXFP8 GEMM: the E8M0 block scales of A (M x ceil(K / "
                   "32)): random (2^-6..2^6, the default) or a uint8 .npy of "
                   "E8M0 bytes"),
    llvm::cl::value_desc("random|file.npy"));
llvm::cl::opt<std::string> scalesBOption(
    "scales-b", llvm::cl::cat(toolOptions),
    llvm::cl::desc("MXFP8 GEMM: the block scales of B (N x ceil(K / 32)), "
                   "like --scales-a"),
    llvm::cl::value_desc("random|file.npy"));
llvm::cl::opt<std::string> biasOption(
    "bias", llvm::cl::cat(toolOptions),
    llvm::cl::desc("GEMM with an epilogue: the bias per column of C: zeros "
                   "(the default), random (N(0, 1)) or a float32 .npy of N "
                   "values"),
    llvm::cl::value_desc("zeros|random|file.npy"));
llvm::cl::opt<std::string>
    inputA("a", llvm::cl::cat(toolOptions),
           llvm::cl::desc("A: random (N(0, 1), the default), zeros, range "
                          "((row + col) % 16 - 8) or a .npy (M x K, float32 "
                          "rounded to bf16, or uint16 bf16 bits)"),
           llvm::cl::value_desc("random|zeros|range|file.npy"));
llvm::cl::opt<std::string>
    inputB("b", llvm::cl::cat(toolOptions),
           llvm::cl::desc("B (N x K), like --a"),
           llvm::cl::value_desc("random|zeros|range|file.npy"));
llvm::cl::opt<std::string> saveInputsPrefix(
    "save-inputs", llvm::cl::cat(toolOptions),
    llvm::cl::desc("GEMM: also write the inputs to <prefix>a.npy and "
                   "<prefix>b.npy (as stored: bf16 bits as uint16, fp8 codes "
                   "as uint8) and, MXFP8, <prefix>scales_a.npy and "
                   "<prefix>scales_b.npy (E8M0 bytes); --a, --b and "
                   "--scales-a/--scales-b read them back"),
    llvm::cl::value_desc("prefix"));
llvm::cl::opt<std::string>
    expectedFile("expected", llvm::cl::cat(toolOptions),
                 llvm::cl::desc("expected C (M x N, float32 .npy) for "
                                "--test=expected"),
                 llvm::cl::value_desc("file.npy"));
llvm::cl::opt<Backend> backend(
    "backend", llvm::cl::init(Backend::sim), llvm::cl::cat(toolOptions),
    llvm::cl::desc("where the kernel runs"),
    llvm::cl::values(
        clEnumValN(Backend::sim, "sim",
                   "the CPU simulator, from the kernel's LLVM IR"),
        clEnumValN(Backend::hip, "hip",
                   "an AMD GPU through libamdhip64.so (exit status 3 when "
                   "there is no HIP runtime or no GPU)")));
llvm::cl::opt<int> warmup("warmup", llvm::cl::init(3),
                                 llvm::cl::cat(toolOptions),
                                 llvm::cl::desc("hip: untimed launches"));
llvm::cl::opt<int>
    iterations("iterations", llvm::cl::init(10), llvm::cl::cat(toolOptions),
               llvm::cl::desc("hip: timed launches (the median is reported)"));
llvm::cl::list<int64_t> attentionSizes(
    "attention", llvm::cl::CommaSeparated, llvm::cl::cat(toolOptions),
    llvm::cl::desc("run the attention workload (AttentionWorkload.h): "
                   "Q [B, Hq, Nq, d], K and V [B, Hkv, Nkv, d]"),
    llvm::cl::value_desc("B,Hq,Hkv,Nq,Nkv,d"));
llvm::cl::opt<bool> causalOption(
    "causal", llvm::cl::cat(toolOptions),
    llvm::cl::desc("attention: mask key k for query q when k > q"));
llvm::cl::opt<AttentionScores> attentionScores(
    "attention-scores", llvm::cl::init(AttentionScores::random),
    llvm::cl::cat(toolOptions),
    llvm::cl::desc("attention: how the scores run along the keys (a ramp in "
                   "feature 0: Q's is 1, K's the ramp)"),
    llvm::cl::values(
        clEnumValN(AttentionScores::random, "random",
                   "Q ~ N(0, 4), K, V ~ N(0, 1)"),
        clEnumValN(AttentionScores::rising, "rising",
                   "plus a ramp rising by a 256th of the lazy-rescale "
                   "threshold per key: each query's maximum rises late"),
        clEnumValN(AttentionScores::steps, "steps",
                   "plus steps of twice the lazy-rescale threshold every "
                   "32 keys: every KV tile moves the maximum past it")));
llvm::cl::opt<uint64_t> checkSample(
    "check-sample", llvm::cl::init(0), llvm::cl::cat(toolOptions),
    llvm::cl::desc("check this many distinct elements of C (GEMM) or query "
                   "rows of O and LSE (attention), drawn at random (0, the "
                   "default, or more than half of them: all); for sizes "
                   "where the fp64 reference of every one would take "
                   "minutes"));
llvm::cl::opt<Baseline> baseline(
    "baseline", llvm::cl::init(Baseline::none), llvm::cl::cat(toolOptions),
    llvm::cl::desc("hip, GEMM: also run, check and time the same product "
                   "through a vendor library, side by side"),
    llvm::cl::values(clEnumValN(Baseline::none, "none", "no baseline"),
                     clEnumValN(Baseline::rocblas, "rocblas",
                                "bf16 GEMMs: rocblas_gemm_ex from "
                                "librocblas.so (skipped with a note when it "
                                "is not installed)"),
                     clEnumValN(Baseline::hipblaslt, "hipblaslt",
                                "fp8 GEMMs with per-tensor scales: "
                                "hipblasLtMatmul from libhipblaslt.so "
                                "(likewise)")));
llvm::cl::opt<bool>
    emitJson("json", llvm::cl::cat(toolOptions),
             llvm::cl::desc("print the summary as one JSON object"));
llvm::cl::opt<std::string>
    outputFile("out", llvm::cl::cat(toolOptions),
               llvm::cl::desc("write C to a .npy (float32)"),
               llvm::cl::value_desc("file.npy"));
llvm::cl::opt<std::string>
    kernelName("kernel", llvm::cl::cat(toolOptions),
               llvm::cl::desc("the kernel to run, when the source has several"),
               llvm::cl::value_desc("name"));
llvm::cl::opt<std::string> compareWith(
    "compare", llvm::cl::cat(toolOptions),
    llvm::cl::desc("for --test=compare: another hk source computing the same "
                   "GEMM (e.g. another pipeline variant); C must match it bit "
                   "for bit"),
    llvm::cl::value_desc("file.mlir"));
ScheduleCLOptions schedule(toolOptions);
llvm::cl::opt<unsigned> compareStages(
    "compare-stages", llvm::cl::cat(toolOptions),
    llvm::cl::desc("for --test=compare: compile the other version as the "
                   "plain baseline with this many stages (no direct-LDS, "
                   "priority or unrolling, row-major workgroup order); "
                   "without it the other version gets the same pipeline "
                   "options"));
llvm::cl::opt<unsigned> seed("seed", llvm::cl::init(1),
                                    llvm::cl::cat(toolOptions),
                                    llvm::cl::desc("random seed"));
llvm::cl::opt<uint64_t>
    stepLimit("step-limit", llvm::cl::init(uint64_t(1) << 28),
              llvm::cl::cat(toolOptions),
              llvm::cl::desc("wave instructions one wave may execute"));

int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "hk-run") << message << "\n";
  return 2;
}

int parseCommandLine(int argc, const char *const *argv,
                     llvm::raw_ostream &errors) {
  // Bad options are bad input: exit status 2, not FAIL.
  llvm::cl::HideUnrelatedOptions(toolOptions);
  return llvm::cl::ParseCommandLineOptions(
             argc, argv,
             "hk-run: run an hk kernel (a GEMM, attention, or any kernel on "
             ".npy arguments) on the CPU simulator or a GPU and check it\n",
             &errors)
             ? 0
             : 2;
}

int checkTimingOptions() {
  if (backend == Backend::hip && (iterations < 1 || warmup < 0))
    return fail(llvm::formatv("--iterations must be at least 1 and --warmup "
                              "at least 0, got {0} and {1}",
                              iterations.getValue(), warmup.getValue()));
  return 0;
}

int checkGemmOptions(GemmShape &shape) {
  if (sizes.size() != 3)
    return fail("--size takes M,N,K (or give every argument with --arg)");
  int64_t M = sizes[0], N = sizes[1], K = sizes[2];
  StringRef layout = layoutOption;
  if (layout.size() != 2 || !StringRef("nt").contains(layout[0]) ||
      !StringRef("nt").contains(layout[1]))
    return fail("--layout takes nt, nn, tn or tt, got '" + layout + "'");
  shape = {M, N, K, layout[0] == 't', layout[1] == 't'};
  // Past 32768 the host buffers reach gigabytes: beyond what hk-run is for.
  constexpr int64_t kMaxSize = 32768;
  if (M <= 0 || N <= 0 || K <= 0 || M > kMaxSize || N > kMaxSize ||
      K > kMaxSize)
    return fail(llvm::formatv("sizes must be between 1 and {0}, got "
                              "{1},{2},{3}",
                              kMaxSize, M, N, K));
  if (int status = checkTimingOptions())
    return status;
  if (baseline != Baseline::none && backend != Backend::hip)
    return fail("--baseline times a vendor library on a GPU: it needs "
                "--backend=hip");
  if (batchOption < 1 || batchOption > 65535)
    return fail(llvm::formatv("--batch must be between 1 and 65535 (the "
                              "grid's z dimension), got {0}",
                              batchOption.getValue()));
  if (padOption < 0 || padOption > kMaxSize)
    return fail(llvm::formatv("--pad must be between 0 and {0}, got {1}",
                              kMaxSize, padOption.getValue()));
  if (!std::isfinite(alphaOption) || !std::isfinite(betaOption) ||
      !std::isfinite(scaleAOption) || !std::isfinite(scaleBOption))
    return fail("--alpha, --beta, --scale-a and --scale-b must be finite");
  if (testKind == TestKind::identity &&
      (scaleAOption != 1.0f || scaleBOption != 1.0f))
    return fail("the identity test needs --scale-a=1 --scale-b=1 (the "
                "defaults)");
  if (testKind == TestKind::identity &&
      (alphaOption != 1.0f || betaOption != 0.0f ||
       !(biasOption.empty() || biasOption == "zeros")))
    return fail("the identity test needs --alpha=1 --beta=0 --bias=zeros "
                "(the defaults)");
  if (testKind == TestKind::identity && !inputB.empty())
    return fail("the identity test sets B itself; --b does not go with it");
  if (testKind == TestKind::identity && N != K)
    return fail(llvm::formatv("the identity test needs N = K, got N = {0}, "
                              "K = {1}",
                              N, K));
  return 0;
}

} // namespace mlir::hk::run
