//===- MoeGemmKernel.cpp - mixture-of-experts GEMM kernels ----------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A persistent kernel: each workgroup walks the (expert, m-tile, n-tile)
// work items w = block, block + workgroups, ... . The items are numbered
// expert by expert from group_offsets on the device, so an empty expert has
// none; the walk keeps the expert it reached, since a workgroup's items only
// grow. Each item is the dense GEMM's tile (GemmEmitter: the same tiles,
// K loop and epilogue, so the same schedules apply) over views of its
// expert's rows of A and C and its expert's B.
//
//===----------------------------------------------------------------------===//

#include "HK/Kernels/MoeGemm.h"

#include "GemmEmitter.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::hk;
using namespace mlir::hk::kernels;

std::optional<MoeGroups> mlir::hk::kernels::parseMoeGroups(StringRef text) {
  return llvm::StringSwitch<std::optional<MoeGroups>>(text)
      .Case("contiguous", MoeGroups::contiguous)
      .Case("gathered", MoeGroups::gathered)
      .Default(std::nullopt);
}

StringRef mlir::hk::kernels::stringifyMoeGroups(MoeGroups groups) {
  return groups == MoeGroups::contiguous ? "contiguous" : "gathered";
}

std::optional<MoeEpilogue> mlir::hk::kernels::parseMoeEpilogue(StringRef text) {
  return llvm::StringSwitch<std::optional<MoeEpilogue>>(text)
      .Case("none", MoeEpilogue::none)
      .Case("gated", MoeEpilogue::gated)
      .Case("combine", MoeEpilogue::combine)
      .Default(std::nullopt);
}

StringRef mlir::hk::kernels::stringifyMoeEpilogue(MoeEpilogue epilogue) {
  switch (epilogue) {
  case MoeEpilogue::none:
    return "none";
  case MoeEpilogue::gated:
    return "gated";
  case MoeEpilogue::combine:
    return "combine";
  }
  llvm_unreachable("covered switch over MoeEpilogue");
}

static llvm::Error refuse(const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "no MoE GEMM kernel: " + why);
}

llvm::Expected<MoeGemmDescription>
mlir::hk::kernels::resolveMoeGemm(const MoeGemmDescription &description) {
  MoeGemmDescription d = description;
  // Not built yet: refused rather than served by a kernel that is not there.
  if (d.epilogue == MoeEpilogue::combine) {
    if (d.groups != MoeGroups::gathered)
      return refuse("the combine epilogue adds each routed row into its "
                    "token's row, which the gathered form's slot ids give; "
                    "give --groups=gathered");
    // The rows are added with fp32 atomics, or summed from f32 slot rows:
    // C is f32.
    d.gemm.result = ElementKind::f32;
  } else if (d.deterministic) {
    return refuse("--deterministic is the combine epilogue's variant without "
                  "atomics; give --epilogue=combine");
  }
  if (d.smallM) {
    // Decode: a tile 32 rows high (an expert's few tokens), 4 waves side by
    // side along N, and a long K tile, so that each workgroup streams a
    // 128-column slice of its expert's weights with few barriers.
    GemmDescription &g = d.gemm;
    bool fp8 = isFp8(g.operands);
    if (!g.blockM)
      g.blockM = 32;
    if (!g.blockN)
      g.blockN = 128;
    if (!g.waveRows && !g.waveCols) {
      g.waveRows = 1;
      g.waveCols = 4;
    }
    if (!g.kTile)
      g.kTile = g.chip == Chip::gfx950 ? 256 : fp8 ? 128 : 64;
  }
  if (d.gemm.layout != GemmLayout::nt)
    return refuse("A and B must be K-minor (layout nt): B is experts x N x "
                  "K, A routed rows x K");
  if (d.gemm.batched)
    return refuse("the experts are the batch: --batched does not apply");
  if (d.gemm.epilogue.any())
    return refuse("the alpha/beta and bias epilogues are the dense GEMM's; "
                  "an MoE GEMM's epilogue is none or gated");
  llvm::Expected<GemmDescription> gemm = resolveGemm(d.gemm);
  if (!gemm)
    return refuse(llvm::StringRef(llvm::toString(gemm.takeError()))
                      .drop_front(StringRef("no GEMM kernel: ").size()));
  d.gemm = *gemm;
  // gfx1201's gated tiling splits the block's columns between a gate and
  // an up tile, each whole MMA tiles per wave and whole chunks per lane.
  if (d.epilogue == MoeEpilogue::gated && d.gemm.chip != Chip::gfx950) {
    const ChipInfo &chip = getChipInfo(d.gemm.chip);
    int64_t mmaN = 16, waves = *d.gemm.waveRows * *d.gemm.waveCols;
    int64_t half = *d.gemm.blockN / 2;
    int64_t bytes = isFp8(d.gemm.operands) ? 1 : 2;
    if (half % (*d.gemm.waveCols * mmaN) ||
        (half * *d.gemm.kTile * bytes / 16) % (waves * chip.waveSize))
      return refuse(llvm::formatv("a gated {0}x{1} block splits into gate "
                                  "and up tiles of {2} columns, which its "
                                  "{3} wave columns do not divide in whole "
                                  "MMAs of {4}, or whose 16-byte chunks do "
                                  "not split over the workgroup",
                                  *d.gemm.blockM, *d.gemm.blockN, half,
                                  *d.gemm.waveCols, mmaN)
                        .str());
  }
  return d;
}

