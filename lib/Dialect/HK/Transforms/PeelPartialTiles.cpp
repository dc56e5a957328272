//===- PeelPartialTiles.cpp - whole K tiles apart from the remainder ------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements hk-peel-partial-tiles: a K loop of `bounds partial`
// copies becomes a loop over the whole tiles, whose copies are
// `partial_rows` (free), and a remainder loop that keeps the masks.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Dialect/HK/Transforms/Passes.h"
#include "HK/Dialect/HK/Transforms/Transforms.h"
#include "HK/Dialect/HK/Utils/AccessPlan.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

namespace mlir::hk {
#define GEN_PASS_DEF_PEELPARTIALTILES
#include "HK/Dialect/HK/Transforms/Passes.h.inc"
} // namespace mlir::hk

using namespace mlir;
using namespace mlir::hk;

namespace {
/// A partial copy whose K tile is the loop's: its source's dimension `dim`
/// (1: K along the source's columns, 0: along its rows) starts at the
/// induction variable (plus `ahead`, a constant, for a tile read a trip
/// early) and spans `extent` <= step elements of it.
struct PeeledCopy {
  CopyToSharedOp copy;
  unsigned dim;
  int64_t extent;
  int64_t ahead = 0;
  /// K along the rows, and the region's columns lie inside the source by
  /// its static size (attention's K and V: all of d): the main loop's tiles
  /// lie inside, nothing to mask, and the copies may be direct.
  bool colsInside = false;
  /// The bounds mode of the copy in the main loop: K along the columns
  /// leaves the rows' edge (M or N) to mask.
  BoundsMode wholeTiles() const {
    if (dim == 1)
      return BoundsMode::partial_rows;
    return colsInside ? BoundsMode::inside : BoundsMode::partial_chunks;
  }
};
} // namespace

/// `iv` + c as c, for `value` the induction variable `iv` or `iv` plus a
/// non-negative constant.
static std::optional<int64_t> offsetFrom(Value value, Value iv) {
  if (value == iv)
    return 0;
  auto add = value.getDefiningOp<arith::AddIOp>();
  if (!add)
    return std::nullopt;
  for (auto [a, b] : {std::pair(add.getLhs(), add.getRhs()),
                      std::pair(add.getRhs(), add.getLhs())}) {
    std::optional<int64_t> c = getConstantIntValue(b);
    if (a == iv && c && *c >= 0)
      return *c;
  }
  return std::nullopt;
}

/// The partial copies of `loop`'s body at the induction variable, at most
/// one step long along it, reading memrefs defined outside the loop.
static SmallVector<PeeledCopy> peelableCopies(scf::ForOp loop, int64_t step) {
  SmallVector<PeeledCopy> copies;
  Value iv = loop.getInductionVar();
  for (auto copy : loop.getBody()->getOps<CopyToSharedOp>()) {
    SharedTileType tile = copy.getTile().getType();
    // The source region is cols x rows of a transposing copy's tile.
    int64_t regionRows = copy.getTranspose() ? tile.getCols() : tile.getRows();
    int64_t regionCols = copy.getTranspose() ? tile.getRows() : tile.getCols();
    if (copy.getBounds() != BoundsMode::partial ||
        !loop.isDefinedOutsideOfLoop(copy.getSource()))
      continue;
    // K along the columns: every iteration's column must start a chunk.
    int64_t vec = kCopyChunkBytes / tile.getLayout().elementBytes;
    if (copy.getCol() == iv && regionCols <= step && step % vec == 0)
      copies.push_back({copy, 1, regionCols});
    else if (std::optional<int64_t> ahead = offsetFrom(copy.getRow(), iv);
             ahead && regionRows <= step &&
             loop.isDefinedOutsideOfLoop(copy.getCol())) {
      std::optional<int64_t> col = getConstantIntValue(copy.getCol());
      int64_t sourceCols = copy.getSource().getType().getDimSize(1);
      bool inside = col && !ShapedType::isDynamic(sourceCols) &&
                    *col + regionCols <= sourceCols;
      copies.push_back({copy, 0, regionRows, *ahead, inside});
    }
  }
  return copies;
}

/// A partial read of block scales whose column is the loop's K index
/// divided by `divisor` (a column per 32 k), at rows the loop does not
/// change (gathered rows included): in the main loop its columns lie
/// inside and only its rows may end (`partial_rows`, a word of 4 scales per
/// load).
struct PeeledRead {
  ReadFragmentOp read;
  int64_t divisor;
};

