//===- LoweringSupport.h - shared pieces of the hk lowering -----*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Index arithmetic, lane-vector slicing and the chip-aware pattern base the
// hk-to-amdgpu patterns share (private to lib/Conversion/HKToAMDGPU).
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_CONVERSION_HKTOAMDGPU_LOWERINGSUPPORT_H
#define HK_LIB_CONVERSION_HKTOAMDGPU_LOWERINGSUPPORT_H

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Dialect/HK/Utils/AccessPlan.h"
#include "HK/Target/Chip.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::hk::detail {

/// Bytes of one global or LDS copy chunk: one 16-byte vector access.
inline constexpr int64_t kChunkBytes = kCopyChunkBytes;

/// AMDGPU address spaces of the direct-to-LDS intrinsic's pointers.
inline constexpr unsigned kLdsAddressSpace = 3;

inline Value constI32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
}

/// An index truncated to the 32 bits buffer and LDS offsets have.
inline Value toI32(OpBuilder &b, Location loc, Value index) {
  return b.createOrFold<arith::IndexCastUIOp>(loc, b.getI32Type(), index);
}

/// The LDS address of the first element of a workgroup memref.
inline Value pointerAsI32(OpBuilder &b, Location loc, Value memref) {
  return toI32(b, loc,
               memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref));
}

inline Value constIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

inline Value addIndex(OpBuilder &b, Location loc, Value x, Value y) {
  return b.createOrFold<arith::AddIOp>(loc, x, y);
}

inline Value mulIndex(OpBuilder &b, Location loc, Value x, int64_t y) {
  return b.createOrFold<arith::MulIOp>(loc, x, constIndex(b, loc, y));
}

/// Element offset of the start of `slot` in a tile's LDS memref.
inline Value slotBase(OpBuilder &b, Location loc, SharedTileType tile,
                      Value slot) {
  return mulIndex(b, loc, slot, tile.getRows() * tile.getCols());
}

/// The logical (row, col) of fragment (fi, fj) of a fragment tile whose
/// top-left element is at (row, col).
inline std::pair<Value, Value> fragmentOrigin(OpBuilder &b, Location loc,
                                              Value row, Value col,
                                              const FragmentShape &shape,
                                              int64_t fi, int64_t fj) {
  return {addIndex(b, loc, row, constIndex(b, loc, fi * shape.rows)),
          addIndex(b, loc, col, constIndex(b, loc, fj * shape.cols))};
}

/// Where each element of a lane's fragment tile of `type` (lane vector
/// order: fragment (fi, fj), then its elements) lies relative to the lane's
/// element 0: the fragment's origin plus getFragmentElementStep.
inline SmallVector<Coord> fragmentElementSteps(MmaLayout layout,
                                               FragmentType type) {
  FragmentShape shape = getFragmentShape(layout, type.getLaneLayout());
  SmallVector<Coord> steps;
  for (int64_t fi = 0; fi < type.getNumFragmentRows(); ++fi)
    for (int64_t fj = 0; fj < type.getNumFragmentCols(); ++fj)
      for (int64_t i = 0; i < shape.elemsPerLane; ++i) {
        Coord step = getFragmentElementStep(layout, type.getLaneLayout(), i);
        steps.push_back(
            {fi * shape.rows + step.row, fj * shape.cols + step.col});
      }
  return steps;
}

/// A value of `vectorType` whose contents are about to be overwritten.
inline Value emptyVector(OpBuilder &b, Location loc, VectorType vectorType) {
  return arith::ConstantOp::create(b, loc, vectorType,
                                   b.getZeroAttr(vectorType));
}

/// Elements [first, first + length) of the 1-D `vector`. A shuffle, which
/// every lowering to LLVM handles directly.
inline Value sliceVector(OpBuilder &b, Location loc, Value vector,
                         int64_t first, int64_t length) {
  SmallVector<int64_t> mask;
  for (int64_t i = 0; i < length; ++i)
    mask.push_back(first + i);
  return vector::ShuffleOp::create(b, loc, vector, vector, mask);
}

/// `into` with elements [first, first + size(part)) replaced by `part`.
/// Two shuffles whose operands have one type: the lowering to LLVM turns a
/// shuffle of two vector types into an extract and an insert per element
/// (256 ops for 8 elements into 128), which then dominate compile time.
inline Value insertSlice(OpBuilder &b, Location loc, Value part, Value into,
                         int64_t first) {
  int64_t size = cast<VectorType>(into.getType()).getNumElements();
  int64_t length = cast<VectorType>(part.getType()).getNumElements();
  if (length == size)
    return part;
  SmallVector<int64_t> widen(size, vector::ShuffleOp::kPoisonIndex);
  for (int64_t i = 0; i < length; ++i)
    widen[first + i] = i;
  Value wide = vector::ShuffleOp::create(b, loc, part, part, widen);
  SmallVector<int64_t> mask;
  for (int64_t i = 0; i < size; ++i)
    mask.push_back(i >= first && i < first + length ? size + i : i);
  return vector::ShuffleOp::create(b, loc, into, wide, mask);
}

/// Fragment `index` (row-major) of a lane vector holding fragments of
/// `elems` elements each.
inline Value extractFragment(OpBuilder &b, Location loc, Value laneVector,
                             int64_t index, int64_t elems) {
  return sliceVector(b, loc, laneVector, index * elems, elems);
}