std::string
mlir::hk::kernels::getMoeGemmKernelName(const MoeGemmDescription &d) {
  std::string name = "moe_" + getGemmKernelName(d.gemm) + "_" +
                     stringifyMoeGroups(d.groups).str();
  if (d.epilogue != MoeEpilogue::none)
    name += "_" + stringifyMoeEpilogue(d.epilogue).str();
  if (d.deterministic)
    name += "_deterministic";
  if (d.smallM)
    name += "_small_m";
  return name;
}

namespace {
class MoeEmitter {
public:
  MoeEmitter(OpBuilder &b, const MoeGemmDescription &d, const GemmPlan &plan)
      : g(b, plan), kb(g.kb), p(plan), d(d) {}

  gpu::GPUModuleOp emit();
  llvm::Error verifyTypes() { return g.verifyTypes(); }

private:
  GemmEmitter g;
  KernelBuilder &kb;
  const GemmPlan &p;
  const MoeGemmDescription &d;

  SmallVector<std::pair<StringRef, Type>> arguments();
  Type index() { return kb.b.getIndexType(); }
  Type i32() { return kb.b.getI32Type(); }
  /// An i32 walk value as an index (a view's offset, a tile's number).
  Value toIndex(StringRef name, Value v) {
    return kb.create<arith::IndexCastUIOp>(name, index(), v);
  }
  /// scale_a * scale_b[e]: an fp8 item's scale.
  Value expertScale(Value e) {
    Value scaleB = kb.create<memref::LoadOp>("scale_b_e", kb.arg("scale_b"),
                                             ValueRange{e});
    return kb.create<arith::MulFOp>("scale", kb.arg("scale_a"), scaleB);
  }
  /// group_offsets[e] (i32; e an index).
  Value offset(StringRef name, Value e);
  /// group_offsets[e] (loaded as `loadName`) as an index.
  Value offsetIndex(StringRef loadName, StringRef name, Value e) {
    return kb.create<arith::IndexCastOp>(name, index(), offset(loadName, e));
  }
  /// The work items of an expert of `rows` rows: its m-tiles times the
  /// n-tiles, in `rows`' type (i32 in the walk, index in the count).
  Value expertTiles(StringRef name, Value rows);
  /// The expert holding item w, walking on from (e, base): (e, base).
  std::pair<Value, Value> findExpert(Value w, Value e, Value base);
  /// A 2-D view of rows [first, first + rows) of `matrix`, or of matrix
  /// `first` of a 3-D one (rows unset).
  Value view(StringRef name, Value matrix, Value first, Value rows, Value cols);
  void emitItem(Value w, Value e, Value base);
  /// The gathered kernel's loop: item w is tile w / n_tiles of
  /// sorted_token_ids (whose expert expert_ids gives), n-tile w % n_tiles.
  void emitGathered(gpu::GPUFuncOp func, int64_t workgroupsArg);
  /// Keeps LLVM from hoisting work out of the persistent loop: an item's
  /// loop-invariant lane work (its epilogue's addresses) hoisted would be
  /// live across every K loop, where the dense GEMM computes it after its
  /// loop (hk-rematerialize-after-loops); those registers spilled.
  void keepItemWork(scf::ForOp loop);
  /// The K loop and epilogue of an item of expert `e`, over `g`'s
  /// operands.
  void emitTile(Value mTile, Value nTile, Value e);
  void emitGatedEpilogue(ArrayRef<WaveBlock> blocks);
  void emitCombineEpilogue(ArrayRef<WaveBlock> blocks);
  /// The deterministic combine's second kernel (kMoeCombineSumKernelName).
  void emitCombineSum();

  Value experts, nTiles, n, nOut;
  /// The work walk counts in i32 (experts, tiles, items: the items are
  /// fewer than C's elements over 2^16): in index (i64) each of its values
  /// held two SGPRs through every K loop, and the persistent kernels
  /// spilled them.
  Value experts32, nTiles32;
  /// MXFP8: SB as (E N) x K / 32, an expert's rows at e N.
  Value sbRows;
};
} // namespace