/// The partial reads of `loop`'s body described by PeeledRead.
static SmallVector<PeeledRead> peelableReads(scf::ForOp loop, int64_t step) {
  SmallVector<PeeledRead> reads;
  Value iv = loop.getInductionVar();
  for (auto read : loop.getBody()->getOps<ReadFragmentOp>()) {
    Value gather[] = {read.getRowIds(), read.getRowIdsAt(),
                      read.getRowIdsDivisor()};
    if (read.getBounds() != BoundsMode::partial ||
        read.getResult().getType().getRole() != FragmentRole::scale ||
        !loop.isDefinedOutsideOfLoop(read.getSource()) ||
        !loop.isDefinedOutsideOfLoop(read.getIndices()[0]) ||
        llvm::any_of(gather, [&](Value v) {
          return v && !loop.isDefinedOutsideOfLoop(v);
        }))
      continue;
    Value col = read.getIndices()[1];
    int64_t divisor = 1;
    if (auto div = col.getDefiningOp<arith::DivUIOp>()) {
      std::optional<int64_t> d = getConstantIntValue(div.getRhs());
      if (!d || *d < 1)
        continue;
      col = div.getLhs();
      divisor = *d;
    }
    // Every trip's column a multiple of 4: a word per load.
    if (col == iv && step % (4 * divisor) == 0)
      reads.push_back({read, divisor});
  }
  return reads;
}

/// Whether `value` is a multiple of `multiple` by its arithmetic alone:
/// constants, and sums and products of such (e.g. a block id times the
/// tile size).
static bool isKnownMultiple(Value value, int64_t multiple) {
  if (std::optional<int64_t> c = getConstantIntValue(value))
    return *c % multiple == 0;
  Operation *def = value.getDefiningOp();
  if (isa_and_nonnull<arith::MulIOp>(def))
    return isKnownMultiple(def->getOperand(0), multiple) ||
           isKnownMultiple(def->getOperand(1), multiple);
  if (isa_and_nonnull<arith::AddIOp, arith::SubIOp>(def))
    return isKnownMultiple(def->getOperand(0), multiple) &&
           isKnownMultiple(def->getOperand(1), multiple);
  return false;
}

/// `value` % `multiple` == 0, as an i1: a constant when it is known.
static Value isMultiple(OpBuilder &b, Location loc, Value value,
                        int64_t multiple) {
  if (isKnownMultiple(value, multiple))
    return arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  Value rem = b.createOrFold<arith::RemUIOp>(
      loc, value, arith::ConstantIndexOp::create(b, loc, multiple));
  return b.createOrFold<arith::CmpIOp>(
      loc, arith::CmpIPredicate::eq, rem,
      arith::ConstantIndexOp::create(b, loc, 0));
}

/// Requires (through `require`) what, besides a column count that is a
/// multiple of `vec`, makes the rows of `source` whole chunks of `vec`
/// elements: its strides but the last and its offset multiples of `vec` (a
/// row-major memref's strides are products of its sizes: its last size). A
/// subview whose offset along the unit-stride dimension is a known multiple
/// passes the requirement to the memref it views, so that it holds or not
/// for every block alike (a batch's view is offset by the block's id).
static void requireChunkedLayout(OpBuilder &b, Location loc, Value source,
                                 int64_t vec, function_ref<void(Value)> require,
                                 bool viewed = false) {
  auto type = cast<MemRefType>(source.getType());
  if (auto view = source.getDefiningOp<memref::SubViewOp>()) {
    SmallVector<OpFoldResult> offsets = view.getMixedOffsets();
    std::optional<int64_t> innerStride =
        getConstantIntValue(view.getMixedStrides().back());
    Value innerOffset = getValueOrCreateConstantIndexOp(b, loc, offsets.back());
    if (innerStride == 1 && isKnownMultiple(innerOffset, vec))
      return requireChunkedLayout(b, loc, view.getSource(), vec, require,
                                  /*viewed=*/true);
  }
  // A copy's own row-major source: its column count, which the caller
  // requires already, is its row stride.
  if (type.getLayout().isIdentity()) {
    if (viewed)
      require(isMultiple(
          b, loc,
          b.createOrFold<memref::DimOp>(loc, source, type.getRank() - 1), vec));
    return;
  }
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, source);
  for (Value stride : metadata.getStrides().drop_back())
    require(isMultiple(b, loc, stride, vec));
  require(isMultiple(b, loc, metadata.getOffset(), vec));
}

