//===- AssemblyLoopTest.cpp - the main loop of AMDGPU assembly ------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HK/Report/AssemblyLoop.h"

#include "gtest/gtest.h"

using namespace mlir::hk;

TEST(AssemblyLoopTest, ClassifiesByMnemonicAndLdsOperand) {
  EXPECT_EQ(classifyInstruction("v_mfma_f32_16x16x32_bf16", "v[0:3], v[4:7]"),
            "mma");
  EXPECT_EQ(classifyInstruction("v_wmma_f32_16x16x16_bf16", "v[0:7]"), "mma");
  EXPECT_EQ(
      classifyInstruction("buffer_load_dwordx4", "v1, s[4:7], s2 offen lds"),
      "direct_lds_load");
  EXPECT_EQ(
      classifyInstruction("buffer_load_dwordx4", "v[0:3], v1, s[4:7], 0 offen"),
      "global_load");
  EXPECT_EQ(classifyInstruction("buffer_load_dword",
                                "v1, s[4:7], 0 offen lds sc0 nt"),
            "direct_lds_load");
  EXPECT_EQ(classifyInstruction("global_load_lds_dwordx4", "v[2:3], off"),
            "direct_lds_load");
  EXPECT_EQ(classifyInstruction("global_load_b128", "v[0:3], v[4:5], off"),
            "global_load");
  EXPECT_EQ(classifyInstruction("ds_read_b128", "v[0:3], v1"), "lds_read");
  EXPECT_EQ(classifyInstruction("ds_load_b64", "v[0:1], v1"), "lds_read");
  EXPECT_EQ(classifyInstruction("ds_store_b64", "v1, v[2:3]"), "lds_write");
  EXPECT_EQ(classifyInstruction("s_barrier_signal", "-1"), "barrier");
  EXPECT_EQ(classifyInstruction("s_waitcnt", "vmcnt(0)"), "wait");
  EXPECT_EQ(classifyInstruction("s_wait_dscnt", "0x0"), "wait");
  EXPECT_EQ(classifyInstruction("s_setprio", "1"), "setprio");
  EXPECT_EQ(classifyInstruction("s_add_i32", "s0, s1, s2"), "salu");
  EXPECT_EQ(classifyInstruction("v_add_u32_e32", "v0, v1, v2"), "valu");
  // Reductions' lane exchanges and softmax's exp2.
  EXPECT_EQ(classifyInstruction("v_permlane32_swap_b32_e32", "v1, v2"),
            "cross_lane");
  EXPECT_EQ(classifyInstruction("v_permlanex16_b32", "v1, v2, s0, s1"),
            "cross_lane");
  EXPECT_EQ(classifyInstruction("v_max_f32_dpp",
                                "v1, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf"),
            "cross_lane");
  EXPECT_EQ(
      classifyInstruction("ds_swizzle_b32", "v1, v2 offset:swizzle(SWAP,1)"),
      "cross_lane");
  EXPECT_EQ(classifyInstruction("v_exp_f32_e32", "v1, v2"), "transcendental");
}

// Two loops; the main one is the one with MMAs, spanning two blocks up to
// its last branch back, and its mix counts one pass through its lines.
static const char *kAssembly = R"(	.text
gemm:                                   ; @gemm
	s_mov_b32 s0, 0
.LBB0_1:                                ; =>This Inner Loop Header
	s_add_i32 s0, s0, 1
	s_cmp_lt_i32 s0, 4
	s_cbranch_scc1 .LBB0_1
.LBB0_2:
	ds_read_b128 v[0:3], v10
	ds_read_b128 v[4:7], v10 offset:512
	s_waitcnt lgkmcnt(0)
	v_mfma_f32_16x16x32_bf16 v[8:11], v[0:3], v[4:7], v[8:11]
	v_mfma_f32_16x16x32_bf16 v[12:15], v[0:3], v[4:7], v[12:15]
	s_barrier
	s_cbranch_vccnz .LBB0_2
; %bb.3:
	buffer_load_dwordx4 v1, s[4:7], s2 offen lds
	s_branch .LBB0_2
.LBB0_4:
	s_endpgm
)";

TEST(AssemblyLoopTest, FindsTheLoopWithTheMostMmas) {
  llvm::Expected<AssemblyLoop> loop = findMainLoop(kAssembly);
  ASSERT_TRUE(static_cast<bool>(loop)) << llvm::toString(loop.takeError());
  EXPECT_EQ(loop->header, ".LBB0_2");
  EXPECT_EQ(loop->firstLine, 8u);
  EXPECT_EQ(loop->lastLine, 18u);
  EXPECT_EQ(loop->count("mma"), 2);
  EXPECT_EQ(loop->count("lds_read"), 2);
  EXPECT_EQ(loop->mix.at("lds_read").at("ds_read_b128"), 2);
  EXPECT_EQ(loop->count("direct_lds_load"), 1);
  EXPECT_EQ(loop->count("barrier"), 1);
  EXPECT_EQ(loop->count("wait"), 1);
  EXPECT_EQ(loop->count("global_load"), 0);
  // Both branches count as SALU; labels, comments and directives do not.
  EXPECT_EQ(loop->count("salu"), 2);
  EXPECT_EQ(loop->instructions.size(), 9u);
  EXPECT_EQ(loop->instructions.front().text, "ds_read_b128 v[0:3], v10");
  EXPECT_EQ(loop->instructions.front().instrClass, "lds_read");
}