SmallVector<std::pair<StringRef, Type>> MoeEmitter::arguments() {
  MLIRContext *ctx = kb.getContext();
  int64_t dyn = ShapedType::kDynamic;
  Type ab = getElementType(ctx, d.gemm.operands);
  Type f32 = Float32Type::get(ctx);
  SmallVector<std::pair<StringRef, Type>> args = {
      {"A", MemRefType::get({dyn, dyn}, ab)},
      {"B", MemRefType::get({dyn, dyn, dyn}, ab)},
      {"C", MemRefType::get({dyn, dyn}, getElementType(ctx, d.gemm.result))}};
  Type ids = MemRefType::get({dyn}, IntegerType::get(ctx, 32));
  if (d.groups == MoeGroups::contiguous) {
    args.push_back({"group_offsets", ids});
  } else {
    args.push_back({"sorted_token_ids", ids});
    args.push_back({"expert_ids", ids});
    if (d.epilogue == MoeEpilogue::combine)
      args.push_back({"sorted_weights", MemRefType::get({dyn}, f32)});
    args.push_back({"topk", IntegerType::get(ctx, 32)});
  }
  if (d.gemm.blockScales) {
    Type e8m0 = Float8E8M0FNUType::get(ctx);
    args.push_back({"SA", MemRefType::get({dyn, dyn}, e8m0)});
    args.push_back({"SB", MemRefType::get({dyn, dyn, dyn}, e8m0)});
  } else if (p.fp8) {
    args.push_back({"scale_a", f32});
    args.push_back({"scale_b", MemRefType::get({dyn}, f32)});
  }
  args.push_back({"workgroups", IntegerType::get(ctx, 32)});
  return args;
}

Value MoeEmitter::offset(StringRef name, Value e) {
  return kb.create<memref::LoadOp>(name, kb.arg("group_offsets"),
                                   ValueRange{e});
}

Value MoeEmitter::expertTiles(StringRef name, Value rows) {
  bool wide = rows.getType().isIndex();
  int64_t blockM = *d.gemm.blockM;
  Value mTiles = kb.create<arith::CeilDivUIOp>(
      "m_tiles", rows, wide ? kb.index(blockM) : kb.i32(blockM));
  return kb.mul(name, mTiles, wide ? nTiles : nTiles32);
}

std::pair<Value, Value> MoeEmitter::findExpert(Value w, Value e0, Value base0) {
  Type word = i32();
  auto walk = kb.create<scf::WhileOp>(
      "at", TypeRange{word, word, word}, ValueRange{e0, base0},
      [&](OpBuilder &, Location, ValueRange args) {
        args[0].setLoc(kb.loc("e"));
        args[1].setLoc(kb.loc("base"));
        Value next = kb.add("e_next", args[0], kb.i32(1));
        Value rows = kb.create<arith::SubIOp>(
            "rows", offset("end", toIndex("ei1", next)),
            offset("start", toIndex("ei", args[0])));
        Value end = kb.add("end_item", args[1], expertTiles("tiles", rows));
        // On while item w lies past expert e (and e is not the last).
        Value past =
            kb.create<arith::CmpIOp>("past", arith::CmpIPredicate::ule, end, w);
        Value more = kb.create<arith::CmpIOp>("more", arith::CmpIPredicate::ult,
                                              next, experts32);
        Value go = kb.create<arith::AndIOp>("go", past, more);
        kb.create<scf::ConditionOp>("", go, ValueRange{args[0], args[1], end});
      },
      [&](OpBuilder &, Location, ValueRange args) {
        StringRef names[] = {"e_past", "base_past", "base_next"};
        for (auto [arg, name] : llvm::zip(args, names))
          arg.setLoc(kb.loc(name));
        kb.create<scf::YieldOp>(
            "", ValueRange{kb.add("e_on", args[0], kb.i32(1)), args[2]});
      });
  // The results: (e, base, end) of the expert that holds w.
  return {walk.getResult(0), walk.getResult(1)};
}

Value MoeEmitter::view(StringRef name, Value matrix, Value first, Value rows,
                       Value cols) {
  MLIRContext *ctx = kb.getContext();
  int64_t dyn = ShapedType::kDynamic;
  auto source = cast<MemRefType>(matrix.getType());
  auto type = MemRefType::get({dyn, dyn}, source.getElementType(),
                              StridedLayoutAttr::get(ctx, dyn, {dyn, 1}));
  OpFoldResult zero = kb.b.getIndexAttr(0), one = kb.b.getIndexAttr(1);
  SmallVector<OpFoldResult> offsets, sizes, strides;
  if (source.getRank() == 3) {
    offsets = {first, zero, zero};
    sizes = {one, n, cols};
    strides = {one, one, one};
  } else {
    offsets = {first, zero};
    sizes = {rows, cols};
    strides = {one, one};
  }
  return kb.create<memref::SubViewOp>(name, type, matrix, offsets, sizes,
                                      strides);
}

