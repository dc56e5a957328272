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

/// Bytes of one global or LDS copy chunk: one 16-byte vector access.
static constexpr int64_t kChunkBytes = kCopyChunkBytes;

/// AMDGPU address spaces of the direct-to-LDS intrinsic's pointers.
static constexpr unsigned kLdsAddressSpace = 3;

static Value constI32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
}

/// An index truncated to the 32 bits buffer and LDS offsets have.
static Value toI32(OpBuilder &b, Location loc, Value index) {
  return b.createOrFold<arith::IndexCastUIOp>(loc, b.getI32Type(), index);
}

/// The LDS address of the first element of a workgroup memref.
static Value pointerAsI32(OpBuilder &b, Location loc, Value memref) {
  return toI32(b, loc,
               memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref));
}

static Value constIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

static Value addIndex(OpBuilder &b, Location loc, Value x, Value y) {
  return b.createOrFold<arith::AddIOp>(loc, x, y);
}

static Value mulIndex(OpBuilder &b, Location loc, Value x, int64_t y) {
  return b.createOrFold<arith::MulIOp>(loc, x, constIndex(b, loc, y));
}

/// Element offset of the start of `slot` in a tile's LDS memref.
static Value slotBase(OpBuilder &b, Location loc, SharedTileType tile,
                      Value slot) {
  return mulIndex(b, loc, slot, tile.getRows() * tile.getCols());
}

/// The logical (row, col) of fragment (fi, fj) of a fragment tile whose
/// top-left element is at (row, col).
static std::pair<Value, Value> fragmentOrigin(OpBuilder &b, Location loc,
                                              Value row, Value col,
                                              const FragmentShape &shape,
                                              int64_t fi, int64_t fj) {
  return {addIndex(b, loc, row, constIndex(b, loc, fi * shape.rows)),
          addIndex(b, loc, col, constIndex(b, loc, fj * shape.cols))};
}

/// A value of `vectorType` whose contents are about to be overwritten.
static Value emptyVector(OpBuilder &b, Location loc, VectorType vectorType) {
  return arith::ConstantOp::create(b, loc, vectorType,
                                   b.getZeroAttr(vectorType));
}

/// Elements [first, first + length) of the 1-D `vector`. A shuffle, which
/// every lowering to LLVM handles directly.
static Value sliceVector(OpBuilder &b, Location loc, Value vector,
                         int64_t first, int64_t length) {
  SmallVector<int64_t> mask;
  for (int64_t i = 0; i < length; ++i)
    mask.push_back(first + i);
  return vector::ShuffleOp::create(b, loc, vector, vector, mask);
}

/// `into` with elements [first, first + size(part)) replaced by `part`.
static Value insertSlice(OpBuilder &b, Location loc, Value part, Value into,
                         int64_t first) {
  int64_t size = cast<VectorType>(into.getType()).getNumElements();
  int64_t length = cast<VectorType>(part.getType()).getNumElements();
  if (length == size)
    return part;
  SmallVector<int64_t> mask;
  for (int64_t i = 0; i < size; ++i)
    mask.push_back(i >= first && i < first + length ? size + i - first : i);
  return vector::ShuffleOp::create(b, loc, into, part, mask);
}

/// Fragment `index` (row-major) of a lane vector holding fragments of
/// `elems` elements each.
static Value extractFragment(OpBuilder &b, Location loc, Value laneVector,
                             int64_t index, int64_t elems) {
  return sliceVector(b, loc, laneVector, index * elems, elems);
}

/// `laneVector` with fragment `index` replaced by `fragment`.
static Value insertFragment(OpBuilder &b, Location loc, Value fragment,
                            Value laneVector, int64_t index) {
  int64_t elems = cast<VectorType>(fragment.getType()).getNumElements();
  return insertSlice(b, loc, fragment, laneVector, index * elems);
}

