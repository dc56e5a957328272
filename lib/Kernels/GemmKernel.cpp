//===- GemmKernel.cpp - GEMM kernels from a description -------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Two tilings, one per chip family:
//  - gfx950 (HipKittens' 8-wave GEMM): the workgroup's K tiles of A and B
//    are each held as two halves, and every wave owns four blocks of C, one
//    from each pair of halves, in the order hk-schedule-ping-pong clusters.
//  - gfx1201: one shared tile per operand, one warp tile per wave, the K
//    tile consumed in k-chunks of the WMMA's 16.
// The prologue, the copies, the epilogue and the launch are shared.
//
//===----------------------------------------------------------------------===//

#include "HK/Kernels/Gemm.h"

#include "GemmEmitter.h"

#include "HK/Dialect/HK/IR/HKDialect.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::hk;
using namespace mlir::hk::kernels;

std::optional<GemmLayout> mlir::hk::kernels::parseGemmLayout(StringRef text) {
  return llvm::StringSwitch<std::optional<GemmLayout>>(text)
      .Case("nn", GemmLayout::nn)
      .Case("nt", GemmLayout::nt)
      .Case("tn", GemmLayout::tn)
      .Case("tt", GemmLayout::tt)
      .Default(std::nullopt);
}

StringRef mlir::hk::kernels::stringifyGemmLayout(GemmLayout layout) {
  switch (layout) {
  case GemmLayout::nn:
    return "nn";
  case GemmLayout::nt:
    return "nt";
  case GemmLayout::tn:
    return "tn";
  case GemmLayout::tt:
    return "tt";
  }
  llvm_unreachable("covered switch over GemmLayout");
}

static llvm::Error refuse(const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "no GEMM kernel: " + why);
}

static const MmaInstr *findMma(const ChipInfo &chip, ElementKind operands) {
  for (const MmaInstr &instr : chip.mmas)
    if (instr.operandKind == operands)
      return &instr;
  return nullptr;
}

/// Registers a lane keeps besides its accumulators and operands:
/// addresses, indices, loop state. Measured: gfx950's default tiling holds
/// 238 registers against 224 for its accumulators and operands.
static constexpr int64_t kOtherRegistersPerLane = 16;

/// Registers each K-major operand read through transposed LDS reads adds
/// (gfx950). Measured at the default tiling: nt 238 registers, nn and tt
/// (one such operand) 248 and 244, tn (two) 258, 2 of them spilled.
static constexpr int64_t kTransposedReadRegisters = 16;

/// Keeps the registers a wave's tile needs within what a wave has at the
/// kernel's waves per SIMD: its f32 accumulators, plus the operand
/// fragments of one K tile, plus kOtherRegistersPerLane. The estimate is
/// conservative: hk-compile checked it on both chips (the rule refuses every
/// tiling that spilled, e.g. gfx950 256x384 over 8 waves, 304 of 256, spills
/// 62 VGPRs; gfx1201 128x128 over 2 waves, 256 + 16, spills 5) and one that
/// did not (gfx1201 128x128 over 4 waves, 272, holds 252). A default block
/// is halved along its longer side until it fits; a block the description
/// gives is refused.
static llvm::Error fitRegisters(GemmDescription &d, const ChipInfo &chip,
                                int64_t waves, int64_t elementBytes,
                                bool blockGiven) {
  // K-major operands read through transposed LDS reads (gfx950).
  bool kMajorA = d.layout == GemmLayout::tn || d.layout == GemmLayout::tt;
  bool kMajorB = d.layout == GemmLayout::nn || d.layout == GemmLayout::tn;
  int64_t transposedReads =
      chip.transposedLdsReads ? int64_t(kMajorA) + int64_t(kMajorB) : 0;
  int64_t wavesPerSimd = llvm::divideCeil(waves, chip.simdsPerCu);
  int64_t budget =
      std::min(chip.maxRegistersPerLane, chip.vgprsPerSimd / wavesPerSimd);
  auto needed = [&] {
    int64_t rows = *d.blockM / *d.waveRows, cols = *d.blockN / *d.waveCols;
    int64_t accumulators = rows * cols / chip.waveSize;
    int64_t operands =
        (rows + cols) * *d.kTile * elementBytes / 4 / chip.waveSize;
    return accumulators + operands + kOtherRegistersPerLane +
           kTransposedReadRegisters * transposedReads;
  };
  while (!blockGiven && needed() > budget &&
         std::min(*d.blockM, *d.blockN) > 32)
    (*d.blockM >= *d.blockN ? *d.blockM : *d.blockN) /= 2;
  if (needed() <= budget)
    return llvm::Error::success();
  return refuse(llvm::formatv("a {0}x{1} block over {2} waves needs about {3} "
                              "registers per lane (f32 accumulators, a K "
                              "tile's operands and {4} more), more than the "
                              "{5} a wave has at {6} wave(s) per SIMD: the "
                              "kernel would spill; give a smaller block",
                              *d.blockM, *d.blockN, waves, needed(),
                              kOtherRegistersPerLane +
                                  kTransposedReadRegisters * transposedReads,
                              budget, wavesPerSimd)
                    .str());
}

