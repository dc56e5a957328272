//===- AttentionCommon.h - what the attention kernels share -----*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The pieces the forward and backward attention kernels share: the tile
// sizes a chip's kernels use, the views of one (batch, head), the LDS
// swizzles of their tiles. Private to lib/Kernels.
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_KERNELS_ATTENTIONCOMMON_H
#define HK_LIB_KERNELS_ATTENTIONCOMMON_H

#include "KernelBuilder.h"

#include "HK/Kernels/Attention.h"

namespace mlir::hk::kernels {

/// The sizes a resolved description implies.
struct AttentionTiles {
  const ChipInfo *chip;
  MmaShape mma;
  int64_t waves = 4;
  /// The tokens a wave owns (queries in the forward and dQ kernels, keys in
  /// the dK/dV kernel) and those of a loop trip's tile.
  int64_t perWave, perTile;
  /// gfx950 reads tiles transposed from LDS; gfx1201 transposes them in the
  /// copy.
  bool transposedReads;
  int64_t perWorkgroup() const { return waves * perWave; }
};
AttentionTiles planAttentionTiles(const AttentionDescription &resolved);

/// The 2-D view of (batch, head) of a [B, H, N, d] tensor, `rows` x d.
Value attentionHeadView(KernelBuilder &kb, StringRef name, Value source,
                        Value batch, Value head, Value rows, int64_t d);
/// The 1-D view of (batch, head) of a [B, H, N] tensor.
Value attentionHeadVector(KernelBuilder &kb, StringRef name, Value source,
                          Value batch, Value head, Value n);

/// Whether a wave's S^T tile (`keysPerTile` keys from `k`, queries from
/// `queryStart`) holds a key past `nkv` or, when `isCausal`, past one of
/// its queries: the tiles attentionKeyMask must mask.
Value attentionWaveNeedsMask(KernelBuilder &kb, Value k, int64_t keysPerTile,
                             Value queryStart, Value nkv, Value isCausal);
/// S^T (rows keys from `k`, columns queries from `queryStart`) with -inf
/// for the keys past `nkv` and, when `isCausal`, past the query, where
/// `condition` holds; S^T as it is elsewhere (one scf.if).
Value attentionKeyMask(KernelBuilder &kb, Value s, Value condition, Value k,
                       Value queryStart, Value nkv, Value isCausal,
                       Value minusInf);

/// `acc` (rows x cols, f32, finite: P, dS) rounded to bf16 without a NaN
/// check (`nnan`) and taken in place as the B operand of the next MMA (cols
/// x rows, k in `acc`'s row order). To nearest, ties to even where the chip
/// converts (gfx950: v_cvt_pk_bf16_f32), else ties away from zero: integer
/// VALU, one add per element where ties to even takes an extract and a
/// three-operand add (docs/TileAlgebra.md).
Value attentionFiniteToOperand(KernelBuilder &kb, StringRef name, Value acc);

/// Waits for the wave's LDS reads issued so far (`amdgpu.memory_counter_wait
/// ds(0)`): a fragment read and waited for once, where the backend would
/// wait before each MMA for its own part of it.
void attentionLdsReadWait(KernelBuilder &kb);

/// The swizzle of a tile read as MMA operands (`rows x d`, plainly), and of
/// one read transposed (gfx950) or written transposed (gfx1201, `d x
/// perTile`).
Swizzle operandSwizzle(const AttentionTiles &t);
Swizzle transposedSwizzle(const AttentionTiles &t);
/// The column permutation of operand tiles (gfx1201's WMMA reads).
ColumnPermutation operandPermutation(const AttentionTiles &t);

} // namespace mlir::hk::kernels

#endif // HK_LIB_KERNELS_ATTENTIONCOMMON_H
