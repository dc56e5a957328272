//===- AttentionBackwardWorkload.cpp - the attention backward checks ------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the attention backward workload: its problem, the
// forward run (or the files) that give O and LSE, the choice between the
// source's fused and deterministic kernels, and their runs in order over
// one set of buffers (the check is AttentionBackwardCheck.cpp's).
//
//===----------------------------------------------------------------------===//

#include "HK/Harness/AttentionBackwardWorkload.h"

#include "HK/Kernels/Attention.h"
#include "HK/Runtime/BFloat16.h"
#include "HK/Runtime/Npy.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace mlir;
using namespace mlir::hk;

namespace mlir::hk::run {

unsigned AttentionBackwardProblem::shapeOf(unsigned arg) {
  switch (arg) {
  case bwdQ:
  case bwdO:
  case bwdDO:
  case bwdDQ:
  case bwdDQAcc:
    return argQ;
  case bwdK:
  case bwdV:
  case bwdDK:
  case bwdDV:
    return argK;
  case bwdLse:
  case bwdD:
    return argLse;
  default:
    return argCausal;
  }
}

std::optional<int64_t> AttentionBackwardProblem::extent(unsigned arg,
                                                        int64_t dim) const {
  if (!isBuffer(arg))
    return std::nullopt;
  return forward.extent(shapeOf(arg), dim);
}

std::optional<int64_t> AttentionBackwardProblem::stride(unsigned arg,
                                                        int64_t dim) const {
  if (!isBuffer(arg))
    return std::nullopt;
  return forward.stride(shapeOf(arg), dim);
}

std::optional<uint64_t>
AttentionBackwardProblem::scalarBits(unsigned arg) const {
  if (arg != bwdCausal)
    return std::nullopt;
  return forward.causal ? 1 : 0;
}

/// The forward's view of a backward configuration.
static AttentionConfig forwardConfig(const AttentionBackwardConfig &config) {
  AttentionConfig forward;
  forward.run = config.run;
  forward.run.test = TestKind::random;
  forward.run.kernelName.clear();
  forward.run.inputFile = config.forwardFile;
  forward.problem = config.problem.forward;
  return forward;
}

llvm::Error
checkAttentionBackwardConfig(const AttentionBackwardConfig &config) {
  AttentionConfig forward = forwardConfig(config);
  forward.run.test = config.run.test;
  if (llvm::Error e = checkAttentionConfig(forward, "attention-bwd"))
    return e;
  if (config.oFile.empty() != config.lseFile.empty())
    return badInput("--o and --lse give the forward's O and LSE together: "
                    "give both or neither");
  if (!config.oFile.empty() && !config.forwardFile.empty())
    return badInput("--forward runs a forward kernel for O and LSE; --o and "
                    "--lse give them: give one or the other");
  if (config.run.checkSample)
    return badInput("--check-sample does not apply to --attention-bwd: dK "
                    "and dV sum over every query, so every row is checked");
  for (const auto &[arg, path] : config.saves)
    if (!llvm::is_contained({bwdD, bwdDQ, bwdDK, bwdDV, bwdDQAcc}, arg) ||
        path.empty())
      return badInput(llvm::formatv(
          "--attention-bwd saves what the backward kernels write: "
          "--save=I:file.npy with I {0} (D), {1} (dQ), {2} (dK), {3} (dV) or "
          "{4} (dQacc, fused only), got '{5}:{6}'",
          unsigned(bwdD), unsigned(bwdDQ), unsigned(bwdDK), unsigned(bwdDV),
          unsigned(bwdDQAcc), arg, path));
  return llvm::Error::success();
}

llvm::Error checkAttentionBackwardKernel(StringRef name, ArrayRef<Type> types,
                                         const AttentionProblem &problem,
                                         unsigned arguments) {
  bool fused = arguments == bwdFusedArgs;
  auto wrong = [&](const Twine &why) {
    return badInput(
        "'" + name + "' is not an attention backward kernel: " + why +
        " (it takes Q, K, V, O, dO: memref<?x?x?xDxbf16>, LSE, D: "
        "memref<?x?x?xf32>, dQ, dK, dV: memref<?x?x?xDxbf16>, causal: i32" +
        (fused ? ", dQacc: memref<?x?x?xDxf32>" : "") + ")");
  };
  if (types.size() != arguments)
    return wrong("it takes " + Twine(types.size()) + " arguments, not " +
                 Twine(arguments));
  for (unsigned arg = 0; arg < arguments; ++arg) {
    if (arg == bwdCausal) {
      if (!types[arg].isInteger(32))
        return wrong("argument #" + Twine(arg) + " is not an i32");
      continue;
    }
    auto type = dyn_cast<MemRefType>(types[arg]);
    bool vector = arg == bwdLse || arg == bwdD;
    bool f32 = vector || arg == bwdDQAcc;
    if (!type || type.getRank() != (vector ? 3 : 4) ||
        !(f32 ? type.getElementType().isF32() : type.getElementType().isBF16()))
      return wrong("argument #" + Twine(arg) + " is not a rank-" +
                   Twine(vector ? 3 : 4) + " " + (f32 ? "f32" : "bf16") +
                   " memref");
    if (!vector && !ShapedType::isDynamic(type.getDimSize(3)) &&
        type.getDimSize(3) != problem.headDim)
      return badInput(llvm::formatv("'{0}' is written for head dim {1}; "
                                    "--attention-bwd asks for d = {2}",
                                    name, type.getDimSize(3), problem.headDim));
  }
  return llvm::Error::success();
}

const char *stringifyAttentionBackwardVariant(AttentionBackwardVariant v) {
  return v == AttentionBackwardVariant::fused ? "fused" : "deterministic";
}

std::vector<std::string>
getAttentionBackwardKernels(AttentionBackwardVariant variant, int64_t headDim) {
  return kernels::getAttentionBackwardKernelNames(
      headDim, variant == AttentionBackwardVariant::deterministic);
}

llvm::Expected<AttentionBackwardVariant>
selectAttentionBackwardVariant(ArrayRef<std::string> names, int64_t headDim,
                               StringRef path) {
  using Variant = AttentionBackwardVariant;
  std::vector<std::string> fused =
      getAttentionBackwardKernels(Variant::fused, headDim);
  std::vector<std::string> deterministic =
      getAttentionBackwardKernels(Variant::deterministic, headDim);
  bool isFused = llvm::is_contained(names, fused[1]);
  const std::vector<std::string> &wanted = isFused ? fused : deterministic;
  auto missing = llvm::find_if(wanted, [&](const std::string &kernel) {
    return !llvm::is_contained(names, kernel);
  });
  if (missing == wanted.end())
    return isFused ? Variant::fused : Variant::deterministic;
  std::string message =
      llvm::formatv("'{0}' has no kernel named '{1}' (its kernels: {2})", path,
                    *missing, llvm::join(names, ", "));
  if (isFused)
    return badInput(message +
                    llvm::formatv(": the fused backward runs {0}, then {1}, "
                                  "then {2}, all from the same source",
                                  fused[0], fused[1], fused[2]));
  return badInput(message + llvm::formatv(": --attention-bwd at d = {0} runs "
                                          "the fused backward ({1}, {2}, {3}) "
                                          "or the deterministic one ({4}, {5})",
                                          headDim, fused[0], fused[1], fused[2],
                                          deterministic[0], deterministic[1]));
}

/// hk's forward kernel for the chip and head dim, written to a temporary
/// file (hk-run compiles sources from files).
static llvm::Expected<std::string>
writeForwardKernel(MLIRContext &context,
                   const AttentionBackwardConfig &config) {
  OpBuilder builder(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(builder.getUnknownLoc());
  builder.setInsertionPointToStart(module->getBody());
  kernels::AttentionDescription description;
  description.chip = config.run.chip;
  description.headDim = config.problem.forward.headDim;
  llvm::Expected<gpu::GPUModuleOp> kernel =
      kernels::buildAttentionKernel(builder, description);
  if (!kernel)
    return badInput("no forward kernel for the backward: " +
                    llvm::toString(kernel.takeError()));
  llvm::SmallString<128> path;
  int fd;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("hk-forward", "mlir", fd, path))
    return badInput("cannot write the forward kernel: " + ec.message());
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  module->print(os);
  return path.str().str();
}

static float floatAt(const std::vector<uint8_t> &buffer, int64_t i) {
  float x;
  std::memcpy(&x, buffer.data() + i * 4, 4);
  return x;
}

/// Runs the forward kernel (--forward's, or hk's for the chip and d) for O
/// and LSE.
static llvm::Expected<std::vector<std::vector<uint8_t>>>
runForward(MLIRContext &context, const AttentionBackwardConfig &config,
           AttentionConfig &forward, const AttentionInputs &inputs) {
  std::string generated;
  if (forward.run.inputFile.empty()) {
    llvm::Expected<std::string> path = writeForwardKernel(context, config);
    if (!path)
      return path.takeError();
    generated = forward.run.inputFile = *path;
  }
  llvm::Expected<std::vector<std::vector<uint8_t>>> fwd =
      runAttentionForward(context, forward.run, forward.run.inputFile,
                          config.problem.forward, inputs);
  if (!generated.empty())
    llvm::sys::fs::remove(generated);
  return fwd;
}

/// The forward's O and LSE from --o and --lse: O as bf16 bits (<u2) or
/// float32 (rounded to bf16), LSE as float32.
static llvm::Expected<std::vector<std::vector<uint8_t>>>
readForwardOutputs(const AttentionBackwardConfig &config) {
  const AttentionProblem &p = config.problem.forward;
  auto shapeText = [](ArrayRef<int64_t> shape) {
    return llvm::join(
        llvm::map_range(shape, [](int64_t n) { return std::to_string(n); }),
        ", ");
  };
  std::vector<std::vector<uint8_t>> out(argLse + 1);
  for (unsigned arg : {argO, argLse}) {
    StringRef path = arg == argO ? config.oFile : config.lseFile;
    llvm::Expected<NpyArray> array = readNpy(path);
    if (!array)
      return badInput(llvm::toString(array.takeError()));
    std::vector<int64_t> want = p.shape(arg);
    if (array->shape != want)
      return badInput(llvm::formatv("'{0}' has shape ({1}); --attention-bwd "
                                    "needs ({2})",
                                    path, shapeText(array->shape),
                                    shapeText(want)));
    int64_t n = p.elements(arg);
    if (arg == argLse) {
      if (array->dtype != "<f4")
        return badInput("'" + path + "' holds " + array->dtype +
                        "; LSE is read as float32 (<f4)");
      out[arg] = std::move(array->data);
      continue;
    }
    out[arg].resize(n * 2);
    if (array->dtype == "<u2") {
      out[arg] = std::move(array->data);
    } else if (array->dtype == "<f4") {
      for (int64_t i = 0; i < n; ++i) {
        uint16_t bits = floatToBf16(floatAt(array->data, i));
        std::memcpy(out[arg].data() + 2 * i, &bits, 2);
      }
    } else {
      return badInput("'" + path + "' holds " + array->dtype +
                      "; O is read as bf16 bits (<u2) or float32 (<f4)");
    }
  }
  return std::move(out);
}

/// --save-inputs: Q, K, V, dO and the forward's O as bf16 bits (<u2), LSE
/// as float32, to <prefix><name>.npy.
static llvm::Error
saveInputs(const AttentionBackwardConfig &config,
           const std::vector<std::vector<uint8_t>> &buffers) {
  const AttentionProblem &p = config.problem.forward;
  struct Saved {
    const char *name;
    unsigned arg, shapeOf;
  } saved[] = {{"q", bwdQ, argQ},   {"k", bwdK, argK}, {"v", bwdV, argK},
               {"do", bwdDO, argQ}, {"o", bwdO, argQ}, {"lse", bwdLse, argLse}};
  for (const Saved &s : saved) {
    std::string path = config.saveInputsPrefix + s.name + ".npy";
    NpyArray array{s.arg == bwdLse ? "<f4" : "<u2", p.shape(s.shapeOf),
                   buffers[s.arg]};
    if (llvm::Error e = writeNpy(path, array))
      return badInput("cannot write '" + path +
                      "': " + llvm::toString(std::move(e)));
  }
  return llvm::Error::success();
}

/// --save: the outputs `config.saves` names, from `buffers` as the kernels
/// left them (bf16 as bits, f32 as float32); a line per file into `saved`.
static llvm::Error saveOutputs(const AttentionBackwardConfig &config,
                               AttentionBackwardVariant variant,
                               const std::vector<std::vector<uint8_t>> &buffers,
                               std::vector<std::string> &saved) {
  static constexpr const char *names[] = {"",  "",   "",   "",   "", "",
                                          "D", "dQ", "dK", "dV", "", "dQacc"};
  const AttentionProblem &p = config.problem.forward;
  for (const auto &[arg, path] : config.saves) {
    if (arg == bwdDQAcc && variant != AttentionBackwardVariant::fused)
      return badInput(llvm::formatv(
          "--save={0}: dQacc is the fused backward's workspace; '{1}' holds "
          "the deterministic kernels, which take no argument #{0}",
          arg, config.run.inputFile));
    bool f32 = arg == bwdD || arg == bwdDQAcc;
    std::vector<int64_t> shape =
        p.shape(AttentionBackwardProblem::shapeOf(arg));
    NpyArray array{f32 ? "<f4" : "<u2", shape, buffers[arg]};
    if (llvm::Error e = writeNpy(path, array))
      return badInput("cannot write '" + path +
                      "': " + llvm::toString(std::move(e)));
    saved.push_back(llvm::formatv(
        "wrote argument #{0} ({1}, {2} {3}) to {4}", arg, names[arg],
        llvm::join(
            llvm::map_range(shape, [](int64_t n) { return std::to_string(n); }),
            "x"),
        f32 ? "f32" : "bf16 bits", path));
  }
  return llvm::Error::success();
}

namespace {
/// One backward version's kernels and its buffers after they ran.
struct BackwardRun {
  AttentionBackwardVariant variant = AttentionBackwardVariant::deterministic;
  std::vector<BackwardKernelRun> kernels;
  std::vector<std::vector<uint8_t>> buffers;
};
} // namespace

/// The arguments each kernel of `variant` writes, in the order they run
/// (getAttentionBackwardKernels): on hip, what is copied back.
static std::vector<std::vector<unsigned>>
getBackwardOutputs(AttentionBackwardVariant variant) {
  if (variant == AttentionBackwardVariant::fused)
    return {{bwdD, bwdDQAcc}, {bwdDQAcc, bwdDK, bwdDV}, {bwdDQ}};
  return {{bwdD, bwdDQ}, {bwdDK, bwdDV}};
}

/// Runs the backward kernels of `runConfig.inputFile` on its backend, in
/// order, on a copy of `buffers`: the fused variant's if the source holds
/// it, else the deterministic one's. The fused variant's dQacc starts as
/// NaN, so that an element the first kernel does not zero fails.
static llvm::Expected<BackwardRun>
runBackward(MLIRContext &context, const AttentionBackwardConfig &config,
            const RunConfig &runConfig, Version version,
            const std::vector<std::vector<uint8_t>> &buffers) {
  const AttentionBackwardProblem &problem = config.problem;
  const AttentionProblem &p = problem.forward;
  llvm::Expected<std::vector<std::string>> names =
      listKernels(context, runConfig, runConfig.inputFile);
  if (!names)
    return names.takeError();
  llvm::Expected<AttentionBackwardVariant> variant =
      selectAttentionBackwardVariant(*names, p.headDim, runConfig.inputFile);
  if (!variant)
    return variant.takeError();
  BackwardRun run;
  run.variant = *variant;
  bool fused = run.variant == AttentionBackwardVariant::fused;
  unsigned arguments = fused ? bwdFusedArgs : bwdDeterministicArgs;
  // Every kernel compiled and its signature checked before any runs.
  for (const std::string &name :
       getAttentionBackwardKernels(run.variant, p.headDim)) {
    RunConfig rc = runConfig;
    rc.kernelName = name;
    auto read = [&](StringRef name, ArrayRef<Type> types,
                    const KernelArguments *&kernelArguments) {
      kernelArguments = &problem;
      return checkAttentionBackwardKernel(name, types, p, arguments);
    };
    llvm::Expected<PreparedKernel> kernel =
        prepareKernel(context, rc, rc.inputFile, read, version);
    if (!kernel)
      return kernel.takeError();
    run.kernels.push_back({std::move(*kernel), LaunchStats()});
  }
  run.buffers = buffers;
  if (fused) {
    // (The causal flag, argument #10, is no buffer: left empty.)
    run.buffers.resize(bwdFusedArgs);
    std::vector<uint8_t> &acc = run.buffers[bwdDQAcc];
    acc.resize(p.elements(argQ) * 4);
    float nan = std::numeric_limits<float>::quiet_NaN();
    for (size_t i = 0; i < acc.size(); i += 4)
      std::memcpy(acc.data() + i, &nan, 4);
  }
  std::vector<std::vector<unsigned>> written = getBackwardOutputs(run.variant);
  for (auto [step, kernel] : llvm::enumerate(run.kernels)) {
    std::vector<bool> outputs(run.buffers.size(), false);
    for (unsigned arg : written[step])
      outputs[arg] = true;
    llvm::Expected<LaunchStats> stats =
        launchKernel(runConfig, kernel.kernel, run.buffers, outputs);
    if (!stats)
      return stats.takeError();
    kernel.stats = std::move(*stats);
  }
  return std::move(run);
}

llvm::Expected<AttentionBackwardResult>
runAttentionBackwardWorkload(MLIRContext &context,
                             const AttentionBackwardConfig &config) {
  if (llvm::Error e = checkAttentionBackwardConfig(config))
    return std::move(e);
  const AttentionProblem &p = config.problem.forward;
  AttentionConfig forward = forwardConfig(config);
  AttentionInputs inputs;
  makeAttentionInputs(forward, inputs);
  AttentionBackwardInputs checked{inputs.q, inputs.k, inputs.v,
                                  std::vector<uint16_t>(p.elements(argO))};
  // dO: unit normal bf16, drawn after Q, K and V.
  {
    std::mt19937_64 rng(config.run.seed + 7);
    std::normal_distribution<double> normal(0.0, 1.0);
    for (uint16_t &x : checked.dO)
      x = floatToBf16(float(normal(rng)));
  }
  llvm::Expected<std::vector<std::vector<uint8_t>>> fwd =
      config.oFile.empty() ? runForward(context, config, forward, inputs)
                           : readForwardOutputs(config);
  if (!fwd)
    return fwd.takeError();

  // Q, K, V, O, dO, LSE, then D, dQ, dK, dV as NaN: an element no kernel
  // writes fails the check.
  std::vector<std::vector<uint8_t>> buffers = {
      inputs.buffers[argQ], inputs.buffers[argK], inputs.buffers[argV],
      (*fwd)[argO]};
  std::vector<uint8_t> dOBytes(checked.dO.size() * 2);
  std::memcpy(dOBytes.data(), checked.dO.data(), dOBytes.size());
  buffers.push_back(std::move(dOBytes));
  buffers.push_back((*fwd)[argLse]);
  std::vector<uint8_t> nanRows(p.elements(argLse) * 4);
  float nan = std::numeric_limits<float>::quiet_NaN();
  for (size_t i = 0; i < nanRows.size(); i += 4)
    std::memcpy(nanRows.data() + i, &nan, 4);
  buffers.push_back(std::move(nanRows));
  buffers.push_back(std::vector<uint8_t>(p.elements(argQ) * 2));
  buffers.push_back(std::vector<uint8_t>(p.elements(argK) * 2));
  buffers.push_back(std::vector<uint8_t>(p.elements(argK) * 2));
  for (unsigned arg : {bwdDQ, bwdDK, bwdDV})
    for (size_t i = 0; i < buffers[arg].size(); i += 2) {
      buffers[arg][i] = 0xc0;
      buffers[arg][i + 1] = 0x7f;
    }

  if (!config.saveInputsPrefix.empty())
    if (llvm::Error e = saveInputs(config, buffers))
      return std::move(e);
  const RunConfig &rc = config.run;
  llvm::Expected<BackwardRun> run =
      runBackward(context, config, rc, Version::tested, buffers);
  if (!run)
    return run.takeError();
  AttentionBackwardResult result;
  result.variant = run->variant;
  if (rc.test == TestKind::compare) {
    llvm::Expected<BackwardRun> other = runBackward(
        context, config, getComparedRunConfig(rc), Version::compared, buffers);
    if (!other)
      return other.takeError();
    // A fused variant's dQ sums its atomic adds in the hardware's order.
    result.compareExactDq = run->variant != AttentionBackwardVariant::fused &&
                            other->variant != AttentionBackwardVariant::fused;
    result.check = checkAttentionBackward(
        p, checked, run->buffers, &other->buffers, result.compareExactDq);
  } else {
    result.check = checkAttentionBackward(p, checked, run->buffers, nullptr,
                                          /*exactDq=*/true);
  }
  if (llvm::Error e =
          saveOutputs(config, run->variant, run->buffers, result.saved))
    return std::move(e);
  result.kernels = std::move(run->kernels);
  result.flops = 10.0 * p.batch * p.qHeads * p.queries * p.keys * p.headDim *
                 (p.causal ? 0.5 : 1.0);
  return std::move(result);
}

} // namespace mlir::hk::run