llvm::Expected<GemmDescription>
mlir::hk::kernels::resolveGemm(const GemmDescription &description) {
  GemmDescription d = description;
  const ChipInfo &chip = getChipInfo(d.chip);
  bool fp8 = isFp8(d.operands);
  if (d.operands != ElementKind::bf16 && !fp8)
    return refuse("A and B must be bf16, f8e4m3 or f8e5m2, not " +
                  stringifyElementKind(d.operands));
  if (d.result != ElementKind::bf16 && d.result != ElementKind::f16 &&
      d.result != ElementKind::f32)
    return refuse("C must be bf16, f16 or f32, not " +
                  stringifyElementKind(d.result));
  const MmaInstr *instr = findMma(chip, d.operands);
  if (!instr)
    return refuse(chip.name + " has no matrix instruction on " +
                  stringifyElementKind(d.operands));
  if (d.blockScales && !fp8)
    return refuse("block scales (MXFP8) need fp8 operands");
  if (d.blockScales && !instr->blockScales)
    return refuse(chip.name + " has no scaled matrix instruction (MXFP8 is " +
                  "gfx950's only)");
  if (fp8 && d.epilogue.any())
    return refuse("fp8 kernels scale C by their per-tensor or block scales; "
                  "the alpha/beta and bias epilogues need bf16 operands");
  if (fp8 && d.layout != GemmLayout::nt)
    return refuse("fp8 operands need layout nt (both K-minor): hk has no "
                  "transposed 8-bit LDS read or copy");
  if (d.blockScales && d.batched)
    return refuse("MXFP8 kernels are not batched");

  bool gfx950 = d.chip == Chip::gfx950;
  bool blockGiven = d.blockM || d.blockN;
  if (!d.blockM)
    d.blockM = gfx950 ? 256 : 128;
  if (!d.blockN)
    d.blockN = gfx950 ? 256 : 128;
  if (!d.waveRows)
    d.waveRows = 2;
  if (!d.waveCols)
    d.waveCols = 4;
  if (!d.kTile)
    d.kTile = fp8 ? 128 : 64;

  MmaShape mma = getMmaShape(instr->layout);
  int64_t halves = gfx950 ? 2 : 1;
  for (auto [name, value] :
       {std::pair<StringRef, int64_t>{"block-m", *d.blockM},
        {"block-n", *d.blockN},
        {"wave-rows", *d.waveRows},
        {"wave-cols", *d.waveCols},
        {"k-tile", *d.kTile}})
    if (value <= 0)
      return refuse(name + " must be positive, not " + llvm::Twine(value));
  int64_t waves = *d.waveRows * *d.waveCols;
  if (waves * chip.waveSize > 1024)
    return refuse(llvm::formatv("{0} waves of {1} lanes exceed a workgroup's "
                                "1024",
                                waves, chip.waveSize)
                      .str());
  auto divides = [&](int64_t block, int64_t wavesAlong, int64_t step,
                     StringRef what) -> llvm::Error {
    if (block % (halves * wavesAlong * step) == 0)
      return llvm::Error::success();
    return refuse(llvm::formatv("{0} {1} is not a multiple of {2}: {3} "
                                "wave(s) along it, each a multiple of the "
                                "MMA's {4}{5}",
                                what, block, halves * wavesAlong * step,
                                wavesAlong, step,
                                halves > 1 ? ", in two halves" : "")
                      .str());
  };
  if (llvm::Error e = divides(*d.blockM, *d.waveRows, mma.m, "block-m"))
    return std::move(e);
  if (llvm::Error e = divides(*d.blockN, *d.waveCols, mma.n, "block-n"))
    return std::move(e);
  if (*d.kTile % mma.k)
    return refuse(llvm::formatv("k-tile {0} is not a multiple of the MMA's "
                                "k of {1}",
                                *d.kTile, mma.k)
                      .str());
  int64_t elementBytes = fp8 ? 1 : 2;
  // The copies give every lane whole 16-byte chunks of each shared tile.
  int64_t threads = waves * chip.waveSize;
  for (int64_t rows : {*d.blockM / halves, *d.blockN / halves}) {
    int64_t chunks = rows * *d.kTile * elementBytes / 16;
    if (chunks % threads)
      return refuse(llvm::formatv("a {0}x{1} shared tile is {2} chunks of 16 "
                                  "bytes, which do not split over the "
                                  "workgroup's {3} lanes",
                                  rows, *d.kTile, chunks, threads)
                        .str());
  }
  int64_t lds = (*d.blockM + *d.blockN) * *d.kTile * elementBytes;
  if (lds > chip.ldsBytes)
    return refuse(llvm::formatv("its shared tiles need {0} bytes of LDS, more "
                                "than {1}'s {2}",
                                lds, chip.name, chip.ldsBytes)
                      .str());
  GemmDescription fitted = d;
  if (llvm::Error e =
          fitRegisters(fitted, chip, waves, elementBytes, blockGiven))
    return std::move(e);
  if (fitted.blockM == d.blockM && fitted.blockN == d.blockN)
    return d;
  // A smaller default block is checked again as if the description gave
  // it; if no kernel serves it either, the default block's reason stands.
  llvm::Expected<GemmDescription> retiled = resolveGemm(fitted);
  if (retiled)
    return retiled;
  llvm::consumeError(retiled.takeError());
  return std::move(fitRegisters(d, chip, waves, elementBytes,
                                /*blockGiven=*/true));
}

