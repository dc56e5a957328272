//===- AttentionBackwardCheck.cpp - the attention backward's check --------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the check of the attention backward kernels' dQ,
// dK, dV and stored D: the fp64 gradients of the same bf16 inputs, with a
// bound per element derived from the kernels' roundings
// (docs/Attention.md#backward-tolerances), or another version's buffers:
// bit for bit, but a fused variant's dQ, whose atomic f32 adds come in the
// hardware's order, within the same bound.
//
//===----------------------------------------------------------------------===//

#include "HK/Harness/AttentionBackwardWorkload.h"

#include "HK/Runtime/BFloat16.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::hk;

namespace mlir::hk::run {

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

namespace {
/// The fp64 dot product of two bf16 rows, and the sum of its terms'
/// magnitudes (the f32 accumulation's error scale).
struct Dot {
  double sum = 0, abs = 0;
};
Dot dot(const uint16_t *a, const uint16_t *b, int64_t n) {
  Dot out;
  for (int64_t i = 0; i < n; ++i) {
    double x = double(bf16ToFloat(a[i])) * bf16ToFloat(b[i]);
    out.sum += x;
    out.abs += std::fabs(x);
  }
  return out;
}

/// One gradient's fp64 reference and its bound, per element.
struct Bounded {
  std::vector<double> value, bound;
  explicit Bounded(int64_t n = 0) : value(n, 0), bound(n, 0) {}
};

/// The fp64 gradients of the bf16 inputs and the kernels' error bounds
/// (docs/Attention.md#backward-tolerances), one query row at a time.
class Reference {
public:
  Reference(const AttentionProblem &p, const AttentionBackwardInputs &in,
            const std::vector<uint8_t> &o);
  /// dQ, D, and each row's part of dK and dV.
  Bounded dq, d, dk, dv;

private:
  void row(int64_t b, int64_t h, int64_t qi);
  /// The row's D, its stored-O reference into `d`, and its error bound
  /// against D of the exact O (e_D).
  double rowD(int64_t row, int64_t end, const uint16_t *DO, double pError,
              const uint16_t *V, double &dError);

  const AttentionProblem &p;
  const AttentionBackwardInputs &in;
  /// The forward's O, as the kernels read it.
  const std::vector<uint8_t> &storedO;
  const int64_t dim, group;
  const double scale;
  /// 2^-9 relative, margin 2.
  const double bf16Rounding = std::ldexp(1.0, -8);
  /// f32 accumulations: at most this many addends per output element.
  const double accumulate;
  /// Per key of the row: the scores, their magnitude sums, P; per column:
  /// the exact O and sum_k P_k |V_kj|.
  std::vector<double> s, sAbs, prob, o, spread;
};
} // namespace

Reference::Reference(const AttentionProblem &p,
                     const AttentionBackwardInputs &in,
                     const std::vector<uint8_t> &o)
    : dq(p.elements(argQ)), d(p.elements(argLse)), dk(p.elements(argK)),
      dv(p.elements(argK)), p(p), in(in), storedO(o), dim(p.headDim),
      group(p.qHeads / p.kvHeads), scale(1.0 / std::sqrt(double(p.headDim))),
      accumulate(std::ldexp(
          double(p.headDim + p.keys + p.queries * (p.qHeads / p.kvHeads)),
          -23)),
      s(p.keys), sAbs(p.keys), prob(p.keys), o(p.headDim), spread(p.headDim) {
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t h = 0; h < p.qHeads; ++h)
      for (int64_t qi = 0; qi < p.queries; ++qi)
        row(b, h, qi);
  // dK and dV summed the row terms' bounds; then their rounding to bf16.
  for (Bounded *e : {&dk, &dv})
    for (size_t i = 0; i < e->value.size(); ++i)
      e->bound[i] +=
          bf16Rounding * std::fabs(e->value[i]) + std::ldexp(1.0, -30);
}

