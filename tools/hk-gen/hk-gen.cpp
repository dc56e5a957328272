//===- hk-gen.cpp - print an hk kernel from a description -----------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Prints the hk program of a kernel description (lib/Kernels):
//
//   hk-gen gemm --chip=gfx950 --layout=tn --c-type=bf16 --epilogue=bias
//   hk-gen attention --chip=gfx1201 --head-dim=64
//   hk-gen attention-bwd --chip=gfx950 --head-dim=128
//
// The program opens with a comment saying what it computes and the command
// that generated it; examples/ holds such output. Exit status 2 when the
// description is refused, with the reason. A tiling given on the command
// line (--block, --waves, --k-tile) is compiled to check that it does not
// spill; a warning says when it does.
//
//===----------------------------------------------------------------------===//

#include "HK/InitAllDialects.h"
#include "HK/Kernels/Attention.h"
#include "HK/Kernels/Gemm.h"
#include "HK/Kernels/MoeGemm.h"
#include "HK/Pipelines/KernelSchedules.h"
#include "HK/Pipelines/Pipelines.h"
#include "HK/Report/CodeObject.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace mlir;
using namespace mlir::hk;
using namespace mlir::hk::kernels;

static cl::OptionCategory toolOptions("hk-gen options");
static cl::SubCommand gemmCommand("gemm", "a GEMM kernel");
static cl::SubCommand moeGemmCommand("moe-gemm",
                                     "a mixture-of-experts GEMM kernel");
static cl::SubCommand attentionCommand("attention",
                                       "a FlashAttention forward kernel");
static cl::SubCommand
    attentionBackwardCommand("attention-bwd",
                             "the FlashAttention backward kernels");

static cl::opt<Chip> chipOption(
    "chip", cl::Required, cl::cat(toolOptions), cl::sub(gemmCommand),
    cl::sub(moeGemmCommand), cl::sub(attentionCommand),
    cl::sub(attentionBackwardCommand), cl::desc("the chip"),
    cl::values(clEnumValN(Chip::gfx950, "gfx950", "CDNA4 (MI350/MI355X)"),
               clEnumValN(Chip::gfx1201, "gfx1201", "RDNA4 (RX 9070)")));
static cl::opt<std::string>
    outputFile("o", cl::init("-"), cl::cat(toolOptions), cl::sub(gemmCommand),
               cl::sub(moeGemmCommand), cl::sub(attentionCommand),
               cl::sub(attentionBackwardCommand), cl::value_desc("file"),
               cl::desc("where to write the program (default: stdout)"));

// GEMM.
static cl::opt<ElementKind>
    abType("ab-type", cl::init(ElementKind::bf16), cl::cat(toolOptions),
           cl::sub(gemmCommand), cl::sub(moeGemmCommand),
           cl::desc("the element type of A and B"),
           cl::values(clEnumValN(ElementKind::bf16, "bf16", "bf16"),
                      clEnumValN(ElementKind::f8e4m3, "e4m3", "OCP fp8 E4M3"),
                      clEnumValN(ElementKind::f8e5m2, "e5m2", "OCP fp8 E5M2")));
static cl::opt<bool>
    blockScales("block-scales", cl::cat(toolOptions), cl::sub(gemmCommand),
                cl::sub(moeGemmCommand),
                cl::desc("MXFP8: E8M0 scales per 32 k of each row of A and B "
                         "(fp8 --ab-type, gfx950)"));
static cl::opt<ElementKind>
    cType("c-type", cl::init(ElementKind::bf16), cl::cat(toolOptions),
          cl::sub(gemmCommand), cl::sub(moeGemmCommand),
          cl::desc("the element type of C"),
          cl::values(clEnumValN(ElementKind::bf16, "bf16", "bf16"),
                     clEnumValN(ElementKind::f16, "f16", "f16"),
                     clEnumValN(ElementKind::f32, "f32", "f32")));
static cl::opt<std::string>
    layoutOption("layout", cl::init("nt"), cl::cat(toolOptions),
                 cl::sub(gemmCommand), cl::sub(moeGemmCommand),
                 cl::value_desc("nn|nt|tn|tt"),
                 cl::desc("BLAS operand layout: A's letter, then B's (n: A "
                          "M x K, B K x N; t: stored transposed)"));
static cl::opt<bool> batched("batched", cl::cat(toolOptions),
                             cl::sub(gemmCommand), cl::sub(moeGemmCommand),
                             cl::desc("3-D A, B and C, the batch first"));
static cl::list<std::string>
    epilogue("epilogue", cl::CommaSeparated, cl::cat(toolOptions),
             cl::sub(gemmCommand), cl::value_desc("none|alpha-beta|bias,..."),
             cl::desc("C = alpha A B + beta C (alpha-beta) and/or + bias[n]"));