MemRefType mlir::hk::kernels::getGemmMatrixType(Type element, bool batched) {
  int64_t dyn = ShapedType::kDynamic;
  if (!batched)
    return MemRefType::get({dyn, dyn}, element);
  return MemRefType::get(
      {dyn, dyn, dyn}, element,
      StridedLayoutAttr::get(element.getContext(), 0, {dyn, dyn, 1}));
}

std::string mlir::hk::kernels::getGemmKernelName(const GemmDescription &d) {
  std::string name = "gemm_";
  name += d.blockScales ? "mxfp8" : isFp8(d.operands) ? "fp8" : "bf16";
  int64_t waves = d.waveRows.value_or(2) * d.waveCols.value_or(4);
  if (waves != 8)
    name += "_" + llvm::itostr(waves) + "wave";
  if (d.result != ElementKind::bf16)
    name += ("_c" + stringifyElementKind(d.result)).str();
  if (d.batched)
    name += "_batched";
  return name;
}

GemmPlan mlir::hk::kernels::planGemm(const GemmDescription &d) {
  GemmPlan p;
  p.d = d;
  p.chip = &getChipInfo(d.chip);
  p.mma = getMmaShape(findMma(*p.chip, d.operands)->layout);
  p.fp8 = isFp8(d.operands);
  p.halves = d.chip == Chip::gfx950;
  p.aKMajor = d.layout == GemmLayout::tn || d.layout == GemmLayout::tt;
  p.bKMajor = d.layout == GemmLayout::nn || d.layout == GemmLayout::tn;
  return p;
}

SmallVector<std::pair<StringRef, Type>> GemmEmitter::arguments() {
  int64_t dyn = ShapedType::kDynamic;
  auto matrix = [&](Type element) -> Type {
    return getGemmMatrixType(element, p.d.batched);
  };
  SmallVector<std::pair<StringRef, Type>> args = {
      {"A", matrix(abType())},
      {"B", matrix(abType())},
      {"C", matrix(getElementType(ctx(), p.d.result))}};
  if (p.d.blockScales) {
    Type e8m0 = Float8E8M0FNUType::get(ctx());
    args.push_back({"SA", MemRefType::get({dyn, dyn}, e8m0)});
    args.push_back({"SB", MemRefType::get({dyn, dyn}, e8m0)});
  } else if (p.fp8) {
    args.push_back({"scale_a", f32()});
    args.push_back({"scale_b", f32()});
  }
  if (p.d.epilogue.bias)
    args.push_back({"bias", MemRefType::get({dyn}, f32())});
  if (p.d.epilogue.alphaBeta) {
    args.push_back({"alpha", f32()});
    args.push_back({"beta", f32()});
  }
  return args;
}

SmallVector<SizeTerm> GemmEmitter::grid() {
  // C is argument 2; the batch is its first dimension when batched.
  int64_t first = p.d.batched ? 1 : 0;
  SmallVector<SizeTerm> terms = {{2, first + 1, *p.d.blockN, true},
                                 {2, first, *p.d.blockM, true}};
  if (p.d.batched)
    terms.push_back({2, 0, 1, false});
  return terms;
}

SharedTileType GemmEmitter::tileOf(bool kMajor, int64_t extent) {
  Swizzle swizzle;
  ColumnPermutation permutation = ColumnPermutation::identity;
  if (p.halves) {
    swizzle = p.fp8 ? Swizzle::st_16x128 : Swizzle::st_16x32;
  } else if (p.fp8) {
    swizzle = Swizzle::st_16x128_b64;
  } else {
    swizzle = Swizzle::st_8x64;
    permutation = ColumnPermutation::block4_0213;
  }
  // gfx950 keeps a K-major operand's tiles in its global orientation and
  // reads them transposed; gfx1201 transposes in the copy.
  if (kMajor && p.halves)
    return kb.sharedTile(*p.d.kTile, extent, abType(), swizzle, permutation);
  return kb.sharedTile(extent, *p.d.kTile, abType(), swizzle, permutation);
}

FragmentType GemmEmitter::operandType(FragmentRole role, int64_t extent) {
  return kb.fragment(role, extent, p.fragmentK(), abType(), p.mma);
}

void GemmEmitter::copy(Value source, Value at, Value kAt, Value tile,
                       bool kMajor) {
  Value row = kMajor ? kAt : at, col = kMajor ? at : kAt;
  if (rowIds && source == a) {
    // A's rows gathered: tile row i is A's row rowIds[at + i] / divisor.
    kb.create<CopyToSharedOp>("", source, kb.index(0), col, tile, kb.index(0),
                              /*direct=*/false, /*transpose=*/false,
                              BoundsMode::partial, rowIds, at, rowIdsDivisor);
    return;
  }
  kb.create<CopyToSharedOp>("", source, row, col, tile, kb.index(0),
                            /*direct=*/false,
                            /*transpose=*/kMajor && !p.halves,
                            BoundsMode::partial);
}

Value GemmEmitter::load(StringRef name, Value tile, bool kMajor, Value at,
                        Value kAt, FragmentRole role, int64_t extent) {
  bool transposed = kMajor && p.halves;
  Value row = transposed ? kAt : at, col = transposed ? at : kAt;
  return kb.create<LoadFragmentOp>(name, operandType(role, extent), tile,
                                   kb.index(0), row, col, transposed);
}