double Reference::rowD(int64_t row, int64_t end, const uint16_t *DO,
                       double pError, const uint16_t *V, double &dError) {
  auto f = [](uint16_t x) { return double(bf16ToFloat(x)); };
  // O of the exact softmax, and the P-weighted magnitudes of V's columns.
  std::fill(o.begin(), o.end(), 0.0);
  std::fill(spread.begin(), spread.end(), 0.0);
  for (int64_t kk = 0; kk < end; ++kk)
    for (int64_t j = 0; j < dim; ++j) {
      o[j] += prob[kk] * f(V[kk * dim + j]);
      spread[j] += prob[kk] * std::fabs(f(V[kk * dim + j]));
    }
  double D = 0, dAbs = 0, dStored = 0, dStoredAbs = 0;
  dError = 0;
  for (int64_t j = 0; j < dim; ++j) {
    // The forward's bound on O_j.
    double oErr = pError * spread[j] + bf16Rounding * std::fabs(o[j]);
    double g = f(DO[j]);
    D += g * o[j];
    dError += std::fabs(g) * oErr;
    dAbs += std::fabs(g * o[j]);
    double stored = bf16At(storedO, row * dim + j);
    dStored += g * stored;
    dStoredAbs += std::fabs(g * stored);
  }
  dError += std::ldexp(dAbs, -22);
  // The kernel's D is the f32 sum of dO times the forward's O.
  d.value[row] = dStored;
  d.bound[row] = std::ldexp(dStoredAbs, -20) + std::ldexp(1.0, -30);
  return D;
}

void Reference::row(int64_t b, int64_t h, int64_t qi) {
  auto f = [](uint16_t x) { return double(bf16ToFloat(x)); };
  int64_t g = h / group;
  int64_t kvBase = (b * p.kvHeads + g) * p.keys * dim;
  const uint16_t *K = &in.k[kvBase], *V = &in.v[kvBase];
  int64_t row = (b * p.qHeads + h) * p.queries + qi;
  const uint16_t *Q = &in.q[row * dim], *DO = &in.dO[row * dim];
  int64_t end = p.causal ? std::min(p.keys, qi + 1) : p.keys;
  double m = -INFINITY, sAbsMax = 0;
  for (int64_t kk = 0; kk < end; ++kk) {
    Dot qk = dot(Q, &K[kk * dim], dim);
    s[kk] = qk.sum * scale;
    sAbs[kk] = qk.abs * scale;
    sAbsMax = std::max(sAbsMax, sAbs[kk]);
    m = std::max(m, s[kk]);
  }
  double l = 0;
  for (int64_t kk = 0; kk < end; ++kk)
    l += (prob[kk] = std::exp(s[kk] - m));
  for (int64_t kk = 0; kk < end; ++kk)
    prob[kk] /= l;
  double lse = m + std::log(l);
  // The forward's O bound (AttentionWorkload.cpp) and its LSE error, which
  // scales every P of the row.
  double pError = bf16Rounding + std::ldexp(double(dim) * sAbsMax, -22);
  double lseError = std::ldexp(1.0 + std::fabs(lse), -20) +
                    std::ldexp(double(end) + double(dim) * sAbsMax, -22);
  double dError;
  double D = rowD(row, end, DO, pError, V, dError);
  double *dq = &this->dq.value[row * dim], *dqErr = &this->dq.bound[row * dim];
  for (int64_t kk = 0; kk < end; ++kk) {
    Dot dov = dot(DO, &V[kk * dim], dim);
    double P = prob[kk], dS = P * (dov.sum - D);
    // P in f32: the scores' and LSE's errors, relative; dS rounded to bf16
    // for the MMAs.
    double pRelative =
        2 * (lseError + std::ldexp(double(dim) * sAbs[kk], -22)) +
        std::ldexp(1.0, -21);
    double dsError = P * (dError + std::ldexp(dov.abs, -22)) +
                     pRelative * std::fabs(dS) + bf16Rounding * std::fabs(dS);
    double termError = scale * (dsError + accumulate * std::fabs(dS));
    double *dk = &this->dk.value[kvBase + kk * dim],
           *dkErr = &this->dk.bound[kvBase + kk * dim],
           *dv = &this->dv.value[kvBase + kk * dim],
           *dvErr = &this->dv.bound[kvBase + kk * dim];
    for (int64_t j = 0; j < dim; ++j) {
      double kj = f(K[kk * dim + j]), qj = f(Q[j]), gj = f(DO[j]);
      dq[j] += scale * dS * kj;
      dqErr[j] += termError * std::fabs(kj);
      dk[j] += scale * dS * qj;
      dkErr[j] += termError * std::fabs(qj);
      dv[j] += P * gj;
      dvErr[j] += (bf16Rounding + pRelative + accumulate) * P * std::fabs(gj);
    }
  }
  for (int64_t j = 0; j < dim; ++j)
    dqErr[j] += bf16Rounding * std::fabs(dq[j]) + std::ldexp(1.0, -30);
}