gpu::GPUModuleOp MoeEmitter::emit() {
  int64_t workgroupsArg = arguments().size() - 1;
  gpu::GPUFuncOp func =
      kb.startKernel("hk_moe_gemm", getMoeGemmKernelName(d), arguments(),
                     p.threads(), {{workgroupsArg, 0, 1, false}});
  g.zero = kb.f32("zero", 0.0);
  g.allocTiles();
  g.placeWaves();
  Value a = kb.arg("A"), b = kb.arg("B");
  g.k = kb.dim("K", a, 1);
  experts = kb.dim("E", b, 0);
  n = kb.dim("N", b, 1);
  nOut = p.gated ? kb.div("N_out", n, kb.index(2)) : n;
  if (p.gated)
    g.upColumn = nOut;
  nTiles = kb.create<arith::CeilDivUIOp>("n_tiles", nOut,
                                         kb.index(p.blockColumns()));
  experts32 = kb.create<arith::IndexCastUIOp>("E_i32", i32(), experts);
  nTiles32 = kb.create<arith::IndexCastUIOp>("n_tiles_i32", i32(), nTiles);
  if (d.gemm.blockScales)
    sbRows = kb.create<memref::CollapseShapeOp>(
        "SB_rows", kb.arg("SB"), ArrayRef<ReassociationIndices>{{0, 1}, {2}});
  if (d.groups == MoeGroups::gathered) {
    emitGathered(func, workgroupsArg);
    if (!d.deterministic)
      return kb.finishKernel();
    kb.finishKernel();
    emitCombineSum();
    return kb.finishKernel();
  }

  // The work items: each expert's m-tiles times the n-tiles, in order.
  // In index: in i32 LLVM vectorizes this loop (selects and reductions of
  // <2 x i32>), which the simulator does not run.
  auto count = kb.create<scf::ForOp>("total", kb.index(0), experts, kb.index(1),
                                     ValueRange{kb.index(0)});
  count.getInductionVar().setLoc(kb.loc("e"));
  count.getRegionIterArgs()[0].setLoc(kb.loc("counted"));
  {
    OpBuilder::InsertionGuard guard(kb.b);
    kb.b.setInsertionPointToStart(count.getBody());
    Value e = count.getInductionVar();
    Value rows = kb.create<arith::SubIOp>(
        "rows", offsetIndex("end_i32", "end", kb.add("e_next", e, kb.index(1))),
        offsetIndex("start_i32", "start", e));
    Value sum =
        kb.add("sum", count.getRegionIterArgs()[0], expertTiles("tiles", rows));
    kb.create<scf::YieldOp>("", sum);
  }

  // This workgroup's items, walking the experts on as they grow.
  Value first = kb.create<arith::IndexCastUIOp>(
      "wg", i32(), kb.create<gpu::BlockIdOp>("wg_id", gpu::Dimension::x));
  Value total =
      kb.create<arith::IndexCastUIOp>("total_i32", i32(), count.getResult(0));
  auto items = kb.create<scf::ForOp>("walk", first, total, kb.arg("workgroups"),
                                     ValueRange{kb.i32(0), kb.i32(0)});
  items.getInductionVar().setLoc(kb.loc("w"));
  keepItemWork(items);
  items.getRegionIterArgs()[0].setLoc(kb.loc("e_from"));
  items.getRegionIterArgs()[1].setLoc(kb.loc("base_from"));
  {
    OpBuilder::InsertionGuard guard(kb.b);
    kb.b.setInsertionPointToStart(items.getBody());
    auto [e, base] =
        findExpert(items.getInductionVar(), items.getRegionIterArgs()[0],
                   items.getRegionIterArgs()[1]);
    emitItem(items.getInductionVar(), e, base);
    kb.create<scf::YieldOp>("", ValueRange{e, base});
  }
  return kb.finishKernel();
}

void MoeEmitter::keepItemWork(scf::ForOp loop) {
  MLIRContext *ctx = kb.getContext();
  auto licm = LLVM::LoopLICMAttr::get(ctx, BoolAttr::get(ctx, true), {});
  auto annotation = LLVM::LoopAnnotationAttr::get(
      ctx, {}, {}, {}, {}, {}, licm, {}, {}, {}, {}, {}, {}, {}, {}, {});
  loop->setAttr("llvm.loop_annotation", annotation);
}

void MoeEmitter::emitItem(Value w, Value e32, Value base) {
  Value item = kb.create<arith::SubIOp>("item", w, base);
  Value mTile = toIndex("m_tile", kb.div("m_tile_i32", item, nTiles32));
  Value nTile = toIndex("n_tile", kb.rem("n_tile_i32", item, nTiles32));
  Value e = toIndex("e", e32);
  Value start = offsetIndex("start", "row_start", e);
  Value rows = kb.create<arith::SubIOp>(
      "rows", offsetIndex("end", "row_end", kb.add("e_next", e, kb.index(1))),
      start);
  // The expert's rows of A and C and its weights.
  g.a = view("Ae", kb.arg("A"), start, rows, g.k);
  g.bMat = view("Be", kb.arg("B"), e, Value(), g.k);
  g.c = view("Ce", kb.arg("C"), start, rows, nOut);
  if (d.gemm.blockScales) {
    // The scales are read from the whole arrays at the expert's first row:
    // a view's offset (start K / 32, e N K / 32) would make the peeled
    // loop's word alignment depend on the routing, which the scale reads'
    // rows past the expert (masked out of C) do not need.
    g.sa = kb.arg("SA");
    g.saFirstRow = start;
    g.sb = sbRows;
    g.sbFirstRow = kb.mul("sb_row", e, n);
  }
  emitTile(mTile, nTile, e);
}

