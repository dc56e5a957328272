//===- AttentionFusedBackwardKernel.cpp - the fused backward pass ---------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The fused backward: the dK/dV kernel's pass over query tiles per KV block
// (S, P, dP, dS once per tile) also computes the tile's dQ = dS K and adds
// it into an f32 workspace with atomics: five GEMMs per tile where the
// deterministic pair takes seven. dS reaches dQ's MMA through LDS, since
// its k (the keys) runs along the accumulator's columns, and each wave
// takes a slab of the workgroup's dQ over all of the block's keys, so a
// workgroup adds each element of a tile's dQ once. Two small kernels
// around it: D = rowsum(dO * O) with the workspace zeroed, before; the
// workspace scaled and rounded to dQ, after.
//
//===----------------------------------------------------------------------===//

#include "AttentionBackward.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"

using namespace mlir;
using namespace mlir::hk;
using namespace mlir::hk::kernels;

DqSlabs mlir::hk::kernels::planDqSlabs(const AttentionTiles &t,
                                       int64_t headDim) {
  DqSlabs s;
  s.colWaves = std::min(t.waves, headDim / t.mma.n);
  s.rowWaves = t.waves / s.colWaves;
  s.rows = t.perTile / s.rowWaves;
  s.cols = headDim / s.colWaves;
  return s;
}

Value BackwardEmitter::emitWaveQueries(Value qblock) {
  Value q0 = kb.mul("q0", qblock, kb.index(t.perWorkgroup()));
  Value wq = kb.mul("wq", kb.waveIndex("wave"), kb.index(t.perWave));
  return kb.add("qw", q0, wq);
}

void BackwardEmitter::emitRowDotsKernel() {
  int64_t dd = d.headDim;
  kb.startKernel("hk_attention_bwd", kernelName(0), arguments(),
                 t.waves * t.chip->waveSize, queryBlockGrid());
  emitCommon();
  Value head = kb.create<gpu::BlockIdOp>("head", gpu::Dimension::y);
  Value qblock = kb.create<gpu::BlockIdOp>("qblock", gpu::Dimension::x);
  Value oh = attentionHeadView(kb, "Oh", kb.arg("O"), batch, head, nq, dd);
  Value doh = attentionHeadView(kb, "dOh", kb.arg("dO"), batch, head, nq, dd);
  Value dh = attentionHeadVector(kb, "Dh", kb.arg("D"), batch, head, nq);
  Value accs =
      attentionHeadView(kb, "dQacch", kb.arg("dQacc"), batch, head, nq, dd);
  Value qw = emitWaveQueries(qblock);
  FragmentType transposedRows = frag(FragmentRole::acc, dd, t.perWave, f32());
  emitRowDots(doh, oh, dh, qw, transposedRows,
              frag(FragmentRole::col, 1, t.perWave, f32()));
  // The fused kernel adds into the workspace: it starts at zero.
  Value zeros = kb.create<FillFragmentOp>("zeros", transposedRows, zero);
  kb.create<StoreFragmentOp>("", zeros, accs, qw, kb.index(0),
                             /*transpose=*/true, BoundsMode::partial);
}

void BackwardEmitter::emitDqConvertKernel() {
  int64_t dd = d.headDim;
  kb.startNextKernel(kernelName(2), arguments(), t.waves * t.chip->waveSize,
                     queryBlockGrid());
  emitCommon();
  Value head = kb.create<gpu::BlockIdOp>("head", gpu::Dimension::y);
  Value qblock = kb.create<gpu::BlockIdOp>("qblock", gpu::Dimension::x);
  Value accs =
      attentionHeadView(kb, "dQacch", kb.arg("dQacc"), batch, head, nq, dd);
  Value dqh = attentionHeadView(kb, "dQh", kb.arg("dQ"), batch, head, nq, dd);
  Value qw = emitWaveQueries(qblock);
  FragmentType rows = frag(FragmentRole::acc, t.perWave, dd, f32());
  Value acc = kb.create<ReadFragmentOp>(
      "dq_acc", rows, accs, ValueRange{qw, kb.index(0)},
      /*transpose=*/false, BoundsMode::partial);
  Value dq = kb.map("dq", rows, {acc}, {"x"}, [&](ValueRange x) -> Value {
    return kb.create<arith::MulFOp>("r", x[0], rsqrtD);
  });
  kb.create<StoreFragmentOp>("", dq, dqh, qw, kb.index(0),
                             /*transpose=*/false, BoundsMode::partial);
}

