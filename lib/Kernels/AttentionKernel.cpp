//===- AttentionKernel.cpp - the FlashAttention forward kernel ------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// FlashAttention-2 forward, computed transposed (S^T = K Q^T, O^T = V^T P^T)
// so that a lane holds whole query columns: the softmax statistics are
// column vectors and P^T is already the B operand of the second MMA. The
// rescale of O is lazy (only when some query's maximum rose by more than
// 8 / c, a factor 2^8 of the probabilities), and only the tiles past the
// causal diagonal or the end of the keys pay for the mask.
//
//===----------------------------------------------------------------------===//

#include "HK/Kernels/Attention.h"

#include "AttentionCommon.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hk;
using namespace mlir::hk::kernels;

namespace {
/// What a resolved description implies.
struct AttentionPlan {
  AttentionDescription d;
  /// Queries per wave (perWave) and per workgroup, keys per KV tile
  /// (perTile); gfx950 reads V transposed from LDS, gfx1201 transposes it
  /// in the copy.
  AttentionTiles t;
};

class AttentionEmitter {
public:
  AttentionEmitter(OpBuilder &b, const AttentionPlan &p)
      : kb(b, *p.t.chip), p(p) {}
  gpu::GPUModuleOp emit();

private:
  KernelBuilder kb;
  const AttentionPlan &p;
  MLIRContext *ctx() { return kb.getContext(); }
  Type bf16() { return BFloat16Type::get(ctx()); }
  Type f32() { return Float32Type::get(ctx()); }
  FragmentType frag(FragmentLayout layout, int64_t rows, int64_t cols,
                    Type element) {
    return kb.fragment(layout, rows, cols, element, p.t.mma);
  }
  FragmentType column() {
    return frag(FragmentRole::col, 1, p.t.perWave, f32());
  }
  FragmentType scores() {
    return frag(FragmentRole::acc, p.t.perTile, p.t.perWave, f32());
  }
  FragmentType output() {
    return frag(FragmentRole::acc, p.d.headDim, p.t.perWave, f32());
  }
  Value emitKeyFragment();
  /// S^T's operand layout for `side` (a or b): the MMA's k order, or run-k
  /// where that order needs permuted tiles.
  FragmentLayout scoreOperandLayout(FragmentRole side) const;
  Value emitValueFragment();
  Value emitMask(Value s, Value k, Value inMaskTiles);
  std::array<Value, 3> emitRescale(Value m, Value l, Value o, Value tileMax);
  /// P^T = exp2(c S^T - c m) as the next MMA's B operand, and l + colsum P^T.
  std::pair<Value, Value> emitProbabilities(Value s, Value m, Value l);
  /// Fills K from row `kRow` and V from row `vRow`, then the barrier.
  void emitFills(Value kRow, Value vRow);
  void emitProgramOrderBody(scf::ForOp loop);
  void emitPipelinedBody(scf::ForOp loop);
  /// A full fence for the backend's scheduler (amdgpu.sched_barrier).
  void fence();
  Value scalar(StringRef name, double value) { return kb.f32(name, value); }

  // Values the loop body uses.
  Value kh, vh, ks, vs, qf, qw, nkv, isCausal, kvMasked, kvMaskedAhead, sInit;
  Value zero, minusInf, scale, minusScale, threshold, falseI1;
};
} // namespace

static llvm::Error refuse(const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "no attention kernel: " + why);
}

