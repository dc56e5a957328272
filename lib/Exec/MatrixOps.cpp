//===- MatrixOps.cpp - MFMA and WMMA instructions -------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The matrix instructions of hk's kernels, computed by the simulator's own
// implementation (HK/Runtime/MatrixMath.h) so that the two backends agree
// bit for bit: this file only gathers each lane's operand registers into
// the bytes the lane layout describes and scatters the result back.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include "HK/Runtime/MatrixMath.h"

#include <cstring>

using namespace llvm;

namespace mlir::hk::exec::detail {
namespace {

/// One lane's registers of an operand, as consecutive bytes.
void gather(const Machine &m, const Wave &w, const Operand &o, unsigned lane,
            uint8_t *out) {
  for (unsigned i = 0; i < o.count; ++i) {
    uint32_t v = vectorSource(m, w, o, i)[lane];
    std::memcpy(out + 4 * i, &v, 4);
  }
}

template <bool wmma> bool matrix(Machine &m, Wave &w, const Op &op) {
  unsigned index = w.pc - 1;
  ++m.stats.mmas;
  uint64_t full = m.lanes == 64 ? ~uint64_t(0) : (uint64_t(1) << m.lanes) - 1;
  if ((w.exec() & full) != full)
    return m.fail(ExecError::Kind::badInput, w, index,
                  "a matrix instruction with inactive lanes is not modelled");
  // CDNA4 ISA section 7 ("Matrix Arithmetic Instructions"): cbsz, abid and
  // blgp broadcast operands; hk never sets them.
  for (int64_t control : op.imms)
    if (!wmma && control)
      return m.fail(ExecError::Kind::badInput, w, index,
                    "MFMA broadcast controls (cbsz/abid/blgp) are not "
                    "modelled");
  for (const Operand &src : op.src)
    if (src.mods)
      return m.fail(ExecError::Kind::badInput, w, index,
                    "matrix operand modifiers are not modelled");
  if (op.src.size() != 3 || op.src[2].kind == Operand::immediate)
    return m.fail(ExecError::Kind::badInput, w, index,
                  "a matrix instruction needs A, B and C in registers");
  sim::MatrixForm form =
      wmma ? sim::MatrixForm{true,
                             16,
                             8,
                             sim::MatrixFormat::bf16,
                             sim::MatrixFormat::bf16,
                             false}
           : sim::MatrixForm{
                 false, 32, 8, sim::MatrixFormat::bf16, sim::MatrixFormat::bf16,
                 false};
  unsigned lanes = m.lanes;
  static thread_local uint8_t a[64][16], b[64][16], c[64][64], d[64][64];
  SmallVector<unsigned, 64> all;
  for (unsigned lane = 0; lane < lanes; ++lane) {
    all.push_back(lane);
    gather(m, w, op.src[0], lane, a[lane]);
    gather(m, w, op.src[1], lane, b[lane]);
    gather(m, w, op.src[2], lane, c[lane]);
  }
  auto pa = [&](unsigned l) -> const uint8_t * { return a[l]; };
  auto pb = [&](unsigned l) -> const uint8_t * { return b[l]; };
  auto pc = [&](unsigned l) -> const uint8_t * { return c[l]; };
  auto pd = [&](unsigned l) -> uint8_t * { return d[l]; };
  sim::MatrixOperands operands{pa, pb, pc, pd};
  sim::multiplyAccumulate(form, all, operands);
  const Operand &dst = op.dst[0];
  for (unsigned i = 0; i < dst.count; ++i) {
    uint32_t *out = vectorDest(m, w, dst, i);
    for (unsigned lane = 0; lane < lanes; ++lane)
      std::memcpy(&out[lane], &d[lane][4 * i], 4);
  }
  return true;
}

} // namespace

void registerMatrixOps(HandlerMap &map) {
  // D = C + A * B^T, bf16 A and B, f32 C and D: 16x16x32 on gfx950 (wave64,
  // 8 bf16 per lane), 16x16x16 on gfx1201 (wave32, 8 bf16 per lane).
  map["v_mfma_f32_16x16x32_bf16"] = matrix<false>;
  map["v_wmma_f32_16x16x16_bf16"] = matrix<true>;
}

} // namespace mlir::hk::exec::detail
