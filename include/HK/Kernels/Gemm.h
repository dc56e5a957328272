//===- Gemm.h - GEMM kernels from a description -----------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The GEMM kernels hk ships, built from a typed description: the chip, the
// element types, the operand layout, batching, the epilogue and the tiling
// (each with the chip's default). `resolveGemm` fills in the defaults and
// refuses what no kernel serves, with the reason; `buildGemmKernel` writes
// the program (a gpu.module holding one gpu.func) at a builder's insertion
// point. hk-gen prints it; examples/gemm_*.mlir are its output.
//
//===----------------------------------------------------------------------===//

#ifndef HK_KERNELS_GEMM_H
#define HK_KERNELS_GEMM_H

#include "HK/Target/Chip.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace mlir::hk::kernels {

/// BLAS operand layout, C = op(A) op(B): the first letter is A's (n: M x K,
/// t: stored K x M), the second B's (n: stored K x N, t: N x K). "nt" is
/// HipKittens' (both operands K-minor).
enum class GemmLayout { nn, nt, tn, tt };

/// What follows C = A B (f32) before it is rounded to C's type.
struct GemmEpilogue {
  /// C = alpha * A B + beta * C, alpha and beta f32 kernel arguments (beta
  /// = 0 reads no C, as BLAS).
  bool alphaBeta = false;
  /// C += bias[n], an f32 vector with one value per column of C.
  bool bias = false;
  bool any() const { return alphaBeta || bias; }
};

/// A GEMM kernel. Unset tiling fields take the chip's defaults
/// (docs/Kernels.md#gemm).
struct GemmDescription {
  Chip chip = Chip::gfx950;
  /// A and B: bf16, f8e4m3 or f8e5m2. fp8 kernels take per-tensor f32
  /// scales (scale_a, scale_b) unless `blockScales` is set.
  ElementKind operands = ElementKind::bf16;
  /// MXFP8: E8M0 scales per 32 k of each row of A and of B (gfx950, fp8).
  bool blockScales = false;
  /// C: bf16, f16 or f32.
  ElementKind result = ElementKind::bf16;
  GemmLayout layout = GemmLayout::nt;
  /// A, B and C 3-D with the batch first, leading strides at run time.
  bool batched = false;
  GemmEpilogue epilogue;
  /// The workgroup's tile of C, M x N.
  std::optional<int64_t> blockM, blockN;
  /// The waves of the workgroup, rows x columns.
  std::optional<int64_t> waveRows, waveCols;
  /// K elements per main-loop trip.
  std::optional<int64_t> kTile;
};

/// Parses "nn", "nt", "tn" or "tt".
std::optional<GemmLayout> parseGemmLayout(StringRef text);
StringRef stringifyGemmLayout(GemmLayout layout);

/// `description` with every default filled in, or why no kernel serves it.
llvm::Expected<GemmDescription> resolveGemm(const GemmDescription &description);

/// The kernel's function name: gemm_<operands>[_<W>wave][_<C>c][_batched],
/// e.g. gemm_bf16, gemm_mxfp8, gemm_fp8_4wave, gemm_bf16_batched.
std::string getGemmKernelName(const GemmDescription &resolved);

/// The type a GEMM kernel takes A, B and C as: contiguous row-major
/// (memref<?x?xT>), or with leading strides at run time when batched
/// (memref<?x?x?xT, strided<[?, ?, 1]>>).
MemRefType getGemmMatrixType(Type element, bool batched);

/// Builds the kernel of `description` (resolved first) at `builder`'s
/// insertion point, which must lie in a module. Loads the dialects it uses.
llvm::Expected<gpu::GPUModuleOp>
buildGemmKernel(OpBuilder &builder, const GemmDescription &description);

/// The comment that heads the program hk-gen prints: what the kernel
/// computes, how it is tiled, how it is launched.
std::string describeGemmKernel(const GemmDescription &resolved);

} // namespace mlir::hk::kernels

#endif // HK_KERNELS_GEMM_H