void BackwardEmitter::emitDqSetup(Value k0, Value kh, Value wave) {
  int64_t dd = d.headDim;
  DqSlabs slabs = planDqSlabs(t, dd);
  // gfx1201's dS rows are 32 keys: st_16x32 is the operand swizzle that
  // fits them.
  Swizzle swizzle = t.transposedReads ? operandSwizzle(t) : Swizzle::st_16x32;
  dss = kb.create<AllocSharedOp>(
      "dSs", kb.sharedTile(t.perTile, t.perWorkgroup(), bf16(), swizzle,
                           operandPermutation(t)));
  slabRow = kb.mul("slab_row", kb.div("slab_i", wave, kb.index(slabs.colWaves)),
                   kb.index(slabs.rows));
  slabCol = kb.mul(
      "slab_col",
      kb.create<arith::RemUIOp>("slab_j", wave, kb.index(slabs.colWaves)),
      kb.index(slabs.cols));
  // dQ's B operand is K's columns of the slab over the block's keys: read
  // transposed from K's tile (gfx950), or from a K^T tile the copy
  // transposes (gfx1201).
  kSlabTile = kvTiles[0];
  if (!t.transposedReads) {
    AttentionTiles wide = t;
    wide.perTile = t.perWorkgroup();
    kSlabTile = kb.create<AllocSharedOp>(
        "Kts",
        kb.sharedTile(dd, t.perWorkgroup(), bf16(), transposedSwizzle(wide)));
    kb.create<CopyToSharedOp>("", kh, k0, kb.index(0), kSlabTile, kb.index(0),
                              /*direct=*/false, /*transpose=*/true,
                              BoundsMode::partial);
  }
  kSlab = nullptr;
  if (fixedInRegisters()) {
    FragmentType operand =
        frag(FragmentRole::b, slabs.cols, t.perWorkgroup(), bf16());
    kSlab = kb.create<LoadFragmentOp>("k_slab", operand, kSlabTile, kb.index(0),
                                      kb.index(0), slabCol,
                                      /*transpose=*/true);
  }
}

Value BackwardEmitter::emitDqTile(Value ds, Value q0, Value head,
                                  llvm::function_ref<Value()> qt, Value dsf,
                                  Value dk) {
  int64_t dd = d.headDim;
  DqSlabs slabs = planDqSlabs(t, dd);
  auto dkMma = [&](StringRef name, Value qtOperand) -> Value {
    return kb.create<MmaOp>(name, dk.getType(), qtOperand, dsf, dk,
                            ValueRange{});
  };
  Value dkNew = kSlab ? nullptr : dkMma("dk_new", qt());
  // Every wave's dS columns, then every wave reads its rows of them.
  kb.create<StoreSharedOp>("", ds, dss, kb.index(0), kb.index(0), wk);
  kb.create<amdgpu::LDSBarrierOp>("");
  Value dsa = kb.create<LoadFragmentOp>(
      "dsa", frag(FragmentRole::a, slabs.rows, t.perWorkgroup(), bf16()), dss,
      kb.index(0), slabRow, kb.index(0), /*transpose=*/false);
  // Rows past Nq are not written; keys past Nkv have zero K rows.
  Value accs =
      attentionHeadView(kb, "dQacch", kb.arg("dQacc"), batch, head, nq, dd);
  Value row = kb.add("slab_q", q0, slabRow);
  // A held K operand serves the slab at once; read from LDS (gfx1201), it
  // is taken an MMA's columns at a time, so few registers are live beside
  // the dK and dV accumulators.
  int64_t chunk = kSlab ? slabs.cols : t.mma.n;
  for (int64_t c = 0; c < slabs.cols; c += chunk) {
    Value col = kb.add("slab_d", slabCol, kb.index(c));
    Value operand = kSlab;
    if (!operand)
      operand = kb.create<LoadFragmentOp>(
          "k_slab", frag(FragmentRole::b, chunk, t.perWorkgroup(), bf16()),
          kSlabTile, kb.index(0), col, kb.index(0), /*transpose=*/false);
    FragmentType slab = frag(FragmentRole::acc, slabs.rows, chunk, f32());
    Value init = kb.create<FillFragmentOp>("dq_init", slab, zero);
    Value part =
        kb.create<MmaOp>("dq_part", slab, dsa, operand, init, ValueRange{});
    auto addPart = [&] {
      kb.create<StoreFragmentOp>("", part, accs, row, col, /*transpose=*/false,
                                 BoundsMode::partial, /*rowIds=*/nullptr,
                                 /*rowIdsAt=*/nullptr,
                                 /*rowIdsDivisor=*/nullptr, /*atomic=*/true);
    };
    if (!kSlab) {
      addPart();
      continue;
    }
    // One chunk: dK's MFMAs and the atomics in turn, each atomic in an
    // MFMA's shadow (hk-perf, d = 128: 2169 -> 1846 cycles a trip; llvm-mca
    // 1138 -> 1147).
    Value qtOperand = qt();
    dkNew = kb.cluster("dk_new", dk.getType(), /*alternating=*/true, [&] {
      Value sum = dkMma("dk_sum", qtOperand);
      addPart();
      return sum;
    });
  }
  return dkNew;
}

