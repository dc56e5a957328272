//===- ExactLoopExits.cpp - loops that exit where their steps end ---------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// hk-exact-loop-exits (Passes.td): an scf.for with a constant step becomes
// an scf.while that runs until its induction variable equals the first
// value its steps reach at or past the upper bound.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

namespace mlir::hk {
#define GEN_PASS_DEF_EXACTLOOPEXITS
#include "HK/Dialect/HK/Transforms/Passes.h.inc"
} // namespace mlir::hk

using namespace mlir;

namespace {

/// `loop` as an scf.while that runs while its induction variable is not
/// `end` (a value the steps reach).
void toWhile(scf::ForOp loop, Value end) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  SmallVector<Value> inits = {loop.getLowerBound()};
  llvm::append_range(inits, loop.getInits());
  TypeRange types = ValueRange(inits).getTypes();
  auto whileOp = scf::WhileOp::create(b, loc, types, inits);
  SmallVector<Location> locs(types.size(), loc);
  Block *before = b.createBlock(&whileOp.getBefore(), {}, types, locs);
  Value runs = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                     before->getArgument(0), end);
  scf::ConditionOp::create(b, loc, runs, before->getArguments());
  Block *after = b.createBlock(&whileOp.getAfter(), {}, types, locs);
  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  b.setInsertionPoint(yield);
  SmallVector<Value> next = {
      arith::AddIOp::create(b, loc, body->getArgument(0), loop.getStep())};
  llvm::append_range(next, yield.getOperands());
  scf::YieldOp::create(b, loc, next);
  yield.erase();
  after->getOperations().splice(after->end(), body->getOperations());
  for (auto [from, to] :
       llvm::zip_equal(body->getArguments(), after->getArguments()))
    from.replaceAllUsesWith(to);
  loop.replaceAllUsesWith(whileOp.getResults().drop_front());
  loop.erase();
}

struct ExactLoopExitsPass
    : mlir::hk::impl::ExactLoopExitsBase<ExactLoopExitsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      // A positive constant step (the end is then a signed ceiling); loops
      // with constant bounds are LLVM's to unroll.
      APInt step;
      if (!matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
          step.getSExtValue() < 1 || loop.getUnsignedCmp())
        continue;
      Value lb = loop.getLowerBound(), ub = loop.getUpperBound();
      if (matchPattern(ub, m_Constant()) && matchPattern(lb, m_Constant()))
        continue;
      OpBuilder b(loop);
      Location loc = loop.getLoc();
      // lb + max(ceil((ub - lb) / step), 0) * step.
      Value trips = arith::MaxSIOp::create(
          b, loc,
          arith::CeilDivSIOp::create(
              b, loc, arith::SubIOp::create(b, loc, ub, lb), loop.getStep()),
          arith::ConstantOp::create(b, loc, b.getZeroAttr(lb.getType())));
      Value end = arith::AddIOp::create(
          b, loc, lb, arith::MulIOp::create(b, loc, trips, loop.getStep()));
      toWhile(loop, end);
    }
  }
};

} // namespace
