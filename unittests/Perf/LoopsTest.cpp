//===- LoopsTest.cpp - finding a decoded kernel's loops -------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// hk-perf's kernel mode finds loops by branch targets (lib/Perf/Loops.cpp):
// a nest and a loop after it, which is the main one (most matrix
// instructions, the innermost of equals), the body cut out with its branch
// retargeted, and the ping-pong's staggered entry (a conditional branch
// skipping an s_barrier before the loop).
//
//===----------------------------------------------------------------------===//

#include "HK/Perf/Loops.h"

#include "ParseGfx950.h"

#include "llvm/Support/Error.h"

#include "gtest/gtest.h"

using namespace mlir::hk;
using namespace mlir::hk::perf;

namespace {

using test::parse;

// Indices: 0 s_cbranch_scc1 (skips 1), 1 s_barrier, then .outer at 2:
// 2 s_add; .inner at 3: 3 mfma, 4 mfma, 5 s_cbranch_scc1 .inner;
// 6 s_cbranch_scc1 .outer; .tail at 7: 7 mfma, 8 s_cbranch_scc1 .tail;
// 9 s_endpgm.
constexpr llvm::StringLiteral kernel = R"(
  s_cbranch_scc1 .outer
  s_barrier
.outer:
  s_add_u32 s0, s0, 1
.inner:
  v_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[0:3]
  v_mfma_f32_16x16x32_bf16 v[12:15], v[4:7], v[8:11], v[12:15]
  s_cbranch_scc1 .inner
  s_cbranch_scc1 .outer
.tail:
  v_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[0:3]
  s_cbranch_scc1 .tail
  s_endpgm
)";

TEST(LoopsTest, FindsEachLoopByItsBackEdge) {
  isa::InstructionStream stream = parse(kernel);
  std::vector<StreamLoop> loops = findStreamLoops(stream);
  ASSERT_EQ(loops.size(), 3u);
  EXPECT_EQ(loops[0].name, ".outer");
  EXPECT_EQ(loops[0].header, 2u);
  EXPECT_EQ(loops[0].backEdge, 6u);
  EXPECT_EQ(loops[0].matrixInstructions, 2u);
  EXPECT_EQ(loops[1].name, ".inner");
  EXPECT_EQ(loops[1].size(), 3u);
  EXPECT_EQ(loops[2].name, ".tail");
  EXPECT_EQ(loops[2].matrixInstructions, 1u);
  EXPECT_EQ(describeStreamLoops(loops),
            ".outer (2 matrix), .inner (2 matrix), .tail (1 matrix)");
}

TEST(LoopsTest, MainLoopIsTheInnermostOfTheMostMatrixWork) {
  isa::InstructionStream stream = parse(kernel);
  std::vector<StreamLoop> loops = findStreamLoops(stream);
  llvm::Expected<StreamLoop> main = findMainStreamLoop(loops);
  ASSERT_TRUE(static_cast<bool>(main)) << llvm::toString(main.takeError());
  EXPECT_EQ(main->name, ".inner");
  llvm::Expected<StreamLoop> tail = findStreamLoop(loops, ".tail");
  ASSERT_TRUE(static_cast<bool>(tail));
  EXPECT_EQ(tail->header, 7u);
  llvm::Expected<StreamLoop> none = findStreamLoop(loops, ".nope");
  ASSERT_FALSE(static_cast<bool>(none));
  EXPECT_EQ(llvm::toString(none.takeError()),
            "no loop '.nope' (loops: .outer (2 matrix), .inner (2 matrix), "
            ".tail (1 matrix))");
}

TEST(LoopsTest, NoMatrixLoopIsAnError) {
  isa::InstructionStream stream =
      parse(".l:\n  s_add_u32 s0, s0, 1\n  s_cbranch_scc1 .l\n  s_endpgm\n");
  llvm::Expected<StreamLoop> main = findMainStreamLoop(findStreamLoops(stream));
  ASSERT_FALSE(static_cast<bool>(main));
  EXPECT_EQ(llvm::toString(main.takeError()),
            "no loop with a matrix instruction (loops: .l (0 matrix))");
}

TEST(LoopsTest, ExtractedBodyBranchesToItself) {
  isa::InstructionStream stream = parse(kernel);
  std::vector<StreamLoop> loops = findStreamLoops(stream);
  isa::InstructionStream body = extractLoop(stream, loops[1]);
  ASSERT_EQ(body.instructions.size(), 3u);
  EXPECT_EQ(body.instructions[0].cls, isa::InstrClass::Matrix);
  ASSERT_TRUE(body.instructions[2].branchTarget.has_value());
  EXPECT_EQ(*body.instructions[2].branchTarget, 0u);
  // The outer loop's body keeps its own back-edge and the inner one's.
  isa::InstructionStream outer = extractLoop(stream, loops[0]);
  ASSERT_EQ(outer.instructions.size(), 5u);
  EXPECT_EQ(*outer.instructions[3].branchTarget, 1u);
  EXPECT_EQ(*outer.instructions[4].branchTarget, 0u);
}

TEST(LoopsTest, StaggeredEntrySkipsABarrier) {
  isa::InstructionStream stream = parse(kernel);
  std::vector<StreamLoop> loops = findStreamLoops(stream);
  // .outer is entered past the skipped barrier; .tail's entry skips none.
  EXPECT_TRUE(entersStaggered(stream, loops[0]));
  isa::InstructionStream plain =
      parse(".l:\n  v_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], "
            "v[0:3]\n  s_cbranch_scc1 .l\n  s_endpgm\n");
  EXPECT_FALSE(entersStaggered(plain, findStreamLoops(plain)[0]));
}

} // namespace
