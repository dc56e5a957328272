//===- MoeTest.cpp - the MoE workload's routing and contract --------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The MoE GEMM workload's parts a run cannot show: the contiguous order
// derived from the tokens' choices (sorted by expert, stable by token then
// choice; the offsets, empty experts), the gathered form's index (padding
// entries, whole tiles, expert_ids per tile, empty experts without tiles),
// the routings' properties, the kernel name's tokens and argument lists, the
// tile height a gathered kernel declares, the combine form's routing
// weights (a softmax per token, sorted_weights aligned with the entries)
// and arguments, and the workload called as a library.
//
//===----------------------------------------------------------------------===//

#include "HK/Harness/MoeWorkload.h"

#include "HK/InitAllDialects.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <set>
#include <string>

using namespace mlir;
using namespace mlir::hk;
using namespace mlir::hk::run;

namespace {

TEST(MoeRouting, ContiguousOrderIsStableByTokenThenChoice) {
  MoeRouting routing;
  routing.experts = 4;
  routing.tokens = 3;
  routing.topk = 2;
  // Token 0 chooses experts 2 then 0, token 1 0 then 2, token 2 3 then 2.
  routing.choices = {2, 0, 0, 2, 3, 2};
  sortSlotsByExpert(routing);
  EXPECT_EQ(routing.offsets, (std::vector<int32_t>{0, 2, 2, 5, 6}));
  EXPECT_EQ(routing.slotToken, (std::vector<int32_t>{0, 1, 0, 1, 2, 2}));
  EXPECT_EQ(routing.slotChoice, (std::vector<int32_t>{1, 0, 0, 1, 1, 0}));
  EXPECT_EQ(routing.rowsOf(1), 0);
  // Expert 1 is empty: row 2 is expert 2's first.
  std::vector<int64_t> experts;
  for (int64_t row = 0; row < routing.rows(); ++row)
    experts.push_back(routing.expertOf(row));
  EXPECT_EQ(experts, (std::vector<int64_t>{0, 0, 2, 2, 2, 3}));
}

TEST(MoeAlignment, PadsEachExpertToWholeTiles) {
  MoeRouting routing;
  routing.experts = 4;
  routing.tokens = 3;
  routing.topk = 2;
  // Slots 0..5: experts 2, 0, 0, 2, 3, 2; expert 1 has none.
  routing.choices = {2, 0, 0, 2, 3, 2};
  sortSlotsByExpert(routing);
  // Padding entries are T topk = 6; expert 1 gets no entries.
  MoeAlignment four = alignMoeRouting(routing, 4);
  EXPECT_EQ(four.blockM, 4);
  EXPECT_EQ(four.sortedTokenIds,
            (std::vector<int32_t>{1, 2, 6, 6, 0, 3, 5, 6, 4, 6, 6, 6}));
  EXPECT_EQ(four.expertIds, (std::vector<int32_t>{0, 2, 3}));
  EXPECT_EQ(four.entries(), 12);
  EXPECT_EQ(four.tiles(), 3);
  // Expert 2's three slots take two tiles of 2.
  MoeAlignment two = alignMoeRouting(routing, 2);
  EXPECT_EQ(two.sortedTokenIds, (std::vector<int32_t>{1, 2, 0, 3, 5, 6, 4, 6}));
  EXPECT_EQ(two.expertIds, (std::vector<int32_t>{0, 2, 2, 3}));
  // Tiles of one entry: the slots sorted by expert, no padding.
  MoeAlignment one = alignMoeRouting(routing, 1);
  EXPECT_EQ(one.sortedTokenIds, (std::vector<int32_t>{1, 2, 0, 3, 5, 4}));
  EXPECT_EQ(one.expertIds, (std::vector<int32_t>{0, 0, 2, 2, 2, 3}));
}

TEST(MoeAlignment, EverySlotOnceInItsExpertsTiles) {
  MoeSizes sizes{/*experts=*/32, 8, 8, /*tokens=*/100, /*topk=*/3};
  llvm::Expected<MoeRouting> routing =
      makeMoeRouting(MoeRoutingKind::skewed, "", sizes, 7);
  ASSERT_TRUE(static_cast<bool>(routing))
      << llvm::toString(routing.takeError());
  const int64_t blockM = 16, padding = sizes.rows();
  MoeAlignment a = alignMoeRouting(*routing, blockM);
  ASSERT_EQ(a.entries() % blockM, 0);
  ASSERT_EQ(a.tiles(), a.entries() / blockM);
  std::vector<int> seen(sizes.rows(), 0);
  std::vector<int64_t> tilesOf(sizes.experts, 0);
  // The last slot of the expert being read, and whether its padding began.
  int32_t previous = -1;
  bool padded = false;
  for (int64_t tile = 0; tile < a.tiles(); ++tile) {
    int32_t expert = a.expertIds[tile];
    ASSERT_GE(expert, 0);
    ASSERT_LT(expert, sizes.experts);
    // Experts in order, each with its tiles together.
    if (tile == 0 || a.expertIds[tile - 1] != expert) {
      if (tile > 0) {
        EXPECT_LT(a.expertIds[tile - 1], expert);
      }
      previous = -1;
      padded = false;
    }
    ++tilesOf[expert];
    for (int64_t i = tile * blockM; i < (tile + 1) * blockM; ++i) {
      int32_t slot = a.sortedTokenIds[i];
      if (slot == padding) {
        padded = true;
        continue;
      }
      // Ascending slots, then padding to the end of the expert's tiles.
      EXPECT_FALSE(padded) << "slot " << slot << " after padding at " << i;
      ASSERT_GE(slot, 0);
      ASSERT_LT(slot, padding);
      EXPECT_EQ(routing->choices[slot], expert) << "entry " << i;
      EXPECT_LT(previous, slot) << "entry " << i;
      previous = slot;
      ++seen[slot];
    }
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), sizes.rows());
  // ceil(rows / BM) tiles per expert: none for an empty one.
  int64_t empty = 0;
  for (int64_t e = 0; e < sizes.experts; ++e) {
    EXPECT_EQ(tilesOf[e], (routing->rowsOf(e) + blockM - 1) / blockM);
    empty += routing->rowsOf(e) == 0;
  }
  EXPECT_GT(empty, 0) << "the skewed routing leaves late experts empty";
}

