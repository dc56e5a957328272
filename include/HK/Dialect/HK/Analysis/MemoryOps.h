//===- MemoryOps.h - memory operations per lane of hk ops -------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The memory operations one lane issues for an hk op, counted on the
// hardware counter that completes them, as the op's lowering emits them:
// what a wait count (vmcnt, lgkmcnt) is measured in. The ping-pong planner
// and hk-verify-lds both count with these.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_ANALYSIS_MEMORYOPS_H
#define HK_DIALECT_HK_ANALYSIS_MEMORYOPS_H

#include "HK/Dialect/HK/IR/HKDialect.h"

namespace mlir::hk {

/// LDS operations (lgkmcnt) one lane issues for `load` on `chip`.
FailureOr<int64_t> countFragmentReadsPerLane(LoadFragmentOp load,
                                             const ChipInfo &chip);

/// The LDS writes a lane issues for `store` (lgkmcnt).
FailureOr<int64_t> countFragmentWritesPerLane(StoreSharedOp store,
                                              const ChipInfo &chip);

/// Memory operations one lane issues for `copy` in a workgroup of
/// `threads`, on the counter that completes its LDS writes: direct-to-LDS
/// loads (vmcnt) for a direct copy, LDS stores (lgkmcnt) otherwise.
FailureOr<int64_t> countFillOpsPerLane(CopyToSharedOp copy, int64_t threads);

/// Vector-memory loads (vmcnt) one lane surely issues for `read` on `chip`:
/// one per element of its lane vector for a matrix read with `bounds
/// partial` or `partial_rows` (a buffer load per element, each at its own
/// offset; block scales: one per word of row scales with `partial_rows`,
/// one per scale with `partial`) that an MMA uses (so the backend keeps
/// it); none otherwise, as the
/// backend may merge, reuse or drop plain or unused loads. A wait
/// that counts fewer operations than a wave issues only completes more, so
/// counting too few is safe and counting too many is not.
FailureOr<int64_t> countRegisterLoadsPerLane(ReadFragmentOp read,
                                             const ChipInfo &chip);

} // namespace mlir::hk

#endif // HK_DIALECT_HK_ANALYSIS_MEMORYOPS_H