llvm::Expected<AttentionDescription>
mlir::hk::kernels::resolveAttention(const AttentionDescription &description) {
  if (description.headDim != 64 && description.headDim != 128)
    return refuse("the head dimension must be 64 or 128, not " +
                  llvm::Twine(description.headDim));
  AttentionDescription d = description;
  const ChipInfo &chip = getChipInfo(d.chip);
  if (!d.mma)
    d.mma =
        d.chip == Chip::gfx950 ? MmaShape{32, 32, 16} : MmaShape{16, 16, 16};
  const MmaInstr *instr =
      chip.findMma(*d.mma, ElementKind::bf16, ElementKind::f32);
  // S^T's 64 keys and the queries of a wave are whole fragments of either
  // shape; a k of 16 or 32 divides both d and the KV tile.
  if (!instr)
    return refuse(llvm::formatv("{0} has no bf16 MMA of shape {1}x{2}x{3} "
                                "(its shapes: {4})",
                                chip.name, d.mma->m, d.mma->n, d.mma->k,
                                chip.describeMmaShapes())
                      .str());
  if (!d.scoresAhead)
    d.scoresAhead = d.chip == Chip::gfx950;
  if (!d.waves)
    d.waves = d.chip == Chip::gfx950 ? 8 : 4;
  if (*d.waves != 4 && *d.waves != 8)
    return refuse("a workgroup has 4 or 8 waves, not " + llvm::Twine(*d.waves));
  // The transposing copy moves 4 x 4 blocks, 128 of them per V tile.
  if (*d.waves == 8 && !chip.transposedLdsReads)
    return refuse(llvm::formatv("8 waves need transposed LDS reads: {0} "
                                "transposes V in its copy, whose 128 blocks "
                                "per tile do not split over 8 waves",
                                chip.name)
                      .str());
  if (d.mma->m != d.mma->n)
    return refuse("the MMA must be square (M = N), as S^T's rows are the "
                  "MMA's M and O^T's are its N");
  return d;
}

static AttentionPlan planAttention(const AttentionDescription &d) {
  return AttentionPlan{d, planAttentionTiles(d)};
}