/// `laneVector` with fragment `index` replaced by `fragment`.
inline Value insertFragment(OpBuilder &b, Location loc, Value fragment,
                            Value laneVector, int64_t index) {
  int64_t elems = cast<VectorType>(fragment.getType()).getNumElements();
  return insertSlice(b, loc, fragment, laneVector, index * elems);
}

/// `values` (a lane vector) rounded to `element` (nearest even), or as
/// they are when already of it.
inline Value roundToElement(OpBuilder &b, Location loc, Value values,
                            Type element) {
  auto type = cast<VectorType>(values.getType());
  if (type.getElementType() == element)
    return values;
  return arith::TruncFOp::create(b, loc, type.clone(element), values);
}

/// The `known_block_size` of the gpu.func around `op`, if any.
inline DenseI32ArrayAttr getKnownBlockSize(Operation *op) {
  auto func = op->getParentOfType<gpu::GPUFuncOp>();
  DenseI32ArrayAttr block = func ? func.getKnownBlockSizeAttr() : nullptr;
  return block && block.size() == 3 ? block : nullptr;
}

/// The linear id of the thread in its workgroup, and the workgroup size.
/// Requires getKnownBlockSize(op).
inline std::pair<Value, int64_t> emitLinearThreadId(OpBuilder &b,
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

/// The source row of region row `row` of a gathering copy or a scattering
/// store: ids[at + row] / divisor (hk.copy_to_shared's `gather`).
inline Value emitGatheredRow(OpBuilder &b, Location loc, Value ids, Value at,
                             Value divisor, Value row) {
  Value id = memref::LoadOp::create(b, loc, ids,
                                    ValueRange{addIndex(b, loc, at, row)});
  Value index = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), id);
  return b.createOrFold<arith::DivUIOp>(loc, index, divisor);
}

/// Moves `b`'s insertion point before the outermost loop around `op` that
/// all of `values` are defined outside of (a loop-invariant gather's ids:
/// LLVM does not hoist their loads past the loop's LDS fills).
inline void setInsertionPointOutsideLoops(OpBuilder &b, Operation *op,
                                          ValueRange values) {
  Operation *outermost = nullptr;
  for (Operation *loop = op->getParentOp(); loop; loop = loop->getParentOp()) {
    if (!isa<LoopLikeOpInterface>(loop))
      continue;
    if (llvm::any_of(values, [&](Value v) {
          return loop->isAncestor(v.getParentBlock()->getParentOp());
        }))
      break;
    outermost = loop;
  }
  if (outermost)
    b.setInsertionPoint(outermost);
}

/// Checks what the lowering of `op` needs beyond the verifier: the
/// workgroup size (copies and lane ids), and for copies a tile that splits
/// evenly into the workgroup's 16-byte chunks. Emits the reason on failure
/// when `emitErrors` is set.
LogicalResult checkLowerable(Operation *op, bool emitErrors);

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

/// The hk.copy_to_shared pattern (CopyToSharedLowering.cpp).
void populateCopyToSharedLowering(const TypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  const ChipInfo &chip);

/// The hk.read_fragment and hk.store_fragment patterns
/// (GlobalFragmentLowering.cpp).
void populateGlobalFragmentLowering(const TypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    const ChipInfo &chip);

/// The hk.map, hk.reduce and hk.mask patterns, math.exp2 / math.log2 on
/// f32, and NaN-free f32 -> bf16 truncations on chips without a bf16
/// conversion (RegisterTileLowering.cpp).
void populateRegisterTileLowering(const TypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  const ChipInfo &chip);

/// Marks math.exp2 / math.log2 on f32 illegal: the patterns above lower
/// them to the chip's instructions instead of device-library calls.
void configureTranscendentalLegality(ConversionTarget &target);

/// Whether `op` is an `arith.truncf` f32 -> bf16 that hk rounds with
/// integer arithmetic: one with a rounding mode (LLVM's backend has no
/// lowering for them), or one said to see no NaN (`nnan`) on a chip
/// without a bf16 conversion instruction (LLVM's expansion would check
/// for NaN per element). With no chip (a module without hk ops), only the
/// first.
bool roundsBf16WithIntegers(arith::TruncFOp op, const ChipInfo *chip);

/// The pattern that rounds them (RegisterTileLowering.cpp); `chip` must
/// outlive it.
void populateBf16IntegerRounding(RewritePatternSet &patterns,
                                 const ChipInfo *chip);

/// Marks the truncations roundsBf16WithIntegers() takes illegal.
void configureBf16RoundingLegality(ConversionTarget &target,
                                   const ChipInfo *chip);

/// Fails, with an error on the op, on an `arith.truncf` with a rounding
/// mode that is not f32 -> bf16: the AMDGPU backend aborts on them.
LogicalResult checkRoundingModes(Operation *root);

/// Words of block scales as read (a lane's row, kScaleRowsPerWord) made
/// the MFMA's scale registers: lane l's byte i becomes row 16 i + l % 16's
/// scale of block l / 16 (GlobalFragmentLowering.cpp). Words go in pairs,
/// so arrange together what is needed together.
SmallVector<Value> arrangeScaleWords(OpBuilder &b, Location loc,
                                     ValueRange words);

} // namespace mlir::hk::detail

#endif // HK_LIB_CONVERSION_HKTOAMDGPU_LOWERINGSUPPORT_H
