//===- DiagnosticOptions.h - how hk's tools print diagnostics ---*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// hk's tools report an error by its message and location; the text of the
// failing operation after it (62 lines for a one-line error, the whole
// module for a module's) is for compiler developers, who ask for it with
// --mlir-print-op-on-diagnostic. hk-compile and hk-run register the flag
// here; hk-opt has MLIR's, whose default it turns off.
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

/// Registers MLIR's context options (as mlir-opt mains do) with MLIR's
/// --mlir-print-op-on-diagnostic off by default; call before parsing the
/// command line.
void registerMLIRContextCLOptionsQuiet();

} // namespace mlir::hk

#endif // HK_TOOLS_DIAGNOSTICOPTIONS_H