gpu::GPUModuleOp AttentionEmitter::emit() {
  int64_t d = p.d.headDim, dyn = ShapedType::kDynamic;
  Type heads = MemRefType::get({dyn, dyn, dyn, d}, bf16());
  std::string name = llvm::formatv("attention_fwd_bf16_d{0}", d).str();
  kb.startKernel(
      "hk_attention", name,
      {{"Q", heads},
       {"K", heads},
       {"V", heads},
       {"O", heads},
       {"LSE", MemRefType::get({dyn, dyn, dyn}, f32())},
       {"causal", kb.b.getI32Type()}},
      p.t.waves * p.t.chip->waveSize,
      {{0, 2, p.t.perWorkgroup(), true}, {0, 1, 1, false}, {0, 0, 1, false}});
  Value zeroI32 = kb.create<arith::ConstantIntOp>("zero_i32", 0, 32);
  falseI1 = kb.create<arith::ConstantIntOp>("false", 0, 1);
  zero = scalar("zero", 0.0);
  minusInf = scalar("minus_inf", -INFINITY);
  // log2(e) / sqrt(d): the softmax scale folded into exp2.
  double c = M_LOG2E / std::sqrt(double(d));
  scale = scalar("scale", c);
  minusScale = scalar("minus_scale", -c);
  Value ln2 = scalar("ln2", M_LN2);
  // The lazy rescale threshold: a rise of the raw scores' maximum by 8 / c,
  // 8 in the exp2 domain (probabilities up to 2^8), compared without the
  // multiply by c.
  threshold = scalar("rescale_threshold", 8.0 / c);

  // This workgroup's (batch, head) and its heads' 2-D views.
  Value batch = kb.create<gpu::BlockIdOp>("batch", gpu::Dimension::z);
  Value head = kb.create<gpu::BlockIdOp>("head", gpu::Dimension::y);
  Value qblock = kb.create<gpu::BlockIdOp>("qblock", gpu::Dimension::x);
  Value q = kb.arg("Q"), k = kb.arg("K");
  Value hq = kb.dim("Hq", q, 1), nq = kb.dim("Nq", q, 2);
  Value hkv = kb.dim("Hkv", k, 1);
  nkv = kb.dim("Nkv", k, 2);
  Value group = kb.div("group", hq, hkv);
  Value kvHead = kb.div("kv_head", head, group);
  Value qh = attentionHeadView(kb, "Qh", q, batch, head, nq, d);
  kh = attentionHeadView(kb, "Kh", k, batch, kvHead, nkv, d);
  vh = attentionHeadView(kb, "Vh", kb.arg("V"), batch, kvHead, nkv, d);
  Value oh = attentionHeadView(kb, "Oh", kb.arg("O"), batch, head, nq, d);
  Value lh = attentionHeadVector(kb, "Lh", kb.arg("LSE"), batch, head, nq);

  // Q and K feed only S^T = K Q^T, whose sum over d is the same in any k
  // order both operands share: where the MMA's own order is not a run per
  // lane (gfx1201), they are run-k operands of unpermuted tiles, so that
  // the fills store whole 16-byte chunks.
  Swizzle operands = operandSwizzle(p.t);
  Value qs = kb.create<AllocSharedOp>(
      "Qs", kb.sharedTile(p.t.perWorkgroup(), d, bf16(), operands));
  ks = kb.create<AllocSharedOp>(
      "Ks", kb.sharedTile(p.t.perTile, d, bf16(), operands));
  // V as it is (read transposed) or V^T (written transposed, read plainly).
  Swizzle transposed = transposedSwizzle(p.t);
  vs = kb.create<AllocSharedOp>(
      "Vs", p.t.transposedReads
                ? kb.sharedTile(p.t.perTile, d, bf16(), transposed)
                : kb.sharedTile(d, p.t.perTile, bf16(), transposed));

  // The workgroup's queries and this wave's (its B operand, kept in
  // registers for the whole loop).
  Value q0 = kb.mul("q0", qblock, kb.index(p.t.perWorkgroup()));
  Value wave = kb.waveIndex("wave");
  Value wq = kb.mul("wq", wave, kb.index(p.t.perWave));
  qw = kb.add("qw", q0, wq);
  kb.create<CopyToSharedOp>("", qh, q0, kb.index(0), qs, kb.index(0),
                            /*direct=*/false, /*transpose=*/false,
                            BoundsMode::partial);
  // Scores one tile ahead: the first tile's come before the loop.
  if (*p.d.scoresAhead)
    kb.create<CopyToSharedOp>("", kh, kb.index(0), kb.index(0), ks, kb.index(0),
                              /*direct=*/false,
                              /*transpose=*/false, BoundsMode::partial);
  kb.create<amdgpu::LDSBarrierOp>("");
  qf = kb.create<LoadFragmentOp>(
      "qf", frag(scoreOperandLayout(FragmentRole::b), p.t.perWave, d, bf16()),
      qs, kb.index(0), wq, kb.index(0), /*transpose=*/false);
  sInit = kb.create<FillFragmentOp>("s_init", scores(), zero);
  Value sFirst;
  if (*p.d.scoresAhead) {
    sFirst = kb.create<MmaOp>("s_first", scores(), emitKeyFragment(), qf, sInit,
                              ValueRange{});
    // The loop's first fill overwrites K.
    kb.create<amdgpu::LDSBarrierOp>("");
  }

  // Causal: no key past the workgroup's last query is needed.
  isCausal = kb.create<arith::CmpIOp>("is_causal", arith::CmpIPredicate::ne,
                                      kb.arg("causal"), zeroI32);
  Value qEnd = kb.add("q_end", q0, kb.index(p.t.perWorkgroup()));
  Value kvCausal = kb.create<arith::MinUIOp>("kv_causal", nkv, qEnd);
  Value kvEnd = kb.create<arith::SelectOp>("kv_end", isCausal, kvCausal, nkv);
  // No wave needs a mask on the tiles before kv_masked: they hold no key
  // past Nkv and none past the workgroup's first query. hk-split-loops
  // moves the tiles from there on out of the steady-state loop.
  Value wholeTiles = kb.div("kv_whole_tiles", nkv, kb.index(p.t.perTile));
  Value whole = kb.mul("kv_whole", wholeTiles, kb.index(p.t.perTile));
  Value diagonal = kb.create<arith::MinUIOp>("kv_diagonal", q0, whole);
  kvMasked = kb.create<arith::SelectOp>("kv_masked", isCausal, diagonal, whole);

  Value mInit = kb.create<FillFragmentOp>("m_init", column(), minusInf);
  Value lInit = kb.create<FillFragmentOp>("l_init", column(), zero);
  Value oInit = kb.create<FillFragmentOp>("o_init", output(), zero);
  SmallVector<Value> init{mInit, lInit, oInit};
  if (*p.d.scoresAhead) {
    // A trip masks the next tile: from kv_masked - perTile on (0 at least)
    // it may need to.
    Value tile = kb.index(p.t.perTile);
    kvMaskedAhead = kb.create<arith::SubIOp>(
        "kv_masked_ahead",
        kb.create<arith::MaxUIOp>("kv_masked_tile", kvMasked, tile), tile);
    // The first tile's mask and its m, before the loop.
    Value first = kb.index(0);
    Value sm = emitMask(sFirst, first,
                        kb.create<arith::CmpIOp>("first_in_mask_tiles",
                                                 arith::CmpIPredicate::uge,
                                                 first, kvMasked));
    Value tileMax =
        kb.create<ReduceOp>("first_max", column(), ReduceKind::max, sm);
    auto [m, l, o] = emitRescale(mInit, lInit, oInit, tileMax);
    init = {m, l, o, sm};
  }
  auto loop = kb.create<scf::ForOp>("state", kb.index(0), kvEnd,
                                    kb.index(p.t.perTile), init);
  if (*p.d.scoresAhead)
    emitPipelinedBody(loop);
  else
    emitProgramOrderBody(loop);

  // O = (O^T / l)^T in bf16, LSE = ln(2) (c m + log2 l).
  Value out = kb.map("out", output(), {loop.getResult(2), loop.getResult(1)},
                     {"x", "sum"}, [&](ValueRange x) -> Value {
                       return kb.create<arith::DivFOp>("r", x[0], x[1]);
                     });
  kb.create<StoreFragmentOp>("", out, oh, qw, kb.index(0), /*transpose=*/true,
                             BoundsMode::partial);
  Value lse = kb.map("lse", column(), {loop.getResult(0), loop.getResult(1)},
                     {"max", "sum"}, [&](ValueRange x) -> Value {
                       Value lg = kb.create<math::Log2Op>("lg", x[1]);
                       Value t = kb.create<math::FmaOp>("t", x[0], scale, lg);
                       return kb.create<arith::MulFOp>("r", t, ln2);
                     });
  kb.create<StoreFragmentOp>("", lse, lh, kb.index(0), qw,
                             /*transpose=*/false, BoundsMode::partial);
  return kb.finishKernel();
}

