//===- DiagnosticOptions.cpp - how hk's tools print diagnostics -----------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HK/Tools/DiagnosticOptions.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <cassert>

/// What --mlir-print-op-on-diagnostic says in --help, with either owner.
static constexpr llvm::StringLiteral printOpDescription =
    "print the operation after each diagnostic about it (off: the message "
    "and location)";

namespace {
/// Created by registerDiagnosticCLOptions, so a tool that does not call it
/// has no such flag.
struct DiagnosticCLOptions {
  explicit DiagnosticCLOptions(llvm::cl::OptionCategory &category)
      : printOp("mlir-print-op-on-diagnostic", llvm::cl::init(false),
                llvm::cl::cat(category), llvm::cl::desc(printOpDescription)) {}
  llvm::cl::opt<bool> printOp;
};
} // namespace

static DiagnosticCLOptions *options = nullptr;

void mlir::hk::registerDiagnosticCLOptions(llvm::cl::OptionCategory &category) {
  static DiagnosticCLOptions registered(category);
  options = &registered;
}

void mlir::hk::applyDiagnosticCLOptions(MLIRContext &context) {
  assert(options && "registerDiagnosticCLOptions was not called");
  context.printOpOnDiagnostic(options->printOp);
}

void mlir::hk::registerMLIRContextCLOptionsQuiet() {
  mlir::registerMLIRContextCLOptions();
  // MLIR's flag defaults to on (MLIRContext.cpp), and MlirOptMain's context
  // takes its value: set the default before the command line is parsed.
  llvm::DenseMap<llvm::StringRef, llvm::cl::Option *> &registered =
      llvm::cl::getRegisteredOptions();
  auto it = registered.find("mlir-print-op-on-diagnostic");
  if (it == registered.end())
    return;
  auto *printOp = static_cast<llvm::cl::opt<bool> *>(it->second);
  printOp->setInitialValue(false);
  printOp->setDescription(printOpDescription);
}