gpu::GPUModuleOp GemmEmitter::emit() {
  kb.startKernel("hk_gemm", getGemmKernelName(p.d), arguments(), p.threads(),
                 grid());
  zero = kb.f32("zero", 0.0);
  a = kb.arg("A");
  bMat = kb.arg("B");
  c = kb.arg("C");
  if (p.d.batched) {
    // This workgroup's batch: 2-D views of its A, B and C.
    Value batch = kb.create<gpu::BlockIdOp>("batch", gpu::Dimension::z);
    Value m = kb.dim("M", a, 1 + (p.aKMajor ? 1 : 0));
    k = kb.dim("K", a, 1 + kDimOfA());
    Value n = kb.dim("N", bMat, 1 + (p.bKMajor ? 1 : 0));
    auto view = [&](StringRef name, Value source, Value rows, Value cols) {
      int64_t dyn = ShapedType::kDynamic;
      Type element = cast<MemRefType>(source.getType()).getElementType();
      auto layout = StridedLayoutAttr::get(ctx(), dyn, {dyn, 1});
      auto type = MemRefType::get({dyn, dyn}, element, layout);
      SmallVector<OpFoldResult> offsets = {batch, kb.b.getIndexAttr(0),
                                           kb.b.getIndexAttr(0)};
      SmallVector<OpFoldResult> sizes = {kb.b.getIndexAttr(1), rows, cols};
      SmallVector<OpFoldResult> strides(3, kb.b.getIndexAttr(1));
      return kb.create<memref::SubViewOp>(name, type, source, offsets, sizes,
                                          strides);
    };
    a = p.aKMajor ? view("Ab", a, k, m) : view("Ab", a, m, k);
    bMat = p.bKMajor ? view("Bb", bMat, k, n) : view("Bb", bMat, n, k);
    c = view("Cb", c, m, n);
  }
  if (p.d.blockScales) {
    sa = kb.arg("SA");
    sb = kb.arg("SB");
  }
  allocTiles();
  Value m0 = kb.create<gpu::BlockIdOp>("m0", gpu::Dimension::y);
  Value n0 = kb.create<gpu::BlockIdOp>("n0", gpu::Dimension::x);
  placeTile(m0, n0);
  placeWaves();
  if (!p.d.batched)
    k = kb.dim("K", a, kDimOfA());
  SmallVector<Value> accs = emitLoop();
  if (p.fp8 && !p.d.blockScales) {
    // C = scale_a * scale_b * (A B^T), in f32, rounded once to C's type.
    scale =
        kb.create<arith::MulFOp>("scale", kb.arg("scale_a"), kb.arg("scale_b"));
    scaleSingleBlock(accs);
  }
  emitEpilogue(placeBlocks(accs));
  return kb.finishKernel();
}

void GemmEmitter::scaleSingleBlock(SmallVectorImpl<Value> &accs) {
  if (!scale || p.halves)
    return;
  accs[0] = kb.map("d", accType(), accs[0], {"x"}, [&](ValueRange x) -> Value {
    return kb.create<arith::MulFOp>("y", scale, x[0]);
  });
}

void GemmEmitter::allocTiles() {
  SharedTileType aTile = tileOf(p.aKMajor, p.tileM());
  SharedTileType bTile = tileOf(p.bKMajor, p.tileN());
  if (!p.halves) {
    as[0] = kb.create<AllocSharedOp>("As", aTile);
    bs[0] = kb.create<AllocSharedOp>("Bs", bTile);
    if (p.gated)
      bs[1] = kb.create<AllocSharedOp>("Bs_up", bTile);
    return;
  }
  as[0] = kb.create<AllocSharedOp>("As0", aTile);
  as[1] = kb.create<AllocSharedOp>("As1", aTile);
  bs[0] = kb.create<AllocSharedOp>("Bs0", bTile);
  bs[1] = kb.create<AllocSharedOp>("Bs1", bTile);
}

void GemmEmitter::placeTile(Value mTile, Value nTile) {
  rowBase[0] = kb.mul("row0", mTile, kb.index(*p.d.blockM));
  colBase[0] = kb.mul("col0", nTile, kb.index(p.blockColumns()));
  if (!p.halves) {
    if (p.gated)
      colBase[1] = kb.add("col_up", upColumn, colBase[0]);
    return;
  }
  rowBase[1] = kb.add("row1", rowBase[0], kb.index(p.tileM()));
  colBase[1] = p.gated ? kb.add("col1", upColumn, colBase[0])
                       : kb.add("col1", colBase[0], kb.index(p.tileN()));
}

SmallVector<Value> GemmEmitter::emitLoop() {
  return p.halves ? emitHalvesLoop() : emitSingleLoop();
}

void GemmEmitter::placeHalves() {
  r[0] = kb.add("r0", rowBase[0], wm);
  r[1] = kb.add("r1", rowBase[1], wm);
  n[0] = kb.add("n0w", colBase[0], wn);
  n[1] = kb.add("n1w", colBase[1], wn);
}

SmallVector<WaveBlock> GemmEmitter::placeBlocks(ArrayRef<Value> accs) {
  if (!p.halves) {
    Value row = kb.add("cm", rowBase[0], wm),
          col = kb.add("cn", colBase[0], wn);
    SmallVector<WaveBlock> blocks;
    for (Value acc : accs)
      blocks.push_back({acc, row, col});
    return blocks;
  }
  if (!p.d.blockScales)
    placeHalves();
  return {{accs[0], r[0], n[0]},
          {accs[1], r[0], n[1]},
          {accs[2], r[1], n[0]},
          {accs[3], r[1], n[1]}};
}