/// Splits `loop` (see the pass description); false when it has nothing to
/// peel.
static bool peel(scf::ForOp loop) {
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!step || *step < 1 || isRemainderLoop(loop))
    return false;
  SmallVector<PeeledCopy> copies = peelableCopies(loop, *step);
  if (copies.empty())
    return false;
  SmallVector<PeeledRead> reads = peelableReads(loop, *step);

  // The split: lb + t * step for the largest t such that every peeled
  // copy's K range [iv, iv + extent) lies inside its matrix for iv < split,
  // lb when some matrix's rows are not whole 16-byte chunks. The main
  // loop's chunks must all be whole: the columns, row stride and offset, and
  // the chunk columns: the induction variable (lb, and the step, which
  // peelableCopies requires to be a multiple of the chunk width) or the
  // copy's fixed column.
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound();
  Value end = ub, chunked;
  auto require = [&](Value ok) {
    chunked = chunked ? b.createOrFold<arith::AndIOp>(loc, chunked, ok) : ok;
  };
  for (const PeeledCopy &peeled : copies) {
    CopyToSharedOp copy = peeled.copy;
    int64_t vec =
        kCopyChunkBytes / copy.getTile().getType().getLayout().elementBytes;
    Value last = b.createOrFold<arith::AddIOp>(
        loc, b.createOrFold<memref::DimOp>(loc, copy.getSource(), peeled.dim),
        arith::ConstantIndexOp::create(b, loc,
                                       *step - peeled.extent - peeled.ahead));
    end = b.createOrFold<arith::MinSIOp>(loc, end, last);
    Value source = copy.getSource();
    require(
        isMultiple(b, loc, b.createOrFold<memref::DimOp>(loc, source, 1), vec));
    requireChunkedLayout(b, loc, source, vec, require);
    require(isMultiple(b, loc, peeled.dim == 1 ? lb : copy.getCol(), vec));
  }
  // A read's columns [iv / d, iv / d + cols) lie inside when iv + d * cols
  // <= d * the source's columns. Its range ends at the last row, which
  // bounds the last row's columns only if rows do not overlap; its rows are
  // whole words when the columns, row stride and offset are multiples of 4,
  // and its columns start words when lb / d is.
  for (PeeledRead peeled : reads) {
    Value source = peeled.read.getSource();
    int64_t cols = peeled.read.getResult().getType().getCols();
    Value sourceCols = b.createOrFold<memref::DimOp>(loc, source, 1);
    Value last = b.createOrFold<arith::AddIOp>(
        loc,
        b.createOrFold<arith::MulIOp>(
            loc, sourceCols,
            arith::ConstantIndexOp::create(b, loc, peeled.divisor)),
        arith::ConstantIndexOp::create(b, loc, *step - peeled.divisor * cols));
    end = b.createOrFold<arith::MinSIOp>(loc, end, last);
    if (!cast<MemRefType>(source.getType()).getLayout().isIdentity()) {
      auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, source);
      require(b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sge,
                                            metadata.getStrides()[0],
                                            sourceCols));
    }
    require(isMultiple(b, loc, sourceCols, 4));
    requireChunkedLayout(b, loc, source, 4, require);
    require(isMultiple(b, loc, lb, 4 * peeled.divisor));
  }
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value span = b.createOrFold<arith::MaxSIOp>(
      loc, b.createOrFold<arith::SubIOp>(loc, end, lb), zero);
  Value whole = b.createOrFold<arith::MulIOp>(
      loc, b.createOrFold<arith::DivUIOp>(loc, span, loop.getStep()),
      loop.getStep());
  Value split = b.createOrFold<arith::SelectOp>(
      loc, chunked, b.createOrFold<arith::AddIOp>(loc, lb, whole), lb);

  // The main loop: a clone over [lb, split) whose peeled copies read whole
  // tiles.
  auto main = cast<scf::ForOp>(b.clone(*loop));
  main.getUpperBoundMutable().assign(split);
  for (auto [copy, cloned] :
       llvm::zip(loop.getBody()->getOps<CopyToSharedOp>(),
                 main.getBody()->getOps<CopyToSharedOp>()))
    for (const PeeledCopy &peeled : copies)
      if (peeled.copy == copy)
        cloned.setBounds(peeled.wholeTiles());
  for (auto [read, cloned] :
       llvm::zip(loop.getBody()->getOps<ReadFragmentOp>(),
                 main.getBody()->getOps<ReadFragmentOp>()))
    for (const PeeledRead &peeled : reads)
      if (peeled.read == read)
        cloned.setBounds(BoundsMode::partial_rows);

  // The remainder's copies whose columns lie inside need only their rows
  // masked when every matrix's rows are whole chunks, as known here
  // (attention's K and V): `partial_rows`, whose buffer range ends at the
  // last row, instead of the register path's per-chunk masks (they stay on
  // the register path: hk-direct-lds-fill).
  if (matchPattern(chunked, m_One()))
    for (PeeledCopy &peeled : copies)
      if (peeled.dim == 0 && peeled.colsInside)
        peeled.copy.setBounds(BoundsMode::partial_rows);

  // The remainder: the loop itself over [split, ub), after a barrier when
  // it runs (the main loop's schedule may leave tiles in use), from the
  // main loop's results.
  Value remains =
      b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, split, ub);
  auto ifRemains = scf::IfOp::create(b, loc, remains, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifRemains.thenBlock()->getTerminator());
    amdgpu::LDSBarrierOp::create(b, loc);
  }
  loop.getLowerBoundMutable().assign(split);
  loop.getInitArgsMutable().assign(main.getResults());
  loop->setAttr(HKDialect::getRemainderAttrName(), b.getUnitAttr());
  return true;
}

namespace {
struct PeelPartialTilesPass
    : hk::impl::PeelPartialTilesBase<PeelPartialTilesPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      peel(loop);
  }
};
} // namespace
