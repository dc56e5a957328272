//===- Options.cpp - hk-run's command line --------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HK/Harness/Options.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ManagedStatic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hk;

namespace mlir::hk::run {

llvm::cl::OptionCategory &getRunOptionCategory() {
  static llvm::cl::OptionCategory category("hk-run options");
  return category;
}

namespace {
/// hk-run's flags; registered with the command-line parser when built.
struct RunCLOptions {
  llvm::cl::OptionCategory &toolOptions = getRunOptionCategory();
  llvm::cl::opt<std::string> inputFile{
      llvm::cl::Positional, llvm::cl::Required, llvm::cl::cat(toolOptions),
      llvm::cl::desc("<hk GEMM source (.mlir), or the launch description "
                     "(.json) of a kernel compiled by hk-compile>")};
  llvm::cl::opt<Chip> chipOption{
      "chip", llvm::cl::Required, llvm::cl::cat(toolOptions),
      llvm::cl::desc("the chip to compile for"), chipOptionValues()};
  llvm::cl::list<int64_t> sizes{
      "size", llvm::cl::CommaSeparated, llvm::cl::cat(toolOptions),
      llvm::cl::desc("GEMM: M,N,K of C[M,N] = op(A)[M,K] op(B)[K,N]")};
  llvm::cl::list<std::string> genericArgs{
      "arg", llvm::cl::cat(toolOptions),
      llvm::cl::desc("any kernel: one per argument, in order: an integer, or "
                     "for a memref random:SHAPE, zeros:SHAPE, range:SHAPE (the "
                     "flat index mod 256), out:SHAPE (unset) or a .npy file; "
                     "SHAPE like 64x64"),
      llvm::cl::value_desc("spec")};
  llvm::cl::list<int64_t> gridOption{
      "grid", llvm::cl::CommaSeparated, llvm::cl::cat(toolOptions),
      llvm::cl::desc("any kernel: the grid, when it has no "
                     "hk.launch")};
  llvm::cl::list<std::string> expectations{
      "expect", llvm::cl::cat(toolOptions),
      llvm::cl::desc("any kernel: memref argument I must match the .npy after "
                     "the run (within one rounding of its element type, or "
                     "--expect-tolerance)"),
      llvm::cl::value_desc("I:file.npy")};
  llvm::cl::opt<std::string> expectTolerance{
      "expect-tolerance", llvm::cl::cat(toolOptions),
      llvm::cl::desc("any kernel: how far from --expect's values an element "
                     "may be: ulps of its element type (e.g. 4ulp) or an "
                     "absolute error (e.g. 1e-3); default one rounding of "
                     "the element type"),
      llvm::cl::value_desc("Nulp|error")};
  llvm::cl::list<std::string> saves{
      "save", llvm::cl::cat(toolOptions),
      llvm::cl::desc("any kernel: write memref argument I after the run (with "
                     "or without a check); MoE: C (I = 2) as float32; "
                     "attention backward: D (6), dQ (7), dK (8), dV (9) or "
                     "the fused dQacc (11) as the kernels wrote them"),
      llvm::cl::value_desc("I:file.npy")};
  llvm::cl::opt<TestKind> testKind{
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
                     "C equal bit for bit to that of --compare (or of the "
                     "same kernel on --compare-backend)"))};
  llvm::cl::opt<std::string> layoutOption{
      "layout", llvm::cl::init("nt"), llvm::cl::cat(toolOptions),
      llvm::cl::desc("how the kernel takes A and B, BLAS op(A) op(B): n for "
                     "A is M x K, t for K x M; t for B is N x K (hk's own), n "
                     "for K x N; default: the kernel's (what its copies and "
                     "reads of A and B say, nt when they do not), which a "
                     "given layout must match"),
      llvm::cl::value_desc("nt|nn|tn|tt")};
  llvm::cl::opt<int64_t> batchOption{
      "batch", llvm::cl::init(1), llvm::cl::cat(toolOptions),
      llvm::cl::desc("GEMM: the batch count, for kernels taking "
                     "3-D (batch-first) A, B and C")};
  llvm::cl::opt<int64_t> padOption{
      "pad", llvm::cl::init(0), llvm::cl::cat(toolOptions),
      llvm::cl::desc("GEMM: pad every row of A, B and C by this many elements "
                     "(leading dimension = row length + pad), for kernels "
                     "taking strided memrefs; the padding holds NaN, and C's "
                     "must come back unchanged")};
  llvm::cl::opt<float> alphaOption{
      "alpha", llvm::cl::init(1.0f), llvm::cl::cat(toolOptions),
      llvm::cl::desc("GEMM with an epilogue: alpha of C = alpha "
                     "op(A) op(B) + beta C + bias")};
  llvm::cl::opt<float> betaOption{
      "beta", llvm::cl::init(0.0f), llvm::cl::cat(toolOptions),
      llvm::cl::desc("GEMM with an epilogue: beta (C starts as "
                     "N(0, 1) values when it is not 0, as NaN when "
                     "it is: BLAS reads no C then)")};
  llvm::cl::opt<float> scaleAOption{
      "scale-a", llvm::cl::init(1.0f), llvm::cl::cat(toolOptions),
      llvm::cl::desc("fp8 GEMM: the per-tensor scale of A (C = scale_a scale_b "
                     "A B^T); fp8 MoE: scale_a")};
  llvm::cl::opt<float> scaleBOption{
      "scale-b", llvm::cl::init(1.0f), llvm::cl::cat(toolOptions),
      llvm::cl::desc("fp8 GEMM: the per-tensor scale of B; fp8 MoE: every "
                     "expert's scale_b (default: drawn from [0.5, 2) per "
                     "expert)")};
  llvm::cl::opt<std::string> scalesAOption{
      "scales-a", llvm::cl::cat(toolOptions),
      llvm::cl::desc("MXFP8 GEMM: the E8M0 block scales of A (M x ceil(K / "
                     "32)): random (2^-6..2^6, the default) or a uint8 .npy of "
                     "E8M0 bytes"),
      llvm::cl::value_desc("random|file.npy")};
  llvm::cl::opt<std::string> scalesBOption{
      "scales-b", llvm::cl::cat(toolOptions),
      llvm::cl::desc("MXFP8 GEMM: the block scales of B (N x ceil(K / 32)), "
                     "like --scales-a"),
      llvm::cl::value_desc("random|file.npy")};
  llvm::cl::opt<std::string> biasOption{
      "bias", llvm::cl::cat(toolOptions),
      llvm::cl::desc("GEMM with an epilogue: the bias per column of C: zeros "
                     "(the default), random (N(0, 1)) or a float32 .npy of N "
                     "values"),
      llvm::cl::value_desc("zeros|random|file.npy")};
  llvm::cl::opt<std::string> inputA{
      "a", llvm::cl::cat(toolOptions),
      llvm::cl::desc("A: random (N(0, 1), the default), zeros, range "
                     "((row + col) % 16 - 8) or a .npy (M x K, float32 "
                     "rounded to bf16, or uint16 bf16 bits)"),
      llvm::cl::value_desc("random|zeros|range|file.npy")};
  llvm::cl::opt<std::string> inputB{
      "b", llvm::cl::cat(toolOptions), llvm::cl::desc("B (N x K), like --a"),
      llvm::cl::value_desc("random|zeros|range|file.npy")};
  llvm::cl::opt<std::string> saveInputsPrefix{
      "save-inputs", llvm::cl::cat(toolOptions),
      llvm::cl::desc("GEMM: also write the inputs to <prefix>a.npy and "
                     "<prefix>b.npy (as stored: bf16 bits as uint16, fp8 codes "
                     "as uint8) and, MXFP8, <prefix>scales_a.npy and "
                     "<prefix>scales_b.npy (E8M0 bytes); --a, --b and "
                     "--scales-a/--scales-b read them back; attention "
                     "backward: <prefix>{q,k,v,do,o,lse}.npy (O and LSE "
                     "from the forward; --o and --lse read such files)"),
      llvm::cl::value_desc("prefix")};
  llvm::cl::opt<std::string> expectedFile{
      "expected", llvm::cl::cat(toolOptions),
      llvm::cl::desc("expected C (M x N, float32 .npy) for "
                     "--test=expected"),
      llvm::cl::value_desc("file.npy")};
  llvm::cl::opt<Backend> backend{
      "backend", llvm::cl::init(Backend::sim), llvm::cl::cat(toolOptions),
      llvm::cl::desc("where the kernel runs"),
      llvm::cl::values(
          clEnumValN(Backend::sim, "sim",
                     "the CPU simulator, from the kernel's LLVM IR"),
          clEnumValN(Backend::hip, "hip",
                     "an AMD GPU through libamdhip64.so (exit status 3 when "
                     "there is no HIP runtime or no GPU)"),
          clEnumValN(Backend::isa, "isa",
                     "the ISA executor, from the code object, instruction "
                     "by instruction"))};
  llvm::cl::opt<IsaCompletion> isaCompletion{
      "isa-completion", llvm::cl::init(IsaCompletion::latest),
      llvm::cl::cat(toolOptions),
      llvm::cl::desc("isa: when counted memory operations complete"),
      llvm::cl::values(
          clEnumValN(IsaCompletion::eager, "eager", "at issue"),
          clEnumValN(IsaCompletion::latest, "latest",
                     "at the wait that covers them, or the wave's end"),
          clEnumValN(IsaCompletion::random, "random",
                     "at a legal moment drawn from --seed"))};
  llvm::cl::opt<int> warmup{"warmup", llvm::cl::init(3),
                            llvm::cl::cat(toolOptions),
                            llvm::cl::desc("hip: untimed launches")};
  llvm::cl::opt<int> iterations{
      "iterations", llvm::cl::init(10), llvm::cl::cat(toolOptions),
      llvm::cl::desc("hip: timed launches (the median is reported)")};
  llvm::cl::list<int64_t> attentionSizes{
      "attention", llvm::cl::CommaSeparated, llvm::cl::cat(toolOptions),
      llvm::cl::desc("run the attention workload (AttentionWorkload.h): "
                     "Q [B, Hq, Nq, d], K and V [B, Hkv, Nkv, d]"),
      llvm::cl::value_desc("B,Hq,Hkv,Nq,Nkv,d")};
  llvm::cl::list<int64_t> attentionBackwardSizes{
      "attention-bwd", llvm::cl::CommaSeparated, llvm::cl::cat(toolOptions),
      llvm::cl::desc("run the attention backward workload "
                     "(AttentionBackwardWorkload.h) on the backward kernels "
                     "of the input: Q, dO [B, Hq, Nq, d], K, V [B, Hkv, Nkv, "
                     "d]"),
      llvm::cl::value_desc("B,Hq,Hkv,Nq,Nkv,d")};
  llvm::cl::opt<std::string> forwardFile{
      "forward", llvm::cl::cat(toolOptions), llvm::cl::value_desc("file.mlir"),
      llvm::cl::desc("attention backward: the forward kernel that gives O and "
                     "LSE (default: hk's, generated for the chip and d)")};
  llvm::cl::opt<std::string> oFile{
      "o", llvm::cl::cat(toolOptions), llvm::cl::value_desc("file.npy"),
      llvm::cl::desc("attention backward: the forward's O [B, Hq, Nq, d] "
                     "(bf16 bits as uint16, or float32 rounded to bf16), with "
                     "--lse, instead of running a forward kernel")};
  llvm::cl::opt<std::string> lseFile{
      "lse", llvm::cl::cat(toolOptions), llvm::cl::value_desc("file.npy"),
      llvm::cl::desc("attention backward: the forward's LSE [B, Hq, Nq] "
                     "(float32, natural log), with --o")};
  llvm::cl::opt<bool> causalOption{
      "causal", llvm::cl::cat(toolOptions),
      llvm::cl::desc("attention: mask key k for query q when k > q")};
  llvm::cl::opt<AttentionScores> attentionScores{
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
                     "32 keys: every KV tile moves the maximum past it"))};
  llvm::cl::opt<std::string> moeSizes{
      "moe", llvm::cl::cat(toolOptions),
      llvm::cl::desc("run the MoE GEMM workload (MoeWorkload.h): E experts of "
                     "N x K weights, T tokens of K activations, each routed "
                     "to topk distinct experts"),
      llvm::cl::value_desc("E,N,K,T,topk")};
  llvm::cl::opt<std::string> routingOption{
      "routing", llvm::cl::init("random"), llvm::cl::cat(toolOptions),
      llvm::cl::desc("MoE: how tokens choose experts: random (uniformly), "
                     "skewed (expert e with weight 1 / (e + 1): late experts "
                     "often empty), one-expert (experts 0..topk-1) or an "
                     "integer .npy of T x topk expert ids"),
      llvm::cl::value_desc("random|skewed|one-expert|file.npy")};
  llvm::cl::opt<int64_t> moeWorkgroups{
      "moe-workgroups", llvm::cl::cat(toolOptions),
      llvm::cl::desc("MoE: the persistent grid (the kernel's workgroups "
                     "argument); default the chip's compute units")};
  llvm::cl::opt<uint64_t> checkSample{
      "check-sample", llvm::cl::init(0), llvm::cl::cat(toolOptions),
      llvm::cl::desc("check this many distinct elements of C (GEMM, MoE) or "
                     "query "
                     "rows of O and LSE (attention), drawn at random (0, the "
                     "default, or more than half of them: all); for sizes "
                     "where the fp64 reference of every one would take "
                     "minutes")};
  llvm::cl::opt<Baseline> baseline{
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
                                  "(likewise)"))};
  llvm::cl::opt<bool> emitJson{
      "json", llvm::cl::cat(toolOptions),
      llvm::cl::desc("print the summary as one JSON object")};
  llvm::cl::opt<std::string> outputFile{
      "out", llvm::cl::cat(toolOptions),
      llvm::cl::desc("write C to a .npy (float32)"),
      llvm::cl::value_desc("file.npy")};
  llvm::cl::opt<std::string> kernelName{
      "kernel", llvm::cl::cat(toolOptions),
      llvm::cl::desc("the kernel to run, when the source has several"),
      llvm::cl::value_desc("name")};
  llvm::cl::opt<std::string> compareWith{
      "compare", llvm::cl::cat(toolOptions),
      llvm::cl::desc(
          "for --test=compare: another hk source computing the same "
          "GEMM (e.g. another pipeline variant); C must match it bit "
          "for bit"),
      llvm::cl::value_desc("file.mlir")};
  llvm::cl::opt<Backend> compareBackend{
      "compare-backend", llvm::cl::cat(toolOptions),
      llvm::cl::desc("for --test=compare: run the other version on this "
                     "backend instead of --backend's; without --compare the "
                     "other version is the same input (kernel and schedule), "
                     "so the two backends are compared bit for bit"),
      llvm::cl::values(clEnumValN(Backend::sim, "sim", "the CPU simulator"),
                       clEnumValN(Backend::hip, "hip", "an AMD GPU"),
                       clEnumValN(Backend::isa, "isa", "the ISA executor"))};
  ScheduleCLOptions schedule{toolOptions};
  llvm::cl::opt<unsigned> compareStages{
      "compare-stages", llvm::cl::cat(toolOptions),
      llvm::cl::desc(
          "for --test=compare: compile the other version as the "
          "plain baseline with this many stages (no direct-LDS, "
          "priority or unrolling, row-major workgroup order, "
          "and not the schedule its gpu.module's hk.schedule "
          "records; --dtype still applies); without it the other version "
          "gets the same pipeline options")};
  llvm::cl::opt<unsigned> seed{"seed", llvm::cl::init(1),
                               llvm::cl::cat(toolOptions),
                               llvm::cl::desc("random seed")};
  llvm::cl::opt<uint64_t> shuffleWorkgroups{
      "shuffle-workgroups", llvm::cl::init(0), llvm::cl::cat(toolOptions),
      llvm::cl::desc(
          "sim: run the grid's workgroups in a pseudo-random order "
          "drawn from this seed (0, the default: x, then y, then z), "
          "e.g. to measure the run-to-run spread of a kernel with "
          "atomic adds; at most 2^24 workgroups"),
      llvm::cl::value_desc("seed")};
  llvm::cl::opt<uint64_t> stepLimit{
      "step-limit", llvm::cl::init(uint64_t(1) << 28),
      llvm::cl::cat(toolOptions),
      llvm::cl::desc("wave instructions one wave may execute")};
};
} // namespace