Value AttentionEmitter::emitKeyFragment() {
  // S^T = K Q^T: rows are the tile's keys, columns this wave's queries.
  return kb.create<LoadFragmentOp>("kf",
                                   frag(scoreOperandLayout(FragmentRole::a),
                                        p.t.perTile, p.d.headDim, bf16()),
                                   ks, kb.index(0), kb.index(0), kb.index(0),
                                   /*transpose=*/false);
}

FragmentLayout AttentionEmitter::scoreOperandLayout(FragmentRole side) const {
  if (operandPermutation(p.t) == ColumnPermutation::identity)
    return side;
  return {side, KOrder::run};
}

Value AttentionEmitter::emitValueFragment() {
  // V^T, the A operand of O^T = V^T P^T.
  return kb.create<LoadFragmentOp>(
      "vt",
      frag({FragmentRole::a, KOrder::acc}, p.d.headDim, p.t.perTile, bf16()),
      vs, kb.index(0), kb.index(0), kb.index(0),
      /*transpose=*/p.t.transposedReads);
}

Value AttentionEmitter::emitMask(Value s, Value k, Value inMaskTiles) {
  // Keys past Nkv (the tail) and, when causal, past the query get -inf;
  // only tiles past kv_masked (`inMaskTiles`) can hold them.
  Value waveNeeds =
      attentionWaveNeedsMask(kb, k, p.t.perTile, qw, nkv, isCausal);
  Value needsMask =
      kb.create<arith::AndIOp>("needs_mask", inMaskTiles, waveNeeds);
  return attentionKeyMask(kb, s, needsMask, k, qw, nkv, isCausal, minusInf);
}

void AttentionEmitter::fence() {
  kb.create<amdgpu::SchedBarrierOp>(
      "", amdgpu::sched_barrier_opt_enumAttr::get(
              ctx(), amdgpu::sched_barrier_opt_enum::none));
}

