//===- AccessPlan.cpp - how a lane's elements map onto LDS accesses -------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the splitting of per-lane LDS accesses into runs that
// are contiguous and aligned for every lane and position.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Utils/AccessPlan.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <functional>

using namespace mlir::hk;

/// Splits [0, count) into maximal runs such that, for every access instance
/// enumerated by `forEachInstance`, element i + 1 is stored right after
/// element i inside a run, and runs are split further until each run's first
/// element is aligned to the run length (a power of two).
static std::vector<Run>
planRuns(int64_t count,
         const std::function<
             void(const std::function<void(const std::vector<int64_t> &)> &)>
             &forEachInstance) {
  // breakBefore[i]: element i cannot continue the run of element i - 1.
  std::vector<bool> breakBefore(count, false);
  breakBefore[0] = true;
  forEachInstance([&](const std::vector<int64_t> &offsets) {
    for (int64_t i = 1; i < count; ++i)
      if (offsets[i] != offsets[i - 1] + 1)
        breakBefore[i] = true;
  });
  std::vector<Run> runs;
  for (int64_t i = 0; i < count;) {
    int64_t end = i + 1;
    while (end < count && !breakBefore[end])
      ++end;
    runs.push_back({i, end - i});
    i = end;
  }
  // Shrink runs to power-of-two lengths whose start is aligned in LDS for
  // every instance.
  std::vector<Run> aligned;
  for (Run run : runs) {
    int64_t first = run.first, left = run.length;
    while (left > 0) {
      int64_t length = int64_t(1) << llvm::Log2_64(left);
      bool ok = false;
      while (!ok) {
        ok = true;
        forEachInstance([&](const std::vector<int64_t> &offsets) {
          if (offsets[first] % length != 0)
            ok = false;
        });
        if (!ok)
          length /= 2;
      }
      aligned.push_back({first, length});
      first += length;
      left -= length;
    }
  }
  return aligned;
}

std::vector<Run> mlir::hk::planFragmentAccess(MmaLayout layout,
                                              FragmentLayout fragment,
                                              const TileLayout &tile) {
  FragmentShape shape = getFragmentShape(layout, fragment);
  return planRuns(shape.elemsPerLane, [&](const auto &visit) {
    std::vector<int64_t> offsets(shape.elemsPerLane);
    for (int64_t r0 = 0; r0 + shape.rows <= tile.rows; r0 += shape.rows)
      for (int64_t c0 = 0; c0 + shape.cols <= tile.cols; c0 += shape.cols)
        for (int64_t lane = 0; lane < shape.waveSize; ++lane) {
          for (int64_t i = 0; i < shape.elemsPerLane; ++i) {
            Coord c = getFragmentElement(layout, fragment, lane, i);
            offsets[i] = tile.physicalOffset(r0 + c.row, c0 + c.col);
          }
          visit(offsets);
        }
  });
}

/// `runs` cut into runs of at most `maxLength` elements.
static std::vector<Run> cutRuns(const std::vector<Run> &runs,
                                int64_t maxLength) {
  std::vector<Run> cut;
  for (Run run : runs)
    for (int64_t first = run.first; first < run.first + run.length;
         first += maxLength)
      cut.push_back(
          {first, std::min(maxLength, run.first + run.length - first)});
  return cut;
}

std::vector<Run> mlir::hk::planFragmentWrites(MmaLayout layout,
                                              FragmentLayout fragment,
                                              const TileLayout &tile) {
  return cutRuns(planFragmentAccess(layout, fragment, tile),
                 kCopyChunkBytes / tile.elementBytes);
}

std::vector<Run> mlir::hk::planRowVectorAccess(MmaLayout layout,
                                               int64_t maxLength) {
  FragmentShape shape = getFragmentShape(layout, FragmentRole::row);
  std::vector<Run> runs = planRuns(shape.elemsPerLane, [&](const auto &visit) {
    std::vector<int64_t> rows(shape.elemsPerLane);
    for (int64_t lane = 0; lane < shape.waveSize; ++lane) {
      for (int64_t i = 0; i < shape.elemsPerLane; ++i)
        rows[i] = getFragmentElement(layout, FragmentRole::row, lane, i).row;
      visit(rows);
    }
  });
  return cutRuns(runs, maxLength);
}

std::vector<Run> mlir::hk::planChunkAccess(const TileLayout &tile,
                                           int64_t chunkElems) {
  return planRuns(chunkElems, [&](const auto &visit) {
    std::vector<int64_t> offsets(chunkElems);
    for (int64_t r = 0; r < tile.rows; ++r)
      for (int64_t c0 = 0; c0 + chunkElems <= tile.cols; c0 += chunkElems) {
        for (int64_t i = 0; i < chunkElems; ++i)
          offsets[i] = tile.physicalOffset(r, c0 + i);
        visit(offsets);
      }
  });
}

bool mlir::hk::chunksAreRowContiguous(const TileLayout &tile,
                                      int64_t chunkElems, int64_t *where) {
  for (int64_t p = 0; p < tile.numElements(); p += chunkElems) {
    Coord first = tile.logicalCoord(p);
    for (int64_t i = 1; i < chunkElems; ++i)
      if (!(tile.logicalCoord(p + i) == Coord{first.row, first.col + i})) {
        if (where)
          *where = p + i;
        return false;
      }
  }
  return true;
}

TransposedReadPattern
mlir::hk::getTransposedReadPattern(MmaLayout layout, FragmentLayout fragment) {
  bool accK = fragment.kOrder == KOrder::acc;
  if (layout == MmaLayout::Mfma32x32x16)
    return accK ? TransposedReadPattern{kTransposedReadElems, 8, 2}
                : TransposedReadPattern{8, kTransposedReadElems, 2};
  return accK ? TransposedReadPattern{kTransposedReadElems, 16, 1}
              : TransposedReadPattern{8, kTransposedReadElems, 1};
}

Coord mlir::hk::transposedReadSource(MmaLayout layout, FragmentLayout fragment,
                                     int64_t lane, int64_t s) {
  TransposedReadPattern p = getTransposedReadPattern(layout, fragment);
  int64_t group = lane / 16, inGroup = lane % 16;
  return {p.groupRowStride * (group / p.columnGroups) + inGroup / 4 +
              p.readRowStride * s,
          16 * (group % p.columnGroups) + 4 * (inGroup % 4)};
}

bool mlir::hk::transposedReadsMatchLayout(MmaLayout layout,
                                          FragmentLayout fragment) {
  if ((layout != MmaLayout::Mfma16x16x32 &&
       layout != MmaLayout::Mfma32x32x16) ||
      !isOperandRole(fragment.role))
    return false;
  FragmentShape shape = getFragmentShape(layout, fragment);
  if (shape.elemsPerLane != 2 * kTransposedReadElems)
    return false;
  for (int64_t lane = 0; lane < shape.waveSize; ++lane) {
    int64_t group = lane - lane % 16;
    for (int64_t s = 0; s < 2; ++s)
      for (int64_t e = 0; e < kTransposedReadElems; ++e) {
        // Result lane j, element e: column j % 16 of the block, from row e,
        // which source lane group + 4e + (j % 16) / 4 read at position
        // (j % 16) % 4.
        int64_t j = lane % 16;
        Coord source =
            transposedReadSource(layout, fragment, group + 4 * e + j / 4, s);
        Coord tile{source.row, source.col + j % 4};
        // The tile is K-major: its (row, col) is the fragment's (col, row).
        Coord expected = getFragmentElement(layout, fragment, lane, 4 * s + e);
        if (!(tile == Coord{expected.col, expected.row}))
          return false;
      }
  }
  return true;
}
