//===- DirectLdsFill.cpp - direct-to-LDS fills ----------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements hk-direct-lds-fill: cooperative copies become
// direct-to-LDS fills where the chip has them, with the wait for their
// completion before the barrier that publishes the tile.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Analysis/KVLoop.h"
#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Dialect/HK/Transforms/ClusterSchedule.h"
#include "HK/Dialect/HK/Transforms/Passes.h"
#include "HK/Dialect/HK/Transforms/Transforms.h"
#include "HK/Dialect/HK/Utils/AccessPlan.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#define DEBUG_TYPE "hk-direct-lds-fill"

namespace mlir::hk {
#define GEN_PASS_DEF_DIRECTLDSFILL
#include "HK/Dialect/HK/Transforms/Passes.h.inc"
} // namespace mlir::hk

using namespace mlir;
using namespace mlir::hk;

namespace {
struct DirectLdsFillPass : hk::impl::DirectLdsFillBase<DirectLdsFillPass> {
  using DirectLdsFillBase::DirectLdsFillBase;

  void runOnOperation() override {
    WalkResult walk = getOperation().walk([&](CopyToSharedOp copy) {
      auto keep = [&](const Twine &why) {
        if (require) {
          copy.emitOpError() << "hk-direct-lds-fill: " << why;
          return WalkResult::interrupt();
        }
        copy.emitRemark() << "hk-direct-lds-fill: kept on the register "
                             "path: "
                          << why;
        return WalkResult::advance();
      };
      // Policy, even with `require`, silently: columns past the matrix
      // are zeroed on the register path, whose zeros are certain.
      if (masksColumns(copy.getBounds()))
        return WalkResult::advance();
      // Likewise a remainder loop's rows past the matrix's end: it reaches
      // them (its tile is the last, partial one), and what a direct load
      // past the range writes to LDS is not certain (attention's V rows
      // there must be zeros: P = 0 times them).
      auto loop = copy->getParentOfType<scf::ForOp>();
      if (copy.getBounds() == BoundsMode::partial_rows && loop &&
          isRemainderLoop(loop))
        return WalkResult::advance();
      if (copy.getDeferred())
        return keep("its stores are deferred (hk-multi-buffer "
                    "defer-register-fills), which asks for the register path");
      FailureOr<const ChipInfo *> chip = resolveChip(copy);
      if (failed(chip))
        return WalkResult::interrupt();
      if (!*chip)
        return keep("no chip is known");
      if (!(*chip)->hasDirectToLds())
        return keep(Twine((*chip)->name) + " has no direct-to-LDS loads");
      TileLayout layout = copy.getTile().getType().getLayout();
      if (!chunksAreRowContiguous(layout, 16 / layout.elementBytes))
        return keep("the tile layout splits 16-byte chunks across rows or "
                    "columns");
      Operation *barrier = findPublishingBarrier(copy);
      if (!barrier)
        return keep("no barrier follows the copy to publish the tile");
      copy.setDirect(true);
      auto wait =
          dyn_cast_or_null<amdgpu::MemoryCounterWaitOp>(barrier->getPrevNode());
      if (!wait || wait.getLoadAttr() == nullptr ||
          wait.getLoadAttr().getInt() != 0) {
        OpBuilder b(barrier);
        emitWaitForLoads(b, barrier->getLoc());
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
