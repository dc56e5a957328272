//===- AttentionCommon.cpp - what the attention kernels share -------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "AttentionCommon.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::hk;
using namespace mlir::hk::kernels;

AttentionTiles
mlir::hk::kernels::planAttentionTiles(const AttentionDescription &d) {
  AttentionTiles t;
  t.chip = &getChipInfo(d.chip);
  bool gfx950 = d.chip == Chip::gfx950;
  t.mma = *d.mma;
  t.perWave = gfx950 ? 32 : 16;
  // gfx1201 at d = 128 halves the tile to stay within its LDS and VGPRs.
  t.perTile = gfx950 || d.headDim == 64 ? 64 : 32;
  t.transposedReads = t.chip->transposedLdsReads;
  t.waves = d.waves.value_or(4);
  return t;
}

Value mlir::hk::kernels::attentionHeadView(KernelBuilder &kb, StringRef name,
                                           Value source, Value batch,
                                           Value head, Value rows, int64_t d) {
  int64_t dyn = ShapedType::kDynamic;
  MLIRContext *ctx = kb.getContext();
  Type element = cast<MemRefType>(source.getType()).getElementType();
  auto type = MemRefType::get({dyn, d}, element,
                              StridedLayoutAttr::get(ctx, dyn, {d, 1}));
  OpFoldResult zero = kb.b.getIndexAttr(0), one = kb.b.getIndexAttr(1);
  return kb.create<memref::SubViewOp>(
      name, type, source, ArrayRef<OpFoldResult>{batch, head, zero, zero},
      ArrayRef<OpFoldResult>{one, one, rows, kb.b.getIndexAttr(d)},
      ArrayRef<OpFoldResult>{one, one, one, one});
}

Value mlir::hk::kernels::attentionHeadVector(KernelBuilder &kb, StringRef name,
                                             Value source, Value batch,
                                             Value head, Value n) {
  MLIRContext *ctx = kb.getContext();
  Type element = cast<MemRefType>(source.getType()).getElementType();
  OpFoldResult zero = kb.b.getIndexAttr(0), one = kb.b.getIndexAttr(1);
  return kb.create<memref::SubViewOp>(
      name,
      MemRefType::get({ShapedType::kDynamic}, element,
                      StridedLayoutAttr::get(ctx, ShapedType::kDynamic, {1})),
      source, ArrayRef<OpFoldResult>{batch, head, zero},
      ArrayRef<OpFoldResult>{one, one, n},
      ArrayRef<OpFoldResult>{one, one, one});
}

Value mlir::hk::kernels::attentionWaveNeedsMask(KernelBuilder &kb, Value k,
                                                int64_t keysPerTile,
                                                Value queryStart, Value nkv,
                                                Value isCausal) {
  // In 32 bits, as the mask's own compares (attentionKeyMask): gfx9 has no
  // scalar 64-bit less-than, and a vector one takes a 64-bit operand in two
  // VGPRs for the whole loop.
  Type i32 = kb.b.getI32Type();
  auto narrow = [&](StringRef name, Value v) {
    return kb.create<arith::IndexCastUIOp>(name, i32, v);
  };
  Value k32 = narrow("k32", k);
  Value kEnd = kb.create<arith::AddIOp>(
      "k_end", k32, kb.create<arith::ConstantIntOp>("", keysPerTile, 32));
  Value tail = kb.create<arith::CmpIOp>("tail", arith::CmpIPredicate::ugt, kEnd,
                                        narrow("nkv32", nkv));
  Value kLast = kb.create<arith::AddIOp>(
      "k_last", k32, kb.create<arith::ConstantIntOp>("", keysPerTile - 1, 32));
  Value pastQuery =
      kb.create<arith::CmpIOp>("past_query", arith::CmpIPredicate::ugt, kLast,
                               narrow("query_start32", queryStart));
  Value diagonal = kb.create<arith::AndIOp>("diagonal", isCausal, pastQuery);
  return kb.create<arith::OrIOp>("wave_needs_mask", tail, diagonal);
}

