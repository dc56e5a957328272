//===- LaneLayout.h - MMA fragment lane layouts -----------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Which lane of a wave holds which element of an MMA fragment, for every
// matrix instruction hk emits (docs/Hardware.md#lane-layouts,
// docs/hardware/Fp8Facts.md). Pure math, no IR.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_UTILS_LANELAYOUT_H
#define HK_DIALECT_HK_UTILS_LANELAYOUT_H

#include "HK/Dialect/HK/Utils/TileLayout.h"

#include <string>

namespace mlir::hk {

/// True for the roles laid out like an accumulator: `acc` and its `row` and
/// `col` vectors (f32, any MMA of the shape).
inline bool isAccumulatorLike(FragmentRole role) {
  return role == FragmentRole::acc || role == FragmentRole::row ||
         role == FragmentRole::col;
}

/// True for the operand roles `a` and `b` (in any k order).
inline bool isOperandRole(FragmentRole role) {
  return role == FragmentRole::a || role == FragmentRole::b;
}

/// True for block scales: `scale` as read, `scale_mma` arranged for the
/// MFMA.
inline bool isScaleRole(FragmentRole role) {
  return role == FragmentRole::scale || role == FragmentRole::scale_mma;
}

/// The lane layout of a fragment as data: its role and, for the operands
/// `a` and `b`, the order they take k in (`!hk.fragment<a, ..., k = acc>`).
/// Two fragments with equal layouts (and MMA shapes) hold the same element
/// in the same lane and register; ops compare these, not role names.
struct FragmentLayout {
  FragmentRole role = FragmentRole::acc;
  KOrder kOrder = KOrder::mma;

  FragmentLayout() = default;
  /// A role in its default order (the MMA's k for `a` and `b`).
  FragmentLayout(FragmentRole role, KOrder kOrder = KOrder::mma)
      : role(role), kOrder(kOrder) {}

