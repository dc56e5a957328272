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
// accumulates). The arithmetic is MatrixMath.cpp's, which the ISA executor
// shares; this file maps the intrinsics onto it.
//
//===----------------------------------------------------------------------===//

#include "SimInterpreter.h"

#include "HK/Runtime/MatrixMath.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace mlir::hk;
using namespace mlir::hk::sim;
using namespace mlir::hk::sim::detail;

using Format = MatrixFormat;

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

  // MXFP8: scale exponents of (row, 32-k block), from lane block * 16 + row,
  // byte op_sel of its scale register (docs/hardware/Fp8Facts.md#mxfp8).
  MatrixScales scales;
  if (scaled) {
    for (unsigned i : {5u, 7u})
      if (!isa<ConstantInt>(call.getArgOperand(i)))
        return error(wave, call, "a scaled MFMA's op_sel must be a constant");
    for (unsigned lane : wave.active) {
      auto byte = [&](unsigned opselArg, unsigned scaleArg) -> uint8_t {
        auto opsel = cast<ConstantInt>(call.getArgOperand(opselArg));
        unsigned which = opsel->getZExtValue() & 3;
        return loadBits(operand(wave, call.getArgOperand(scaleArg), lane), 4) >>
               (8 * which);
      };
      scales.a[lane % 16][lane / 16] = byte(5, 6);
      scales.b[lane % 16][lane / 16] = byte(7, 8);
    }
  }
  auto a = [&](unsigned lane) {
    return operand(wave, call.getArgOperand(0), lane);
  };
  auto b = [&](unsigned lane) {
    return operand(wave, call.getArgOperand(1), lane);
  };
  auto c = [&](unsigned lane) {
    return operand(wave, call.getArgOperand(2), lane);
  };
  auto d = [&](unsigned lane) { return result(wave, &call, lane); };
  MatrixOperands operands{a, b, c, d};
  multiplyAccumulate(form, wave.active, operands, scaled ? &scales : nullptr);
  return Error::success();
}