void MoeEmitter::emitTile(Value mTile, Value nTile, Value e) {
  g.placeTile(mTile, nTile);
  SmallVector<Value> accs = g.emitLoop();
  // fp8 with per-tensor scales: expert e's scale, read after the K loop,
  // which it would otherwise live through.
  if (p.fp8 && !d.gemm.blockScales)
    g.scale = expertScale(e);
  bool combine = d.epilogue == MoeEpilogue::combine;
  if (!p.gated && !combine) // the others scale in their own epilogue
    g.scaleSingleBlock(accs);
  SmallVector<WaveBlock> blocks = g.placeBlocks(accs);
  if (p.gated)
    emitGatedEpilogue(blocks);
  else if (combine)
    emitCombineEpilogue(blocks);
  else
    g.emitEpilogue(blocks);
}

void MoeEmitter::emitCombineEpilogue(ArrayRef<WaveBlock> blocks) {
  // Each row times its routing weight (sorted_weights, in the order of
  // sorted_token_ids), added into its token's row of C with fp32 atomics:
  // slot s is token s / topk's.
  FragmentType acc = g.accType();
  FragmentType weights = kb.fragment(FragmentRole::row, p.waveM(), 1,
                                     Float32Type::get(kb.getContext()), p.mma);
  DenseMap<Value, Value> rowWeights; // blocks of the same rows share them
  for (auto [i, block] : llvm::enumerate(blocks)) {
    std::string suffix = blocks.size() == 1 ? "" : std::to_string(i);
    Value &w = rowWeights[block.row];
    if (!w)
      w = kb.create<ReadFragmentOp>(
          "w" + suffix, weights, kb.arg("sorted_weights"),
          ValueRange{block.row}, /*transpose=*/false, BoundsMode::partial);
    Value out = kb.map("wc" + suffix, acc, {block.acc, w}, {"x", "w"},
                       [&](ValueRange x) -> Value {
                         Value v = x[0];
                         if (g.scale)
                           v = kb.create<arith::MulFOp>("xs", g.scale, v);
                         return kb.create<arith::MulFOp>("y", v, x[1]);
                       });
    if (d.deterministic) { // to its slot's row of Y
      g.store(out, block);
      continue;
    }
    kb.create<StoreFragmentOp>("", out, g.c, kb.index(0), block.col,
                               /*transpose=*/false, BoundsMode::partial,
                               g.rowIds, block.row, g.rowIdsDivisor,
                               /*atomic=*/true);
  }
}

void MoeEmitter::emitCombineSum() {
  // C[t, j] = Y[t topk, j] + Y[t topk + 1, j] + ...: workgroups of 4 waves
  // side by side, each an accumulator-layout fragment of C read from the
  // choices' strided views of Y (rows i, i + topk, ...) and added in order.
  MLIRContext *ctx = kb.getContext();
  int64_t dyn = ShapedType::kDynamic;
  Type f32 = Float32Type::get(ctx);
  Type matrix = MemRefType::get({dyn, dyn}, f32);
  int64_t waves = 4, waveM = p.mma.m, waveN = 64;
  int64_t blockM = waveM, blockN = waves * waveN;
  kb.startNextKernel(
      kMoeCombineSumKernelName,
      {{"Y", matrix}, {"C", matrix}, {"topk", kb.b.getI32Type()}},
      waves * kb.chip.waveSize, {{1, 1, blockN, true}, {1, 0, blockM, true}});
  Value c = kb.arg("C");
  Value tokens = kb.dim("T", c, 0), cols = kb.dim("N", c, 1);
  Value topk =
      kb.create<arith::IndexCastUIOp>("top_k", index(), kb.arg("topk"));
  Value row =
      kb.mul("row", kb.create<gpu::BlockIdOp>("wg_y", gpu::Dimension::y),
             kb.index(blockM));
  Value col = kb.add(
      "col",
      kb.mul("col_wg", kb.create<gpu::BlockIdOp>("wg_x", gpu::Dimension::x),
             kb.index(blockN)),
      kb.mul("col_wave", kb.waveIndex("wave"), kb.index(waveN)));
  FragmentType acc = kb.fragment(FragmentRole::acc, waveM, waveN, f32, p.mma);
  Value init = kb.create<FillFragmentOp>("init", acc, kb.f32("zero", 0.0));
  auto choices = kb.create<scf::ForOp>("sum", kb.index(0), topk, kb.index(1),
                                       ValueRange{init});
  choices.getInductionVar().setLoc(kb.loc("i"));
  choices.getRegionIterArgs()[0].setLoc(kb.loc("partial"));
  OpBuilder::InsertionGuard guard(kb.b);
  kb.b.setInsertionPointToStart(choices.getBody());
  auto strided = MemRefType::get({dyn, dyn}, f32,
                                 StridedLayoutAttr::get(ctx, dyn, {dyn, 1}));
  OpFoldResult zero = kb.b.getIndexAttr(0), one = kb.b.getIndexAttr(1);
  Value choice = kb.create<memref::SubViewOp>(
      "Yi", strided, kb.arg("Y"),
      ArrayRef<OpFoldResult>{choices.getInductionVar(), zero},
      ArrayRef<OpFoldResult>{tokens, cols}, ArrayRef<OpFoldResult>{topk, one});
  Value y = kb.create<ReadFragmentOp>("y", acc, choice, ValueRange{row, col},
                                      /*transpose=*/false, BoundsMode::partial);
  Value sum = kb.map("next", acc, {choices.getRegionIterArgs()[0], y},
                     {"s", "x"}, [&](ValueRange x) -> Value {
                       return kb.create<arith::AddFOp>("s_x", x[0], x[1]);
                     });
  kb.create<scf::YieldOp>("", sum);
  kb.b.setInsertionPointAfter(choices);
  kb.create<StoreFragmentOp>("", choices.getResult(0), c, row, col,
                             /*transpose=*/false, BoundsMode::partial);
}