/// (wm, wn): the wave's first row of a tile of A and first column of a
/// tile of B.
void GemmEmitter::placeWaves() {
  Value tid = kb.create<gpu::ThreadIdOp>("tid", gpu::Dimension::x);
  Value wave = kb.div("wave", tid, kb.index(p.chip->waveSize));
  Value waveRow = kb.div("wave_row", wave, kb.index(*p.d.waveCols));
  Value waveCol = kb.rem("wave_col", wave, kb.index(*p.d.waveCols));
  wm = kb.mul("wm", waveRow, kb.index(p.waveM()));
  wn = kb.mul("wn", waveCol, kb.index(p.waveN()));
}

SmallVector<Value> GemmEmitter::emitHalvesLoop() {
  // The blocks' places in C, before the loop when the loop reads their
  // scales (after it otherwise, see placeBlocks).
  // Their rows in the scale arrays, offset when these are whole.
  Value scaleRowsA[2], scaleRowsB[2];
  if (p.d.blockScales) {
    placeHalves();
    for (int h = 0; h < 2; ++h) {
      scaleRowsA[h] =
          saFirstRow ? kb.add(h ? "sar1" : "sar0", saFirstRow, r[h]) : r[h];
      scaleRowsB[h] =
          sbFirstRow ? kb.add(h ? "sbr1" : "sbr0", sbFirstRow, n[h]) : n[h];
    }
  }

  FragmentType acc = accType();
  Value init = kb.create<FillFragmentOp>("init", acc, zero);
  auto loop = kb.create<scf::ForOp>("acc", kb.index(0), k, kb.index(*p.d.kTile),
                                    ValueRange{init, init, init, init});
  Block *body = loop.getBody();
  loop.getInductionVar().setLoc(kb.loc("k"));
  StringRef accNames[] = {"c00", "c01", "c10", "c11"};
  for (auto [arg, name] : llvm::zip(loop.getRegionIterArgs(), accNames))
    arg.setLoc(kb.loc(name));
  {
    OpBuilder::InsertionGuard guard(kb.b);
    kb.b.setInsertionPointToStart(body);
    Value kIv = loop.getInductionVar();
    for (int h = 0; h < 2; ++h)
      copy(a, rowBase[h], kIv, as[h], p.aKMajor);
    for (int h = 0; h < 2; ++h)
      copy(bMat, colBase[h], kIv, bs[h], p.bKMajor);
    kb.create<amdgpu::LDSBarrierOp>("");

    SmallVector<Value> scalesA, scalesB;
    if (p.d.blockScales) {
      // This wave's block scales for the K tile: one per 32 k of a row.
      Value kBlock = kb.div("kb", kIv, kb.index(kScaleBlock));
      Type e8m0 = Float8E8M0FNUType::get(ctx());
      int64_t perRow = *p.d.kTile / kScaleBlock;
      auto scaleType = [&](int64_t rows) {
        return kb.fragment(FragmentRole::scale, rows, perRow, e8m0, p.mma);
      };
      for (int h = 0; h < 2; ++h) {
        StringRef name = h ? "sa1" : "sa0";
        // Gathered rows: SA is per token, its rows gathered as A's are.
        if (rowIds)
          scalesA.push_back(kb.create<ReadFragmentOp>(
              name, scaleType(p.waveM()), sa, ValueRange{kb.index(0), kBlock},
              /*transpose=*/false, BoundsMode::partial, rowIds, scaleRowsA[h],
              rowIdsDivisor));
        else
          scalesA.push_back(kb.create<ReadFragmentOp>(
              name, scaleType(p.waveM()), sa, ValueRange{scaleRowsA[h], kBlock},
              /*transpose=*/false, BoundsMode::partial));
      }
      for (int h = 0; h < 2; ++h)
        scalesB.push_back(kb.create<ReadFragmentOp>(
            h ? "sb1" : "sb0", scaleType(p.waveN()), sb,
            ValueRange{scaleRowsB[h], kBlock}, /*transpose=*/false,
            BoundsMode::partial));
    }

    // C00, C01, C10, C11, each loading the operands it is the first to
    // need: the order hk-schedule-ping-pong turns into clusters.
    Value aFrag[2], bFrag[2], out[4];
    auto mma = [&](int i, int j) {
      if (!bFrag[j])
        bFrag[j] = load(j ? "b1" : "b0", bs[j], p.bKMajor, wn, kb.index(0),
                        FragmentRole::b, p.waveN());
      if (!aFrag[i])
        aFrag[i] = load(i ? "a1" : "a0", as[i], p.aKMajor, wm, kb.index(0),
                        FragmentRole::a, p.waveM());
      // The scales arranged for the MFMA before the first MMA, A's two
      // fragments together and B's (arrangeScaleWords goes by pairs): a
      // schedule runs the arrangement with the MMA before.
      auto arrange = [&](SmallVectorImpl<Value> &scales, const char *name) {
        SmallVector<Type> types;
        for (Value s : scales) {
          auto type = cast<FragmentType>(s.getType());
          types.push_back(kb.fragment(FragmentRole::scale_mma, type.getRows(),
                                      type.getCols(), type.getElementType(),
                                      p.mma));
        }
        auto op = kb.create<ToOperandOp>(name, types, ValueRange(scales));
        llvm::copy(op.getOutputs(), scales.begin());
      };
      if (p.d.blockScales && i == 0 && j == 0) {
        arrange(scalesA, "ta");
        arrange(scalesB, "tb");
      }
      SmallVector<Value> scales;
      if (p.d.blockScales)
        scales = {scalesA[i], scalesB[j]};
      std::string name = llvm::formatv("d{0}{1}", i, j).str();
      out[2 * i + j] =
          kb.create<MmaOp>(name, acc, aFrag[i], bFrag[j],
                           body->getArgument(1 + 2 * i + j), scales);
    };
    mma(0, 0);
    mma(0, 1);
    mma(1, 0);
    mma(1, 1);
    // Nobody refills LDS while another wave still reads it.
    kb.create<amdgpu::LDSBarrierOp>("");
    kb.create<scf::YieldOp>("", ValueRange(out));
  }
  return SmallVector<Value>(loop.getResults());
}

