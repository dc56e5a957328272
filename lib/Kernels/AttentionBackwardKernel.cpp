//===- AttentionBackwardKernel.cpp - FlashAttention-2 backward ------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The backward pass as two kernels over one argument list, each built so
// that every accumulator becomes the next MMA's operand in registers
// (hk.to_operand moves no data across lanes):
//
// - dQ (and D): per query block, transposed as the forward (S^T = K Q^T,
//   dP^T = V dO^T); dQ^T = K^T dS^T, like the forward's O^T = V^T P^T.
//   Each wave first computes D = rowsum(dO * O) for its queries and stores
//   it for the second kernel.
// - dK, dV: per key block, untransposed (S = Q K^T, dP = dO V^T), so
//   dV^T = dO^T P and dK^T = Q^T dS take P and dS as operands in place;
//   the loop runs over the query heads of the kv head (GQA) and their
//   query tiles, accumulating in registers: no atomics, a fixed order.
//
//===----------------------------------------------------------------------===//

#include "AttentionBackward.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hk;
using namespace mlir::hk::kernels;

AttentionTiles
mlir::hk::kernels::planBackwardTiles(const AttentionDescription &d) {
  AttentionTiles t = planAttentionTiles(d);
  // The forward's wave count is its own.
  t.waves = 4;
  if (!t.transposedReads) {
    t.perTile /= 2;
    t.waves = 2;
  }
  return t;
}

SmallVector<std::pair<StringRef, Type>> BackwardEmitter::arguments() {
  int64_t dyn = ShapedType::kDynamic;
  Type heads = MemRefType::get({dyn, dyn, dyn, d.headDim}, bf16());
  Type rows = MemRefType::get({dyn, dyn, dyn}, f32());
  SmallVector<std::pair<StringRef, Type>> args = {
      {"Q", heads},
      {"K", heads},
      {"V", heads},
      {"O", heads},
      {"dO", heads},
      {"LSE", rows},
      {"D", rows},
      {"dQ", heads},
      {"dK", heads},
      {"dV", heads},
      {"causal", kb.b.getI32Type()}};
  // The fused pass's f32 workspace: dQ before its scale and rounding.
  if (fused())
    args.push_back(
        {"dQacc", MemRefType::get({dyn, dyn, dyn, d.headDim}, f32())});
  return args;
}

SmallVector<SizeTerm> BackwardEmitter::queryBlockGrid() const {
  return {{0, 2, t.perWorkgroup(), true}, {0, 1, 1, false}, {0, 0, 1, false}};
}

void BackwardEmitter::emitCommon() {
  zero = kb.f32("zero", 0.0);
  minusInf = kb.f32("minus_inf", -INFINITY);
  // log2(e) / sqrt(d): the softmax scale folded into exp2, as the forward.
  scale = kb.f32("scale", M_LOG2E / std::sqrt(double(d.headDim)));
  minusLog2e = kb.f32("minus_log2e", -M_LOG2E);
  rsqrtD = kb.f32("rsqrt_d", 1.0 / std::sqrt(double(d.headDim)));
  Value zeroI32 = kb.create<arith::ConstantIntOp>("zero_i32", 0, 32);
  isCausal = kb.create<arith::CmpIOp>("is_causal", arith::CmpIPredicate::ne,
                                      kb.arg("causal"), zeroI32);
  batch = kb.create<gpu::BlockIdOp>("batch", gpu::Dimension::z);
  q = kb.arg("Q");
  k = kb.arg("K");
  v = kb.arg("V");
  hq = kb.dim("Hq", q, 1);
  nq = kb.dim("Nq", q, 2);
  hkv = kb.dim("Hkv", k, 1);
  nkv = kb.dim("Nkv", k, 2);
  group = kb.div("group", hq, hkv);
}

Value BackwardEmitter::emitCausalMask(Value s, Value query, Value key) {
  // S's rows are queries from `query`, its columns keys from `key`: -inf
  // (P = 0) where the key is past the query.
  auto mask = kb.create<MaskOp>("masked", s.getType(), s, minusInf, query, key);
  OpBuilder::InsertionGuard guard(kb.b);
  Type index = kb.b.getIndexType();
  Block *block =
      kb.startBlock(mask.getBody(), {index, index}, {"query", "key"});
  Value keep =
      kb.create<arith::CmpIOp>("keep", arith::CmpIPredicate::ule,
                               block->getArgument(1), block->getArgument(0));
  kb.create<YieldOp>("", keep);
  return mask.getResult();
}

