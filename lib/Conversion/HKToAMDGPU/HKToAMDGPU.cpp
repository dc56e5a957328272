//===- HKToAMDGPU.cpp - lowering hk to amdgpu -----------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the convert-hk-to-amdgpu pass: the chip-aware
// patterns lowering hk tiles and fragments to LDS memrefs, per-lane vectors,
// vector loads/stores at swizzled addresses and amdgpu.mfma / amdgpu.wmma.
//
//===----------------------------------------------------------------------===//

#include "HK/Conversion/HKToAMDGPU/HKToAMDGPU.h"

#include "LdsPlacement.h"
#include "LoweringSupport.h"

#include "HK/Conversion/HKToAMDGPU/BufferAccess.h"
#include "HK/Conversion/HKToAMDGPU/LayoutEmission.h"
#include "HK/Conversion/Passes.h"
#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Dialect/HK/Utils/AccessPlan.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "convert-hk-to-amdgpu"

namespace mlir::hk {
#define GEN_PASS_DEF_CONVERTHKTOAMDGPU
#include "HK/Conversion/Passes.h.inc"
} // namespace mlir::hk

using namespace mlir;
using namespace mlir::hk;
using namespace mlir::hk::detail;

/// Checks what the lowering of `op` needs beyond the verifier: the
/// workgroup size (copies and lane ids), and for copies a tile that splits
/// evenly into the workgroup's 16-byte chunks. Emits the reason on failure
/// when `emitErrors` is set.
LogicalResult mlir::hk::detail::checkLowerable(Operation *op, bool emitErrors) {
  auto error = [&](auto &&...parts) {
    if (emitErrors)
      (op->emitOpError() << ... << parts);
    return failure();
  };
  if (!isa<CopyToSharedOp, LoadFragmentOp, ReadFragmentOp, StoreFragmentOp,
           StoreSharedOp>(op))
    return success();
  DenseI32ArrayAttr block = getKnownBlockSize(op);
  if (!block)
    return error("needs the workgroup size: put it in a gpu.func with "
                 "known_block_size = array<i32: x, y, z>");
  int64_t lanes = 1;
  for (int32_t size : block.asArrayRef())
    lanes *= size;
  if (llvm::any_of(block.asArrayRef(), [](int32_t n) { return n < 1; }) ||
      lanes > 1024)
    return error("needs a workgroup of 1 to 1024 lanes with every dimension "
                 "at least 1, got known_block_size = [",
                 block[0], ", ", block[1], ", ", block[2], "]");
  auto copy = dyn_cast<CopyToSharedOp>(op);
  if (!copy)
    return success();
  TileLayout layout = copy.getTile().getType().getLayout();
  int64_t vec = kChunkBytes / layout.elementBytes;
  int64_t threads = int64_t(block[0]) * block[1] * block[2];
  if (copy.getTranspose()) {
    int64_t blocks = layout.numElements() / (vec * kTransposedCopyRun);
    if (blocks % threads != 0)
      return error("the ", layout.rows, "x", layout.cols, " tile is ", blocks,
                   " blocks of ", vec, "x", kTransposedCopyRun,
                   " elements, not a multiple of the ", threads,
                   " threads of the workgroup");
    return success();
  }
  if (layout.cols % vec != 0)
    return error("tile rows of ", layout.cols,
                 " elements are not a whole number of 16-byte chunks of ", vec,
                 " elements");
  int64_t chunks = layout.numElements() / vec;
  if (chunks % threads != 0)
    return error("the ", layout.rows, "x", layout.cols, " tile is ", chunks,
                 " chunks of 16 bytes, not a multiple of the ", threads,
                 " threads of the workgroup");
  return success();
}

namespace {

//===----------------------------------------------------------------------===//
// hk.alloc_shared
//===----------------------------------------------------------------------===//

struct AllocSharedLowering : OpConversionPattern<AllocSharedOp> {
  AllocSharedLowering(const TypeConverter &converter, MLIRContext *ctx,
                      std::shared_ptr<LdsPlan> plan)
      : OpConversionPattern(converter, ctx), plan(std::move(plan)) {}

  LogicalResult
  matchAndRewrite(AllocSharedOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getTypeConverter()->convertType<MemRefType>(op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "no LDS type");
    FailureOr<StringRef> name =
        plan->globalFor(op, rewriter, *getTypeConverter());
    if (failed(name))
      return rewriter.notifyMatchFailure(op, "no symbol table for its global");
    rewriter.replaceOpWithNewOp<memref::GetGlobalOp>(op, type, *name);
    return success();
  }

  std::shared_ptr<LdsPlan> plan;
};

} // namespace