void MoeEmitter::emitGathered(gpu::GPUFuncOp func, int64_t workgroupsArg) {
  // sorted_token_ids is padded per expert to whole tiles.
  int64_t idsArg = 3;
  func->setAttr(HKDialect::getLaunchAttrName(),
                LaunchAttr::get(kb.getContext(), {{workgroupsArg, 0, 1, false}},
                                {{idsArg, 0, *d.gemm.blockM, false}}));
  Value ids = kb.arg("sorted_token_ids");
  g.rowIds = ids;
  g.rowIdsDivisor =
      kb.create<arith::IndexCastUIOp>("top_k", index(), kb.arg("topk"));
  g.a = kb.arg("A");
  g.c = kb.arg("C");
  Value slots =
      kb.create<arith::IndexCastUIOp>("P", i32(), kb.dim("P_dim", ids, 0));
  Value mTiles = kb.div("m_tiles", slots, kb.i32(*d.gemm.blockM));
  Value items = kb.mul("items", mTiles, nTiles32);
  Value first = kb.create<arith::IndexCastUIOp>(
      "wg", i32(), kb.create<gpu::BlockIdOp>("wg_id", gpu::Dimension::x));
  auto loop = kb.create<scf::ForOp>("", first, items, kb.arg("workgroups"));
  loop.getInductionVar().setLoc(kb.loc("w"));
  keepItemWork(loop);
  OpBuilder::InsertionGuard guard(kb.b);
  kb.b.setInsertionPointToStart(loop.getBody());
  Value w = loop.getInductionVar();
  Value mTile = toIndex("m_tile", kb.div("m_tile_i32", w, nTiles32));
  Value nTile = toIndex("n_tile", kb.rem("n_tile_i32", w, nTiles32));
  // The tile's expert, kept in range (expert_ids holds experts < E).
  Value expert = kb.create<arith::IndexCastUIOp>(
      "e_id", index(),
      kb.create<memref::LoadOp>("e_i32", kb.arg("expert_ids"),
                                ValueRange{mTile}));
  Value e = kb.create<arith::MinUIOp>(
      "e", expert, kb.create<arith::SubIOp>("e_last", experts, kb.index(1)));
  g.bMat = view("Be", kb.arg("B"), e, Value(), g.k);
  if (d.gemm.blockScales) {
    // SA per token, its rows gathered with A's (g.rowIds); SB whole, at
    // the expert's first row, as the contiguous form reads it.
    g.sa = kb.arg("SA");
    g.sb = sbRows;
    g.sbFirstRow = kb.mul("sb_row", e, n);
  }
  emitTile(mTile, nTile, e);
}

void MoeEmitter::emitGatedEpilogue(ArrayRef<WaveBlock> blocks) {
  // (gate, up) pairs: gfx950's C00, C01 and C10, C11, gfx1201's two
  // accumulators; each pair's output lies where its gate block does.
  FragmentType acc = g.accType();
  Value log2e = kb.f32("log2e", 1.4426950408889634);
  Value one = kb.f32("one", 1.0);
  for (size_t i = 0; i < blocks.size() / 2; ++i) {
    const WaveBlock &gate = blocks[2 * i], &up = blocks[2 * i + 1];
    Value out = kb.map(i ? "h1" : "h0", acc, {gate.acc, up.acc}, {"x", "u"},
                       [&](ValueRange x) -> Value {
                         Value gv = x[0], uv = x[1];
                         if (g.scale) {
                           gv = kb.create<arith::MulFOp>("gs", g.scale, gv);
                           uv = kb.create<arith::MulFOp>("us", g.scale, uv);
                         }
                         // SiLU(g) = g / (1 + 2^(-g log2 e)).
                         Value t = kb.create<arith::MulFOp>("t", gv, log2e);
                         Value negT = kb.create<arith::NegFOp>("nt", t);
                         Value ex = kb.create<math::Exp2Op>("ex", negT);
                         Value den = kb.create<arith::AddFOp>("den", one, ex);
                         Value silu = kb.create<arith::DivFOp>("silu", gv, den);
                         return kb.create<arith::MulFOp>("out", silu, uv);
                       });
    g.store(out, {out, gate.row, gate.col});
  }
}

