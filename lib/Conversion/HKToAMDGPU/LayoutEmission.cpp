//===- LayoutEmission.cpp - layout math as IR -----------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the emission of the swizzle, column permutation and
// lane layout formulas as arith index operations. Every divisor and modulus
// is a power of two, which the backend turns into shifts and masks.
//
//===----------------------------------------------------------------------===//

#include "HK/Conversion/HKToAMDGPU/LayoutEmission.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::hk;

namespace {
/// Folding index arithmetic helpers.
struct IndexMath {
  OpBuilder &b;
  Location loc;

  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) {
    return b.createOrFold<arith::AddIOp>(loc, x, y);
  }
  Value add(Value x, int64_t y) { return y == 0 ? x : add(x, c(y)); }
  Value mul(Value x, int64_t y) {
    return y == 1 ? x : b.createOrFold<arith::MulIOp>(loc, x, c(y));
  }
  Value div(Value x, int64_t y) {
    return y == 1 ? x : b.createOrFold<arith::DivUIOp>(loc, x, c(y));
  }
  Value rem(Value x, int64_t y) {
    return b.createOrFold<arith::RemUIOp>(loc, x, c(y));
  }
  Value shr(Value x, int64_t y) {
    return b.createOrFold<arith::ShRUIOp>(loc, x, c(y));
  }
  Value shl(Value x, int64_t y) {
    return b.createOrFold<arith::ShLIOp>(loc, x, c(y));
  }
  Value bitAnd(Value x, int64_t y) {
    return b.createOrFold<arith::AndIOp>(loc, x, c(y));
  }
  Value bitOr(Value x, Value y) {
    return b.createOrFold<arith::OrIOp>(loc, x, y);
  }
  Value bitXor(Value x, Value y) {
    return b.createOrFold<arith::XOrIOp>(loc, x, y);
  }
};
} // namespace

Value mlir::hk::emitPermuteColumn(OpBuilder &b, Location loc,
                                  ColumnPermutation permutation, Value col) {
  switch (permutation) {
  case ColumnPermutation::identity:
    return col;
  case ColumnPermutation::block4_0213: {
    // Swap bits 2 and 3 of the column (the 4-element block index inside a
    // 16-column group): flip both when they differ.
    IndexMath m{b, loc};
    Value differ = m.bitAnd(m.bitXor(m.shr(col, 2), m.shr(col, 3)), 1);
    return m.bitXor(col, m.bitOr(m.shl(differ, 2), m.shl(differ, 3)));
  }
  }
  llvm_unreachable("covered switch over ColumnPermutation");
}

Value mlir::hk::emitPhysicalOffset(OpBuilder &b, Location loc,
                                   const TileLayout &tile, Value row,
                                   Value col) {
  IndexMath m{b, loc};
  Value pcol = emitPermuteColumn(b, loc, tile.permutation, col);
  SwizzleParams p = getSwizzleParams(tile.swizzle);
  if (p.subtileBytes == 0)
    return m.add(m.mul(row, tile.cols), pcol);
  Value subtile =
      m.add(m.mul(m.div(row, p.subtileRows), tile.cols / p.subtileCols),
            m.div(pcol, p.subtileCols));
  Value inner = m.add(m.mul(m.rem(row, p.subtileRows), p.subtileCols),
                      m.rem(pcol, p.subtileCols));
  // The swizzle works on byte offsets; inner < subtileBytes, so the modulus
  // of the formula is a no-op here.
  Value bytes = m.mul(inner, tile.elementBytes);
  Value swizzled = m.bitXor(bytes, m.shl(m.shr(bytes, p.rowShift), p.xorShift));
  return m.add(m.mul(subtile, p.subtileRows * p.subtileCols),
               m.div(swizzled, tile.elementBytes));
}

std::pair<Value, Value> mlir::hk::emitLogicalCoord(OpBuilder &b, Location loc,
                                                   const TileLayout &tile,
                                                   Value offset) {
  IndexMath m{b, loc};
  SwizzleParams p = getSwizzleParams(tile.swizzle);
  Value row, pcol;
  if (p.subtileBytes == 0) {
    row = m.div(offset, tile.cols);
    pcol = m.rem(offset, tile.cols);
  } else {
    int64_t subtileElems = p.subtileRows * p.subtileCols;
    int64_t subtilesPerRow = tile.cols / p.subtileCols;
    Value subtile = m.div(offset, subtileElems);
    // The swizzle is an involution: applying it again undoes it.
    Value bytes = m.mul(m.rem(offset, subtileElems), tile.elementBytes);
    Value inner =
        m.div(m.bitXor(bytes, m.shl(m.shr(bytes, p.rowShift), p.xorShift)),
              tile.elementBytes);
    row = m.add(m.mul(m.div(subtile, subtilesPerRow), p.subtileRows),
                m.div(inner, p.subtileCols));
    pcol = m.add(m.mul(m.rem(subtile, subtilesPerRow), p.subtileCols),
                 m.rem(inner, p.subtileCols));
  }
  return {row, emitPermuteColumn(b, loc, tile.permutation, pcol)};
}

/// `form` at the lane's (l % W, l / W) = (`low`, `high`).
static Value emitLaneAffine(IndexMath &m, const LaneAffine &form, Value low,
                            Value high) {
  Value sum;
  auto addTerm = [&](Value term, int64_t scale) {
    if (scale == 0)
      return;
    Value scaled = m.mul(term, scale);
    sum = sum ? m.add(sum, scaled) : scaled;
  };
  addTerm(low, form.low);
  addTerm(high, form.high);
  return sum ? m.add(sum, form.constant) : m.c(form.constant);
}

std::pair<Value, Value>
mlir::hk::emitFragmentElement(OpBuilder &b, Location loc, MmaLayout layout,
                              FragmentLayout fragment, Value lane, int64_t i) {
  IndexMath m{b, loc};
  int64_t width = getLaneGroupWidth(layout);
  Value low = m.rem(lane, width);
  Value high = m.div(lane, width);
  LaneElementForm form = getFragmentElementForm(layout, fragment, i);
  Value row = emitLaneAffine(m, form.row, low, high);
  return {row, emitLaneAffine(m, form.col, low, high)};
}