namespace {

//===----------------------------------------------------------------------===//
// Fragment ops
//===----------------------------------------------------------------------===//

/// The origins a `rows x cols` access at (row, col) of a tile can take: the
/// constant ones as they are, the others every multiple of the fragment's
/// `step` that keeps the access inside the tile (what the ops require).
static SmallVector<Coord> accessOrigins(std::optional<int64_t> row,
                                        std::optional<int64_t> col, Coord step,
                                        int64_t rows, int64_t cols,
                                        const TileLayout &layout) {
  auto positions = [](std::optional<int64_t> at, int64_t step, int64_t size,
                      int64_t extent) {
    SmallVector<int64_t> out;
    if (at)
      out.push_back(*at);
    else
      for (int64_t p = 0; p + size <= extent; p += step)
        out.push_back(p);
    return out;
  };
  SmallVector<Coord> origins;
  for (int64_t r : positions(row, step.row, rows, layout.rows))
    for (int64_t c : positions(col, step.col, cols, layout.cols))
      origins.push_back(Coord{r, c});
  return origins;
}

/// The LDS element distance from a lane's `from` to its `to` (the pair
/// `places(lane)` gives, relative to the access's origin), if it is the
/// same for every lane and every one of `origins`.
template <typename Places>
static std::optional<int64_t>
uniformDisplacement(const TileLayout &layout, ArrayRef<Coord> origins,
                    int64_t waveSize, Places places) {
  std::optional<int64_t> delta;
  for (Coord o : origins)
    for (int64_t lane = 0; lane < waveSize; ++lane) {
      auto [from, to] = places(lane);
      int64_t d = layout.physicalOffset(o.row + to.row, o.col + to.col) -
                  layout.physicalOffset(o.row + from.row, o.col + from.col);
      if (delta && *delta != d)
        return std::nullopt;
      delta = d;
    }
  return delta;
}

/// The LDS element distance by which moving a transposed read from `from`
/// to `to` moves every lane's source, if it is the same for every lane and
/// every one of `origins` (accessOrigins) the load may take.
static std::optional<int64_t>
transposedReadDisplacement(const TileLayout &layout, MmaLayout mma,
                           FragmentLayout fragment, int64_t waveSize,
                           ArrayRef<Coord> origins, Coord from, Coord to) {
  return uniformDisplacement(layout, origins, waveSize, [&](int64_t lane) {
    Coord src = transposedReadSource(mma, fragment, lane, 0);
    return std::pair{Coord{src.row + from.row, src.col + from.col},
                     Coord{src.row + to.row, src.col + to.col}};
  });
}

/// The LDS element distance between element `toElem` of a fragment at
/// `to` and element `fromElem` of one at `from` (both relative to the
/// access's origin), if it is the same for every lane and every origin in
/// `origins`.
static std::optional<int64_t>
accessDisplacement(const TileLayout &layout, MmaLayout mma,
                   FragmentLayout fragment, int64_t waveSize,
                   ArrayRef<Coord> origins, Coord from, int64_t fromElem,
                   Coord to, int64_t toElem) {
  return uniformDisplacement(layout, origins, waveSize, [&](int64_t lane) {
    Coord a = getFragmentElement(mma, fragment, lane, fromElem);
    Coord b = getFragmentElement(mma, fragment, lane, toElem);
    return std::pair{Coord{from.row + a.row, from.col + a.col},
                     Coord{to.row + b.row, to.col + b.col}};
  });
}

/// The LDS element distance between element `toElem` of a fragment at
/// (toRow, toCol) of a tile and element `fromElem` of one at (fromRow,
/// fromCol), if it is the same for every lane.
static std::optional<int64_t>
readDisplacement(const TileLayout &layout, MmaLayout mma,
                 FragmentLayout fragment, int64_t waveSize, Coord from,
                 int64_t fromElem, Coord to, int64_t toElem) {
  return accessDisplacement(layout, mma, fragment, waveSize, {Coord{0, 0}},
                            from, fromElem, to, toElem);
}

/// Where an LDS access goes: `offset` elements into the tile's memref or,
/// when `window` is set, `offset` bytes (i32) past that window register.
struct LdsAccess {
  Value offset;
  Value window;
};

/// The offsets of a fragment op's LDS reads or writes: each access whose
/// every lane's address is an earlier access's plus a constant takes that
/// access's offset plus the constant, which the backend folds into the
/// instruction's offset field, so that a fragment costs one address
/// register per distinct lane pattern, not one per access. A tile with a
/// window (LdsPlacement.h) takes its lane patterns' registers there.
template <typename Key> class LdsOffsets {
public:
  /// Offsets into the slot at `slotBase` of `tile`, through `window` if the
  /// tile has one; `shares`: whether accesses may share offsets (a
  /// displacement can be found), which the bases are then made opaque for
  /// (opaqueIndex). Without, LLVM relates them itself.
  LdsOffsets(Value tile, Value slotBase, bool shares,
             std::optional<LdsWindow> window, int64_t elementBytes)
      : tile(tile), slotBase(slotBase), shares(shares),
        window(std::move(window)), elementBytes(elementBytes) {}

  /// `displacement(from, to)`: the element distance from access `from` to
  /// `to`, if there is one; `emit(key)`: an access's offset in the slot,
  /// in full.
  template <typename Displacement, typename Emit>
  LdsAccess get(OpBuilder &b, Location loc, const Key &key,
                Displacement displacement, Emit emit) {
    for (auto &[base, access] : bases)
      if (std::optional<int64_t> delta = displacement(base, key)) {
        if (!access.window)
          return {addIndex(b, loc, access.offset, constIndex(b, loc, *delta)),
                  nullptr};
        return {
            b.createOrFold<arith::AddIOp>(
                loc, access.offset, constI32(b, loc, *delta * elementBytes)),
            access.window};
      }
    Value inSlot = emit(key);
    if (shares)
      inSlot = opaqueIndex(b, loc, inSlot);
    // The slot's base is added before the constants: inside a loop, one
    // add per lane pattern, and the constants stay foldable.
    LdsAccess access{addIndex(b, loc, slotBase, inSlot), nullptr};
    if (window) {
      access.window = emitWindowRegister(b, loc, *window);
      access.offset = b.createOrFold<arith::AddIOp>(
          loc, emitWindowDistance(b, loc, *window, tile),
          b.createOrFold<arith::MulIOp>(loc, toI32(b, loc, access.offset),
                                        constI32(b, loc, elementBytes)));
    }
    bases.push_back({key, access});
    return access;
  }

private:
  /// `v` behind an llvm.freeze. LLVM otherwise finds one lane pattern to be
  /// another's xor a constant (two rows of a swizzled tile) and rewrites the
  /// constants added to it as `or`s without the `disjoint` flag, which the
  /// backend cannot fold into the offset field: one address register per
  /// read again (docs/Attention.md#registers).
  static Value opaqueIndex(OpBuilder &b, Location loc, Value v) {
    Type i64 = b.getI64Type();
    Value wide = arith::IndexCastUIOp::create(b, loc, i64, v);
    Value frozen = LLVM::FreezeOp::create(b, loc, wide);
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), frozen);
  }

  Value tile;
  Value slotBase;
  bool shares;
  std::optional<LdsWindow> window;
  int64_t elementBytes;
  SmallVector<std::pair<Key, LdsAccess>> bases;
};

