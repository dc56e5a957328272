//===- ElementCodes.cpp - element encodings the workloads share -----------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the element encodings, random draws and rounding
// bound that the GEMM and MoE GEMM workloads share.
//
//===----------------------------------------------------------------------===//

#include "HK/Harness/ElementCodes.h"

#include "HK/Runtime/BFloat16.h"

#include "llvm/ADT/APFloat.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::hk;

namespace mlir::hk::run {

void encodeResult(ElementKind kind, double value, uint8_t *out) {
  if (kind == ElementKind::f32) {
    float f = float(value);
    std::memcpy(out, &f, 4);
    return;
  }
  uint16_t bits;
  if (kind == ElementKind::bf16) {
    bits = floatToBf16(float(value));
  } else {
    llvm::APFloat f(value);
    bool lost;
    f.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven,
              &lost);
    bits = uint16_t(f.bitcastToAPInt().getZExtValue());
  }
  std::memcpy(out, &bits, 2);
}

double decodeResult(ElementKind kind, const uint8_t *in) {
  if (kind == ElementKind::f32) {
    float f;
    std::memcpy(&f, in, 4);
    return f;
  }
  uint16_t bits;
  std::memcpy(&bits, in, 2);
  if (kind == ElementKind::bf16)
    return bf16ToFloat(bits);
  return llvm::APFloat(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits))
      .convertToDouble();
}

static const llvm::fltSemantics &fp8Semantics(ElementKind kind) {
  return kind == ElementKind::f8e4m3 ? llvm::APFloat::Float8E4M3FN()
                                     : llvm::APFloat::Float8E5M2();
}

double decodeInput(ElementKind kind, uint16_t code) {
  if (!isFp8(kind))
    return bf16ToFloat(code);
  // The references decode K values per element of C: a table, not APFloat.
  static const auto tables = [] {
    std::array<std::array<double, 256>, 2> t;
    for (unsigned c = 0; c < 256; ++c) {
      t[0][c] = llvm::APFloat(llvm::APFloat::Float8E4M3FN(), llvm::APInt(8, c))
                    .convertToDouble();
      t[1][c] = llvm::APFloat(llvm::APFloat::Float8E5M2(), llvm::APInt(8, c))
                    .convertToDouble();
    }
    return t;
  }();
  return tables[kind == ElementKind::f8e4m3 ? 0 : 1][code & 0xff];
}

std::optional<uint16_t> encodeInput(ElementKind kind, double value) {
  if (!isFp8(kind))
    return floatToBf16(float(value));
  llvm::APFloat f(value);
  bool lost;
  f.convert(fp8Semantics(kind), llvm::APFloat::rmNearestTiesToEven, &lost);
  if (!f.isFinite())
    return std::nullopt;
  return uint16_t(f.bitcastToAPInt().getZExtValue());
}

double fp8DrawLimit(ElementKind kind, double budget, int64_t K, double scale) {
  double largest =
      llvm::APFloat::getLargest(fp8Semantics(kind)).convertToDouble();
  double perProduct = budget / (double(K) * std::fabs(scale));
  if (scale == 0 || perProduct >= largest * largest)
    return largest;
  return std::ldexp(1.0, int(std::floor(std::log2(perProduct) / 2)));
}

uint16_t drawInput(ElementKind kind, double limit, std::mt19937 &rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  if (!isFp8(kind))
    return floatToBf16(float(normal(rng)));
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  double draw = unit(rng), sign = unit(rng) < 0.5 ? -1.0 : 1.0;
  if (draw < 0.05)
    return *encodeInput(kind, sign * 0.0);
  if (draw < 0.10)
    return *encodeInput(kind, sign * limit * (0.5 + 0.5 * unit(rng)));
  if (draw < 0.15) {
    double smallest = llvm::APFloat::getSmallestNormalized(fp8Semantics(kind))
                          .convertToDouble();
    return *encodeInput(kind, sign * smallest * unit(rng));
  }
  return *encodeInput(kind, std::clamp(normal(rng), -limit, limit));
}

double roundingBound(ElementKind kind, double magnitude) {
  if (kind == ElementKind::bf16)
    return std::ldexp(magnitude, -8);
  if (kind == ElementKind::f16)
    return std::ldexp(magnitude, -11) + std::ldexp(1.0, -24);
  return std::ldexp(magnitude, -23);
}

} // namespace mlir::hk::run
