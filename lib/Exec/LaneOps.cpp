//===- LaneOps.cpp - cross-lane, carry, 64-bit and sub-dword vector ops ---===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The vector instructions of hk's kernels that are not plain per-lane
// 32-bit functions (VectorOps.cpp): lane permutations and lane reads and
// writes (CDNA4 ISA section 12.8 VOP1, RDNA4 ISA section 16.9 VOP3), the
// carry chain (VOP2/VOP3b), 64-bit shifts-and-adds, 16-bit shifts and the
// SDWA form of gfx950 (CDNA4 ISA section 12.13 "SDWA"). Permutations
// follow the simulator's model of their intrinsics (SimCrossLane.cpp).
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include "llvm/ADT/StringRef.h"

using namespace llvm;

namespace mlir::hk::exec::detail {
namespace {

bool requireFullWave(Machine &m, Wave &w) {
  if (allLanesActive(m, w))
    return true;
  return m.fail(ExecError::Kind::badInput, w, w.pc - 1,
                "a lane permutation with inactive lanes is not modelled");
}

/// v_permlane32_swap_b32 vdst, vsrc (gfx950): lanes 32-63 of vdst swap with
/// lanes 0-31 of vsrc. v_permlane16_swap_b32: the odd 16-lane rows of vdst
/// swap with the even rows of vsrc. Both registers are written.
template <unsigned rowBits>
bool permlaneSwap(Machine &m, Wave &w, const Op &op) {
  if (!requireFullWave(m, w))
    return false;
  uint32_t *x = vectorDest(m, w, op.dst[0]), *y = vectorDest(m, w, op.dst[1]);
  for (unsigned lane = 0; lane < m.lanes; ++lane)
    if (lane & rowBits)
      std::swap(x[lane], y[lane - rowBits]);
  return true;
}

/// v_permlanex16_b32 vdst, src0, sel_lo, sel_hi (gfx12): lane j of a
/// 16-lane row reads lane sel[j] of the other row of its pair, sel[j] the
/// j-th nibble of {sel_hi, sel_lo}. With the whole wave on, fetch-inactive
/// and bound_ctrl (op_sel) change nothing.
bool permlaneX16(Machine &m, Wave &w, const Op &op) {
  if (!requireFullWave(m, w))
    return false;
  Lanes32 src = vectorSource(m, w, op.src[0]);
  uint32_t lo = readScalar(w, op.src[1]), hi = readScalar(w, op.src[2]);
  uint32_t result[64];
  for (unsigned lane = 0; lane < m.lanes; ++lane) {
    unsigned j = lane % 16;
    unsigned sel = ((j < 8 ? lo : hi) >> (4 * (j % 8))) & 15;
    result[lane] = src[((lane / 16) ^ 1) * 16 + sel];
  }
  uint32_t *d = vectorDest(m, w, op.dst[0]);
  std::copy(result, result + m.lanes, d);
  return true;
}

/// v_readlane_b32 sdst, vsrc, lane; v_writelane_b32 vdst, s0, lane.
bool readlane(Machine &m, Wave &w, const Op &op) {
  unsigned lane = readScalar(w, op.src[1]) % m.lanes;
  writeScalar(w, op.dst[0], vectorSource(m, w, op.src[0])[lane]);
  return true;
}
bool writelane(Machine &m, Wave &w, const Op &op) {
  unsigned lane = readScalar(w, op.src[1]) % m.lanes;
  vectorDest(m, w, op.dst[0])[lane] = readScalar(w, op.src[0]);
  return true;
}

/// The carry chain: d = s0 + s1 (+ carry in), the carry out per lane in
/// VCC (VOP2) or sdst (VOP3b); subtractions borrow. The carry in is VCC
/// (VOP2) or the third source (VOP3b). `reverse` swaps the operands.
template <bool subtract, bool carryIn, bool reverse>
bool carry(Machine &m, Wave &w, const Op &op) {
  bool vop3 = op.dst.size() > 1;
  Lanes32 a = vectorSource(m, w, op.src[reverse ? 1 : 0]),
          b = vectorSource(m, w, op.src[reverse ? 0 : 1]);
  uint64_t in = 0;
  if (carryIn)
    in = vop3 ? readScalar64(w, op.src[2]) : w.vcc();
  uint32_t *d = vectorDest(m, w, op.dst[0]);
  uint64_t exec = w.exec(), out = 0;
  for (unsigned lane = 0; lane < m.lanes; ++lane) {
    if (!(exec >> lane & 1))
      continue;
    uint64_t c = in >> lane & 1;
    uint64_t r = subtract ? uint64_t(a[lane]) - b[lane] - c
                          : uint64_t(a[lane]) + b[lane] + c;
    d[lane] = uint32_t(r);
    out |= uint64_t((r >> 32) & 1) << lane;
  }
  writeLaneMask(w, m.lanes, vop3 ? &op.dst[1] : nullptr, out);
  return true;
}

/// v_lshl_add_u64 d64, s0_64, shift, s2_64 (gfx950): (s0 << shift) + s2.
/// Shifts above 4 are unsupported and act as 0 (CDNA4 ISA,
/// V_LSHL_ADD_U64); LLVM emits 0-4 only.
bool lshlAddU64(Machine &m, Wave &w, const Op &op) {
  auto lane64 = [&](const Operand &o, unsigned lane) {
    if (o.kind == Operand::immediate)
      return o.imm;
    return vectorSource(m, w, o, 0)[lane] |
           uint64_t(vectorSource(m, w, o, 1)[lane]) << 32;
  };
  Lanes32 shift = vectorSource(m, w, op.src[1]);
  uint32_t *lo = vectorDest(m, w, op.dst[0], 0),
           *hi = vectorDest(m, w, op.dst[0], 1);
  uint64_t exec = w.exec();
  for (unsigned lane = 0; lane < m.lanes; ++lane) {
    if (!(exec >> lane & 1))
      continue;
    unsigned amount = shift[lane] <= 4 ? shift[lane] : 0;
    uint64_t r = (lane64(op.src[0], lane) << amount) + lane64(op.src[2], lane);
    lo[lane] = uint32_t(r), hi[lane] = uint32_t(r >> 32);
  }
  return true;
}

/// v_lshlrev_b64 d64, shift, s64: s << shift[5:0].
bool lshlrevB64(Machine &m, Wave &w, const Op &op) {
  Lanes32 shift = vectorSource(m, w, op.src[0]);
  Lanes32 lo = vectorSource(m, w, op.src[1], 0),
          hi = vectorSource(m, w, op.src[1], 1);
  if (op.src[1].kind == Operand::immediate)
    lo = Lanes32{nullptr, uint32_t(op.src[1].imm)},
    hi = Lanes32{nullptr, uint32_t(op.src[1].imm >> 32)};
  uint32_t *dlo = vectorDest(m, w, op.dst[0], 0),
           *dhi = vectorDest(m, w, op.dst[0], 1);
  uint64_t exec = w.exec();
  for (unsigned lane = 0; lane < m.lanes; ++lane) {
    if (!(exec >> lane & 1))
      continue;
    uint64_t r = (lo[lane] | uint64_t(hi[lane]) << 32) << (shift[lane] & 63);
    dlo[lane] = uint32_t(r), dhi[lane] = uint32_t(r >> 32);
  }
  return true;
}

/// v_lshlrev_b16 d, shift, s: the low 16 bits of s shifted. gfx9 zeroes
/// the destination's high half, gfx10 and later keep it (LLVM's
/// GCNSubtarget::zeroesHigh16BitsOfDest).
bool lshlrevB16(Machine &m, Wave &w, const Op &op) {
  Lanes32 shift = vectorSource(m, w, op.src[0]),
          s = vectorSource(m, w, op.src[1]);
  bool keepHigh = m.program.arch != isa::Arch::gfx950;
  uint32_t *d = vectorDest(m, w, op.dst[0]);
  uint64_t exec = w.exec();
  for (unsigned lane = 0; lane < m.lanes; ++lane)
    if (exec >> lane & 1)
      d[lane] = ((s[lane] << (shift[lane] & 15)) & 0xffff) |
                (keepHigh ? d[lane] & 0xffff0000u : 0);
  return true;
}

/// SDWA operand select (BYTE_0-3 = 0-3, WORD_0-1 = 4-5, DWORD = 6),
/// zero-extended: hk's SDWA ops are bitwise, without sext.
uint32_t selectPart(uint32_t x, int64_t sel) {
  if (sel <= 3)
    return (x >> (8 * sel)) & 0xff;
  if (sel <= 5)
    return (x >> (16 * (sel - 4))) & 0xffff;
  return x;
}

/// v_or_b32_sdwa d, s0, s1 with imms clamp, dst_sel, dst_unused, src0_sel,
/// src1_sel: the selected parts or'ed, placed at dst_sel; the rest of d
/// zero (UNUSED_PAD) or kept (UNUSED_PRESERVE).
bool orSdwa(Machine &m, Wave &w, const Op &op) {
  if (op.imms.size() != 5 || op.imms[0] || op.imms[2] == 1 || op.src[0].mods ||
      op.src[1].mods)
    return m.fail(ExecError::Kind::badInput, w, w.pc - 1,
                  "this SDWA form (clamp, sign extension or UNUSED_SEXT) is "
                  "not modelled");
  int64_t dstSel = op.imms[1], src0Sel = op.imms[3], src1Sel = op.imms[4];
  bool preserve = op.imms[2] == 2;
  Lanes32 a = vectorSource(m, w, op.src[0]), b = vectorSource(m, w, op.src[1]);
  uint32_t *d = vectorDest(m, w, op.dst[0]);
  uint64_t exec = w.exec();
  for (unsigned lane = 0; lane < m.lanes; ++lane) {
    if (!(exec >> lane & 1))
      continue;
    uint32_t r = selectPart(a[lane], src0Sel) | selectPart(b[lane], src1Sel);
    uint32_t shift = dstSel <= 3   ? 8 * dstSel
                     : dstSel <= 5 ? 16 * (dstSel - 4)
                                   : 0;
    uint32_t field = dstSel <= 3 ? 0xffu : dstSel <= 5 ? 0xffffu : ~0u;
    uint32_t placed = (r & field) << shift;
    d[lane] = preserve ? (d[lane] & ~(field << shift)) | placed : placed;
  }
  return true;
}

/// v_xad_u32 d, s0, s1, s2: (s0 ^ s1) + s2.
bool xad(Machine &m, Wave &w, const Op &op) {
  Lanes32 a = vectorSource(m, w, op.src[0]), b = vectorSource(m, w, op.src[1]),
          c = vectorSource(m, w, op.src[2]);
  uint32_t *d = vectorDest(m, w, op.dst[0]);
  uint64_t exec = w.exec();
  for (unsigned lane = 0; lane < m.lanes; ++lane)
    if (exec >> lane & 1)
      d[lane] = (a[lane] ^ b[lane]) + c[lane];
  return true;
}

} // namespace

void registerLaneOps(HandlerMap &map) {
  map["v_permlane32_swap_b32"] = permlaneSwap<32>;
  map["v_permlane16_swap_b32"] = permlaneSwap<16>;
  map["v_permlanex16_b32"] = permlaneX16;
  map["v_readlane_b32"] = readlane;
  map["v_writelane_b32"] = writelane;
  map["v_add_co_u32"] = carry<false, false, false>;
  map["v_sub_co_u32"] = carry<true, false, false>;
  map["v_subrev_co_u32"] = carry<true, false, true>;
  map["v_addc_co_u32"] = map["v_add_co_ci_u32"] = carry<false, true, false>;
  map["v_subb_co_u32"] = map["v_sub_co_ci_u32"] = carry<true, true, false>;
  map["v_subbrev_co_u32"] = map["v_subrev_co_ci_u32"] = carry<true, true, true>;
  map["v_lshl_add_u64"] = lshlAddU64;
  map["v_lshlrev_b16"] = lshlrevB16;
  map["v_lshlrev_b64"] = lshlrevB64;
  map["v_or_b32_sdwa"] = orSdwa;
  map["v_xad_u32"] = xad;
}

} // namespace mlir::hk::exec::detail
