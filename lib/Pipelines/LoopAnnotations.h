//===- LoopAnnotations.h - loop annotations into LLVM IR --------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_PIPELINES_LOOPANNOTATIONS_H
#define HK_LIB_PIPELINES_LOOPANNOTATIONS_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir::hk {

/// Moves the `llvm.loop_annotation` that scf-to-cf copies from an scf.for
/// onto its back edge, and the LLVM lowering keeps as a discardable
/// attribute that translation ignores, into the llvm.br's (or
/// llvm.cond_br's) own loop_annotation, which becomes !llvm.loop.
std::unique_ptr<Pass> createApplyLoopAnnotations();

} // namespace mlir::hk

#endif // HK_LIB_PIPELINES_LOOPANNOTATIONS_H
