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

std::string FragmentLayout::str() const {
  std::string text = stringifyFragmentRole(role).str();
  if (kOrder != KOrder::mma)
    text += ", k = " + stringifyKOrder(kOrder).str();
  return text;
}

FragmentShape mlir::hk::getFragmentShape(MmaLayout layout,
                                         FragmentLayout fragment) {
  MmaShape s = getMmaShape(layout);
  int64_t waveSize = getWaveSize(layout);
  switch (fragment.role) {
  case FragmentRole::a:
    return {s.m, s.k, s.m * s.k / waveSize, waveSize};
  case FragmentRole::b:
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

namespace {
/// How a lane group spreads along one axis of a fragment: element i of a
/// lane of group g = l / W sits at g * groupStride + i % run +
/// runStride * (i / run) (runs of `run` consecutive positions, `runStride`
/// apart; run = runStride = 1 is contiguous).
struct GroupAxis {
  int64_t groupStride;
  int64_t run;
  int64_t runStride;

  LaneAffine at(int64_t i) const {
    return {0, groupStride, i % run + runStride * (i / run)};
  }
};

/// The lane layouts of the matrix instructions: the rows of an accumulator
/// and the k of an operand in the MMA's own order (the lane's place in its
/// group, l % W, is the accumulator's column and the operand's row).
struct MmaLaneTable {
  MmaLayout layout;
  GroupAxis accRows;
  GroupAxis operandK;
};

constexpr MmaLaneTable kMmaLaneTables[] = {
    // acc ((l / 16) 4 + i, l % 16); a/b (l % 16, (l / 16) 8 + i).
    {MmaLayout::Mfma16x16x32, {4, 1, 1}, {8, 1, 1}},
    // Each half of the wave holds 4 of every 8 accumulator rows.
    {MmaLayout::Mfma32x32x16, {4, 4, 8}, {8, 1, 1}},
    // Lanes 0-15 hold k 0-3 and 8-11, lanes 16-31 hold k 4-7 and 12-15.
    {MmaLayout::Wmma16x16x16Gfx12, {8, 1, 1}, {4, 4, 8}},
    // Lane group g holds k 16g..16g+15 (bytes 0-15) and 64+16g..64+16g+15.
    {MmaLayout::Mfma16x16x128F8, {4, 1, 1}, {16, 16, 64}},
    // Unlike bf16, a lane's k are contiguous
    // (docs/hardware/Fp8Facts.md#f8-lanes-gfx1201).
    {MmaLayout::Wmma16x16x16F8Gfx12, {8, 1, 1}, {8, 1, 1}},
};

const MmaLaneTable &getMmaLaneTable(MmaLayout layout) {
  for (const MmaLaneTable &table : kMmaLaneTables)
    if (table.layout == layout)
      return table;
  llvm_unreachable("every MmaLayout has a lane table");
}

/// The k of an operand's element i in `order`.
LaneAffine getOperandK(MmaLayout layout, KOrder order, int64_t i) {
  const MmaLaneTable &table = getMmaLaneTable(layout);
  switch (order) {
  case KOrder::mma:
    return table.operandK.at(i);
  case KOrder::acc: {
    // A lane's k are the rows of its accumulator elements, M k per
    // accumulator fragment.
    int64_t e = getFragmentShape(layout, FragmentRole::acc).elemsPerLane;
    LaneAffine k = table.accRows.at(i % e);
    k.constant += getLaneGroupWidth(layout) * (i / e);
    return k;
  }
  case KOrder::run: {
    int64_t e = getFragmentShape(layout, FragmentRole::a).elemsPerLane;
    return GroupAxis{e, 1, 1}.at(i);
  }
  }
  llvm_unreachable("covered switch over KOrder");
}
} // namespace

LaneElementForm mlir::hk::getFragmentElementForm(MmaLayout layout,
                                                 FragmentLayout fragment,
                                                 int64_t i) {
  const LaneAffine lane{1, 0, 0}, group{0, 1, 0}, zero{0, 0, 0};
  switch (fragment.role) {
  case FragmentRole::a:
  case FragmentRole::b:
    return {lane, getOperandK(layout, fragment.kOrder, i)};
  case FragmentRole::acc:
    return {getMmaLaneTable(layout).accRows.at(i), lane};
  case FragmentRole::row:
    return {getMmaLaneTable(layout).accRows.at(i), zero};
  case FragmentRole::col:
    return {zero, lane};
  case FragmentRole::scale:
  case FragmentRole::scale_mma:
    // Block scales (the f8f6f4 MFMA's, W = 16): lane l supplies row l % 16's
    // scale of 32-k block l / 16 (docs/hardware/Fp8Facts.md#mxfp8).
    return {lane, group};
  }
  llvm_unreachable("covered switch over FragmentRole");
}

Coord mlir::hk::getFragmentElement(MmaLayout layout, FragmentLayout fragment,
                                   int64_t lane, int64_t i) {
  int64_t width = getLaneGroupWidth(layout);
  LaneElementForm form = getFragmentElementForm(layout, fragment, i);
  return {form.row.evaluate(lane % width, lane / width),
          form.col.evaluate(lane % width, lane / width)};
}

Coord mlir::hk::getFragmentElementStep(MmaLayout layout,
                                       FragmentLayout fragment, int64_t i) {
  Coord first = getFragmentElement(layout, fragment, 0, 0);
  Coord element = getFragmentElement(layout, fragment, 0, i);
  return {element.row - first.row, element.col - first.col};
}
