//===- AccessPlan.h - how a lane's elements map onto LDS accesses -*- C++
//-*-===//
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

/// Runs of a lane's part of a `fragment` fragment read from (or written
/// to) `tile`, over every lane and every fragment-aligned position in the
/// tile.
std::vector<Run> planFragmentAccess(MmaLayout layout, FragmentLayout fragment,
                                    const TileLayout &tile);

/// planFragmentAccess's runs cut at 16 bytes of `tile`'s elements: the LDS
/// writes of hk.store_shared, one per run.
std::vector<Run> planFragmentWrites(MmaLayout layout, FragmentLayout fragment,
                                    const TileLayout &tile);

/// Runs of a lane's part of a `row` vector fragment (an N x 1 column of
/// consecutive elements) whose rows follow each other for every lane, each
/// at most `maxLength` elements: one vector global load each.
std::vector<Run> planRowVectorAccess(MmaLayout layout, int64_t maxLength);

/// Runs of a copy chunk of `chunkElems` consecutive elements of a tile row,
/// over every chunk-aligned position in the tile.
std::vector<Run> planChunkAccess(const TileLayout &tile, int64_t chunkElems);

/// True if every `chunkElems`-element chunk of LDS (a direct-to-LDS lane's
/// write) holds consecutive elements of one row of the logical tile, so a
/// lane can fetch it with one load. The first LDS element where this fails
/// is returned in `where`.
bool chunksAreRowContiguous(const TileLayout &tile, int64_t chunkElems,
                            int64_t *where = nullptr);

/// A transposing copy (hk.copy_to_shared ... transpose) writes runs of this
/// many elements of a tile row: one 8-byte LDS store each.
inline constexpr int64_t kTransposedCopyRun = 4;

/// gfx950's transposed 16-bit LDS read (ds_read_b64_tr_b16,
/// docs/hardware/SchedulesTailsLayouts.md#ds-read-tr): in each group of 16
/// lanes, source lane i reads 4 consecutive elements, row i / 4 and columns
/// 4 (i % 4) .. + 3 of a 4 x 16 block, and result lane j receives column j of
/// the block.
inline constexpr int64_t kTransposedReadElems = 4;

/// Where the lanes of a transposed read of an MFMA operand fragment find
/// their 4 elements in the K-major tile block (rows k, columns m or n): lane
/// l of group g = l / 16 reads row
///   groupRowStride (g / columnGroups) + readRowStride s + (l % 16) / 4
/// and columns 16 (g % columnGroups) + 4 (l % 4) .. + 3 in read s (0 or 1).
/// 16x16x32: every group reads the fragment's 16 columns, rows 8 g + 4 s
/// (MMA k order) or 4 g + 16 s (an accumulator's: k = acc);
/// 32x32x16: groups 0-1 and 2-3 read the 32 columns, rows 8 (g / 2) + 4 s
/// or 4 (g / 2) + 8 s.
struct TransposedReadPattern {
  int64_t groupRowStride = 0;
  int64_t readRowStride = 0;
  int64_t columnGroups = 1;
};

/// The pattern for `fragment` under `layout` (an MFMA layout).
TransposedReadPattern getTransposedReadPattern(MmaLayout layout,
                                               FragmentLayout fragment);

/// The (row, col) of the K-major tile block whose 4 elements lane `lane`
/// reads in transposed read `s`, as getTransposedReadPattern gives it.
Coord transposedReadSource(MmaLayout layout, FragmentLayout fragment,
                           int64_t lane, int64_t s);

/// Whether two transposed reads per fragment at transposedReadSource give
/// every lane the elements the lane layout assigns it (elements 4s .. 4s+3
/// from read s), checked over all lanes: the lowering's precondition.
bool transposedReadsMatchLayout(MmaLayout layout, FragmentLayout fragment);

} // namespace mlir::hk

#endif // HK_DIALECT_HK_UTILS_ACCESSPLAN_H