/// A `type` read at `access` of `slot` of `tile` (through a window of
/// `plan`).
static Value loadShared(OpBuilder &b, Location loc, VectorType type, Value tile,
                        Value slot, LdsAccess access, int64_t align,
                        const LdsPlan &plan) {
  if (access.window)
    return loadThroughWindow(b, loc, type, access.window, access.offset, align,
                             *plan.scopesOf(tile, slot));
  return vector::LoadOp::create(b, loc, type, tile, ValueRange{access.offset},
                                /*nontemporal=*/false, llvm::MaybeAlign(align));
}

/// `value` written at `access` of `slot` of `tile` (through a window of
/// `plan`).
static void storeShared(OpBuilder &b, Location loc, Value value, Value tile,
                        Value slot, LdsAccess access, int64_t align,
                        const LdsPlan &plan) {
  if (access.window)
    return storeThroughWindow(b, loc, value, access.window, access.offset,
                              align, *plan.scopesOf(tile, slot));
  vector::StoreOp::create(b, loc, value, tile, ValueRange{access.offset},
                          /*nontemporal=*/false, llvm::MaybeAlign(align));
}

/// A fragment op's lowering, whose LDS accesses go through the plan's
/// windows.
template <typename Op> struct LdsLowering : ChipLowering<Op> {
  LdsLowering(const TypeConverter &converter, MLIRContext *ctx,
              const ChipInfo &chip, std::shared_ptr<LdsPlan> plan)
      : ChipLowering<Op>(converter, ctx, chip), plan(std::move(plan)) {}

  std::shared_ptr<LdsPlan> plan;
};

/// Where the first element of each of `runs` sits inside a fragment of
/// `type`, for `lane`.
static SmallVector<std::pair<Value, Value>>
emitRunStarts(OpBuilder &b, Location loc, const MmaInstr &instr,
              FragmentType type, Value lane, ArrayRef<Run> runs) {
  SmallVector<std::pair<Value, Value>> starts;
  for (Run run : runs)
    starts.push_back(emitFragmentElement(
        b, loc, instr.layout, type.getLaneLayout(), lane, run.first));
  return starts;
}

