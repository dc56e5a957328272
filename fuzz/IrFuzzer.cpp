//===- IrFuzzer.cpp - libFuzzer target: hk IR through the compiler --------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Any text is an hk program: parsed (after the tools' nesting check),
// verified, then, for gfx950 and gfx1201, run through hk-to-rocdl-pipeline
// (which includes hk-verify-lds). Diagnostics are expected; crashes,
// sanitizer reports and hangs are findings. One MLIRContext serves every
// input.
//
//===----------------------------------------------------------------------===//

#include "HK/InitAllDialects.h"
#include "HK/InitAllPasses.h"
#include "HK/Pipelines/Pipelines.h"
#include "HK/Tools/InputLimits.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>

using namespace mlir;

static MLIRContext &context() {
  static MLIRContext *ctx = [] {
    DialectRegistry registry;
    hk::registerAllDialects(registry);
    hk::registerAllPasses();
    auto *c = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    c->loadAllAvailableDialects();
    return c;
  }();
  return *ctx;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  if (llvm::Error tooDeep = hk::checkInputNesting(text, "input")) {
    llvm::consumeError(std::move(tooDeep));
    return 0;
  }
  MLIRContext &ctx = context();
  ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
  // MLIR's lexer needs the NUL after the buffer that a file read through
  // MemoryBuffer has (as in hk's tools) and libFuzzer's data lacks.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "input"), llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&ctx));
  if (!module || failed(verify(*module)))
    return 0;
  for (hk::Chip chip : {hk::Chip::gfx950, hk::Chip::gfx1201}) {
    OwningOpRef<ModuleOp> copy = module->clone();
    hk::HKPipelineOptions options;
    options.chip = chip;
    PassManager pm(&ctx);
    hk::buildHKToROCDLPipeline(pm, options);
    (void)pm.run(*copy);
  }
  return 0;
}