namespace {

//===----------------------------------------------------------------------===//
// hk.alloc_shared
//===----------------------------------------------------------------------===//

struct AllocSharedLowering : OpConversionPattern<AllocSharedOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AllocSharedOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getTypeConverter()->convertType<MemRefType>(op.getType());
    auto func = op->getParentOfType<FunctionOpInterface>();
    Operation *symbolTableOp = SymbolTable::getNearestSymbolTable(func);
    if (!type || !symbolTableOp)
      return rewriter.notifyMatchFailure(op, "no LDS type or symbol table");

    // A readable name that is unique in the module.
    int64_t index = 0;
    for (auto alloc : op->getBlock()->getOps<AllocSharedOp>()) {
      if (alloc == op)
        break;
      ++index;
    }
    std::string base =
        ("__hk_shared_" + func.getName() + "_" + Twine(index)).str();
    std::string name = base;
    for (int suffix = 1; SymbolTable::lookupSymbolIn(symbolTableOp, name);
         ++suffix)
      name = base + "_" + std::to_string(suffix);

    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&symbolTableOp->getRegion(0).front());
      memref::GlobalOp::create(
          rewriter, op.getLoc(), name, rewriter.getStringAttr("private"), type,
          /*initial_value=*/Attribute(),
          /*constant=*/false, rewriter.getI64IntegerAttr(kChunkBytes));
    }
    rewriter.replaceOpWithNewOp<memref::GetGlobalOp>(op, type, name);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// hk.copy_to_shared
//===----------------------------------------------------------------------===//

/// The `known_block_size` of the gpu.func around `op`, if any.
static DenseI32ArrayAttr getKnownBlockSize(Operation *op) {
  auto func = op->getParentOfType<gpu::GPUFuncOp>();
  DenseI32ArrayAttr block = func ? func.getKnownBlockSizeAttr() : nullptr;
  return block && block.size() == 3 ? block : nullptr;
}

/// The linear id of the thread in its workgroup, and the workgroup size.
/// Requires getKnownBlockSize(op).
static std::pair<Value, int64_t> emitLinearThreadId(OpBuilder &b,
                                                    Operation *op) {
  DenseI32ArrayAttr block = getKnownBlockSize(op);
  Location loc = op->getLoc();
  Value id = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  if (block[1] != 1 || block[2] != 1) {
    Value y = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::y);
    Value z = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::z);
    Value yz = addIndex(b, loc, y, mulIndex(b, loc, z, block[1]));
    id = addIndex(b, loc, id, mulIndex(b, loc, yz, block[0]));
  }
  return {id, int64_t(block[0]) * block[1] * block[2]};
}

