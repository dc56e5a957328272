//===- AttentionBackward.h - the backward kernels' emitter ------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The emitter of the attention backward kernels, shared by the
// deterministic pair (AttentionBackwardKernel.cpp) and the fused pass
// (AttentionFusedBackwardKernel.cpp). Private to lib/Kernels.
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_KERNELS_ATTENTIONBACKWARD_H
#define HK_LIB_KERNELS_ATTENTIONBACKWARD_H

#include "AttentionCommon.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::hk::kernels {

/// The forward's tiles, but on gfx1201, whose 256 VGPRs (wave32) hold the
/// backward's larger state (two accumulators, or Q and dO, beside K, V and
/// K^T) only with half the tile; two waves then still give every lane a
/// block of the transposed copies.
AttentionTiles planBackwardTiles(const AttentionDescription &d);

/// How the waves of the fused kernel split a tile's dQ = dS K (perTile
/// queries x d): a grid of slabs, as many columns of slabs as d holds
/// MMA-wide ones, up to one per wave.
struct DqSlabs {
  int64_t rowWaves, colWaves, rows, cols;
};
DqSlabs planDqSlabs(const AttentionTiles &t, int64_t headDim);

/// The fused kernels' part of hk-gen's comment.
void describeFusedBackward(llvm::raw_ostream &os, const AttentionDescription &d,
                           const AttentionTiles &t);

class BackwardEmitter {
public:
  BackwardEmitter(OpBuilder &b, const AttentionDescription &d)
      : kb(b, getChipInfo(d.chip)), d(d), t(planBackwardTiles(d)) {}
  gpu::GPUModuleOp emit();

private:
  KernelBuilder kb;
  const AttentionDescription &d;
  AttentionTiles t;

  MLIRContext *ctx() { return kb.getContext(); }
  Type bf16() { return BFloat16Type::get(ctx()); }
  Type f32() { return Float32Type::get(ctx()); }
  FragmentType frag(FragmentLayout layout, int64_t rows, int64_t cols,
                    Type element) {
    return kb.fragment(layout, rows, cols, element, t.mma);
  }
  bool fused() const { return !d.deterministic; }
  /// Kernel `i` of getAttentionBackwardKernelNames.
  std::string kernelName(unsigned i) const {
    return getAttentionBackwardKernelNames(d.headDim, d.deterministic)[i];
  }
  SmallVector<std::pair<StringRef, Type>> arguments();
  void emitCommon();
  void emitDq();
  Value emitRowDots(Value doh, Value oh, Value dh, Value qw,
                    FragmentType transposedRows, FragmentType column);
  void emitDkDv();
  void emitDkDvTile(scf::ForOp loop, Value head);
  Value emitCausalMask(Value s, Value query, Value key);
  /// `condition`, said to LLVM to be rarely true (llvm.expect): only the
  /// diagonal and tail tiles take the mask, whose block LLVM then places
  /// out of the loop's straight line.
  Value unlikely(Value condition) {
    return kb.create<LLVM::ExpectOp>(
        "mask_expected", condition,
        kb.create<arith::ConstantIntOp>("false", 0, 1));
  }

  /// The grid of the kernels per query block: ceil(Nq / perWorkgroup), Hq,
  /// B.
  SmallVector<SizeTerm> queryBlockGrid() const;
  /// The first of this wave's queries in query block `qblock`.
  Value emitWaveQueries(Value qblock);

  // The fused pass (AttentionFusedBackwardKernel.cpp).
  /// D and the zeroed dQacc, per query block.
  void emitRowDotsKernel();
  /// dQ = dQacc / sqrt(d) in bf16, per query block.
  void emitDqConvertKernel();
  /// The tiles and the wave's slab of dQ, before the loops.
  void emitDqSetup(Value k0, Value kh, Value wave);
  /// dQ += dS K for this tile's queries from `q0` of `head`: dS through
  /// LDS (its k runs along the accumulator's columns), added with atomics;
  /// and dK^T += Q^T dS (`qt` reads Q^T), returned. With K's slab held,
  /// dK's MFMAs issue in turn with the atomics; read from LDS (gfx1201),
  /// dQ's operands leave no registers for dK's beside them: dK comes first.
  Value emitDqTile(Value ds, Value q0, Value head,
                   llvm::function_ref<Value()> qt, Value dsf, Value dk);

  // Values both kernels define at their top.
  Value batch, zero, minusInf, scale, minusLog2e, rsqrtD, isCausal;
  Value q, k, v, nq, nkv, hq, hkv, group;
  // The dK/dV kernel's: K and V as B operands (null: read from kvTiles
  // each tile), this wave's first key and its offset in the block.
  Value kf, vf, kw, wk, qs, dos, qts, dots;
  Value kvTiles[2];
  // The fused kernel's: dS of the tile (queries x the block's keys), the
  // tile K is read from as dQ's B operand (K itself transposed, or K^T),
  // that operand when held, and the wave's slab origin in dQ's tile.
  Value dss, kSlabTile, kSlab, slabRow, slabCol;
  /// Whether each wave keeps its fixed operands (Q and dO for dQ, K and V
  /// for dK, dV) in registers for the whole loop, or reads them from LDS
  /// every tile: gfx1201's 256 VGPRs (wave32) do not hold them beside the
  /// loop's accumulators.
  bool fixedInRegisters() const { return t.transposedReads; }
};

} // namespace mlir::hk::kernels

#endif // HK_LIB_KERNELS_ATTENTIONBACKWARD_H