//===----------------------------------------------------------------------===//
// dQ and D
//===----------------------------------------------------------------------===//

/// D = rowsum(dO * O) over d for the wave's queries from `qw`, stored to
/// `dh` and returned as a column of `column`.
Value BackwardEmitter::emitRowDots(Value doh, Value oh, Value dh, Value qw,
                                   FragmentType transposedRows,
                                   FragmentType column) {
  // D = rowsum(dO * O) over d, from dO^T and O^T read transposed: a column
  // per query, as the scores'. Exact products, f32 sums.
  Value dot = kb.create<ReadFragmentOp>(
      "dOt", transposedRows, doh, ValueRange{qw, kb.index(0)},
      /*transpose=*/true, BoundsMode::partial);
  Value ot = kb.create<ReadFragmentOp>("Ot", transposedRows, oh,
                                       ValueRange{qw, kb.index(0)},
                                       /*transpose=*/true, BoundsMode::partial);
  Value products = kb.map("dO_O", transposedRows, {dot, ot}, {"a", "b"},
                          [&](ValueRange x) -> Value {
                            return kb.create<arith::MulFOp>("r", x[0], x[1]);
                          });
  Value dcol = kb.create<ReduceOp>("D_q", column, ReduceKind::sum, products);
  kb.create<StoreFragmentOp>("", dcol, dh, kb.index(0), qw,
                             /*transpose=*/false, BoundsMode::partial);
  return dcol;
}