/// Checks what the lowering of `op` needs beyond the verifier: the
/// workgroup size (copies and lane ids), and for copies a tile that splits
/// evenly into the workgroup's 16-byte chunks. Emits the reason on failure
/// when `emitErrors` is set.
static LogicalResult checkLowerable(Operation *op, bool emitErrors) {
  auto error = [&](auto &&...parts) {
    if (emitErrors)
      (op->emitOpError() << ... << parts);
    return failure();
  };
  if (!isa<CopyToSharedOp, LoadFragmentOp, StoreFragmentOp>(op))
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

/// Base of the patterns that need the chip.
template <typename Op> struct ChipLowering : OpConversionPattern<Op> {
  ChipLowering(const TypeConverter &converter, MLIRContext *ctx,
               const ChipInfo &chip)
      : OpConversionPattern<Op>(converter, ctx), chip(chip) {}

  /// The id of the lane in its wave: waves are made of consecutive linear
  /// thread ids.
  FailureOr<Value> emitLaneId(OpBuilder &b, Operation *op) const {
    if (failed(checkLowerable(op, /*emitErrors=*/false)))
      return failure();
    Value tid = emitLinearThreadId(b, op).first;
    return b.createOrFold<arith::RemUIOp>(
        op->getLoc(), tid, constIndex(b, op->getLoc(), chip.waveSize));
  }

  /// The chip's instruction for `type`; the verifier guarantees it exists.
  const MmaInstr *getInstr(Operation *op, FragmentType type) const {
    const MmaInstr *instr = type.findInstr(chip);
    if (!instr)
      op->emitOpError() << chip.name << " has no instruction for " << type;
    return instr;
  }

  const ChipInfo &chip;
};

struct CopyToSharedLowering : ChipLowering<CopyToSharedOp> {
  using ChipLowering::ChipLowering;

  LogicalResult
  matchAndRewrite(CopyToSharedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SharedTileType tileType = op.getTile().getType();
    TileLayout layout = tileType.getLayout();
    if (failed(checkLowerable(op, /*emitErrors=*/false)))
      return rewriter.notifyMatchFailure(op, "not lowerable as written");
    int64_t vec = kChunkBytes / layout.elementBytes;
    auto [threadId, threads] = emitLinearThreadId(rewriter, op);
    int64_t chunks = layout.numElements() / vec;
    if (op.getDirect())
      return lowerDirect(op, adaptor, rewriter, layout, threadId, threads, vec,
                         chunks);
    if (op.getTranspose())
      return lowerTransposed(op, adaptor, rewriter, layout, threadId, threads,
                             vec);

    // Each chunk is a raw buffer load through a resource based at the
    // region's first row (rule R2 of the spec: the row origin in the base):
    // its offset inside the region (row and column, voffset) depends on the
    // thread id alone, so LLVM computes it once outside any loop, and the
    // region's column (uniform) goes in soffset: no address arithmetic per
    // K tile.
    Type elementType = tileType.getElementType();
    auto chunkType = VectorType::get({vec}, elementType);
    std::vector<Run> runs = planChunkAccess(layout, vec);
    Value base = slotBase(rewriter, loc, tileType, adaptor.getSlot());
    int64_t chunksPerRow = layout.cols / vec;
    BoundsMode bounds = op.getBounds();
    BufferRegion source = makeBufferRegion(
        rewriter, loc, adaptor.getSource(), adaptor.getRow(), adaptor.getCol(),
        layout.elementBytes, chip.rawBufferResourceFlags,
        /*masked=*/bounds != BoundsMode::inside);

    // The (row, col) of the chunk thread-major iteration `it` copies.
    auto chunkCoord = [&](int64_t it) -> std::pair<Value, Value> {
      Value chunk = addIndex(rewriter, loc, threadId,
                             constIndex(rewriter, loc, it * threads));
      Value row = rewriter.createOrFold<arith::DivUIOp>(
          loc, chunk, constIndex(rewriter, loc, chunksPerRow));
      Value col =
          mulIndex(rewriter, loc,
                   rewriter.createOrFold<arith::RemUIOp>(
                       loc, chunk, constIndex(rewriter, loc, chunksPerRow)),
                   vec);
      return {row, col};
    };
    auto storeChunk = [&](Value chunk, Value row, Value col) {
      for (Run run : runs) {
        Value part = run.length == vec ? chunk
                                       : sliceVector(rewriter, loc, chunk,
                                                     run.first, run.length);
        Value offset = addIndex(
            rewriter, loc, base,
            emitPhysicalOffset(rewriter, loc, layout, row,
                               addIndex(rewriter, loc, col,
                                        constIndex(rewriter, loc, run.first))));
        vector::StoreOp::create(
            rewriter, loc, part, adaptor.getTile(), ValueRange{offset},
            /*nontemporal=*/false,
            llvm::MaybeAlign(run.length * layout.elementBytes));
      }
    };
    int64_t iterations = chunks / threads;
    if (bounds != BoundsMode::partial) {
      for (int64_t it = 0; it < iterations; ++it) {
        auto [row, col] = chunkCoord(it);
        storeChunk(loadChunks(rewriter, loc, source, {{row, col}}, chunkType,
                              bounds, /*wide=*/true)[0],
                   row, col);
      }
    } else {
      SmallVector<std::pair<Value, Value>> coords;
      for (int64_t it = 0; it < iterations; ++it)
        coords.push_back(chunkCoord(it));
      SmallVector<Value> data =
          loadRegionChunks(rewriter, loc, source, coords, chunkType, bounds);
      for (auto [chunk, coord] : llvm::zip(data, coords))
        storeChunk(chunk, coord.first, coord.second);
    }
    rewriter.eraseOp(op);
    return success();
  }

  /// A transposing copy: blocks of kTransposedCopyRun source rows by `vec`
  /// source columns (tile rows), read as chunks, transposed in registers and
  /// written as `vec` runs of tile rows.
  LogicalResult lowerTransposed(CopyToSharedOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter,
                                const TileLayout &layout, Value threadId,
                                int64_t threads, int64_t vec) const {
    Location loc = op.getLoc();
    SharedTileType tileType = op.getTile().getType();
    Type elementType = tileType.getElementType();
    auto chunkType = VectorType::get({vec}, elementType);
    auto runType = VectorType::get({kTransposedCopyRun}, elementType);
    BoundsMode bounds = op.getBounds();
    BufferRegion source = makeBufferRegion(
        rewriter, loc, adaptor.getSource(), adaptor.getRow(), adaptor.getCol(),
        layout.elementBytes, chip.rawBufferResourceFlags,
        /*masked=*/bounds != BoundsMode::inside);
    Value base = slotBase(rewriter, loc, tileType, adaptor.getSlot());
    auto c = [&](int64_t v) { return constIndex(rewriter, loc, v); };
    int64_t colBlocks = layout.cols / kTransposedCopyRun;
    int64_t blocks = layout.numElements() / (vec * kTransposedCopyRun);
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
      SmallVector<Value> rows =
          loadRegionChunks(rewriter, loc, source, coords, chunkType, bounds);
      for (int64_t j = 0; j < vec; ++j) {
        SmallVector<Value> run;
        for (Value row : rows)
          run.push_back(vector::ExtractOp::create(rewriter, loc, row,
                                                  ArrayRef<int64_t>{j}));
        Value offset = addIndex(
            rewriter, loc, base,
            emitPhysicalOffset(rewriter, loc, layout,
                               addIndex(rewriter, loc, tileRow, c(j)), tileCol));
        vector::StoreOp::create(
            rewriter, loc,
            vector::FromElementsOp::create(rewriter, loc, runType, run),
            adaptor.getTile(), ValueRange{offset}, /*nontemporal=*/false,
            llvm::MaybeAlign(kTransposedCopyRun * layout.elementBytes));
      }
    }
    rewriter.eraseOp(op);
    return success();
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
            b, loc, loadChunks(b, loc, source, coords, chunkType, bounds, wide));
      };
    };
    auto choice = scf::IfOp::create(
        b, loc, source.rowsAreChunked(b, loc, kChunkBytes), yieldLoads(true),
        yieldLoads(false));
    return SmallVector<Value>(choice.getResults());
  }

  /// The chunks at `coords` of the region, one `chunkType` vector each:
  /// one 16-byte load per chunk (`wide`), or one load per element. With
  /// `partial` bounds the columns past the matrix are masked (rule R1); rows
  /// past it are out of the resource's range either way.
  static SmallVector<Value>
  loadChunks(OpBuilder &b, Location loc, const BufferRegion &source,
             ArrayRef<std::pair<Value, Value>> coords, VectorType chunkType,
             BoundsMode bounds, bool wide) {
    Value zero = constI32(b, loc, 0);
    int64_t vec = chunkType.getNumElements();
    Type elementType = chunkType.getElementType();
    auto offsetOf = [&](Value row, Value col, int64_t width) {
      return bounds == BoundsMode::partial
                 ? source.maskedByteOffset(b, loc, row, col, width)
                 : source.byteOffset(b, loc, row, col);
    };
    auto load = [&](Type type, Value offset) -> Value {
      return ROCDL::RawPtrBufferLoadOp::create(
          b, loc, type, source.resource, offset, source.origin,
          /*aux=*/zero, /*alias_scopes=*/nullptr, /*noalias_scopes=*/nullptr,
          /*tbaa=*/nullptr);
    };
    SmallVector<Value> chunks;
    for (auto [row, col] : coords) {
      if (wide) {
        auto words = VectorType::get({kChunkBytes / 4}, b.getI32Type());
        chunks.push_back(vector::BitCastOp::create(
            b, loc, chunkType, load(words, offsetOf(row, col, vec))));
        continue;
      }
      auto bits = b.getIntegerType(source.elementBytes * 8);
      SmallVector<Value> elements;
      for (int64_t e = 0; e < vec; ++e) {
        Value at = addIndex(b, loc, col, constIndex(b, loc, e));
        elements.push_back(arith::BitcastOp::create(
            b, loc, elementType, load(bits, offsetOf(row, at, 1))));
      }
      chunks.push_back(
          vector::FromElementsOp::create(b, loc, chunkType, elements));
    }
    return chunks;
  }

  /// The direct-to-LDS fill in the SPEC section 7 form of
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
    BufferRegion source = makeBufferRegion(
        rewriter, loc, adaptor.getSource(), adaptor.getRow(), adaptor.getCol(),
        elementBytes, chip.rawBufferResourceFlags, /*masked=*/!inside);
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
    Value firstVoffset;
    for (int64_t it = 0; it < chunks / threads; ++it) {
      int64_t shift = it * threads * vec;
      // Later iterations reuse the first one's lane offsets when they are
      // the same chunks moved by one logical displacement (true of the
      // swizzled GEMM tiles), which then joins the scalar offset.
      std::optional<Coord> moved =
          firstVoffset ? uniformDisplacement(layout, threads, vec, shift)
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

//===----------------------------------------------------------------------===//
// Fragment ops
//===----------------------------------------------------------------------===//

struct LoadFragmentLowering : ChipLowering<LoadFragmentOp> {
  using ChipLowering::ChipLowering;

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
    FragmentShape shape = getFragmentShape(instr->layout, type.getRole());
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
        planFragmentAccess(instr->layout, type.getRole(), layout);
    // Where the first element of each run sits inside a fragment.
    SmallVector<std::pair<Value, Value>> runStarts;
    for (Run run : runs)
      runStarts.push_back(emitFragmentElement(
          rewriter, loc, instr->layout, type.getRole(), *lane, run.first));

    Value result = emptyVector(rewriter, loc, resultType);
    for (int64_t fi = 0; fi < type.getNumFragmentRows(); ++fi) {
      for (int64_t fj = 0; fj < type.getNumFragmentCols(); ++fj) {
        Value fragment = emptyVector(rewriter, loc, laneType);
        auto [row0, col0] = fragmentOrigin(rewriter, loc, adaptor.getRow(),
                                           adaptor.getCol(), shape, fi, fj);
        for (auto [run, start] : llvm::zip(runs, runStarts)) {
          Value offset = addIndex(
              rewriter, loc, base,
              emitPhysicalOffset(rewriter, loc, layout,
                                 addIndex(rewriter, loc, row0, start.first),
                                 addIndex(rewriter, loc, col0, start.second)));
          Value part = vector::LoadOp::create(
              rewriter, loc, VectorType::get({run.length}, elementType),
              adaptor.getTile(), ValueRange{offset}, /*nontemporal=*/false,
              llvm::MaybeAlign(run.length * layout.elementBytes));
          fragment = insertSlice(rewriter, loc, part, fragment, run.first);
        }
        result = insertFragment(rewriter, loc, fragment, result,
                                fi * type.getNumFragmentCols() + fj);
      }
    }
    rewriter.replaceOp(op, result);
    return success();
  }

  /// Two transposed reads per fragment (spec D.1): read s gives a lane
  /// elements 4s .. 4s+3 of its fragment from the K-major tile.
  LogicalResult lowerTransposed(LoadFragmentOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter,
                                const MmaInstr &instr, Value lane,
                                Value base) const {
    Location loc = op.getLoc();
    FragmentType type = op.getType();
    if (!transposedReadsMatchLayout(instr.layout, type.getRole()))
      return op.emitOpError() << "transposed reads do not give " << chip.name
                              << "'s lanes their " << type << " elements";
    TileLayout layout = op.getTile().getType().getLayout();
    FragmentShape shape = getFragmentShape(instr.layout, type.getRole());
    Type elementType = type.getElementType();
    auto laneType = VectorType::get({shape.elemsPerLane}, elementType);
    auto partType = VectorType::get({kTransposedReadElems}, elementType);
    // transposedReadSource as index arithmetic, for reads 0 and 1.
    auto c = [&](int64_t v) { return constIndex(rewriter, loc, v); };
    Value inGroup = rewriter.createOrFold<arith::RemUIOp>(loc, lane, c(16));
    Value group = rewriter.createOrFold<arith::DivUIOp>(loc, lane, c(16));
    Value sourceRow = addIndex(
        rewriter, loc, mulIndex(rewriter, loc, group, 8),
        rewriter.createOrFold<arith::DivUIOp>(loc, inGroup, c(4)));
    Value sourceCol = mulIndex(
        rewriter, loc, rewriter.createOrFold<arith::RemUIOp>(loc, inGroup, c(4)),
        kTransposedReadElems);
    Value result =
        emptyVector(rewriter, loc,
                    getTypeConverter()->convertType<VectorType>(type));
    for (int64_t fi = 0; fi < type.getNumFragmentRows(); ++fi) {
      for (int64_t fj = 0; fj < type.getNumFragmentCols(); ++fj) {
        // The fragment's (m, k) origin is the tile's (k, m).
        Value tileRow = addIndex(rewriter, loc, adaptor.getRow(),
                                 c(fj * shape.cols));
        Value tileCol = addIndex(rewriter, loc, adaptor.getCol(),
                                 c(fi * shape.rows));
        Value fragment = emptyVector(rewriter, loc, laneType);
        for (int64_t s = 0; s < 2; ++s) {
          Value row = addIndex(rewriter, loc, tileRow,
                               addIndex(rewriter, loc, sourceRow,
                                        c(s * kTransposedReadElems)));
          Value col = addIndex(rewriter, loc, tileCol, sourceCol);
          Value offset = addIndex(
              rewriter, loc, base,
              emitPhysicalOffset(rewriter, loc, layout, row, col));
          Value part = amdgpu::TransposeLoadOp::create(
              rewriter, loc, partType, adaptor.getTile(), ValueRange{offset});
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
            c = amdgpu::MFMAOp::create(rewriter, loc, cType, mma.m, mma.n,
                                       mma.k, /*blocks=*/1, a, b, c);
            break;
          case MmaLayout::Wmma16x16x16Gfx12:
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
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(op, type,
                                                     adaptor.getValue());
    return success();
  }
};

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
    FragmentShape shape = getFragmentShape(instr->layout, FragmentRole::acc);
    Type destElement = op.getDest().getType().getElementType();
    FailureOr<Value> lane = emitLaneId(rewriter, op);
    if (failed(lane))
      return failure();

    SmallVector<std::pair<Value, Value>> elements;
    for (int64_t e = 0; e < shape.elemsPerLane; ++e)
      elements.push_back(emitFragmentElement(rewriter, loc, instr->layout,
                                             FragmentRole::acc, *lane, e));
    // partial: buffer stores through a resource based at the region's row,
    // at offsets relative to the region.
    bool partial = op.getBounds() == BoundsMode::partial;
    // The offsets are the wave's (the op's contract): made scalar, so that
    // the resource is too (a per-lane resource costs a loop per store).
    std::optional<BufferRegion> dest;
    auto scalar = [&](Value index) -> Value {
      Value first = ROCDL::ReadfirstlaneOp::create(
          rewriter, loc, rewriter.getI32Type(), toI32(rewriter, loc, index));
      return arith::IndexCastUIOp::create(rewriter, loc,
                                          rewriter.getIndexType(), first);
    };
    if (partial)
      dest = makeBufferRegion(
          rewriter, loc, adaptor.getDest(), scalar(adaptor.getRow()),
          scalar(adaptor.getCol()), destElement.getIntOrFloatBitWidth() / 8,
          chip.rawBufferResourceFlags, /*masked=*/true);

    for (int64_t fi = 0; fi < type.getNumFragmentRows(); ++fi) {
      for (int64_t fj = 0; fj < type.getNumFragmentCols(); ++fj) {
        Value fragment = extractFragment(rewriter, loc, adaptor.getFragment(),
                                         fi * type.getNumFragmentCols() + fj,
                                         shape.elemsPerLane);
        if (destElement != type.getElementType())
          fragment = arith::TruncFOp::create(
              rewriter, loc, VectorType::get({shape.elemsPerLane}, destElement),
              fragment);
        Value zero = constIndex(rewriter, loc, 0);
        auto [row0, col0] = fragmentOrigin(
            rewriter, loc, partial ? zero : adaptor.getRow(),
            partial ? zero : adaptor.getCol(), shape, fi, fj);
        for (int64_t e = 0; e < shape.elemsPerLane; ++e) {
          Value value = vector::ExtractOp::create(rewriter, loc, fragment,
                                                  ArrayRef<int64_t>{e});
          Value row = addIndex(rewriter, loc, row0, elements[e].first);
          Value col = addIndex(rewriter, loc, col0, elements[e].second);
          if (!partial) {
            memref::StoreOp::create(rewriter, loc, value, adaptor.getDest(),
                                    ValueRange{row, col});
            continue;
          }
          // Columns past the matrix get the masked offset, rows past it
          // fall out of the resource's range: both stores are dropped.
          ROCDL::RawPtrBufferStoreOp::create(
              rewriter, loc, value, dest->resource,
              dest->maskedByteOffset(rewriter, loc, row, col, 1), dest->origin,
              /*aux=*/constI32(rewriter, loc, 0), /*alias_scopes=*/nullptr,
              /*noalias_scopes=*/nullptr, /*tbaa=*/nullptr);
        }
      }
    }
    rewriter.eraseOp(op);
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
  converter.addConversion([&chip](FragmentType type) -> std::optional<Type> {
    if (VectorType vector = type.getLaneVectorType(chip))
      return vector;
    return std::nullopt;
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
  patterns.add<AllocSharedLowering, FillFragmentLowering, GpuReturnLowering>(
      converter, ctx);
  patterns.add<CopyToSharedLowering, LoadFragmentLowering, MmaLowering,
               StoreFragmentLowering>(converter, ctx, chip);
  populateHKScheduleLoweringPatterns(converter, patterns);
  populateAnyFunctionOpInterfaceTypeConversionPattern(patterns, converter);
  populateReturnOpTypeConversionPattern(patterns, converter);
  populateCallOpTypeConversionPattern(patterns, converter);
}

void mlir::hk::configureHKToAMDGPUTarget(ConversionTarget &target,
                                         const TypeConverter &converter) {
  target.addIllegalDialect<HKDialect>();
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
    if (walk.wasInterrupted())
      return signalPassFailure();
    if (!chip)
      return;
    LLVM_DEBUG(llvm::dbgs() << "lowering hk for " << chip->name << "\n");

    TypeConverter converter;
    populateHKTypeConversions(converter, *chip);
    RewritePatternSet patterns(&getContext());
    ConversionTarget target(getContext());
    populateHKToAMDGPUConversionPatterns(converter, patterns, *chip);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    configureHKToAMDGPUTarget(target, converter);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
