//===- GemmEmitter.h - the pieces of a GEMM kernel --------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The GEMM kernels' body in pieces: the shared tiles, the waves' places,
// the workgroup's tile of C, the K loop and the epilogue. The dense GEMM
// (`emit`) puts them in a kernel whose workgroup takes one tile; the MoE
// GEMMs (MoeGemmKernel.cpp) put the tile, the loop and the epilogue in a
// persistent loop over (expert, m-tile, n-tile) work, over views of their
// expert's rows. Private to lib/Kernels.
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_KERNELS_GEMMEMITTER_H
#define HK_LIB_KERNELS_GEMMEMITTER_H

#include "KernelBuilder.h"

#include "HK/Kernels/Gemm.h"

namespace mlir::hk::kernels {

/// What a resolved description implies.
struct GemmPlan {
  GemmDescription d;
  const ChipInfo *chip;
  MmaShape mma;
  bool fp8;
  /// gfx950's tiling: two halves per operand, four blocks per wave.
  bool halves;
  bool aKMajor, bKMajor;
  /// B's second half of tiles holds other columns than the first's (a
  /// gated MoE GEMM's up rows, GemmEmitter::upColumn): the workgroup's tile
  /// of C is one half wide. gfx1201 then holds two B tiles (gate, up) of
  /// half the block each, and an accumulator for each.
  bool gated = false;
  int64_t waves() const { return *d.waveRows * *d.waveCols; }
  int64_t threads() const { return waves() * chip->waveSize; }
  /// Rows (of A) and columns (of B) of one shared tile.
  int64_t tileM() const { return halves ? *d.blockM / 2 : *d.blockM; }
  int64_t tileN() const { return halves || gated ? *d.blockN / 2 : *d.blockN; }
  /// One wave's block of C.
  int64_t waveM() const { return tileM() / *d.waveRows; }
  int64_t waveN() const { return tileN() / *d.waveCols; }
  /// K per fragment load: the whole K tile on gfx950, one WMMA's on gfx1201.
  int64_t fragmentK() const { return halves ? *d.kTile : mma.k; }
  /// Columns of C per workgroup tile.
  int64_t blockColumns() const { return gated ? tileN() : *d.blockN; }
};

/// The plan of a resolved description.
GemmPlan planGemm(const GemmDescription &resolved);

/// One wave's block of C: its accumulator and where it lies in C.
struct WaveBlock {
  Value acc;
  Value row, col;
};

class GemmEmitter {
public:
  GemmEmitter(OpBuilder &b, const GemmPlan &p) : kb(b, *p.chip), p(p) {}

  /// The dense GEMM: one tile of C per workgroup.
  gpu::GPUModuleOp emit();
  /// The tiles' and fragments' own checks, before anything is built.
  llvm::Error verifyTypes() {
    return kb.verifyTypes({tileOf(p.aKMajor, p.tileM()),
                           tileOf(p.bKMajor, p.tileN()),
                           operandType(FragmentRole::a, p.waveM()),
                           operandType(FragmentRole::b, p.waveN()), accType()});
  }

  KernelBuilder kb;
  const GemmPlan &p;

  // The pieces, in the order a kernel calls them.
  /// The shared tiles (two halves per operand on gfx950).
  void allocTiles();
  /// The workgroup's tile of C: tile (mTile, nTile) of `c`.
  void placeTile(Value mTile, Value nTile);
  /// The wave's place in the workgroup (wm, wn).
  void placeWaves();
  /// The K loop over `a` and `bMat` from 0 to `k`: the accumulators.
  SmallVector<Value> emitLoop();
  /// C = scale * (A B^T) when `scale` is set and the tiling has one block
  /// (gfx950's four are scaled by the epilogue).
  void scaleSingleBlock(SmallVectorImpl<Value> &accs);
  SmallVector<WaveBlock> placeBlocks(ArrayRef<Value> accs);
  void emitEpilogue(ArrayRef<WaveBlock> blocks);
  void store(Value value, const WaveBlock &block);
  FragmentType accType() {
    return kb.fragment(FragmentRole::acc, p.waveM(), p.waveN(), f32(), p.mma);
  }

  // The operands as the loop sees them (2-D views when batched or
  // grouped), K, and the block scales of MXFP8.
  Value a, bMat, c, k, sa, sb;
  /// When set, the rows of sa and sb where the tile's rows of A and of B
  /// start (an MoE item's expert within the whole scale arrays). With
  /// rowIds, sa's rows are gathered as A's (per-token scales).
  Value saFirstRow, sbFirstRow;
  Value zero;
  // scale_a * scale_b (fp8 with per-tensor scales).
  Value scale;
  /// Gated: the column of B where the second half's tiles start.
  Value upColumn;
  /// Gathered rows (an MoE GEMM's sorted_token_ids): A's tile row i is A's
  /// row rowIds[at + i] / rowIdsDivisor, C's row r goes to C's row
  /// rowIds[at + r], `at` the tile's row.
  Value rowIds, rowIdsDivisor;

private:
  MLIRContext *ctx() { return kb.getContext(); }
  Type abType() { return getElementType(ctx(), p.d.operands); }
  Type f32() { return Float32Type::get(ctx()); }

  SmallVector<std::pair<StringRef, Type>> arguments();
  SmallVector<SizeTerm> grid();
  SharedTileType tileOf(bool kMajor, int64_t extent);
  FragmentType operandType(FragmentRole role, int64_t extent);
  /// A's K dimension (of a batch's matrix).
  int64_t kDimOfA() const { return p.aKMajor ? 0 : 1; }
  void copy(Value source, Value at, Value k, Value tile, bool kMajor);
  Value load(StringRef name, Value tile, bool kMajor, Value at, Value k,
             FragmentRole role, int64_t extent);
  SmallVector<Value> emitHalvesLoop();
  SmallVector<Value> emitSingleLoop();
  /// r and n: the rows and columns of C of gfx950's four blocks.
  void placeHalves();
  void emitBlasBlock(const WaveBlock &block, Value bias, Value readC);

  // The shared tiles: As[0], Bs[0] alone on gfx1201.
  Value as[2], bs[2];
  // Where the workgroup's tiles (two halves on gfx950) and the wave's
  // blocks start.
  Value rowBase[2], colBase[2], wm, wn;
  // The blocks' rows and columns of C (gfx950).
  Value r[2], n[2];
};

} // namespace mlir::hk::kernels

#endif // HK_LIB_KERNELS_GEMMEMITTER_H