void BackwardEmitter::emitDq() {
  int64_t dd = d.headDim;
  kb.startKernel("hk_attention_bwd", kernelName(0), arguments(),
                 t.waves * t.chip->waveSize, queryBlockGrid());
  emitCommon();
  Value head = kb.create<gpu::BlockIdOp>("head", gpu::Dimension::y);
  Value qblock = kb.create<gpu::BlockIdOp>("qblock", gpu::Dimension::x);
  Value kvHead = kb.div("kv_head", head, group);
  Value qh = attentionHeadView(kb, "Qh", q, batch, head, nq, dd);
  Value oh = attentionHeadView(kb, "Oh", kb.arg("O"), batch, head, nq, dd);
  Value doh = attentionHeadView(kb, "dOh", kb.arg("dO"), batch, head, nq, dd);
  Value dqh = attentionHeadView(kb, "dQh", kb.arg("dQ"), batch, head, nq, dd);
  Value kh = attentionHeadView(kb, "Kh", k, batch, kvHead, nkv, dd);
  Value vh = attentionHeadView(kb, "Vh", v, batch, kvHead, nkv, dd);
  Value lh = attentionHeadVector(kb, "Lh", kb.arg("LSE"), batch, head, nq);
  Value dh = attentionHeadVector(kb, "Dh", kb.arg("D"), batch, head, nq);

  Swizzle operands = operandSwizzle(t);
  ColumnPermutation perm = operandPermutation(t);
  Value qs = kb.create<AllocSharedOp>(
      "Qs", kb.sharedTile(t.perWorkgroup(), dd, bf16(), operands, perm));
  Value dos = kb.create<AllocSharedOp>(
      "dOs", kb.sharedTile(t.perWorkgroup(), dd, bf16(), operands, perm));
  Value ks = kb.create<AllocSharedOp>(
      "Ks", kb.sharedTile(t.perTile, dd, bf16(), operands, perm));
  Value vs = kb.create<AllocSharedOp>(
      "Vs", kb.sharedTile(t.perTile, dd, bf16(), operands, perm));
  // K^T for dQ^T = K^T dS^T: read transposed from Ks (gfx950), or written
  // transposed into a tile of its own (gfx1201).
  Value kts = t.transposedReads
                  ? ks
                  : kb.create<AllocSharedOp>(
                        "Kts", kb.sharedTile(dd, t.perTile, bf16(),
                                             transposedSwizzle(t)));

  Value q0 = kb.mul("q0", qblock, kb.index(t.perWorkgroup()));
  Value wave = kb.waveIndex("wave");
  Value wq = kb.mul("wq", wave, kb.index(t.perWave));
  Value qw = kb.add("qw", q0, wq);
  for (auto [source, tile] : {std::pair{qh, qs}, std::pair{doh, dos}})
    kb.create<CopyToSharedOp>("", source, q0, kb.index(0), tile, kb.index(0),
                              /*direct=*/false, /*transpose=*/false,
                              BoundsMode::partial);
  kb.create<amdgpu::LDSBarrierOp>("");
  FragmentType operand = frag(FragmentRole::b, t.perWave, dd, bf16());
  auto loadFixed = [&](StringRef name, Value tile) -> Value {
    return kb.create<LoadFragmentOp>(name, operand, tile, kb.index(0), wq,
                                     kb.index(0), /*transpose=*/false);
  };
  Value qf, dof;
  if (fixedInRegisters()) {
    qf = loadFixed("qf", qs);
    dof = loadFixed("dof", dos);
  }

  FragmentType transposedRows = frag(FragmentRole::acc, dd, t.perWave, f32());
  FragmentType column = frag(FragmentRole::col, 1, t.perWave, f32());
  Value dcol = emitRowDots(doh, oh, dh, qw, transposedRows, column);
  // LSE in the exp2 domain: P = exp2(c S - log2(e) LSE).
  Value lse =
      kb.create<ReadFragmentOp>("lse", column, lh, ValueRange{qw},
                                /*transpose=*/false, BoundsMode::partial);
  Value offset =
      kb.map("offset", column, {lse}, {"l"}, [&](ValueRange x) -> Value {
        return kb.create<arith::MulFOp>("r", x[0], minusLog2e);
      });

  // Causal: no key past the workgroup's last query.
  Value qEnd = kb.add("q_end", q0, kb.index(t.perWorkgroup()));
  Value kvCausal = kb.create<arith::MinUIOp>("kv_causal", nkv, qEnd);
  Value kvEnd = kb.create<arith::SelectOp>("kv_end", isCausal, kvCausal, nkv);
  FragmentType scores = frag(FragmentRole::acc, t.perTile, t.perWave, f32());
  Value sInit = kb.create<FillFragmentOp>("s_init", scores, zero);
  Value dqInit = kb.create<FillFragmentOp>("dq_init", transposedRows, zero);
  auto loop = kb.create<scf::ForOp>("dq", kb.index(0), kvEnd,
                                    kb.index(t.perTile), ValueRange{dqInit});
  {
    OpBuilder::InsertionGuard guard(kb.b);
    kb.b.setInsertionPointToStart(loop.getBody());
    Value kv = loop.getInductionVar();
    kv.setLoc(kb.loc("k"));
    Value dq = loop.getRegionIterArgs()[0];
    dq.setLoc(kb.loc("dq_acc"));
    kb.create<CopyToSharedOp>("", kh, kv, kb.index(0), ks, kb.index(0),
                              /*direct=*/false, /*transpose=*/false,
                              BoundsMode::partial);
    kb.create<CopyToSharedOp>("", vh, kv, kb.index(0), vs, kb.index(0),
                              /*direct=*/false, /*transpose=*/false,
                              BoundsMode::partial);
    if (!t.transposedReads)
      kb.create<CopyToSharedOp>("", kh, kv, kb.index(0), kts, kb.index(0),
                                /*direct=*/false, /*transpose=*/true,
                                BoundsMode::partial);
    kb.create<amdgpu::LDSBarrierOp>("");
    FragmentType keys = frag(FragmentRole::a, t.perTile, dd, bf16());
    Value kfrag = kb.create<LoadFragmentOp>("kf", keys, ks, kb.index(0),
                                            kb.index(0), kb.index(0),
                                            /*transpose=*/false);
    Value qOperand = qf ? qf : loadFixed("qf", qs);
    Value s =
        kb.create<MmaOp>("s", scores, kfrag, qOperand, sInit, ValueRange{});
    // Keys past Nkv and, when causal, past the query: P = 0.
    Value waveNeeds =
        attentionWaveNeedsMask(kb, kv, t.perTile, qw, nkv, isCausal);
    Value sm = attentionKeyMask(kb, s, unlikely(waveNeeds), kv, qw, nkv,
                                isCausal, minusInf);
    Value p = kb.map("p", scores, {sm, offset}, {"x", "off"},
                     [&](ValueRange x) -> Value {
                       Value y = kb.create<math::FmaOp>("y", x[0], scale, x[1]);
                       return kb.create<math::Exp2Op>("r", y);
                     });
    Value vfrag = kb.create<LoadFragmentOp>("vf", keys, vs, kb.index(0),
                                            kb.index(0), kb.index(0),
                                            /*transpose=*/false);
    Value doOperand = dof ? dof : loadFixed("dof", dos);
    Value dp =
        kb.create<MmaOp>("dp", scores, vfrag, doOperand, sInit, ValueRange{});
    Value ds = kb.map("ds", scores, {p, dp, dcol}, {"p", "dp", "dd"},
                      [&](ValueRange x) -> Value {
                        Value diff = kb.create<arith::SubFOp>("t", x[1], x[2]);
                        return kb.create<arith::MulFOp>("r", x[0], diff);
                      });
    Value dsf = attentionFiniteToOperand(kb, "dsf", ds);
    Value kt = kb.create<LoadFragmentOp>(
        "kt", frag({FragmentRole::a, KOrder::acc}, dd, t.perTile, bf16()), kts,
        kb.index(0), kb.index(0), kb.index(0),
        /*transpose=*/t.transposedReads);
    Value dqNew =
        kb.create<MmaOp>("dq_new", transposedRows, kt, dsf, dq, ValueRange{});
    // Nobody refills K or V while another wave still reads them.
    kb.create<amdgpu::LDSBarrierOp>("");
    kb.create<scf::YieldOp>("", ValueRange{dqNew});
  }
  Value dqOut = kb.map("dq_out", transposedRows, {loop.getResult(0)}, {"x"},
                       [&](ValueRange x) -> Value {
                         return kb.create<arith::MulFOp>("r", x[0], rsqrtD);
                       });
  kb.create<StoreFragmentOp>("", dqOut, dqh, qw, kb.index(0),
                             /*transpose=*/true, BoundsMode::partial);
}