static llvm::ManagedStatic<RunCLOptions> clOptions;

void registerRunCLOptions() { *clOptions; }

llvm::Expected<RunCommand> parseCommandLine(int argc, const char *const *argv,
                                            llvm::raw_ostream &errors) {
  registerRunCLOptions();
  // Bad options are bad input: exit status 2, not FAIL.
  llvm::cl::HideUnrelatedOptions(getRunOptionCategory());
  if (!llvm::cl::ParseCommandLineOptions(
          argc, argv,
          "hk-run: run an hk kernel (a GEMM, attention, a MoE GEMM, or any "
          "kernel on .npy arguments) on the CPU simulator or a GPU and check "
          "it\n",
          &errors))
    return llvm::make_error<RunError>(RunError::Kind::badInput,
                                      "invalid command line",
                                      /*reported=*/true);
  return createFromCLOptions();
}

/// The settings every workload takes.
static RunConfig createRunConfig(const RunCLOptions &o) {
  RunConfig run;
  run.inputFile = o.inputFile;
  run.chip = o.chipOption;
  run.backend = o.backend;
  run.kernelName = o.kernelName;
  run.test = o.testKind;
  run.compareWith = o.compareWith;
  if (o.compareStages.getNumOccurrences())
    run.compareStages = o.compareStages.getValue();
  if (o.compareBackend.getNumOccurrences())
    run.compareBackend = o.compareBackend.getValue();
  run.schedule = o.schedule.settings();
  run.warmup = o.warmup;
  run.iterations = o.iterations;
  run.checkSample = o.checkSample;
  run.seed = o.seed;
  run.stepLimit = o.stepLimit;
  run.shuffleWorkgroups = o.shuffleWorkgroups;
  run.isaCompletion = o.isaCompletion;
  return run;
}

