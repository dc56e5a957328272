//===- MoeGemm.h - mixture-of-experts GEMM kernels --------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The MoE GEMMs: each routed row of A times its expert's weights, B being
// experts x N x K. The description is a GEMM description (its chip, element
// types and tiling, with the dense GEMM's defaults) plus how the rows are
// grouped by expert and what follows the product. docs/Kernels.md#moe-gemm.
//
//===----------------------------------------------------------------------===//

#ifndef HK_KERNELS_MOEGEMM_H
#define HK_KERNELS_MOEGEMM_H

#include "HK/Kernels/Gemm.h"

namespace mlir::hk::kernels {

/// How A's rows reach their experts.
enum class MoeGroups {
  /// A sorted by expert; group_offsets[E + 1] (training frameworks' form).
  contiguous,
  /// Rows gathered through sorted_token_ids, padded per expert to the tile
  /// height, with expert_ids per tile (vLLM's moe_align_block_size).
  gathered,
};

/// What follows an expert's product.
enum class MoeEpilogue {
  none,
  /// B holds gate (rows [0, N/2)) and up (rows [N/2, N)) weights; C =
  /// SiLU(gate) * up, N/2 columns.
  gated,
  /// Each row scaled by its routing weight and added into its token's row.
  combine,
};

struct MoeGemmDescription {
  /// The chip, element types and tiling (layout nt, not batched, no dense
  /// epilogue).
  GemmDescription gemm;
  MoeGroups groups = MoeGroups::contiguous;
  MoeEpilogue epilogue = MoeEpilogue::none;
  /// Decode: at most 32 rows per expert, a shorter tile.
  bool smallM = false;
  /// Combine without atomics: the GEMM writes each slot's weighted row to
  /// Y [T topk, N] f32, and a second kernel (kMoeCombineSumKernelName) sums
  /// each token's topk rows in order.
  bool deterministic = false;
};

/// The deterministic combine's second kernel: (Y, C, topk), C[t, j] = the
/// sum over i < topk, in order, of Y[t topk + i, j].
inline constexpr StringLiteral kMoeCombineSumKernelName = "moe_combine_sum_f32";

std::optional<MoeGroups> parseMoeGroups(StringRef text);
StringRef stringifyMoeGroups(MoeGroups groups);
std::optional<MoeEpilogue> parseMoeEpilogue(StringRef text);
StringRef stringifyMoeEpilogue(MoeEpilogue epilogue);

/// `description` with every default filled in, or why no kernel serves it.
llvm::Expected<MoeGemmDescription>
resolveMoeGemm(const MoeGemmDescription &description);

/// moe_gemm_<bf16|fp8>[_<W>wave][_c<type>]_<groups>[_<epilogue>]
/// [_deterministic][_small_m]: the name tokens hk-run reads what the kernel
/// takes from.
std::string getMoeGemmKernelName(const MoeGemmDescription &resolved);

/// Builds the kernel of `description` (resolved first) at `builder`'s
/// insertion point, which must lie in a module; the deterministic combine's
/// module holds the summing kernel too.
llvm::Expected<gpu::GPUModuleOp>
buildMoeGemmKernel(OpBuilder &builder, const MoeGemmDescription &description);

/// The comment that heads the program hk-gen prints.
std::string describeMoeGemmKernel(const MoeGemmDescription &resolved);

} // namespace mlir::hk::kernels

#endif // HK_KERNELS_MOEGEMM_H
