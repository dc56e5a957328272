//===- LaneLayout.cpp - MMA fragment lane layouts -------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the lane layouts of the matrix instructions hk emits.
// The gfx1201 bf16 layout was verified on hardware by probing
// (docs/Hardware.md#lane-layouts); the fp8 ones are from
// docs/hardware/Fp8Facts.md#f8-lanes-gfx950 and #f8-lanes-gfx1201 (documents
// and AMD's matrix instruction calculator, not hardware-probed here).
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Utils/LaneLayout.h"

#include "llvm/Support/ErrorHandling.h"

#include <algorithm>

using namespace mlir::hk;

MmaShape mlir::hk::getMmaShape(MmaLayout layout) {
  switch (layout) {
  case MmaLayout::Mfma16x16x32:
    return {16, 16, 32};
  case MmaLayout::Mfma32x32x16:
    return {32, 32, 16};
  case MmaLayout::Wmma16x16x16Gfx12:
  case MmaLayout::Wmma16x16x16F8Gfx12:
    return {16, 16, 16};
  case MmaLayout::Mfma16x16x128F8:
    return {16, 16, 128};
  }
  llvm_unreachable("covered switch over MmaLayout");
}

int64_t mlir::hk::getWaveSize(MmaLayout layout) {
  switch (layout) {
  case MmaLayout::Mfma16x16x32:
  case MmaLayout::Mfma32x32x16:
  case MmaLayout::Mfma16x16x128F8:
    return 64;
  case MmaLayout::Wmma16x16x16Gfx12:
  case MmaLayout::Wmma16x16x16F8Gfx12:
    return 32;
  }
  llvm_unreachable("covered switch over MmaLayout");
}

FragmentShape mlir::hk::getFragmentShape(MmaLayout layout, FragmentRole role) {
  MmaShape s = getMmaShape(layout);
  int64_t waveSize = getWaveSize(layout);
  switch (role) {
  case FragmentRole::a:
  case FragmentRole::a_acc_k:
  case FragmentRole::a_run_k:
    return {s.m, s.k, s.m * s.k / waveSize, waveSize};
  case FragmentRole::b:
  case FragmentRole::b_acc_k:
  case FragmentRole::b_run_k:
    return {s.n, s.k, s.n * s.k / waveSize, waveSize};
  case FragmentRole::acc:
    return {s.m, s.n, s.m * s.n / waveSize, waveSize};
  case FragmentRole::scale:
  case FragmentRole::scale_mma:
    return {s.m, s.k / kScaleBlock,
            std::max<int64_t>(1, s.m * (s.k / kScaleBlock) / waveSize),
            waveSize};
  case FragmentRole::row:
    // A lane holds the rows of its accumulator elements.
    return {s.m, 1, s.m * s.n / waveSize, waveSize};
  case FragmentRole::col:
    // Every accumulator element of a lane is in the lane's column.
    return {1, s.n, 1, waveSize};
  }
  llvm_unreachable("covered switch over FragmentRole");
}

Coord mlir::hk::getFragmentElement(MmaLayout layout, FragmentRole role,
                                   int64_t lane, int64_t i) {
  // Block scales (the f8f6f4 MFMA's): lane l supplies row l % 16's scale of
  // 32-k block l / 16 (docs/hardware/Fp8Facts.md#mxfp8).
  if (isScaleRole(role))
    return {lane % 16, lane / 16};
  if (role == FragmentRole::row)
    return {getFragmentElement(layout, FragmentRole::acc, lane, i).row, 0};
  if (role == FragmentRole::col)
    return {0, getFragmentElement(layout, FragmentRole::acc, lane, 0).col};
  int64_t width = getLaneGroupWidth(layout);
  if (hasAccumulatorK(role)) {
    int64_t e = getFragmentShape(layout, FragmentRole::acc).elemsPerLane;
    Coord acc = getFragmentElement(layout, FragmentRole::acc, lane, i % e);
    return {lane % width, width * (i / e) + acc.row};
  }
  if (hasRunK(role)) {
    int64_t e = getFragmentShape(layout, role).elemsPerLane;
    return {lane % width, (lane / width) * e + i};
  }
  switch (layout) {
  case MmaLayout::Mfma16x16x32:
    if (role == FragmentRole::acc)
      return {(lane / 16) * 4 + i, lane % 16};
    return {lane % 16, (lane / 16) * 8 + i};
  case MmaLayout::Mfma32x32x16:
    // Each half of the wave holds 4 of every 8 accumulator rows.
    if (role == FragmentRole::acc)
      return {8 * (i / 4) + 4 * (lane / 32) + i % 4, lane % 32};
    return {lane % 32, (lane / 32) * 8 + i};
  case MmaLayout::Wmma16x16x16Gfx12:
    if (role == FragmentRole::acc)
      return {(lane / 16) * 8 + i, lane % 16};
    // Lanes 0-15 hold k 0-3 and 8-11, lanes 16-31 hold k 4-7 and 12-15.
    return {lane % 16, (lane / 16) * 4 + i % 4 + 8 * (i / 4)};
  case MmaLayout::Mfma16x16x128F8:
    if (role == FragmentRole::acc)
      return {(lane / 16) * 4 + i, lane % 16};
    // Lane group g holds k 16g..16g+15 (bytes 0-15) and 64+16g..64+16g+15.
    return {lane % 16, (lane / 16) * 16 + 64 * (i / 16) + i % 16};
  case MmaLayout::Wmma16x16x16F8Gfx12:
    if (role == FragmentRole::acc)
      return {(lane / 16) * 8 + i, lane % 16};
    // Unlike bf16, a lane's k are contiguous
    // (docs/hardware/Fp8Facts.md#f8-lanes-gfx1201).
    return {lane % 16, (lane / 16) * 8 + i};
  }
  llvm_unreachable("covered switch over MmaLayout");
}

Coord mlir::hk::getFragmentElementStep(MmaLayout layout, FragmentRole role,
                                       int64_t i) {
  Coord first = getFragmentElement(layout, role, 0, 0);
  Coord element = getFragmentElement(layout, role, 0, i);
  return {element.row - first.row, element.col - first.col};
}
