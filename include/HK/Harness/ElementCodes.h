//===- ElementCodes.h - element encodings the workloads share ---*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// What the matrix workloads (GEMM, MoE GEMM) share about their elements:
// the inputs as codes (bf16 bits, fp8 bytes) and their values, the results
// (bf16, f16, f32) as bytes, how random inputs are drawn, and one rounding
// of a result to its type, the base of every tolerance (README,
// "Tolerances").
//
//===----------------------------------------------------------------------===//

#ifndef HK_HARNESS_ELEMENTCODES_H
#define HK_HARNESS_ELEMENTCODES_H

#include "HK/Dialect/HK/Utils/Enums.h"

#include <cstdint>
#include <optional>
#include <random>

namespace mlir::hk::run {

/// K elements per E8M0 block scale (OCP MX).
constexpr int64_t kScaleBlockK = 32;

/// Bytes of a result element (bf16, f16: 2; f32: 4).
inline int64_t resultBytes(ElementKind kind) {
  return kind == ElementKind::f32 ? 4 : 2;
}

/// `value` rounded to nearest even into result type `kind` (bf16, f16 or
/// f32), as bytes at `out`.
void encodeResult(ElementKind kind, double value, uint8_t *out);

/// The value of the result element of type `kind` at `in`.
double decodeResult(ElementKind kind, const uint8_t *in);

/// The value of an input code of type `kind`: bf16 bits, or an fp8 byte.
double decodeInput(ElementKind kind, uint16_t code);

/// `value` rounded to nearest even into input type `kind`; none when the
/// type cannot hold it (beyond an fp8 format's range).
std::optional<uint16_t> encodeInput(ElementKind kind, double value);

/// The largest magnitude fp8 draws of type `kind` may reach so that a sum of
/// K products of two of them, times |scale|, stays within `budget`: the
/// format's largest, or else the largest power of two L with K L^2 |scale|
/// at most `budget`.
double fp8DrawLimit(ElementKind kind, double budget, int64_t K, double scale);

/// One random input of type `kind`: for bf16 N(0, 1); for fp8 mostly
/// N(0, 1) rounded to the format, and so that its rounding and range are
/// exercised 5% zeros, 5% values near `limit` (fp8DrawLimit), 5%
/// subnormals; no magnitude beyond `limit`.
uint16_t drawInput(ElementKind kind, double limit, std::mt19937 &rng);

/// One rounding to result type `kind` of a value of `magnitude`, relative
/// (2^-8 bf16, 2^-11 f16, 2^-23 f32), with f16's smallest subnormal step as
/// an absolute floor.
double roundingBound(ElementKind kind, double magnitude);

} // namespace mlir::hk::run

#endif // HK_HARNESS_ELEMENTCODES_H
