//===- GlobalFragmentLowering.cpp - fragments to and from global memory ---===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// hk.store_fragment and hk.read_fragment: each lane walks the accumulator
// elements its lane layout gives it, with plain memref accesses (`inside`)
// or masked raw buffer accesses (`partial`, docs/Shapes.md).
//
//===----------------------------------------------------------------------===//

#include "LoweringSupport.h"

#include "HK/Conversion/HKToAMDGPU/BufferAccess.h"
#include "HK/Conversion/HKToAMDGPU/LayoutEmission.h"
#include "HK/Dialect/HK/Utils/AccessPlan.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

using namespace mlir;
using namespace mlir::hk;
using namespace mlir::hk::detail;

namespace {

/// A 1-D memref seen as a matrix: N x 1 for a `row` vector's rows
/// (`asColumn`), else 1 x N (a `col` vector, a bias read by every row).
Value viewAsMatrix(OpBuilder &b, Location loc, Value vector, bool asColumn) {
  auto type = cast<MemRefType>(vector.getType());
  OpFoldResult n = memref::getMixedSize(b, loc, vector, 0);
  OpFoldResult one = b.getIndexAttr(1);
  int64_t size = type.getDimSize(0);
  return memref::ExpandShapeOp::create(
      b, loc,
      asColumn ? ArrayRef<int64_t>{size, 1} : ArrayRef<int64_t>{1, size},
      vector, ArrayRef<ReassociationIndices>{{0, 1}},
      asColumn ? ArrayRef<OpFoldResult>{n, one}
               : ArrayRef<OpFoldResult>{one, n});
}

/// Where each accumulator element of a lane lies in a fragment tile: the
/// lane's (row, col) of element `e` of every MMA-sized fragment.
struct AccElements {
  FragmentShape shape;
  SmallVector<std::pair<Value, Value>> offsets;

  /// Calls `fn(index, row, col)` for every element of the lane, `index`
  /// counting through the lane vector, (row, col) from the region's
  /// top-left element at (`row`, `col`).
  template <typename Fn>
  void forEach(OpBuilder &b, Location loc, FragmentType type, Value row,
               Value col, Fn fn) const {
    for (int64_t fi = 0; fi < type.getNumFragmentRows(); ++fi)
      for (int64_t fj = 0; fj < type.getNumFragmentCols(); ++fj) {
        auto [row0, col0] = fragmentOrigin(b, loc, row, col, shape, fi, fj);
        int64_t first =
            (fi * type.getNumFragmentCols() + fj) * shape.elemsPerLane;
        for (int64_t e = 0; e < shape.elemsPerLane; ++e)
          fn(first + e, addIndex(b, loc, row0, offsets[e].first),
             addIndex(b, loc, col0, offsets[e].second));
      }
  }
};

AccElements accElements(OpBuilder &b, Location loc, const MmaInstr &instr,
                        Value lane,
                        FragmentLayout fragment = FragmentRole::acc) {
  AccElements out{getFragmentShape(instr.layout, fragment), {}};
  for (int64_t e = 0; e < out.shape.elemsPerLane; ++e)
    out.offsets.push_back(
        emitFragmentElement(b, loc, instr.layout, fragment, lane, e));
  return out;
}

/// The byte offsets of a lane's elements in a partial store through
/// `region`, as its element 0's plus constants: one masked offset per
/// destination column the lane writes, each element's row a constant added
/// to it. LLVM folds such a constant into the instruction's offset; offsets
/// computed per element, loop-invariant, it hoists out of a loop into a
/// register each (read back from AGPRs in the fused attention backward).
/// Empty when `dest`'s row stride is not static or a constant could carry
/// a masked offset past 2^32: kMaskedByteOffset plus a row's, or, masked by
/// the sign bit, an offset of the region with bit 31 set plus it.
SmallVector<Value> steppedByteOffsets(OpBuilder &b, Location loc,
                                      const BufferRegion &region, Value dest,
                                      const MmaInstr &instr, FragmentType type,
                                      Value lane, bool transpose) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(cast<MemRefType>(dest.getType())
                 .getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(strides[0]) || strides[0] < 1 ||
      strides[0] > (int64_t(1) << 32))
    return {};
  int64_t rowStride = strides[0];
  auto place = [&](auto r, auto c) {
    return transpose ? std::pair{c, r} : std::pair{r, c};
  };
  // Each element's destination (row, col) from the lane's element 0.
  SmallVector<std::pair<int64_t, int64_t>> steps;
  int64_t lastRow = 0;
  for (Coord step : fragmentElementSteps(instr.layout, type)) {
    steps.push_back(place(step.row, step.col));
    lastRow = std::max(lastRow, steps.back().first);
  }
  auto [regionRows, regionCols] = place(type.getRows(), type.getCols());
  int64_t largest = region.maskBySignBit
                        ? (regionRows - 1) * rowStride + regionCols
                        : lastRow * rowStride;
  if (kMaskedByteOffset + largest * region.elementBytes >= (int64_t(1) << 32))
    return {};
  auto [laneRow, laneCol] =
      emitFragmentElement(b, loc, instr.layout, type.getLaneLayout(), lane, 0);
  auto [row0, col0] = place(laneRow, laneCol);
  DenseMap<int64_t, Value> columnOffsets;
  SmallVector<Value> offsets;
  for (auto [row, col] : steps) {
    Value &base = columnOffsets[col];
    if (!base)
      base = region.maskedByteOffset(
          b, loc, row0, addIndex(b, loc, col0, constIndex(b, loc, col)), 1);
    offsets.push_back(arith::AddIOp::create(
        b, loc, base,
        arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                     row * rowStride * region.elementBytes)));
  }
  return offsets;
}

