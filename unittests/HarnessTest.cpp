//===- HarnessTest.cpp - the harness called as a library ------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The workloads as another program calls them: a configuration struct in,
// a result or a RunError out, nothing printed. Pins that a GEMM runs and
// passes with settings no command line gave, that configurations and
// kernels the workload cannot serve are refused with the reason, and that
// the compiler's diagnostics come back in the error when no stream is set.
//
//===----------------------------------------------------------------------===//

#include "HK/Harness/AttentionWorkload.h"
#include "HK/Harness/GemmWorkload.h"
#include "HK/Harness/GenericRun.h"

#include "HK/InitAllDialects.h"

#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir;
using namespace mlir::hk;
using namespace mlir::hk::run;

namespace {

std::string example(const char *name) {
  return std::string(HK_SOURCE_DIR) + "/examples/" + name;
}

struct HarnessTest : ::testing::Test {
  HarnessTest() : context(makeRegistry()) {}
  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registerAllDialects(registry);
    return registry;
  }
  MLIRContext context;
};

/// The error's kind and message; fails the test when `result` holds a value.
template <typename T>
std::pair<RunError::Kind, std::string> errorOf(llvm::Expected<T> result) {
  EXPECT_FALSE(static_cast<bool>(result)) << "expected an error";
  if (result)
    return {RunError::Kind::badInput, ""};
  std::pair<RunError::Kind, std::string> got{RunError::Kind::badInput, ""};
  llvm::handleAllErrors(
      result.takeError(),
      [&](const RunError &e) {
        got = {e.kind, e.message};
      },
      [&](const llvm::ErrorInfoBase &e) {
        ADD_FAILURE() << "not a RunError: " << e.message();
      });
  return got;
}

GemmConfig smallGemm() {
  GemmConfig config;
  config.run.inputFile = example("gemm_bf16_gfx950.mlir");
  config.run.chip = Chip::gfx950;
  // One workgroup's tile with a partial K tile: the bounds path too.
  config.shape = {256, 256, 96};
  return config;
}

TEST_F(HarnessTest, GemmRunsAndPasses) {
  GemmConfig config = smallGemm();
  config.run.seed = 7;
  llvm::Expected<GemmResult> result = runGemmWorkload(context, config);
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  EXPECT_TRUE(result->passed());
  EXPECT_EQ(result->check.checked, 256 * 256);
  EXPECT_EQ(result->run.kernel, "gemm_bf16");
  EXPECT_EQ(result->run.grid, (std::array<int64_t, 3>{1, 1, 1}));
  EXPECT_GT(result->run.counters.mmas, 0u);
  EXPECT_EQ(result->run.c.size(), size_t(256 * 256 * 2));
}

TEST_F(HarnessTest, GemmCheckFindsAWrongC) {
  // The same kernel against a different seed's C is wrong: the check is
  // not one that passes anything.
  GemmConfig config = smallGemm();
  llvm::Expected<GemmResult> first = runGemmWorkload(context, config);
  ASSERT_TRUE(static_cast<bool>(first)) << llvm::toString(first.takeError());
  GemmConfig other = config;
  other.run.seed = 2;
  llvm::Expected<GemmResult> second = runGemmWorkload(context, other);
  ASSERT_TRUE(static_cast<bool>(second)) << llvm::toString(second.takeError());
  GemmInputs inputs;
  ASSERT_FALSE(
      static_cast<bool>(makeGemmInputs(config, first->problem, inputs)));
  GemmCheck check =
      checkGemm(config.run, first->problem, inputs, second->run.c, nullptr, {});
  EXPECT_GT(check.bad, 256 * 256 / 2);
  EXPECT_EQ(check.mismatches.size(), GemmCheck::kShownMismatches);
}

TEST_F(HarnessTest, BadConfigurationsAreRefused) {
  GemmConfig config = smallGemm();
  config.shape.M = 0;
  auto [kind, message] = errorOf(runGemmWorkload(context, config));
  EXPECT_EQ(kind, RunError::Kind::badInput);
  EXPECT_NE(message.find("sizes must be between 1 and 32768"),
            std::string::npos)
      << message;

  config = smallGemm();
  config.batch = 2;
  std::tie(kind, message) = errorOf(runGemmWorkload(context, config));
  EXPECT_NE(message.find("needs a batched kernel"), std::string::npos)
      << message;

  AttentionConfig attention;
  attention.run.inputFile = example("gemm_bf16_gfx950.mlir");
  attention.problem.qHeads = 3;
  attention.problem.kvHeads = 2;
  std::tie(kind, message) = errorOf(runAttentionWorkload(context, attention));
  EXPECT_NE(message.find("must be a multiple of Hkv"), std::string::npos)
      << message;
}

TEST_F(HarnessTest, KernelsThatCannotServeAreRefused) {
  AttentionConfig attention;
  attention.run.inputFile = example("gemm_bf16_gfx950.mlir");
  auto [kind, message] = errorOf(runAttentionWorkload(context, attention));
  EXPECT_EQ(kind, RunError::Kind::badInput);
  EXPECT_NE(message.find("'gemm_bf16' is not an attention kernel"),
            std::string::npos)
      << message;

  GenericConfig generic;
  generic.run.inputFile = example("gemm_bf16_gfx950.mlir");
  generic.arguments = {"random:64x64"};
  std::tie(kind, message) = errorOf(runGeneric(context, generic));
  EXPECT_NE(message.find("takes 3 arguments, --arg gives 1"), std::string::npos)
      << message;
}

TEST_F(HarnessTest, DiagnosticsComeBackInTheError) {
  // No diagnostics stream: the compiler's error is the error's message.
  GemmConfig config = smallGemm();
  config.run.chip = Chip::gfx1201;
  auto [kind, message] = errorOf(runGemmWorkload(context, config));
  EXPECT_EQ(kind, RunError::Kind::badInput);
  EXPECT_NE(message.find("targets gfx950 but the compilation is for gfx1201"),
            std::string::npos)
      << message;

  config = smallGemm();
  config.run.inputFile = example("no_such_kernel.mlir");
  std::tie(kind, message) = errorOf(runGemmWorkload(context, config));
  EXPECT_NE(message.find("could not open input file"), std::string::npos)
      << message;

  // With a stream, they go there as they arise, and the error says so.
  std::string written;
  llvm::raw_string_ostream stream(written);
  config = smallGemm();
  config.run.chip = Chip::gfx1201;
  config.run.diagnostics = &stream;
  llvm::Expected<GemmResult> result = runGemmWorkload(context, config);
  ASSERT_FALSE(static_cast<bool>(result));
  llvm::handleAllErrors(result.takeError(),
                        [&](const RunError &e) { EXPECT_TRUE(e.reported); });
  EXPECT_NE(written.find("targets gfx950"), std::string::npos) << written;
}

} // namespace