/// The rows each expert gets, checking that every token's choices are
/// distinct experts in range.
std::vector<int64_t> rowsPerExpert(const MoeRouting &routing) {
  for (int64_t t = 0; t < routing.tokens; ++t) {
    std::set<int32_t> chosen;
    for (int64_t c = 0; c < routing.topk; ++c) {
      int32_t e = routing.choices[t * routing.topk + c];
      EXPECT_GE(e, 0);
      EXPECT_LT(e, routing.experts);
      EXPECT_TRUE(chosen.insert(e).second) << "token " << t << " repeats " << e;
    }
  }
  std::vector<int64_t> rows;
  for (int64_t e = 0; e < routing.experts; ++e)
    rows.push_back(routing.rowsOf(e));
  return rows;
}

TEST(MoeRouting, RandomIsDistinctAndSpread) {
  MoeSizes sizes{/*experts=*/16, 8, 8, /*tokens=*/512, /*topk=*/4};
  llvm::Expected<MoeRouting> routing =
      makeMoeRouting(MoeRoutingKind::random, "", sizes, 1);
  ASSERT_TRUE(static_cast<bool>(routing))
      << llvm::toString(routing.takeError());
  // 128 rows per expert on average: none is far off.
  for (int64_t rows : rowsPerExpert(*routing)) {
    EXPECT_GT(rows, 64);
    EXPECT_LT(rows, 192);
  }
  EXPECT_EQ(routing->offsets.back(), 512 * 4);
}

