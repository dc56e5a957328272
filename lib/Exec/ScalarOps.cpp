//===- ScalarOps.cpp - scalar ALU, branches, waits and barriers -----------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The SOP1/SOP2/SOPK/SOPC/SOPP instructions of hk's kernels, per the CDNA4
// ISA (section 4, "Scalar ALU Operations", and section 12.1-12.5 opcode
// tables) and the RDNA4 ISA (section 4 and 16.1-16.5). SCC as each opcode
// defines it: carry or borrow for the unsigned adds and subtracts, signed
// overflow for the signed ones, "result != 0" for bitwise ops and shifts;
// gfx12's *_nc_u64 and s_mul_* leave it alone.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace mlir::hk::exec::detail {
namespace {

using Fn32 = uint32_t (*)(Wave &, uint32_t, uint32_t);

/// s_* d, s0, s1 on 32 bits with `f` computing d (and SCC).
template <Fn32 f> bool sop2(Machine &, Wave &w, const Op &op) {
  uint32_t a = readScalar(w, op.src[0]);
  uint32_t b = op.src.size() > 1 ? readScalar(w, op.src[1]) : 0;
  writeScalar(w, op.dst[0], f(w, a, b));
  return true;
}

template <uint64_t (*f)(Wave &, uint64_t, uint64_t)>
bool sop2x64(Machine &, Wave &w, const Op &op) {
  uint64_t a = readScalar64(w, op.src[0]);
  uint64_t b = op.src.size() > 1 ? readScalar64(w, op.src[1]) : 0;
  writeScalar64(w, op.dst[0], f(w, a, b));
  return true;
}

uint32_t setNonzero(Wave &w, uint32_t d) {
  w.scc = d != 0;
  return d;
}
uint64_t setNonzero64(Wave &w, uint64_t d) {
  w.scc = d != 0;
  return d;
}
bool signedOverflow(uint32_t a, uint32_t b, uint32_t d) {
  return ((a ^ d) & (b ^ d)) >> 31;
}

uint32_t addI32(Wave &w, uint32_t a, uint32_t b) {
  uint32_t d = a + b;
  w.scc = signedOverflow(a, b, d);
  return d;
}
uint32_t subI32(Wave &w, uint32_t a, uint32_t b) {
  uint32_t d = a - b;
  w.scc = ((a ^ b) & (a ^ d)) >> 31;
  return d;
}
uint32_t addU32(Wave &w, uint32_t a, uint32_t b) {
  uint64_t d = uint64_t(a) + b;
  w.scc = d >> 32;
  return uint32_t(d);
}
uint32_t addcU32(Wave &w, uint32_t a, uint32_t b) {
  uint64_t d = uint64_t(a) + b + w.scc;
  w.scc = d >> 32;
  return uint32_t(d);
}
uint32_t subU32(Wave &w, uint32_t a, uint32_t b) {
  w.scc = b > a;
  return a - b;
}
uint32_t subbU32(Wave &w, uint32_t a, uint32_t b) {
  uint64_t sub = uint64_t(b) + w.scc;
  w.scc = sub > a;
  return uint32_t(a - sub);
}
uint32_t mulI32(Wave &, uint32_t a, uint32_t b) { return a * b; }
uint32_t mulHiU32(Wave &, uint32_t a, uint32_t b) {
  return uint32_t((uint64_t(a) * b) >> 32);
}
uint32_t andB32(Wave &w, uint32_t a, uint32_t b) {
  return setNonzero(w, a & b);
}
uint32_t orB32(Wave &w, uint32_t a, uint32_t b) { return setNonzero(w, a | b); }
uint32_t xorB32(Wave &w, uint32_t a, uint32_t b) {
  return setNonzero(w, a ^ b);
}
uint32_t andn2B32(Wave &w, uint32_t a, uint32_t b) {
  return setNonzero(w, a & ~b);
}
uint32_t lshlB32(Wave &w, uint32_t a, uint32_t b) {
  return setNonzero(w, a << (b & 31));
}
uint32_t lshrB32(Wave &w, uint32_t a, uint32_t b) {
  return setNonzero(w, a >> (b & 31));
}
uint32_t ashrI32(Wave &w, uint32_t a, uint32_t b) {
  return setNonzero(w, uint32_t(int32_t(a) >> (b & 31)));
}
/// s_lshl1_add_u32: (a << 1) + b, SCC the unsigned carry of the add.
uint32_t lshl1Add(Wave &w, uint32_t a, uint32_t b) {
  return addU32(w, a << 1, b);
}
uint32_t cselect(Wave &w, uint32_t a, uint32_t b) { return w.scc ? a : b; }
uint32_t minI32(Wave &w, uint32_t a, uint32_t b) {
  w.scc = int32_t(a) < int32_t(b);
  return w.scc ? a : b;
}
/// s_max_u32: D = max(S0, S1) unsigned, SCC = S0 > S1 (CDNA4 ISA, SOP2).
uint32_t maxU32(Wave &w, uint32_t a, uint32_t b) {
  w.scc = a > b;
  return w.scc ? a : b;
}
/// s_bfe_u32: offset in b[4:0], width in b[22:16].
uint32_t bfeU32(Wave &w, uint32_t a, uint32_t b) {
  unsigned offset = b & 31, width = (b >> 16) & 127;
  uint32_t d =
      width >= 32 ? a >> offset : (a >> offset) & ((uint32_t(1) << width) - 1);
  return setNonzero(w, d);
}
uint32_t mov32(Wave &, uint32_t a, uint32_t) { return a; }
/// s_not_b32: D = ~S0, SCC = D != 0 (CDNA4 ISA, SOP1).
uint32_t notB32(Wave &w, uint32_t a, uint32_t) { return setNonzero(w, ~a); }
/// s_brev_b32: D = S0 with its bits reversed, SCC unchanged (CDNA4 ISA,
/// SOP1); LLVM makes 0x80000000 with it (s_brev_b32 s, 1).
uint32_t brevB32(Wave &, uint32_t a, uint32_t) { return llvm::reverseBits(a); }

uint64_t mov64(Wave &, uint64_t a, uint64_t) { return a; }
uint64_t and64(Wave &w, uint64_t a, uint64_t b) {
  return setNonzero64(w, a & b);
}
uint64_t or64(Wave &w, uint64_t a, uint64_t b) {
  return setNonzero64(w, a | b);
}
uint64_t andn264(Wave &w, uint64_t a, uint64_t b) {
  return setNonzero64(w, a & ~b);
}
uint64_t xor64(Wave &w, uint64_t a, uint64_t b) {
  return setNonzero64(w, a ^ b);
}
uint64_t cselect64(Wave &w, uint64_t a, uint64_t b) { return w.scc ? a : b; }
uint64_t lshl64(Wave &w, uint64_t a, uint64_t b) {
  return setNonzero64(w, a << (b & 63));
}
uint64_t lshr64(Wave &w, uint64_t a, uint64_t b) {
  return setNonzero64(w, a >> (b & 63));
}
uint64_t ashr64(Wave &w, uint64_t a, uint64_t b) {
  return setNonzero64(w, uint64_t(int64_t(a) >> (b & 63)));
}
uint64_t addNc64(Wave &, uint64_t a, uint64_t b) { return a + b; }
uint64_t subNc64(Wave &, uint64_t a, uint64_t b) { return a - b; }
uint64_t mul64(Wave &, uint64_t a, uint64_t b) { return a * b; }

/// Shift amounts and the like are 32-bit operands even in 64-bit ops.
template <uint64_t (*f)(Wave &, uint64_t, uint64_t)>
bool shift64(Machine &, Wave &w, const Op &op) {
  uint64_t a = readScalar64(w, op.src[0]);
  uint32_t b = readScalar(w, op.src[1]);
  writeScalar64(w, op.dst[0], f(w, a, b));
  return true;
}

template <bool (*cmp)(uint32_t, uint32_t)>
bool sopc(Machine &, Wave &w, const Op &op) {
  w.scc = cmp(readScalar(w, op.src[0]), readScalar(w, op.src[1]));
  return true;
}
template <bool (*cmp)(uint64_t, uint64_t)>
bool sopc64(Machine &, Wave &w, const Op &op) {
  w.scc = cmp(readScalar64(w, op.src[0]), readScalar64(w, op.src[1]));
  return true;
}
bool eq(uint32_t a, uint32_t b) { return a == b; }
/// s_bitcmp1_b32: SCC = S0[S1[4:0]] (CDNA4 ISA, SOPC).
bool bitSet(uint32_t a, uint32_t b) { return (a >> (b & 31)) & 1; }
bool ne(uint32_t a, uint32_t b) { return a != b; }
bool ltU(uint32_t a, uint32_t b) { return a < b; }
bool gtU(uint32_t a, uint32_t b) { return a > b; }
bool geU(uint32_t a, uint32_t b) { return a >= b; }
bool leU(uint32_t a, uint32_t b) { return a <= b; }
bool ltI(uint32_t a, uint32_t b) { return int32_t(a) < int32_t(b); }
bool gtI(uint32_t a, uint32_t b) { return int32_t(a) > int32_t(b); }
bool geI(uint32_t a, uint32_t b) { return int32_t(a) >= int32_t(b); }
bool leI(uint32_t a, uint32_t b) { return int32_t(a) <= int32_t(b); }
bool eq64(uint64_t a, uint64_t b) { return a == b; }
bool ne64(uint64_t a, uint64_t b) { return a != b; }

/// SOPK: the 16-bit immediate is the last immediate operand.
int32_t simm16(const Op &op) { return int16_t(op.imms.back()); }

bool movk(Machine &, Wave &w, const Op &op) {
  writeScalar(w, op.dst[0], uint32_t(simm16(op)));
  return true;
}
/// s_mulk_i32 d, simm16: d *= sign-extended simm16 (SCC unchanged).
bool mulk(Machine &, Wave &w, const Op &op) {
  w.s[op.dst[0].index] *= uint32_t(simm16(op));
  return true;
}
/// s_<op>_saveexec_b{32,64} d, s0: d = EXEC, then EXEC = s0 <op> EXEC and
/// SCC = EXEC != 0 (CDNA4 ISA and RDNA4 ISA, SOP1 opcodes).
template <uint64_t (*f)(uint64_t, uint64_t)>
bool saveexec(Machine &m, Wave &w, const Op &op) {
  uint64_t mask = allLanes(m);
  uint64_t exec = w.exec() & mask, s0 = readScalar64(w, op.src[0]) & mask;
  writeScalar64(w, op.dst[0], exec);
  uint64_t next = f(s0, exec) & mask;
  w.s[kExec] = uint32_t(next);
  if (m.lanes == 64)
    w.s[kExec + 1] = uint32_t(next >> 32);
  w.scc = next != 0;
  return true;
}
uint64_t andMask(uint64_t s0, uint64_t exec) { return s0 & exec; }
uint64_t orMask(uint64_t s0, uint64_t exec) { return s0 | exec; }
uint64_t andNotMask(uint64_t s0, uint64_t exec) { return s0 & ~exec; }
/// s_addk_i32 d, simm16: d += sign-extended simm16, SCC signed overflow.
bool addk(Machine &, Wave &w, const Op &op) {
  uint32_t a = w.s[op.dst[0].index], b = uint32_t(simm16(op));
  w.s[op.dst[0].index] = addI32(w, a, b);
  return true;
}
/// s_cmpk_*_u32 compare with the zero-extended immediate, *_i32 with the
/// sign-extended one.
template <bool (*cmp)(uint32_t, uint32_t), bool isSigned>
bool cmpk(Machine &, Wave &w, const Op &op) {
  uint32_t k =
      isSigned ? uint32_t(simm16(op)) : uint32_t(op.imms.back()) & 0xffff;
  w.scc = cmp(readScalar(w, op.src[0]), k);
  return true;
}

// Program control.
bool branch(Machine &, Wave &w, const Op &op) {
  w.pc = op.target;
  return true;
}
template <bool (*taken)(const Machine &, const Wave &)>
bool cbranch(Machine &m, Wave &w, const Op &op) {
  if (taken(m, w))
    w.pc = op.target;
  return true;
}
bool scc0(const Machine &, const Wave &w) { return !w.scc; }
bool scc1(const Machine &, const Wave &w) { return w.scc; }
bool vccz(const Machine &m, const Wave &w) { return !(w.vcc() & allLanes(m)); }
bool vccnz(const Machine &m, const Wave &w) { return w.vcc() & allLanes(m); }
bool execz(const Machine &m, const Wave &w) {
  return !(w.exec() & allLanes(m));
}
bool execnz(const Machine &m, const Wave &w) { return w.exec() & allLanes(m); }

bool endpgm(Machine &, Wave &w, const Op &) {
  w.pc = ~0u;
  return true;
}
bool nothing(Machine &, Wave &, const Op &) { return true; }
/// s_bitset0/1_b32 d, s: bit s[4:0] of d cleared or set.
template <bool value> bool bitset(Machine &, Wave &w, const Op &op) {
  uint32_t bit = uint32_t(1) << (readScalar(w, op.src.back()) & 31);
  uint32_t &d = w.s[op.dst[0].index];
  d = value ? d | bit : d & ~bit;
  return true;
}
bool setprio(Machine &, Wave &w, const Op &op) {
  w.priority = unsigned(op.imms.back()) & 3;
  return true;
}

/// s_waitcnt and gfx12's s_wait_*cnt: the counts come decoded by the ISA
/// layer; operations complete oldest first until each counter is at most
/// its count.
bool wait(Machine &m, Wave &w, const Op &op) {
  const std::optional<isa::WaitCounts> &counts = op.instr->wait;
  if (!counts)
    return true;
  for (unsigned c = 0; c < isa::kNumCounters; ++c)
    if (std::optional<unsigned> n = counts->get(isa::Counter(c)))
      if (!m.waitFor(w, isa::Counter(c), *n))
        return false;
  return true;
}

/// gfx9's s_barrier: signal, then wait until every live wave of the
/// workgroup has signalled (CDNA4 ISA, S_BARRIER). It does not wait for
/// memory: gfx950 has no implicit wait before a barrier.
bool barrier(Machine &m, Wave &w, const Op &) {
  m.signalBarrier(w);
  w.waiting = true;
  return true;
}
/// gfx12 splits it (RDNA4 ISA, S_BARRIER_SIGNAL and S_BARRIER_WAIT); hk
/// uses the workgroup barrier (-1) only.
bool barrierSignal(Machine &m, Wave &w, const Op &op) {
  if (op.src.empty() || int64_t(op.src[0].imm) != -1)
    return m.fail(ExecError::Kind::badInput, w, w.pc - 1,
                  "only the workgroup barrier (-1) is modelled");
  m.signalBarrier(w);
  return true;
}
bool barrierWait(Machine &, Wave &w, const Op &) {
  w.waiting = true;
  return true;
}
/// s_sendmsg: gfx12's MSG_DEALLOC_VGPRS (3) before s_endpgm only.
bool sendmsg(Machine &m, Wave &w, const Op &op) {
  if (op.imms.empty() || (op.imms[0] & 0xff) != 3)
    return m.fail(ExecError::Kind::badInput, w, w.pc - 1,
                  "only s_sendmsg sendmsg(MSG_DEALLOC_VGPRS) is modelled");
  return true;
}

} // namespace