Value mlir::hk::kernels::attentionKeyMask(KernelBuilder &kb, Value s,
                                          Value condition, Value k,
                                          Value queryStart, Value nkv,
                                          Value isCausal, Value minusInf) {
  auto ifOp = kb.create<scf::IfOp>("sm", TypeRange{s.getType()}, condition,
                                   /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(kb.b);
  kb.b.setInsertionPointToStart(ifOp.thenBlock());
  auto mask =
      kb.create<MaskOp>("masked", s.getType(), s, minusInf, k, queryStart);
  {
    OpBuilder::InsertionGuard inner(kb.b);
    Type index = kb.b.getIndexType();
    Block *block =
        kb.startBlock(mask.getBody(), {index, index}, {"key", "query"});
    Value next = kb.add("next", block->getArgument(1), kb.index(1));
    Value causalEnd = kb.create<arith::MinUIOp>("causal_end", next, nkv);
    Value end = kb.create<arith::SelectOp>("end", isCausal, causalEnd, nkv);
    // Compared in 32 bits (a key and Nkv fit: a head of 2^32 keys would
    // be 512 GiB of K): 64-bit index values would take two VGPRs each in
    // the mask loops.
    Type i32 = kb.b.getI32Type();
    Value key32 =
        kb.create<arith::IndexCastUIOp>("key32", i32, block->getArgument(0));
    Value end32 = kb.create<arith::IndexCastUIOp>("end32", i32, end);
    Value keep = kb.create<arith::CmpIOp>("keep", arith::CmpIPredicate::ult,
                                          key32, end32);
    kb.create<YieldOp>("", keep);
  }
  kb.create<scf::YieldOp>("", mask.getResult());
  kb.b.setInsertionPointToStart(ifOp.elseBlock());
  kb.create<scf::YieldOp>("", s);
  return ifOp.getResult(0);
}

Swizzle mlir::hk::kernels::operandSwizzle(const AttentionTiles &t) {
  // A 32x32x16 operand read takes 16 rows per phase: st_8x64 repeats its
  // pattern every 8 (2-way), st_16x64 every 16.
  return t.mma.m == 32 ? Swizzle::st_16x64 : Swizzle::st_8x64;
}

Swizzle mlir::hk::kernels::transposedSwizzle(const AttentionTiles &t) {
  // A half-wave phase of the 32x32x16 transposed reads takes 64 bytes of 4
  // rows: st_16x32 spreads them, st_8x64 leaves them 2-way. gfx1201's
  // transposed copies write d x perTile tiles. At 32 columns st_32x16
  // leaves the WMMA operand reads 2-way and the 8-byte writes 4-way (none:
  // reads 4-way; st_16x16 makes the reads 1-way but LLVM then spills, d = 64
  // backward dQ 2 VGPRs). At 16 columns (the backward at d = 128) every
  // swizzle gives the same conflicts, and none keeps a copy's LDS addresses
  // one base plus constants (st_32x16 spilled 13 VGPRs in dK/dV).
  if (t.transposedReads)
    return t.mma.m == 32 ? Swizzle::st_16x32 : Swizzle::st_8x64;
  if (t.perTile == 16)
    return Swizzle::none;
  return t.perTile == 32 ? Swizzle::st_32x16 : Swizzle::st_8x64;
}

ColumnPermutation
mlir::hk::kernels::operandPermutation(const AttentionTiles &t) {
  return t.transposedReads ? ColumnPermutation::identity
                           : ColumnPermutation::block4_0213;
}

Value mlir::hk::kernels::attentionFiniteToOperand(KernelBuilder &kb,
                                                  StringRef name, Value acc) {
  auto type = cast<FragmentType>(acc.getType());
  MLIRContext *ctx = kb.getContext();
  Type bf16 = BFloat16Type::get(ctx);
  auto rounding = kb.chip.bf16Conversion
                      ? arith::RoundingModeAttr()
                      : arith::RoundingModeAttr::get(
                            ctx, arith::RoundingMode::to_nearest_away);
  Value rounded = kb.map(
      (name + "_bf16").str(),
      kb.fragment(FragmentRole::acc, type.getRows(), type.getCols(), bf16,
                  type.getMmaShape()),
      {acc}, {"x"}, [&](ValueRange x) -> Value {
        return kb.create<arith::TruncFOp>(
            "r", bf16, x[0], rounding,
            arith::FastMathFlagsAttr::get(ctx, arith::FastMathFlags::nnan));
      });
  return kb
      .create<ToOperandOp>(
          name,
          TypeRange{kb.fragment({FragmentRole::b, KOrder::acc}, type.getCols(),
                                type.getRows(), bf16, type.getMmaShape())},
          ValueRange{rounded})
      .getOutputs()
      .front();
}

void mlir::hk::kernels::attentionLdsReadWait(KernelBuilder &kb) {
  kb.create<amdgpu::MemoryCounterWaitOp>("", /*load=*/nullptr,
                                         /*store=*/nullptr,
                                         /*ds=*/kb.b.getI32IntegerAttr(0),
                                         /*exp=*/nullptr, /*tensor=*/nullptr);
}
