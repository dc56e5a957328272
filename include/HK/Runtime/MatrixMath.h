//===- MatrixMath.h - one wave's matrix instruction, numerically -*- C++
//-*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// D = C + A * B^T for one 16 x 16 (or 32 x 32) tile of a wave, with A, B and
// C held as the instruction's lane layout gives them. The one implementation
// of MFMA/WMMA numerics that both the LLVM-IR simulator (SimMatrix.cpp) and
// the ISA executor (lib/Exec) call, so the two agree bit for bit.
//
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_MATRIXMATH_H
#define HK_RUNTIME_MATRIXMATH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>

namespace mlir::hk::sim {

/// How the A or B elements of a matrix instruction are encoded.
enum class MatrixFormat { bf16, e4m3, e5m2 };

/// The shape and lane layout of one matrix instruction
/// (docs/Hardware.md#lane-layouts, docs/hardware/Fp8Facts.md#f8-lanes-gfx950,
/// #f8-lanes-gfx1201).
struct MatrixForm {
  bool wmma = false;
  int64_t K = 0;
  /// Elements of A (and of B) per lane.
  unsigned elems = 0;
  MatrixFormat a = MatrixFormat::bf16, b = MatrixFormat::bf16;
  bool fp8 = false;
  /// M = N of the tile: 16, or 32 for v_mfma_f32_32x32x16_bf16.
  unsigned size = 16;

  /// k of element i of lane `lane`'s operand.
  unsigned kOf(unsigned lane, unsigned i) const {
    if (size == 32)
      return (lane / 32) * 8 + i;
    if (!fp8)
      return wmma ? (lane / 16) * 4 + i % 4 + 8 * (i / 4) : (lane / 16) * 8 + i;
    return wmma ? (lane / 16) * 8 + i
                : (lane / 16) * 16 + 64 * (i / 16) + i % 16;
  }
  /// Accumulator elements per lane.
  unsigned accPerLane() const { return size == 32 ? 16 : wmma ? 8 : 4; }
  /// Row of accumulator element i of lane `lane` (its column is
  /// lane % size): at 32x32 each half of the wave holds 4 of every 8 rows.
  unsigned accRow(unsigned lane, unsigned i) const {
    if (size == 32)
      return 8 * (i / 4) + 4 * (lane / 32) + i % 4;
    return (lane / 16) * accPerLane() + i;
  }
};

/// The MXFP8 block-scale exponents of a scaled MFMA: per (row, 32-k block)
/// of A and of B (docs/hardware/Fp8Facts.md#mxfp8).
struct MatrixScales {
  uint8_t a[16][4] = {}, b[16][4] = {};
};

/// Per lane, where its A, B and C operands are and where D goes. All inputs
/// are read before D is written, so D may alias C. The callables must
/// outlive the struct (function_ref): name them before building it.
struct MatrixOperands {
  llvm::function_ref<const uint8_t *(unsigned lane)> a, b, c;
  llvm::function_ref<uint8_t *(unsigned lane)> d;
};

/// Computes D = C + A * B^T (scaled per 32-k block when `scales` is given)
/// over `lanes`, which must be every lane of the wave. Products of bf16 and
/// of fp8 are exact in f32; they are accumulated into C in ascending k, in
/// f32 (a scaled MFMA sums each 32-k block in f32, scales it, then
/// accumulates).
void multiplyAccumulate(const MatrixForm &form, llvm::ArrayRef<unsigned> lanes,
                        const MatrixOperands &operands,
                        const MatrixScales *scales = nullptr);

} // namespace mlir::hk::sim

#endif // HK_RUNTIME_MATRIXMATH_H
