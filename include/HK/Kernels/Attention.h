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

/// Builds the backward kernels (one module: `attention_bwd_dq_bf16_d<d>`,
/// which also stores D = rowsum(dO * O), then `attention_bwd_dkdv_bf16_d<d>`,
/// both over one argument list) for the same descriptions as the forward.
llvm::Expected<gpu::GPUModuleOp>
buildAttentionBackwardKernels(OpBuilder &builder,
                              const AttentionDescription &description);

/// The comment heading the backward program hk-gen prints.
std::string
describeAttentionBackwardKernels(const AttentionDescription &resolved);

} // namespace mlir::hk::kernels

#endif // HK_KERNELS_ATTENTION_H
