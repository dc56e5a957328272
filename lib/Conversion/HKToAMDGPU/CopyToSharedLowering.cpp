//===- CopyToSharedLowering.cpp - hk.copy_to_shared to amdgpu -------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The cooperative copy's three lowerings: the register path (raw buffer
// loads, LDS stores at the swizzled offsets; adjacent copies' loads issued
// together), the direct-to-LDS fill and the transposing copy, with the
// bounds modes' masks (docs/Shapes.md).
//
//===----------------------------------------------------------------------===//

#include "LoweringSupport.h"

#include "HK/Conversion/HKToAMDGPU/BufferAccess.h"
#include "HK/Conversion/HKToAMDGPU/LayoutEmission.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <functional>
#include <memory>

using namespace mlir;
using namespace mlir::hk;
using namespace mlir::hk::detail;

namespace {
struct CopyToSharedLowering : ChipLowering<CopyToSharedOp> {
  using ChipLowering::ChipLowering;

  LogicalResult
  matchAndRewrite(CopyToSharedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkLowerable(op, /*emitErrors=*/false)))
      return rewriter.notifyMatchFailure(op, "not lowerable as written");
    if (op.getDirect()) {
      SharedTileType tileType = op.getTile().getType();
      TileLayout layout = tileType.getLayout();
      int64_t vec = kChunkBytes / layout.elementBytes;
      auto [threadId, threads] = emitLinearThreadId(rewriter, op);
      return lowerDirect(op, adaptor, rewriter, layout, threadId, threads, vec,
                         layout.numElements() / vec);
    }
    if (op.getDeferred())
      return lowerDeferred(op, adaptor, rewriter);
    // Register-staged copies that follow each other are lowered together:
    // all their loads, then each copy's stores behind one wait for its own
    // loads, which the next copies' loads have kept in flight. Lowered
    // alone, a copy's stores each wait for their load (4 waits for 4
    // loads), or all for the last with the copy's latency exposed.
    SmallVector<CopyToSharedOp> run = {op};
    SmallVector<SmallVector<Value>> operands = {
        SmallVector<Value>(adaptor.getOperands())};
    if (isGroupable(op)) {
      for (auto next = dyn_cast_or_null<CopyToSharedOp>(op->getNextNode());
           next && isGroupable(next);
           next = dyn_cast_or_null<CopyToSharedOp>(next->getNextNode())) {
        SmallVector<Value> remapped;
        if (failed(rewriter.getRemappedValues(next->getOperands(), remapped)))
          break;
        run.push_back(next);
        operands.push_back(std::move(remapped));
      }
    }
    // Each copy's resource right before its loads: computed together, the
    // resources would take two scalar quads (and copies of their common
    // words).
    SmallVector<StagedCopy> staged;
    SmallVector<int64_t> loads;
    for (auto [copy, values] : llvm::zip_equal(run, operands)) {
      staged.push_back(stage(copy, OpAdaptor(values, copy), rewriter));
      loads.push_back(staged.back().load());
    }
    int64_t after = llvm::sum_of(loads);
    for (auto [copy, half, count] : llvm::zip_equal(run, staged, loads)) {
      after -= count;
      if (run.size() > 1)
        amdgpu::MemoryCounterWaitOp::create(rewriter, copy.getLoc(),
                                            rewriter.getI32IntegerAttr(after),
                                            nullptr, nullptr, nullptr, nullptr);
      half.finish();
    }
    for (CopyToSharedOp copy : run)
      rewriter.eraseOp(copy);
    return success();
  }

  /// Whether `op` may be lowered with its neighbours: register-staged,
  /// not deferred, with a fixed number of loads (not `partial`, which
  /// chooses between chunk and element loads at run time).
  static bool isGroupable(CopyToSharedOp op) {
    return !op.getDirect() && !op.getDeferred() &&
           op.getBounds() != BoundsMode::partial &&
           succeeded(checkLowerable(op, /*emitErrors=*/false));
  }

  /// `op` and the deferred copies right after it: all their loads here,
  /// their stores at the last one's deferred-stores point. No explicit
  /// waits: the backend waits for each load at its store, by then long
  /// complete.
  LogicalResult lowerDeferred(CopyToSharedOp op, OpAdaptor adaptor,
                              ConversionPatternRewriter &rewriter) const {
    SmallVector<CopyToSharedOp> run = {op};
    SmallVector<StagedCopy> staged = {stage(op, adaptor, rewriter)};
    staged.back().load();
    for (auto next = dyn_cast_or_null<CopyToSharedOp>(op->getNextNode());
         next && next.getDeferred() &&
         succeeded(checkLowerable(next, /*emitErrors=*/false));
         next = dyn_cast_or_null<CopyToSharedOp>(next->getNextNode())) {
      SmallVector<Value> remapped;
      if (failed(rewriter.getRemappedValues(next->getOperands(), remapped)))
        break;
      run.push_back(next);
      staged.push_back(stage(next, OpAdaptor(remapped, next), rewriter));
      staged.back().load();
    }
    OpBuilder::InsertionGuard guard(rewriter);
    if (Operation *point = run.back().getDeferredStoresPoint())
      rewriter.setInsertionPoint(point);
    else
      rewriter.setInsertionPointToEnd(op->getBlock());
    for (StagedCopy &copy : staged)
      copy.finish();
    for (CopyToSharedOp copy : run)
      rewriter.eraseOp(copy);
    return success();
  }

  /// A register-staged copy in three steps: its resource and offsets,
  /// emitted when it is staged, `load`, which issues its loads and returns
  /// how many, and `finish`, which rearranges the data and stores it.
  struct StagedCopy {
    std::function<int64_t()> load;
    std::function<void()> finish;
  };

  /// Emits `op`'s resource and offsets.
  StagedCopy stage(CopyToSharedOp op, OpAdaptor adaptor,
                   ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    SharedTileType tileType = op.getTile().getType();
    TileLayout layout = tileType.getLayout();
    int64_t vec = kChunkBytes / layout.elementBytes;
    auto [threadId, threads] = emitLinearThreadId(rewriter, op);
    int64_t chunks = layout.numElements() / vec;
    if (op.getTranspose())
      return stageTransposed(op, adaptor, rewriter, layout, threadId, threads,
                             vec);

    // Each chunk is a raw buffer load through a resource based at the
    // region's first row (rule R2 of
    // docs/hardware/SchedulesTailsLayouts.md#tail-rules: the row origin in
    // the base): its offset inside the region (row and column, voffset)
    // depends on the thread id alone, so LLVM computes it once outside any
    // loop, and the region's column (uniform) goes in soffset: no address
    // arithmetic per K tile.
    Type elementType = tileType.getElementType();
    auto chunkType = VectorType::get({vec}, elementType);
    std::vector<Run> runs = planChunkAccess(layout, vec);
    Value base = slotBase(rewriter, loc, tileType, adaptor.getSlot());
    int64_t chunksPerRow = layout.cols / vec;
    BoundsMode bounds = op.getBounds();
    BufferRegion source = sourceRegion(op, adaptor, rewriter, layout);

    // The (row, col) of the chunk thread-major iteration `it` copies.
    SmallVector<std::pair<Value, Value>> coords;
    for (int64_t it = 0; it < chunks / threads; ++it) {
      Value chunk = addIndex(rewriter, loc, threadId,
                             constIndex(rewriter, loc, it * threads));
      Value row = rewriter.createOrFold<arith::DivUIOp>(
          loc, chunk, constIndex(rewriter, loc, chunksPerRow));
      Value col =
          mulIndex(rewriter, loc,
                   rewriter.createOrFold<arith::RemUIOp>(
                       loc, chunk, constIndex(rewriter, loc, chunksPerRow)),
                   vec);
      coords.push_back({row, col});
    }
    // A gathering copy reads each chunk from its row's source row; the
    // LDS side keeps the tile row.
    SmallVector<std::pair<Value, Value>> sourceCoords = coords;
    if (op.getRowIds()) {
      SmallVector<Value> rows = emitGatheredChunkRows(
          rewriter, op, adaptor, chunks / threads,
          [&](OpBuilder &b, Value t, int64_t it) {
            Value chunk = addIndex(b, loc, t, constIndex(b, loc, it * threads));
            return b.createOrFold<arith::DivUIOp>(
                loc, chunk, constIndex(b, loc, chunksPerRow));
          });
      for (auto [coord, row] : llvm::zip(sourceCoords, rows))
        coord.first = row;
    }
    auto data = std::make_shared<SmallVector<Value>>();
    auto load = [&rewriter, loc, source, sourceCoords, chunkType, bounds,
                 data] {
      *data = loadRegionChunks(rewriter, loc, source, sourceCoords, chunkType,
                               bounds);
      return int64_t(data->size());
    };
    Value tile = adaptor.getTile();
    auto finish = [&rewriter, loc, layout, vec, runs, base, tile, data,
                   coords] {
      for (auto [chunk, coord] : llvm::zip(*data, coords)) {
        auto [row, col] = coord;
        for (Run run : runs) {
          Value part = run.length == vec ? chunk
                                         : sliceVector(rewriter, loc, chunk,
                                                       run.first, run.length);
          Value offset =
              addIndex(rewriter, loc, base,
                       emitPhysicalOffset(
                           rewriter, loc, layout, row,
                           addIndex(rewriter, loc, col,
                                    constIndex(rewriter, loc, run.first))));
          vector::StoreOp::create(
              rewriter, loc, part, tile, ValueRange{offset},
              /*nontemporal=*/false,
              llvm::MaybeAlign(run.length * layout.elementBytes));
        }
      }
    };
    return StagedCopy{load, finish};
  }

  /// The element offsets of tile rows tileRow + j (j < vec) from row
  /// tileRow at a transposing copy's run column, when they are the same for
  /// every run of the tile (the swizzle moves a run's rows together, as
  /// st_32x16 does): the run's stores then share one address, the rest of
  /// each a constant the backend folds into the store. Per-row addresses,
  /// loop-invariant, LLVM would hoist into a register each. Empty when
  /// some run differs.
  static SmallVector<int64_t> uniformRunSteps(const TileLayout &layout,
                                              int64_t vec, int64_t colBlocks,
                                              int64_t blocks) {
    SmallVector<int64_t> steps;
    for (int64_t block = 0; block < blocks; ++block) {
      int64_t row = block / colBlocks * vec;
      int64_t col = block % colBlocks * kTransposedCopyRun;
      int64_t first = layout.physicalOffset(row, col);
      for (int64_t j = 0; j < vec; ++j) {
        int64_t step = layout.physicalOffset(row + j, col) - first;
        if (block == 0)
          steps.push_back(step);
        else if (steps[j] != step)
          return {};
      }
    }
    return steps;
  }

  /// A transposing copy: blocks of kTransposedCopyRun source rows by `vec`
  /// source columns (tile rows), read as chunks, transposed in registers and
  /// written as `vec` runs of tile rows.
  StagedCopy stageTransposed(CopyToSharedOp op, OpAdaptor adaptor,
                             ConversionPatternRewriter &rewriter,
                             const TileLayout &layout, Value threadId,
                             int64_t threads, int64_t vec) const {
    Location loc = op.getLoc();
    SharedTileType tileType = op.getTile().getType();
    Type elementType = tileType.getElementType();
    auto chunkType = VectorType::get({vec}, elementType);
    BoundsMode bounds = op.getBounds();
    BufferRegion source = sourceRegion(op, adaptor, rewriter, layout);
    Value base = slotBase(rewriter, loc, tileType, adaptor.getSlot());
    auto c = [&](int64_t v) { return constIndex(rewriter, loc, v); };
    int64_t colBlocks = layout.cols / kTransposedCopyRun;
    int64_t blocks = layout.numElements() / (vec * kTransposedCopyRun);
    // Per block: its tile row and column, and its source rows' chunks.
    using Block =
        std::tuple<Value, Value, SmallVector<std::pair<Value, Value>>>;
    SmallVector<Block> blockCoords;
    for (int64_t it = 0; it < blocks / threads; ++it) {
      // Consecutive threads write consecutive runs of a tile row: a row's
      // runs are in distinct banks under any swizzle of whole rows, while
      // consecutive threads writing the same column of rows 8 apart meet
      // in the same banks under st_8x64 (16-way on gfx1201).
      Value block = addIndex(rewriter, loc, threadId, c(it * threads));
      Value tileRow = mulIndex(
          rewriter, loc,
          rewriter.createOrFold<arith::DivUIOp>(loc, block, c(colBlocks)), vec);
      Value tileCol = mulIndex(
          rewriter, loc,
          rewriter.createOrFold<arith::RemUIOp>(loc, block, c(colBlocks)),
          kTransposedCopyRun);
      SmallVector<std::pair<Value, Value>> coords;
      for (int64_t t = 0; t < kTransposedCopyRun; ++t)
        coords.push_back({addIndex(rewriter, loc, tileCol, c(t)), tileRow});
      blockCoords.push_back({tileRow, tileCol, std::move(coords)});
    }
    auto loaded = std::make_shared<SmallVector<SmallVector<Value>>>();
    auto load = [&rewriter, loc, source, blockCoords, chunkType, bounds,
                 loaded] {
      int64_t loads = 0;
      for (const Block &block : blockCoords) {
        loaded->push_back(loadRegionChunks(
            rewriter, loc, source, std::get<2>(block), chunkType, bounds));
        loads += loaded->back().size();
      }
      return loads;
    };
    Value tile = adaptor.getTile();
    SmallVector<int64_t> steps =
        uniformRunSteps(layout, vec, colBlocks, blocks);
    auto finish = [&rewriter, loc, layout, vec, base, tile, blockCoords, loaded,
                   elementType, steps] {
      auto runType = VectorType::get({kTransposedCopyRun}, elementType);
      for (auto [block, rows] : llvm::zip_equal(blockCoords, *loaded)) {
        auto [tileRow, tileCol, coords] = block;
        Value first;
        if (!steps.empty())
          first = addIndex(
              rewriter, loc, base,
              emitPhysicalOffset(rewriter, loc, layout, tileRow, tileCol));
        for (int64_t j = 0; j < vec; ++j) {
          SmallVector<Value> run;
          for (Value row : rows)
            run.push_back(vector::ExtractOp::create(rewriter, loc, row,
                                                    ArrayRef<int64_t>{j}));
          Value offset =
              first ? addIndex(rewriter, loc, first,
                               constIndex(rewriter, loc, steps[j]))
                    : addIndex(rewriter, loc, base,
                               emitPhysicalOffset(
                                   rewriter, loc, layout,
                                   addIndex(rewriter, loc, tileRow,
                                            constIndex(rewriter, loc, j)),
                                   tileCol));
          vector::StoreOp::create(
              rewriter, loc,
              vector::FromElementsOp::create(rewriter, loc, runType, run), tile,
              ValueRange{offset}, /*nontemporal=*/false,
              llvm::MaybeAlign(kTransposedCopyRun * layout.elementBytes));
        }
      }
    };
    return StagedCopy{load, finish};
  }

  /// The source rows of a gathering copy's `count` chunks per lane,
  /// computed before the loops its ids do not depend on: `tileRow` gives
  /// chunk `it`'s tile row from the thread id.
  static SmallVector<Value> emitGatheredChunkRows(
      ConversionPatternRewriter &rewriter, CopyToSharedOp op, OpAdaptor adaptor,
      int64_t count, function_ref<Value(OpBuilder &, Value, int64_t)> tileRow) {
    OpBuilder::InsertionGuard guard(rewriter);
    setInsertionPointOutsideLoops(rewriter, op,
                                  {adaptor.getRowIds(), adaptor.getRowIdsAt(),
                                   adaptor.getRowIdsDivisor()});
    Value threadId = emitLinearThreadId(rewriter, op).first;
    SmallVector<Value> rows;
    for (int64_t it = 0; it < count; ++it)
      rows.push_back(emitGatheredRow(
          rewriter, op.getLoc(), adaptor.getRowIds(), adaptor.getRowIdsAt(),
          adaptor.getRowIdsDivisor(), tileRow(rewriter, threadId, it)));
    return rows;
  }

  /// The copy's source region as a raw buffer, masked (range clamped to
  /// 2^31, rule R1) unless the region lies inside or only its rows may end
  /// (range: its rows in the matrix).
  BufferRegion sourceRegion(CopyToSharedOp op, OpAdaptor adaptor, OpBuilder &b,
                            const TileLayout &layout) const {
    SharedTileType tile = op.getTile().getType();
    std::optional<RegionRows> rows;
    int64_t regionRows = op.getTranspose() ? tile.getCols() : tile.getRows();
    // Gathered rows lie anywhere: the range runs to the matrix's end, and
    // rows past it read zero.
    if (op.getRowIds())
      rows = std::nullopt;
    else if (op.getBounds() == BoundsMode::inside)
      rows = RegionRows{regionRows};
    else if (op.getBounds() == BoundsMode::partial_rows)
      rows = RegionRows{regionRows, /*mayEnd=*/true};
    return makeBufferRegion(b, op.getLoc(), adaptor.getSource(),
                            adaptor.getRow(), adaptor.getCol(),
                            layout.elementBytes, chip, rows);
  }

  /// loadChunks, and with `partial` bounds whole 16-byte chunks when the
  /// rows allow them, else element by element: a uniform branch chosen at
  /// run time.
  static SmallVector<Value>
  loadRegionChunks(OpBuilder &b, Location loc, const BufferRegion &source,
                   ArrayRef<std::pair<Value, Value>> coords,
                   VectorType chunkType, BoundsMode bounds) {
    if (bounds != BoundsMode::partial)
      return loadChunks(b, loc, source, coords, chunkType, bounds,
                        /*wide=*/true);
    auto yieldLoads = [&](bool wide) {
      return [&, wide](OpBuilder &b, Location loc) {
        scf::YieldOp::create(
            b, loc,
            loadChunks(b, loc, source, coords, chunkType, bounds, wide));
      };
    };
    auto choice =
        scf::IfOp::create(b, loc, source.rowsAreChunked(b, loc, kChunkBytes),
                          yieldLoads(true), yieldLoads(false));
    return SmallVector<Value>(choice.getResults());
  }

  /// The chunks at `coords` of the region, one `chunkType` vector each:
  /// one 16-byte load per chunk (`wide`), or one load per element. With
  /// `partial` bounds the columns past the matrix are masked (rule R1); rows
  /// past it are out of the resource's range either way.
  static SmallVector<Value> loadChunks(OpBuilder &b, Location loc,
                                       const BufferRegion &source,
                                       ArrayRef<std::pair<Value, Value>> coords,
                                       VectorType chunkType, BoundsMode bounds,
                                       bool wide) {
    Value zero = constI32(b, loc, 0);
    int64_t vec = chunkType.getNumElements();
    Type elementType = chunkType.getElementType();
    auto offsetOf = [&](Value row, Value col, int64_t width) {
      return masksColumns(bounds)
                 ? source.maskedByteOffset(b, loc, row, col, width)
                 : source.byteOffset(b, loc, row, col);
    };
    auto load = [&](Type type, Value offset, Value soffset) -> Value {
      return ROCDL::RawPtrBufferLoadOp::create(
          b, loc, type, source.resource, offset, soffset,
          /*aux=*/zero, /*alias_scopes=*/nullptr, /*noalias_scopes=*/nullptr,
          /*tbaa=*/nullptr);
    };
    SmallVector<Value> chunks;
    for (auto [row, col] : coords) {
      if (wide) {
        auto words = VectorType::get({kChunkBytes / 4}, b.getI32Type());
        chunks.push_back(vector::BitCastOp::create(
            b, loc, chunkType,
            load(words, offsetOf(row, col, vec), source.origin)));
        continue;
      }
      // One lane offset per chunk (the elements' masks differ); element e's
      // column offset goes in soffset with the region's (rule R2 allows
      // column offsets there; a masked offset stays out of range with it).
      auto bits = b.getIntegerType(source.elementBytes * 8);
      Value chunkOffset = source.byteOffset(b, loc, row, col);
      SmallVector<Value> elements;
      for (int64_t e = 0; e < vec; ++e) {
        Value at = addIndex(b, loc, col, constIndex(b, loc, e));
        Value offset = masksColumns(bounds)
                           ? source.maskOffset(b, loc, chunkOffset, at, 1)
                           : chunkOffset;
        Value soffset = b.createOrFold<arith::AddIOp>(
            loc, source.origin, constI32(b, loc, e * source.elementBytes));
        elements.push_back(arith::BitcastOp::create(
            b, loc, elementType, load(bits, offset, soffset)));
      }
      chunks.push_back(
          vector::FromElementsOp::create(b, loc, chunkType, elements));
    }
    return chunks;
  }

  /// The direct-to-LDS fill in the form of docs/Hardware.md#direct-lds-fill:
  /// buffer_load_dwordx4 ... lds. In iteration `it` wave w writes chunks
  /// it * threads + w * waveSize + lane lane-linearly from LDS element
  /// (it * threads + w * waveSize) * vec, the wave-uniform M0 base, and each
  /// lane fetches the source element the layout stores at its chunk. The
  /// source is a raw buffer resource starting at the tile's first row (a
  /// 64-bit scalar base, invariant in a K loop); each lane's offset inside
  /// the tile goes in voffset and depends on the thread id alone, so it is
  /// computed once outside any loop, while the tile's column offset (uniform:
  /// all threads copy the same tile) goes in soffset. 32-bit offsets bound
  /// only the tile (rows x row stride), not the whole matrix.
  LogicalResult lowerDirect(CopyToSharedOp op, OpAdaptor adaptor,
                            ConversionPatternRewriter &rewriter,
                            const TileLayout &layout, Value threadId,
                            int64_t threads, int64_t vec,
                            int64_t chunks) const {
    Location loc = op.getLoc();
    if (threads % chip.waveSize != 0)
      return op.emitOpError() << "a direct fill needs whole waves, got "
                              << threads << " threads";
    SharedTileType tileType = op.getTile().getType();
    int64_t elementBytes = layout.elementBytes;
    // partial_rows: the resource ends at the last row (rule R3); the verifier
    // keeps partial copies on the register path.
    bool inside = op.getBounds() == BoundsMode::inside;
    BufferRegion source = sourceRegion(op, adaptor, rewriter, layout);
    Value resource = source.resource, tileOrigin = source.origin;
    auto byteOffset = [&](Value row, Value col) {
      return source.byteOffset(rewriter, loc, row, col);
    };
    // The wave's LDS slice, made wave-uniform (readfirstlane) so that the M0
    // bases of all its loads are scalar arithmetic. It depends on the thread
    // id alone, so it is computed at the kernel's entry, outside any loop:
    // LLVM does not hoist the convergent intrinsic itself.
    Value waveBytes;
    {
      OpBuilder::InsertionGuard guard(rewriter);
      auto func = op->getParentOfType<FunctionOpInterface>();
      rewriter.setInsertionPointToStart(&func.getFunctionBody().front());
      Value entryThread = emitLinearThreadId(rewriter, op).first;
      waveBytes = ROCDL::ReadfirstlaneOp::create(
          rewriter, loc, rewriter.getI32Type(),
          toI32(rewriter, loc,
                mulIndex(rewriter, loc,
                         rewriter.createOrFold<arith::DivUIOp>(
                             loc, entryThread,
                             constIndex(rewriter, loc, chip.waveSize)),
                         chip.waveSize * vec * elementBytes)));
    }
    Value ldsSlice = rewriter.createOrFold<arith::AddIOp>(
        loc, pointerAsI32(rewriter, loc, adaptor.getTile()),
        rewriter.createOrFold<arith::AddIOp>(
            loc, waveBytes,
            toI32(rewriter, loc,
                  mulIndex(rewriter, loc,
                           slotBase(rewriter, loc, tileType, adaptor.getSlot()),
                           elementBytes))));
    Value zero = constI32(rewriter, loc, 0);
    Value size = constI32(rewriter, loc, vec * elementBytes);
    SmallVector<Value> gatheredRows;
    if (op.getRowIds())
      gatheredRows = emitGatheredChunkRows(
          rewriter, op, adaptor, chunks / threads,
          [&](OpBuilder &b, Value t, int64_t it) {
            Value element = mulIndex(
                b, loc, addIndex(b, loc, t, constIndex(b, loc, it * threads)),
                vec);
            return emitLogicalCoord(b, loc, layout, element).first;
          });
    Value firstVoffset;
    for (int64_t it = 0; it < chunks / threads; ++it) {
      int64_t shift = it * threads * vec;
      // Later iterations reuse the first one's lane offsets when they are
      // the same chunks moved by one logical displacement (true of the
      // swizzled GEMM tiles), which then joins the scalar offset.
      std::optional<Coord> moved =
          firstVoffset && !op.getRowIds()
              ? uniformDisplacement(layout, threads, vec, shift)
              : std::nullopt;
      Value voffset = firstVoffset, soffset = tileOrigin;
      if (moved) {
        // A row displacement in soffset would escape the range check if
        // the hardware leaves soffset out of it (rule R2): at an edge it
        // goes in voffset (an add outside any loop).
        Value displacement = byteOffset(constIndex(rewriter, loc, moved->row),
                                        constIndex(rewriter, loc, moved->col));
        if (inside)
          soffset = rewriter.createOrFold<arith::AddIOp>(loc, tileOrigin,
                                                         displacement);
        else
          voffset = rewriter.createOrFold<arith::AddIOp>(loc, firstVoffset,
                                                         displacement);
      } else {
        Value element =
            mulIndex(rewriter, loc,
                     addIndex(rewriter, loc, threadId,
                              constIndex(rewriter, loc, it * threads)),
                     vec);
        auto [row, col] = emitLogicalCoord(rewriter, loc, layout, element);
        // A gathering fill's lane reads its row's source row; rows past the
        // source (padding) leave undefined data in rows whose results are
        // not stored.
        if (op.getRowIds())
          row = gatheredRows[it];
        voffset = byteOffset(row, col);
        if (!firstVoffset)
          firstVoffset = voffset;
      }
      Value dst = rewriter.createOrFold<arith::AddIOp>(
          loc, ldsSlice, constI32(rewriter, loc, shift * elementBytes));
      Value dstPointer = LLVM::IntToPtrOp::create(
          rewriter, loc,
          LLVM::LLVMPointerType::get(rewriter.getContext(), kLdsAddressSpace),
          dst);
      ROCDL::RawPtrBufferLoadLdsOp::create(rewriter, loc, resource, dstPointer,
                                           size, voffset, soffset,
                                           /*offset=*/zero, /*aux=*/zero,
                                           /*alias_scopes=*/nullptr,
                                           /*noalias_scopes=*/nullptr,
                                           /*tbaa=*/nullptr);
    }
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::hk::detail::populateCopyToSharedLowering(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const ChipInfo &chip) {
  patterns.add<CopyToSharedLowering>(converter, patterns.getContext(), chip);
}
