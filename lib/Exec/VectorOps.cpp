//===- VectorOps.cpp - vector ALU instructions ----------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The VOP1/VOP2/VOP3/VOPC (and gfx12 VOPD) instructions of hk's kernels, per
// the CDNA4 ISA (section 6, "Vector ALU Operations", and the VOP opcode
// tables of section 12) and the RDNA4 ISA (sections 7 and 16). Each runs for
// the lanes of EXEC; a compare writes its lane mask with inactive lanes
// zero. Float input modifiers (abs, neg) act on the sign bit.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include "HK/Runtime/BFloat16.h"

#include "llvm/ADT/bit.h"

#include <cmath>
#include <cstring>

using namespace llvm;

namespace mlir::hk::exec::detail {
namespace {

Lanes32 source(const Machine &m, const Wave &w, const Op &op, unsigned i) {
  return i < op.src.size() ? vectorSource(m, w, op.src[i]) : Lanes32();
}

/// d = f(s0, s1, s2) per active lane (missing sources read 0).
template <uint32_t (*f)(uint32_t, uint32_t, uint32_t)>
bool vop(Machine &m, Wave &w, const Op &op) {
  Lanes32 s0 = source(m, w, op, 0), s1 = source(m, w, op, 1),
          s2 = source(m, w, op, 2);
  uint32_t *d = vectorDest(m, w, op.dst[0]);
  uint64_t exec = w.exec();
  for (unsigned lane = 0; lane < m.lanes; ++lane)
    if (exec >> lane & 1)
      d[lane] = f(s0[lane], s1[lane], s2[lane]);
  return true;
}

uint32_t mov(uint32_t a, uint32_t, uint32_t) { return a; }
uint32_t bfrev(uint32_t a, uint32_t, uint32_t) { return reverseBits(a); }
uint32_t andB(uint32_t a, uint32_t b, uint32_t) { return a & b; }
uint32_t orB(uint32_t a, uint32_t b, uint32_t) { return a | b; }
uint32_t xorB(uint32_t a, uint32_t b, uint32_t) { return a ^ b; }
uint32_t add(uint32_t a, uint32_t b, uint32_t) { return a + b; }
uint32_t sub(uint32_t a, uint32_t b, uint32_t) { return a - b; }
uint32_t subrev(uint32_t a, uint32_t b, uint32_t) { return b - a; }
/// The *rev shifts shift their second operand by the first.
uint32_t lshlrev(uint32_t a, uint32_t b, uint32_t) { return b << (a & 31); }
uint32_t lshrrev(uint32_t a, uint32_t b, uint32_t) { return b >> (a & 31); }
uint32_t ashrrev(uint32_t a, uint32_t b, uint32_t) {
  return uint32_t(int32_t(b) >> (a & 31));
}
uint32_t mulLo(uint32_t a, uint32_t b, uint32_t) { return a * b; }
uint32_t mulHi(uint32_t a, uint32_t b, uint32_t) {
  return uint32_t((uint64_t(a) * b) >> 32);
}
uint32_t mulU24(uint32_t a, uint32_t b, uint32_t) {
  return (a & 0xffffff) * (b & 0xffffff);
}
uint32_t minU(uint32_t a, uint32_t b, uint32_t) { return a < b ? a : b; }
uint32_t maxU(uint32_t a, uint32_t b, uint32_t) { return a > b ? a : b; }
uint32_t minI(uint32_t a, uint32_t b, uint32_t) {
  return int32_t(a) < int32_t(b) ? a : b;
}
uint32_t maxI(uint32_t a, uint32_t b, uint32_t) {
  return int32_t(a) > int32_t(b) ? a : b;
}
uint32_t addLshl(uint32_t a, uint32_t b, uint32_t c) {
  return (a + b) << (c & 31);
}
uint32_t lshlAdd(uint32_t a, uint32_t b, uint32_t c) {
  return (a << (b & 31)) + c;
}
uint32_t lshlOr(uint32_t a, uint32_t b, uint32_t c) {
  return (a << (b & 31)) | c;
}
uint32_t andOr(uint32_t a, uint32_t b, uint32_t c) { return (a & b) | c; }
uint32_t or3(uint32_t a, uint32_t b, uint32_t c) { return a | b | c; }
uint32_t add3(uint32_t a, uint32_t b, uint32_t c) { return a + b + c; }
/// v_bfe: offset b[4:0], width c[4:0].
uint32_t bfeU(uint32_t a, uint32_t b, uint32_t c) {
  unsigned offset = b & 31, width = c & 31;
  return width ? (a >> offset) & ((uint32_t(1) << width) - 1) : 0;
}
uint32_t bfeI(uint32_t a, uint32_t b, uint32_t c) {
  unsigned offset = b & 31, width = c & 31;
  if (!width)
    return 0;
  return uint32_t(int32_t((a >> offset) << (32 - width)) >> (32 - width));
}

/// v_perm_b32 (CDNA4 ISA V_PERM_B32, RDNA4 ISA V_PERM_B32): byte i of D is
/// selected by byte i of s2 from the 8 bytes {s0, s1} (s1 the low four):
/// 0-7 a byte, 8-11 the sign of byte 1, 3, 5 or 7 repeated, 12 zero, 13 and
/// above 0xff.
uint32_t perm(uint32_t a, uint32_t b, uint32_t sel) {
  uint64_t bytes = uint64_t(a) << 32 | b;
  uint32_t d = 0;
  for (unsigned i = 0; i < 4; ++i) {
    unsigned s = (sel >> (8 * i)) & 0xff;
    uint32_t byte;
    if (s >= 13)
      byte = 0xff;
    else if (s == 12)
      byte = 0;
    else if (s >= 8)
      byte = (bytes >> (16 * (s - 8) + 15) & 1) ? 0xff : 0;
    else
      byte = (bytes >> (8 * s)) & 0xff;
    d |= byte << (8 * i);
  }
  return d;
}

/// v_cndmask_b32 d, s0, s1[, mask]: s1 where the mask bit is set, else s0;
/// the mask is VCC unless given (VOP3).
bool cndmask(Machine &m, Wave &w, const Op &op) {
  uint32_t t0[64], t1[64];
  Lanes32 s0 = modSource(m, w, op, 0, t0), s1 = modSource(m, w, op, 1, t1);
  uint64_t mask = op.src.size() > 2 ? readScalar64(w, op.src[2]) : w.vcc();
  uint32_t *d = vectorDest(m, w, op.dst[0]);
  uint64_t exec = w.exec();
  for (unsigned lane = 0; lane < m.lanes; ++lane)
    if (exec >> lane & 1)
      d[lane] = (mask >> lane & 1) ? s1[lane] : s0[lane];
  return true;
}

/// v_bitop3_b32 (gfx950): bit j of D is bit (s0_j s1_j s2_j) of the 8-bit
/// truth table, s0 the most significant index bit (the table of s0 alone
/// is 0xf0, of s1 0xcc, of s2 0xaa).
bool bitop3(Machine &m, Wave &w, const Op &op) {
  Lanes32 s0 = source(m, w, op, 0), s1 = source(m, w, op, 1),
          s2 = source(m, w, op, 2);
  unsigned table = op.imms.empty() ? 0 : unsigned(op.imms.back()) & 0xff;
  uint32_t *d = vectorDest(m, w, op.dst[0]);
  uint64_t exec = w.exec();
  for (unsigned lane = 0; lane < m.lanes; ++lane) {
    if (!(exec >> lane & 1))
      continue;
    uint32_t a = s0[lane], b = s1[lane], c = s2[lane], r = 0;
    for (unsigned i = 0; i < 8; ++i)
      if (table >> i & 1)
        r |= (i & 4 ? a : ~a) & (i & 2 ? b : ~b) & (i & 1 ? c : ~c);
    d[lane] = r;
  }
  return true;
}

bool readfirstlane(Machine &m, Wave &w, const Op &op) {
  uint64_t exec = w.exec();
  unsigned lane = exec ? unsigned(countr_zero(exec)) : 0;
  writeScalar(w, op.dst[0], vectorSource(m, w, op.src[0])[lane]);
  return true;
}

/// v_mov_b64 (gfx950): a 64-bit move, per lane.
bool movB64(Machine &m, Wave &w, const Op &op) {
  Lanes32 lo = vectorSource(m, w, op.src[0], 0),
          hi = vectorSource(m, w, op.src[0], op.src[0].count > 1 ? 1 : 0);
  if (op.src[0].kind == Operand::immediate)
    hi = Lanes32{nullptr, uint32_t(op.src[0].imm >> 32)};
  uint32_t *dlo = vectorDest(m, w, op.dst[0], 0),
           *dhi = vectorDest(m, w, op.dst[0], 1);
  uint64_t exec = w.exec();
  for (unsigned lane = 0; lane < m.lanes; ++lane)
    if (exec >> lane & 1) {
      uint32_t l = lo[lane], h = hi[lane];
      dlo[lane] = l, dhi[lane] = h;
    }
  return true;
}

/// A 64-bit lane value of source i.
struct Lanes64 {
  Lanes32 lo, hi;
  uint64_t operator[](unsigned lane) const {
    return lo[lane] | uint64_t(hi[lane]) << 32;
  }
};
Lanes64 source64(const Machine &m, const Wave &w, const Operand &o) {
  if (o.kind == Operand::immediate)
    return {Lanes32{nullptr, uint32_t(o.imm)},
            Lanes32{nullptr, uint32_t(o.imm >> 32)}};
  return {vectorSource(m, w, o, 0), vectorSource(m, w, o, 1)};
}

/// v_mad_u64_u32 d64, sdst, s0, s1, s2_64: d = s0 * s1 + s2 (unsigned), the
/// carry out in sdst.
bool madU64U32(Machine &m, Wave &w, const Op &op) {
  Lanes32 a = vectorSource(m, w, op.src[0]), b = vectorSource(m, w, op.src[1]);
  Lanes64 c = source64(m, w, op.src[2]);
  uint32_t *dlo = vectorDest(m, w, op.dst[0], 0),
           *dhi = vectorDest(m, w, op.dst[0], 1);
  uint64_t exec = w.exec(), carry = 0;
  for (unsigned lane = 0; lane < m.lanes; ++lane) {
    if (!(exec >> lane & 1))
      continue;
    unsigned __int128 r =
        (unsigned __int128)(uint64_t(a[lane]) * b[lane]) + c[lane];
    dlo[lane] = uint32_t(r), dhi[lane] = uint32_t(r >> 32);
    carry |= uint64_t(r >> 64) << lane;
  }
  if (op.dst.size() > 1)
    writeScalar64(w, op.dst[1], carry);
  return true;
}

/// v_cvt_pk_bf16_f32 (gfx950): two f32 to bf16, round to nearest even, s0
/// in the low half; the conversion is the simulator's (HK/Runtime).
bool cvtPkBf16(Machine &m, Wave &w, const Op &op) {
  uint32_t t0[64], t1[64];
  Lanes32 s0 = modSource(m, w, op, 0, t0), s1 = modSource(m, w, op, 1, t1);
  uint32_t *d = vectorDest(m, w, op.dst[0]);
  uint64_t exec = w.exec();
  for (unsigned lane = 0; lane < m.lanes; ++lane)
    if (exec >> lane & 1)
      d[lane] = floatToBf16(bit_cast<float>(s0[lane])) |
                uint32_t(floatToBf16(bit_cast<float>(s1[lane]))) << 16;
  return true;
}

/// Compares write a lane mask: VCC for VOPC, the SGPR(s) of VOP3's sdst.
template <typename T, bool (*cmp)(T, T)>
bool vcmp(Machine &m, Wave &w, const Op &op) {
  uint64_t exec = w.exec(), mask = 0;
  if constexpr (sizeof(T) == 8) {
    Lanes64 a = source64(m, w, op.src[0]), b = source64(m, w, op.src[1]);
    for (unsigned lane = 0; lane < m.lanes; ++lane)
      if (exec >> lane & 1)
        mask |= uint64_t(cmp(T(a[lane]), T(b[lane]))) << lane;
  } else {
    uint32_t t0[64], t1[64];
    Lanes32 a = modSource(m, w, op, 0, t0), b = modSource(m, w, op, 1, t1);
    for (unsigned lane = 0; lane < m.lanes; ++lane)
      if (exec >> lane & 1)
        mask |= uint64_t(cmp(bit_cast<T>(a[lane]), bit_cast<T>(b[lane])))
                << lane;
  }
  writeLaneMask(w, m.lanes, op.dst.empty() ? nullptr : &op.dst[0], mask);
  return true;
}
template <typename T> bool lt(T a, T b) { return a < b; }
template <typename T> bool gt(T a, T b) { return a > b; }
template <typename T> bool le(T a, T b) { return a <= b; }
template <typename T> bool ge(T a, T b) { return a >= b; }
template <typename T> bool eq(T a, T b) { return a == b; }
template <typename T> bool ne(T a, T b) { return a != b; }
bool unordered(float a, float b) { return std::isnan(a) || std::isnan(b); }
bool ordered(float a, float b) { return !std::isnan(a) && !std::isnan(b); }
/// v_cmp_neq_f32 is true when unordered (IEEE "not equal").
bool neqF(float a, float b) { return !(a == b); }
/// "lg": less or greater (ordered and not equal).
bool lg(float a, float b) { return a < b || a > b; }
/// The n* compares are true when unordered: the negation of the ordered one.
template <bool (*cmp)(float, float)> bool notF(float a, float b) {
  return !cmp(a, b);
}

template <typename T> void registerCompares(HandlerMap &map, StringRef type) {
  std::string p = "v_cmp_";
  map[p + "lt_" + type.str()] = vcmp<T, lt<T>>;
  map[p + "gt_" + type.str()] = vcmp<T, gt<T>>;
  map[p + "le_" + type.str()] = vcmp<T, le<T>>;
  map[p + "ge_" + type.str()] = vcmp<T, ge<T>>;
  map[p + "eq_" + type.str()] = vcmp<T, eq<T>>;
  map[p + (type.starts_with("f") ? "lg_" : "ne_") + type.str()] =
      vcmp<T, ne<T>>;
}

/// A VOPD instruction: both halves read their sources before either
/// writes (RDNA4 ISA, section 7.6): X runs, its result is set aside and
/// its destination restored while Y runs.
bool dual(Machine &m, Wave &w, const Op &op) {
  const Op &x = (*op.halves)[0], &y = (*op.halves)[1];
  uint32_t *xd = vectorDest(m, w, x.dst[0]);
  uint32_t before[64], after[64];
  std::memcpy(before, xd, 4 * m.lanes);
  if (!x.fn(m, w, x))
    return false;
  std::memcpy(after, xd, 4 * m.lanes);
  std::memcpy(xd, before, 4 * m.lanes);
  if (!y.fn(m, w, y))
    return false;
  std::memcpy(xd, after, 4 * m.lanes);
  return true;
}

} // namespace

void registerVectorOps(HandlerMap &map) {
  map["v_mov_b32"] = map["v_dual_mov_b32"] = vop<mov>;
  map["v_bfrev_b32"] = vop<bfrev>;
  map["v_readfirstlane_b32"] = readfirstlane;
  map["v_mov_b64"] = movB64;
  map["v_and_b32"] = map["v_dual_and_b32"] = vop<andB>;
  map["v_or_b32"] = vop<orB>;
  map["v_xor_b32"] = vop<xorB>;
  map["v_add_u32"] = map["v_add_nc_u32"] = map["v_dual_add_nc_u32"] = vop<add>;
  map["v_sub_u32"] = map["v_sub_nc_u32"] = vop<sub>;
  map["v_subrev_u32"] = map["v_subrev_nc_u32"] = vop<subrev>;
  map["v_lshlrev_b32"] = map["v_dual_lshlrev_b32"] = vop<lshlrev>;
  map["v_lshrrev_b32"] = vop<lshrrev>;
  map["v_ashrrev_i32"] = vop<ashrrev>;
  map["v_mul_lo_u32"] = vop<mulLo>;
  map["v_mul_hi_u32"] = vop<mulHi>;
  map["v_mul_u32_u24"] = vop<mulU24>;
  map["v_min_u32"] = vop<minU>;
  map["v_max_u32"] = vop<maxU>;
  map["v_min_i32"] = vop<minI>;
  map["v_max_i32"] = vop<maxI>;
  map["v_add_lshl_u32"] = vop<addLshl>;
  map["v_lshl_add_u32"] = vop<lshlAdd>;
  map["v_lshl_or_b32"] = vop<lshlOr>;
  map["v_and_or_b32"] = vop<andOr>;
  map["v_or3_b32"] = vop<or3>;
  map["v_add3_u32"] = vop<add3>;
  map["v_bfe_u32"] = vop<bfeU>;
  map["v_bfe_i32"] = vop<bfeI>;
  map["v_perm_b32"] = vop<perm>;
  map["v_bitop3_b32"] = bitop3;
  map["v_cndmask_b32"] = map["v_dual_cndmask_b32"] = cndmask;
  map["v_mad_u64_u32"] = map["v_mad_co_u64_u32"] = madU64U32;
  map["v_cvt_pk_bf16_f32"] = cvtPkBf16;
  registerCompares<uint32_t>(map, "u32");
  registerCompares<int32_t>(map, "i32");
  registerCompares<uint64_t>(map, "u64");
  registerCompares<int64_t>(map, "i64");
  registerCompares<float>(map, "f32");
  map["v_cmp_u_f32"] = vcmp<float, unordered>;
  map["v_cmp_o_f32"] = vcmp<float, ordered>;
  map["v_cmp_neq_f32"] = vcmp<float, neqF>;
  map["v_cmp_nge_f32"] = vcmp<float, notF<ge<float>>>;
  map["v_cmp_nlt_f32"] = vcmp<float, notF<lt<float>>>;
  map["v_cmp_ngt_f32"] = vcmp<float, notF<gt<float>>>;
  map["v_cmp_nle_f32"] = vcmp<float, notF<le<float>>>;
  map["v_cmp_nlg_f32"] = vcmp<float, notF<lg>>;
  // Moves between the VGPR and AGPR files (CDNA4 ISA section 7.1).
  map["v_accvgpr_read_b32"] = map["v_accvgpr_write_b32"] =
      map["v_accvgpr_mov_b32"] = vop<mov>;
  map["v_dual"] = dual;
}

} // namespace mlir::hk::exec::detail
