//===- LayoutEmission.h - layout math as IR ---------------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The layout formulas of HK/Dialect/HK/Utils emitted as `arith` index
// arithmetic, for the lowering. Each function computes exactly what its pure
// counterpart computes (unit-tested by constant folding).
//
//===----------------------------------------------------------------------===//

#ifndef HK_CONVERSION_HKTOAMDGPU_LAYOUTEMISSION_H
#define HK_CONVERSION_HKTOAMDGPU_LAYOUTEMISSION_H

#include "HK/Dialect/HK/Utils/LaneLayout.h"
#include "HK/Dialect/HK/Utils/TileLayout.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

namespace mlir::hk {

/// `permuteColumn(permutation, col)` on an index value.
Value emitPermuteColumn(OpBuilder &b, Location loc,
                        ColumnPermutation permutation, Value col);

/// `tile.physicalOffset(row, col)` on index values: the element offset of
/// logical (row, col) from the start of a slot.
Value emitPhysicalOffset(OpBuilder &b, Location loc, const TileLayout &tile,
                         Value row, Value col);

/// `tile.logicalCoord(offset)` on an index value: the logical (row, col)
/// stored at element `offset` of a slot.
std::pair<Value, Value> emitLogicalCoord(OpBuilder &b, Location loc,
                                         const TileLayout &tile, Value offset);

/// `getFragmentElement(layout, fragment, lane, i)` for a lane id value: the
/// affine forms of getFragmentElementForm as index arithmetic.
std::pair<Value, Value> emitFragmentElement(OpBuilder &b, Location loc,
                                            MmaLayout layout,
                                            FragmentLayout fragment, Value lane,
                                            int64_t i);

} // namespace mlir::hk

#endif // HK_CONVERSION_HKTOAMDGPU_LAYOUTEMISSION_H