TEST(MoeRouting, SkewedFavoursEarlyExperts) {
  MoeSizes sizes{/*experts=*/64, 8, 8, /*tokens=*/64, /*topk=*/2};
  llvm::Expected<MoeRouting> routing =
      makeMoeRouting(MoeRoutingKind::skewed, "", sizes, 1);
  ASSERT_TRUE(static_cast<bool>(routing))
      << llvm::toString(routing.takeError());
  std::vector<int64_t> rows = rowsPerExpert(*routing);
  // Expert 0 has weight 1 of H_64 ~ 4.7 (about 27 of the 128 slots), the
  // last 32 together about 0.69 of it.
  int64_t late = 0;
  for (int64_t e = 32; e < 64; ++e)
    late += rows[e];
  EXPECT_GT(rows[0], 12);
  EXPECT_LT(late, rows[0] + rows[1]);
  EXPECT_GT(std::count(rows.begin(), rows.end(), 0), 10);
}

TEST(MoeRouting, OneExpertTakesTheFirstTopk) {
  MoeSizes sizes{/*experts=*/5, 8, 8, /*tokens=*/7, /*topk=*/2};
  llvm::Expected<MoeRouting> routing =
      makeMoeRouting(MoeRoutingKind::oneExpert, "", sizes, 1);
  ASSERT_TRUE(static_cast<bool>(routing))
      << llvm::toString(routing.takeError());
  EXPECT_EQ(routing->offsets, (std::vector<int32_t>{0, 7, 14, 14, 14, 14}));
}

TEST(MoeSignature, NameTokensSayWhatTheKernelTakes) {
  MLIRContext context;
  Builder b(&context);
  Type f8 = b.getType<Float8E4M3FNType>(),
       e8m0 = b.getType<Float8E8M0FNUType>();
  auto memref = [&](int64_t rank, Type element) -> Type {
    return MemRefType::get(SmallVector<int64_t>(rank, ShapedType::kDynamic),
                           element);
  };
  SmallVector<Type> mx = {memref(2, f8),
                          memref(3, f8),
                          memref(2, b.getF32Type()),
                          memref(1, b.getI32Type()),
                          memref(2, e8m0),
                          memref(3, e8m0),
                          b.getI32Type()};
  llvm::Expected<MoeSignature> s = readMoeSignature(
      "moe_gemm_mxfp8_8wave_cf32_contiguous_gated", mx, Fp8Format::e5m2);
  ASSERT_TRUE(static_cast<bool>(s)) << llvm::toString(s.takeError());
  EXPECT_TRUE(s->blockScales);
  EXPECT_EQ(s->waves, 8);
  EXPECT_EQ(s->cElement, ElementKind::f32);
  EXPECT_EQ(s->epilogue, MoeEpilogue::gated);
  // --dtype reads the fp8 types as it says.
  EXPECT_EQ(s->abElement, ElementKind::f8e5m2);
  EXPECT_EQ(s->workgroupsArg(), 6u);

  // The gathered form: the ids and topk, then SA (per token) and SB.
  SmallVector<Type> mxGathered = {memref(2, f8),
                                  memref(3, f8),
                                  memref(2, b.getBF16Type()),
                                  memref(1, b.getI32Type()),
                                  memref(1, b.getI32Type()),
                                  b.getI32Type(),
                                  memref(2, e8m0),
                                  memref(3, e8m0),
                                  b.getI32Type()};
  llvm::Expected<MoeSignature> gathered = readMoeSignature(
      "moe_gemm_mxfp8_gathered", mxGathered, Fp8Format::source);
  ASSERT_TRUE(static_cast<bool>(gathered))
      << llvm::toString(gathered.takeError());
  EXPECT_TRUE(gathered->blockScales && gathered->gathered);
  EXPECT_EQ(gathered->scaleAArg(), 6u);
  EXPECT_EQ(gathered->workgroupsArg(), 8u);
  // The contiguous form's arguments do not serve it.
  llvm::Expected<MoeSignature> wrong =
      readMoeSignature("moe_gemm_mxfp8_gathered", mx, Fp8Format::source);
  ASSERT_FALSE(static_cast<bool>(wrong));
  EXPECT_NE(
      llvm::toString(wrong.takeError()).find("it takes 7 arguments, not 9"),
      std::string::npos);
}

