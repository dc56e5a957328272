//===- SimCrossLane.cpp - lane permutations and float intrinsics ----------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The sim backend's model of the instructions that move values between the
// lanes of a wave (DPP moves, v_permlane32_swap, v_permlane16_swap,
// v_permlanex16_b32) and of the float intrinsics kernels beyond GEMM use
// (min/max, fma, fabs, exp2, log, sqrt, rsq, rcp). The lane semantics are the
// ISA's, written out here from the instruction descriptions, not taken from the
// compiler: every permutation requires all lanes of the wave to be active,
// which is how hk's reductions use them (an inactive source lane would read a
// value the model does not have).
//
//===----------------------------------------------------------------------===//

#include "SimInterpreter.h"

#include "HK/Runtime/FloatMath.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir::hk::sim::detail;
using llvm::formatv;

namespace {

/// The lane a DPP16 control reads for lane `lane`, or -1 when the control
/// reads outside the lane's row (bound_ctrl then decides). Controls other
/// than these return -2 (not modelled).
int dppSourceLane(uint64_t control, unsigned lane) {
  unsigned row = lane & ~15u, inRow = lane & 15u;
  if (control <= 0xff) // quad_perm: lane 4q + i reads 4q + sel[i]
    return int((lane & ~3u) | ((control >> (2 * (lane & 3))) & 3));
  unsigned n = control & 0xf;
  switch (control & ~0xfull) {
  case 0x100: // row_shl n: lane reads the lane n above it in its row
    return n != 0 && inRow + n < 16 ? int(lane + n) : -1;
  case 0x110: // row_shr n
    return n != 0 && inRow >= n ? int(lane - n) : -1;
  case 0x120: // row_ror n
    return n != 0 ? int(row | ((inRow - n) & 15)) : -2;
  default:
    break;
  }
  if (control == 0x140) // row_mirror
    return int(row | (15 - inRow));
  if (control == 0x141) // row_half_mirror
    return int((lane & ~7u) | (7 - (lane & 7)));
  return -2;
}

uint64_t constantOperand(const CallInst &call, unsigned index) {
  return cast<llvm::ConstantInt>(call.getArgOperand(index))->getZExtValue();
}

} // namespace

Error Interpreter::executeCrossLane(Wave &wave, const CallInst &call,
                                    Intrinsic::ID id) {
  if (wave.active.size() != lanes)
    return error(wave, call,
                 formatv("a lane permutation with {0} of {1} lanes active: "
                         "hk's reductions run with the whole wave",
                         wave.active.size(), lanes));
  unsigned bytes = sizeOf(call.getArgOperand(0)->getType());
  auto value = [&](unsigned arg, unsigned lane) {
    return loadBits(operand(wave, call.getArgOperand(arg), lane), bytes);
  };
  // Computed for all lanes before any result is written: an operand may be
  // the result's own storage only across iterations, never within one.
  std::vector<uint64_t> first(lanes), second(lanes);
  switch (id) {
  case Intrinsic::amdgcn_update_dpp: {
    // (old, src, dpp_ctrl, row_mask, bank_mask, bound_ctrl)
    uint64_t control = constantOperand(call, 2);
    uint64_t rowMask = constantOperand(call, 3);
    uint64_t bankMask = constantOperand(call, 4);
    bool boundCtrl = constantOperand(call, 5) != 0;
    for (unsigned lane = 0; lane < lanes; ++lane) {
      bool enabled = ((rowMask >> (lane / 16)) & 1) &&
                     ((bankMask >> ((lane % 16) / 4)) & 1);
      int source = dppSourceLane(control, lane);
      if (source == -2)
        return error(wave, call,
                     formatv("DPP control {0:x} is not modelled", control));
      if (!enabled)
        first[lane] = value(0, lane);
      else if (source < 0)
        first[lane] = boundCtrl ? 0 : value(0, lane);
      else
        first[lane] = value(1, unsigned(source));
    }
    break;
  }
  case Intrinsic::amdgcn_permlane32_swap:
    // {vdst, vsrc} after swapping lanes 32-63 of vdst (old) with lanes 0-31
    // of vsrc (src).
    for (unsigned lane = 0; lane < lanes; ++lane) {
      bool low = lane < 32;
      first[lane] = low ? value(0, lane) : value(1, lane - 32);
      second[lane] = low ? value(0, lane + 32) : value(1, lane);
    }
    break;
  case Intrinsic::amdgcn_permlane16_swap:
    // The odd 16-lane rows of vdst swap with the even rows of vsrc.
    for (unsigned lane = 0; lane < lanes; ++lane) {
      bool odd = (lane / 16) % 2 == 1;
      first[lane] = odd ? value(1, lane - 16) : value(0, lane);
      second[lane] = odd ? value(1, lane) : value(0, lane + 16);
    }
    break;
  case Intrinsic::amdgcn_permlanex16: {
    // (old, src0, sel_lo, sel_hi, fi, bound_ctrl): lane j of a row reads
    // lane sel[j] of the other row of its pair.
    for (unsigned lane = 0; lane < lanes; ++lane) {
      unsigned j = lane % 16;
      uint64_t select =
          loadBits(operand(wave, call.getArgOperand(j < 8 ? 2 : 3), lane), 4);
      unsigned sel = (select >> (4 * (j % 8))) & 15;
      unsigned otherRow = (lane / 16) ^ 1;
      first[lane] = value(1, otherRow * 16 + sel);
    }
    break;
  }
  default:
    return error(wave, call, "lane permutation not modelled");
  }
  bool pair = id == Intrinsic::amdgcn_permlane32_swap ||
              id == Intrinsic::amdgcn_permlane16_swap;
  for (unsigned lane = 0; lane < lanes; ++lane) {
    uint8_t *out = result(wave, &call, lane);
    storeBits(out, bytes, first[lane]);
    if (pair)
      storeBits(out + bytes, bytes, second[lane]);
  }
  return Error::success();
}