struct LoadFragmentLowering : LdsLowering<LoadFragmentOp> {
  using LdsLowering::LdsLowering;

  LogicalResult
  matchAndRewrite(LoadFragmentOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FragmentType type = op.getType();
    const MmaInstr *instr = getInstr(op, type);
    if (!instr)
      return failure();
    SharedTileType tileType = op.getTile().getType();
    TileLayout layout = tileType.getLayout();
    FragmentShape shape = getFragmentShape(instr->layout, type.getLaneLayout());
    auto resultType = getTypeConverter()->convertType<VectorType>(type);
    Type elementType = type.getElementType();
    auto laneType = VectorType::get({shape.elemsPerLane}, elementType);

    FailureOr<Value> lane = emitLaneId(rewriter, op);
    if (failed(lane))
      return failure();
    Value base = slotBase(rewriter, loc, tileType, adaptor.getSlot());
    if (op.getTranspose())
      return lowerTransposed(op, adaptor, rewriter, *instr, *lane, base);
    std::vector<Run> runs =
        planFragmentAccess(instr->layout, type.getLaneLayout(), layout);
    SmallVector<std::pair<Value, Value>> runStarts =
        emitRunStarts(rewriter, loc, *instr, type, *lane, runs);

    // At a constant origin, reads share offsets where the layout allows.
    std::optional<int64_t> constRow = getConstantIntValue(adaptor.getRow());
    std::optional<int64_t> constCol = getConstantIntValue(adaptor.getCol());
    struct ReadKey {
      Coord origin;
      int64_t elem;
    };
    LdsOffsets<ReadKey> offsets(adaptor.getTile(), base, constRow && constCol,
                                plan->windowOf(adaptor.getTile()),
                                layout.elementBytes);
    auto displacement = [&](const ReadKey &from,
                            const ReadKey &to) -> std::optional<int64_t> {
      if (!constRow || !constCol)
        return std::nullopt;
      return readDisplacement(layout, instr->layout, type.getLaneLayout(),
                              shape.waveSize, from.origin, from.elem, to.origin,
                              to.elem);
    };
    Value result = emptyVector(rewriter, loc, resultType);
    for (int64_t fi = 0; fi < type.getNumFragmentRows(); ++fi) {
      for (int64_t fj = 0; fj < type.getNumFragmentCols(); ++fj) {
        Value fragment = emptyVector(rewriter, loc, laneType);
        auto [row0, col0] = fragmentOrigin(rewriter, loc, adaptor.getRow(),
                                           adaptor.getCol(), shape, fi, fj);
        Coord origin{constRow.value_or(0) + fi * shape.rows,
                     constCol.value_or(0) + fj * shape.cols};
        for (auto [run, start] : llvm::zip(runs, runStarts)) {
          LdsAccess access =
              offsets.get(rewriter, loc, ReadKey{origin, run.first},
                          displacement, [&](const ReadKey &) {
                            return emitPhysicalOffset(
                                rewriter, loc, layout,
                                addIndex(rewriter, loc, row0, start.first),
                                addIndex(rewriter, loc, col0, start.second));
                          });
          Value part = loadShared(rewriter, loc,
                                  VectorType::get({run.length}, elementType),
                                  adaptor.getTile(), adaptor.getSlot(), access,
                                  run.length * layout.elementBytes, *plan);
          fragment = insertSlice(rewriter, loc, part, fragment, run.first);
        }
        result = insertFragment(rewriter, loc, fragment, result,
                                fi * type.getNumFragmentCols() + fj);
      }
    }
    rewriter.replaceOp(op, result);
    return success();
  }