TEST(MoeSignature, GatheredArguments) {
  MLIRContext context;
  Builder b(&context);
  Type f8 = b.getType<Float8E4M3FNType>(), i32 = b.getI32Type();
  auto memref = [&](int64_t rank, Type element) -> Type {
    return MemRefType::get(SmallVector<int64_t>(rank, ShapedType::kDynamic),
                           element);
  };
  // A, B, C, sorted_token_ids, expert_ids, topk, scale_a, scale_b,
  // workgroups.
  SmallVector<Type> fp8 = {memref(2, f8),
                           memref(3, f8),
                           memref(2, b.getBF16Type()),
                           memref(1, i32),
                           memref(1, i32),
                           i32,
                           b.getF32Type(),
                           memref(1, b.getF32Type()),
                           i32};
  llvm::Expected<MoeSignature> s =
      readMoeSignature("moe_gemm_fp8_gathered", fp8, Fp8Format::source);
  ASSERT_TRUE(static_cast<bool>(s)) << llvm::toString(s.takeError());
  EXPECT_TRUE(s->gathered);
  EXPECT_EQ(s->scaleAArg(), 6u);
  EXPECT_EQ(s->scaleBArg(), 7u);
  EXPECT_EQ(s->workgroupsArg(), 8u);

  // bf16: no scales; the topk scalar must be there.
  SmallVector<Type> bf16 = {memref(2, b.getBF16Type()),
                            memref(3, b.getBF16Type()),
                            memref(2, b.getBF16Type()),
                            memref(1, i32),
                            memref(1, i32),
                            i32,
                            i32};
  s = readMoeSignature("moe_gemm_bf16_gathered_gated", bf16, Fp8Format::source);
  ASSERT_TRUE(static_cast<bool>(s)) << llvm::toString(s.takeError());
  EXPECT_EQ(s->workgroupsArg(), 6u);
  EXPECT_TRUE(s->gated());
  bf16.erase(bf16.begin() + 5);
  s = readMoeSignature("moe_gemm_bf16_gathered", bf16, Fp8Format::source);
  ASSERT_FALSE(static_cast<bool>(s));
  EXPECT_EQ(llvm::toString(s.takeError()),
            "'moe_gemm_bf16_gathered' does not take what its name says (A "
            "memref<?x?xbf16>, B memref<?x?x?xbf16>, C memref<?x?xbf16>, "
            "sorted_token_ids memref<?xi32>, expert_ids memref<?xi32>, topk "
            "i32, workgroups i32): it takes 6 arguments, not 7");
}

TEST(MoeSignature, GatheredTileHeightFromTheLaunch) {
  // arg3[0] by 256 among other terms; a round-up term or one on another
  // argument does not count.
  SizeTerm ids{/*arg=*/3, /*dim=*/0, /*factor=*/256, /*roundUp=*/false};
  SizeTerm other{/*arg=*/0, /*dim=*/1, /*factor=*/64, /*roundUp=*/false};
  SizeTerm up{/*arg=*/3, /*dim=*/0, /*factor=*/128, /*roundUp=*/true};
  llvm::Expected<int64_t> blockM =
      readMoeBlockM("moe_gemm_bf16_gathered", {other, ids, up});
  ASSERT_TRUE(static_cast<bool>(blockM)) << llvm::toString(blockM.takeError());
  EXPECT_EQ(*blockM, 256);
  blockM = readMoeBlockM("moe_gemm_bf16_gathered", {other, up});
  ASSERT_FALSE(static_cast<bool>(blockM));
  EXPECT_EQ(llvm::toString(blockM.takeError()),
            "'moe_gemm_bf16_gathered' is gathered but does not declare its "
            "tile height: hk-run needs a divisibility term on "
            "sorted_token_ids in its hk.launch (`divisible = [arg3[0] by "
            "BM]`) to pad each expert's entries to whole tiles");
}

