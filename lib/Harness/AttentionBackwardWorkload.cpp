//===- AttentionBackwardWorkload.cpp - the attention backward checks ------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
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
  if (arg >= bwdBuffers)
    return std::nullopt;
  return forward.extent(shapeOf(arg), dim);
}

std::optional<int64_t> AttentionBackwardProblem::stride(unsigned arg,
                                                        int64_t dim) const {
  if (arg >= bwdBuffers)
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
  return llvm::Error::success();
}

static llvm::Error checkBackwardKernel(StringRef name, ArrayRef<Type> types,
                                       const AttentionProblem &problem) {
  auto wrong = [&](const Twine &why) {
    return badInput("'" + name +
                    "' is not an attention backward kernel: " + why +
                    " (it takes Q, K, V, O, dO: memref<?x?x?xDxbf16>, LSE, "
                    "D: memref<?x?x?xf32>, dQ, dK, dV: memref<?x?x?xDxbf16>, "
                    "causal: i32)");
  };
  if (types.size() != bwdBuffers + 1)
    return wrong("it takes " + Twine(types.size()) + " arguments, not " +
                 Twine(bwdBuffers + 1));
  for (unsigned arg = 0; arg < bwdBuffers; ++arg) {
    auto type = dyn_cast<MemRefType>(types[arg]);
    bool vector = arg == bwdLse || arg == bwdD;
    if (!type || type.getRank() != (vector ? 3 : 4) ||
        !(vector ? type.getElementType().isF32()
                 : type.getElementType().isBF16()))
      return wrong("argument #" + Twine(arg) + " is not a rank-" +
                   Twine(vector ? 3 : 4) + " " + (vector ? "f32" : "bf16") +
                   " memref");
    if (!vector && !ShapedType::isDynamic(type.getDimSize(3)) &&
        type.getDimSize(3) != problem.headDim)
      return badInput(llvm::formatv("'{0}' is written for head dim {1}; "
                                    "--attention-bwd asks for d = {2}",
                                    name, type.getDimSize(3), problem.headDim));
  }
  if (!types[bwdCausal].isInteger(32))
    return wrong("argument #" + Twine(bwdCausal) + " is not an i32");
  return llvm::Error::success();
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
static double bf16At(const std::vector<uint8_t> &buffer, int64_t i) {
  uint16_t bits;
  std::memcpy(&bits, buffer.data() + i * 2, 2);
  return bf16ToFloat(bits);
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

namespace {
/// One backward version's buffers after both kernels ran.
struct BackwardRun {
  PreparedKernel dq, dkdv;
  LaunchStats dqStats, dkdvStats;
  std::vector<std::vector<uint8_t>> buffers;
};
} // namespace

/// Runs the dQ then the dK/dV kernel of `runConfig.inputFile` on its backend,
/// on a copy of `buffers`.
static llvm::Expected<BackwardRun>
runBackward(MLIRContext &context, const AttentionBackwardConfig &config,
            const RunConfig &runConfig, Version version,
            const std::vector<std::vector<uint8_t>> &buffers) {
  const AttentionBackwardProblem &problem = config.problem;
  BackwardRun run;
  run.buffers = buffers;
  int64_t d = problem.forward.headDim;
  struct Step {
    std::string kernel;
    PreparedKernel &prepared;
    LaunchStats &stats;
    std::vector<unsigned> outputs;
  } steps[] = {{llvm::formatv("attention_bwd_dq_bf16_d{0}", d).str(),
                run.dq,
                run.dqStats,
                {bwdD, bwdDQ}},
               {llvm::formatv("attention_bwd_dkdv_bf16_d{0}", d).str(),
                run.dkdv,
                run.dkdvStats,
                {bwdDK, bwdDV}}};
  for (Step &step : steps) {
    RunConfig rc = runConfig;
    rc.kernelName = step.kernel;
    auto read = [&](StringRef name, ArrayRef<Type> types,
                    const KernelArguments *&arguments) {
      arguments = &problem;
      return checkBackwardKernel(name, types, problem.forward);
    };
    llvm::Expected<PreparedKernel> kernel =
        prepareKernel(context, rc, rc.inputFile, read, version);
    if (!kernel)
      return kernel.takeError();
    step.prepared = std::move(*kernel);
    std::vector<bool> outputs(run.buffers.size(), false);
    for (unsigned arg : step.outputs)
      outputs[arg] = true;
    llvm::Expected<LaunchStats> stats =
        launchKernel(rc, step.prepared, run.buffers, outputs);
    if (!stats)
      return stats.takeError();
    step.stats = std::move(*stats);
  }
  return std::move(run);
}

static void count(GradientCheck &check, double got, double want, double bound) {
  double err = std::fabs(got - want);
  ++check.checked;
  if (!(err <= bound))
    ++check.bad;
  if (std::isfinite(err))
    check.maxAbs = std::max(check.maxAbs, err);
}

/// The fp64 dot product of two bf16 rows, and the sum of its terms'
/// magnitudes (the f32 accumulation's error scale).
struct Dot {
  double sum = 0, abs = 0;
};
static Dot dot(const uint16_t *a, const uint16_t *b, int64_t n) {
  Dot out;
  for (int64_t i = 0; i < n; ++i) {
    double x = double(bf16ToFloat(a[i])) * bf16ToFloat(b[i]);
    out.sum += x;
    out.abs += std::fabs(x);
  }
  return out;
}

/// The fp64 gradients of the bf16 inputs and the kernels' error bounds
/// (docs/Attention.md#backward-tolerances).
static AttentionBackwardCheck
checkGradients(const AttentionProblem &p, const std::vector<uint16_t> &q,
               const std::vector<uint16_t> &k, const std::vector<uint16_t> &v,
               const std::vector<uint16_t> &dO,
               const std::vector<std::vector<uint8_t>> &out) {
  AttentionBackwardCheck check;
  const int64_t d = p.headDim, group = p.qHeads / p.kvHeads;
  const double scale = 1.0 / std::sqrt(double(d));
  const double bf16Rounding = std::ldexp(1.0, -8); // 2^-9, margin 2
  auto f = [](uint16_t x) { return double(bf16ToFloat(x)); };
  int64_t kvRows = p.batch * p.kvHeads * p.keys;
  // dK, dV and their bounds sum over the query heads of a kv head.
  std::vector<double> dk(kvRows * d, 0), dv(kvRows * d, 0),
      dkErr(kvRows * d, 0), dvErr(kvRows * d, 0);
  std::vector<double> s(p.keys), sAbs(p.keys), prob(p.keys), o(d), oErr(d),
      dq(d), dqErr(d), spread(d);
  // f32 accumulations: at most this many addends per output element.
  const double accumulate =
      std::ldexp(double(d + p.keys + p.queries * group), -23);
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t h = 0; h < p.qHeads; ++h) {
      int64_t g = h / group;
      const uint16_t *K = &k[(b * p.kvHeads + g) * p.keys * d];
      const uint16_t *V = &v[(b * p.kvHeads + g) * p.keys * d];
      int64_t kvBase = (b * p.kvHeads + g) * p.keys * d;
      for (int64_t qi = 0; qi < p.queries; ++qi) {
        int64_t row = (b * p.qHeads + h) * p.queries + qi;
        const uint16_t *Q = &q[row * d];
        const uint16_t *DO = &dO[row * d];
        int64_t end = p.causal ? std::min(p.keys, qi + 1) : p.keys;
        double m = -INFINITY, sAbsMax = 0;
        for (int64_t kk = 0; kk < end; ++kk) {
          Dot qk = dot(Q, &K[kk * d], d);
          s[kk] = qk.sum * scale;
          sAbs[kk] = qk.abs * scale;
          sAbsMax = std::max(sAbsMax, sAbs[kk]);
          m = std::max(m, s[kk]);
        }
        double l = 0;
        for (int64_t kk = 0; kk < end; ++kk)
          l += (prob[kk] = std::exp(s[kk] - m));
        std::fill(o.begin(), o.end(), 0.0);
        std::fill(spread.begin(), spread.end(), 0.0);
        for (int64_t kk = 0; kk < end; ++kk) {
          prob[kk] /= l;
          for (int64_t j = 0; j < d; ++j) {
            o[j] += prob[kk] * f(V[kk * d + j]);
            spread[j] += prob[kk] * std::fabs(f(V[kk * d + j]));
          }
        }
        double lse = m + std::log(l);
        // The forward's O bound (AttentionWorkload.cpp) and its LSE error,
        // which scales every P of the row.
        double pError = bf16Rounding + std::ldexp(double(d) * sAbsMax, -22);
        double lseError = std::ldexp(1.0 + std::fabs(lse), -20) +
                          std::ldexp(double(end) + double(d) * sAbsMax, -22);
        double D = 0, dError = 0, dAbs = 0, dStored = 0, dStoredAbs = 0;
        for (int64_t j = 0; j < d; ++j) {
          double g2 = f(DO[j]);
          D += g2 * o[j];
          oErr[j] = pError * spread[j] + bf16Rounding * std::fabs(o[j]);
          dError += std::fabs(g2) * oErr[j];
          dAbs += std::fabs(g2 * o[j]);
          double stored = bf16At(out[bwdO], row * d + j);
          dStored += g2 * stored;
          dStoredAbs += std::fabs(g2 * stored);
        }
        dError += std::ldexp(dAbs, -22);
        // The kernel's D is the f32 sum of dO times the forward's O.
        count(check.d, floatAt(out[bwdD], row), dStored,
              std::ldexp(dStoredAbs, -20) + std::ldexp(1.0, -30));
        std::fill(dq.begin(), dq.end(), 0.0);
        std::fill(dqErr.begin(), dqErr.end(), 0.0);
        for (int64_t kk = 0; kk < end; ++kk) {
          Dot dov = dot(DO, &V[kk * d], d);
          double dp = dov.sum, dpAbs = dov.abs;
          double P = prob[kk], dS = P * (dp - D);
          // P in f32: the scores' and LSE's errors, relative; dS rounded
          // to bf16 for the MMAs.
          double pRelative =
              2 * (lseError + std::ldexp(double(d) * sAbs[kk], -22)) +
              std::ldexp(1.0, -21);
          double dsError = P * (dError + std::ldexp(dpAbs, -22)) +
                           pRelative * std::fabs(dS) +
                           bf16Rounding * std::fabs(dS);
          for (int64_t j = 0; j < d; ++j) {
            double kj = f(K[kk * d + j]), qj = f(Q[j]), gj = f(DO[j]);
            dq[j] += scale * dS * kj;
            dqErr[j] +=
                scale * (dsError + accumulate * std::fabs(dS)) * std::fabs(kj);
            dk[kvBase + kk * d + j] += scale * dS * qj;
            dkErr[kvBase + kk * d + j] +=
                scale * (dsError + accumulate * std::fabs(dS)) * std::fabs(qj);
            dv[kvBase + kk * d + j] += P * gj;
            dvErr[kvBase + kk * d + j] +=
                (bf16Rounding + pRelative + accumulate) * P * std::fabs(gj);
          }
        }
        for (int64_t j = 0; j < d; ++j)
          count(check.dq, bf16At(out[bwdDQ], row * d + j), dq[j],
                dqErr[j] + bf16Rounding * std::fabs(dq[j]) +
                    std::ldexp(1.0, -30));
      }
    }
  for (int64_t i = 0; i < kvRows * d; ++i) {
    count(check.dk, bf16At(out[bwdDK], i), dk[i],
          dkErr[i] + bf16Rounding * std::fabs(dk[i]) + std::ldexp(1.0, -30));
    count(check.dv, bf16At(out[bwdDV], i), dv[i],
          dvErr[i] + bf16Rounding * std::fabs(dv[i]) + std::ldexp(1.0, -30));
  }
  return check;
}

/// Bit for bit: dQ, dK, dV and D of two versions.
static AttentionBackwardCheck
compareGradients(const std::vector<std::vector<uint8_t>> &a,
                 const std::vector<std::vector<uint8_t>> &b) {
  AttentionBackwardCheck check;
  auto compare = [&](GradientCheck &c, unsigned arg, int64_t bytes) {
    for (int64_t i = 0; (i + 1) * bytes <= int64_t(a[arg].size()); ++i) {
      ++c.checked;
      if (std::memcmp(a[arg].data() + i * bytes, b[arg].data() + i * bytes,
                      bytes) == 0)
        continue;
      ++c.bad;
      double x = bytes == 2 ? bf16At(a[arg], i) : floatAt(a[arg], i);
      double y = bytes == 2 ? bf16At(b[arg], i) : floatAt(b[arg], i);
      if (std::isfinite(x - y))
        c.maxAbs = std::max(c.maxAbs, std::fabs(x - y));
    }
  };
  compare(check.dq, bwdDQ, 2);
  compare(check.dk, bwdDK, 2);
  compare(check.dv, bwdDV, 2);
  compare(check.d, bwdD, 4);
  return check;
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
  // dO: unit normal bf16, drawn after Q, K and V.
  std::vector<uint16_t> dO(p.elements(argO));
  {
    std::mt19937_64 rng(config.run.seed + 7);
    std::normal_distribution<double> normal(0.0, 1.0);
    for (uint16_t &x : dO)
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
  std::vector<uint8_t> dOBytes(dO.size() * 2);
  std::memcpy(dOBytes.data(), dO.data(), dOBytes.size());
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
  if (rc.test == TestKind::compare) {
    llvm::Expected<BackwardRun> other = runBackward(
        context, config, getComparedRunConfig(rc), Version::compared, buffers);
    if (!other)
      return other.takeError();
    result.check = compareGradients(run->buffers, other->buffers);
  } else {
    result.check =
        checkGradients(p, inputs.q, inputs.k, inputs.v, dO, run->buffers);
  }
  result.dqKernel = std::move(run->dq);
  result.dkdvKernel = std::move(run->dkdv);
  result.dqStats = std::move(run->dqStats);
  result.dkdvStats = std::move(run->dkdvStats);
  result.flops = 10.0 * p.batch * p.qHeads * p.queries * p.keys * p.headDim *
                 (p.causal ? 0.5 : 1.0);
  return std::move(result);
}

} // namespace mlir::hk::run
