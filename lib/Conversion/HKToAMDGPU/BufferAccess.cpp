//===- BufferAccess.cpp - raw buffer views of global matrices -------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HK/Conversion/HKToAMDGPU/BufferAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::hk;

static constexpr unsigned kGlobalAddressSpace = 1;
static constexpr unsigned kBufferResourceAddressSpace = 8;

static Value constIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

static Value mulIndex(OpBuilder &b, Location loc, Value x, Value y) {
  return b.createOrFold<arith::MulIOp>(loc, x, y);
}

static Value addIndex(OpBuilder &b, Location loc, Value x, Value y) {
  return b.createOrFold<arith::AddIOp>(loc, x, y);
}

Value BufferRegion::byteOffset(OpBuilder &b, Location loc, Value row,
                               Value col) const {
  Value elements = addIndex(b, loc, mulIndex(b, loc, row, rowStride),
                            mulIndex(b, loc, col, colStride));
  return b.createOrFold<arith::IndexCastUIOp>(
      loc, b.getI32Type(),
      mulIndex(b, loc, elements, constIndex(b, loc, elementBytes)));
}

Value BufferRegion::maskedByteOffset(OpBuilder &b, Location loc, Value row,
                                     Value col, int64_t width) const {
  return maskOffset(b, loc, byteOffset(b, loc, row, col), col, width);
}

Value BufferRegion::maskOffset(OpBuilder &b, Location loc, Value offset,
                               Value col, int64_t width) const {
  // In 32 bits: column counts are, and 64-bit compares cost more.
  Type i32 = b.getI32Type();
  Value end = b.createOrFold<arith::IndexCastOp>(
      loc, i32, addIndex(b, loc, col, constIndex(b, loc, width)));
  Value left = b.createOrFold<arith::IndexCastOp>(loc, i32, colsLeft);
  Value masked = arith::ConstantIntOp::create(b, loc, i32, kMaskedByteOffset);
  if (maskBySignBit) {
    // The columns left after the access are negative exactly when it does
    // not fit. A region's offsets are below 2^31 (rule R1), so with bit 31
    // set they stay below 2^32 with any constant of theirs folded in.
    Value signBit = b.createOrFold<arith::AndIOp>(
        loc, b.createOrFold<arith::SubIOp>(loc, left, end), masked);
    return b.createOrFold<arith::OrIOp>(loc, offset, signBit);
  }
  Value inside =
      b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sle, end, left);
  return b.createOrFold<arith::SelectOp>(loc, inside, offset, masked);
}

Value BufferRegion::rowsAreChunked(OpBuilder &b, Location loc,
                                   int64_t bytes) const {
  Value elements = constIndex(b, loc, bytes / elementBytes);
  Value zero = constIndex(b, loc, 0);
  Value all;
  for (Value v : {rowStride, offset, cols, col}) {
    Value ok = b.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::eq,
        b.createOrFold<arith::RemUIOp>(loc, v, elements), zero);
    all = all ? b.createOrFold<arith::AndIOp>(loc, all, ok) : ok;
  }
  return all;
}

BufferRegion mlir::hk::makeBufferRegion(OpBuilder &b, Location loc,
                                        Value memref, Value row, Value col,
                                        int64_t elementBytes,
                                        const ChipInfo &chip,
                                        std::optional<RegionRows> regionRows) {
  MLIRContext *ctx = b.getContext();
  auto source = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  BufferRegion out;
  out.rowStride = source.getStrides()[0];
  out.colStride = source.getStrides()[1];
  out.elementBytes = elementBytes;
  out.maskBySignBit = chip.waveSize == 64;
  out.offset = source.getOffset();
  out.cols = source.getSizes()[1];
  out.col = col;
  out.colsLeft = b.createOrFold<arith::SubIOp>(loc, out.cols, col);

  // The resource: from the first row to the matrix's end, in bytes. The
  // matrix's start (pointer and offset) is added first, so that in a loop
  // over the rows it is computed once and each trip adds only its rows.
  Value bytes = constIndex(b, loc, elementBytes);
  Value rowsBefore = mulIndex(b, loc, row, out.rowStride);
  Value startBytes =
      mulIndex(b, loc, addIndex(b, loc, source.getOffset(), rowsBefore), bytes);
  Value matrixStart = addIndex(
      b, loc, memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref),
      mulIndex(b, loc, source.getOffset(), bytes));
  Value address = arith::IndexCastUIOp::create(
      b, loc, b.getI64Type(),
      addIndex(b, loc, matrixStart, mulIndex(b, loc, rowsBefore, bytes)));
  Value base = LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, kGlobalAddressSpace), address);
  // The range: an inside region's own rows, which bound every access (the
  // column origin in soffset included, columns being at most the row
  // stride) and do not depend on where the region starts, so a loop over
  // the rows computes it once. With rows past the end, only those before
  // it: a row count clamped to [0, rows] with signed compares against the
  // region's rows and zero, which take no vector registers (a 64-bit
  // compare with a literal does). Else from the region's first row to the
  // matrix's end, zero when it starts past the end, clamped to 2^31 for
  // the masked offsets (rule R1).
  Value range;
  int64_t limit = kMaskedByteOffset;
  bool clamp = true;
  if (regionRows) {
    Value rows = constIndex(b, loc, regionRows->rows);
    if (regionRows->mayEnd) {
      Value left = b.createOrFold<arith::MaxSIOp>(
          loc, b.createOrFold<arith::SubIOp>(loc, source.getSizes()[0], row),
          constIndex(b, loc, 0));
      rows = b.createOrFold<arith::MinSIOp>(loc, left, rows);
    }
    range = mulIndex(b, loc, mulIndex(b, loc, rows, bytes), out.rowStride);
    limit = UINT32_MAX;
    SmallVector<int64_t> strides;
    int64_t unusedOffset;
    clamp = failed(cast<MemRefType>(memref.getType())
                       .getStridesAndOffset(strides, unusedOffset)) ||
            ShapedType::isDynamic(strides[0]) ||
            strides[0] > limit / (regionRows->rows * elementBytes);
  } else {
    Value extent = b.createOrFold<arith::MaxUIOp>(
        loc, mulIndex(b, loc, source.getSizes()[0], source.getStrides()[0]),
        mulIndex(b, loc, source.getSizes()[1], source.getStrides()[1]));
    Value endBytes =
        mulIndex(b, loc, addIndex(b, loc, source.getOffset(), extent), bytes);
    range = b.createOrFold<arith::MaxSIOp>(
        loc, b.createOrFold<arith::SubIOp>(loc, endBytes, startBytes),
        constIndex(b, loc, 0));
  }
  Value records = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), range);
  if (clamp)
    records = b.createOrFold<arith::MinUIOp>(
        loc, records,
        arith::ConstantIntOp::create(b, loc, b.getI64Type(), limit));
  Value noStride = arith::ConstantIntOp::create(b, loc, b.getI16Type(), 0);
  Value flags = arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                             chip.rawBufferResourceFlags);
  out.resource = ROCDL::MakeBufferRsrcOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, kBufferResourceAddressSpace),
      base, noStride, records, flags);
  out.origin = out.byteOffset(b, loc, constIndex(b, loc, 0), col);
  return out;
}