void registerScalarOps(HandlerMap &map) {
  map["s_mov_b32"] = sop2<mov32>;
  map["s_not_b32"] = sop2<notB32>;
  map["s_brev_b32"] = sop2<brevB32>;
  map["s_movk_i32"] = movk;
  map["s_add_i32"] = map["s_add_co_i32"] = sop2<addI32>;
  map["s_sub_i32"] = map["s_sub_co_i32"] = sop2<subI32>;
  map["s_add_u32"] = map["s_add_co_u32"] = sop2<addU32>;
  map["s_addc_u32"] = map["s_add_co_ci_u32"] = sop2<addcU32>;
  map["s_sub_u32"] = map["s_sub_co_u32"] = sop2<subU32>;
  map["s_subb_u32"] = map["s_sub_co_ci_u32"] = sop2<subbU32>;
  map["s_addk_i32"] = map["s_addk_co_i32"] = addk;
  map["s_mul_i32"] = sop2<mulI32>;
  map["s_mul_hi_u32"] = sop2<mulHiU32>;
  map["s_and_b32"] = sop2<andB32>;
  map["s_or_b32"] = sop2<orB32>;
  map["s_xor_b32"] = sop2<xorB32>;
  map["s_andn2_b32"] = map["s_and_not1_b32"] = sop2<andn2B32>;
  map["s_lshl_b32"] = sop2<lshlB32>;
  map["s_lshr_b32"] = sop2<lshrB32>;
  map["s_ashr_i32"] = sop2<ashrI32>;
  map["s_lshl1_add_u32"] = sop2<lshl1Add>;
  map["s_cselect_b32"] = sop2<cselect>;
  map["s_min_i32"] = sop2<minI32>;
  map["s_max_u32"] = sop2<maxU32>;
  map["s_bfe_u32"] = sop2<bfeU32>;
  map["s_mov_b64"] = sop2x64<mov64>;
  map["s_and_b64"] = sop2x64<and64>;
  map["s_or_b64"] = sop2x64<or64>;
  map["s_andn2_b64"] = map["s_and_not1_b64"] = sop2x64<andn264>;
  map["s_xor_b64"] = sop2x64<xor64>;
  map["s_cselect_b64"] = sop2x64<cselect64>;
  map["s_mulk_i32"] = mulk;
  map["s_and_saveexec_b64"] = map["s_and_saveexec_b32"] = saveexec<andMask>;
  map["s_or_saveexec_b64"] = map["s_or_saveexec_b32"] = saveexec<orMask>;
  map["s_andn2_saveexec_b64"] = map["s_and_not1_saveexec_b64"] =
      map["s_and_not1_saveexec_b32"] = saveexec<andNotMask>;
  map["s_lshl_b64"] = shift64<lshl64>;
  map["s_lshr_b64"] = shift64<lshr64>;
  map["s_ashr_i64"] = shift64<ashr64>;
  map["s_add_nc_u64"] = sop2x64<addNc64>;
  map["s_sub_nc_u64"] = sop2x64<subNc64>;
  map["s_mul_u64"] = sop2x64<mul64>;
  map["s_cmp_eq_u32"] = map["s_cmp_eq_i32"] = sopc<eq>;
  map["s_bitcmp1_b32"] = sopc<bitSet>;
  map["s_cmp_lg_u32"] = map["s_cmp_lg_i32"] = sopc<ne>;
  map["s_cmp_lt_u32"] = sopc<ltU>;
  map["s_cmp_gt_u32"] = sopc<gtU>;
  map["s_cmp_ge_u32"] = sopc<geU>;
  map["s_cmp_le_u32"] = sopc<leU>;
  map["s_cmp_lt_i32"] = sopc<ltI>;
  map["s_cmp_gt_i32"] = sopc<gtI>;
  map["s_cmp_ge_i32"] = sopc<geI>;
  map["s_cmp_le_i32"] = sopc<leI>;
  map["s_cmp_eq_u64"] = sopc64<eq64>;
  map["s_cmp_lg_u64"] = sopc64<ne64>;
  map["s_cmpk_lt_u32"] = cmpk<ltU, false>;
  map["s_cmpk_gt_u32"] = cmpk<gtU, false>;
  map["s_cmpk_ge_u32"] = cmpk<geU, false>;
  map["s_cmpk_le_u32"] = cmpk<leU, false>;
  map["s_cmpk_eq_u32"] = cmpk<eq, false>;
  map["s_cmpk_lg_u32"] = cmpk<ne, false>;
  map["s_cmpk_lt_i32"] = cmpk<ltI, true>;
  map["s_cmpk_gt_i32"] = cmpk<gtI, true>;
  map["s_bitset0_b32"] = bitset<false>;
  map["s_bitset1_b32"] = bitset<true>;
  map["s_branch"] = branch;
  map["s_cbranch_scc0"] = cbranch<scc0>;
  map["s_cbranch_scc1"] = cbranch<scc1>;
  map["s_cbranch_vccz"] = cbranch<vccz>;
  map["s_cbranch_vccnz"] = cbranch<vccnz>;
  map["s_cbranch_execz"] = cbranch<execz>;
  map["s_cbranch_execnz"] = cbranch<execnz>;
  map["s_endpgm"] = endpgm;
  map["s_setprio"] = setprio;
  map["s_waitcnt"] = map["s_wait_loadcnt"] = map["s_wait_storecnt"] =
      map["s_wait_dscnt"] = map["s_wait_kmcnt"] = map["s_wait_loadcnt_dscnt"] =
          map["s_wait_storecnt_dscnt"] = map["s_wait_expcnt"] = wait;
  map["s_barrier"] = barrier;
  map["s_barrier_signal"] = barrierSignal;
  map["s_barrier_wait"] = barrierWait;
  map["s_sendmsg"] = sendmsg;
  // Scheduling hints without architectural effect: s_nop (hazard padding),
  // s_delay_alu, s_clause, s_wait_alu (dependency waits the executor never
  // needs: results are written at once), s_sched_barrier is never emitted.
  map["s_nop"] = map["s_delay_alu"] = map["s_clause"] = map["s_wait_alu"] =
      nothing;
}

} // namespace mlir::hk::exec::detail
