//===- BankConflicts.h - LDS bank conflicts of a kernel ---------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The bank-conflict check behind hk-check-bank-conflicts: every fragment load
// and fill of a kernel described to the conflict model of
// HK/Target/BankConflicts.h (chip, tile layout, access).
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_ANALYSIS_BANKCONFLICTS_H
#define HK_DIALECT_HK_ANALYSIS_BANKCONFLICTS_H

#include "mlir/Support/LLVM.h"
#include "mlir/Support/LogicalResult.h"

namespace mlir {
namespace gpu {
class GPUFuncOp;
} // namespace gpu
namespace hk {

/// Reports, as a remark at each `hk.load_fragment` and `hk.copy_to_shared`
/// of `func`, the LDS conflict ways of every kind of LDS instruction it
/// lowers to (see hk-check-bank-conflicts); with `maxWays` > 0 an access
/// above it is an error instead. Fails if an access errs or cannot be
/// checked.
LogicalResult checkBankConflicts(gpu::GPUFuncOp func, unsigned maxWays);

} // namespace hk
} // namespace mlir

#endif // HK_DIALECT_HK_ANALYSIS_BANKCONFLICTS_H