TEST(MoeRouting, WeightsAreASoftmaxPerToken) {
  MoeSizes sizes{/*experts=*/16, 8, 8, /*tokens=*/200, /*topk=*/4};
  llvm::Expected<MoeRouting> routing =
      makeMoeRouting(MoeRoutingKind::random, "", sizes, 5);
  ASSERT_TRUE(static_cast<bool>(routing))
      << llvm::toString(routing.takeError());
  ASSERT_EQ(int64_t(routing->weights.size()), sizes.rows());
  std::set<float> distinct;
  for (int64_t t = 0; t < sizes.tokens; ++t) {
    double sum = 0;
    for (int64_t c = 0; c < sizes.topk; ++c) {
      float w = routing->weights[t * sizes.topk + c];
      EXPECT_GT(w, 0.0f);
      sum += w;
      distinct.insert(w);
    }
    // Each weight rounds once to f32.
    EXPECT_NEAR(sum, 1.0, 4 * 0x1p-24);
  }
  // Drawn, not uniform.
  EXPECT_GT(distinct.size(), size_t(sizes.rows() / 2));
  // The seed decides them; topk = 1 gives weight 1.
  llvm::Expected<MoeRouting> same =
      makeMoeRouting(MoeRoutingKind::random, "", sizes, 5);
  ASSERT_TRUE(static_cast<bool>(same));
  EXPECT_EQ(same->weights, routing->weights);
  MoeRouting one;
  one.tokens = 3;
  one.topk = 1;
  drawMoeWeights(one, 1);
  EXPECT_EQ(one.weights, (std::vector<float>{1.0f, 1.0f, 1.0f}));
}

TEST(MoeAlignment, SortedWeightsFollowTheEntries) {
  MoeRouting routing;
  routing.experts = 4;
  routing.tokens = 3;
  routing.topk = 2;
  routing.choices = {2, 0, 0, 2, 3, 2};
  // Slot s's weight: (s + 1) / 8.
  routing.weights = {0.125f, 0.25f, 0.375f, 0.5f, 0.625f, 0.75f};
  sortSlotsByExpert(routing);
  // Entries {1, 2, pad, pad, 0, 3, 5, pad, 4, pad, pad, pad}.
  MoeAlignment four = alignMoeRouting(routing, 4);
  EXPECT_EQ(four.sortedWeights,
            (std::vector<float>{0.25f, 0.375f, 0, 0, 0.125f, 0.5f, 0.75f, 0,
                                0.625f, 0, 0, 0}));
  // Without weights (a routing built by hand), none.
  routing.weights.clear();
  EXPECT_TRUE(alignMoeRouting(routing, 4).sortedWeights.empty());

  // A drawn routing: entry i holds slot sorted_token_ids[i]'s weight.
  MoeSizes sizes{/*experts=*/32, 8, 8, /*tokens=*/100, /*topk=*/3};
  llvm::Expected<MoeRouting> drawn =
      makeMoeRouting(MoeRoutingKind::skewed, "", sizes, 7);
  ASSERT_TRUE(static_cast<bool>(drawn)) << llvm::toString(drawn.takeError());
  MoeAlignment a = alignMoeRouting(*drawn, 16);
  ASSERT_EQ(a.sortedWeights.size(), a.sortedTokenIds.size());
  for (int64_t i = 0; i < a.entries(); ++i) {
    int32_t slot = a.sortedTokenIds[i];
    EXPECT_EQ(a.sortedWeights[i],
              slot == sizes.rows() ? 0.0f : drawn->weights[slot])
        << "entry " << i;
  }
}