SmallVector<Value> GemmEmitter::emitSingleLoop() {
  // Gated: a second B tile (the up rows) and its accumulator.
  int operands = p.gated ? 2 : 1;
  FragmentType acc = accType();
  Value init = kb.create<FillFragmentOp>("init", acc, zero);
  auto loop = kb.create<scf::ForOp>("acc", kb.index(0), k, kb.index(*p.d.kTile),
                                    SmallVector<Value>(operands, init));
  loop.getInductionVar().setLoc(kb.loc("k"));
  StringRef carried[] = {"c_k", "u_k"}, chunkCarried[] = {"c_kk", "u_kk"},
            bNames[] = {"b", "b_up"}, outNames[] = {"c_out", "u_out"};
  for (int j = 0; j < operands; ++j)
    loop.getRegionIterArgs()[j].setLoc(kb.loc(carried[j]));
  {
    OpBuilder::InsertionGuard guard(kb.b);
    kb.b.setInsertionPointToStart(loop.getBody());
    Value kIv = loop.getInductionVar();
    copy(a, rowBase[0], kIv, as[0], p.aKMajor);
    for (int j = 0; j < operands; ++j)
      copy(bMat, colBase[j], kIv, bs[j], p.bKMajor);
    kb.create<amdgpu::LDSBarrierOp>("");
    // The K tile in k-chunks of the WMMA's 16.
    auto chunks = kb.create<scf::ForOp>("c_next", kb.index(0),
                                        kb.index(*p.d.kTile), kb.index(p.mma.k),
                                        ValueRange(loop.getRegionIterArgs()));
    chunks.getInductionVar().setLoc(kb.loc("kk"));
    for (int j = 0; j < operands; ++j)
      chunks.getRegionIterArgs()[j].setLoc(kb.loc(chunkCarried[j]));
    {
      OpBuilder::InsertionGuard inner(kb.b);
      kb.b.setInsertionPointToStart(chunks.getBody());
      Value kk = chunks.getInductionVar();
      Value aFrag = load("a", as[0], false, wm, kk, FragmentRole::a, p.waveM());
      SmallVector<Value> outs;
      for (int j = 0; j < operands; ++j) {
        Value bFrag =
            load(bNames[j], bs[j], false, wn, kk, FragmentRole::b, p.waveN());
        outs.push_back(kb.create<MmaOp>(outNames[j], acc, aFrag, bFrag,
                                        chunks.getRegionIterArgs()[j],
                                        ValueRange{}));
      }
      kb.create<scf::YieldOp>("", outs);
    }
    kb.create<amdgpu::LDSBarrierOp>("");
    kb.create<scf::YieldOp>("", chunks.getResults());
  }
  return SmallVector<Value>(loop.getResults());
}

void GemmEmitter::store(Value value, const WaveBlock &block) {
  if (rowIds) {
    // Each row back to its slot: C's row rowIds[block.row + r].
    kb.create<StoreFragmentOp>("", value, c, kb.index(0), block.col,
                               /*transpose=*/false, BoundsMode::partial, rowIds,
                               block.row, kb.index(1));
    return;
  }
  kb.create<StoreFragmentOp>("", value, c, block.row, block.col,
                             /*transpose=*/false, BoundsMode::partial);
}

void GemmEmitter::emitEpilogue(ArrayRef<WaveBlock> blocks) {
  auto indexed = [&](StringRef base, size_t i) {
    return blocks.size() == 1 ? base.str() : (base + llvm::Twine(i)).str();
  };
  FragmentType acc = accType();
  if (scale) {
    // gfx1201's one block is scaled already (emit).
    for (auto [i, block] : llvm::enumerate(blocks)) {
      Value d = !p.halves ? block.acc
                          : kb.map(indexed("d", i), acc, block.acc, {"x"},
                                   [&](ValueRange x) -> Value {
                                     return kb.create<arith::MulFOp>("y", scale,
                                                                     x[0]);
                                   });
      store(d, block);
    }
    return;
  }
  // beta = 0 reads no C (BLAS). Each block is read, combined and stored in
  // its own branch, so at most one block of C is live at a time.
  Value readC;
  if (p.d.epilogue.alphaBeta)
    readC = kb.create<arith::CmpFOp>("read_c", arith::CmpFPredicate::UNE,
                                     kb.arg("beta"), zero);
  for (auto [i, block] : llvm::enumerate(blocks)) {
    Value bias;
    if (p.d.epilogue.bias)
      bias = kb.create<ReadFragmentOp>(
          indexed("bias", i), acc, kb.arg("bias"), ValueRange{block.col},
          /*transpose=*/false, BoundsMode::partial);
    if (p.d.epilogue.alphaBeta) {
      emitBlasBlock(block, bias, readC);
    } else if (bias) {
      Value d = kb.map(indexed("d", i), acc, {block.acc, bias}, {"x", "z"},
                       [&](ValueRange x) -> Value {
                         return kb.create<arith::AddFOp>("out", x[0], x[1]);
                       });
      store(d, block);
    } else {
      store(block.acc, block);
    }
  }
}

