//===- BackendOptionsTest.cpp - backend options a module asks for ---------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// withBackendOptions sets a module's hk.backend_options for its compilation
// only and leaves alone what the user set; compileEachModuleApart gives each
// gpu.module its own.
//
//===----------------------------------------------------------------------===//

#include "HK/Pipelines/BackendOptions.h"
#include "HK/Dialect/HK/IR/HKDialect.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::hk;

namespace {

constexpr llvm::StringLiteral breakLargePhis =
    "amdgpu-codegenprepare-break-large-phis";

/// A module asking for the option's non-default value.
constexpr llvm::StringLiteral askingUnsplitPhis = R"mlir(
  gpu.module @m attributes {hk.backend_options = {
      "amdgpu-codegenprepare-break-large-phis" = "false"}} {})mlir";

/// The backend's option, a cl::opt<bool> defaulting to true.
llvm::cl::opt<bool> *breakLargePhisOption() {
  return static_cast<llvm::cl::opt<bool> *>(
      llvm::cl::getRegisteredOptions().lookup(breakLargePhis));
}

class BackendOptionsTest : public ::testing::Test {
protected:
  BackendOptionsTest() { context.loadDialect<gpu::GPUDialect, HKDialect>(); }

  void SetUp() override {
    option = breakLargePhisOption();
    ASSERT_NE(option, nullptr);
    ASSERT_TRUE(option->getValue());
    ASSERT_EQ(option->getNumOccurrences(), 0);
  }

  /// The one gpu.module of `source`.
  gpu::GPUModuleOp parseModule(StringRef source) {
    parsed = parseSourceString<ModuleOp>(source, &context);
    if (!parsed)
      return nullptr;
    return *parsed->getOps<gpu::GPUModuleOp>().begin();
  }

  /// Runs withBackendOptions on `module`; the option's value during the
  /// compilation goes to `during`, the first error's message to `message`.
  LogicalResult compile(gpu::GPUModuleOp module, bool &during) {
    ScopedDiagnosticHandler capture(&context, [&](Diagnostic &diagnostic) {
      if (message.empty())
        message = diagnostic.str();
      return success();
    });
    return withBackendOptions(module, [&] {
      during = option->getValue();
      return success();
    });
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> parsed;
  llvm::cl::opt<bool> *option = nullptr;
  std::string message;
};

TEST_F(BackendOptionsTest, SetForTheCompilationOnly) {
  gpu::GPUModuleOp module = parseModule(askingUnsplitPhis);
  ASSERT_TRUE(module);
  bool during = true;
  EXPECT_TRUE(succeeded(compile(module, during)));
  EXPECT_FALSE(during);
  EXPECT_TRUE(option->getValue());
  EXPECT_EQ(option->getNumOccurrences(), 0);
}

TEST_F(BackendOptionsTest, ResetWhenTheCompilationFails) {
  gpu::GPUModuleOp module = parseModule(askingUnsplitPhis);
  ASSERT_TRUE(module);
  EXPECT_TRUE(failed(withBackendOptions(module, [] { return failure(); })));
  EXPECT_TRUE(option->getValue());
  EXPECT_EQ(option->getNumOccurrences(), 0);
}

TEST_F(BackendOptionsTest, TheUsersValueWins) {
  gpu::GPUModuleOp module = parseModule(askingUnsplitPhis);
  ASSERT_TRUE(module);
  auto unset = llvm::make_scope_exit([&] { option->reset(); });
  ASSERT_FALSE(option->addOccurrence(0, breakLargePhis, "true"));
  bool during = false;
  EXPECT_TRUE(succeeded(compile(module, during)));
  EXPECT_TRUE(during);
  EXPECT_EQ(option->getNumOccurrences(), 1);
}

TEST_F(BackendOptionsTest, ARefusedValueLeavesTheOptionUnset) {
  gpu::GPUModuleOp module = parseModule(R"mlir(
    gpu.module @m attributes {hk.backend_options = {
        "amdgpu-codegenprepare-break-large-phis" = "maybe"}} {})mlir");
  ASSERT_TRUE(module);
  bool during = false;
  EXPECT_TRUE(failed(compile(module, during)));
  EXPECT_EQ(message, "gpu.module 'm': 'hk.backend_options' option "
                     "'amdgpu-codegenprepare-break-large-phis' does not take "
                     "the value \"maybe\"");
  EXPECT_TRUE(option->getValue());
  EXPECT_EQ(option->getNumOccurrences(), 0);
}

TEST_F(BackendOptionsTest, OnlyBackendOptionsAreSet) {
  // Built without the verifier, which would refuse them first.
  gpu::GPUModuleOp module = parseModule(askingUnsplitPhis);
  ASSERT_TRUE(module);
  Builder builder(&context);
  module->setAttr(HKDialect::getBackendOptionsAttrName(),
                  builder.getDictionaryAttr(builder.getNamedAttr(
                      "help", builder.getStringAttr("true"))));
  bool during = false;
  EXPECT_TRUE(failed(compile(module, during)));
  EXPECT_EQ(message, "gpu.module 'm': 'hk.backend_options' option 'help' is "
                     "not an AMDGPU backend option of this LLVM");

  message.clear();
  module->setAttr(HKDialect::getBackendOptionsAttrName(),
                  builder.getDictionaryAttr(builder.getNamedAttr(
                      breakLargePhis, builder.getBoolAttr(false))));
  EXPECT_TRUE(failed(compile(module, during)));
  EXPECT_EQ(message, "gpu.module 'm': 'hk.backend_options' option "
                     "'amdgpu-codegenprepare-break-large-phis' has a value "
                     "that is not a string");
}

TEST_F(BackendOptionsTest, EachModuleCompiledApartWithItsOwn) {
  OwningOpRef<ModuleOp> program = parseSourceString<ModuleOp>(R"mlir(
    gpu.module @a attributes {hk.backend_options = {
        "amdgpu-codegenprepare-break-large-phis" = "false"}} {}
    gpu.module @b {}
    module @host {})mlir",
                                                              &context);
  ASSERT_TRUE(program);
  std::vector<std::pair<std::string, bool>> seen;
  EXPECT_TRUE(succeeded(compileEachModuleApart(*program, [&](ModuleOp alone) {
    auto modules = llvm::to_vector(alone.getOps<gpu::GPUModuleOp>());
    EXPECT_EQ(alone.getBody()->getOperations().size(), 1u);
    EXPECT_EQ(modules.size(), 1u);
    if (!modules.empty())
      seen.emplace_back(modules.front().getName().str(), option->getValue());
    return success();
  })));
  EXPECT_EQ(seen, (std::vector<std::pair<std::string, bool>>{{"a", false},
                                                             {"b", true}}));
  // Back in place, in order, and nothing else left behind.
  std::vector<std::string> names;
  for (Operation &op : program->getBody()->getOperations())
    names.push_back(op.getName().getStringRef().str());
  EXPECT_EQ(names, (std::vector<std::string>{"gpu.module", "gpu.module",
                                             "builtin.module"}));
  EXPECT_TRUE(option->getValue());
}

} // namespace