TEST(MoeSignature, CombineArguments) {
  MLIRContext context;
  Builder b(&context);
  Type f8 = b.getType<Float8E4M3FNType>(), i32 = b.getI32Type(),
       f32 = b.getF32Type();
  auto memref = [&](int64_t rank, Type element) -> Type {
    return MemRefType::get(SmallVector<int64_t>(rank, ShapedType::kDynamic),
                           element);
  };
  // A, B, C (f32), sorted_token_ids, expert_ids, sorted_weights, topk,
  // scale_a, scale_b, workgroups.
  SmallVector<Type> fp8 = {memref(2, f8),
                           memref(3, f8),
                           memref(2, f32),
                           memref(1, i32),
                           memref(1, i32),
                           memref(1, f32),
                           i32,
                           f32,
                           memref(1, f32),
                           i32};
  llvm::Expected<MoeSignature> s =
      readMoeSignature("moe_gemm_fp8_8wave_cf32_gathered_combine_small_m", fp8,
                       Fp8Format::source);
  ASSERT_TRUE(static_cast<bool>(s)) << llvm::toString(s.takeError());
  EXPECT_TRUE(s->combine());
  EXPECT_EQ(s->topkArg(), 6u);
  EXPECT_EQ(s->scaleAArg(), 7u);
  EXPECT_EQ(s->scaleBArg(), 8u);
  EXPECT_EQ(s->workgroupsArg(), 9u);

  // C is [T, N]; sorted_weights as long as sorted_token_ids.
  MoeProblem p;
  p.signature = *s;
  p.sizes = {/*experts=*/4, /*n=*/10, /*k=*/8, /*tokens=*/3, /*topk=*/2};
  p.alignment.sortedTokenIds.assign(8, 0);
  p.alignment.expertIds.assign(2, 0);
  EXPECT_EQ(p.shape(moeArgC), (std::vector<int64_t>{3, 10}));
  EXPECT_EQ(p.shape(moeArgSortedWeights), (std::vector<int64_t>{8}));
  EXPECT_EQ(p.scalarBits(6), std::optional<uint64_t>(2));

  // Only gathered, only into an f32 C.
  s = readMoeSignature("moe_gemm_fp8_cf32_contiguous_combine", fp8,
                       Fp8Format::source);
  ASSERT_FALSE(static_cast<bool>(s));
  EXPECT_NE(llvm::toString(s.takeError()).find("combines a contiguous form"),
            std::string::npos);
  s = readMoeSignature("moe_gemm_fp8_gathered_combine", fp8, Fp8Format::source);
  ASSERT_FALSE(static_cast<bool>(s));
  EXPECT_NE(llvm::toString(s.takeError()).find("combines into a bf16 C"),
            std::string::npos);
}

TEST(MoeSignature, DeterministicCombineArguments) {
  MLIRContext context;
  Builder b(&context);
  Type bf16 = b.getBF16Type(), i32 = b.getI32Type(), f32 = b.getF32Type();
  auto memref = [&](int64_t rank, Type element) -> Type {
    return MemRefType::get(SmallVector<int64_t>(rank, ShapedType::kDynamic),
                           element);
  };
  // The atomic combine's arguments; C is Y [T topk, N].
  SmallVector<Type> types = {memref(2, bf16),
                             memref(3, bf16),
                             memref(2, f32),
                             memref(1, i32),
                             memref(1, i32),
                             memref(1, f32),
                             i32,
                             i32};
  llvm::Expected<MoeSignature> s = readMoeSignature(
      "moe_gemm_bf16_cf32_gathered_combine_deterministic_small_m", types,
      Fp8Format::source);
  ASSERT_TRUE(static_cast<bool>(s)) << llvm::toString(s.takeError());
  EXPECT_TRUE(s->combine());
  EXPECT_TRUE(s->deterministic);
  EXPECT_EQ(s->topkArg(), 6u);
  EXPECT_EQ(s->workgroupsArg(), 7u);
  MoeProblem p;
  p.signature = *s;
  p.sizes = {/*experts=*/4, /*n=*/10, /*k=*/8, /*tokens=*/3, /*topk=*/2};
  EXPECT_EQ(p.shape(moeArgC), (std::vector<int64_t>{6, 10}));
  EXPECT_EQ(p.outRows(), 3);

  // Y is named in the diagnostics; deterministic only after combine.
  types[moeArgC] = memref(2, bf16);
  s = readMoeSignature("moe_gemm_bf16_cf32_gathered_combine_deterministic",
                       types, Fp8Format::source);
  ASSERT_FALSE(static_cast<bool>(s));
  EXPECT_NE(llvm::toString(s.takeError())
                .find("argument #2 (Y) is memref<?x?xbf16>, not "
                      "memref<?x?xf32>"),
            std::string::npos);
  s = readMoeSignature("moe_gemm_bf16_gathered_gated_deterministic", types,
                       Fp8Format::source);
  ASSERT_FALSE(static_cast<bool>(s));
  EXPECT_NE(llvm::toString(s.takeError())
                .find("'deterministic' after its last token"),
            std::string::npos);
}

