//===- SimMatrix.cpp - the simulator's matrix instructions ----------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// D = C + A * B^T for one 16 x 16 (or 32 x 32) tile of the wave, with A and B
// held as the instruction's lane layout gives them: bf16
// (docs/Hardware.md#lane-layouts) and fp8
// (docs/hardware/Fp8Facts.md#f8-lanes-gfx950, #f8-lanes-gfx1201), and the block
// scales of the MXFP8 MFMA (docs/hardware/Fp8Facts.md#mxfp8). The layouts are
// written out here rather than taken from HK/Dialect/HK/Utils on purpose: the
// simulator is the oracle for the compiler's use of those utilities. Products
// of bf16 and of fp8 are exact in f32; they are accumulated into C in ascending
// k, in f32 (a scaled MFMA sums each 32-k block in f32, scales it, then
// accumulates).
//
//===----------------------------------------------------------------------===//

#include "SimInterpreter.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/Support/FormatVariadic.h"

#include <array>
#include <cmath>

using namespace llvm;
using namespace mlir::hk;
using namespace mlir::hk::sim;
using namespace mlir::hk::sim::detail;

namespace {
/// How the operands of one matrix instruction are encoded and laid out.
enum class Format { bf16, e4m3, e5m2 };

struct MatrixForm {
  bool wmma = false;
  int64_t K = 0;
  /// Elements of A (and of B) per lane.
  unsigned elems = 0;
  Format a = Format::bf16, b = Format::bf16;
  bool fp8 = false;
  /// M = N of the tile: 16, or 32 for v_mfma_f32_32x32x16_bf16.
  unsigned size = 16;

  /// k of element i of lane `lane`'s operand.
  unsigned kOf(unsigned lane, unsigned i) const {
    if (size == 32)
      return (lane / 32) * 8 + i;
    if (!fp8)
      return wmma ? (lane / 16) * 4 + i % 4 + 8 * (i / 4) : (lane / 16) * 8 + i;
    return wmma ? (lane / 16) * 8 + i
                : (lane / 16) * 16 + 64 * (i / 16) + i % 16;
  }
  /// Accumulator elements per lane.
  unsigned accPerLane() const { return size == 32 ? 16 : wmma ? 8 : 4; }
  /// Row of accumulator element i of lane `lane` (its column is
  /// lane % size): at 32x32 each half of the wave holds 4 of every 8 rows.
  unsigned accRow(unsigned lane, unsigned i) const {
    if (size == 32)
      return 8 * (i / 4) + 4 * (lane / 32) + i % 4;
    return (lane / 16) * accPerLane() + i;
  }
};
} // namespace

static float decode(Format format, const uint8_t *p, unsigned i) {
  switch (format) {
  case Format::bf16:
    return bf16ToFloat(loadBits(p + 2 * i, 2));
  case Format::e4m3:
  case Format::e5m2: {
    static const auto tables = [] {
      std::array<std::array<float, 256>, 2> t;
      for (unsigned c = 0; c < 256; ++c) {
        t[0][c] =
            APFloat(APFloat::Float8E4M3FN(), APInt(8, c)).convertToFloat();
        t[1][c] = APFloat(APFloat::Float8E5M2(), APInt(8, c)).convertToFloat();
      }
      return t;
    }();
    return tables[format == Format::e4m3 ? 0 : 1][p[i]];
  }
  }
  llvm_unreachable("covered switch over Format");
}

/// The f8f6f4 format code of cbsz/blgp, if fp8
/// (docs/hardware/Fp8Facts.md#f8-format-codes).
static std::optional<Format> fp8Format(const Value *code) {
  auto c = dyn_cast<ConstantInt>(code);
  if (!c)
    return std::nullopt;
  if (c->isZero())
    return Format::e4m3;
  if (c->isOne())
    return Format::e5m2;
  return std::nullopt;
}

