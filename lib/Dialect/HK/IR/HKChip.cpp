//===- HKChip.cpp - finding the chip of hk IR -----------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements hk::resolveChip, the one place that reads which chip
// a piece of IR is compiled for, and hk::getElementKind, which names an MLIR
// type as the target description does.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

using namespace mlir;
using namespace mlir::hk;

/// The chip named by the ROCDL targets of `module`; null without any.
static FailureOr<const ChipInfo *> chipOfGpuModule(Operation *op,
                                                   gpu::GPUModuleOp module) {
  const ChipInfo *found = nullptr;
  ArrayAttr targets = module.getTargetsAttr();
  if (!targets)
    return found;
  for (Attribute target : targets) {
    auto rocdl = dyn_cast<ROCDL::ROCDLTargetAttr>(target);
    if (!rocdl)
      continue;
    std::optional<Chip> chip = symbolizeChip(rocdl.getChip());
    if (!chip)
      return op->emitOpError()
             << "gpu.module '" << module.getName() << "' targets chip '"
             << rocdl.getChip() << "', which hk does not support (supported: "
             << describeSupportedChips() << ")";
    const ChipInfo *info = &getChipInfo(*chip);
    if (found && found != info)
      return op->emitOpError() << "hk ops need a single chip, but gpu.module '"
                               << module.getName() << "' targets "
                               << found->name << " and " << info->name;
    found = info;
  }
  return found;
}

FailureOr<const ChipInfo *> mlir::hk::resolveChip(Operation *op) {
  const ChipInfo *fromAttr = nullptr;
  for (Operation *cur = op; cur && !fromAttr; cur = cur->getParentOp())
    if (auto attr = cur->getAttrOfType<ChipAttr>(HKDialect::getChipAttrName()))
      fromAttr = &getChipInfo(attr.getValue());

  const ChipInfo *fromTarget = nullptr;
  if (auto module = op->getParentOfType<gpu::GPUModuleOp>()) {
    FailureOr<const ChipInfo *> chip = chipOfGpuModule(op, module);
    if (failed(chip))
      return failure();
    fromTarget = *chip;
  }

  if (fromAttr && fromTarget && fromAttr != fromTarget)
    return op->emitOpError()
           << "the hk.chip attribute selects " << fromAttr->name
           << " but the enclosing gpu.module targets " << fromTarget->name;
  return fromAttr ? fromAttr : fromTarget;
}

std::optional<ElementKind> mlir::hk::getElementKind(Type type) {
  if (type.isBF16())
    return ElementKind::bf16;
  if (type.isF16())
    return ElementKind::f16;
  if (type.isF32())
    return ElementKind::f32;
  if (isa<Float8E4M3FNType>(type))
    return ElementKind::f8e4m3;
  if (isa<Float8E5M2Type>(type))
    return ElementKind::f8e5m2;
  return std::nullopt;
}