llvm::Expected<gpu::GPUModuleOp>
mlir::hk::kernels::buildMoeGemmKernel(OpBuilder &builder,
                                      const MoeGemmDescription &description) {
  llvm::Expected<MoeGemmDescription> resolved = resolveMoeGemm(description);
  if (!resolved)
    return resolved.takeError();
  MLIRContext *ctx = builder.getContext();
  ctx->loadDialect<HKDialect, amdgpu::AMDGPUDialect, arith::ArithDialect,
                   gpu::GPUDialect, LLVM::LLVMDialect, math::MathDialect,
                   memref::MemRefDialect, ROCDL::ROCDLDialect,
                   scf::SCFDialect>();
  OpBuilder::InsertionGuard guard(builder);
  GemmPlan plan = planGemm(resolved->gemm);
  plan.gated = resolved->epilogue == MoeEpilogue::gated;
  MoeEmitter emitter(builder, *resolved, plan);
  if (llvm::Error e = emitter.verifyTypes())
    return refuse(llvm::toString(std::move(e)));
  gpu::GPUModuleOp kernel = emitter.emit();
  if (llvm::Error e = verifyKernel(kernel))
    return std::move(e);
  return kernel;
}

/// The gathered kernels' index arguments.
static void describeGatheredIndices(llvm::raw_ostream &os,
                                    const MoeGemmDescription &d) {
  os << " sorted_token_ids (i32) lists each expert's slots in turn, padded "
        "to a multiple of "
     << *d.gemm.blockM
     << " with entries past the last slot (vLLM's moe_align_block_size); "
        "expert_ids (i32) gives each tile's expert;";
  if (d.epilogue == MoeEpilogue::combine)
    os << " sorted_weights (f32) the routing weight w of each sorted entry "
          "(0 for padding);";
  os << " topk (i32) maps a slot to its token.";
}

/// MXFP8's block scales, or fp8's per-tensor and per-expert scales.
static void describeScales(llvm::raw_ostream &os, const MoeGemmDescription &d,
                           const GemmPlan &p) {
  if (d.gemm.blockScales)
    os << " SA (E8M0, " << (d.groups == MoeGroups::gathered ? "tokens" : "rows")
       << " x ceil(K / 32)) scales each 32 k of a row of A, SB (E8M0, "
          "experts x N x ceil(K / 32)) each 32 k of a row of B.";
  else if (p.fp8)
    os << " scale_a (f32) scales A, scale_b (f32, one per expert) each "
          "expert's B; a per-tensor scale is E equal values.";
}

/// The combine's operands: C added into with atomics, or the deterministic
/// form's slot rows Y and its summing kernel.
static void describeCombine(llvm::raw_ostream &os, const MoeGemmDescription &d,
                            const GemmPlan &p, StringRef product) {
  StringRef ab = stringifyElementKind(d.gemm.operands);
  if (d.deterministic)
    os << "  Y[s, j] = w(s) * " << product
       << "\n  C[t, j] = Y[t * topk, j] + ... + Y[t * topk + topk - 1, j]\n\n"
       << "Two kernels, run in turn. " << getMoeGemmKernelName(d)
       << ": A (tokens x K) and B (experts x N x K) " << ab
       << ", Y (its C argument: f32, T * topk slots x N, each slot's row "
          "written once).";
  else
    os << "  C[t, j] += w(s) * " << product << ",  t = s / topk\n\n"
       << "A (tokens x K) and B (experts x N x K) " << ab
       << ", C (f32, tokens x N, added into: zero it first).";
  describeGatheredIndices(os, d);
  describeScales(os, d, p);
  if (d.deterministic)
    os << " Then " << kMoeCombineSumKernelName
       << " (Y, C f32 tokens x N, topk) adds each token's topk rows in "
          "order, 4 waves side by side per workgroup (grid in hk.launch): "
          "no atomics, the same bits on every run.\n\n";
  else
    os << " Each row is scaled by its weight and added into its token's row "
          "of C with fp32 atomic adds (hk.store_fragment ... atomic): the "
          "order of the adds varies from run to run.\n\n";
}

/// The formula and the operands of the description's comment.
static void describeOperands(llvm::raw_ostream &os, const MoeGemmDescription &d,
                             const GemmPlan &p) {
  bool gathered = d.groups == MoeGroups::gathered;
  std::string a = gathered ? "A[s / topk, :]" : "A[r, :]";
  std::string row = gathered ? "s / topk" : "r";
  std::string product =
      d.gemm.blockScales
          ? "sum over k of SA[" + row + ", k / 32] SB[e, j, k / 32] A[" + row +
                ", k] B[e, j, k]"
      : p.fp8 ? "scale_a * scale_b[e] * " + a + " . B[e, j, :]"
              : a + " . B[e, j, :]";
  if (gathered)
    os << "  for each slot s = t * topk + i (token t's i-th expert e):\n";
  else
    os << "  for each expert e and row r in [group_offsets[e], "
          "group_offsets[e + 1]):\n";
  if (d.epilogue == MoeEpilogue::combine)
    return describeCombine(os, d, p, product);
  std::string c = gathered ? "C[s, j]" : "C[r, j]";
  if (p.gated)
    os << "  " << c << " = SiLU(g) * u,  g = " << product
       << ",  u = the same with j + N/2,  j < N/2\n\n";
  else
    os << "  " << c << " = " << product << "\n\n";
  StringRef ab = stringifyElementKind(d.gemm.operands);
  if (gathered) {
    os << "A (tokens x K, as they are) and B (experts x N x K) " << ab
       << ", C (" << stringifyElementKind(d.gemm.result)
       << ", T * topk slots x " << (p.gated ? "N/2" : "N")
       << "), fp32 accumulation, row-major.";
    describeGatheredIndices(os, d);
  } else {
    os << "A (routed rows x K, sorted by expert) and B (experts x N x K) " << ab
       << ", C (" << stringifyElementKind(d.gemm.result) << ", rows x "
       << (p.gated ? "N/2" : "N")
       << "), fp32 accumulation, row-major; group_offsets (i32, E + 1) "
          "gives each expert's rows.";
  }
  describeScales(os, d, p);
  if (p.gated)
    os << " B's rows [0, N/2) are the gate weights, [N/2, N) the up "
          "weights; SiLU(g) = g / (1 + 2^(-g log2 e)).";
  os << "\n\n";
}