std::pair<Value, Value> AttentionEmitter::emitProbabilities(Value s, Value m,
                                                            Value l) {
  Value offset =
      kb.map("offset", column(), {m}, {"new"}, [&](ValueRange x) -> Value {
        return kb.create<arith::MulFOp>("r", x[0], minusScale);
      });
  Value probs = kb.map(
      "p", scores(), {s, offset}, {"x", "off"}, [&](ValueRange x) -> Value {
        Value y = kb.create<math::FmaOp>("y", x[0], scale, x[1]);
        return kb.create<math::Exp2Op>("r", y);
      });
  Value pSum = kb.create<ReduceOp>("p_sum", column(), ReduceKind::sum, probs);
  Value lNew = kb.map("l_new", column(), {l, pSum}, {"lo", "ps"},
                      [&](ValueRange x) -> Value {
                        return kb.create<arith::AddFOp>("r", x[0], x[1]);
                      });
  // P is finite (exp2 of at most 8): the B operand of O^T += V^T P^T.
  return {attentionFiniteToOperand(kb, "pf", probs), lNew};
}

std::array<Value, 3> AttentionEmitter::emitRescale(Value m, Value l, Value o,
                                                   Value tileMax) {
  // The running maximum m stays as it is unless some query's tile maximum
  // t exceeds it by more than 8 / c (8 in the exp2 domain; one vote for the
  // whole wave). A stale m keeps the probabilities below 2^8 and O, l and m
  // consistent: the same sums, scaled by exp2(c (max - m)) until the final
  // division.
  auto any =
      kb.create<AnyOp>("rescale", kb.b.getI1Type(), ValueRange{tileMax, m});
  {
    OpBuilder::InsertionGuard guard(kb.b);
    Block *block = kb.startBlock(any.getBody(), {f32(), f32()}, {"t", "old"});
    Value rise = kb.create<arith::SubFOp>("rise", block->getArgument(0),
                                          block->getArgument(1));
    Value big = kb.create<arith::CmpFOp>("big", arith::CmpFPredicate::UGT, rise,
                                         threshold);
    kb.create<YieldOp>("", big);
  }
  // Rare after the first tiles: said to LLVM (llvm.expect), whose block
  // placement then puts the rescale after the loop, out of the steady
  // state's straight line.
  Value rare =
      kb.create<LLVM::ExpectOp>("rescale_expected", any.getResult(), falseI1);
  auto ifOp =
      kb.create<scf::IfOp>("m_new", TypeRange{column(), column(), output()},
                           rare, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(kb.b);
  kb.b.setInsertionPointToStart(ifOp.thenBlock());
  Value mMax = kb.map("m_max", column(), {m, tileMax}, {"a", "b"},
                      [&](ValueRange x) -> Value {
                        return kb.create<arith::MaximumFOp>("r", x[0], x[1]);
                      });
  // alpha = exp2(c (m - m')): 0 on the first tile (m = -inf).
  Value alpha = kb.map("alpha", column(), {m, mMax}, {"old", "new"},
                       [&](ValueRange x) -> Value {
                         Value d = kb.create<arith::SubFOp>("d", x[0], x[1]);
                         Value y = kb.create<arith::MulFOp>("x", d, scale);
                         return kb.create<math::Exp2Op>("r", y);
                       });
  auto scaled = [&](StringRef name, Type type, Value v, StringRef arg) {
    return kb.map(name, type, {v, alpha}, {arg, "al"},
                  [&](ValueRange x) -> Value {
                    return kb.create<arith::MulFOp>("r", x[0], x[1]);
                  });
  };
  Value lAlpha = scaled("l_alpha", column(), l, "lo");
  Value oAlpha = scaled("o_alpha", output(), o, "x");
  kb.create<scf::YieldOp>("", ValueRange{mMax, lAlpha, oAlpha});
  kb.b.setInsertionPointToStart(ifOp.elseBlock());
  kb.create<scf::YieldOp>("", ValueRange{m, l, o});
  return {ifOp.getResult(0), ifOp.getResult(1), ifOp.getResult(2)};
}

/// The loop-carried state, named.
static std::array<Value, 4> namedState(KernelBuilder &kb, scf::ForOp loop) {
  Value k = loop.getInductionVar();
  k.setLoc(kb.loc("k"));
  std::array<Value, 4> state{k};
  const char *names[] = {"m", "l", "o", "s"};
  for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
    arg.setLoc(kb.loc(names[i]));
    if (i < 3)
      state[i + 1] = arg;
  }
  return state;
}