static cl::opt<std::string>
    blockOption("block", cl::cat(toolOptions), cl::sub(gemmCommand),
                cl::sub(moeGemmCommand), cl::value_desc("MxN"),
                cl::desc("the workgroup's tile of C (default: the chip's)"));
static cl::opt<std::string>
    wavesOption("waves", cl::cat(toolOptions), cl::sub(gemmCommand),
                cl::sub(moeGemmCommand), cl::value_desc("RxC"),
                cl::desc("the workgroup's wave grid (default 2x4)"));
static cl::opt<int64_t>
    kTileOption("k-tile", cl::init(0), cl::cat(toolOptions),
                cl::sub(gemmCommand), cl::sub(moeGemmCommand),
                cl::desc("K per trip of the K loop (default: 64 for bf16, "
                         "128 for fp8)"));

// Attention.
// MoE GEMM (with the GEMM's options).
static cl::opt<std::string> moeGroups(
    "groups", cl::init("contiguous"), cl::cat(toolOptions),
    cl::sub(moeGemmCommand), cl::value_desc("contiguous|gathered"),
    cl::desc("how A's rows reach their experts: sorted by expert with "
             "group_offsets, or gathered through sorted_token_ids"));
static cl::opt<std::string> moeEpilogue(
    "epilogue", cl::init("none"), cl::cat(toolOptions), cl::sub(moeGemmCommand),
    cl::value_desc("none|gated|combine"),
    cl::desc("what follows the product: nothing, SiLU(gate) * up, or the "
             "routing-weighted sum into each token's row"));
static cl::opt<bool>
    smallM("small-m", cl::cat(toolOptions), cl::sub(moeGemmCommand),
           cl::desc("decode: at most 32 rows per expert, a shorter tile"));
static cl::opt<bool> moeDeterministic(
    "deterministic", cl::cat(toolOptions), cl::sub(moeGemmCommand),
    cl::desc("the combine without atomics: per-slot rows, then a second "
             "kernel sums each token's rows in order"));

static cl::opt<int64_t> headDim("head-dim", cl::init(128), cl::cat(toolOptions),
                                cl::sub(attentionCommand),
                                cl::sub(attentionBackwardCommand),
                                cl::desc("the head dimension d"));
static cl::opt<std::string>
    mmaOption("mma", cl::cat(toolOptions), cl::sub(attentionCommand),
              cl::sub(attentionBackwardCommand), cl::value_desc("MxNxK"),
              cl::desc("the bf16 MMA shape (gfx950: 32x32x16, the default, "
                       "or 16x16x32; gfx1201: 16x16x16)"));

static cl::opt<cl::boolOrDefault> scoresAheadOption(
    "scores-ahead", cl::cat(toolOptions), cl::sub(attentionCommand),
    cl::desc("compute the next KV tile's scores beside this tile's softmax, "
             "a software-pipelined KV loop (default: on for gfx950, off for "
             "gfx1201)"));

static cl::opt<int64_t> attentionWavesOption(
    "waves", cl::cat(toolOptions), cl::sub(attentionCommand),
    cl::desc("waves per workgroup, 4 or 8 (8: gfx950 only; default 8 on "
             "gfx950, 4 on gfx1201)"));

static cl::opt<bool> attentionDeterministic(
    "deterministic", cl::cat(toolOptions), cl::sub(attentionBackwardCommand),
    cl::desc("dQ without atomics: a dQ kernel and a dK/dV kernel, each "
             "recomputing S and P, the same bits on every run (default: one "
             "fused pass adding dQ with fp32 atomics)"));

static int fail(const Twine &message) {
  WithColor::error(errs(), "hk-gen") << message << "\n";
  return 2;
}

/// Parses "<a>x<b>..." into exactly `count` numbers.
static std::optional<SmallVector<int64_t>> parseDims(StringRef text,
                                                     size_t count) {
  SmallVector<StringRef> parts;
  text.split(parts, 'x');
  if (parts.size() != count)
    return std::nullopt;
  SmallVector<int64_t> dims(count);
  for (auto [part, dim] : llvm::zip(parts, dims))
    if (part.getAsInteger(10, dim))
      return std::nullopt;
  return dims;
}

/// Parses "<a>x<b>" into two numbers.
static bool parsePair(StringRef text, std::optional<int64_t> &first,
                      std::optional<int64_t> &second) {
  std::optional<SmallVector<int64_t>> dims = parseDims(text, 2);
  if (!dims)
    return false;
  first = (*dims)[0];
  second = (*dims)[1];
  return true;
}

