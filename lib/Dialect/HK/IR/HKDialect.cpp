//===- HKDialect.cpp - the hk dialect -------------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the hk dialect: registration of its ops, types and
// attributes, the verification of its discardable attributes and of the
// launch sizes of the kernels it compiles.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

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

/// Whether `kernel` holds an op of the hk dialect.
static bool holdsHKOps(gpu::GPUFuncOp kernel) {
  return kernel
      .walk([](Operation *op) {
        return op->getName().getDialectNamespace() ==
                       HKDialect::getDialectNamespace()
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Appends `sizes` to `diag` as `[x, y, z]`.
static InFlightDiagnostic appendSizes(InFlightDiagnostic diag,
                                      ArrayRef<int32_t> sizes) {
  diag << "[";
  llvm::interleaveComma(sizes, diag);
  diag << "]";
  return diag;
}

LogicalResult mlir::hk::verifyKernelLaunchSizes(Operation *op,
                                                const ChipInfo *chip) {
  auto kernel = dyn_cast<gpu::GPUFuncOp>(op);
  if (!kernel)
    return success();
  std::optional<ArrayRef<int32_t>> block = kernel.getKnownBlockSize();
  std::optional<ArrayRef<int32_t>> grid = kernel.getKnownGridSize();
  // "kernel 'k' has known_block_size = [x, y, z]", to go on.
  auto error = [&](StringRef name, ArrayRef<int32_t> sizes) {
    return appendSizes(kernel.emitError()
                           << (kernel.isKernel() ? "kernel '" : "gpu.func '")
                           << kernel.getName() << "' has " << name << " = ",
                       sizes);
  };
  auto isPositive = [](int32_t size) { return size >= 1; };
  if (block && !llvm::all_of(*block, isPositive))
    return error("known_block_size", *block)
           << ": every dimension must be at least 1";
  if (grid && !llvm::all_of(*grid, isPositive))
    return error("known_grid_size", *grid)
           << ": every dimension must be at least 1";
  if (!chip || !block)
    return success();
  int64_t lanes = 1;
  for (int32_t size : *block)
    lanes *= size;
  if (lanes > chip->maxWorkgroupSize)
    return error("known_block_size", *block)
           << ", " << lanes << " lanes: " << chip->name
           << " runs workgroups of at most " << chip->maxWorkgroupSize;
  // hk ops work on whole waves: fragments, copies and schedules count lanes
  // per wave.
  if (lanes % chip->waveSize != 0 && holdsHKOps(kernel))
    return error("known_block_size", *block)
           << ", " << lanes << " lanes: its hk ops need whole waves, a "
           << "multiple of " << chip->name << "'s wave size " << chip->waveSize;
  // A dispatch gives its grid in lanes as 32-bit numbers
  // (docs/Hardware.md#targets).
  for (size_t d = 0; grid && d < std::min(grid->size(), block->size()); ++d) {
    int64_t gridLanes = int64_t((*grid)[d]) * (*block)[d];
    if (gridLanes > std::numeric_limits<uint32_t>::max())
      return appendSizes(error("known_grid_size", *grid)
                             << " with known_block_size = ",
                         *block)
             << ": dimension "
             << "xyz"[d] << " launches " << gridLanes
             << " lanes, more than a dispatch's "
             << std::numeric_limits<uint32_t>::max();
  }
  return success();
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
    if (failed(launch.verifyFor(op)))
      return failure();
    FailureOr<const ChipInfo *> chip = resolveChip(op);
    return failure(failed(chip) || failed(verifyKernelLaunchSizes(op, *chip)));
  }
  if (attr.getName() == getRemainderAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()) || !isa<scf::ForOp>(op))
      return op->emitError() << "'" << getRemainderAttrName()
                             << "' is a unit attribute of scf.for";
    return success();
  }
  if (attr.getName() == getScheduleAttrName()) {
    if (!isa<ScheduleAttr>(attr.getValue()) || !isa<gpu::GPUModuleOp>(op))
      return op->emitError()
             << "'" << getScheduleAttrName()
             << "' is a #hk.schedule attribute of gpu.module "
                "(e.g. #hk.schedule<stages = 2, unroll = 2>), "
                "got "
             << attr.getValue() << " on '" << op->getName() << "'";
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