void AttentionEmitter::emitFills(Value kRow, Value vRow) {
  kb.create<CopyToSharedOp>("", kh, kRow, kb.index(0), ks, kb.index(0),
                            /*direct=*/false, /*transpose=*/false,
                            BoundsMode::partial);
  kb.create<CopyToSharedOp>("", vh, vRow, kb.index(0), vs, kb.index(0),
                            /*direct=*/false,
                            /*transpose=*/!p.t.transposedReads,
                            BoundsMode::partial);
  kb.create<amdgpu::LDSBarrierOp>("");
}

void AttentionEmitter::emitProgramOrderBody(scf::ForOp loop) {
  auto [k, m, l, o] = namedState(kb, loop);
  OpBuilder::InsertionGuard guard(kb.b);
  kb.b.setInsertionPointToStart(loop.getBody());
  emitFills(k, k);
  Value s = kb.create<MmaOp>("s", scores(), emitKeyFragment(), qf, sInit,
                             ValueRange{});
  Value sm =
      emitMask(s, k,
               kb.create<arith::CmpIOp>(
                   "in_mask_tiles", arith::CmpIPredicate::uge, k, kvMasked));
  // Online softmax, one statistic per query (column).
  Value tileMax =
      kb.create<ReduceOp>("tile_max", column(), ReduceKind::max, sm);
  auto [mNew, lScaled, oScaled] = emitRescale(m, l, o, tileMax);
  auto [pf, lNew] = emitProbabilities(sm, mNew, lScaled);
  Value oNew = kb.create<MmaOp>("o_new", output(), emitValueFragment(), pf,
                                oScaled, ValueRange{});
  // Nobody refills K or V while another wave still reads them.
  kb.create<amdgpu::LDSBarrierOp>("");
  kb.create<scf::YieldOp>("", ValueRange{mNew, lNew, oNew});
}

void AttentionEmitter::emitPipelinedBody(scf::ForOp loop) {
  // A trip takes this tile's masked S^T and the m decided for it, and
  // leaves the same for the next tile, in HipKittens' four phases:
  //   K reads | the next S^T's MMAs beside this tile's exp2 |
  //   V reads | the O^T MMAs beside the next tile's mask, maximum and vote.
  // Fences keep each tile's K and V fragments out of the other's phase:
  // one of them is live at a time, as 2 waves per SIMD need.
  auto [k, m, l, o] = namedState(kb, loop);
  Value s = loop.getRegionIterArgs()[3];
  OpBuilder::InsertionGuard guard(kb.b);
  kb.b.setInsertionPointToStart(loop.getBody());
  Value kNext = kb.add("k_next", k, kb.index(p.t.perTile));
  emitFills(kNext, k);
  // The fragments are read and waited for once (the backend would
  // otherwise wait before each MMA for its own part).
  Value kf = emitKeyFragment();
  attentionLdsReadWait(kb);
  fence();
  Value sNext =
      kb.create<MmaOp>("s_next", scores(), kf, qf, sInit, ValueRange{});
  auto [pf, lNew] = emitProbabilities(s, m, l);
  fence();
  Value vt = emitValueFragment();
  attentionLdsReadWait(kb);
  fence();
  Value oNew = kb.create<MmaOp>("o_new", output(), vt, pf, o, ValueRange{});
  // The last trip's next tile lies past kv_end, wholly masked: its maximum
  // is -inf and leaves m, l and O as they are.
  Value smNext = emitMask(sNext, kNext,
                          kb.create<arith::CmpIOp>("in_mask_tiles",
                                                   arith::CmpIPredicate::uge, k,
                                                   kvMaskedAhead));
  Value tileMax =
      kb.create<ReduceOp>("next_max", column(), ReduceKind::max, smNext);
  auto [mNext, lScaled, oScaled] = emitRescale(m, lNew, oNew, tileMax);
  // Nobody refills K or V while another wave still reads them.
  kb.create<amdgpu::LDSBarrierOp>("");
  kb.create<scf::YieldOp>("", ValueRange{mNext, lScaled, oScaled, smNext});
}