//===----------------------------------------------------------------------===//
// dK and dV
//===----------------------------------------------------------------------===//

void BackwardEmitter::emitDkDv() {
  int64_t dd = d.headDim;
  kb.startNextKernel(
      kernelName(1), arguments(), t.waves * t.chip->waveSize,
      {{1, 2, t.perWorkgroup(), true}, {1, 1, 1, false}, {1, 0, 1, false}});
  emitCommon();
  Value kvHead = kb.create<gpu::BlockIdOp>("kv_head", gpu::Dimension::y);
  Value kblock = kb.create<gpu::BlockIdOp>("kblock", gpu::Dimension::x);
  Value kh = attentionHeadView(kb, "Kh", k, batch, kvHead, nkv, dd);
  Value vh = attentionHeadView(kb, "Vh", v, batch, kvHead, nkv, dd);
  Value dkh =
      attentionHeadView(kb, "dKh", kb.arg("dK"), batch, kvHead, nkv, dd);
  Value dvh =
      attentionHeadView(kb, "dVh", kb.arg("dV"), batch, kvHead, nkv, dd);

  Swizzle operands = operandSwizzle(t);
  ColumnPermutation perm = operandPermutation(t);
  // K and V pass through one tile (the fused pass keeps K in LDS for dQ);
  // Q and dO are read plainly (S = Q K^T, dP = dO V^T) and transposed
  // (dK^T = Q^T dS, dV^T = dO^T P).
  SharedTileType keys =
      kb.sharedTile(t.perWorkgroup(), dd, bf16(), operands, perm);
  bool oneTile = fixedInRegisters() && !fused();
  Value ks = kb.create<AllocSharedOp>(oneTile ? "KVs" : "Ks", keys);
  Value vs = oneTile ? ks : kb.create<AllocSharedOp>("Vs", keys);
  qs = kb.create<AllocSharedOp>(
      "Qs", kb.sharedTile(t.perTile, dd, bf16(), operands, perm));
  dos = kb.create<AllocSharedOp>(
      "dOs", kb.sharedTile(t.perTile, dd, bf16(), operands, perm));
  qts = qs;
  dots = dos;
  if (!t.transposedReads) {
    Swizzle transposed = transposedSwizzle(t);
    qts = kb.create<AllocSharedOp>(
        "Qts", kb.sharedTile(dd, t.perTile, bf16(), transposed));
    dots = kb.create<AllocSharedOp>(
        "dOts", kb.sharedTile(dd, t.perTile, bf16(), transposed));
  }

  Value k0 = kb.mul("k0", kblock, kb.index(t.perWorkgroup()));
  // The thread id's quotient, not KernelBuilder::waveIndex: with the wave
  // index scalar, the dK/dV loop measured slower (llvm-mca, d = 128: 842.7
  // -> 939.7 cycles per trip), where the dQ loop gains.
  Value tid = kb.create<gpu::ThreadIdOp>("tid", gpu::Dimension::x);
  Value wave = kb.div("wave", tid, kb.index(t.chip->waveSize));
  wk = kb.mul("wk", wave, kb.index(t.perWave));
  kw = kb.add("kw", k0, wk);
  // This wave's K and V, B operands held for the whole loop (through one
  // tile), or left in their tiles for the loop to read.
  FragmentType operand = frag(FragmentRole::b, t.perWave, dd, bf16());
  kvTiles[0] = ks;
  kvTiles[1] = vs;
  Value sources[] = {kh, vh};
  for (int i = 0; i < 2; ++i) {
    // V replaces K in the one tile once every wave has read its K.
    if (i == 1 && oneTile)
      kb.create<amdgpu::LDSBarrierOp>("");
    kb.create<CopyToSharedOp>("", sources[i], k0, kb.index(0), kvTiles[i],
                              kb.index(0), /*direct=*/false,
                              /*transpose=*/false, BoundsMode::partial);
    if (!fixedInRegisters())
      continue;
    kb.create<amdgpu::LDSBarrierOp>("");
    (i == 0 ? kf : vf) = kb.create<LoadFragmentOp>(
        i == 0 ? "kf" : "vf", operand, kvTiles[i], kb.index(0), wk, kb.index(0),
        /*transpose=*/false);
  }
  if (fused())
    emitDqSetup(k0, kh, wave);
  // The next fill of KVs (or of Q, dO) waits for every wave's reads.
  kb.create<amdgpu::LDSBarrierOp>("");

  // Causal: the queries before the block's first key see none of its keys.
  Value firstTile =
      kb.mul("first_tile", kb.div("k0_tiles", k0, kb.index(t.perTile)),
             kb.index(t.perTile));
  Value qStart =
      kb.create<arith::SelectOp>("q_start", isCausal, firstTile, kb.index(0));
  FragmentType grads = frag(FragmentRole::acc, dd, t.perWave, f32());
  Value dkInit = kb.create<FillFragmentOp>("dk_init", grads, zero);
  Value dvInit = kb.create<FillFragmentOp>("dv_init", grads, zero);
  // Every query head of this kv head, in order (GQA), then its tiles.
  Value firstHead = kb.mul("first_head", kvHead, group);
  auto heads = kb.create<scf::ForOp>("grads", kb.index(0), group, kb.index(1),
                                     ValueRange{dkInit, dvInit});
  {
    OpBuilder::InsertionGuard guard(kb.b);
    kb.b.setInsertionPointToStart(heads.getBody());
    heads.getInductionVar().setLoc(kb.loc("i"));
    Value head = kb.add("head", firstHead, heads.getInductionVar());
    auto tiles = kb.create<scf::ForOp>("acc", qStart, nq, kb.index(t.perTile),
                                       heads.getRegionIterArgs());
    emitDkDvTile(tiles, head);
    kb.create<scf::YieldOp>("", tiles.getResults());
  }
  Value dests[] = {dkh, dvh};
  for (auto [i, dest] : llvm::enumerate(dests)) {
    Value out = heads.getResult(i);
    if (i == 0)
      out = kb.map("dk_out", grads, {out}, {"x"}, [&](ValueRange x) -> Value {
        return kb.create<arith::MulFOp>("r", x[0], rsqrtD);
      });
    kb.create<StoreFragmentOp>("", out, dest, kw, kb.index(0),
                               /*transpose=*/true, BoundsMode::partial);
  }
}

