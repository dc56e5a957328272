//===- AttachTarget.cpp - one chip per compilation ------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements hk-attach-target: gpu.modules without a ROCDL target
// get the chip's, those with one are checked against it, and so are the
// launch sizes of their kernels.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Dialect/HK/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

#define DEBUG_TYPE "hk-attach-target"

namespace mlir::hk {
#define GEN_PASS_DEF_ATTACHTARGET
#include "HK/Dialect/HK/Transforms/Passes.h.inc"
} // namespace mlir::hk

using namespace mlir;
using namespace mlir::hk;

namespace {
struct AttachTargetPass : hk::impl::AttachTargetBase<AttachTargetPass> {
  using AttachTargetBase::AttachTargetBase;

  void runOnOperation() override {
    if (!chip.hasValue()) {
      getOperation().emitError()
          << "hk-attach-target needs a chip: hk-attach-target=chip=<chip> ("
          << describeSupportedChips() << ")";
      return signalPassFailure();
    }
    const ChipInfo &info = getChipInfo(chip);
    MLIRContext *ctx = &getContext();
    WalkResult walk = getOperation().walk([&](gpu::GPUModuleOp module) {
      SmallVector<Attribute> targets;
      if (ArrayAttr existing = module.getTargetsAttr())
        targets.assign(existing.begin(), existing.end());
      bool hasRocdl = false;
      for (Attribute target : targets) {
        auto rocdl = dyn_cast<ROCDL::ROCDLTargetAttr>(target);
        if (!rocdl)
          continue;
        hasRocdl = true;
        if (rocdl.getChip() != info.name) {
          module.emitError()
              << "gpu.module '" << module.getName() << "' targets "
              << rocdl.getChip() << " but the compilation is for " << info.name;
          return WalkResult::interrupt();
        }
      }
      if (!hasRocdl) {
        targets.push_back(ROCDL::ROCDLTargetAttr::get(
            ctx, optLevel, "amdgcn-amd-amdhsa", info.name));
        module.setTargetsAttr(ArrayAttr::get(ctx, targets));
      }
      // Before any pass reads them: the kernels' launch sizes on this chip.
      for (auto func : module.getOps<gpu::GPUFuncOp>())
        if (failed(verifyKernelLaunchSizes(func, &info)))
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
