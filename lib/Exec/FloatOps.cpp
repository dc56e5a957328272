//===- FloatOps.cpp - f32 vector and scalar ALU instructions --------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The f32 instructions of hk's kernels: VOP1/VOP2/VOP3 arithmetic,
// conversions, the division helpers and the approximate functions (CDNA4
// ISA section 12.7-12.10, RDNA4 ISA section 16.7-16.10), gfx950's packed
// f32 VOP3P ops (CDNA4 ISA 12.11) and gfx12's scalar float ops (RDNA4 ISA
// section 4.4 "SALU float"). Arithmetic rounds to nearest even with
// denormals kept, the mode hk's kernels run in (Machine.cpp checks the
// descriptor), which the host's float arithmetic matches; the approximate
// functions are the simulator's models (HK/Runtime/FloatMath.h).
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include "HK/Runtime/FloatMath.h"

#include "llvm/ADT/bit.h"

#include <cmath>
#include <limits>

using namespace llvm;

namespace mlir::hk::exec::detail {
namespace {

inline float asFloat(uint32_t x) { return bit_cast<float>(x); }
inline uint32_t asBits(float x) { return bit_cast<uint32_t>(x); }

using FloatFn = float (*)(float, float, float);

/// d = f(s0, s1, s2) per active lane, abs/neg applied to each source.
template <FloatFn f> bool fop(Machine &m, Wave &w, const Op &op) {
  uint32_t t[3][64];
  Lanes32 s[3];
  for (unsigned i = 0; i < 3; ++i)
    s[i] = i < op.src.size() ? modSource(m, w, op, i, t[i]) : Lanes32();
  uint32_t *d = vectorDest(m, w, op.dst[0]);
  uint64_t exec = w.exec();
  for (unsigned lane = 0; lane < m.lanes; ++lane)
    if (exec >> lane & 1)
      d[lane] = asBits(
          f(asFloat(s[0][lane]), asFloat(s[1][lane]), asFloat(s[2][lane])));
  return true;
}

float add(float a, float b, float) { return a + b; }
float sub(float a, float b, float) { return a - b; }
float subrev(float a, float b, float) { return b - a; }
float mul(float a, float b, float) { return a * b; }
/// s0 * s1 + s2 with one rounding: v_fma, and v_fmac/v_fmamk/v_fmaak
/// whose sources the decoder lists in that order (the accumulator of fmac,
/// the literal of fmamk as s1, of fmaak as s2).
float fma(float a, float b, float c) { return std::fma(a, b, c); }
/// IEEE maxNum/minNum, as llvm.maxnum/minnum (the simulator's std::fmax).
float maxNum(float a, float b, float) { return std::fmax(a, b); }
float minNum(float a, float b, float) { return std::fmin(a, b); }
/// IEEE 754-2019 maximum/minimum (v_maximum*_f32): NaN if either is, and
/// +0 above -0, as the simulator's llvm.maximum/minimum.
float maximum2(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<float>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
float minimum2(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<float>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
float maximum(float a, float b, float) { return maximum2(a, b); }
float minimum(float a, float b, float) { return minimum2(a, b); }
float maximum3(float a, float b, float c) {
  return maximum2(maximum2(a, b), c);
}
float minimum3(float a, float b, float c) {
  return minimum2(minimum2(a, b), c);
}
float exp(float a, float, float) { return float(sim::modelExp2(a)); }
float log(float a, float, float) { return float(sim::modelLog2(a)); }
float rcp(float a, float, float) { return float(sim::modelRcp(a)); }
float rsq(float a, float, float) { return float(sim::modelRsq(a)); }
float sqrt(float a, float, float) { return float(sim::modelSqrt(a)); }
float trunc(float a, float, float) { return std::trunc(a); }
float floor(float a, float, float) { return std::floor(a); }
float ceil(float a, float, float) { return std::ceil(a); }
float rndne(float a, float, float) { return std::nearbyint(a); }

/// Conversions of the VOP1 tables: float to integer truncates, NaN gives 0
/// and out-of-range values saturate.
uint32_t toU32(float a) {
  if (std::isnan(a) || a <= 0)
    return 0;
  return a >= 4294967296.0f ? 0xffffffffu : uint32_t(a);
}
uint32_t toI32(float a) {
  if (std::isnan(a))
    return 0;
  if (a <= -2147483648.0f)
    return 0x80000000u;
  return a >= 2147483648.0f ? 0x7fffffffu : uint32_t(int32_t(a));
}

using ConvertFn = uint32_t (*)(uint32_t);
template <ConvertFn f> bool convert(Machine &m, Wave &w, const Op &op) {
  uint32_t t[64];
  Lanes32 s = modSource(m, w, op, 0, t);
  uint32_t *d = vectorDest(m, w, op.dst[0]);
  uint64_t exec = w.exec();
  for (unsigned lane = 0; lane < m.lanes; ++lane)
    if (exec >> lane & 1)
      d[lane] = f(s[lane]);
  return true;
}
uint32_t f32FromU32(uint32_t a) { return asBits(float(a)); }
uint32_t f32FromI32(uint32_t a) { return asBits(float(int32_t(a))); }
uint32_t u32FromF32(uint32_t a) { return toU32(asFloat(a)); }
uint32_t i32FromF32(uint32_t a) { return toI32(asFloat(a)); }

/// The biased exponent field.
int exponent(float x) { return int(asBits(x) >> 23 & 0xff); }
bool isDenormal(float x) { return std::fpclassify(x) == FP_SUBNORMAL; }

/// v_div_scale_f32 d, vcc, s0, s1, s2 (CDNA4/RDNA4 ISA, V_DIV_SCALE_F32;
/// s1 the denominator, s2 the numerator, s0 the one scaled): scales by
/// 2^64 or 2^-64 where the quotient or the reciprocal would leave the
/// normal range, and sets VCC where div_fmas must undo it.
bool divScale(Machine &m, Wave &w, const Op &op) {
  uint32_t t[3][64];
  Lanes32 s0 = modSource(m, w, op, 0, t[0]), s1 = modSource(m, w, op, 1, t[1]),
          s2 = modSource(m, w, op, 2, t[2]);
  uint32_t *d = vectorDest(m, w, op.dst[0]);
  uint64_t exec = w.exec(), vcc = 0;
  for (unsigned lane = 0; lane < m.lanes; ++lane) {
    if (!(exec >> lane & 1))
      continue;
    float a = asFloat(s0[lane]), den = asFloat(s1[lane]),
          num = asFloat(s2[lane]), r = a;
    bool flag = false;
    if (num == 0 || den == 0) {
      r = asFloat(0xffc00000u);
    } else if (exponent(num) - exponent(den) >= 96) {
      flag = true;
      if (a == den)
        r = std::ldexp(a, 64);
    } else if (isDenormal(den)) {
      r = std::ldexp(a, 64);
    } else if (isDenormal(1 / den) && isDenormal(num / den)) {
      flag = true;
      if (a == den)
        r = std::ldexp(a, 64);
    } else if (isDenormal(1 / den)) {
      r = std::ldexp(a, -64);
    } else if (isDenormal(num / den)) {
      flag = true;
      if (a == num)
        r = std::ldexp(a, 64);
    } else if (exponent(num) <= 23) {
      r = std::ldexp(a, 64);
    }
    d[lane] = asBits(r);
    vcc |= uint64_t(flag) << lane;
  }
  if (op.dst.size() > 1)
    writeScalar64(w, op.dst[1], vcc);
  return true;
}

/// v_div_fmas_f32 d, s0, s1, s2: fma(s0, s1, s2), rescaled where VCC says
/// div_scale scaled an operand. hk's kernels never divide near the limits
/// of the f32 range; the rescaling is refused rather than guessed.
bool divFmas(Machine &m, Wave &w, const Op &op) {
  uint64_t exec = w.exec();
  if (w.vcc() & exec & allLanes(m))
    return m.fail(ExecError::Kind::badInput, w, w.pc - 1,
                  "v_div_fmas_f32 with VCC set (a quotient div_scale had to "
                  "rescale) is not modelled");
  return fop<fma>(m, w, op);
}

/// v_div_fixup_f32 d, s0, s1, s2 (V_DIV_FIXUP_F32): s0 the quotient, s1 the
/// denominator, s2 the numerator; the IEEE special cases from the
/// original operands, else s0 with the quotient's sign.
float quiet(float x) { return asFloat(asBits(x) | 0x00400000u); }
float divFixup(float q, float den, float num) {
  // The guide's default NaN is 0xffc00000 (what the host's 0/0 gives too);
  // a NaN operand comes back quieted, sign and payload kept.
  float nan = asFloat(0xffc00000u),
        inf = std::numeric_limits<float>::infinity();
  bool negative = std::signbit(den) != std::signbit(num);
  if (std::isnan(den))
    return quiet(den);
  if (std::isnan(num))
    return quiet(num);
  if ((den == 0 && num == 0) || (std::isinf(den) && std::isinf(num)))
    return nan;
  if (den == 0 || std::isinf(num))
    return negative ? -inf : inf;
  if (std::isinf(den) || num == 0)
    return negative ? -0.0f : 0.0f;
  if (exponent(num) - exponent(den) < -150)
    return negative ? -0.0f : 0.0f;
  if (exponent(den) == 255)
    return negative ? -inf : inf;
  return negative ? -std::fabs(q) : std::fabs(q);
}

/// v_pk_{add,mul,fma}_f32: two f32 per 64-bit operand. Each half of the
/// result reads, per source, the half op_sel (low result) or op_sel_hi
/// (high result) selects, negated by neg_lo or neg_hi (SISrcMods bits).
/// A constant is a 32-bit value (LLVM's OPERAND_REG_INLINE_C_V2FP32, an
/// IEEE single): both halves may read it where neither selects its high
/// half, the form LLVM emits (`1.0 op_sel_hi:[1,0]`); what a high half of
/// a constant reads is left unmodelled.
template <FloatFn f> bool packed(Machine &m, Wave &w, const Op &op) {
  unsigned sources = std::min<size_t>(op.src.size(), 3);
  uint64_t exec = w.exec();
  for (unsigned i = 0; i < sources; ++i)
    if (op.src[i].kind == Operand::immediate && (op.src[i].mods & 12))
      return m.fail(ExecError::Kind::badInput, w, w.pc - 1,
                    "a packed f32 instruction reading the high half of a "
                    "constant operand (op_sel or op_sel_hi set) is not "
                    "modelled");
  uint32_t result[2][64];
  for (unsigned half = 0; half < 2; ++half) {
    Lanes32 s[3];
    bool negate[3] = {};
    for (unsigned i = 0; i < sources; ++i) {
      uint8_t mods = op.src[i].mods;
      bool high = half ? mods & 8 : mods & 4;
      s[i] = vectorSource(m, w, op.src[i], high ? 1 : 0);
      negate[i] = half ? mods & 2 : mods & 1;
    }
    for (unsigned lane = 0; lane < m.lanes; ++lane) {
      if (!(exec >> lane & 1))
        continue;
      float x[3] = {};
      for (unsigned i = 0; i < sources; ++i)
        x[i] = asFloat(s[i][lane] ^ (negate[i] ? 0x80000000u : 0));
      result[half][lane] = asBits(f(x[0], x[1], x[2]));
    }
  }
  for (unsigned half = 0; half < 2; ++half) {
    uint32_t *d = vectorDest(m, w, op.dst[0], half);
    for (unsigned lane = 0; lane < m.lanes; ++lane)
      if (exec >> lane & 1)
        d[lane] = result[half][lane];
  }
  return true;
}

//===----------------------------------------------------------------------===//
// gfx12 scalar float
//===----------------------------------------------------------------------===//

template <FloatFn f> bool sop(Machine &, Wave &w, const Op &op) {
  float a = asFloat(readScalar(w, op.src[0]));
  float b = op.src.size() > 1 ? asFloat(readScalar(w, op.src[1])) : 0;
  float c = op.src.size() > 2 ? asFloat(readScalar(w, op.src[2])) : 0;
  writeScalar(w, op.dst[0], asBits(f(a, b, c)));
  return true;
}
template <ConvertFn f> bool sconvert(Machine &, Wave &w, const Op &op) {
  writeScalar(w, op.dst[0], f(readScalar(w, op.src[0])));
  return true;
}
template <bool (*cmp)(float, float)>
bool scmp(Machine &, Wave &w, const Op &op) {
  w.scc =
      cmp(asFloat(readScalar(w, op.src[0])), asFloat(readScalar(w, op.src[1])));
  return true;
}
bool eqF(float a, float b) { return a == b; }
bool lgF(float a, float b) { return a < b || a > b; }
bool ltF(float a, float b) { return a < b; }
bool gtF(float a, float b) { return a > b; }
bool leF(float a, float b) { return a <= b; }
bool geF(float a, float b) { return a >= b; }
bool neqF(float a, float b) { return !(a == b); }

} // namespace

void registerFloatOps(HandlerMap &map) {
  map["v_add_f32"] = map["v_dual_add_f32"] = fop<add>;
  map["v_sub_f32"] = map["v_dual_sub_f32"] = fop<sub>;
  map["v_subrev_f32"] = map["v_dual_subrev_f32"] = fop<subrev>;
  map["v_mul_f32"] = map["v_dual_mul_f32"] = fop<mul>;
  map["v_fma_f32"] = map["v_fmac_f32"] = map["v_fmamk_f32"] =
      map["v_fmaak_f32"] = map["v_dual_fmac_f32"] = map["v_dual_fmamk_f32"] =
          map["v_dual_fmaak_f32"] = fop<fma>;
  map["v_max_f32"] = map["v_max_num_f32"] = map["v_dual_max_num_f32"] =
      fop<maxNum>;
  map["v_min_f32"] = map["v_min_num_f32"] = map["v_dual_min_num_f32"] =
      fop<minNum>;
  map["v_maximum_f32"] = fop<maximum>;
  map["v_minimum_f32"] = fop<minimum>;
  map["v_maximum3_f32"] = fop<maximum3>;
  map["v_minimum3_f32"] = fop<minimum3>;
  map["v_exp_f32"] = fop<exp>;
  map["v_log_f32"] = fop<log>;
  map["v_rcp_f32"] = map["v_rcp_iflag_f32"] = fop<rcp>;
  map["v_rsq_f32"] = fop<rsq>;
  map["v_sqrt_f32"] = fop<sqrt>;
  map["v_trunc_f32"] = fop<trunc>;
  map["v_floor_f32"] = fop<floor>;
  map["v_ceil_f32"] = fop<ceil>;
  map["v_rndne_f32"] = fop<rndne>;
  map["v_cvt_f32_u32"] = convert<f32FromU32>;
  map["v_cvt_f32_i32"] = convert<f32FromI32>;
  map["v_cvt_u32_f32"] = convert<u32FromF32>;
  map["v_cvt_i32_f32"] = convert<i32FromF32>;
  map["v_div_scale_f32"] = divScale;
  map["v_div_fmas_f32"] = divFmas;
  map["v_div_fixup_f32"] = fop<divFixup>;
  map["v_pk_add_f32"] = packed<add>;
  map["v_pk_mul_f32"] = packed<mul>;
  map["v_pk_fma_f32"] = packed<fma>;
  map["s_add_f32"] = sop<add>;
  map["s_sub_f32"] = sop<sub>;
  map["s_mul_f32"] = sop<mul>;
  map["s_fmac_f32"] = sop<fma>;
  map["s_max_num_f32"] = sop<maxNum>;
  // gfx12's SALU float and pseudo-scalar transcendental ops (an SGPR result).
  map["s_trunc_f32"] = sop<trunc>;
  map["v_s_rcp_f32"] = sop<rcp>;
  map["s_min_num_f32"] = sop<minNum>;
  map["s_cvt_f32_u32"] = sconvert<f32FromU32>;
  map["s_cvt_f32_i32"] = sconvert<f32FromI32>;
  map["s_cvt_u32_f32"] = sconvert<u32FromF32>;
  map["s_cvt_i32_f32"] = sconvert<i32FromF32>;
  map["s_cmp_eq_f32"] = scmp<eqF>;
  map["s_cmp_lg_f32"] = scmp<lgF>;
  map["s_cmp_lt_f32"] = scmp<ltF>;
  map["s_cmp_gt_f32"] = scmp<gtF>;
  map["s_cmp_le_f32"] = scmp<leF>;
  map["s_cmp_ge_f32"] = scmp<geF>;
  map["s_cmp_neq_f32"] = scmp<neqF>;
}

} // namespace mlir::hk::exec::detail