  /// Two transposed reads per fragment
  /// (docs/hardware/SchedulesTailsLayouts.md#ds-read-tr): read s gives a
  /// lane elements 4s .. 4s+3 of its fragment from the K-major tile.
  LogicalResult lowerTransposed(LoadFragmentOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter,
                                const MmaInstr &instr, Value lane,
                                Value base) const {
    Location loc = op.getLoc();
    FragmentType type = op.getType();
    if (!transposedReadsMatchLayout(instr.layout, type.getLaneLayout()))
      return op.emitOpError() << "transposed reads do not give " << chip.name
                              << "'s lanes their " << type << " elements";
    TileLayout layout = op.getTile().getType().getLayout();
    FragmentShape shape = getFragmentShape(instr.layout, type.getLaneLayout());
    Type elementType = type.getElementType();
    auto laneType = VectorType::get({shape.elemsPerLane}, elementType);
    auto partType = VectorType::get({kTransposedReadElems}, elementType);
    // transposedReadSource as index arithmetic, for reads 0 and 1.
    auto c = [&](int64_t v) { return constIndex(rewriter, loc, v); };
    Value inGroup = rewriter.createOrFold<arith::RemUIOp>(loc, lane, c(16));
    Value group = rewriter.createOrFold<arith::DivUIOp>(loc, lane, c(16));
    FragmentLayout fragment = type.getLaneLayout();
    TransposedReadPattern pattern =
        getTransposedReadPattern(instr.layout, fragment);
    Value rowGroup = rewriter.createOrFold<arith::DivUIOp>(
        loc, group, c(pattern.columnGroups));
    Value columnGroup = rewriter.createOrFold<arith::RemUIOp>(
        loc, group, c(pattern.columnGroups));
    Value sourceRow =
        addIndex(rewriter, loc,
                 mulIndex(rewriter, loc, rowGroup, pattern.groupRowStride),
                 rewriter.createOrFold<arith::DivUIOp>(loc, inGroup, c(4)));
    Value sourceCol = addIndex(
        rewriter, loc, mulIndex(rewriter, loc, columnGroup, 16),
        mulIndex(rewriter, loc,
                 rewriter.createOrFold<arith::RemUIOp>(loc, inGroup, c(4)),
                 kTransposedReadElems));
    Value result = emptyVector(
        rewriter, loc, getTypeConverter()->convertType<VectorType>(type));
    // A read's offset in the slot in full (LdsOffsets shares it where it
    // can).
    auto offsetAt = [&](int64_t dr, int64_t dc) {
      Value row = addIndex(rewriter, loc, adaptor.getRow(),
                           addIndex(rewriter, loc, sourceRow, c(dr)));
      Value col = addIndex(rewriter, loc, adaptor.getCol(),
                           addIndex(rewriter, loc, sourceCol, c(dc)));
      return emitPhysicalOffset(rewriter, loc, layout, row, col);
    };
    // Windows hold 16-bit transposed reads only (ds_read_b64_tr_b16, which
    // the windowed path emits itself).
    std::optional<LdsWindow> window;
    if (layout.elementBytes == 2)
      window = plan->windowOf(adaptor.getTile());
    LdsOffsets<Coord> offsets(adaptor.getTile(), base, /*shares=*/true, window,
                              layout.elementBytes);
    // Loads sit at multiples of the fragment's k (tile rows) and m (tile
    // columns); a constant position counts when both coordinates are.
    std::optional<int64_t> row = getConstantIntValue(adaptor.getRow());
    std::optional<int64_t> col = getConstantIntValue(adaptor.getCol());
    if (!row || !col)
      row = col = std::nullopt;
    SmallVector<Coord> origins =
        accessOrigins(row, col, Coord{shape.cols, shape.rows}, type.getCols(),
                      type.getRows(), layout);
    auto displacement = [&](Coord from, Coord to) {
      return transposedReadDisplacement(layout, instr.layout, fragment,
                                        shape.waveSize, origins, from, to);
    };
    for (int64_t fi = 0; fi < type.getNumFragmentRows(); ++fi) {
      for (int64_t fj = 0; fj < type.getNumFragmentCols(); ++fj) {
        Value fragment = emptyVector(rewriter, loc, laneType);
        for (int64_t s = 0; s < 2; ++s) {
          // The fragment's (m, k) origin is the tile's (k, m).
          int64_t dr = fj * shape.cols + s * pattern.readRowStride;
          int64_t dc = fi * shape.rows;
          LdsAccess access =
              offsets.get(rewriter, loc, Coord{dr, dc}, displacement,
                          [&](Coord at) { return offsetAt(at.row, at.col); });
          Value part =
              access.window
                  ? transposedReadThroughWindow(
                        rewriter, loc, partType, access.window, access.offset,
                        *plan->scopesOf(adaptor.getTile(), adaptor.getSlot()))
                  : amdgpu::TransposeLoadOp::create(rewriter, loc, partType,
                                                    adaptor.getTile(),
                                                    ValueRange{access.offset});
          fragment = insertSlice(rewriter, loc, part, fragment,
                                 s * kTransposedReadElems);
        }
        result = insertFragment(rewriter, loc, fragment, result,
                                fi * type.getNumFragmentCols() + fj);
      }
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// hk.store_shared: the non-transposed load_fragment path run backwards,
/// one LDS write per run of a lane's elements the tile keeps consecutive.
struct StoreSharedLowering : LdsLowering<StoreSharedOp> {
  using LdsLowering::LdsLowering;

  LogicalResult
  matchAndRewrite(StoreSharedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FragmentType type = op.getFragment().getType();
    const MmaInstr *instr = getInstr(op, type);
    if (!instr)
      return failure();
    SharedTileType tileType = op.getTile().getType();
    TileLayout layout = tileType.getLayout();
    FragmentShape shape = getFragmentShape(instr->layout, type.getLaneLayout());
    FailureOr<Value> lane = emitLaneId(rewriter, op);
    if (failed(lane))
      return failure();
    Value values = roundToElement(rewriter, loc, adaptor.getFragment(),
                                  tileType.getElementType());
    Value base = slotBase(rewriter, loc, tileType, adaptor.getSlot());
    std::vector<Run> runs =
        planFragmentWrites(instr->layout, type.getLaneLayout(), layout);
    SmallVector<std::pair<Value, Value>> runStarts =
        emitRunStarts(rewriter, loc, *instr, type, *lane, runs);
    // Writes share offsets where every origin the op may take (multiples of
    // the fragment shape) keeps them a constant apart: one address register
    // per lane pattern, where LLVM keeps one per write (xor swizzles).
    SmallVector<Coord> origins = accessOrigins(
        getConstantIntValue(adaptor.getRow()),
        getConstantIntValue(adaptor.getCol()), Coord{shape.rows, shape.cols},
        type.getRows(), type.getCols(), layout);
    struct WriteKey {
      Coord fragment;
      int64_t elem;
    };
    LdsOffsets<WriteKey> offsets(adaptor.getTile(), base, /*shares=*/true,
                                 plan->windowOf(adaptor.getTile()),
                                 layout.elementBytes);
    auto displacement = [&](const WriteKey &from, const WriteKey &to) {
      return accessDisplacement(layout, instr->layout, type.getLaneLayout(),
                                shape.waveSize, origins, from.fragment,
                                from.elem, to.fragment, to.elem);
    };
    for (int64_t fi = 0; fi < type.getNumFragmentRows(); ++fi) {
      for (int64_t fj = 0; fj < type.getNumFragmentCols(); ++fj) {
        int64_t index = fi * type.getNumFragmentCols() + fj;
        Value fragment =
            extractFragment(rewriter, loc, values, index, shape.elemsPerLane);
        auto [row0, col0] = fragmentOrigin(rewriter, loc, adaptor.getRow(),
                                           adaptor.getCol(), shape, fi, fj);
        WriteKey key{Coord{fi * shape.rows, fj * shape.cols}, 0};
        for (auto [run, start] : llvm::zip(runs, runStarts)) {
          key.elem = run.first;
          LdsAccess access = offsets.get(
              rewriter, loc, key, displacement, [&](const WriteKey &) {
                return emitPhysicalOffset(
                    rewriter, loc, layout,
                    addIndex(rewriter, loc, row0, start.first),
                    addIndex(rewriter, loc, col0, start.second));
              });
          storeShared(
              rewriter, loc,
              sliceVector(rewriter, loc, fragment, run.first, run.length),
              adaptor.getTile(), adaptor.getSlot(), access,
              run.length * layout.elementBytes, *plan);
        }
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// A scale register as amdgpu.scaled_mfma takes it: 4 E8M0 bytes.
static Value scaleBytes(OpBuilder &b, Location loc, Value word) {
  return arith::BitcastOp::create(
      b, loc, VectorType::get({4}, Float8E8M0FNUType::get(b.getContext())),
      vector::BitCastOp::create(
          b, loc, VectorType::get({4}, b.getI8Type()),
          vector::BroadcastOp::create(
              b, loc, VectorType::get({1}, word.getType()), word)));
}

struct MmaLowering : ChipLowering<MmaOp> {
  using ChipLowering::ChipLowering;

  LogicalResult
  matchAndRewrite(MmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FragmentType aType = op.getA().getType(), accType = op.getAcc().getType();
    const MmaInstr *instr = getInstr(op, aType);
    if (!instr)
      return failure();
    MmaShape mma = aType.getMmaShape();
    int64_t rows = accType.getNumFragmentRows();
    int64_t cols = accType.getNumFragmentCols();
    int64_t kChunks = aType.getNumFragmentCols();

    int64_t opElems =
        getFragmentShape(instr->layout, FragmentRole::a).elemsPerLane;
    int64_t accElems =
        getFragmentShape(instr->layout, FragmentRole::acc).elemsPerLane;
    SmallVector<Value> acc;
    for (int64_t f = 0; f < rows * cols; ++f)
      acc.push_back(
          extractFragment(rewriter, loc, adaptor.getAcc(), f, accElems));
    // Block scales: the MFMA of row block i (16 rows) and k chunk kk takes
    // byte i % 4 (op_sel) of the arranged word of its 64-row group. The
    // words of `scale` fragments are arranged here, A's and B's together
    // (arrangeScaleWords goes by pairs); `scale_mma` ones are taken as is.
    bool scaled = !op.getScales().empty();
    SmallVector<Value> words[2];
    SmallVector<Value *> toArrange;
    for (auto [s, scales] : llvm::enumerate(op.getScales())) {
      auto type = cast<VectorType>(adaptor.getScales()[s].getType());
      for (int64_t w = 0; w < type.getNumElements(); ++w)
        words[s].push_back(vector::ExtractOp::create(
            rewriter, loc, adaptor.getScales()[s], w));
      if (cast<FragmentType>(scales.getType()).getRole() == FragmentRole::scale)
        for (Value &word : words[s])
          toArrange.push_back(&word);
    }
    SmallVector<Value> arranged = arrangeScaleWords(
        rewriter, loc,
        llvm::map_to_vector(toArrange, [](Value *word) { return *word; }));
    for (auto [word, value] : llvm::zip_equal(toArrange, arranged))
      *word = value;
    DenseMap<std::pair<int64_t, int64_t>, Value> bytes;
    auto scalesOf = [&](int64_t s, int64_t fragment) {
      int64_t i = fragment / kChunks, kk = fragment % kChunks;
      int64_t word = i / 4 * kChunks + kk;
      Value &b = bytes[{s, word}];
      if (!b)
        b = scaleBytes(rewriter, loc, words[s][word]);
      return std::pair<Value, int32_t>{b, int32_t(i % 4)};
    };

    for (int64_t kk = 0; kk < kChunks; ++kk) {
      for (int64_t i = 0; i < rows; ++i) {
        Value a = extractFragment(rewriter, loc, adaptor.getA(),
                                  i * kChunks + kk, opElems);
        for (int64_t j = 0; j < cols; ++j) {
          Value b = extractFragment(rewriter, loc, adaptor.getB(),
                                    j * kChunks + kk, opElems);
          Value &c = acc[i * cols + j];
          Type cType = c.getType();
          switch (instr->layout) {
          case MmaLayout::Mfma16x16x32:
          case MmaLayout::Mfma32x32x16:
          case MmaLayout::Mfma16x16x128F8:
            if (scaled) {
              auto [sa, ia] = scalesOf(0, i * kChunks + kk);
              auto [sb, ib] = scalesOf(1, j * kChunks + kk);
              c = amdgpu::ScaledMFMAOp::create(
                  rewriter, loc, cType, rewriter.getI32IntegerAttr(mma.m),
                  rewriter.getI32IntegerAttr(mma.n),
                  rewriter.getI32IntegerAttr(mma.k), a, b, c, sa, sb,
                  rewriter.getI32IntegerAttr(ia),
                  rewriter.getI32IntegerAttr(ib));
              break;
            }
            c = amdgpu::MFMAOp::create(rewriter, loc, cType, mma.m, mma.n,
                                       mma.k, /*blocks=*/1, a, b, c);
            break;
          case MmaLayout::Wmma16x16x16Gfx12:
          case MmaLayout::Wmma16x16x16F8Gfx12:
            c = amdgpu::WMMAOp::create(rewriter, loc, cType, mma.m, mma.n,
                                       mma.k, a, b, c);
            break;
          }
        }
      }
    }
    Value result = adaptor.getAcc();
    for (int64_t f = 0; f < rows * cols; ++f)
      result = insertFragment(rewriter, loc, acc[f], result, f);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct FillFragmentLowering : OpConversionPattern<FillFragmentOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(FillFragmentOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getTypeConverter()->convertType<VectorType>(op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "fragment type not convertible");
    Value value = adaptor.getValue();
    // Block scales are held 4 to a word, as read or as arranged: all the
    // same byte either way.
    if (isScaleRole(op.getType().getRole())) {
      Location loc = op.getLoc();
      value = arith::MulIOp::create(
          rewriter, loc,
          arith::ExtUIOp::create(rewriter, loc, rewriter.getI32Type(),
                                 arith::BitcastOp::create(rewriter, loc,
                                                          rewriter.getI8Type(),
                                                          value)),
          constI32(rewriter, loc, 0x01010101));
    }
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(op, type, value);
    return success();
  }
};

/// gpu.return of converted values, for device functions returning
/// fragments or tiles.
struct GpuReturnLowering : OpConversionPattern<gpu::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::ReturnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<gpu::ReturnOp>(op, adaptor.getOperands());
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

void mlir::hk::populateHKTypeConversions(TypeConverter &converter,
                                         const ChipInfo &chip) {
  converter.addConversion([](Type type) { return type; });
  // A scale fragment is held as words of row scales (kScaleRowsPerWord).
  converter.addConversion([&chip](FragmentType type) -> std::optional<Type> {
    VectorType vector = type.getLaneVectorType(chip);
    if (!vector)
      return std::nullopt;
    if (isScaleRole(type.getRole()))
      return VectorType::get(
          {getScaleWordsPerLane(type.getRows(), type.getCols())},
          IntegerType::get(type.getContext(), 32));
    return vector;
  });
  converter.addConversion([](SharedTileType type) -> Type {
    auto workgroup = gpu::AddressSpaceAttr::get(type.getContext(),
                                                gpu::AddressSpace::Workgroup);
    return MemRefType::get({type.getSlots() * type.getRows() * type.getCols()},
                           type.getElementType(), MemRefLayoutAttrInterface{},
                           workgroup);
  });
}

void mlir::hk::populateHKToAMDGPUConversionPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const ChipInfo &chip) {
  MLIRContext *ctx = patterns.getContext();
  // The LDS globals and their windows, shared by the patterns of one
  // conversion.
  auto plan = std::make_shared<LdsPlan>();
  patterns.add<AllocSharedLowering>(converter, ctx, plan);
  patterns.add<FillFragmentLowering, GpuReturnLowering>(converter, ctx);
  patterns.add<LoadFragmentLowering, StoreSharedLowering>(converter, ctx, chip,
                                                          plan);
  patterns.add<MmaLowering>(converter, ctx, chip);
  populateCopyToSharedLowering(converter, patterns, chip);
  populateGlobalFragmentLowering(converter, patterns, chip);
  populateRegisterTileLowering(converter, patterns, chip);
  populateHKScheduleLoweringPatterns(converter, patterns);
  populateAnyFunctionOpInterfaceTypeConversionPattern(patterns, converter);
  populateReturnOpTypeConversionPattern(patterns, converter);
  populateCallOpTypeConversionPattern(patterns, converter);
}

void mlir::hk::configureHKToAMDGPUTarget(ConversionTarget &target,
                                         const TypeConverter &converter,
                                         const ChipInfo &chip) {
  target.addIllegalDialect<HKDialect>();
  configureTranscendentalLegality(target);
  configureBf16RoundingLegality(target, &chip);
  target.markUnknownOpDynamicallyLegal([&converter](Operation *op) {
    if (auto func = dyn_cast<FunctionOpInterface>(op))
      if (auto type = dyn_cast<FunctionType>(func.getFunctionType()))
        if (!converter.isSignatureLegal(type))
          return false;
    if (!converter.isLegal(op))
      return false;
    for (Region &region : op->getRegions())
      if (!converter.isLegal(&region))
        return false;
    return true;
  });
}

namespace {
struct ConvertHKToAMDGPUPass
    : hk::impl::ConvertHKToAMDGPUBase<ConvertHKToAMDGPUPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();

    // The one chip every hk op of the module is compiled for.
    const ChipInfo *chip = nullptr;
    WalkResult walk = module.walk([&](Operation *op) {
      if (!isa<HKDialect>(op->getDialect()))
        return WalkResult::advance();
      FailureOr<const ChipInfo *> opChip = resolveChip(op);
      if (failed(opChip))
        return WalkResult::interrupt();
      if (!*opChip) {
        op->emitOpError("has no chip to be lowered for: give the gpu.module "
                        "a #rocdl.target<chip = ...> (rocdl-attach-target) "
                        "or an hk.chip attribute");
        return WalkResult::interrupt();
      }
      if (chip && chip != *opChip) {
        op->emitOpError() << "is compiled for " << (*opChip)->name
                          << " but other hk ops of the gpu.module for "
                          << chip->name;
        return WalkResult::interrupt();
      }
      chip = *opChip;
      if (failed(checkLowerable(op, /*emitErrors=*/true)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (walk.wasInterrupted() || failed(checkRoundingModes(module)))
      return signalPassFailure();
    if (!chip)
      return lowerRoundingModes(module);
    LLVM_DEBUG(llvm::dbgs() << "lowering hk for " << chip->name << "\n");

    TypeConverter converter;
    populateHKTypeConversions(converter, *chip);
    RewritePatternSet patterns(&getContext());
    ConversionTarget target(getContext());
    populateHKToAMDGPUConversionPatterns(converter, patterns, *chip);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    configureHKToAMDGPUTarget(target, converter, *chip);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    emitAlternatingClusterGroups(module);
  }

  /// A module without hk ops: only its bf16 truncations with a rounding
  /// mode, which need no chip.
  void lowerRoundingModes(gpu::GPUModuleOp module) {
    RewritePatternSet patterns(&getContext());
    populateBf16IntegerRounding(patterns, /*chip=*/nullptr);
    ConversionTarget target(getContext());
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    configureBf16RoundingLegality(target, /*chip=*/nullptr);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
