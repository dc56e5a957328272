//===- Attention.h - attention kernels from a description -------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The FlashAttention-2 forward kernel and the backward kernels (bf16, GQA,
// causal at run time, any Nq and Nkv) built from a description: the chip,
// the head dimension and the MMA shape. hk-gen prints them;
// examples/attention_{fwd,bwd}_*.mlir are its output.
//
//===----------------------------------------------------------------------===//

#ifndef HK_KERNELS_ATTENTION_H
#define HK_KERNELS_ATTENTION_H

#include "HK/Target/Chip.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::hk::kernels {

struct AttentionDescription {
  Chip chip = Chip::gfx950;
  /// d: 64 or 128.
  int64_t headDim = 128;
  /// The bf16 matrix instruction's shape, one the chip has (gfx950:
  /// 32x32x16, the default, or 16x16x32; gfx1201: 16x16x16). Unset: the
  /// chip's default, filled in by resolveAttention.
  std::optional<MmaShape> mma;
  /// A software-pipelined KV loop (forward only): each trip computes the
  /// next tile's scores S^T = K Q^T beside this tile's softmax. Unset: the
  /// chip's default, filled in by resolveAttention (gfx950 yes, gfx1201 no:
  /// there it costs instructions and, at d = 128, spills).
  std::optional<bool> scoresAhead;
  /// Waves per workgroup (forward only), 4 or 8 (gfx950), each owning the
  /// same queries: 8 share each K/V tile between twice the queries, half
  /// the global-to-LDS traffic per query, but need at most 256 VGPRs a
  /// wave.
  /// Unset: the chip's default, filled in by resolveAttention (8 for
  /// gfx950, 2 waves per SIMD without spills at d = 64 and 128; 4 for
  /// gfx1201, whose transposing V copy does not split over 8).
  std::optional<int64_t> waves;
  /// Backward only: dQ without atomics, in a kernel of its own that
  /// recomputes S and P (two kernels, the same bits on every run), instead
  /// of the fused pass that adds each KV block's dQ into an f32 workspace.
  bool deterministic = false;
};

/// `description` checked, or why no kernel serves it.
llvm::Expected<AttentionDescription>
resolveAttention(const AttentionDescription &description);

/// Builds the forward kernel at `builder`'s insertion point (in a module).
llvm::Expected<gpu::GPUModuleOp>
buildAttentionKernel(OpBuilder &builder,
                     const AttentionDescription &description);

/// The comment heading the program hk-gen prints.
std::string describeAttentionKernel(const AttentionDescription &resolved);

/// Builds the backward kernels for the same descriptions as the forward,
/// in one module, to run in order over one argument list. Fused (the
/// default): `attention_bwd_dot_bf16_d<d>` (D = rowsum(dO * O), dQacc
/// zeroed), `attention_bwd_fused_bf16_d<d>` (dK, dV, and dQ added into the
/// f32 workspace dQacc with atomics), `attention_bwd_dq_convert_bf16_d<d>`
/// (dQ from dQacc). Deterministic: `attention_bwd_dq_bf16_d<d>` (also D),
/// then `attention_bwd_dkdv_bf16_d<d>`.
llvm::Expected<gpu::GPUModuleOp>
buildAttentionBackwardKernels(OpBuilder &builder,
                              const AttentionDescription &description);

/// The backward's kernels at head dim `headDim`, in the order they run:
/// dot, fused, dq_convert; or, `deterministic`, dq, dkdv.
std::vector<std::string> getAttentionBackwardKernelNames(int64_t headDim,
                                                         bool deterministic);

/// The comment heading the backward program hk-gen prints.
std::string
describeAttentionBackwardKernels(const AttentionDescription &resolved);

} // namespace mlir::hk::kernels

#endif // HK_KERNELS_ATTENTION_H