void BackwardEmitter::emitDkDvTile(scf::ForOp loop, Value head) {
  int64_t dd = d.headDim;
  OpBuilder::InsertionGuard guard(kb.b);
  kb.b.setInsertionPointToStart(loop.getBody());
  Value q0 = loop.getInductionVar();
  q0.setLoc(kb.loc("q"));
  Value dk = loop.getRegionIterArgs()[0], dv = loop.getRegionIterArgs()[1];
  dk.setLoc(kb.loc("dk"));
  dv.setLoc(kb.loc("dv"));
  Value qh = attentionHeadView(kb, "Qh", q, batch, head, nq, dd);
  Value doh = attentionHeadView(kb, "dOh", kb.arg("dO"), batch, head, nq, dd);
  Value lh = attentionHeadVector(kb, "Lh", kb.arg("LSE"), batch, head, nq);
  Value dh = attentionHeadVector(kb, "Dh", kb.arg("D"), batch, head, nq);
  for (auto [source, tile, transposed] :
       {std::tuple{qh, qs, qts}, std::tuple{doh, dos, dots}}) {
    kb.create<CopyToSharedOp>("", source, q0, kb.index(0), tile, kb.index(0),
                              /*direct=*/false, /*transpose=*/false,
                              BoundsMode::partial);
    if (transposed != tile)
      kb.create<CopyToSharedOp>("", source, q0, kb.index(0), transposed,
                                kb.index(0), /*direct=*/false,
                                /*transpose=*/true, BoundsMode::partial);
  }
  kb.create<amdgpu::LDSBarrierOp>("");
  // The tile's LSE and D before the MMAs, in the loop's first block (after
  // the mask's branch LLVM would issue and wait for each load alone).
  FragmentType rowVector = frag(FragmentRole::row, t.perTile, 1, f32());
  Value lse =
      kb.create<ReadFragmentOp>("lse", rowVector, lh, ValueRange{q0},
                                /*transpose=*/false, BoundsMode::partial);
  Value dRow =
      kb.create<ReadFragmentOp>("D_q", rowVector, dh, ValueRange{q0},
                                /*transpose=*/false, BoundsMode::partial);
  Value offset =
      kb.map("offset", rowVector, {lse}, {"l"}, [&](ValueRange x) -> Value {
        return kb.create<arith::MulFOp>("r", x[0], minusLog2e);
      });

  // S = Q K^T: rows the tile's queries, columns this wave's keys. Queries
  // past Nq read as zeros (Q, dO, LSE and D): they add nothing.
  FragmentType scores = frag(FragmentRole::acc, t.perTile, t.perWave, f32());
  FragmentType rows = frag(FragmentRole::a, t.perTile, dd, bf16());
  Value sInit = kb.create<FillFragmentOp>("s_init", scores, zero);
  Value qa = kb.create<LoadFragmentOp>("qa", rows, qs, kb.index(0), kb.index(0),
                                       kb.index(0),
                                       /*transpose=*/false);
  FragmentType operand = frag(FragmentRole::b, t.perWave, dd, bf16());
  auto fixed = [&](int i) -> Value {
    if (Value f = i == 0 ? kf : vf)
      return f;
    return kb.create<LoadFragmentOp>(i == 0 ? "kf" : "vf", operand, kvTiles[i],
                                     kb.index(0), wk, kb.index(0),
                                     /*transpose=*/false);
  };
  // The fused pass (gfx950) keeps S's and dP's MFMAs apart from the
  // softmax's VALU work around them (hk-perf, d = 128: 1846 -> 1724 cycles a
  // trip; llvm-mca 1102 -> 1121, against 1147 with neither).
  bool fence = fused() && fixedInRegisters();
  auto mma = [&](StringRef name, Value a, Value b) -> Value {
    if (!fence)
      return kb.create<MmaOp>(name, scores, a, b, sInit, ValueRange{});
    return kb.cluster(name, scores, /*alternating=*/false, [&] {
      return kb.create<MmaOp>((name + "_mma").str(), scores, a, b, sInit,
                              ValueRange{});
    });
  };
  Value s = mma("s", qa, fixed(0));
  // Causal: keys past the query get P = 0; only tiles whose first query
  // comes before this wave's last key need it.
  Value kLast = kb.add("k_last", kw, kb.index(t.perWave - 1));
  Value before = kb.create<arith::CmpIOp>("before_keys",
                                          arith::CmpIPredicate::ugt, kLast, q0);
  Value needsMask = kb.create<arith::AndIOp>("needs_mask", isCausal, before);
  auto ifOp = kb.create<scf::IfOp>("sm", TypeRange{scores}, unlikely(needsMask),
                                   /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard inner(kb.b);
    kb.b.setInsertionPointToStart(ifOp.thenBlock());
    kb.create<scf::YieldOp>("", emitCausalMask(s, q0, kw));
    kb.b.setInsertionPointToStart(ifOp.elseBlock());
    kb.create<scf::YieldOp>("", s);
  }
  Value p = kb.map("p", scores, {ifOp.getResult(0), offset}, {"x", "off"},
                   [&](ValueRange x) -> Value {
                     Value y = kb.create<math::FmaOp>("y", x[0], scale, x[1]);
                     return kb.create<math::Exp2Op>("r", y);
                   });
  // dV^T += dO^T P: P as the B operand in place.
  FragmentType transposedRows =
      frag({FragmentRole::a, KOrder::acc}, dd, t.perTile, bf16());
  Value pf = attentionFiniteToOperand(kb, "pf", p);
  Value dot = kb.create<LoadFragmentOp>("dot", transposedRows, dots,
                                        kb.index(0), kb.index(0), kb.index(0),
                                        /*transpose=*/t.transposedReads);
  FragmentType grads = frag(FragmentRole::acc, dd, t.perWave, f32());
  Value dvNew = kb.create<MmaOp>("dv_new", grads, dot, pf, dv, ValueRange{});
  // dP = dO V^T, dS = P (dP - D), dK^T += Q^T dS.
  Value doa = kb.create<LoadFragmentOp>("doa", rows, dos, kb.index(0),
                                        kb.index(0), kb.index(0),
                                        /*transpose=*/false);
  Value dp = mma("dp", doa, fixed(1));
  Value ds = kb.map("ds", scores, {p, dp, dRow}, {"p", "dp", "dd"},
                    [&](ValueRange x) -> Value {
                      Value diff = kb.create<arith::SubFOp>("t", x[1], x[2]);
                      return kb.create<arith::MulFOp>("r", x[0], diff);
                    });
  Value dsf = attentionFiniteToOperand(kb, "dsf", ds);
  auto loadQt = [&]() -> Value {
    return kb.create<LoadFragmentOp>("qt", transposedRows, qts, kb.index(0),
                                     kb.index(0), kb.index(0),
                                     /*transpose=*/t.transposedReads);
  };
  Value dkNew = fused() ? emitDqTile(ds, q0, head, loadQt, dsf, dk)
                        : kb.create<MmaOp>("dk_new", grads, loadQt(), dsf, dk,
                                           ValueRange{});
  // Nobody refills Q or dO (or dS) while another wave still reads them.
  // (The fused pass is correct without it, its dS barrier following every
  // read of Q and dO; with it, hk-multi-buffer double-buffers their fills,
  // which hk-perf measures faster: d = 128, 2169 -> 2016 cycles a trip.)
  kb.create<amdgpu::LDSBarrierOp>("");
  kb.create<scf::YieldOp>("", ValueRange{dkNew, dvNew});
}