/// The value of `option` when it was given.
template <typename T>
static std::optional<T> ifGiven(const llvm::cl::opt<T> &option) {
  if (!option.getNumOccurrences())
    return std::nullopt;
  return option.getValue();
}

static llvm::Expected<GemmConfig> createGemmConfig(const RunCLOptions &o) {
  GemmConfig config;
  config.run = createRunConfig(o);
  if (o.sizes.size() != 3)
    return badInput("--size takes M,N,K (or give every argument with --arg)");
  StringRef layout = o.layoutOption;
  if (layout.size() != 2 || !StringRef("nt").contains(layout[0]) ||
      !StringRef("nt").contains(layout[1]))
    return badInput("--layout takes nt, nn, tn or tt, got '" + layout + "'");
  config.shape = {o.sizes[0], o.sizes[1], o.sizes[2], layout[0] == 't',
                  layout[1] == 't'};
  config.layoutGiven = o.layoutOption.getNumOccurrences() > 0;
  config.batch = o.batchOption;
  config.pad = o.padOption;
  config.alpha = ifGiven(o.alphaOption);
  config.beta = ifGiven(o.betaOption);
  config.bias = ifGiven(o.biasOption);
  config.scaleA = ifGiven(o.scaleAOption);
  config.scaleB = ifGiven(o.scaleBOption);
  config.scalesA = o.scalesAOption;
  config.scalesB = o.scalesBOption;
  config.inputA = o.inputA;
  config.inputB = o.inputB;
  config.saveInputsPrefix = o.saveInputsPrefix;
  config.expectedFile = o.expectedFile;
  config.outputFile = o.outputFile;
  config.baseline = o.baseline;
  if (llvm::Error e = checkGemmConfig(config))
    return std::move(e);
  return std::move(config);
}