static Expected<GemmDescription> gemmFromOptions() {
  GemmDescription d;
  d.chip = chipOption;
  d.operands = abType;
  d.blockScales = blockScales;
  d.result = cType;
  d.batched = batched;
  std::optional<GemmLayout> layout = parseGemmLayout(layoutOption);
  if (!layout)
    return createStringError("--layout must be nn, nt, tn or tt, not '" +
                             layoutOption + "'");
  d.layout = *layout;
  for (StringRef part : epilogue) {
    if (part == "alpha-beta")
      d.epilogue.alphaBeta = true;
    else if (part == "bias")
      d.epilogue.bias = true;
    else if (part != "none")
      return createStringError("--epilogue takes none, alpha-beta and bias, "
                               "not '" +
                               part + "'");
  }
  if (!blockOption.empty() && !parsePair(blockOption, d.blockM, d.blockN))
    return createStringError("--block must be <M>x<N>, not '" + blockOption +
                             "'");
  if (!wavesOption.empty() && !parsePair(wavesOption, d.waveRows, d.waveCols))
    return createStringError("--waves must be <rows>x<cols>, not '" +
                             wavesOption + "'");
  if (kTileOption.getNumOccurrences())
    d.kTile = kTileOption;
  return d;
}

static Expected<MoeGemmDescription> moeGemmFromOptions() {
  Expected<GemmDescription> gemm = gemmFromOptions();
  if (!gemm)
    return gemm.takeError();
  MoeGemmDescription d;
  d.gemm = *gemm;
  std::optional<MoeGroups> groups = parseMoeGroups(moeGroups);
  if (!groups)
    return createStringError("--groups must be contiguous or gathered, not '" +
                             moeGroups + "'");
  d.groups = *groups;
  std::optional<MoeEpilogue> epilogue = parseMoeEpilogue(moeEpilogue);
  if (!epilogue)
    return createStringError(
        "--epilogue must be none, gated or combine, not '" + moeEpilogue + "'");
  d.epilogue = *epilogue;
  d.smallM = smallM;
  d.deterministic = moeDeterministic;
  return d;
}

/// A kernel built from the command line and the comment that heads it.
struct Generated {
  std::string description;
  gpu::GPUModuleOp kernel;
  /// Set when the tiling is the command line's, not the library's (whose
  /// defaults the test suite compiles): the schedule to compile it with to
  /// check that it does not spill.
  std::optional<ScheduleSettings> checkRegistersAt;
};

/// Whether the tiling is the command line's.
static bool tilingGiven() {
  return !blockOption.empty() || !wavesOption.empty() ||
         kTileOption.getNumOccurrences();
}

static Expected<Generated> generateGemm(OpBuilder &builder) {
  Expected<GemmDescription> gemm = gemmFromOptions();
  if (!gemm)
    return gemm.takeError();
  Expected<GemmDescription> resolved = resolveGemm(*gemm);
  if (!resolved)
    return resolved.takeError();
  Expected<gpu::GPUModuleOp> kernel = buildGemmKernel(builder, *resolved);
  if (!kernel)
    return kernel.takeError();
  Generated generated{describeGemmKernel(*resolved), *kernel, std::nullopt};
  if (tilingGiven())
    generated.checkRegistersAt = getFastestSchedule(*resolved);
  return generated;
}

static Expected<Generated> generateMoeGemm(OpBuilder &builder) {
  Expected<MoeGemmDescription> moe = moeGemmFromOptions();
  if (!moe)
    return moe.takeError();
  Expected<MoeGemmDescription> resolved = resolveMoeGemm(*moe);
  if (!resolved)
    return resolved.takeError();
  Expected<gpu::GPUModuleOp> kernel = buildMoeGemmKernel(builder, *resolved);
  if (!kernel)
    return kernel.takeError();
  Generated generated{describeMoeGemmKernel(*resolved), *kernel, std::nullopt};
  if (tilingGiven())
    generated.checkRegistersAt = getFastestSchedule(resolved->gemm);
  return generated;
}

static Expected<Generated> generateAttention(OpBuilder &builder,
                                             bool backward) {
  AttentionDescription attention;
  attention.chip = chipOption;
  attention.headDim = headDim;
  attention.deterministic = attentionDeterministic;
  if (scoresAheadOption != cl::BOU_UNSET)
    attention.scoresAhead = scoresAheadOption == cl::BOU_TRUE;
  if (attentionWavesOption.getNumOccurrences())
    attention.waves = attentionWavesOption;
  if (!mmaOption.empty()) {
    std::optional<SmallVector<int64_t>> dims = parseDims(mmaOption, 3);
    if (!dims)
      return createStringError("--mma must be MxNxK, e.g. 32x32x16, not '" +
                               mmaOption + "'");
    attention.mma = MmaShape{(*dims)[0], (*dims)[1], (*dims)[2]};
  }
  Expected<AttentionDescription> resolved = resolveAttention(attention);
  if (!resolved)
    return resolved.takeError();
  Expected<gpu::GPUModuleOp> kernel =
      backward ? buildAttentionBackwardKernels(builder, *resolved)
               : buildAttentionKernel(builder, *resolved);
  if (!kernel)
    return kernel.takeError();
  Generated generated{backward ? describeAttentionBackwardKernels(*resolved)
                               : describeAttentionKernel(*resolved),
                      *kernel, std::nullopt};
  if (attentionWavesOption.getNumOccurrences())
    generated.checkRegistersAt = ScheduleSettings();
  return generated;
}

