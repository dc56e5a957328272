//===- SplitLoops.cpp - split loops where a guarded branch starts ---------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements hk-split-loops: a loop whose body branches on
// `iv >= bound` (alone or and-ed with another condition) becomes a loop over
// the iterations below the bound, where the branch is folded away, and a
// loop over the rest, where the guard is true, marked hk.remainder so that
// the multi-buffer and schedule passes leave it in program order.
// Attention's mask tiles leave the steady-state loop this way.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Dialect/HK/Transforms/Passes.h"
#include "HK/Dialect/HK/Transforms/Transforms.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::hk {
#define GEN_PASS_DEF_SPLITLOOPS
#include "HK/Dialect/HK/Transforms/Passes.h.inc"
} // namespace mlir::hk

using namespace mlir;
using namespace mlir::hk;

namespace {
/// `iv >= bound` in the body of a loop: the guard a split folds.
struct Guard {
  arith::CmpIOp cmp;
  bool isSigned;
  Value bound;
};
} // namespace

/// The guard `cond` is, or is and-ed with, if any.
static std::optional<Guard> findGuard(scf::ForOp loop, Value cond) {
  auto asGuard = [&](Value v) -> std::optional<Guard> {
    auto cmp = v.getDefiningOp<arith::CmpIOp>();
    if (!cmp || cmp.getLhs() != loop.getInductionVar() ||
        !loop.isDefinedOutsideOfLoop(cmp.getRhs()))
      return std::nullopt;
    if (cmp.getPredicate() == arith::CmpIPredicate::uge)
      return Guard{cmp, false, cmp.getRhs()};
    if (cmp.getPredicate() == arith::CmpIPredicate::sge)
      return Guard{cmp, true, cmp.getRhs()};
    return std::nullopt;
  };
  if (std::optional<Guard> guard = asGuard(cond))
    return guard;
  if (auto both = cond.getDefiningOp<arith::AndIOp>()) {
    if (std::optional<Guard> guard = asGuard(both.getLhs()))
      return guard;
    return asGuard(both.getRhs());
  }
  return std::nullopt;
}

/// The first guard of a branch directly in `loop`'s body the split can
/// serve: an unsigned guard needs a constant, non-negative lower bound (the
/// induction variable then rises in unsigned order too), a signed one a
/// loop compared signed.
static std::optional<Guard> findSplittableGuard(scf::ForOp loop) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  for (auto branch : loop.getBody()->getOps<scf::IfOp>()) {
    std::optional<Guard> guard = findGuard(loop, branch.getCondition());
    if (!guard)
      continue;
    if (guard->isSigned ? !loop.getUnsignedCmp() : (lb && *lb >= 0))
      return guard;
  }
  return std::nullopt;
}

/// Replaces `branch` by the ops of the region `cond` selects.
static void inlineBranch(RewriterBase &rewriter, scf::IfOp branch, bool cond) {
  Region &region = cond ? branch.getThenRegion() : branch.getElseRegion();
  if (region.empty()) {
    rewriter.eraseOp(branch);
    return;
  }
  Block *block = &region.front();
  Operation *yield = block->getTerminator();
  SmallVector<Value> results = yield->getOperands();
  rewriter.eraseOp(yield);
  rewriter.inlineBlockBefore(block, branch);
  rewriter.replaceOp(branch, results);
}

/// Gives the guard `cmp` (cloned into `loop`) the value `holds`, and folds
/// the branches of `loop`'s body that it decides.
static void foldGuard(RewriterBase &rewriter, scf::ForOp loop,
                      arith::CmpIOp cmp, bool holds) {
  rewriter.setInsertionPoint(loop);
  Value constant = arith::ConstantIntOp::create(rewriter, cmp.getLoc(),
                                                rewriter.getI1Type(), holds);
  rewriter.replaceAllUsesWith(cmp.getResult(), constant);
  rewriter.eraseOp(cmp);
  for (auto branch :
       llvm::make_early_inc_range(loop.getBody()->getOps<scf::IfOp>())) {
    Value cond = branch.getCondition();
    if (cond == constant) {
      inlineBranch(rewriter, branch, holds);
      continue;
    }
    auto both = cond.getDefiningOp<arith::AndIOp>();
    if (!both || (both.getLhs() != constant && both.getRhs() != constant))
      continue;
    Value other = both.getLhs() == constant ? both.getRhs() : both.getLhs();
    if (!holds) {
      inlineBranch(rewriter, branch, false);
    } else {
      rewriter.modifyOpInPlace(
          branch, [&] { branch.getConditionMutable().assign(other); });
    }
    if (both->use_empty())
      rewriter.eraseOp(both);
  }
  if (constant.use_empty())
    rewriter.eraseOp(constant.getDefiningOp());
}