/// The GEMM's options mean nothing to the other workloads: refused rather
/// than ignored. `name` and `flag` name the workload ("attention",
/// "--attention"); the MoE workload takes the fp8 scales and --dtype
/// (`fp8Options`).
static llvm::Error rejectGemmOptions(const RunCLOptions &o, StringRef name,
                                     StringRef flag, bool savesInputs = false,
                                     bool fp8Options = false) {
  // (A cl::list's operator& gives its storage: cast to the option.)
  const llvm::cl::Option *gemmOptions[] = {
      &static_cast<const llvm::cl::Option &>(o.sizes),
      &o.layoutOption,
      &o.batchOption,
      &o.padOption,
      &o.alphaOption,
      &o.betaOption,
      &o.biasOption,
      fp8Options ? nullptr : &o.scaleAOption,
      fp8Options ? nullptr : &o.scaleBOption,
      &o.scalesAOption,
      &o.scalesBOption,
      &o.inputA,
      &o.inputB,
      &o.expectedFile,
      savesInputs ? nullptr : &o.saveInputsPrefix,
      &o.outputFile,
      fp8Options ? nullptr : &o.schedule.fp8Format};
  for (const llvm::cl::Option *option : gemmOptions)
    if (option && option->getNumOccurrences())
      return badInput("--" + option->ArgStr + " is a GEMM option; the " + name +
                      " workload (" + flag + ") does not take it");
  if (o.baseline != Baseline::none)
    return badInput("--baseline times a GEMM library; the " + name +
                    " workload has none");
  return llvm::Error::success();
}

