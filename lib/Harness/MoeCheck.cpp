//===- MoeCheck.cpp - the MoE GEMM workload's check of C ------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the check of the MoE GEMM kernels' C (in either
// form: the rows in the contiguous order, or by slot) against an fp64
// reference of the same inputs, per element, within a bound derived
// from the kernel's roundings (README, "Tolerances"), or bit for bit against
// another version of the kernel.
//
//===----------------------------------------------------------------------===//

#include "HK/Harness/MoeWorkload.h"

#include "HK/Harness/ElementCodes.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstring>
#include <random>
#include <unordered_set>

using namespace mlir;
using namespace mlir::hk;

namespace mlir::hk::run {

namespace {
/// One product of the reference, (A B[e]^T)[r, n] times the scales, and
/// the bound on the kernel's f32 value of it.
struct Product {
  double value = 0, error = 0;
};

/// The fp64 reference of one element of C and its tolerance.
class Reference {
public:
  Reference(const MoeProblem &p, const MoeInputs &in)
      : p(p), in(in), sigma(moeInputSigma(p)),
        blocks(llvm::divideCeil(p.sizes.k, kScaleBlockK)) {}

  /// Row `row` of A (token `token`'s activations) times row `n` of expert
  /// `expert`'s weights, scaled, and the bound on the kernel's f32 sum.
  Product product(int64_t token, int64_t expert, int64_t n) const;

  /// C[row, j] for slot `row` of token `token` and expert `expert`, into
  /// `ref`; its tolerance.
  double element(int64_t token, int64_t expert, int64_t j, double &ref) const;

