//===- MultiBuffer.cpp - double-buffering K loops on parity ---------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements hk-multi-buffer: a K loop that fills shared tiles and
// computes from them becomes a loop that prefetches tile k+1 into the other
// slot while computing tile k (docs/Hardware.md#pipelining). The loop is
// taken apart by the K/V loop analysis (KVLoop.h); this file is the policy.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Dialect/HK/Transforms/ClusterSchedule.h"
#include "HK/Dialect/HK/Transforms/Passes.h"
#include "HK/Dialect/HK/Transforms/Transforms.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

#define DEBUG_TYPE "hk-multi-buffer"

namespace mlir::hk {
#define GEN_PASS_DEF_MULTIBUFFER
#include "HK/Dialect/HK/Transforms/Passes.h.inc"
} // namespace mlir::hk

using namespace mlir;
using namespace mlir::hk;

FailureOr<std::optional<MultiBufferedLoop>>
mlir::hk::multiBufferLoop(scf::ForOp loop, bool deferRegisterFills) {
  auto remark = [&](const Twine &why) -> std::optional<MultiBufferedLoop> {
    loop.emitRemark("hk-multi-buffer: loop left single-buffered: ") << why;
    return std::nullopt;
  };
  llvm::Expected<KVLoop> kv = analyzeKVLoop(loop);
  if (!kv)
    return remark(llvm::toString(kv.takeError()));
  if (!kv->fillWaits.empty())
    return remark("the fill section already waits for memory counters");
  Operation *fillBarrier = kv->fillBarrier;
  ArrayRef<CopyToSharedOp> copies = kv->copies;
  std::string why;
  FailureOr<std::optional<SmallVector<AllocSharedOp>>> tiles =
      checkSecondSlots(loop, *kv, "hk-multi-buffer", why);
  if (failed(tiles))
    return failure();
  if (!*tiles)
    return remark(why);
  llvm::SmallPtrSet<Operation *, 4> allocs;
  for (AllocSharedOp alloc : **tiles) {
    alloc.setSlots(2);
    allocs.insert(alloc);
  }
  Value iv = loop.getInductionVar();

  // Prologue: tile lb into slot 0 when the loop runs, then wait.
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value runs =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                            loop.getLowerBound(), loop.getUpperBound());
  auto prologue = scf::IfOp::create(b, loc, runs, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(prologue.thenBlock()->getTerminator());
    emitFill(b, *kv, loop.getLowerBound(), zero);
  }
  b.clone(*fillBarrier);

  // In the loop: prefetch tile k+1 into the other slot, compute from this
  // one; the loop's last barrier is the only one.
  b.setInsertionPointToStart(loop.getBody());
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value iteration = arith::DivSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, iv, loop.getLowerBound()),
      loop.getStep());
  Value slot = arith::AndIOp::create(b, loc, iteration, one);
  Value other = arith::XOrIOp::create(b, loc, slot, one);
  Value next = arith::AddIOp::create(b, loc, iv, loop.getStep());
  Value hasNext = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, next,
                                        loop.getUpperBound());
  bool registerFill = llvm::none_of(
      copies, [](CopyToSharedOp copy) { return copy.getDirect(); });
  if (deferRegisterFills && registerFill) {
    // The last iteration reloads its own tile into the slot no one reads:
    // a fill without a branch, whose stores can wait for the barrier.
    Value tile = arith::SelectOp::create(b, loc, hasNext, next, iv);
    for (CopyToSharedOp copy : emitFill(b, *kv, tile, other))
      copy.setDeferred(true);
  } else {
    auto prefetch =
        scf::IfOp::create(b, loc, hasNext, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(prefetch.thenBlock()->getTerminator());
    emitFill(b, *kv, next, other);
  }
  loop.walk([&](LoadFragmentOp load) {
    if (auto alloc = load.getTile().getDefiningOp<AllocSharedOp>())
      if (allocs.contains(alloc.getOperation()))
        load.getSlotMutable().assign(slot);
  });
  for (CopyToSharedOp copy : copies)
    copy.erase();
  fillBarrier->erase();
  return std::optional<MultiBufferedLoop>(MultiBufferedLoop{slot, other});
}

/// Unrolls the double-buffered `loop` by `factor` (even) and makes the slot
/// indices of the unrolled copies constants: unrolled copy i runs iteration
/// t0 + i with t0 a multiple of `factor`, so its slot is i % 2.
static LogicalResult unrollWithConstantSlots(scf::ForOp loop, unsigned factor,
                                             Value slot, Value other) {
  // Mark the two slot computations so their unrolled copies can be found.
  constexpr StringLiteral kMark = "hk_multi_buffer_slot";
  MLIRContext *ctx = loop.getContext();
  slot.getDefiningOp()->setAttr(kMark,
                                IntegerAttr::get(IndexType::get(ctx), 0));
  other.getDefiningOp()->setAttr(kMark,
                                 IntegerAttr::get(IndexType::get(ctx), 1));
  SmallVector<std::pair<Operation *, int64_t>> constantSlots;
  Operation *parent = loop->getParentOp();
  FailureOr<UnrolledLoopInfo> unrolled = loopUnrollByFactor(
      loop, factor, [&](unsigned i, Operation *op, OpBuilder) {
        if (auto mark = op->getAttrOfType<IntegerAttr>(kMark))
          constantSlots.push_back({op, (i % 2) ^ mark.getInt()});
      });
  LogicalResult result = success();
  if (failed(unrolled)) {
    result = loop.emitError("hk-multi-buffer: the loop cannot be unrolled");
  } else {
    for (auto [op, value] : constantSlots) {
      OpBuilder b(op);
      op->getResult(0).replaceAllUsesWith(
          arith::ConstantIndexOp::create(b, op->getLoc(), value));
    }
  }
  // The rolled epilogue keeps computed slots.
  parent->walk([&](Operation *op) { op->removeAttr(kMark); });
  return result;
}

namespace {
struct MultiBufferPass : hk::impl::MultiBufferBase<MultiBufferPass> {
  using MultiBufferBase::MultiBufferBase;

  void runOnOperation() override {
    if (stages == 1)
      return;
    if (stages != 2) {
      getOperation().emitError()
          << "hk-multi-buffer: stages = " << stages.getValue()
          << " is not implemented (1 and 2 are)";
      return signalPassFailure();
    }
    SmallVector<scf::ForOp> loops = collectKVLoops(getOperation());
    if (unroll > 1 && unroll % 2 != 0) {
      getOperation().emitError()
          << "hk-multi-buffer: unroll must be even so that every slot index "
             "is a constant, got "
          << unroll.getValue();
      return signalPassFailure();
    }
    for (scf::ForOp loop : loops) {
      FailureOr<std::optional<MultiBufferedLoop>> buffered =
          multiBufferLoop(loop, deferRegisterFills);
      if (failed(buffered))
        return signalPassFailure();
      if (!*buffered)
        continue;
      if (unroll > 1 &&
          failed(unrollWithConstantSlots(loop, unroll, (*buffered)->slot,
                                         (*buffered)->otherSlot)))
        return signalPassFailure();
    }
  }
};
} // namespace