/// The MoE workload's options mean nothing to the others: refused.
static llvm::Error rejectMoeOptions(const RunCLOptions &o) {
  const llvm::cl::Option *moeOptions[] = {&o.routingOption, &o.moeWorkgroups};
  for (const llvm::cl::Option *option : moeOptions)
    if (option->getNumOccurrences())
      return badInput("--" + option->ArgStr +
                      " is a MoE option; it needs --moe=E,N,K,T,topk");
  return llvm::Error::success();
}

/// The sizes (B,Hq,Hkv,Nq,Nkv,d) `option` gives and --causal.
static llvm::Expected<AttentionProblem>
readAttentionProblem(const RunCLOptions &o,
                     const llvm::cl::list<int64_t> &sizes,
                     llvm::StringRef option) {
  if (sizes.size() != 6)
    return badInput(option + " takes B,Hq,Hkv,Nq,Nkv,d (6 sizes), got " +
                    std::to_string(sizes.size()));
  AttentionProblem problem;
  problem.batch = sizes[0];
  problem.qHeads = sizes[1];
  problem.kvHeads = sizes[2];
  problem.queries = sizes[3];
  problem.keys = sizes[4];
  problem.headDim = sizes[5];
  problem.causal = o.causalOption;
  return problem;
}

static llvm::Expected<AttentionConfig>
createAttentionConfig(const RunCLOptions &o) {
  llvm::Expected<AttentionProblem> problem =
      readAttentionProblem(o, o.attentionSizes, "--attention");
  if (!problem)
    return problem.takeError();
  AttentionConfig config;
  config.run = createRunConfig(o);
  config.problem = *problem;
  config.scores = o.attentionScores;
  if (llvm::Error e = rejectGemmOptions(o, "attention", "--attention"))
    return std::move(e);
  const llvm::cl::Option *backwardOptions[] = {&o.forwardFile, &o.oFile,
                                               &o.lseFile};
  for (const llvm::cl::Option *option : backwardOptions)
    if (option->getNumOccurrences())
      return badInput("--" + option->ArgStr +
                      " is an --attention-bwd option: the forward workload "
                      "runs its input");
  if (llvm::Error e = checkAttentionConfig(config))
    return std::move(e);
  return std::move(config);
}

