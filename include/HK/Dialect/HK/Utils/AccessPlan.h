//===- AccessPlan.h - how a lane's elements map onto LDS accesses -*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Splits what one lane moves (a copy chunk or its part of a fragment) into
// runs of elements that are contiguous and aligned in LDS for every lane and
// every position the access can take in the tile. Each run becomes one vector
// LDS access (e.g. ds_read_b128); the lowering never has to prove contiguity
// from index arithmetic at compile time.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_UTILS_ACCESSPLAN_H
#define HK_DIALECT_HK_UTILS_ACCESSPLAN_H

#include "HK/Dialect/HK/Utils/LaneLayout.h"
#include "HK/Dialect/HK/Utils/TileLayout.h"

#include <vector>

namespace mlir::hk {

/// Bytes of one chunk of a cooperative copy (hk.copy_to_shared): each
/// thread moves one 16-byte vector per chunk.
inline constexpr int64_t kCopyChunkBytes = 16;

/// Elements [first, first + length) of a lane's vector, stored at
/// consecutive LDS elements, the first aligned to `length` elements.
struct Run {
  int64_t first = 0;
  int64_t length = 0;
  bool operator==(const Run &other) const {
    return first == other.first && length == other.length;
  }
};

/// Runs of a lane's part of an `role` fragment read from (or written to)
/// `tile`, over every lane and every fragment-aligned position in the tile.
std::vector<Run> planFragmentAccess(MmaLayout layout, FragmentRole role,
                                    const TileLayout &tile);

/// Runs of a copy chunk of `chunkElems` consecutive elements of a tile row,
/// over every chunk-aligned position in the tile.
std::vector<Run> planChunkAccess(const TileLayout &tile, int64_t chunkElems);

/// True if every `chunkElems`-element chunk of LDS (a direct-to-LDS lane's
/// write) holds consecutive elements of one row of the logical tile, so a
/// lane can fetch it with one load. The first LDS element where this fails
/// is returned in `where`.
bool chunksAreRowContiguous(const TileLayout &tile, int64_t chunkElems,
                            int64_t *where = nullptr);

} // namespace mlir::hk

#endif // HK_DIALECT_HK_UTILS_ACCESSPLAN_H
