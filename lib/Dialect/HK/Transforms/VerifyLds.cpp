//===- VerifyLds.cpp - prove a kernel's LDS synchronisation ---------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements hk-verify-lds, a pass over the proof of
// HK/Dialect/HK/Analysis/LdsSynchronization.h.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Analysis/LdsSynchronization.h"
#include "HK/Dialect/HK/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::hk {
#define GEN_PASS_DEF_VERIFYLDS
#include "HK/Dialect/HK/Transforms/Passes.h.inc"
} // namespace mlir::hk

using namespace mlir;
using namespace mlir::hk;

namespace {
struct VerifyLdsPass : hk::impl::VerifyLdsBase<VerifyLdsPass> {
  using VerifyLdsBase::VerifyLdsBase;

  void runOnOperation() override {
    if (multiples < 1) {
      getOperation().emitError()
          << "hk-verify-lds: multiples must be at least 1";
      return signalPassFailure();
    }
    bool failedAny = false;
    for (auto kernel : getOperation().getOps<gpu::GPUFuncOp>())
      if (kernel.isKernel() &&
          failed(verifyLdsSynchronization(kernel, multiples)))
        failedAny = true;
    if (failedAny)
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