TEST(MoeSignature, CombineSumKernel) {
  MLIRContext context;
  Builder b(&context);
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  auto memref = [&](int64_t rank, Type element) -> Type {
    return MemRefType::get(SmallVector<int64_t>(rank, ShapedType::kDynamic),
                           element);
  };
  SmallVector<Type> types = {memref(2, f32), memref(2, f32), i32};
  EXPECT_FALSE(
      static_cast<bool>(checkMoeSumSignature(kMoeCombineSumKernel, types)));
  types[moeSumArgC] = memref(1, f32);
  llvm::Error e = checkMoeSumSignature(kMoeCombineSumKernel, types);
  EXPECT_NE(llvm::toString(std::move(e))
                .find("argument #1 (C) is memref<?xf32>, not memref<?x?xf32>"),
            std::string::npos);

  // Y [T topk, N], C [T, N], topk.
  MoeSumProblem p;
  p.sizes = {/*experts=*/4, /*n=*/10, /*k=*/8, /*tokens=*/3, /*topk=*/2};
  EXPECT_EQ(p.extent(moeSumArgY, 0), std::optional<int64_t>(6));
  EXPECT_EQ(p.extent(moeSumArgC, 0), std::optional<int64_t>(3));
  EXPECT_EQ(p.stride(moeSumArgC, 0), std::optional<int64_t>(10));
  EXPECT_EQ(p.scalarBits(moeSumArgTopk), std::optional<uint64_t>(2));
  EXPECT_FALSE(p.isBuffer(moeSumArgTopk));

  // Bit for bit unless an atomic combine takes part.
  MoeSignature atomic, deterministic, plain;
  atomic.epilogue = deterministic.epilogue = MoeEpilogue::combine;
  deterministic.deterministic = true;
  EXPECT_TRUE(isMoeCompareExact(deterministic, deterministic));
  EXPECT_TRUE(isMoeCompareExact(plain, plain));
  EXPECT_FALSE(isMoeCompareExact(deterministic, atomic));
  EXPECT_FALSE(isMoeCompareExact(atomic, deterministic));
  EXPECT_FALSE(isMoeCompareExact(atomic, atomic));
}

TEST(MoeWorkload, RunsAsALibrary) {
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  MoeConfig config;
  config.run.inputFile = std::string(HK_SOURCE_DIR) +
                         "/test/Integration/Inputs/moe-gemm-bf16.mlir";
  config.run.chip = Chip::gfx1201;
  config.sizes = {/*experts=*/6, /*n=*/10, /*k=*/11, /*tokens=*/9, /*topk=*/2};
  config.routing = MoeRoutingKind::skewed;
  llvm::Expected<MoeResult> result = runMoeWorkload(context, config);
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  EXPECT_TRUE(result->passed());
  EXPECT_EQ(result->check.checked, 18 * 10);
  // The default persistent grid: the chip's compute units.
  EXPECT_EQ(result->kernel.grid, (std::array<int64_t, 3>{64, 1, 1}));
}

} // namespace
