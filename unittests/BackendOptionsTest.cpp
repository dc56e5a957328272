//===- BackendOptionsTest.cpp - backend options a module asks for ---------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// withBackendOptions sets a module's hk.backend_options for the compilation
// only, and leaves alone what the user set.
//
//===----------------------------------------------------------------------===//

#include "HK/Pipelines/BackendOptions.h"
#include "HK/Dialect/HK/IR/HKDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
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
llvm::cl::opt<bool> &breakLargePhisOption() {
  llvm::cl::Option *option =
      llvm::cl::getRegisteredOptions().lookup(breakLargePhis);
  EXPECT_NE(option, nullptr);
  return *static_cast<llvm::cl::opt<bool> *>(option);
}

class BackendOptionsTest : public ::testing::Test {
protected:
  BackendOptionsTest() { context.loadDialect<gpu::GPUDialect, HKDialect>(); }

  OwningOpRef<ModuleOp> parse(StringRef source) {
    return parseSourceString<ModuleOp>(source, &context);
  }

  MLIRContext context;
};

TEST_F(BackendOptionsTest, SetForTheCompilationOnly) {
  OwningOpRef<ModuleOp> module = parse(askingUnsplitPhis);
  ASSERT_TRUE(module);
  llvm::cl::opt<bool> &option = breakLargePhisOption();
  ASSERT_TRUE(option.getValue());
  bool during = true;
  EXPECT_TRUE(succeeded(withBackendOptions(*module, [&] {
    during = option.getValue();
    return success();
  })));
  EXPECT_FALSE(during);
  EXPECT_TRUE(option.getValue());
  EXPECT_EQ(option.getNumOccurrences(), 0);
}

TEST_F(BackendOptionsTest, RestoredWhenTheCompilationFails) {
  OwningOpRef<ModuleOp> module = parse(askingUnsplitPhis);
  ASSERT_TRUE(module);
  EXPECT_TRUE(failed(withBackendOptions(*module, [] { return failure(); })));
  EXPECT_TRUE(breakLargePhisOption().getValue());
}

TEST_F(BackendOptionsTest, TheUsersValueWins) {
  OwningOpRef<ModuleOp> module = parse(askingUnsplitPhis);
  ASSERT_TRUE(module);
  llvm::cl::opt<bool> &option = breakLargePhisOption();
  ASSERT_FALSE(option.addOccurrence(0, breakLargePhis, "true"));
  bool during = false;
  EXPECT_TRUE(succeeded(withBackendOptions(*module, [&] {
    during = option.getValue();
    return success();
  })));
  EXPECT_TRUE(during);
  EXPECT_EQ(option.getNumOccurrences(), 1);
  option.reset();
}

TEST_F(BackendOptionsTest, ModulesAskingDifferentValuesAreRefused) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    gpu.module @a attributes {hk.backend_options = {
        "amdgpu-codegenprepare-break-large-phis" = "false"}} {}
    gpu.module @b attributes {hk.backend_options = {
        "amdgpu-codegenprepare-break-large-phis" = "true"}} {})mlir");
  ASSERT_TRUE(module);
  std::string message;
  ScopedDiagnosticHandler capture(&context, [&](Diagnostic &diagnostic) {
    message = diagnostic.str();
    return success();
  });
  bool compiled = false;
  EXPECT_TRUE(failed(withBackendOptions(*module, [&] {
    compiled = true;
    return success();
  })));
  EXPECT_FALSE(compiled);
  EXPECT_EQ(message,
            "'hk.backend_options' sets "
            "'amdgpu-codegenprepare-break-large-phis' to \"true\", another "
            "module to \"false\": the option is global, compile them apart");
}

TEST_F(BackendOptionsTest, AValueThatIsNotAStringIsRefused) {
  // Built without the verifier, which would refuse it first.
  OwningOpRef<ModuleOp> module = parse(askingUnsplitPhis);
  ASSERT_TRUE(module);
  Builder builder(&context);
  module->walk([&](gpu::GPUModuleOp gpuModule) {
    gpuModule->setAttr(HKDialect::getBackendOptionsAttrName(),
                       builder.getDictionaryAttr(builder.getNamedAttr(
                           breakLargePhis, builder.getBoolAttr(false))));
  });
  std::string message;
  ScopedDiagnosticHandler capture(&context, [&](Diagnostic &diagnostic) {
    message = diagnostic.str();
    return success();
  });
  EXPECT_TRUE(failed(withBackendOptions(*module, [] { return success(); })));
  EXPECT_EQ(message, "'hk.backend_options' gives "
                     "'amdgpu-codegenprepare-break-large-phis' a value that "
                     "is not a string");
}

} // namespace