void mlir::hk::kernels::describeFusedBackward(llvm::raw_ostream &os,
                                              const AttentionDescription &d,
                                              const AttentionTiles &t) {
  int64_t dim = d.headDim;
  DqSlabs slabs = planDqSlabs(t, dim);
  os << "Q, O, dO, dQ [B, Hq, Nq, " << dim << "], K, V, dK, dV [B, Hkv, Nkv, "
     << dim << "] bf16; LSE, D [B, Hq, Nq] f32; dQacc [B, Hq, Nq, " << dim
     << "] f32, a workspace. `causal` != 0: the forward's top-left mask. Any "
        "Nq, Nkv >= 1. The three kernels take this argument list and run in "
        "this order.\n\n";
  os << "attention_bwd_dot_bf16_d" << dim << ": per " << t.perWorkgroup()
     << " queries of one (batch, head), grid (ceil(Nq / " << t.perWorkgroup()
     << "), Hq, B): D = rowsum(dO * O), and dQacc zeroed.\n\n";
  os << "attention_bwd_fused_bf16_d" << dim << ": one workgroup of " << t.waves
     << " waves per " << t.perWorkgroup() << " keys of one (batch, kv head), "
     << t.perWave << " per wave, grid (ceil(Nkv / " << t.perWorkgroup()
     << "), Hkv, B), over the query heads of the kv head and their tiles of "
     << t.perTile
     << " queries (causal: from the block's first key's tile on). Per tile, "
        "five GEMMs: S = Q K^T, dV^T += dO^T P, dP = dO V^T, dS = P (dP - D), "
        "dK^T += Q^T dS, and dQ = dS K: each wave writes its dS columns to "
        "LDS (hk.store_shared; dS's k runs along the accumulator's columns, "
        "which registers cannot serve), then takes a "
     << slabs.rows << "x" << slabs.cols
     << " slab of the tile's dQ over all the block's keys and adds it into "
        "dQacc with fp32 atomics (hk.store_fragment ... atomic): each element "
        "once per workgroup and tile, in the order the hardware gives. dK, dV "
        "accumulate in registers in a fixed order. "
     << (t.transposedReads
             ? "K, V stay in registers; dQ's K operand is read transposed "
               "from K's tile once. dK's MFMAs issue in turn with dQ's "
               "atomics (an hk.cluster alternating)."
             : "K and V stay in LDS; dQ's K operand comes from a K^T tile "
               "the copy transposes, read every tile.")
     << "\n\n";
  os << "attention_bwd_dq_convert_bf16_d" << dim << ": per " << t.perWorkgroup()
     << " queries, dQ = dQacc / sqrt(" << dim << ") rounded to bf16.\n\n"
     << "dQ's atomic adds make its last bits depend on the order of "
        "workgroups; `hk-gen attention-bwd --deterministic` gives the "
        "two-kernel form, the same bits on every run.";
}