gpu::GPUModuleOp BackwardEmitter::emit() {
  if (!fused()) {
    emitDq();
    kb.finishKernel();
    emitDkDv();
    return kb.finishKernel();
  }
  emitRowDotsKernel();
  kb.finishKernel();
  emitDkDv();
  kb.finishKernel();
  emitDqConvertKernel();
  return kb.finishKernel();
}

std::vector<std::string>
mlir::hk::kernels::getAttentionBackwardKernelNames(int64_t headDim,
                                                   bool deterministic) {
  auto name = [&](StringRef part) {
    return llvm::formatv("attention_bwd_{0}_bf16_d{1}", part, headDim).str();
  };
  if (deterministic)
    return {name("dq"), name("dkdv")};
  return {name("dot"), name("fused"), name("dq_convert")};
}

llvm::Expected<gpu::GPUModuleOp>
mlir::hk::kernels::buildAttentionBackwardKernels(
    OpBuilder &builder, const AttentionDescription &description) {
  llvm::Expected<AttentionDescription> resolved = resolveAttention(description);
  if (!resolved)
    return resolved.takeError();
  builder.getContext()
      ->loadDialect<HKDialect, amdgpu::AMDGPUDialect, arith::ArithDialect,
                    gpu::GPUDialect, LLVM::LLVMDialect, math::MathDialect,
                    memref::MemRefDialect, ROCDL::ROCDLDialect,
                    scf::SCFDialect>();
  OpBuilder::InsertionGuard guard(builder);
  gpu::GPUModuleOp kernels = BackwardEmitter(builder, *resolved).emit();
  if (llvm::Error e = verifyKernel(kernels))
    return std::move(e);
  return kernels;
}

