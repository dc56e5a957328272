//===- BackendOptions.cpp - backend options a module asks for -------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file sets the LLVM backend options of hk.backend_options around one
// gpu.module's compilation, and compiles a program's gpu.modules apart so
// each gets its own.
//
//===----------------------------------------------------------------------===//

#include "HK/Pipelines/BackendOptions.h"

#include "HK/Dialect/HK/IR/HKDialect.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"

#include <mutex>

using namespace mlir;
using namespace mlir::hk;

/// The error for `module`'s option `name`, starting with what names them.
static InFlightDiagnostic optionError(gpu::GPUModuleOp module, StringRef name) {
  InFlightDiagnostic diag = module.emitError();
  diag << "gpu.module '" << module.getName() << "': '"
       << HKDialect::getBackendOptionsAttrName() << "' option '" << name
       << "' ";
  return diag;
}

LogicalResult
mlir::hk::withBackendOptions(gpu::GPUModuleOp module,
                             function_ref<LogicalResult()> compile) {
  // The backend reads the options while it compiles: one compilation at a
  // time sees them. A compile calling back in would wait on itself.
  static std::mutex compiling;
  static thread_local bool inside = false;
  if (inside)
    return module.emitError("withBackendOptions called from its own compile");
  std::lock_guard<std::mutex> lock(compiling);
  inside = true;

  auto &registered = llvm::cl::getRegisteredOptions();
  SmallVector<llvm::cl::Option *> applied;
  auto restore = llvm::make_scope_exit([&] {
    // An occurrence is counted even for a value the option refuses.
    for (llvm::cl::Option *option : applied)
      option->reset();
    inside = false;
  });
  auto options = module->getAttrOfType<DictionaryAttr>(
      HKDialect::getBackendOptionsAttrName());
  for (NamedAttribute named :
       options ? options.getValue() : ArrayRef<NamedAttribute>()) {
    StringRef name = named.getName().getValue();
    // The dialect verifier checks these; a module never verified may come.
    auto value = dyn_cast<StringAttr>(named.getValue());
    if (!value)
      return optionError(module, name) << "has a value that is not a string";
    auto it = registered.find(name);
    if (!HKDialect::isBackendOptionName(name) || it == registered.end())
      return optionError(module, name)
             << "is not an AMDGPU backend option of this LLVM";
    llvm::cl::Option *option = it->second;
    if (option->getNumOccurrences() > 0)
      continue; // set by the user
    applied.push_back(option);
    if (option->addOccurrence(/*pos=*/0, name, value.getValue()))
      return optionError(module, name)
             << "does not take the value \"" << value.getValue() << "\"";
  }
  return compile();
}

LogicalResult mlir::hk::compileEachModuleApart(
    Operation *root, function_ref<LogicalResult(ModuleOp alone)> compile) {
  SmallVector<gpu::GPUModuleOp> modules;
  for (Region &region : root->getRegions())
    for (Block &block : region)
      llvm::append_range(modules, block.getOps<gpu::GPUModuleOp>());
  for (gpu::GPUModuleOp module : modules) {
    OpBuilder builder(module);
    auto alone = ModuleOp::create(builder, module.getLoc());
    module->moveBefore(alone.getBody(), alone.getBody()->end());
    LogicalResult compiled =
        withBackendOptions(module, [&] { return compile(alone); });
    for (Operation &result : llvm::make_early_inc_range(*alone.getBody()))
      result.moveBefore(alone);
    alone.erase();
    if (failed(compiled))
      return failure();
  }
  return success();
}