Error Interpreter::executeMma(Wave &wave, const CallInst &call,
                              Intrinsic::ID id) {
  ++counters.mmas;
  if (wave.mask != fullMask)
    return error(wave, call,
                 "matrix instruction with inactive lanes is not modelled");
  MatrixForm form;
  bool scaled = false;
  switch (id) {
  case Intrinsic::amdgcn_mfma_f32_16x16x32_bf16:
  case Intrinsic::amdgcn_mfma_f32_32x32x16_bf16:
    form =
        id == Intrinsic::amdgcn_mfma_f32_16x16x32_bf16
            ? MatrixForm{false, 32, 8, Format::bf16, Format::bf16, false}
            : MatrixForm{false, 16, 8, Format::bf16, Format::bf16, false, 32};
    for (unsigned i = 3; i < 6; ++i)
      if (!cast<ConstantInt>(call.getArgOperand(i))->isZero())
        return error(wave, call,
                     "MFMA broadcast controls (cbsz/abid/blgp) are not "
                     "modelled");
    break;
  case Intrinsic::amdgcn_wmma_f32_16x16x16_bf16:
    form = {true, 16, 8, Format::bf16, Format::bf16, false};
    break;
  case Intrinsic::amdgcn_mfma_scale_f32_16x16x128_f8f6f4: {
    std::optional<Format> a = fp8Format(call.getArgOperand(3));
    std::optional<Format> b = fp8Format(call.getArgOperand(4));
    if (!a || !b)
      return error(wave, call,
                   "f8f6f4 MFMA formats other than e4m3 and e5m2 (cbsz/blgp "
                   "0 or 1) are not modelled");
    form = {false, 128, 32, *a, *b, true};
    // Constant zero scales select the unscaled instruction
    // (docs/hardware/Fp8Facts.md#f8-instructions); anything else is the
    // scaled form.
    for (unsigned i : {5u, 6u, 7u, 8u}) {
      auto c = dyn_cast<ConstantInt>(call.getArgOperand(i));
      if (!c || !c->isZero())
        scaled = true;
    }
    break;
  }
  case Intrinsic::amdgcn_wmma_f32_16x16x16_fp8_fp8:
    form = {true, 16, 8, Format::e4m3, Format::e4m3, true};
    break;
  case Intrinsic::amdgcn_wmma_f32_16x16x16_fp8_bf8:
    form = {true, 16, 8, Format::e4m3, Format::e5m2, true};
    break;
  case Intrinsic::amdgcn_wmma_f32_16x16x16_bf8_fp8:
    form = {true, 16, 8, Format::e5m2, Format::e4m3, true};
    break;
  case Intrinsic::amdgcn_wmma_f32_16x16x16_bf8_bf8:
    form = {true, 16, 8, Format::e5m2, Format::e5m2, true};
    break;
  default:
    return error(wave, call, "matrix instruction not modelled");
  }
  if ((form.wmma && lanes != 32) || (!form.wmma && lanes != 64))
    return error(wave, call, "matrix instruction for another wave size");

  float a[32][128], b[32][128], c[32][32];
  // MXFP8: scale exponents of (row, 32-k block), from lane block * 16 + row,
  // byte op_sel of its scale register (docs/hardware/Fp8Facts.md#mxfp8).
  uint8_t scaleA[16][4] = {}, scaleB[16][4] = {};
  unsigned size = form.size, accPerLane = form.accPerLane();
  for (unsigned lane : wave.active) {
    const uint8_t *pa = operand(wave, call.getArgOperand(0), lane);
    const uint8_t *pb = operand(wave, call.getArgOperand(1), lane);
    const uint8_t *pc = operand(wave, call.getArgOperand(2), lane);
    for (unsigned i = 0; i < form.elems; ++i) {
      a[lane % size][form.kOf(lane, i)] = decode(form.a, pa, i);
      b[lane % size][form.kOf(lane, i)] = decode(form.b, pb, i);
    }
    for (unsigned i = 0; i < accPerLane; ++i) {
      float v;
      std::memcpy(&v, pc + 4 * i, 4);
      c[form.accRow(lane, i)][lane % size] = v;
    }
    if (scaled) {
      auto byte = [&](unsigned opselArg, unsigned scaleArg) -> uint8_t {
        auto opsel = dyn_cast<ConstantInt>(call.getArgOperand(opselArg));
        unsigned which = opsel ? opsel->getZExtValue() & 3 : 0;
        return loadBits(operand(wave, call.getArgOperand(scaleArg), lane), 4) >>
               (8 * which);
      };
      scaleA[lane % 16][lane / 16] = byte(5, 6);
      scaleB[lane % 16][lane / 16] = byte(7, 8);
    }
  }
  if (scaled)
    for (unsigned i : {5u, 7u})
      if (!isa<ConstantInt>(call.getArgOperand(i)))
        return error(wave, call, "a scaled MFMA's op_sel must be a constant");
  auto e8m0 = [](uint8_t e) -> float {
    return e == 255 ? NAN : std::ldexp(1.0f, int(e) - 127);
  };
  for (unsigned m = 0; m < size; ++m)
    for (unsigned n = 0; n < size; ++n) {
      float acc = c[m][n];
      if (!scaled) {
        for (int64_t k = 0; k < form.K; ++k)
          acc += a[m][k] * b[n][k];
      } else {
        for (unsigned block = 0; block < 4; ++block) {
          float sum = 0;
          for (unsigned k = 32 * block; k < 32 * block + 32; ++k)
            sum += a[m][k] * b[n][k];
          acc += sum * e8m0(scaleA[m][block]) * e8m0(scaleB[n][block]);
        }
      }
      c[m][n] = acc;
    }
  for (unsigned lane : wave.active) {
    uint8_t *out = result(wave, &call, lane);
    for (unsigned i = 0; i < accPerLane; ++i)
      std::memcpy(out + 4 * i, &c[form.accRow(lane, i)][lane % size], 4);
  }
  return Error::success();
}
