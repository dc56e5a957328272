//===- CheckBankConflicts.cpp - static LDS bank conflicts -----------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements hk-check-bank-conflicts, a pass over the check of
// HK/Dialect/HK/Analysis/BankConflicts.h.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Analysis/BankConflicts.h"
#include "HK/Dialect/HK/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::hk {
#define GEN_PASS_DEF_CHECKBANKCONFLICTS
#include "HK/Dialect/HK/Transforms/Passes.h.inc"
} // namespace mlir::hk

using namespace mlir;
using namespace mlir::hk;

namespace {
struct CheckBankConflictsPass
    : hk::impl::CheckBankConflictsBase<CheckBankConflictsPass> {
  using CheckBankConflictsBase::CheckBankConflictsBase;

  void runOnOperation() override {
    bool ok = true;
    getOperation().walk([&](gpu::GPUFuncOp func) {
      ok &= succeeded(checkBankConflicts(func, maxWays));
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