  /// C[token, j] of a combine kernel (its weighted products summed over
  /// the token's choices), into `ref`; its tolerance.
  double combined(const MoeRouting &routing, int64_t token, int64_t j,
                  double &ref) const;

private:
  const MoeProblem &p;
  const MoeInputs &in;
  double sigma;
  int64_t blocks;
};

/// The routed slot a row of C holds.
struct Slot {
  int64_t token = 0, choice = 0, expert = 0;
};
} // namespace

/// Row `row` of C's slot: in the contiguous form the contiguous order's
/// `row`, in the gathered form slot `row` itself (token row / topk's choice
/// row % topk).
static Slot slotOfRow(const MoeProblem &p, const MoeRouting &routing,
                      int64_t row) {
  if (p.signature.gathered)
    return {row / routing.topk, row % routing.topk, routing.choices[row]};
  return {routing.slotToken[row], routing.slotChoice[row],
          routing.expertOf(row)};
}

// The f32 accumulation of a product, as the dense GEMM bounds it: for
// bf16's N(0, sigma^2) inputs 2^-12 sqrt(K) sigma^2 (it grows like sqrt(K)),
// for fp8, whose inputs span the format's range, the deterministic |s| (K
// + 1) 2^-24 sum_k |a b| of an f32 sum of K exact products, s the scales;
// plus 2^-22 |s a.b| for the f32 roundings of the scaling.
Product Reference::product(int64_t token, int64_t expert, int64_t n) const {
  const MoeSignature &s = p.signature;
  const MoeSizes &z = p.sizes;
  const uint16_t *a = &in.tokens[token * z.k];
  const uint16_t *b = &in.weights[(expert * z.n + n) * z.k];
  double sum = 0, magnitude = 0;
  for (int64_t k = 0; k < z.k; ++k) {
    double x = decodeInput(s.abElement, a[k]) * decodeInput(s.abElement, b[k]);
    if (s.blockScales) {
      int e = in.tokenScales[token * blocks + k / kScaleBlockK] +
              in.weightScales[(expert * z.n + n) * blocks + k / kScaleBlockK] -
              2 * 127;
      x = std::ldexp(x, e);
    }
    sum += x;
    magnitude += std::fabs(x);
  }
  double scale = s.scaled() ? double(p.scaleA) * p.scaleB[expert] : 1.0;
  Product out;
  out.value = scale * sum;
  double accumulation =
      s.fp8() ? std::fabs(scale) * std::ldexp(double(z.k + 1), -24) * magnitude
              : std::ldexp(std::sqrt(double(z.k)), -12) * sigma * sigma;
  out.error = accumulation + std::ldexp(std::fabs(out.value), -22);
  return out;
}

// Gated, the kernel computes c~ = silu(g~) u~ in f32 from its f32 products
// g~ = g + dg, u~ = u + du, |dg| <= eg, |du| <= eu (product() above), so
//
//   |c~ - silu(g) u| <= |silu(g~) - silu(g)| |u~| + |silu(g)| |u~ - u|
//                     + (the f32 evaluation of silu(g~) u~)
//
// and since |silu''| <= 1/2 everywhere, |silu'| <= |silu'(g)| + eg / 2 on
// [g - eg, g + eg], so the first two terms are within
//
//   (|silu'(g)| + eg / 2) eg (|u| + eu) + |silu(g)| eu,
//
// silu'(g) = sigma(g) (1 + g (1 - sigma(g))), sigma(g) = 1 / (1 + exp(-g)).
// The f32 evaluation: exp(-g) as exp2(-g log2(e)) rounds its argument
// (|g| 2^-24 relative in the result, 2^-25 more for log2(e) in f32) and
// v_exp_f32 (hk's exp2, docs/hardware/AttentionFacts.md#attn-math) is
// within 1 ulp (docs/Simulator.md#float-precision); 1 + e,
// the division (within 1 ulp if through v_rcp_f32) and the two products
// round once each. sigma's relative error is at most exp's, so the sum is
// (7 + 1.5 |g|) 2^-24 |silu(g) u|, bounded by (2^-20 + |g| 2^-23) |silu(g)
// u| for a margin of 2; where exp(-g) overflows f32 (g < -88) sigma is 0
// and |silu(g)| < 2^-120: 2^-120 (|u| + eu) more. Then C's rounding to its
// type, of the computed value (within |c| plus the bound above), and 2^-126
// in case the kernel flushes a subnormal result to zero. Not gated, C is
// the product: its bound plus C's rounding.
double Reference::element(int64_t token, int64_t expert, int64_t j,
                          double &ref) const {
  Product g = product(token, expert, j);
  double before;
  if (!p.signature.gated()) {
    ref = g.value;
    before = g.error;
  } else {
    Product u = product(token, expert, p.sizes.n / 2 + j);
    double sig = 1.0 / (1.0 + std::exp(-g.value));
    double silu = g.value * sig;
    double slope = std::fabs(sig * (1.0 + g.value * (1.0 - sig)));
    double absU = std::fabs(u.value) + u.error;
    ref = silu * u.value;
    before = (slope + g.error / 2) * g.error * absU +
             std::fabs(silu) * u.error +
             std::fabs(ref) *
                 (std::ldexp(1.0, -20) + std::ldexp(std::fabs(g.value), -23)) +
             std::ldexp(absU, -120);
  }
  return roundingBound(p.signature.cElement, std::fabs(ref) + before) + before +
         std::ldexp(1.0, -126);
}

// Combine, the kernel computes each of the token's topk products in f32
// (p~ = p + dp, |dp| <= e: product() above), multiplies it by its f32
// weight w (one rounding: 2^-24 |w p~|), and adds the topk terms into C's
// zero in any order (atomics; the deterministic form sums them in choice
// order, one of those orders): each of those topk - 1 f32 additions rounds
// within 2^-24 of a partial sum no larger than S = sum_c |w_c| (|p_c| +
// e_c). So |C - sum_c w_c p_c| <= sum_c |w_c| e_c + (topk + 1) 2^-24 S
// (the weighting, plus the adds' topk 2^-24 S, a safe bound whatever the
// order: the first add onto 0 is exact), and 2^-126 in case a subnormal
// sum flushes to zero. C is f32: no rounding to a narrower type. The
// reference takes the weights as the kernel gets them (f32).
double Reference::combined(const MoeRouting &routing, int64_t token, int64_t j,
                           double &ref) const {
  int64_t topk = routing.topk;
  double products = 0, magnitude = 0;
  ref = 0;
  for (int64_t c = 0; c < topk; ++c) {
    double w = routing.weights[token * topk + c];
    Product term = product(token, routing.choices[token * topk + c], j);
    ref += w * term.value;
    products += std::fabs(w) * term.error;
    magnitude += std::fabs(w) * (std::fabs(term.value) + term.error);
  }
  return products + std::ldexp(double(topk + 1) * magnitude, -24) +
         std::ldexp(1.0, -126);
}

MoeCheck checkMoe(const RunConfig &config, const MoeProblem &p,
                  const MoeRouting &routing, const MoeInputs &in,
                  const std::vector<uint8_t> &c,
                  const std::vector<uint8_t> *other, bool exact) {
  MoeCheck check;
  ElementKind cKind = p.signature.cElement;
  int64_t bytes = resultBytes(cKind), columns = p.outColumns();
  Reference reference(p, in);
  bool combine = p.signature.combine();
  auto checkElement = [&](int64_t row, int64_t j) {
    int64_t offset = (row * columns + j) * bytes;
    double value = decodeResult(cKind, c.data() + offset), ref;
    // Combine: row `row` is token `row`'s (its choices summed).
    Slot slot = combine ? Slot{row, -1, -1} : slotOfRow(p, routing, row);
    bool ok;
    if (other && !exact) {
      // An atomic combine's adds come in any order: within the tolerance.
      double bound = reference.combined(routing, row, j, ref);
      ref = decodeResult(cKind, other->data() + offset);
      ok = std::fabs(value - ref) <= bound;
    } else if (other) {
      ref = decodeResult(cKind, other->data() + offset);
      ok = std::memcmp(c.data() + offset, other->data() + offset, bytes) == 0;
    } else {
      double bound = combine
                         ? reference.combined(routing, row, j, ref)
                         : reference.element(slot.token, slot.expert, j, ref);
      ok = std::fabs(value - ref) <= bound;
    }
    double err = std::isnan(value) ? INFINITY : std::fabs(value - ref);
    check.maxAbs = std::max(check.maxAbs, err);
    ++check.checked;
    if (ok)
      return;
    ++check.bad;
    if (check.mismatches.size() < MoeCheck::kShownMismatches && combine)
      check.mismatches.push_back(
          llvm::formatv("mismatch at C[{0}][{1}] (token {0}, the sum of its "
                        "{2} weighted choices): got {3}, expected {4}",
                        row, j, routing.topk, value, ref));
    else if (check.mismatches.size() < MoeCheck::kShownMismatches)
      check.mismatches.push_back(llvm::formatv(
          "mismatch at C[{0}][{1}] (token {2}, choice {3}, expert {4}): got "
          "{5}, expected {6}",
          row, j, slot.token, slot.choice, slot.expert, value, ref));
  };
  // All of C, or a sample of distinct elements (more than half of C costs
  // about as much as all of it).
  int64_t rows = p.outRows(), total = rows * columns;
  const uint64_t sample = config.checkSample;
  if (sample == 0 || sample > uint64_t(total) / 2) {
    for (int64_t row = 0; row < rows; ++row)
      for (int64_t j = 0; j < columns; ++j)
        checkElement(row, j);
    return check;
  }
  std::mt19937_64 rng(config.seed + 1);
  std::uniform_int_distribution<int64_t> element(0, total - 1);
  std::unordered_set<int64_t> seen;
  while (seen.size() < sample) {
    int64_t e = element(rng);
    if (seen.insert(e).second)
      checkElement(e / columns, e % columns);
  }
  return check;
}

} // namespace mlir::hk::run
