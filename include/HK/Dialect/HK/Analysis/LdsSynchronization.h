//===- LdsSynchronization.h - proof of LDS synchronisation ------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The proof behind hk-verify-lds: a kernel run abstractly (LdsTrace.h) for a
// range of its dynamic sizes, the events of each run checked against the
// dependency rules of ScheduleWaits.h.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_ANALYSIS_LDSSYNCHRONIZATION_H
#define HK_DIALECT_HK_ANALYSIS_LDSSYNCHRONIZATION_H

#include "mlir/Support/LLVM.h"
#include "mlir/Support/LogicalResult.h"

namespace mlir {
namespace gpu {
class GPUFuncOp;
} // namespace gpu
namespace hk {

/// Proves that no wave of `kernel` reads a shared-tile slot another may
/// still be writing and that no fill overwrites a slot another wave may
/// still read, for every dynamic size of the `multiples` the analysis tries
/// (hk-verify-lds); emits `LDS race` errors, or errors saying what it
/// cannot follow, and fails otherwise.
LogicalResult verifyLdsSynchronization(gpu::GPUFuncOp kernel,
                                       unsigned multiples);

} // namespace hk
} // namespace mlir

#endif // HK_DIALECT_HK_ANALYSIS_LDSSYNCHRONIZATION_H
