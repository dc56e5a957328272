//===- MatrixMath.cpp - one wave's matrix instruction, numerically --------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements multiplyAccumulate, shared by the simulator and the
// ISA executor. The layouts are written out here rather than taken from
// HK/Dialect/HK/Utils on purpose: the simulator is the oracle for the
// compiler's use of those utilities.
//
//===----------------------------------------------------------------------===//

#include "HK/Runtime/MatrixMath.h"

#include "HK/Runtime/BFloat16.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"

#include <array>
#include <cmath>
#include <cstring>

using namespace llvm;

namespace mlir::hk::sim {

/// The `n` A or B elements of one lane, as floats.
static void decodeAll(MatrixFormat format, const uint8_t *p, unsigned n,
                      float *out) {
  if (format == MatrixFormat::bf16) {
    for (unsigned i = 0; i < n; ++i) {
      uint16_t bits;
      std::memcpy(&bits, p + 2 * i, 2);
      out[i] = bf16ToFloat(bits);
    }
    return;
  }
  static const auto tables = [] {
    std::array<std::array<float, 256>, 2> t;
    for (unsigned c = 0; c < 256; ++c) {
      t[0][c] = APFloat(APFloat::Float8E4M3FN(), APInt(8, c)).convertToFloat();
      t[1][c] = APFloat(APFloat::Float8E5M2(), APInt(8, c)).convertToFloat();
    }
    return t;
  }();
  const std::array<float, 256> &table =
      tables[format == MatrixFormat::e4m3 ? 0 : 1];
  for (unsigned i = 0; i < n; ++i)
    out[i] = table[p[i]];
}

void multiplyAccumulate(const MatrixForm &form, ArrayRef<unsigned> lanes,
                        const MatrixOperands &operands,
                        const MatrixScales *scales) {
  // A as rows of k, B transposed (k-major) so that the inner loop runs
  // along a row of C: each element still sums its products in ascending k.
  float a[32][128], bt[128][32], c[32][32];
  unsigned size = form.size, accPerLane = form.accPerLane();
  for (unsigned lane : lanes) {
    const uint8_t *pa = operands.a(lane), *pb = operands.b(lane);
    const uint8_t *pc = operands.c(lane);
    float va[128], vb[128];
    decodeAll(form.a, pa, form.elems, va);
    decodeAll(form.b, pb, form.elems, vb);
    for (unsigned i = 0; i < form.elems; ++i) {
      unsigned k = form.kOf(lane, i);
      a[lane % size][k] = va[i];
      bt[k][lane % size] = vb[i];
    }
    for (unsigned i = 0; i < accPerLane; ++i)
      std::memcpy(&c[form.accRow(lane, i)][lane % size], pc + 4 * i, 4);
  }
  // E8M0 scale exponents as floats: 2^(e - 127), 255 is NaN.
  static const std::array<float, 256> e8m0 = [] {
    std::array<float, 256> t;
    for (unsigned e = 0; e < 256; ++e)
      t[e] = e == 255 ? NAN : std::ldexp(1.0f, int(e) - 127);
    return t;
  }();
  for (unsigned m = 0; m < size; ++m) {
    float *acc = c[m];
    if (!scales) {
      for (int64_t k = 0; k < form.K; ++k) {
        float am = a[m][k];
        for (unsigned n = 0; n < size; ++n)
          acc[n] += am * bt[k][n];
      }
      continue;
    }
    for (unsigned block = 0; block < 4; ++block) {
      float sum[32] = {};
      for (unsigned k = 32 * block; k < 32 * block + 32; ++k) {
        float am = a[m][k];
        for (unsigned n = 0; n < size; ++n)
          sum[n] += am * bt[k][n];
      }
      float scaleA = e8m0[scales->a[m][block]];
      for (unsigned n = 0; n < size; ++n)
        acc[n] += sum[n] * scaleA * e8m0[scales->b[n][block]];
    }
  }
  for (unsigned lane : lanes) {
    uint8_t *out = operands.d(lane);
    for (unsigned i = 0; i < accPerLane; ++i)
      std::memcpy(out + 4 * i, &c[form.accRow(lane, i)][lane % size], 4);
  }
}

} // namespace mlir::hk::sim