  bool operator==(const FragmentLayout &other) const {
    return role == other.role && kOrder == other.kOrder;
  }
  bool operator!=(const FragmentLayout &other) const {
    return !(*this == other);
  }
  /// As the fragment type spells it: "a", "b, k = acc".
  std::string str() const;
};

/// The M x N x K shape of one matrix instruction.
struct MmaShape {
  int64_t m = 0;
  int64_t n = 0;
  int64_t k = 0;
  bool operator==(const MmaShape &other) const {
    return m == other.m && n == other.n && k == other.k;
  }
  bool operator!=(const MmaShape &other) const { return !(*this == other); }
};

/// The lane layouts hk knows, one per matrix instruction family.
enum class MmaLayout {
  /// CDNA3/4 `v_mfma_f32_16x16x32_{bf16,f16}`, wave64.
  Mfma16x16x32,
  /// CDNA4 `v_mfma_f32_32x32x16_{bf16,f16}`, wave64.
  Mfma32x32x16,
  /// RDNA4 (gfx12) `v_wmma_f32_16x16x16_{bf16,f16}`, wave32.
  Wmma16x16x16Gfx12,
  /// CDNA4 `v_mfma_f32_16x16x128_f8f6f4` on fp8, wave64.
  Mfma16x16x128F8,
  /// RDNA4 `v_wmma_f32_16x16x16_{fp8,bf8}_{fp8,bf8}`, wave32.
  Wmma16x16x16F8Gfx12,
};

/// Shape of one fragment of a role under a layout.
struct FragmentShape {
  int64_t rows = 0;         // M for a/acc, N for b
  int64_t cols = 0;         // K for a/b, N for acc
  int64_t elemsPerLane = 0; // vector length each lane holds
  int64_t waveSize = 0;
};

/// K elements per block scale (MXFP8: one E8M0 per 32 k of a row).
inline constexpr int64_t kScaleBlock = 32;

/// Block scales in registers: a 32-bit word holds one row's scales of an
/// MMA's K (4 blocks of 32), lane l row l of each group of
/// kScaleRowsPerWord rows (row l % rows of a smaller fragment), so that a
/// lane loads a word at once. The MFMA wants lane l to supply row l % 16's
/// scale of block l / 16, the 4 row blocks of a group in the bytes of one
/// register picked by op_sel: a transpose of bytes and lane groups away.
inline constexpr int64_t kScaleRowsPerWord = 64;

/// Words per lane of a scale fragment of `rows` x `blocks` (k blocks of
/// kScaleBlock, 4 per word).
inline int64_t getScaleWordsPerLane(int64_t rows, int64_t blocks) {
  return (rows + kScaleRowsPerWord - 1) / kScaleRowsPerWord * (blocks / 4);
}

/// The MMA shape of a layout.
MmaShape getMmaShape(MmaLayout layout);

/// Lanes of the wave that runs the layout's instruction: 64 (MFMA) or 32.
int64_t getWaveSize(MmaLayout layout);

/// Lanes holding the rows of an operand (and the columns of an
/// accumulator): a lane's row is l % this, its group l / this.
inline int64_t getLaneGroupWidth(MmaLayout layout) {
  return getMmaShape(layout).m;
}

/// The fragment shape of `fragment` under `layout` (the k order does not
/// change it).
FragmentShape getFragmentShape(MmaLayout layout, FragmentLayout fragment);

/// One coordinate of a lane's element as an affine form of the lane's
/// place in its row group, l % W, and its group, l / W (W =
/// getLaneGroupWidth): low * (l % W) + high * (l / W) + constant.
struct LaneAffine {
  int64_t low = 0;
  int64_t high = 0;
  int64_t constant = 0;
  int64_t evaluate(int64_t laneLow, int64_t laneHigh) const {
    return low * laneLow + high * laneHigh + constant;
  }
};

/// Where element `i` of a lane sits in a fragment, as two affine forms of
/// the lane: the one description of every lane layout, which
/// getFragmentElement evaluates and emitFragmentElement
/// (Conversion/HKToAMDGPU/LayoutEmission.h) turns into IR.
struct LaneElementForm {
  LaneAffine row;
  LaneAffine col;
};
LaneElementForm getFragmentElementForm(MmaLayout layout,
                                       FragmentLayout fragment, int64_t i);

/// Position inside the fragment of element `i` of lane `lane`:
///   Mfma16x16x32     a/b: (l % 16, (l / 16) * 8 + i)
///                    acc: ((l / 16) * 4 + i, l % 16)
///   Mfma32x32x16     a/b: (l % 32, (l / 32) * 8 + i)
///                    acc: (8 (i / 4) + 4 (l / 32) + i % 4, l % 32)
///   Wmma16x16x16Gfx12 a/b: (l % 16, (l / 16) * 4 + i % 4 + 8 * (i / 4))
///                    acc: ((l / 16) * 8 + i, l % 16)
///   Mfma16x16x128F8  a/b: (l % 16, (l / 16) * 16 + 64 * (i / 16) + i % 16)
///                    acc: as Mfma16x16x32
///   Wmma16x16x16F8Gfx12 a/b: (l % 16, (l / 16) * 8 + i)
///                    acc: as Wmma16x16x16Gfx12
///   scale (block scales, Mfma16x16x128F8): (l % 16, l / 16)
///   row: (acc row of element i, 0); col: (0, acc column of the lane)
///   a, b with k = acc: (l % M, M (i / E) + acc row of element i % E),
///                    M x M the accumulator fragment, E its elements per
///                    lane: a lane's k are the rows of its accumulator
///                    elements, M k per accumulator fragment (at 32x32x16 an
///                    operand fragment's 16 k are half an accumulator's
///                    rows: elements 0-7 hold rows 0-15 in both halves)
///   a, b with k = run: (l % M, (l / M) E + i), E elements per lane: each
///                    lane's k one contiguous run (the MMA's own a/b order
///                    on every layout but Wmma16x16x16Gfx12)
Coord getFragmentElement(MmaLayout layout, FragmentLayout fragment,
                         int64_t lane, int64_t i);

/// Where element `i` of every lane sits relative to the lane's element 0:
/// each layout above is a lane's position plus a per-element constant, so
/// code can compute the lane's part once and add this step as an immediate.
Coord getFragmentElementStep(MmaLayout layout, FragmentLayout fragment,
                             int64_t i);

} // namespace mlir::hk

#endif // HK_DIALECT_HK_UTILS_LANELAYOUT_H
