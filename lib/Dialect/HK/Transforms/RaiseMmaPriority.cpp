//===- RaiseMmaPriority.cpp - s_setprio around the MMA phase --------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements hk-raise-mma-priority: K loops raise the wave
// priority for their fragment loads and MMAs and lower it after.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Dialect/HK/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SmallPtrSet.h"

#define DEBUG_TYPE "hk-raise-mma-priority"

namespace mlir::hk {
#define GEN_PASS_DEF_RAISEMMAPRIORITY
#include "HK/Dialect/HK/Transforms/Passes.h.inc"
} // namespace mlir::hk

using namespace mlir;
using namespace mlir::hk;

/// True if `op` is or contains a fragment load or an MMA.
static bool isMmaPhase(Operation *op) {
  bool found = false;
  op->walk([&](Operation *inner) {
    if (isa<LoadFragmentOp, MmaOp>(inner)) {
      found = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

namespace {
struct RaiseMmaPriorityPass
    : hk::impl::RaiseMmaPriorityBase<RaiseMmaPriorityPass> {
  using RaiseMmaPriorityBase::RaiseMmaPriorityBase;

  void runOnOperation() override {
    if (priority < 1 || priority > 3) {
      getOperation().emitError()
          << "hk-raise-mma-priority: priority must be 1 to 3, got "
          << priority.getValue();
      return signalPassFailure();
    }
    // The outermost loop that has an MMA phase gets the priority changes;
    // loops inside it (e.g. over k chunks) are part of its phase.
    llvm::SmallPtrSet<Operation *, 8> done;
    getOperation().walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
      for (Operation *p = loop->getParentOp(); p; p = p->getParentOp())
        if (done.contains(p))
          return;
      Operation *first = nullptr, *last = nullptr;
      for (Operation &op : loop.getBody()->without_terminator())
        if (isMmaPhase(&op)) {
          first = first ? first : &op;
          last = &op;
        }
      if (!first)
        return;
      OpBuilder b(first);
      ROCDL::SetPrioOp::create(b, first->getLoc(),
                               b.getI16IntegerAttr(priority));
      b.setInsertionPointAfter(last);
      ROCDL::SetPrioOp::create(b, last->getLoc(), b.getI16IntegerAttr(0));
      done.insert(loop);
    });
  }
};
} // namespace
