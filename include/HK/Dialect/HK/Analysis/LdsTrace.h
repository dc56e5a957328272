//===- LdsTrace.h - a kernel's LDS synchronisation, as events ---*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The analysis behind hk-verify-lds: runs an hk-level kernel abstractly for one
// choice of its dynamic sizes and records, for each wave group, the events
// of ScheduleWaits.h (fills, reads, uses, waits, barriers). Control flow is
// followed exactly: loop bounds, branch conditions and slot indices are
// evaluated from constants and the chosen sizes; anything the sizes do not
// determine and that decides which LDS operations run is refused, but for
// the trip count of a persistent loop over work read from memory
// (unknownTrips).
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_ANALYSIS_LDSTRACE_H
#define HK_DIALECT_HK_ANALYSIS_LDSTRACE_H

#include "HK/Dialect/HK/Utils/ScheduleWaits.h"
#include "HK/Target/Chip.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <map>

namespace mlir::hk {

/// One slot of one shared tile: what the model calls a region.
struct LdsSlot {
  Operation *alloc;
  int64_t slot;
};

/// The events of one launch, per wave group, and what they stand for.
struct LdsTrace {
  ScheduleRun groups;
  /// SyncEvent::tag -> the op (a barrier of hk.stagger: the stagger).
  std::vector<Operation *> origins;
  /// SyncEvent::region -> the slot.
  std::vector<LdsSlot> slots;
  /// SyncEvent::site -> the counts of that wait instance.
  std::vector<WaitCounts> waits;
};

/// What every run of one kernel shares, worked out on the first run.
struct LdsTraceMemo {
  /// The region ops holding LDS work; the others are skipped.
  llvm::DenseSet<Operation *> holdsSync;
  /// The ops touching LDS, waiting or synchronising in a way the model
  /// does not follow (classified once: the trace visits an op per trip).
  llvm::DenseSet<Operation *> unmodelled;
  bool scanned = false;
  /// Per copy or fragment load: its operations per lane.
  llvm::DenseMap<Operation *, int64_t> opsPerLane;
};

/// What a kernel's trace depends on.
struct LdsTraceInput {
  gpu::GPUFuncOp kernel;
  const ChipInfo *chip = nullptr;
  /// Lanes of the workgroup (known_block_size).
  int64_t threads = 0;
  /// (kernel argument, dimension) -> the extent memref.dim returns.
  std::map<std::pair<unsigned, int64_t>, int64_t> extents;
  /// Workgroup-uniform values the run fixes: gpu.block_id by dimension
  /// (0-2), integer kernel arguments by number.
  std::map<unsigned, int64_t> blockIds, scalars;
  /// Wave groups: 2 if the kernel staggers its waves, else 1.
  int groups = 1;
  /// Trips of a persistent kernel's loop over work items (stepping by the
  /// grid's workgroup count, an integer kernel argument): all of them but
  /// at most this many, or this many when its upper bound is read from
  /// memory (a count of work the sizes do not give): its LDS work must be alike
  /// in every trip (what decides it is refused as unknown otherwise), so three
  /// trips show the first, a steady one and the last.
  int64_t unknownTrips = 3;
  /// Most ops interpreted, and events recorded, per wave group before
  /// giving up (the check is quadratic in the events between a fill and
  /// the barrier publishing it).
  int64_t stepLimit = 1'000'000;
  int64_t eventLimit = 20'000;
  /// Shared by the runs of `kernel` (required).
  LdsTraceMemo *memo = nullptr;
};

/// Records the trace of `input` into `trace`; on an op the model cannot
/// follow, emits an error there and fails.
LogicalResult buildLdsTrace(const LdsTraceInput &input, LdsTrace &trace);

/// The kernel's hk.stagger, if any; fails (with an error) if it has
/// several with different wave groups, or one whose condition is not
/// provably uniform within each wave.
FailureOr<Operation *> findStagger(gpu::GPUFuncOp kernel, const ChipInfo &chip);

} // namespace mlir::hk

#endif // HK_DIALECT_HK_ANALYSIS_LDSTRACE_H
