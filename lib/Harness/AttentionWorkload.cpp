//===- AttentionWorkload.cpp - the attention hk-run checks ----------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HK/Harness/AttentionWorkload.h"

#include "HK/Runtime/BFloat16.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <set>

using namespace mlir;
using namespace mlir::hk;

namespace mlir::hk::run {

std::vector<int64_t> AttentionProblem::shape(unsigned arg) const {
  switch (arg) {
  case argQ:
  case argO:
    return {batch, qHeads, queries, headDim};
  case argK:
  case argV:
    return {batch, kvHeads, keys, headDim};
  case argLse:
    return {batch, qHeads, queries};
  default:
    return {};
  }
}

std::optional<uint64_t> AttentionProblem::scalarBits(unsigned arg) const {
  if (arg != argCausal)
    return std::nullopt;
  return causal ? 1 : 0;
}

llvm::Error checkAttentionConfig(const AttentionConfig &config,
                                 StringRef option) {
  const AttentionProblem &problem = config.problem;
  // The grid's y and z dimensions hold heads and batches; past 32768
  // tokens the fp64 reference alone takes hours.
  constexpr int64_t kMaxGrid = 65535, kMaxTokens = 32768;
  for (auto [name, value, limit] :
       {std::tuple{"B", problem.batch, kMaxGrid},
        std::tuple{"Hq", problem.qHeads, kMaxGrid},
        std::tuple{"Hkv", problem.kvHeads, kMaxGrid},
        std::tuple{"Nq", problem.queries, kMaxTokens},
        std::tuple{"Nkv", problem.keys, kMaxTokens},
        std::tuple{"d", problem.headDim, int64_t(1024)}})
    if (value < 1 || value > limit)
      return badInput(llvm::formatv("--{0}: {1} must be between 1 and {2}, "
                                    "got {3}",
                                    option, name, limit, value));
  if (problem.qHeads % problem.kvHeads != 0)
    return badInput(llvm::formatv(
        "--{0}: Hq ({1}) must be a multiple of Hkv ({2}): each kv head "
        "serves Hq / Hkv query heads (GQA)",
        option, problem.qHeads, problem.kvHeads));
  if (problem.elements(argQ) > (int64_t(1) << 28) ||
      problem.elements(argK) > (int64_t(1) << 28))
    return badInput("--" + option +
                    ": Q, K and V must each hold at most 2^28 elements "
                    "(hk-run's host buffers)");
  TestKind test = config.run.test;
  if (test != TestKind::random && test != TestKind::compare)
    return badInput("the attention workload runs --test=random (against an "
                    "fp64 reference) or --test=compare");
  if (llvm::Error e = checkTimingSettings(config.run))
    return e;
  return checkCompareSettings(config.run);
}

llvm::Error checkAttentionKernel(StringRef name, ArrayRef<Type> types,
                                 const AttentionProblem &problem) {
  auto wrong = [&](const Twine &why) {
    return badInput("'" + name + "' is not an attention kernel: " + why +
                    " (it takes Q, K, V, O: memref<?x?x?xDxbf16>, LSE: "
                    "memref<?x?x?xf32>, causal: i32)");
  };
  if (types.size() != 6)
    return wrong("it takes " + Twine(types.size()) + " arguments, not 6");
  for (unsigned arg : {argQ, argK, argV, argO, argLse}) {
    auto type = dyn_cast<MemRefType>(types[arg]);
    bool isLse = arg == argLse;
    if (!type || type.getRank() != (isLse ? 3 : 4) ||
        !(isLse ? type.getElementType().isF32()
                : type.getElementType().isBF16()))
      return wrong("argument #" + Twine(arg) + " is not a rank-" +
                   Twine(isLse ? 3 : 4) + " " + (isLse ? "f32" : "bf16") +
                   " memref");
  }
  if (!types[argCausal].isInteger(32))
    return wrong("argument #5 is not an i32");
  int64_t kernelDim = cast<MemRefType>(types[argQ]).getDimSize(3);
  for (unsigned arg : {argK, argV, argO})
    if (cast<MemRefType>(types[arg]).getDimSize(3) != kernelDim)
      return wrong("Q, K, V and O do not have the same head dim (argument #" +
                   Twine(arg) + ")");
  if (!ShapedType::isDynamic(kernelDim) && kernelDim != problem.headDim)
    return badInput(llvm::formatv("'{0}' is written for head dim {1}; "
                                  "--attention asks for d = {2}",
                                  name, kernelDim, problem.headDim));
  return llvm::Error::success();
}

void makeAttentionInputs(const AttentionConfig &config, AttentionInputs &in) {
  const AttentionProblem &p = config.problem;
  std::mt19937_64 rng(config.run.seed);
  // Q's wider spread makes the softmax peaked: a few keys dominate a row.
  auto draw = [&](std::vector<uint16_t> &out, int64_t n, double sigma) {
    std::normal_distribution<double> normal(0.0, sigma);
    out.resize(n);
    for (uint16_t &x : out)
      x = floatToBf16(float(normal(rng)));
  };
  draw(in.q, p.elements(argQ), 2.0);
  draw(in.k, p.elements(argK), 1.0);
  draw(in.v, p.elements(argV), 1.0);
  if (config.scores != AttentionScores::random) {
    // Feature 0 adds ramp(k) to every score of key k: Q's is 1, K's the
    // ramp, in units of the kernels' lazy-rescale threshold (2^8 in the
    // exp2 domain: 8 sqrt(d) / log2(e) in scores).
    const double log2e = 1.4426950408889634;
    double unit = 8.0 * std::sqrt(double(p.headDim)) / log2e;
    bool steps = config.scores == AttentionScores::steps;
    for (int64_t row = 0; row < p.elements(argQ) / p.headDim; ++row)
      in.q[row * p.headDim] = floatToBf16(1.0f);
    for (int64_t row = 0; row < p.elements(argK) / p.headDim; ++row) {
      int64_t key = row % p.keys;
      double ramp =
          steps ? 2.0 * unit * double(key / 32) : unit * double(key) / 256.0;
      in.k[row * p.headDim] = floatToBf16(float(ramp));
    }
  }
  auto bytesOf = [](const std::vector<uint16_t> &x) {
    std::vector<uint8_t> b(x.size() * 2);
    std::memcpy(b.data(), x.data(), b.size());
    return b;
  };
  in.buffers = {bytesOf(in.q), bytesOf(in.k), bytesOf(in.v)};
  std::vector<uint16_t> nanO(p.elements(argO), 0x7fc0);
  in.buffers.push_back(bytesOf(nanO));
  std::vector<uint8_t> nanLse(p.elements(argLse) * 4);
  float nan = std::numeric_limits<float>::quiet_NaN();
  for (size_t i = 0; i < nanLse.size(); i += 4)
    std::memcpy(nanLse.data() + i, &nan, 4);
  in.buffers.push_back(std::move(nanLse));
}

AttentionCheck checkAttention(const RunConfig &config,
                              const AttentionProblem &p,
                              const AttentionInputs &in,
                              const std::vector<std::vector<uint8_t>> &result,
                              const std::vector<std::vector<uint8_t>> *other) {
  AttentionCheck check;
  check.checked = p.elements(argO) + p.elements(argLse);
  if (other) {
    // Bit for bit: the same inputs through another version of the kernel.
    for (unsigned arg : {argO, argLse}) {
      int64_t bytes = arg == argO ? 2 : 4;
      int64_t &bad = arg == argO ? check.badO : check.badLse;
      for (int64_t i = 0; i < p.elements(arg); ++i)
        bad += std::memcmp(result[arg].data() + i * bytes,
                           (*other)[arg].data() + i * bytes, bytes) != 0;
    }
    return check;
  }
  const int64_t d = p.headDim, group = p.qHeads / p.kvHeads;
  const double scale = 1.0 / std::sqrt(double(d));
  // Every query row (b, h, q), or --check-sample of them at random.
  int64_t rows = p.elements(argLse);
  std::vector<int64_t> checkedRows;
  const uint64_t checkSample = config.checkSample;
  if (checkSample > 0 && int64_t(checkSample) * 2 < rows) {
    std::mt19937_64 rng(config.seed + 1);
    std::uniform_int_distribution<int64_t> pick(0, rows - 1);
    std::set<int64_t> chosen;
    while (int64_t(chosen.size()) < int64_t(checkSample))
      chosen.insert(pick(rng));
    checkedRows.assign(chosen.begin(), chosen.end());
  } else {
    for (int64_t r = 0; r < rows; ++r)
      checkedRows.push_back(r);
  }
  check.checked = int64_t(checkedRows.size()) * (d + 1);
  std::vector<double> s(p.keys), out(d), spread(d);
  for (int64_t row : checkedRows) {
    int64_t q = row % p.queries, h = row / p.queries % p.qHeads,
            b = row / p.queries / p.qHeads;
    int64_t g = h / group;
    const uint16_t *K = &in.k[(b * p.kvHeads + g) * p.keys * d];
    const uint16_t *V = &in.v[(b * p.kvHeads + g) * p.keys * d];
    const uint16_t *Q = &in.q[row * d];
    int64_t end = p.causal ? std::min(p.keys, q + 1) : p.keys;
    double m = -INFINITY, sAbs = 0;
    for (int64_t k = 0; k < end; ++k) {
      double dot = 0, absDot = 0;
      for (int64_t i = 0; i < d; ++i) {
        double x = double(bf16ToFloat(Q[i])) * bf16ToFloat(K[k * d + i]);
        dot += x;
        absDot += std::fabs(x);
      }
      s[k] = dot * scale;
      sAbs = std::max(sAbs, absDot * scale);
      m = std::max(m, s[k]);
    }
    double l = 0;
    std::fill(out.begin(), out.end(), 0.0);
    std::fill(spread.begin(), spread.end(), 0.0);
    for (int64_t k = 0; k < end; ++k) {
      double e = std::exp(s[k] - m);
      l += e;
      for (int64_t j = 0; j < d; ++j) {
        double v = bf16ToFloat(V[k * d + j]);
        out[j] += e * v;
        spread[j] += e * std::fabs(v);
      }
    }
    // O: P and O are rounded to bf16 (2^-9 each, relative), the f32
    // scores carry d 2^-24 sum|q k| into exp; margins of 2 to 4.
    double pError = std::ldexp(1.0, -8) + std::ldexp(double(d) * sAbs, -22);
    for (int64_t j = 0; j < d; ++j) {
      double want = out[j] / l;
      uint16_t bits;
      std::memcpy(&bits, result[argO].data() + (row * d + j) * 2, 2);
      double got = bf16ToFloat(bits);
      double bound = pError * spread[j] / l + std::ldexp(std::fabs(want), -8) +
                     std::ldexp(1.0, -24);
      double err = std::fabs(got - want);
      if (!(err <= bound))
        ++check.badO;
      if (std::isfinite(err))
        check.maxAbsO = std::max(check.maxAbsO, err);
    }
    // LSE = m + ln l: f32 scores and sums, v_log_f32.
    double lse = m + std::log(l);
    float gotLse;
    std::memcpy(&gotLse, result[argLse].data() + row * 4, 4);
    double err = std::fabs(gotLse - lse);
    double bound = std::ldexp(1.0 + std::fabs(lse), -20) +
                   std::ldexp(double(end) + double(d) * sAbs, -22);
    if (!(err <= bound))
      ++check.badLse;
    if (std::isfinite(err))
      check.maxAbsLse = std::max(check.maxAbsLse, err);
  }
  return check;
}

/// One compile-and-run's buffers and figures.
struct AttentionRun {
  PreparedKernel kernel;
  std::vector<std::vector<uint8_t>> buffers;
  LaunchStats stats;
};

static llvm::Expected<AttentionRun> runOnce(MLIRContext &context,
                                            const RunConfig &config,
                                            StringRef path, Version version,
                                            const AttentionProblem &problem,
                                            const AttentionInputs &inputs) {
  auto read = [&](StringRef name, ArrayRef<Type> types,
                  const KernelArguments *&arguments) {
    arguments = &problem;
    return checkAttentionKernel(name, types, problem);
  };
  llvm::Expected<PreparedKernel> kernel =
      prepareKernel(context, config, path, read, version);
  if (!kernel)
    return kernel.takeError();
  AttentionRun run;
  run.kernel = std::move(*kernel);
  run.buffers = inputs.buffers;
  std::vector<bool> outputs(run.buffers.size(), false);
  outputs[argO] = outputs[argLse] = true;
  llvm::Expected<LaunchStats> stats =
      launchKernel(config, run.kernel, run.buffers, outputs);
  if (!stats)
    return stats.takeError();
  run.stats = std::move(*stats);
  return std::move(run);
}

llvm::Expected<std::vector<std::vector<uint8_t>>>
runAttentionForward(MLIRContext &context, const RunConfig &config,
                    StringRef path, const AttentionProblem &problem,
                    const AttentionInputs &inputs) {
  llvm::Expected<AttentionRun> run =
      runOnce(context, config, path, Version::tested, problem, inputs);
  if (!run)
    return run.takeError();
  return std::move(run->buffers);
}

llvm::Expected<AttentionResult>
runAttentionWorkload(MLIRContext &context, const AttentionConfig &config) {
  if (llvm::Error e = checkAttentionConfig(config))
    return std::move(e);
  const RunConfig &rc = config.run;
  const AttentionProblem &p = config.problem;
  AttentionInputs inputs;
  makeAttentionInputs(config, inputs);
  llvm::Expected<AttentionRun> run =
      runOnce(context, rc, rc.inputFile, Version::tested, p, inputs);
  if (!run)
    return run.takeError();
  std::optional<AttentionRun> other;
  if (rc.test == TestKind::compare) {
    RunConfig compared = getComparedRunConfig(rc);
    llvm::Expected<AttentionRun> second = runOnce(
        context, compared, compared.inputFile, Version::compared, p, inputs);
    if (!second)
      return second.takeError();
    other = std::move(*second);
  }
  AttentionResult result;
  result.check = checkAttention(rc, p, inputs, run->buffers,
                                other ? &other->buffers : nullptr);
  result.kernel = std::move(run->kernel);
  result.stats = std::move(run->stats);
  result.flops = 4.0 * p.batch * p.qHeads * p.queries * p.keys * p.headDim *
                 (p.causal ? 0.5 : 1.0);
  return std::move(result);
}

} // namespace mlir::hk::run