/// Compiles `module` for `chip` at `schedule` and warns about each kernel
/// that spills or uses scratch, as hk-compile does.
static void warnAboutSpills(ModuleOp module, Chip chip,
                            const ScheduleSettings &schedule) {
  MLIRContext *context = module.getContext();
  DialectRegistry registry;
  registerAllDialects(registry);
  context->appendDialectRegistry(registry);
  OwningOpRef<ModuleOp> copy = module.clone();
  HKPipelineOptions options;
  options.chip = chip;
  options.tidyLlvm = false;
  applyScheduleSettings(schedule, options);
  FailureOr<std::string> object = compileGpuModule(*copy, options, "bin");
  Expected<CodeObjectInfo> info =
      succeeded(object) ? readCodeObject(*object)
                        : Expected<CodeObjectInfo>(createStringError(
                              "it does not compile at that schedule (the "
                              "diagnostic above)"));
  if (!info) {
    WithColor::warning(errs(), "hk-gen")
        << "cannot check the kernel's registers at '" << schedule.str()
        << "': " << toString(info.takeError()) << "\n";
    return;
  }
  for (const KernelResources &kernel : info->kernels)
    if (std::string use = describeScratchUse(kernel); !use.empty())
      WithColor::warning(errs(), "hk-gen")
          << use << " at '" << schedule.str() << "': give a smaller tiling\n";
}

/// Prints `text` as a comment block.
static void printComment(raw_ostream &os, StringRef text) {
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (StringRef line : lines) {
    if (line.empty()) {
      os << "//\n";
      continue;
    }
    // Keep leading indentation (formulas); wrap prose at 77 columns.
    size_t indent = line.find_first_not_of(' ');
    std::string current;
    for (StringRef word : llvm::split(line.drop_front(indent), ' ')) {
      if (!current.empty() && indent + current.size() + 1 + word.size() > 77) {
        os << "// " << std::string(indent, ' ') << current << "\n";
        current.clear();
      }
      current += (current.empty() ? "" : " ") + word.str();
    }
    os << "// " << std::string(indent, ' ') << current << "\n";
  }
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(toolOptions);
  // Bad usage is exit status 2, as for a description no kernel serves
  // (ParseCommandLineOptions would exit with 1).
  if (!cl::ParseCommandLineOptions(
          argc, argv, "hk-gen: print an hk kernel from a description\n",
          &errs()))
    return 2;

  MLIRContext context;
  OpBuilder builder(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(builder.getUnknownLoc());
  builder.setInsertionPointToStart(module->getBody());

  Expected<Generated> generated =
      gemmCommand        ? generateGemm(builder)
      : moeGemmCommand   ? generateMoeGemm(builder)
      : attentionCommand ? generateAttention(builder, /*backward=*/false)
      : attentionBackwardCommand
          ? generateAttention(builder, /*backward=*/true)
          : Expected<Generated>(createStringError(
                "name a kernel: hk-gen gemm ..., hk-gen moe-gemm ..., hk-gen "
                "attention ... or "
                "hk-gen attention-bwd ... (--help lists the options)"));
  if (!generated)
    return fail(toString(generated.takeError()));
  if (generated->checkRegistersAt)
    warnAboutSpills(*module, chipOption, *generated->checkRegistersAt);

  std::string error;
  std::unique_ptr<ToolOutputFile> output = openOutputFile(outputFile, &error);
  if (!output)
    return fail(error);
  raw_ostream &os = output->os();
  printComment(os, generated->description);
  os << "//\n";
  // The command that regenerates the file, without where it was written.
  SmallVector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    StringRef arg = argv[i];
    if (arg == "-o" || arg == "--o")
      ++i;
    else if (!arg.starts_with("-o=") && !arg.starts_with("--o="))
      args.push_back(arg.str());
  }
  os << "// Generated by: hk-gen " << join(args, " ") << "\n"
     << "// (lib/Kernels; change the generator, not this file)\n";
  generated->kernel->print(os, OpPrintingFlags().printNameLocAsPrefix());
  os << "\n";
  output->keep();
  return 0;
}