/// Whether `loop`'s body synchronises the workgroup.
static bool hasBarrier(scf::ForOp loop) {
  bool found = false;
  loop.getBody()->walk(
      [&](Operation *op) { found = found || isWorkgroupBarrier(op); });
  return found;
}

/// Splits `loop` at the first iteration where `guard` holds.
static void split(scf::ForOp loop, const Guard &guard) {
  IRRewriter rewriter(loop);
  Location loc = loop.getLoc();
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound();
  Value step = loop.getStep();
  bool isSigned = guard.isSigned;
  auto max = [&](Value a, Value b) -> Value {
    if (isSigned)
      return rewriter.createOrFold<arith::MaxSIOp>(loc, a, b);
    return rewriter.createOrFold<arith::MaxUIOp>(loc, a, b);
  };
  auto min = [&](Value a, Value b) -> Value {
    if (isSigned)
      return rewriter.createOrFold<arith::MinSIOp>(loc, a, b);
    return rewriter.createOrFold<arith::MinUIOp>(loc, a, b);
  };
  // An empty loop (ub < lb) stays empty in both parts: bound ub below by lb.
  Value end = loop.getUnsignedCmp()
                  ? rewriter.createOrFold<arith::MaxUIOp>(loc, ub, lb)
                  : rewriter.createOrFold<arith::MaxSIOp>(loc, ub, lb);
  // The first iteration lb + t * step >= bound, within [lb, end].
  Value bound = min(max(guard.bound, lb), end);
  Value span = rewriter.createOrFold<arith::SubIOp>(loc, bound, lb);
  Value steps =
      isSigned ? rewriter.createOrFold<arith::CeilDivSIOp>(loc, span, step)
               : rewriter.createOrFold<arith::CeilDivUIOp>(loc, span, step);
  Value at =
      min(rewriter.createOrFold<arith::AddIOp>(
              loc, lb, rewriter.createOrFold<arith::MulIOp>(loc, steps, step)),
          end);

  // Below the split the guard is false; the loop itself takes the rest,
  // after a barrier when it runs and its body synchronises the workgroup
  // (the first part's schedule may leave tiles in use).
  auto below = cast<scf::ForOp>(rewriter.clone(*loop));
  below.getUpperBoundMutable().assign(at);
  // The clone's guard is at the same position in its body.
  auto position =
      std::distance(loop.getBody()->begin(), guard.cmp->getIterator());
  auto belowGuard =
      cast<arith::CmpIOp>(*std::next(below.getBody()->begin(), position));
  if (hasBarrier(loop)) {
    Value remains = loop.getUnsignedCmp()
                        ? arith::CmpIOp::create(
                              rewriter, loc, arith::CmpIPredicate::ult, at, ub)
                        : arith::CmpIOp::create(
                              rewriter, loc, arith::CmpIPredicate::slt, at, ub);
    auto ifRemains =
        scf::IfOp::create(rewriter, loc, remains, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard insertion(rewriter);
    rewriter.setInsertionPoint(ifRemains.thenBlock()->getTerminator());
    amdgpu::LDSBarrierOp::create(rewriter, loc);
  }
  rewriter.modifyOpInPlace(loop, [&] {
    loop.getLowerBoundMutable().assign(at);
    loop.getInitArgsMutable().assign(below.getResults());
    // The guarded iterations (a few per workgroup) stay in program order:
    // the multi-buffer and schedule passes take the first loop.
    loop->setAttr(HKDialect::getRemainderAttrName(), rewriter.getUnitAttr());
  });
  foldGuard(rewriter, below, belowGuard, false);
  foldGuard(rewriter, loop, guard.cmp, true);
}

namespace {
struct SplitLoopsPass : hk::impl::SplitLoopsBase<SplitLoopsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (!isRemainderLoop(loop))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      if (std::optional<Guard> guard = findSplittableGuard(loop))
        split(loop, *guard);
  }
};
} // namespace