void GemmEmitter::emitBlasBlock(const WaveBlock &block, Value bias,
                                Value readC) {
  FragmentType acc = accType();
  Value alpha = kb.arg("alpha"), beta = kb.arg("beta");
  auto ifOp = kb.create<scf::IfOp>("", readC, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(kb.b);
  // alpha * acc + beta * C (+ bias).
  kb.b.setInsertionPointToStart(ifOp.thenBlock());
  Value old =
      kb.create<ReadFragmentOp>("old", acc, c, ValueRange{block.row, block.col},
                                /*transpose=*/false, BoundsMode::partial);
  SmallVector<Value> inputs = {block.acc, old};
  SmallVector<StringRef> names = {"x", "y"};
  if (bias) {
    inputs.push_back(bias);
    names.push_back("z");
  }
  store(kb.map("d", acc, inputs, names,
               [&](ValueRange x) -> Value {
                 Value ax = kb.create<arith::MulFOp>("ax", alpha, x[0]);
                 Value by = kb.create<arith::MulFOp>("by", beta, x[1]);
                 Value sum =
                     kb.create<arith::AddFOp>(bias ? "sum" : "out", ax, by);
                 return bias ? kb.create<arith::AddFOp>("out", sum, x[2]) : sum;
               }),
        block);
  // alpha * acc (+ bias), C unread.
  kb.b.setInsertionPointToStart(ifOp.elseBlock());
  inputs = {block.acc};
  names = {"x"};
  if (bias) {
    inputs.push_back(bias);
    names.push_back("z");
  }
  store(kb.map("d", acc, inputs, names,
               [&](ValueRange x) -> Value {
                 Value ax =
                     kb.create<arith::MulFOp>(bias ? "ax" : "out", alpha, x[0]);
                 return bias ? kb.create<arith::AddFOp>("out", ax, x[1]) : ax;
               }),
        block);
}

llvm::Expected<gpu::GPUModuleOp>
mlir::hk::kernels::buildGemmKernel(OpBuilder &builder,
                                   const GemmDescription &description) {
  llvm::Expected<GemmDescription> resolved = resolveGemm(description);
  if (!resolved)
    return resolved.takeError();
  MLIRContext *ctx = builder.getContext();
  ctx->loadDialect<HKDialect, amdgpu::AMDGPUDialect, arith::ArithDialect,
                   gpu::GPUDialect, memref::MemRefDialect, ROCDL::ROCDLDialect,
                   scf::SCFDialect>();
  OpBuilder::InsertionGuard guard(builder);
  GemmPlan plan = planGemm(*resolved);
  GemmEmitter emitter(builder, plan);
  if (llvm::Error e = emitter.verifyTypes())
    return refuse(llvm::toString(std::move(e)));
  gpu::GPUModuleOp kernel = emitter.emit();
  if (llvm::Error e = verifyKernel(kernel))
    return std::move(e);
  return kernel;
}

std::string mlir::hk::kernels::describeGemmKernel(const GemmDescription &d) {
  GemmPlan p = planGemm(d);
  std::string text;
  llvm::raw_string_ostream os(text);
  StringRef ab = d.blockScales ? "MXFP8" : p.fp8 ? "fp8" : "bf16";
  os << "The " << ab << " GEMM for " << p.chip->name << " (" << p.chip->family
     << ")";
  if (d.batched)
    os << ", batched";
  os << ", operand layout \"" << stringifyGemmLayout(d.layout) << "\".\n\n";

  std::string a = p.aKMajor ? "A[K, M]^T" : "A[M, K]";
  std::string b = p.bKMajor ? "B[K, N]" : "B[N, K]^T";
  std::string batch = d.batched ? "[b]" : "";
  os << "  C" << batch << "[M, N] (" << stringifyElementKind(d.result)
     << ") = ";
  if (d.blockScales)
    os << "sum over k of A[m, k] 2^(SA[m, k / 32] - 127) * B[n, k] "
          "2^(SB[n, k / 32] - 127)";
  else
    os << (d.epilogue.alphaBeta ? "alpha * " : "")
       << (p.fp8 ? "scale_a * scale_b * " : "") << a << batch << " @ " << b
       << batch << (d.epilogue.alphaBeta ? " + beta * C" + batch : "")
       << (d.epilogue.bias ? " + bias[n]" : "");
  os << "\n\n";

  os << "A and B " << stringifyElementKind(d.operands);
  if (d.blockScales)
    os << " with E8M0 scales per 32 k of each row (SA M x ceil(K / 32), SB "
          "N x ceil(K / 32))";
  else if (p.fp8)
    os << " with per-tensor f32 scales";
  os << ", fp32 accumulation, row-major";
  if (d.batched)
    os << " with leading strides given at run time (padded rows), the "
          "batch first";
  if (d.epilogue.alphaBeta)
    os << "; beta = 0 reads no C (BLAS)";
  if (d.epilogue.bias)
    os << "; bias f32, one per column of C";
  os << ".";
  if (p.fp8)
    os << " `hk-compile --fp8=e5m2` and `hk-run --dtype=e5m2` give the same "
          "kernel on the other fp8 format.";
  if (d.layout != GemmLayout::nt)
    os << " Run it with hk-run --layout=" << stringifyGemmLayout(d.layout)
       << ".";
  os << "\n\n";

  int64_t tileBytes = p.tileM() * *d.kTile * (p.fp8 ? 1 : 2);
  os << "One workgroup of " << p.waves() << " waves (" << *d.waveRows << " x "
     << *d.waveCols << ", " << p.threads() << " lanes) computes a " << *d.blockM
     << "x" << *d.blockN << " tile of C, " << *d.kTile
     << " k per trip of the K loop. ";
  if (p.halves)
    os << "As in HipKittens, the K tiles of A and B are each held as two "
          "halves (A's of "
       << p.tileM() << " rows, B's of " << p.tileN()
       << "; four shared tiles of " << tileBytes / 1024
       << " KiB), and every wave owns four " << p.waveM() << "x" << p.waveN()
       << " blocks of C, one per pair of halves, in the order C00, C01, "
          "C10, C11, each loading the operands it is the first to need: the "
          "shape hk-schedule-ping-pong turns into HipKittens' clusters.";
  else
    os << "Each wave owns a " << p.waveM() << "x" << p.waveN()
       << " warp tile and consumes the K tile in k-chunks of " << p.mma.k
       << ".";
  os << " Each MMA is " << findMma(*p.chip, d.operands)->mnemonic;
  if (d.blockScales)
    os << " with block scales (v_mfma_scale_f32_16x16x128_f8f6f4, "
          "amdgpu.scaled_mfma), the 4 scales of a 64-row fragment in one "
          "register picked by op_sel; each wave reads its rows' scales for "
          "the K tile (hk.read_fragment in the scales' lane layout: lane l "
          "holds row l % 16's scale of block l / 16)";
  os << ".";
  if (p.halves && p.fp8)
    os << " The fp8 tiles take HipKittens' st_16x128 swizzle; each "
          "fragment is read as two ds_read_b128.";
  else if (p.halves)
    os << " The tiles take the st_16x32 swizzle.";
  else if (p.fp8)
    os << " A lane's fp8 operand is 8 contiguous bytes, one ds_load_b64; "
          "the st_16x128_b64 swizzle (8-byte groups XORed with the row) "
          "keeps the fragment reads and the fills free of bank conflicts.";
  else
    os << " The tiles take st_8x64 plus the block4_0213 column "
          "permutation, so each lane's WMMA operand (k 0-3 and 8-11, or 4-7 "
          "and 12-15) is 8 contiguous bf16, one 16-byte LDS read, and the "
          "8 rows an RDNA4 phase of such reads touches lie in 8 different "
          "bank groups.";
  int64_t accRegisters =
      (p.halves ? 4 : 1) * p.waveM() * p.waveN() / p.chip->waveSize;
  if (accRegisters >= 256)
    os << " The " << accRegisters
       << " accumulator registers per lane do not fit beside the operands "
          "in 256 VGPRs: at one wave per SIMD the wave has 512 registers, "
          "and LLVM keeps the accumulators in AGPRs, which the MFMA reads "
          "and writes directly.";
  if (p.aKMajor || p.bKMajor)
    os << (p.halves ? " The K-major operand's tiles keep its global "
                      "orientation and are read transposed "
                      "(amdgpu.transpose_load, ds_read_b64_tr_b16). Its "
                      "copies stay `bounds partial` in every K tile (the M "
                      "or N edge is in their columns), so they take the "
                      "register path, and hk-schedule-ping-pong refuses "
                      "them."
                    : " The K-major operand is transposed by its copies "
                      "(each thread reads 4 rows of 8 elements and "
                      "transposes them in registers): gfx1201 has no "
                      "transposed LDS read.");
  if (d.batched)
    os << " Each workgroup takes one batch (block z); memref.subview gives "
          "the batch's matrices, whose offset and strides the copies and "
          "stores follow.";
  if (d.epilogue.any())
    os << " The epilogue reads each wave's block of "
       << (d.epilogue.alphaBeta && d.epilogue.bias ? "C and of the bias"
           : d.epilogue.bias                       ? "the bias"
                                                   : "C")
       << " in the accumulator layout (hk.read_fragment), combines them "
          "elementwise (hk.map) and stores"
       << (d.epilogue.alphaBeta ? "; each block is read, combined and "
                                  "stored in its own branch, so at most one "
                                  "block of C is live at a time."
                                : ".");
  os << "\n\n";

  os << "Launch (recorded in hk.launch): grid (ceil(N / " << *d.blockN
     << "), ceil(M / " << *d.blockM << ")" << (d.batched ? ", batch" : "")
     << "), block (" << p.threads()
     << ", 1, 1). Any M, N, K >= 1: the copies and stores take `bounds "
        "partial` (zeros read past the matrices, nothing written past C), "
        "and hk-peel-partial-tiles gives the whole K tiles a loop without "
        "masks.";
  return text;
}