static llvm::Expected<AttentionBackwardConfig>
createAttentionBackwardConfig(const RunCLOptions &o) {
  if (!o.attentionSizes.empty())
    return badInput("--attention and --attention-bwd are two workloads: give "
                    "one");
  llvm::Expected<AttentionProblem> problem =
      readAttentionProblem(o, o.attentionBackwardSizes, "--attention-bwd");
  if (!problem)
    return problem.takeError();
  AttentionBackwardConfig config;
  config.run = createRunConfig(o);
  config.problem.forward = *problem;
  config.forwardFile = o.forwardFile;
  config.oFile = o.oFile;
  config.lseFile = o.lseFile;
  if (o.attentionScores.getNumOccurrences())
    return badInput("--attention-scores is a forward option; the backward "
                    "draws Q ~ N(0, 4), K, V, dO ~ N(0, 1)");
  config.saveInputsPrefix = o.saveInputsPrefix;
  for (StringRef spec : o.saves) {
    auto [index, path] = spec.split(':');
    unsigned arg;
    if (index.trim().getAsInteger(10, arg))
      return badInput("--save takes I:file.npy, got '" + spec + "'");
    config.saves.push_back({arg, path.str()});
  }
  if (llvm::Error e = rejectGemmOptions(o, "attention", "--attention-bwd",
                                        /*savesInputs=*/true))
    return std::move(e);
  if (llvm::Error e = checkAttentionBackwardConfig(config))
    return std::move(e);
  return std::move(config);
}

