//===- WorkgroupOrder.h - workgroup order for L2 locality -------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Which output tile each workgroup of a 2-D grid computes, independent of IR.
// The row-major order gives workgroup (x, y) tile (row y, column x). The XCD
// order (HipKittens' bf16 GEMM on MI355X) composes two permutations of the
// linear workgroup id `y * gridX + x`:
//
// 1. Chiplet chunking. The hardware dispatches workgroups round-robin over
//    the XCDs (accelerator complex dies, each with its own L2): linear id L
//    runs on XCD L % xcds. In every full block of xcds * chunk ids, the ids
//    are renumbered so that the workgroups one XCD receives get `chunk`
//    consecutive ids:
//
//      xcd = L % xcds; local = L / xcds
//      id  = (local / chunk) * xcds * chunk + xcd * chunk + local % chunk
//
//    Ids past the last full block (count not a multiple of xcds * chunk)
//    keep their value. Example, xcds = 4, chunk = 2, 20 workgroups (two full
//    blocks of 8, a tail of 4):
//
//      L     0 1 2 3 4 5 6 7 | 8  9 10 11 12 13 14 15 | 16 17 18 19
//      XCD   0 1 2 3 0 1 2 3 | 0  1  2  3  0  1  2  3 |  0  1  2  3
//      id    0 2 4 6 1 3 5 7 | 8 10 12 14  9 11 13 15 | 16 17 18 19
//
//    XCD 0 gets ids 0, 1, 8, 9, 16; XCD 1 gets 2, 3, 10, 11, 17; ...
//
// 2. Grouped order. Ids walk down groups of `groupRows` tile rows, column
//    by column: group g covers rows [g * groupRows, g * groupRows + size)
//    with size = min(groupRows, gridM - g * groupRows) (the last group may
//    be shorter), and inside it
//
//      k   = id % (groupRows * gridN)
//      row = g * groupRows + k % size; col = k / size
//
//    Example, gridM = 5 rows, gridN = 3 columns, groupRows = 2 (the id of
//    the workgroup computing each tile):
//
//             col 0  col 1  col 2
//      row 0      0      2      4
//      row 1      1      3      5
//      row 2      6      8     10
//      row 3      7      9     11
//      row 4     12     13     14
//
// With HipKittens' chunk of 64 and 8 group rows, the 64 consecutive ids of
// one XCD's chunk cover an 8 x 8 square of tiles (when gridN is a multiple
// of 8): 8 row panels of A and 8 column panels of B shared through that
// XCD's L2. Both steps are
// bijections for every count and grid (unit-tested exhaustively), so the
// composition is too: every tile is computed exactly once.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_UTILS_WORKGROUPORDER_H
#define HK_DIALECT_HK_UTILS_WORKGROUPORDER_H

#include "HK/Dialect/HK/Utils/TileLayout.h"

#include <cstdint>

namespace mlir::hk {

/// The parameters of the XCD order; the defaults are HipKittens' MI355X
/// GEMM (8 XCDs, chunks of 64, groups of 8 tile rows). All at least 1.
struct XcdOrder {
  int64_t xcds = 8;
  int64_t chunk = 64;
  int64_t groupRows = 8;
};

/// Step 1: the chiplet-chunked id of linear workgroup id `id` in [0, count)
/// (see the file comment). A permutation of [0, count); the identity when
/// `xcds` is 1.
int64_t chipletChunkedId(int64_t id, int64_t count, int64_t xcds,
                         int64_t chunk);

/// Step 2: the tile (row, col) that id `id` in [0, gridM * gridN) computes
/// in the grouped order over `groupRows` rows of a gridM x gridN grid of
/// tiles (see the file comment). A bijection onto the grid.
Coord groupedTile(int64_t id, int64_t gridM, int64_t gridN, int64_t groupRows);

/// The XCD order: the tile computed by the workgroup of linear id `linear`
/// (`y * gridN + x`) of a grid of gridN x gridM workgroups (x the tile
/// column, y the row): groupedTile(chipletChunkedId(linear)).
Coord xcdOrderTile(int64_t linear, int64_t gridM, int64_t gridN,
                   const XcdOrder &order);

} // namespace mlir::hk

#endif // HK_DIALECT_HK_UTILS_WORKGROUPORDER_H
