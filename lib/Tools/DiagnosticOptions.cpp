//===- DiagnosticOptions.cpp - how hk's tools print diagnostics -----------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HK/Tools/DiagnosticOptions.h"

#include <cassert>

namespace {
/// Created by registerDiagnosticCLOptions, so a tool that does not call it
/// has no such flag.
struct DiagnosticCLOptions {
  explicit DiagnosticCLOptions(llvm::cl::OptionCategory &category)
      : printOp("mlir-print-op-on-diagnostic", llvm::cl::init(false),
                llvm::cl::cat(category),
                llvm::cl::desc("print the operation after each diagnostic "
                               "about it (off: the message and location)")) {}
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
