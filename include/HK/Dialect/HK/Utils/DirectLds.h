//===- DirectLds.h - direct-to-LDS fill addressing --------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A direct-to-LDS load (`buffer_load_dwordx4 ... lds`) writes lane l's 16
// bytes to M0 + l * 16: LDS is written linearly, so the swizzle moves to the
// global side (docs/Hardware.md#direct-lds-fill). These functions give, for
// a linear LDS position, the logical tile element that must be fetched
// there.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_UTILS_DIRECTLDS_H
#define HK_DIALECT_HK_UTILS_DIRECTLDS_H

#include "HK/Dialect/HK/Utils/TileLayout.h"

namespace mlir::hk {

/// The logical (row, col) of an `st_16x32` tile with 64 bf16 columns whose
/// element lands at linear LDS element position `p` (a multiple of 8 for the
/// first element of a 16-byte chunk), in the bit form HipKittens uses:
///   sub = p >> 9; r16 = (p & 511) >> 5; flip = (r16 >> 3) & 1
///   cb = ((p & 31) >> 2) ^ (flip << 2)
///   row = (sub >> 1) * 16 + r16; col = cb * 4 + (sub & 1) * 32 + p % 4
/// Equal to `TileLayout::logicalCoord` for that layout (unit-tested).
Coord directLdsSourceSt16x32Cols64(int64_t p);

} // namespace mlir::hk

#endif // HK_DIALECT_HK_UTILS_DIRECTLDS_H