Error Interpreter::executeFloatIntrinsic(Wave &wave, const CallInst &call,
                                         Intrinsic::ID id) {
  Type *type = call.getType();
  Type *elem = scalarOf(type);
  if (!elem->isFloatTy() && !elem->isHalfTy() && !elem->isBFloatTy() &&
      !elem->isDoubleTy())
    return error(wave, call, "float intrinsic on a non-float type");
  unsigned n =
      type->isVectorTy() ? cast<FixedVectorType>(type)->getNumElements() : 1;
  unsigned eb = sizeOf(elem);
  for (unsigned lane : wave.active) {
    uint8_t *out = result(wave, &call, lane);
    for (unsigned i = 0; i < n; ++i) {
      auto arg = [&](unsigned a) {
        return loadFloat(operand(wave, call.getArgOperand(a), lane) + i * eb,
                         elem);
      };
      double x = arg(0), r;
      switch (id) {
      case Intrinsic::maximum:
      case Intrinsic::minimum: {
        // NaN if either is NaN; -0 orders below +0.
        double y = arg(1);
        bool max = id == Intrinsic::maximum;
        if (std::isnan(x) || std::isnan(y))
          r = std::nan("");
        else if (x == y)
          r = (std::signbit(x) == max) ? y : x;
        else
          r = (x > y) == max ? x : y;
        break;
      }
      case Intrinsic::maxnum:
        r = std::fmax(x, arg(1));
        break;
      case Intrinsic::minnum:
        r = std::fmin(x, arg(1));
        break;
      case Intrinsic::fma:
      case Intrinsic::fmuladd:
        // Fused: one rounding (exact in double for float operands' product,
        // then rounded once by storeFloat up to double rounding of the sum).
        r = elem->isDoubleTy()
                ? std::fma(x, arg(1), arg(2))
                : double(std::fma(float(x), float(arg(1)), float(arg(2))));
        break;
      case Intrinsic::fabs:
        r = std::fabs(x);
        break;
      case Intrinsic::exp2:
      case Intrinsic::amdgcn_exp2:
        // v_exp_f32 is within 1 ulp; the model rounds the exact value.
        r = modelExp2(x);
        break;
      case Intrinsic::log2:
      case Intrinsic::amdgcn_log:
        r = modelLog2(x);
        break;
      case Intrinsic::log:
        r = std::log(x);
        break;
      case Intrinsic::sqrt:
      case Intrinsic::amdgcn_sqrt:
        // llvm.sqrt is correctly rounded (the backend corrects v_sqrt_f32's
        // result), and so is this: a double square root rounded to f32 or
        // f16 rounds once. v_sqrt_f32, v_rsq_f32 and v_rcp_f32 alone are
        // within 1 ulp; the model rounds the exact value.
        r = modelSqrt(x);
        break;
      case Intrinsic::amdgcn_rsq:
        r = modelRsq(x);
        break;
      case Intrinsic::amdgcn_rcp:
        r = modelRcp(x);
        break;
      default:
        return error(wave, call, "float intrinsic not modelled");
      }
      storeFloat(out + i * eb, elem, r);
    }
  }
  return Error::success();
}
