//===- PeelPartialTiles.cpp - whole K tiles apart from the remainder ------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements hk-peel-partial-tiles: a K loop of `bounds partial`
// copies becomes a loop over the whole tiles, whose copies are
// `partial_rows` (free), and a remainder loop that keeps the masks.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Dialect/HK/Transforms/Passes.h"
#include "HK/Dialect/HK/Transforms/Transforms.h"
#include "HK/Dialect/HK/Utils/AccessPlan.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::hk {
#define GEN_PASS_DEF_PEELPARTIALTILES
#include "HK/Dialect/HK/Transforms/Passes.h.inc"
} // namespace mlir::hk

using namespace mlir;
using namespace mlir::hk;

bool mlir::hk::isRemainderLoop(scf::ForOp loop) {
  return loop->hasAttr(HKDialect::getRemainderAttrName());
}

/// The copies of `loop`'s body that read whole tiles below a bound: partial,
/// at column iv, at most one step wide.
static SmallVector<CopyToSharedOp> peelableCopies(scf::ForOp loop,
                                                  int64_t step) {
  SmallVector<CopyToSharedOp> copies;
  for (auto copy : loop.getBody()->getOps<CopyToSharedOp>())
    if (copy.getBounds() == BoundsMode::partial &&
        copy.getCol() == loop.getInductionVar() &&
        copy.getTile().getType().getCols() <= step)
      copies.push_back(copy);
  return copies;
}

/// Whether the rows of `copy`'s source are whole 16-byte chunks (an i1): a
/// row stride that is a multiple of 16 bytes. Identity layouts only (the
/// stride is the column count); other layouts are not peeled.
static Value rowsAreChunked(OpBuilder &b, Location loc, CopyToSharedOp copy) {
  int64_t vec = kCopyChunkBytes / copy.getTile().getType().getLayout().elementBytes;
  Value cols = memref::DimOp::create(b, loc, copy.getSource(), 1);
  Value rem = b.createOrFold<arith::RemUIOp>(
      loc, cols, arith::ConstantIndexOp::create(b, loc, vec));
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, rem,
                               arith::ConstantIndexOp::create(b, loc, 0));
}

/// Splits `loop` (see the pass description); false when it has nothing to
/// peel.
static bool peel(scf::ForOp loop) {
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!step || *step < 1 || isRemainderLoop(loop))
    return false;
  SmallVector<CopyToSharedOp> copies = peelableCopies(loop, *step);
  llvm::erase_if(copies, [&](CopyToSharedOp copy) {
    return !copy.getSource().getType().getLayout().isIdentity() ||
           !loop.isDefinedOutsideOfLoop(copy.getSource());
  });
  if (copies.empty())
    return false;

  // The split: lb + t * step for the largest t such that every peeled
  // copy's columns [iv, iv + cols) lie inside its matrix for iv < split,
  // lb when some matrix's rows are not whole 16-byte chunks. A copy's
  // column must also be a whole number of chunks: lb is checked, the step
  // is a multiple of every tile's chunk width by the verifier's tile rule.
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound();
  Value end = ub, chunked;
  for (CopyToSharedOp copy : copies) {
    int64_t cols = copy.getTile().getType().getCols();
    Value last = b.createOrFold<arith::AddIOp>(
        loc, memref::DimOp::create(b, loc, copy.getSource(), 1),
        arith::ConstantIndexOp::create(b, loc, *step - cols));
    end = b.createOrFold<arith::MinSIOp>(loc, end, last);
    Value ok = rowsAreChunked(b, loc, copy);
    chunked = chunked ? b.createOrFold<arith::AndIOp>(loc, chunked, ok) : ok;
    int64_t vec =
        kCopyChunkBytes / copy.getTile().getType().getLayout().elementBytes;
    Value lbChunked = b.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::eq,
        b.createOrFold<arith::RemUIOp>(loc, lb,
                               arith::ConstantIndexOp::create(b, loc, vec)),
        arith::ConstantIndexOp::create(b, loc, 0));
    chunked = b.createOrFold<arith::AndIOp>(loc, chunked, lbChunked);
  }
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value span = b.createOrFold<arith::MaxSIOp>(
      loc, b.createOrFold<arith::SubIOp>(loc, end, lb), zero);
  Value whole = b.createOrFold<arith::MulIOp>(
      loc, b.createOrFold<arith::DivUIOp>(loc, span, loop.getStep()),
      loop.getStep());
  Value split = b.createOrFold<arith::SelectOp>(
      loc, chunked, b.createOrFold<arith::AddIOp>(loc, lb, whole), lb);

  // The main loop: a clone over [lb, split) whose peeled copies read whole
  // tiles.
  auto main = cast<scf::ForOp>(b.clone(*loop));
  main.getUpperBoundMutable().assign(split);
  for (auto [copy, cloned] :
       llvm::zip(loop.getBody()->getOps<CopyToSharedOp>(),
                 main.getBody()->getOps<CopyToSharedOp>()))
    if (llvm::is_contained(copies, copy))
      cloned.setBounds(BoundsMode::partial_rows);

  // The remainder: the loop itself over [split, ub), after a barrier when
  // it runs (the main loop's schedule may leave tiles in use), from the
  // main loop's results.
  Value remains =
      b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, split, ub);
  auto ifRemains = scf::IfOp::create(b, loc, remains, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifRemains.thenBlock()->getTerminator());
    amdgpu::LDSBarrierOp::create(b, loc);
  }
  loop.getLowerBoundMutable().assign(split);
  loop.getInitArgsMutable().assign(main.getResults());
  loop->setAttr(HKDialect::getRemainderAttrName(), b.getUnitAttr());
  return true;
}

namespace {
struct PeelPartialTilesPass
    : hk::impl::PeelPartialTilesBase<PeelPartialTilesPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      peel(loop);
  }
};
} // namespace
