//===- LoopAnnotations.cpp - loop annotations into LLVM IR ----------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A kernel states an LLVM loop property on its scf.for (e.g. the MoE GEMMs'
// persistent loop: no loop-invariant code motion out of it, which would
// keep every item's epilogue addresses live across the K loop). Upstream
// scf-to-cf carries the attribute to the back edge, and cf-to-llvm keeps it
// there under its discardable name; this step gives it to the branch.
//
//===----------------------------------------------------------------------===//

#include "LoopAnnotations.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace {
/// The name scf-to-cf gives the annotation on the back edge.
constexpr StringLiteral kDiscardableName = "llvm.loop_annotation";

struct ApplyLoopAnnotations
    : PassWrapper<ApplyLoopAnnotations, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ApplyLoopAnnotations)

  StringRef getArgument() const override { return "hk-apply-loop-annotations"; }
  StringRef getDescription() const override {
    return "give a back edge's llvm.loop_annotation to its LLVM branch";
  }

  void runOnOperation() override {
    getOperation().walk([&](Operation *op) {
      auto annotation =
          op->getAttrOfType<LLVM::LoopAnnotationAttr>(kDiscardableName);
      if (!annotation)
        return;
      if (auto br = dyn_cast<LLVM::BrOp>(op))
        br.setLoopAnnotationAttr(annotation);
      else if (auto condBr = dyn_cast<LLVM::CondBrOp>(op))
        condBr.setLoopAnnotationAttr(annotation);
      else
        return;
      op->removeAttr(kDiscardableName);
    });
  }
};
} // namespace

std::unique_ptr<Pass> mlir::hk::createApplyLoopAnnotations() {
  return std::make_unique<ApplyLoopAnnotations>();
}
