//===- BackendOptions.cpp - LLVM backend options a module asks for --------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HK/Pipelines/BackendOptions.h"

#include "HK/Dialect/HK/IR/HKDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"

#include <mutex>

using namespace mlir;
using namespace mlir::hk;

/// The options asked for under `root`, by name, with the module asking.
static FailureOr<llvm::MapVector<StringRef, std::pair<StringRef, Operation *>>>
collectRequests(Operation *root) {
  llvm::MapVector<StringRef, std::pair<StringRef, Operation *>> requests;
  WalkResult walk = root->walk([&](gpu::GPUModuleOp module) {
    auto options = module->getAttrOfType<DictionaryAttr>(
        HKDialect::getBackendOptionsAttrName());
    if (!options)
      return WalkResult::advance();
    for (NamedAttribute option : options) {
      // The dialect verifier checks this; a module never verified may come.
      auto valueAttr = dyn_cast<StringAttr>(option.getValue());
      if (!valueAttr) {
        module.emitError() << "'" << HKDialect::getBackendOptionsAttrName()
                           << "' gives '" << option.getName().getValue()
                           << "' a value that is not a string";
        return WalkResult::interrupt();
      }
      StringRef value = valueAttr.getValue();
      auto [it, inserted] = requests.try_emplace(option.getName().getValue(),
                                                 std::make_pair(value, module));
      if (!inserted && it->second.first != value) {
        module.emitError() << "'" << HKDialect::getBackendOptionsAttrName()
                           << "' sets '" << option.getName().getValue()
                           << "' to \"" << value << "\", another module to \""
                           << it->second.first
                           << "\": the option is global, compile them apart";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return requests;
}

LogicalResult
mlir::hk::withBackendOptions(Operation *root,
                             function_ref<LogicalResult()> compile) {
  FailureOr<llvm::MapVector<StringRef, std::pair<StringRef, Operation *>>>
      requests = collectRequests(root);
  if (failed(requests))
    return failure();

  // The backend reads the options while it compiles: one compilation at a
  // time sees them.
  static std::mutex compiling;
  std::lock_guard<std::mutex> lock(compiling);

  auto &registered = llvm::cl::getRegisteredOptions();
  SmallVector<llvm::cl::Option *> applied;
  auto restore = llvm::make_scope_exit([&] {
    for (llvm::cl::Option *option : applied)
      option->reset();
  });
  for (auto &[name, request] : *requests) {
    auto [value, module] = request;
    auto it = registered.find(name);
    if (it == registered.end())
      return module->emitError()
             << "'" << HKDialect::getBackendOptionsAttrName() << "' names '"
             << name << "', which this LLVM's backend does not have";
    llvm::cl::Option *option = it->second;
    if (option->getNumOccurrences() > 0)
      continue; // set by the user
    applied.push_back(option);
    if (option->addOccurrence(/*pos=*/0, name, value))
      return module->emitError()
             << "'" << HKDialect::getBackendOptionsAttrName() << "' sets '"
             << name << "' to \"" << value << "\", which it does not take";
  }
  return compile();
}
