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

static float decode(MatrixFormat format, const uint8_t *p, unsigned i) {
  switch (format) {
  case MatrixFormat::bf16: {
    uint16_t bits;
    std::memcpy(&bits, p + 2 * i, 2);
    return bf16ToFloat(bits);
  }
  case MatrixFormat::e4m3:
  case MatrixFormat::e5m2: {
    static const auto tables = [] {
      std::array<std::array<float, 256>, 2> t;
      for (unsigned c = 0; c < 256; ++c) {
        t[0][c] =
            APFloat(APFloat::Float8E4M3FN(), APInt(8, c)).convertToFloat();
        t[1][c] = APFloat(APFloat::Float8E5M2(), APInt(8, c)).convertToFloat();
      }
      return t;
    }();
    return tables[format == MatrixFormat::e4m3 ? 0 : 1][p[i]];
  }
  }
  return 0;
}

void multiplyAccumulate(const MatrixForm &form, ArrayRef<unsigned> lanes,
                        const MatrixOperands &operands,
                        const MatrixScales *scales) {
  float a[32][128], b[32][128], c[32][32];
  unsigned size = form.size, accPerLane = form.accPerLane();
  for (unsigned lane : lanes) {
    const uint8_t *pa = operands.a(lane), *pb = operands.b(lane);
    const uint8_t *pc = operands.c(lane);
    for (unsigned i = 0; i < form.elems; ++i) {
      a[lane % size][form.kOf(lane, i)] = decode(form.a, pa, i);
      b[lane % size][form.kOf(lane, i)] = decode(form.b, pb, i);
    }
    for (unsigned i = 0; i < accPerLane; ++i)
      std::memcpy(&c[form.accRow(lane, i)][lane % size], pc + 4 * i, 4);
  }
  auto e8m0 = [](uint8_t e) -> float {
    return e == 255 ? NAN : std::ldexp(1.0f, int(e) - 127);
  };
  for (unsigned m = 0; m < size; ++m)
    for (unsigned n = 0; n < size; ++n) {
      float acc = c[m][n];
      if (!scales) {
        for (int64_t k = 0; k < form.K; ++k)
          acc += a[m][k] * b[n][k];
      } else {
        for (unsigned block = 0; block < 4; ++block) {
          float sum = 0;
          for (unsigned k = 32 * block; k < 32 * block + 32; ++k)
            sum += a[m][k] * b[n][k];
          acc += sum * e8m0(scales->a[m][block]) * e8m0(scales->b[n][block]);
        }
      }
      c[m][n] = acc;
    }
  for (unsigned lane : lanes) {
    uint8_t *out = operands.d(lane);
    for (unsigned i = 0; i < accPerLane; ++i)
      std::memcpy(out + 4 * i, &c[form.accRow(lane, i)][lane % size], 4);
  }
}

} // namespace mlir::hk::sim