/// The sizes --moe gives: five positive integers E,N,K,T,topk.
static llvm::Expected<MoeSizes> parseMoeSizes(StringRef text) {
  SmallVector<StringRef> parts;
  text.split(parts, ',');
  int64_t values[5];
  bool malformed = parts.size() != 5;
  for (auto [i, part] : llvm::enumerate(parts))
    malformed =
        malformed || part.trim().getAsInteger(10, values[i]) || values[i] < 1;
  if (malformed)
    return badInput("--moe takes E,N,K,T,topk (5 positive integers), got '" +
                    text + "'");
  MoeSizes sizes;
  sizes.experts = values[0];
  sizes.n = values[1];
  sizes.k = values[2];
  sizes.tokens = values[3];
  sizes.topk = values[4];
  return sizes;
}

static llvm::Expected<MoeConfig> createMoeConfig(const RunCLOptions &o) {
  if (!o.attentionSizes.empty() || !o.attentionBackwardSizes.empty())
    return badInput(llvm::formatv("--moe and --{0} are two workloads: give one",
                                  o.attentionSizes.empty() ? "attention-bwd"
                                                           : "attention"));
  MoeConfig config;
  config.run = createRunConfig(o);
  llvm::Expected<MoeSizes> sizes = parseMoeSizes(o.moeSizes);
  if (!sizes)
    return sizes.takeError();
  config.sizes = *sizes;
  StringRef routing = o.routingOption;
  if (routing == "random" || routing == "skewed" || routing == "one-expert") {
    config.routing = routing == "random"   ? MoeRoutingKind::random
                     : routing == "skewed" ? MoeRoutingKind::skewed
                                           : MoeRoutingKind::oneExpert;
  } else if (routing.ends_with(".npy")) {
    config.routing = MoeRoutingKind::file;
    config.routingFile = routing.str();
  } else {
    return badInput("--routing takes random, skewed, one-expert or a .npy "
                    "file of expert ids, got '" +
                    routing + "'");
  }
  if (o.moeWorkgroups.getNumOccurrences())
    config.workgroups = o.moeWorkgroups.getValue();
  config.scaleA = ifGiven(o.scaleAOption);
  config.scaleB = ifGiven(o.scaleBOption);
  if (llvm::Error e =
          rejectGemmOptions(o, "MoE", "--moe", /*savesInputs=*/false,
                            /*fp8Options=*/true))
    return std::move(e);
  const llvm::cl::Option *otherOptions[] = {
      &o.causalOption,
      &o.attentionScores,
      &o.forwardFile,
      &o.oFile,
      &o.lseFile,
      &static_cast<const llvm::cl::Option &>(o.gridOption),
      &static_cast<const llvm::cl::Option &>(o.expectations)};
  for (const llvm::cl::Option *option : otherOptions)
    if (option->getNumOccurrences())
      return badInput("--" + option->ArgStr +
                      " is not an option of the MoE workload (--moe)");
  // C is the one result: its argument, #2.
  for (StringRef spec : o.saves) {
    auto [index, path] = spec.split(':');
    if (index.trim() != "2" || path.empty())
      return badInput("--moe saves C, the kernel's argument #2 "
                      "(--save=2:file.npy), got '" +
                      spec + "'");
    config.saveFiles.push_back(path.str());
  }
  if (llvm::Error e = checkMoeConfig(config))
    return std::move(e);
  return std::move(config);
}