// A nest: the outer loop holds the inner one's MMAs too; the K loop is the
// inner one. A tab may separate mnemonic and operands.
TEST(AssemblyLoopTest, PicksTheInnermostOfANest) {
  llvm::Expected<AssemblyLoop> loop = findMainLoop(R"(.LBB0_1:
	s_mov_b32 s1, 0
.LBB0_2:
	v_mfma_f32_16x16x32_bf16 v[8:11], v[0:3], v[4:7], v[8:11]
	s_cbranch_scc1	.LBB0_2
	global_store_short v0, v1, s[0:1]
	s_cbranch_scc0 .LBB0_1
)");
  ASSERT_TRUE(static_cast<bool>(loop)) << llvm::toString(loop.takeError());
  EXPECT_EQ(loop->header, ".LBB0_2");
  EXPECT_EQ(loop->firstLine, 3u);
  EXPECT_EQ(loop->lastLine, 5u);
  EXPECT_EQ(loop->count("global_store"), 0);
}

// A block placed after the end of the kernel that jumps back into it is not
// a loop: nothing after the jump's target leads back to the jump.
TEST(AssemblyLoopTest, AJumpBackThatIsNoLoopIsIgnored) {
  llvm::Expected<AssemblyLoop> loop = findMainLoop(R"(	s_cbranch_scc0 .LBB0_9
.LBB0_1:
	v_mfma_f32_16x16x32_bf16 v[8:11], v[0:3], v[4:7], v[8:11]
.LBB0_2:
	v_mfma_f32_16x16x32_bf16 v[8:11], v[0:3], v[4:7], v[8:11]
	s_cbranch_scc1 .LBB0_2
	s_endpgm
.LBB0_9:
	s_mov_b32 s1, 0
	s_branch .LBB0_1
)");
  ASSERT_TRUE(static_cast<bool>(loop)) << llvm::toString(loop.takeError());
  EXPECT_EQ(loop->header, ".LBB0_2");
  EXPECT_EQ(loop->count("mma"), 1);
}

// Two loops one after the other with as many MMAs (a main loop and its
// peeled remainder): the first.
TEST(AssemblyLoopTest, PicksTheFirstOfTwoLoopsInARow) {
  llvm::Expected<AssemblyLoop> loop = findMainLoop(R"(.LBB0_1:
	v_mfma_f32_16x16x32_bf16 v[8:11], v[0:3], v[4:7], v[8:11]
	s_add_i32 s0, s0, 1
	s_add_i32 s0, s0, 1
	s_cbranch_scc1 .LBB0_1
.LBB0_2:
	v_mfma_f32_16x16x32_bf16 v[8:11], v[0:3], v[4:7], v[8:11]
	s_cbranch_scc1 .LBB0_2
)");
  ASSERT_TRUE(static_cast<bool>(loop)) << llvm::toString(loop.takeError());
  EXPECT_EQ(loop->header, ".LBB0_1");
}

TEST(AssemblyLoopTest, NoLoopWithAnMmaIsAnError) {
  llvm::Expected<AssemblyLoop> loop = findMainLoop(
      ".LBB0_1:\n\ts_add_i32 s0, s0, 1\n\ts_cbranch_scc1 .LBB0_1\n");
  ASSERT_FALSE(static_cast<bool>(loop));
  EXPECT_EQ(llvm::toString(loop.takeError()),
            "no loop with an MMA instruction in the assembly (loops: .LBB0_1)");
}

// Every loop, in the order of their headers, each with its own mix; one by
// its header, and an error naming the headers there are.
TEST(AssemblyLoopTest, ListsEveryLoopAndFindsOneByItsHeader) {
  std::vector<AssemblyLoop> loops = findLoops(kAssembly);
  ASSERT_EQ(loops.size(), 2u);
  EXPECT_EQ(loops[0].header, ".LBB0_1");
  EXPECT_EQ(loops[0].count("mma"), 0);
  EXPECT_EQ(loops[0].count("salu"), 3);
  EXPECT_EQ(loops[1].header, ".LBB0_2");
  EXPECT_EQ(loops[1].count("mma"), 2);

  llvm::Expected<AssemblyLoop> first = findLoop(loops, ".LBB0_1");
  ASSERT_TRUE(static_cast<bool>(first)) << llvm::toString(first.takeError());
  EXPECT_EQ(first->firstLine, 4u);
  EXPECT_EQ(first->lastLine, 7u);

  llvm::Expected<AssemblyLoop> none = findLoop(loops, ".LBB0_4");
  ASSERT_FALSE(static_cast<bool>(none));
  EXPECT_EQ(llvm::toString(none.takeError()),
            "no loop with header '.LBB0_4' (loops: .LBB0_1, .LBB0_2)");
  llvm::Expected<AssemblyLoop> empty =
      findLoop(findLoops("s_endpgm\n"), ".LBB0_1");
  ASSERT_FALSE(static_cast<bool>(empty));
  EXPECT_EQ(llvm::toString(empty.takeError()),
            "no loop with header '.LBB0_1' (loops: none)");
}