/// Counts `got` against `want` within `bound` (NaN fails).
static void count(GradientCheck &check, double got, double want, double bound) {
  double err = std::fabs(got - want);
  ++check.checked;
  if (!(err <= bound))
    ++check.bad;
  if (std::isfinite(err))
    check.maxAbs = std::max(check.maxAbs, err);
}

/// Compares argument `arg` of `a` and `b`, elements of `bytes` bytes, bit
/// for bit, or with `within` (per element) within its bound.
static void compare(GradientCheck &c, const std::vector<uint8_t> &a,
                    const std::vector<uint8_t> &b, int64_t bytes,
                    const Bounded *within) {
  for (int64_t i = 0; (i + 1) * bytes <= int64_t(a.size()); ++i) {
    double x = bytes == 2 ? bf16At(a, i) : floatAt(a, i);
    double y = bytes == 2 ? bf16At(b, i) : floatAt(b, i);
    if (within) {
      count(c, x, y, within->bound[i]);
      continue;
    }
    ++c.checked;
    if (std::memcmp(a.data() + i * bytes, b.data() + i * bytes, bytes) == 0)
      continue;
    ++c.bad;
    if (std::isfinite(x - y))
      c.maxAbs = std::max(c.maxAbs, std::fabs(x - y));
  }
}

AttentionBackwardCheck checkAttentionBackward(
    const AttentionProblem &p, const AttentionBackwardInputs &inputs,
    const std::vector<std::vector<uint8_t>> &out,
    const std::vector<std::vector<uint8_t>> *other, bool exactDq) {
  AttentionBackwardCheck check;
  if (other) {
    std::optional<Reference> reference;
    if (!exactDq)
      reference.emplace(p, inputs, out[bwdO]);
    compare(check.dq, out[bwdDQ], (*other)[bwdDQ], 2,
            reference ? &reference->dq : nullptr);
    compare(check.dk, out[bwdDK], (*other)[bwdDK], 2, nullptr);
    compare(check.dv, out[bwdDV], (*other)[bwdDV], 2, nullptr);
    compare(check.d, out[bwdD], (*other)[bwdD], 4, nullptr);
    return check;
  }
  Reference reference(p, inputs, out[bwdO]);
  struct Checked {
    GradientCheck &check;
    unsigned arg;
    const Bounded &expected;
  } gradients[] = {{check.dq, bwdDQ, reference.dq},
                   {check.dk, bwdDK, reference.dk},
                   {check.dv, bwdDV, reference.dv}};
  for (const Checked &g : gradients)
    for (size_t i = 0; i < g.expected.value.size(); ++i)
      count(g.check, bf16At(out[g.arg], i), g.expected.value[i],
            g.expected.bound[i]);
  for (size_t i = 0; i < reference.d.value.size(); ++i)
    count(check.d, floatAt(out[bwdD], i), reference.d.value[i],
          reference.d.bound[i]);
  return check;
}

} // namespace mlir::hk::run