/// --expect-tolerance: "<n>ulp" or an absolute error, finite and not
/// negative.
static llvm::Expected<ExpectTolerance> parseExpectTolerance(StringRef text) {
  ExpectTolerance tolerance;
  StringRef number = text;
  tolerance.kind = number.consume_back("ulp") ? ExpectTolerance::Kind::ulps
                                              : ExpectTolerance::Kind::absolute;
  if (number.getAsDouble(tolerance.value) || !std::isfinite(tolerance.value) ||
      tolerance.value < 0)
    return badInput("--expect-tolerance takes ulps of the element type (e.g. "
                    "4ulp) or an absolute error (e.g. 1e-3), not negative, "
                    "got '" +
                    text + "'");
  return tolerance;
}

static llvm::Expected<GenericConfig>
createGenericConfig(const RunCLOptions &o) {
  GenericConfig config;
  config.run = createRunConfig(o);
  if (o.moeSizes.getNumOccurrences())
    return badInput("--moe and --arg are two workloads: give one");
  if (llvm::Error e = rejectMoeOptions(o))
    return std::move(e);
  if (llvm::Error e = checkCompareSettings(config.run))
    return std::move(e);
  config.arguments.assign(o.genericArgs.begin(), o.genericArgs.end());
  config.grid.assign(o.gridOption.begin(), o.gridOption.end());
  config.expectations.assign(o.expectations.begin(), o.expectations.end());
  config.saves.assign(o.saves.begin(), o.saves.end());
  if (o.expectTolerance.getNumOccurrences()) {
    llvm::Expected<ExpectTolerance> tolerance =
        parseExpectTolerance(o.expectTolerance);
    if (!tolerance)
      return tolerance.takeError();
    config.tolerance = *tolerance;
  }
  return std::move(config);
}

llvm::Expected<RunCommand> createFromCLOptions() {
  const RunCLOptions &o = *clOptions;
  // The knobs given are checked as hk-compile checks them (a knob a
  // schedule contradicts or ignores is refused); ping-pong-priority
  // without --schedule may be for the program's own hk.schedule.
  ScheduleKnobsGiven given = o.schedule.given();
  if (!given.schedule)
    given.pingPongPriority = false;
  if (llvm::Error why = checkScheduleSettings(o.schedule.settings(), given))
    return llvm::make_error<RunError>(RunError::Kind::badInput,
                                      llvm::toString(std::move(why)));
  // Refused before any kernel is compiled, for every workload.
  if (llvm::Error e = checkShuffleSettings(createRunConfig(o)))
    return std::move(e);
  RunCommand command;
  command.json = o.emitJson;
  if (!o.genericArgs.empty()) {
    command.workload = RunCommand::Workload::generic;
    llvm::Expected<GenericConfig> config = createGenericConfig(o);
    if (!config)
      return config.takeError();
    command.generic = std::move(*config);
    return std::move(command);
  }
  if (o.expectTolerance.getNumOccurrences())
    return badInput("--expect-tolerance is the tolerance of --expect, for a "
                    "kernel run with --arg; the GEMM, attention and MoE "
                    "workloads set their own");
  if (o.moeSizes.getNumOccurrences()) {
    command.workload = RunCommand::Workload::moe;
    llvm::Expected<MoeConfig> config = createMoeConfig(o);
    if (!config)
      return config.takeError();
    command.moe = std::move(*config);
    return std::move(command);
  }
  if (llvm::Error e = rejectMoeOptions(o))
    return std::move(e);
  if (!o.attentionBackwardSizes.empty()) {
    command.workload = RunCommand::Workload::attentionBackward;
    llvm::Expected<AttentionBackwardConfig> config =
        createAttentionBackwardConfig(o);
    if (!config)
      return config.takeError();
    command.attentionBackward = std::move(*config);
    return std::move(command);
  }
  if (!o.attentionSizes.empty()) {
    command.workload = RunCommand::Workload::attention;
    llvm::Expected<AttentionConfig> config = createAttentionConfig(o);
    if (!config)
      return config.takeError();
    command.attention = std::move(*config);
    return std::move(command);
  }
  llvm::Expected<GemmConfig> config = createGemmConfig(o);
  if (!config)
    return config.takeError();
  command.gemm = std::move(*config);
  return std::move(command);
}

} // namespace mlir::hk::run