/// `index` made scalar (lane 0's): the ops' offsets are the wave's, and a
/// scalar buffer resource needs no loop per access. `atDefinition` takes it
/// where `index` is defined: LLVM does not hoist the convergent
/// readfirstlane, so taken in a loop it keeps everything computed from it
/// there too (which, for a resource a loop does not change, saves the
/// registers that would hold it across the loop).
Value waveUniform(OpBuilder &b, Location loc, Value index,
                  bool atDefinition = false) {
  OpBuilder::InsertionGuard guard(b);
  if (atDefinition) {
    if (Operation *def = index.getDefiningOp())
      b.setInsertionPointAfter(def);
    else
      b.setInsertionPointToStart(cast<BlockArgument>(index).getOwner());
  }
  Value first = ROCDL::ReadfirstlaneOp::create(b, loc, b.getI32Type(),
                                               toI32(b, loc, index));
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), first);
}

int64_t elementBytes(MemRefType type) {
  return type.getElementType().getIntOrFloatBitWidth() / 8;
}

struct StoreFragmentLowering : ChipLowering<StoreFragmentOp> {
  using ChipLowering::ChipLowering;

  LogicalResult
  matchAndRewrite(StoreFragmentOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FragmentType type = op.getFragment().getType();
    const MmaInstr *instr = getInstr(op, type);
    if (!instr)
      return failure();
    MemRefType destType = op.getDest().getType();
    Type destElement = destType.getElementType();
    FailureOr<Value> lane = emitLaneId(rewriter, op);
    if (failed(lane))
      return failure();
    AccElements elements =
        accElements(rewriter, loc, *instr, *lane, type.getLaneLayout());

    Value values =
        roundToElement(rewriter, loc, adaptor.getFragment(), destElement);
    // A row (col) vector goes to a 1-D destination seen as N x 1 (1 x N).
    Value dest = adaptor.getDest();
    if (destType.getRank() == 1)
      dest = viewAsMatrix(rewriter, loc, dest,
                          type.getRole() == FragmentRole::row);
    // Element (r, c) of the region goes to (r, c), or (c, r) transposed,
    // from the region's origin.
    bool transpose = op.getTranspose();
    auto place = [&](Value r, Value c) {
      return transpose ? std::pair{c, r} : std::pair{r, c};
    };
    Value zero = constIndex(rewriter, loc, 0);
    if (op.getBounds() != BoundsMode::partial) {
      elements.forEach(
          rewriter, loc, type, zero, zero,
          [&](int64_t index, Value r, Value c) {
            auto [dr, dc] = place(r, c);
            memref::StoreOp::create(
                rewriter, loc,
                vector::ExtractOp::create(rewriter, loc, values,
                                          ArrayRef<int64_t>{index}),
                dest,
                ValueRange{addIndex(rewriter, loc, adaptor.getRow(), dr),
                           addIndex(rewriter, loc, adaptor.getCol(), dc)});
          });
      rewriter.eraseOp(op);
      return success();
    }
    // Buffer stores through a resource based at the region's row, at
    // offsets relative to the region: columns past the matrix get the
    // masked offset, rows past it fall out of the resource's range; both
    // stores are dropped.
    BufferRegion region = makeBufferRegion(
        rewriter, loc, dest, waveUniform(rewriter, loc, adaptor.getRow()),
        waveUniform(rewriter, loc, adaptor.getCol()), elementBytes(destType),
        chip, /*regionRows=*/std::nullopt);
    // A scattering store's rows: each region row's destination row, loaded
    // once per row (fragment row and the element's row offset in it).
    DenseMap<std::pair<int64_t, Value>, Value> scattered;
    int64_t perFragmentRow =
        type.getNumFragmentCols() * elements.shape.elemsPerLane;
    auto destRow = [&](int64_t index, Value r) {
      if (!op.getRowIds())
        return r;
      int64_t e = index % elements.shape.elemsPerLane;
      Value &row =
          scattered[{index / perFragmentRow, elements.offsets[e].first}];
      if (!row)
        row = emitGatheredRow(rewriter, loc, adaptor.getRowIds(),
                              adaptor.getRowIdsAt(), adaptor.getRowIdsDivisor(),
                              r);
      return row;
    };
    // The ids first, loaded together, then the stores.
    if (op.getRowIds())
      elements.forEach(
          rewriter, loc, type, zero, zero,
          [&](int64_t index, Value r, Value) { (void)destRow(index, r); });
    auto store = [&](int64_t index, Value offset) {
      Value value = vector::ExtractOp::create(rewriter, loc, values,
                                              ArrayRef<int64_t>{index});
      if (op.getAtomic())
        ROCDL::RawPtrBufferAtomicFaddOp::create(
            rewriter, loc, value, region.resource, offset, region.origin,
            /*aux=*/constI32(rewriter, loc, 0),
            /*alias_scopes=*/nullptr,
            /*noalias_scopes=*/nullptr, /*tbaa=*/nullptr);
      else
        ROCDL::RawPtrBufferStoreOp::create(
            rewriter, loc, value, region.resource, offset, region.origin,
            /*aux=*/constI32(rewriter, loc, 0),
            /*alias_scopes=*/nullptr, /*noalias_scopes=*/nullptr,
            /*tbaa=*/nullptr);
    };
    SmallVector<Value> stepped;
    if (!op.getRowIds())
      stepped = steppedByteOffsets(rewriter, loc, region, dest, *instr, type,
                                   *lane, transpose);
    if (!stepped.empty()) {
      for (auto [index, offset] : llvm::enumerate(stepped))
        store(index, offset);
    } else {
      elements.forEach(
          rewriter, loc, type, zero, zero,
          [&](int64_t index, Value r, Value c) {
            auto [dr, dc] = place(destRow(index, r), c);
            store(index, region.maskedByteOffset(rewriter, loc, dr, dc, 1));
          });
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct ReadFragmentLowering : ChipLowering<ReadFragmentOp> {
  using ChipLowering::ChipLowering;

  /// How a partial read loads the elements of each MMA block of a lane:
  /// entry e is the number of elements loaded at element e, 0 for those
  /// loaded with an earlier one. A `rowVector` of 4-byte elements at unit
  /// stride loads its runs of consecutive rows with one 16-byte load where
  /// the chip checks the range word by word (a run may cross the end);
  /// everything else loads one element at a time.
  SmallVector<int64_t> loadRuns(MemRefType source, const MmaInstr &instr,
                                int64_t elemsPerLane, bool rowVector) const {
    if (!rowVector || !chip.perWordBufferRangeCheck ||
        elementBytes(source) != 4)
      return SmallVector<int64_t>(elemsPerLane, 1);
    SmallVector<int64_t> lengths(elemsPerLane, 0);
    for (Run run : planRowVectorAccess(instr.layout, /*maxLength=*/4))
      lengths[run.first] = run.length;
    return lengths;
  }

  /// The row of word row `q` of a scale fragment of `rows` rows that
  /// `lane` holds: 64 q + lane, or lane % rows of a smaller fragment.
  static Value scaleRow(OpBuilder &b, Location loc, Value lane, int64_t q,
                        int64_t rows) {
    int64_t inWord = std::min(kScaleRowsPerWord, rows - q * kScaleRowsPerWord);
    Value row = inWord == kScaleRowsPerWord
                    ? lane
                    : b.createOrFold<arith::RemUIOp>(
                          loc, lane, constIndex(b, loc, inWord));
    return addIndex(b, loc, row, constIndex(b, loc, q * kScaleRowsPerWord));
  }

  /// A gathering read's source rows (from its row index) of the lane's word
  /// rows: ids[first + row] / d, computed before the loops the ids do not
  /// depend on, as the gathering copy's (LLVM does not hoist the loads).
  FailureOr<SmallVector<Value>>
  gatheredScaleRows(ConversionPatternRewriter &rewriter, ReadFragmentOp op,
                    OpAdaptor adaptor) const {
    OpBuilder::InsertionGuard guard(rewriter);
    setInsertionPointOutsideLoops(rewriter, op,
                                  {adaptor.getRowIds(), adaptor.getRowIdsAt(),
                                   adaptor.getRowIdsDivisor()});
    FailureOr<Value> lane = emitLaneId(rewriter, op);
    if (failed(lane))
      return failure();
    int64_t rows = op.getResult().getType().getRows();
    SmallVector<Value> sourceRows;
    for (int64_t q = 0; q * kScaleRowsPerWord < rows; ++q)
      sourceRows.push_back(
          emitGatheredRow(rewriter, op.getLoc(), adaptor.getRowIds(),
                          adaptor.getRowIdsAt(), adaptor.getRowIdsDivisor(),
                          scaleRow(rewriter, op.getLoc(), *lane, q, rows)));
    return sourceRows;
  }

  /// A scale fragment as words of row scales (getScaleWordsPerLane): word
  /// (q, c) of lane l holds row 64 q + l's (l % rows of a smaller fragment:
  /// scales no MFMA picks) blocks 4 c to 4 c + 3. With `partial_rows` one
  /// 4-byte load (the rows are whole words: hk-peel-partial-tiles requires
  /// it), whose lane offset does not depend on the column (soffset), so a
  /// loop over the columns computes it once; else 4 byte loads (masked as
  /// the elements of other fragments with `partial`). Gathered rows lie
  /// anywhere: the range runs to the source's end and rows past it get the
  /// masked offset, in both modes.
  FailureOr<Value> readScales(ConversionPatternRewriter &rewriter,
                              ReadFragmentOp op, OpAdaptor adaptor, Value lane,
                              VectorType laneType, MmaLayout layout) const {
    Location loc = op.getLoc();
    FragmentType type = op.getResult().getType();
    BoundsMode bounds = op.getBounds();
    Value source = adaptor.getSource();
    Type i8 = rewriter.getI8Type(), i32 = rewriter.getI32Type();
    int64_t blocksPerWord = getMmaShape(layout).k / kScaleBlock;
    int64_t chunks = type.getCols() / blocksPerWord;
    SmallVector<Value> gathered;
    if (op.getRowIds()) {
      FailureOr<SmallVector<Value>> rows =
          gatheredScaleRows(rewriter, op, adaptor);
      if (failed(rows))
        return failure();
      gathered = std::move(*rows);
    }
    std::optional<BufferRegion> region;
    Value rowsLeft;
    if (bounds != BoundsMode::inside) {
      bool wholeWords = bounds == BoundsMode::partial_rows;
      bool rowsOnly = wholeWords && gathered.empty();
      Value row0 =
          waveUniform(rewriter, loc, adaptor.getIndices()[0], wholeWords);
      region = makeBufferRegion(
          rewriter, loc, source, row0,
          waveUniform(rewriter, loc, adaptor.getIndices()[1], wholeWords),
          /*elementBytes=*/1, chip,
          rowsOnly ? std::optional(RegionRows{type.getRows(), /*mayEnd=*/true})
                   : std::nullopt);
      if (!rowsOnly)
        rowsLeft = arith::SubIOp::create(
            rewriter, loc, memref::DimOp::create(rewriter, loc, source, 0),
            row0);
    }
    auto loadByte = [&](Value row, Value col) -> Value {
      Value byte;
      if (!region) {
        byte = arith::BitcastOp::create(
            rewriter, loc, i8,
            memref::LoadOp::create(
                rewriter, loc, source,
                ValueRange{
                    addIndex(rewriter, loc, adaptor.getIndices()[0], row),
                    addIndex(rewriter, loc, adaptor.getIndices()[1], col)}));
      } else {
        Value inside = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::slt, row, rowsLeft);
        Value offset = arith::SelectOp::create(
            rewriter, loc, inside,
            region->maskedByteOffset(rewriter, loc, row, col, 1),
            constI32(rewriter, loc, kMaskedByteOffset));
        // E8M0 has no LLVM type: its byte is loaded as an i8.
        byte = ROCDL::RawPtrBufferLoadOp::create(
            rewriter, loc, i8, region->resource, offset, region->origin,
            /*aux=*/constI32(rewriter, loc, 0),
            /*alias_scopes=*/nullptr, /*noalias_scopes=*/nullptr,
            /*tbaa=*/nullptr);
      }
      return arith::ExtUIOp::create(rewriter, loc, i32, byte);
    };
    SmallVector<Value> words;
    for (int64_t q = 0; q * kScaleRowsPerWord < type.getRows(); ++q) {
      Value row = gathered.empty()
                      ? scaleRow(rewriter, loc, lane, q, type.getRows())
                      : gathered[q];
      for (int64_t c = 0; c < chunks; ++c) {
        Value col = constIndex(rewriter, loc, c * blocksPerWord);
        if (bounds == BoundsMode::partial_rows) {
          Value offset = region->byteOffset(rewriter, loc, row, col);
          if (!gathered.empty())
            offset = arith::SelectOp::create(
                rewriter, loc,
                arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                      row, rowsLeft),
                offset, constI32(rewriter, loc, kMaskedByteOffset));
          words.push_back(ROCDL::RawPtrBufferLoadOp::create(
              rewriter, loc, i32, region->resource, offset, region->origin,
              /*aux=*/constI32(rewriter, loc, 0), /*alias_scopes=*/nullptr,
              /*noalias_scopes=*/nullptr, /*tbaa=*/nullptr));
          continue;
        }
        Value word;
        for (int64_t k = 0; k < blocksPerWord; ++k) {
          Value byte = loadByte(
              row, addIndex(rewriter, loc, col, constIndex(rewriter, loc, k)));
          if (k > 0)
            byte = arith::ShLIOp::create(rewriter, loc, byte,
                                         constI32(rewriter, loc, 8 * k));
          word = word ? arith::OrIOp::create(rewriter, loc, word, byte) : byte;
        }
        words.push_back(word);
      }
    }
    return Value(
        vector::FromElementsOp::create(rewriter, loc, laneType, words));
  }

  LogicalResult
  matchAndRewrite(ReadFragmentOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FragmentType type = op.getResult().getType();
    const MmaInstr *instr = getInstr(op, type);
    auto laneType = getTypeConverter()->convertType<VectorType>(type);
    if (!instr || !laneType)
      return failure();
    MemRefType sourceType = op.getSource().getType();
    Type sourceElement = sourceType.getElementType();
    FailureOr<Value> lane = emitLaneId(rewriter, op);
    if (failed(lane))
      return failure();
    if (type.getRole() == FragmentRole::scale) {
      FailureOr<Value> scales =
          readScales(rewriter, op, adaptor, *lane, laneType, instr->layout);
      if (failed(scales))
        return failure();
      rewriter.replaceOp(op, *scales);
      return success();
    }
    AccElements elements =
        accElements(rewriter, loc, *instr, *lane, type.getLaneLayout());

    // A 1-D source is a matrix of one row (a bias broadcast down an `acc`,
    // a `col` vector) or of one column (a `row` vector); a broadcast reads
    // row 0 whatever the element's row.
    bool rowVector = type.getRole() == FragmentRole::row;
    bool broadcast = sourceType.getRank() == 1 && !rowVector &&
                     type.getRole() != FragmentRole::col;
    Value source = adaptor.getSource();
    Value zero = constIndex(rewriter, loc, 0);
    Value regionRow = adaptor.getIndices()[0];
    Value regionCol = adaptor.getIndices().back();
    if (sourceType.getRank() == 1) {
      source = viewAsMatrix(rewriter, loc, source, /*asColumn=*/rowVector);
      (rowVector ? regionCol : regionRow) = zero;
    }
    // Element (r, c) of the region comes from (r, c), or (c, r) transposed.
    bool transpose = op.getTranspose();
    auto place = [&](Value r, Value c) {
      if (broadcast)
        r = zero;
      return transpose ? std::pair{c, r} : std::pair{r, c};
    };

    SmallVector<Value> values(laneType.getNumElements());
    bool convert = sourceElement != laneType.getElementType();
    BoundsMode bounds = op.getBounds();
    if (bounds == BoundsMode::inside) {
      elements.forEach(
          rewriter, loc, type, zero, zero,
          [&](int64_t index, Value r, Value c) {
            auto [dr, dc] = place(r, c);
            values[index] = memref::LoadOp::create(
                rewriter, loc, source,
                ValueRange{addIndex(rewriter, loc, regionRow, dr),
                           addIndex(rewriter, loc, regionCol, dc)});
          });
    } else {
      // Buffer loads through a resource based at the region's row; rows
      // and columns past the matrix get the masked offset and read zero.
      // Rows are masked too: with overlapping rows (a row stride below the
      // column count) the range does not end at the last row. With
      // `partial_rows` the range ends at the last row and nothing is masked:
      // the lane offsets do not depend on the region's column (soffset), so
      // a loop over the columns computes them once.
      bool rowsOnly = bounds == BoundsMode::partial_rows;
      Value row0 = waveUniform(rewriter, loc, regionRow, rowsOnly);
      BufferRegion region = makeBufferRegion(
          rewriter, loc, source, row0,
          waveUniform(rewriter, loc, regionCol, rowsOnly),
          elementBytes(sourceType), chip,
          rowsOnly ? std::optional(RegionRows{type.getRows(), /*mayEnd=*/true})
                   : std::nullopt);
      Type i32 = rewriter.getI32Type();
      Value rowsLeft =
          rowsOnly
              ? Value()
              : arith::IndexCastOp::create(
                    rewriter, loc, i32,
                    arith::SubIOp::create(
                        rewriter, loc,
                        memref::DimOp::create(rewriter, loc, source, 0), row0));
      Value masked = constI32(rewriter, loc, kMaskedByteOffset);
      // Element e of each MMA block starts a load of runLength[e] elements
      // (0: loaded with an earlier one).
      SmallVector<int64_t> runLength =
          loadRuns(sourceType, *instr, elements.shape.elemsPerLane,
                   rowVector && !transpose);
      int64_t perBlock = runLength.size();
      elements.forEach(
          rewriter, loc, type, zero, zero,
          [&](int64_t index, Value r, Value c) {
            int64_t length = runLength[index % perBlock];
            if (length == 0)
              return;
            auto [row, col] = place(r, c);
            // A row vector (N x 1) has one column, and its rows are
            // consecutive elements: the resource's range ends at the last
            // one, so its offsets need no mask (and keep their constant
            // parts for the instructions' immediate offsets).
            Value offset =
                rowVector || rowsOnly
                    ? region.byteOffset(rewriter, loc, row, col)
                    : region.maskedByteOffset(rewriter, loc, row, col, 1);
            if (!rowVector && !rowsOnly) {
              Value inside = arith::CmpIOp::create(
                  rewriter, loc, arith::CmpIPredicate::slt,
                  arith::IndexCastOp::create(rewriter, loc, i32, row),
                  rowsLeft);
              offset = arith::SelectOp::create(rewriter, loc, inside, offset,
                                               masked);
            }
            Type loadType = length == 1
                                ? sourceElement
                                : VectorType::get({length}, sourceElement);
            Value value = ROCDL::RawPtrBufferLoadOp::create(
                rewriter, loc, loadType, region.resource, offset, region.origin,
                /*aux=*/constI32(rewriter, loc, 0),
                /*alias_scopes=*/nullptr, /*noalias_scopes=*/nullptr,
                /*tbaa=*/nullptr);
            if (length > 1) {
              for (int64_t j = 0; j < length; ++j)
                values[index + j] =
                    vector::ExtractOp::create(rewriter, loc, value, j);
              return;
            }
            values[index] = value;
          });
    }
    Value result = vector::FromElementsOp::create(
        rewriter, loc, laneType.clone(sourceElement), values);
    if (convert)
      result = arith::ExtFOp::create(rewriter, loc, laneType, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

/// The MFMA's scale registers from words of row scales (lane l holding row
/// l's 4 blocks, getScaleWordsPerLane): lane l's byte i becomes row
/// 16 i + l % 16's scale of block l / 16, a transpose of bytes and lane
/// groups. Two words X and Y go together, in three permlane swaps and four
/// v_perm_b32 whose selectors are the same in every lane:
///  1. swap32(X, Y): lanes below 32 hold X's rows l and l + 32, lanes above
///     Y's rows l - 32 and l; in both, the lower row first.
///  2. P, Q: bytes 0 and 2 (P), 1 and 3 (Q) of the two rows.
///  3. swap16(P, Q): lane group g holds bytes g % 2 and g % 2 + 2 of the
///     4 rows 16 apart (X's below 32, Y's above).
///  4. R, S: the 4 rows' byte g % 2 (R) and g % 2 + 2 (S), that is the
///     results of groups g % 2 and g % 2 + 2.
///  5. swap32(R, S) puts each result in its lane group: X's in the first,
///     Y's in the second.
/// An odd word goes with a poison partner. Nothing is computed on a word
/// before the first swap: LLVM would move it to where the word is loaded,
/// and wait for the load there.
SmallVector<Value> mlir::hk::detail::arrangeScaleWords(OpBuilder &b,
                                                       Location loc,
                                                       ValueRange words) {
  Type i32 = b.getI32Type();
  auto pair = LLVM::LLVMStructType::getLiteral(b.getContext(), {i32, i32});
  // v_perm_b32's selector picks bytes of (first << 32 | second): 4-7 are
  // the first word's, 0-3 the second's (selector bytes low byte first).
  auto perm = [&](Value first, Value second, uint32_t selector) -> Value {
    return LLVM::CallIntrinsicOp::create(
               b, loc, i32, b.getStringAttr("llvm.amdgcn.perm"),
               ValueRange{first, second, constI32(b, loc, int32_t(selector))})
        .getResult(0);
  };
  auto swap = [&](Value x, Value y, bool across32) -> std::pair<Value, Value> {
    Value swapped =
        across32
            ? ROCDL::Permlane32SwapOp::create(b, loc, pair, x, y, false, false)
                  .getResult()
            : ROCDL::Permlane16SwapOp::create(b, loc, pair, x, y, false, false)
                  .getResult();
    return {LLVM::ExtractValueOp::create(b, loc, swapped, 0),
            LLVM::ExtractValueOp::create(b, loc, swapped, 1)};
  };
  SmallVector<Value> arranged;
  for (size_t w = 0; w < words.size(); w += 2) {
    Value y = w + 1 < words.size() ? words[w + 1]
                                   : LLVM::PoisonOp::create(b, loc, i32);
    auto [low, high] = swap(words[w], y, /*across32=*/true);
    // [low 0, high 0, low 2, high 2] and [low 1, high 1, low 3, high 3].
    Value p = perm(low, high, 0x02060004), q = perm(low, high, 0x03070105);
    auto [rows02, rows13] = swap(p, q, /*across32=*/false);
    // Rows 0, 16, 32, 48 of the byte in the lane's place in P (R) or Q (S).
    Value r = perm(rows02, rows13, 0x01050004),
          s = perm(rows02, rows13, 0x03070206);
    auto [x, yArranged] = swap(r, s, /*across32=*/true);
    arranged.push_back(x);
    if (w + 1 < words.size())
      arranged.push_back(yArranged);
  }
  return arranged;
}

void mlir::hk::detail::populateGlobalFragmentLowering(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const ChipInfo &chip) {
  patterns.add<ReadFragmentLowering, StoreFragmentLowering>(
      converter, patterns.getContext(), chip);
}