std::string mlir::hk::kernels::describeAttentionBackwardKernels(
    const AttentionDescription &d) {
  AttentionTiles t = planBackwardTiles(d);
  std::string text;
  llvm::raw_string_ostream os(text);
  int64_t dim = d.headDim;
  os << "FlashAttention-2 backward, bf16, head dim " << dim << ", for "
     << t.chip->name << " (" << t.chip->family << "): dQ, dK, dV from Q, K, "
     << "V, the forward's O and LSE, and dO.\n\n";
  os << "  P = exp(S - LSE), S = Q K^T / sqrt(" << dim
     << ") (masked as the forward), D = rowsum(dO * O)\n"
     << "  dV_g = sum_h P^T dO, dP = dO V^T, dS = P (dP - D)\n"
     << "  dQ = dS K / sqrt(" << dim << "), dK_g = sum_h dS^T Q / sqrt(" << dim
     << "),   g = h / (Hq / Hkv)   (GQA)\n\n";
  if (!d.deterministic) {
    describeFusedBackward(os, d, t);
    return text;
  }
  os << "Q, O, dO, dQ [B, Hq, Nq, " << dim << "], K, V, dK, dV [B, Hkv, Nkv, "
     << dim
     << "] bf16; LSE, D [B, Hq, Nq] f32 (D is written by the first "
        "kernel, read by the second). `causal` != 0: the forward's top-left "
        "mask. Any Nq, Nkv >= 1. Both kernels take this argument list.\n\n"
        "Deterministic: no atomics, the same bits on every run; S and P are "
        "computed in both kernels (7 GEMMs per tile for the work of 5).\n\n";
  os << "attention_bwd_dq_bf16_d" << dim << ": one workgroup of " << t.waves
     << " waves per " << t.perWorkgroup() << " queries of one (batch, head), "
     << t.perWave << " per wave, grid (ceil(Nq / " << t.perWorkgroup()
     << "), Hq, B). Each wave stores D for its queries (dO^T and O^T read "
        "transposed, a column sum), then runs over KV tiles of "
     << t.perTile
     << " keys transposed as the forward: S^T = K Q^T, dP^T = V dO^T, "
        "dS^T = P^T (dP^T - D), dQ^T += K^T dS^T with dS^T the B operand "
        "in place; "
     << (t.transposedReads
             ? "K^T is read transposed from LDS; Q and dO stay in registers."
             : "K^T is written transposed into LDS; Q and dO are read from "
               "LDS every tile.")
     << "\n\n";
  os << "attention_bwd_dkdv_bf16_d" << dim << ": one workgroup of " << t.waves
     << " waves per " << t.perWorkgroup() << " keys of one (batch, kv head), "
     << t.perWave << " per wave, grid (ceil(Nkv / " << t.perWorkgroup()
     << "), Hkv, B). "
     << (t.transposedReads
             ? "K and V stay in registers"
             : "K and V stay in LDS, read every tile (as Q and dO in the dQ "
               "kernel: a wave32 wave's 256 VGPRs do not hold them beside "
               "the accumulators)")
     << "; the loop runs over the query heads of the kv head, then their "
        "tiles of "
     << t.perTile
     << " queries (causal: from the block's first key's tile on): S = Q K^T, "
        "dV^T += dO^T P, dP = dO V^T, dS = P (dP - D), dK^T += Q^T dS, P and "
        "dS the B operands in place; dK and dV accumulate in registers in a "
        "fixed order (no atomics). "
     << (t.transposedReads ? "Q^T and dO^T are read transposed from LDS."
                           : "Q^T and dO^T are written transposed into LDS.");
  return text;
}