llvm::Expected<gpu::GPUModuleOp> mlir::hk::kernels::buildAttentionKernel(
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
  AttentionPlan plan = planAttention(*resolved);
  gpu::GPUModuleOp kernel = AttentionEmitter(builder, plan).emit();
  if (llvm::Error e = verifyKernel(kernel))
    return std::move(e);
  return kernel;
}

std::string
mlir::hk::kernels::describeAttentionKernel(const AttentionDescription &d) {
  AttentionPlan p = planAttention(d);
  std::string text;
  llvm::raw_string_ostream os(text);
  int64_t dim = d.headDim;
  os << "FlashAttention-2 forward, bf16, head dim " << dim << ", for "
     << p.t.chip->name << " (" << p.t.chip->family << ").\n\n";
  os << "  O[b, h, q, :] = sum_k softmax_k(Q[b, h, q, :] . K[b, g, k, :] / "
        "sqrt("
     << dim << "))\n"
     << "                  V[b, g, k, :],     g = h / (Hq / Hkv)   (GQA)\n"
     << "  LSE[b, h, q]  = ln sum_k exp(Q[b, h, q, :] . K[b, g, k, :] / sqrt("
     << dim << "))\n\n";
  os << "Q, O [B, Hq, Nq, " << dim << "], K, V [B, Hkv, Nkv, " << dim
     << "] bf16; LSE [B, Hq, Nq] f32. `causal` != 0 masks key k for query q "
        "when k > q (top-left alignment: query q sees keys 0..q whatever Nq "
        "and Nkv are). Any Nq, Nkv >= 1.\n\n";
  os << "One workgroup of " << p.t.waves << " waves takes "
     << p.t.perWorkgroup() << " queries of one (batch, head); each wave "
     << "owns " << p.t.perWave
     << " of them. The computation runs transposed (S^T = K Q^T, O^T = V^T "
        "P^T): a lane then holds whole query columns, the softmax "
        "statistics are column vectors, and the probabilities P^T are "
        "already the B operand of the second MMA (hk.to_operand moves no "
        "data across lanes). "
     << (p.t.transposedReads
             ? "V is read transposed from LDS (ds_read_b64_tr_b16)."
             : "The chip has no transposed LDS read, so V is written "
               "transposed into LDS (hk.copy_to_shared ... transpose) and "
               "read plainly.")
     << " Each MMA is "
     << p.t.chip->findMma(p.t.mma, ElementKind::bf16, ElementKind::f32)
            ->mnemonic
     << "."
     << " Per KV tile of " << p.t.perTile << " keys:\n";
  os << "  S^T = K Q^T (f32), masked (tail and diagonal tiles only); t = "
        "colmax S^T\n"
     << "  m' = max(m, t) if t - m > 8 / c for some query of the wave, else "
        "m' = m\n"
     << "  (lazy rescale: the probabilities stay below 2^8)\n"
     << "  P^T = exp2(c S^T - c m'), alpha = exp2(c m - c m') (1 when m' = "
        "m),\n"
     << "  c = log2(e)/sqrt(" << dim << ")\n"
     << "  l = alpha l + colsum P^T; O^T = alpha O^T + V^T bf16(P^T)\n"
     << "and at the end O = (O^T / l)^T, LSE = ln(2) (c m + log2 l).\n\n";
  if (*d.scoresAhead)
    os << "The loop is software-pipelined: the first tile's S^T, mask and m "
          "come before it, and each trip fills K for the next tile and V "
          "for this one and runs HipKittens' four phases, kept apart by "
          "scheduler fences: the K reads; the next tile's S^T MMAs beside "
          "this tile's exp2; the V reads; the O^T MMAs beside the next "
          "tile's mask, maximum and rescale vote. One of the K and V "
          "fragments is live at a time.\n\n";
  os << "Launch (recorded in hk.launch): grid (ceil(Nq / " << p.t.perWorkgroup()
     << "), Hq, B), block (" << p.t.waves * p.t.chip->waveSize
     << ", 1, 1). The K/V loop has the form hk-multi-buffer"
     << (p.t.chip->directToLdsBytesPerLane ? " and hk-direct-lds-fill take "
                                             "(--stages=2 --direct-lds)."
                                           : " takes (--stages=2).");
  return text;
}
