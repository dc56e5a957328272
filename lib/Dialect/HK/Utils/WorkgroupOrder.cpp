//===- WorkgroupOrder.cpp - workgroup order for L2 locality ---------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the XCD workgroup order: chiplet chunking of the
// linear workgroup id, then the grouped order of the tiles.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Utils/WorkgroupOrder.h"

#include <algorithm>
#include <cassert>

using namespace mlir::hk;

int64_t mlir::hk::chipletChunkedId(int64_t id, int64_t count, int64_t xcds,
                                   int64_t chunk) {
  assert(xcds >= 1 && chunk >= 1 && id >= 0 && id < count);
  int64_t block = xcds * chunk;
  // The tail past the last full block keeps its ids: a partial block cannot
  // give every XCD a whole chunk.
  if (id >= count / block * block)
    return id;
  int64_t xcd = id % xcds;
  int64_t local = id / xcds; // the how-manyth workgroup of its XCD
  return local / chunk * block + xcd * chunk + local % chunk;
}

Coord mlir::hk::groupedTile(int64_t id, int64_t gridM, int64_t gridN,
                            int64_t groupRows) {
  assert(gridM >= 1 && gridN >= 1 && groupRows >= 1 && id >= 0 &&
         id < gridM * gridN);
  int64_t perGroup = groupRows * gridN;
  int64_t firstRow = id / perGroup * groupRows;
  int64_t size = std::min(groupRows, gridM - firstRow);
  int64_t k = id % perGroup;
  return {firstRow + k % size, k / size};
}

Coord mlir::hk::xcdOrderTile(int64_t linear, int64_t gridM, int64_t gridN,
                             const XcdOrder &order) {
  int64_t id = chipletChunkedId(linear, gridM * gridN, order.xcds, order.chunk);
  return groupedTile(id, gridM, gridN, order.groupRows);
}
