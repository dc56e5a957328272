//===- MathLowering.cpp - math without ROCm's device libraries ------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the steps around convert-gpu-to-rocdl that keep
// kernels free of ROCm's device libraries: upstream's rsqrt expansion, and a
// check that names the op behind any device-library call that is left
// (otherwise serialization fails naming a bitcode path that is not there).
// An op is tagged with its name in a fused location before the conversion,
// since the call it becomes keeps only its location.
//
//===----------------------------------------------------------------------===//

#include "MathLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::hk;

/// The key of the fused-location metadata that names an op.
static constexpr StringLiteral kLoweredFrom = "hk.lowered_from";

/// Whether upstream may lower `op` to a device-library call: math ops
/// (`__ocml_*`), `arith.remf` (`__ocml_fmod_*`), block and grid sizes the
/// kernel does not fix (`__ockl_*`).
static bool mayNeedDeviceLibraries(Operation *op) {
  return isa<math::MathDialect>(op->getDialect()) ||
         isa<arith::RemFOp, gpu::BlockDimOp, gpu::GridDimOp>(op);
}

/// The op name a location of createPrepareMathLowering carries, and the
/// location it wraps.
static std::optional<std::pair<StringRef, Location>> taggedOp(Location loc) {
  auto fused = dyn_cast<FusedLoc>(loc);
  auto metadata = fused ? dyn_cast_or_null<DictionaryAttr>(fused.getMetadata())
                        : DictionaryAttr();
  auto name = metadata ? metadata.getAs<StringAttr>(kLoweredFrom) : nullptr;
  if (!name || fused.getLocations().size() != 1)
    return std::nullopt;
  return std::make_pair(name.getValue(), fused.getLocations().front());
}

/// Whether `name` is a function of ROCm's device libraries.
static bool isDeviceLibraryFunction(StringRef name) {
  return name.starts_with("__ocml_") || name.starts_with("__ockl_");
}

namespace {
struct PrepareMathLowering
    : PassWrapper<PrepareMathLowering, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PrepareMathLowering)

  StringRef getArgument() const override { return "hk-prepare-math-lowering"; }
  StringRef getDescription() const override {
    return "expand math.rsqrt and tag ops that may need device libraries";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, math::MathDialect>();
  }

  void runOnOperation() override {
    // One walk, no folding: the rest of the IR stays as it was.
    RewritePatternSet patterns(&getContext());
    math::populateExpansionPatterns(patterns, {"rsqrt"});
    walkAndApplyPatterns(getOperation(), std::move(patterns));
    getOperation().walk([](Operation *op) {
      if (!mayNeedDeviceLibraries(op))
        return;
      MLIRContext *ctx = op->getContext();
      auto name = NamedAttribute(StringAttr::get(ctx, kLoweredFrom),
                                 op->getName().getIdentifier());
      op->setLoc(
          FusedLoc::get({op->getLoc()}, DictionaryAttr::get(ctx, name), ctx));
    });
  }
};

struct CheckDeviceLibraryCalls
    : PassWrapper<CheckDeviceLibraryCalls, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckDeviceLibraryCalls)

  explicit CheckDeviceLibraryCalls(std::string chip) : chip(std::move(chip)) {}

  StringRef getArgument() const override {
    return "hk-check-device-library-calls";
  }
  StringRef getDescription() const override {
    return "refuse calls of ROCm's device libraries at the op they came from";
  }

  void runOnOperation() override {
    // One error per op and function (a vector op calls once per element).
    llvm::DenseSet<std::pair<Location, StringRef>> refused;
    getOperation().walk([&](LLVM::CallOp call) {
      std::optional<StringRef> callee = call.getCallee();
      if (!callee || !isDeviceLibraryFunction(*callee) ||
          !refused.insert({call.getLoc(), *callee}).second)
        return;
      std::optional<std::pair<StringRef, Location>> tag =
          taggedOp(call.getLoc());
      InFlightDiagnostic diag = emitError(tag ? tag->second : call.getLoc());
      if (tag)
        diag << "'" << tag->first << "' op lowers to '" << *callee << "'";
      else
        diag << "call of '" << *callee << "'";
      diag << " of ROCm's device libraries on " << chip
           << ", which hk does not link";
    });
    // The tags have served: the ops keep their own locations.
    getOperation().walk([](Operation *op) {
      if (auto tag = taggedOp(op->getLoc()))
        op->setLoc(tag->second);
    });
    if (!refused.empty())
      signalPassFailure();
  }

  std::string chip;
};
} // namespace

std::unique_ptr<Pass> mlir::hk::createPrepareMathLowering() {
  return std::make_unique<PrepareMathLowering>();
}

std::unique_ptr<Pass>
mlir::hk::createCheckDeviceLibraryCalls(std::string chip) {
  return std::make_unique<CheckDeviceLibraryCalls>(std::move(chip));
}
