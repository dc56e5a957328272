//===- DiagnosticOptions.h - how hk's tools print diagnostics ---*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// hk-compile and hk-run report a pass error by its message and location;
// the text of the failing operation after it (62 lines for a one-line
// error) is for compiler developers, who ask for it with
// --mlir-print-op-on-diagnostic, the flag hk-opt has too.
//
//===----------------------------------------------------------------------===//

#ifndef HK_TOOLS_DIAGNOSTICOPTIONS_H
#define HK_TOOLS_DIAGNOSTICOPTIONS_H

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"

namespace mlir::hk {

/// Registers --mlir-print-op-on-diagnostic (default off) in `category`;
/// call before parsing the command line.
void registerDiagnosticCLOptions(llvm::cl::OptionCategory &category);

/// Sets `context` to print the operation after a diagnostic only when the
/// flag asked for it.
void applyDiagnosticCLOptions(MLIRContext &context);

} // namespace mlir::hk

#endif // HK_TOOLS_DIAGNOSTICOPTIONS_H