std::string
mlir::hk::kernels::describeMoeGemmKernel(const MoeGemmDescription &d) {
  GemmPlan p = planGemm(d.gemm);
  p.gated = d.epilogue == MoeEpilogue::gated;
  bool gathered = d.groups == MoeGroups::gathered;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "The "
     << (d.gemm.blockScales ? "MXFP8"
         : p.fp8            ? "fp8"
                            : "bf16")
     << " mixture-of-experts GEMM for " << p.chip->name << " ("
     << p.chip->family << "), rows "
     << (gathered ? "gathered through sorted_token_ids"
                  : "grouped contiguously by expert")
     << (p.gated ? ", gated epilogue" : "") << ".\n\n";
  describeOperands(os, d, p);
  os << "A persistent kernel: workgroup i takes the work items i, i + "
        "workgroups, ... (workgroups: the last argument, the grid). ";
  if (gathered)
    os << "Item w is tile w / n_tiles of sorted_token_ids (" << *d.gemm.blockM
       << " slots, one expert) and n-tile w % n_tiles. Its copies of A "
          "gather the slots' token rows (hk.copy_to_shared gather: row "
          "sorted_token_ids[i] / topk; padding rows lie past A and are not "
          "read), and its stores "
       << (d.deterministic ? "write the weighted rows to their slots' rows "
                             "of Y (hk.store_fragment scatter"
           : d.epilogue == MoeEpilogue::combine
               ? "add the weighted rows into their tokens' rows "
                 "(hk.store_fragment scatter ... div topk atomic"
               : "scatter the rows back to their slots "
                 "(hk.store_fragment scatter")
       << "; padding rows are not written). ";
  else
    os << "Items are numbered expert by expert (ceil(rows / " << *d.gemm.blockM
       << ") m-tiles times ceil(" << (p.gated ? "N/2" : "N") << " / "
       << p.blockColumns()
       << ") n-tiles each, from group_offsets on the device), so an empty "
          "expert has none; each workgroup walks the experts on from the "
          "last it reached. ";
  if (d.smallM)
    os << "Small M (decode): the tile is " << *d.gemm.blockM
       << " rows high, for experts with few tokens, its " << p.waves()
       << " waves side by side along N, so that each workgroup streams a "
       << *d.gemm.blockN << "-column slice of its expert's weights, "
       << *d.gemm.kTile << " k per barrier. ";
  os << "An item is the dense GEMM's tile (hk-gen gemm --chip=" << p.chip->name
     << "): " << p.waves() << " waves, a " << *d.gemm.blockM << "x"
     << *d.gemm.blockN << " block of products, " << *d.gemm.kTile
     << " k per trip, over "
     << (gathered ? "a memref.subview view of its expert's B."
                  : "memref.subview views of the expert's rows of A and C "
                    "and of its B.");
  if (d.gemm.blockScales && gathered)
    os << " Its block scales: SA's rows gathered as A's (hk.read_fragment "
          "gather: token sorted_token_ids[i] / topk's scales; padding rows "
          "read zero), SB read whole at the expert's first row (SB as (E N) "
          "x ceil(K / 32) rows, memref.collapse_shape).";
  else if (d.gemm.blockScales)
    os << " Its block scales are read from SA and SB whole, at the expert's "
          "first row (SB as (E N) x ceil(K / 32) rows, memref.collapse_shape), "
          "so that the peeled K loop's word alignment does not depend on the "
          "routing; rows past the expert's are read but not stored.";
  if (p.gated)
    os << " B's two halves of tiles are the gate rows and the up rows of "
          "the same output columns, so each wave holds the gate and up "
          "blocks of its "
       << p.waveM() << "x" << p.waveN()
       << " outputs and combines them in registers (hk.map).";
  os << "\n\n";
  os << "Launch (recorded in hk.launch): grid (workgroups), block ("
     << p.threads() << ", 1, 1).";
  if (gathered)
    os << " sorted_token_ids' length must be a multiple of " << *d.gemm.blockM
       << " (hk.launch's divisible term). Any T, N, K >= 1.";
  else
    os << " Any rows per expert (0 included), N, K >= 1: the copies and "
          "stores take `bounds partial` within the expert's views.";
  return text;
}
