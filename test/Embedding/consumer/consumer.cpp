//===- consumer.cpp - an out-of-tree user of the hk package ---------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Registers hk through its public entry points, parses an hk program, runs a
// registered pass pipeline on it and prints what the dialect's API says about
// its tiles and fragments on the program's chip.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/InitAllDialects.h"
#include "HK/InitAllPasses.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: hk-consumer <file.mlir>\n";
    return 2;
  }
  hk::registerAllPasses();
  DialectRegistry registry;
  hk::registerAllDialects(registry);
  MLIRContext context(registry);

  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(argv[1], &context);
  if (!module)
    return 1;

  PassManager pm(&context);
  if (failed(parsePassPipeline("builtin.module(canonicalize,cse)", pm)) ||
      failed(pm.run(*module)))
    return 1;

  WalkResult walk = module->walk([](Operation *op) {
    FailureOr<const hk::ChipInfo *> chip = hk::resolveChip(op);
    if (failed(chip))
      return WalkResult::interrupt();
    if (auto alloc = dyn_cast<hk::AllocSharedOp>(op))
      llvm::outs() << "shared tile " << alloc.getType() << ": "
                   << alloc.getType().getTotalBytes() << " bytes\n";
    if (auto mma = dyn_cast<hk::MmaOp>(op)) {
      for (Value v : {mma.getA(), mma.getB(), mma.getAcc()}) {
        auto type = cast<hk::FragmentType>(v.getType());
        llvm::outs() << "fragment " << type << " on " << (*chip)->name << ": "
                     << type.getLaneVectorType(**chip) << " per lane ("
                     << type.findInstr(**chip)->mnemonic << ")\n";
      }
    }
    return WalkResult::advance();
  });
  return walk.wasInterrupted() ? 1 : 0;
}
