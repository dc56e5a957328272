//===- HKDialect.cpp - the hk dialect -------------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the hk dialect: registration of its ops, types and
// attributes, and the verification of the discardable `hk.chip` attribute.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::hk;

#include "HK/Dialect/HK/IR/HKDialect.cpp.inc"

void HKDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "HK/Dialect/HK/IR/HKOps.cpp.inc"
      >();
  registerTypes();
  registerAttributes();
}

LogicalResult HKDialect::verifyOperationAttribute(Operation *op,
                                                  NamedAttribute attr) {
  if (attr.getName() == getChipAttrName()) {
    if (!isa<ChipAttr>(attr.getValue()))
      return op->emitError()
             << "'" << getChipAttrName()
             << "' must be a #hk.chip attribute (e.g. #hk.chip<gfx950>), got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() == getLaunchAttrName()) {
    auto launch = dyn_cast<LaunchAttr>(attr.getValue());
    if (!launch)
      return op->emitError()
             << "'" << getLaunchAttrName()
             << "' must be a #hk.launch attribute, got " << attr.getValue();
    return launch.verifyFor(op);
  }
  if (attr.getName() == getRemainderAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()) || !isa<scf::ForOp>(op))
      return op->emitError() << "'" << getRemainderAttrName()
                             << "' is a unit attribute of scf.for";
    return success();
  }
  if (attr.getName() == getScheduleAttrName()) {
    if (!isa<StringAttr>(attr.getValue()) || !isa<gpu::GPUModuleOp>(op))
      return op->emitError()
             << "'" << getScheduleAttrName()
             << "' is a string attribute of gpu.module holding pipeline "
                "options (e.g. \"stages=2 unroll=2\")";
    return success();
  }
  if (attr.getName() == getBackendOptionsAttrName()) {
    auto options = dyn_cast<DictionaryAttr>(attr.getValue());
    if (!options)
      return op->emitError()
             << "'" << getBackendOptionsAttrName()
             << "' must be a dictionary of AMDGPU backend options and their "
                "values as strings (e.g. "
                "{\"amdgpu-codegenprepare-break-large-phis\" = \"false\"}), "
                "got "
             << attr.getValue();
    if (!isa<gpu::GPUModuleOp>(op))
      return op->emitError()
             << "'" << getBackendOptionsAttrName()
             << "' belongs on a gpu.module, found on '" << op->getName() << "'";
    for (NamedAttribute option : options) {
      if (!isBackendOptionName(option.getName()))
        return op->emitError()
               << "'" << getBackendOptionsAttrName() << "' names '"
               << option.getName().getValue()
               << "', which is not an AMDGPU backend option (amdgpu-*)";
      if (!isa<StringAttr>(option.getValue()))
        return op->emitError()
               << "'" << getBackendOptionsAttrName() << "' gives '"
               << option.getName().getValue() << "' the value "
               << option.getValue() << ", which is not a string";
    }
    return success();
  }
  return op->emitError() << "unknown hk attribute '"
                         << attr.getName().getValue() << "' (hk defines '"
                         << getChipAttrName() << "', '" << getLaunchAttrName()
                         << "', '" << getRemainderAttrName() << "', '"
                         << getScheduleAttrName() << "' and '"
                         << getBackendOptionsAttrName() << "')";
}
