//===- HKDialect.h - the hk dialect -----------------------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The one header to include for the hk dialect: dialect, enums, attributes,
// types and ops, plus the lookup of the chip hk IR is compiled for.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_IR_HKDIALECT_H
#define HK_DIALECT_HK_IR_HKDIALECT_H

#include "HK/Dialect/HK/Utils/Enums.h"
#include "HK/Dialect/HK/Utils/LaneLayout.h"
#include "HK/Dialect/HK/Utils/ScheduleSettings.h"
#include "HK/Dialect/HK/Utils/TileLayout.h"
#include "HK/Target/Chip.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "HK/Dialect/HK/IR/HKDialect.h.inc"

#include "HK/Dialect/HK/IR/HKEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "HK/Dialect/HK/IR/HKAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "HK/Dialect/HK/IR/HKTypes.h.inc"

namespace mlir::hk {

/// Whether an access in `bounds` masks the columns past the matrix.
inline bool masksColumns(BoundsMode bounds) {
  return bounds == BoundsMode::partial || bounds == BoundsMode::partial_chunks;
}

/// Element kind of `type`, if it is one the target description knows.
std::optional<ElementKind> getElementKind(Type type);

/// The LDS of the workgroup, as a side-effect resource.
struct SharedMemoryResource
    : public SideEffects::Resource::Base<SharedMemoryResource> {
  StringRef getName() final { return "hk.shared_memory"; }
};

/// Finds the chip `op` is compiled for: the nearest `hk.chip` attribute on
/// `op` or an ancestor, else the `#rocdl.target` of the enclosing
/// `gpu.module`. Returns null when neither is present. Fails, with an error
/// on `op`, if the chip is not one hk supports or the sources disagree. This
/// is the only place that reads the chip from IR.
FailureOr<const ChipInfo *> resolveChip(Operation *op);

/// Checks the launch sizes of `kernel`, a gpu.func: every dimension of its
/// known_block_size and known_grid_size is at least 1; with `chip` (may be
/// null), the workgroup is at most the chip's largest, is whole waves if the
/// kernel holds hk ops, and each grid dimension fits a dispatch. Emits the
/// reason, naming the kernel and the sizes, on `kernel` otherwise.
LogicalResult verifyKernelLaunchSizes(Operation *kernel, const ChipInfo *chip);

/// True if `value` is provably the same in every lane of a workgroup: it is
/// computed, by pure ops, only from constants, kernel arguments, workgroup
/// ids and sizes, `memref.dim`, `memref.load` of a kernel argument the kernel
/// only reads (a persistent kernel's work list), and induction variables
/// and carried values of loops with such bounds.
bool isWorkgroupUniform(Value value);

/// How hk treats an op as a barrier.
enum class BarrierRole {
  /// Not a barrier.
  none,
  /// Synchronises execution only (`hk.barrier`, `rocdl.s.barrier`): no
  /// memory counter is waited for.
  execution,
  /// Waits for the wave's LDS operations and synchronises the workgroup
  /// (`amdgpu.lds_barrier`, `gpu.barrier`): what publishes a filled tile in
  /// a loop written in program order.
  workgroup,
};

/// The one barrier classification of hk's verifiers, passes and analyses;
/// `none` for null.
BarrierRole classifyBarrier(Operation *op);

/// True for the barrier ops hk knows: `hk.barrier`, `amdgpu.lds_barrier`,
/// `gpu.barrier`, `rocdl.s.barrier`.
inline bool isBarrier(Operation *op) {
  return classifyBarrier(op) != BarrierRole::none;
}

/// True for a barrier of role `workgroup`.
inline bool isWorkgroupBarrier(Operation *op) {
  return classifyBarrier(op) == BarrierRole::workgroup;
}

/// Why `op` may not be inside an `hk.cluster` (at any depth), or null if it
/// may: barriers separate clusters; waits, priority changes and scheduling
/// fences go between them; clusters do not nest and hold no `hk.stagger`.
const char *whyNotInCluster(Operation *op);

/// Checks that every wave executes `barrier` alike: its enclosing control
/// flow (up to the function) is only `scf.for` with uniform bounds, `scf.if`
/// with a uniform condition and `hk.stagger`, and it is not in an
/// `hk.cluster`. Emits the reason on `barrier` otherwise.
LogicalResult verifyUniformBarrier(Operation *barrier);

} // namespace mlir::hk

#define GET_OP_CLASSES
#include "HK/Dialect/HK/IR/HKOps.h.inc"

#endif // HK_DIALECT_HK_IR_HKDIALECT_H
