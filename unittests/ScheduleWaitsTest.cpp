//===- ScheduleWaitsTest.cpp - derived wait counts of schedules -----------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The wait counts computeScheduleWaits derives are sufficient (the check
// finds no unmet dependency for any tile count) and tight (raising any one
// of them by one makes a dependency fail); the model finds the races of
// hand-made schedules.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Utils/PingPong.h"
#include "HK/Target/Chip.h"

#include "gtest/gtest.h"

using namespace mlir::hk;

namespace {
/// The wait limits of gfx950, whose schedules the tests describe.
CounterLimits gfx950Limits() {
  const ChipInfo &chip = getChipInfo(Chip::gfx950);
  return {int(chip.maxVmCount), int(chip.maxLgkmCount)};
}

/// The error's message, or an empty string for success.
std::string message(llvm::Error error) {
  return error ? llvm::toString(std::move(error)) : "";
}

/// The gfx950 GEMM of examples/: regions B0, A0, B1, A1 (16 KiB each, 2
/// DMA loads per wave to fill); cluster 0 reads B0 (4 ds_read) then A0 (8),
/// cluster 1 reads B1, cluster 2 A1, cluster 3 nothing.
PingPongShape hipKittensShape() {
  PingPongShape shape;
  shape.reads = {{{0, 4}, {1, 8}}, {{2, 4}}, {{3, 8}}, {}};
  // C00 = A0 B0, C01 = A0 B1, C10 = A1 B0, C11 = A1 B1.
  shape.uses = {{0, 1}, {1, 2}, {0, 3}, {2, 3}};
  shape.fillOps = {2, 2, 2, 2};
  return shape;
}

std::vector<ScheduleRun> runsUpTo(const PingPongShape &shape,
                                  const PingPongPlan &plan, int64_t tiles) {
  std::vector<ScheduleRun> runs;
  for (int64_t t = 1; t <= tiles; ++t)
    runs.push_back(expandPingPong(shape, plan, t));
  return runs;
}

/// The plan for the example's shape with fills in `fills`.
PingPongPlan plan(FillInterval fills, bool readAhead = false) {
  PingPongPlan plan;
  plan.fills = fills;
  plan.readAhead = readAhead;
  EXPECT_EQ(message(planPingPong(hipKittensShape(), gfx950Limits(), plan)), "");
  return plan;
}

TEST(ScheduleWaitsTest, PingPongWaitsAreSufficientAndTight) {
  for (auto [fills, ahead] : {std::pair(FillInterval::compute, true),
                              std::pair(FillInterval::compute, false),
                              std::pair(FillInterval::memory, true),
                              std::pair(FillInterval::memory, false)}) {
    SCOPED_TRACE(
        std::string(fills == FillInterval::compute ? "compute" : "memory") +
        (ahead ? " read-ahead" : ""));
    PingPongPlan p = plan(fills, ahead);
    // The deepest prefetch: a region is refilled in the cluster after its
    // last read two tiles earlier (HipKittens' choice too); with reads one
    // cluster earlier and fills before the barrier, one less.
    EXPECT_EQ(p.lead, fills == FillInterval::memory && ahead ? 6 : 7);
    std::vector<ScheduleRun> runs = runsUpTo(hipKittensShape(), p, 32);
    EXPECT_EQ(message(checkScheduleWaits(runs, 2, p.waits)), "");
    int counts = 0;
    for (int site = 0; site < p.numSites(); ++site)
      for (bool vm : {true, false}) {
        int value = vm ? p.waits[site].vm : p.waits[site].lgkm;
        if (value == WaitCounts::kNoWait)
          continue;
        ++counts;
        std::vector<WaitCounts> raised = p.waits;
        (vm ? raised[site].vm : raised[site].lgkm) += 1;
        EXPECT_NE(message(checkScheduleWaits(runs, 2, raised)), "")
            << "site " << site << (vm ? " vmcnt " : " lgkmcnt ") << value
            << " + 1 still passes";
      }
    EXPECT_GT(counts, 0);
  }
}

TEST(ScheduleWaitsTest, PingPongSteadyStateCounts) {
  // HipKittens' placement: cluster 0 reads B0 then A0, and B0 is refilled
  // by the other group right after the barrier, so only A0's 8 reads may
  // still be in flight there.
  PingPongPlan memory = plan(FillInterval::memory);
  EXPECT_EQ(memory.waits[memory.bodySite(0, 0, false)].lgkm, 8);
  EXPECT_EQ(memory.waits[memory.bodySite(1, 0, false)].lgkm, 8);
  // Fills after the MMA come one barrier later, after the MMA that used the
  // reads: no LDS wait at all.
  PingPongPlan compute = plan(FillInterval::compute);
  for (int site = 0; site < compute.numSites(); ++site)
    EXPECT_EQ(compute.waits[site].lgkm, WaitCounts::kNoWait) << site;
  // No full drain of the DMA counter anywhere in the loop body.
  for (const PingPongPlan &p : {memory, compute})
    for (int half = 0; half < 2; ++half)
      for (int c = 0; c < 4; ++c)
        for (bool after : {false, true})
          EXPECT_NE(p.waits[p.bodySite(half, c, after)].vm, 0)
              << "half " << half << " cluster " << c;
}

TEST(ScheduleWaitsTest, MissingWaitIsARace) {
  // One group fills region 0, then both read it after one barrier with no
  // wait for the fill: unmet, and computeScheduleWaits adds the wait.
  ScheduleRun run(2);
  for (auto &events : run) {
    events = {SyncEvent::fill(0, 0, 2), SyncEvent::wait(0),
              SyncEvent::barrier(), SyncEvent::read(0, 0, 4)};
  }
  std::vector<WaitCounts> none(1);
  EXPECT_NE(message(checkScheduleWaits({run}, 2, none)), "");
  std::vector<WaitCounts> waits(1);
  EXPECT_EQ(message(computeScheduleWaits({run}, 2, gfx950Limits(), waits)), "");
  EXPECT_EQ(waits[0].vm, 0);
  EXPECT_EQ(waits[0].lgkm, WaitCounts::kNoWait);
}

TEST(ScheduleWaitsTest, OverwriteWithoutBarrierIsRefused) {
  // Generation 2 overwrites slot 0 with no barrier after generation 0's
  // reads: no wait can order them.
  ScheduleRun run(1);
  run[0] = {SyncEvent::fill(0, 0, 1), SyncEvent::wait(0), SyncEvent::barrier(),
            SyncEvent::read(0, 0, 1), SyncEvent::fill(0, 2, 1)};
  std::vector<WaitCounts> waits(1);
  std::string why =
      message(computeScheduleWaits({run}, 2, gfx950Limits(), waits));
  EXPECT_NE(why.find("overwrites slot 0"), std::string::npos) << why;
}

TEST(ScheduleWaitsTest, UnbalancedBarriersAreRefused) {
  ScheduleRun run(2);
  run[0] = {SyncEvent::wait(0), SyncEvent::barrier()};
  run[1] = {SyncEvent::wait(0)};
  std::vector<WaitCounts> waits(1);
  std::string why =
      message(computeScheduleWaits({run}, 2, gfx950Limits(), waits));
  EXPECT_NE(why.find("executes 0 barriers"), std::string::npos) << why;
}

TEST(ScheduleWaitsTest, PingPongNeedsOneRegionPerCluster) {
  PingPongShape shape;
  shape.reads = {{{0, 16}, {1, 8}}};
  shape.uses = {{0, 1}};
  shape.fillOps = {4, 4};
  PingPongPlan plan;
  std::string why = message(planPingPong(shape, gfx950Limits(), plan));
  EXPECT_NE(why.find("fills 2 regions and has 1 MMAs"), std::string::npos)
      << why;
}

} // namespace

namespace {
using Ev = SyncEvent;
using Missing = SyncViolation::Missing;

/// One wave group: fill region 0, wait, barrier, read it; the violation,
/// if any, with `waits`.
std::optional<SyncViolation> fillThenRead(Ev fill, Ev barrier,
                                          std::vector<WaitCounts> waits) {
  ScheduleRun run = {{fill, Ev::wait(0), barrier, Ev::read(0, 0, 4)}};
  return findSyncViolation({run}, 1, waits);
}
} // namespace

TEST(ScheduleWaitsTest, LdsStoreFillsCompleteOnLgkmcnt) {
  Ev store = Ev::fill(0, 0, 2, Ev::Counter::lgkm);
  // A vmcnt wait does not cover LDS stores; an LDS wait or a draining
  // barrier does.
  std::optional<SyncViolation> v =
      fillThenRead(store, Ev::barrier(), {{/*vm=*/0, WaitCounts::kNoWait}});
  ASSERT_TRUE(v);
  EXPECT_EQ(v->missing, Missing::wait);
  EXPECT_EQ(v->counter, Ev::Counter::lgkm);
  EXPECT_EQ(v->event, 3);
  EXPECT_EQ(v->otherEvent, 0);
  EXPECT_EQ(v->barrier, 0);
  EXPECT_FALSE(fillThenRead(store, Ev::barrier(), {{WaitCounts::kNoWait, 0}}));
  EXPECT_FALSE(fillThenRead(store, Ev::barrier(/*drainsLds=*/true), {{}}));
}

TEST(ScheduleWaitsTest, DrainingBarriersDoNotCompleteDirectFills) {
  Ev dma = Ev::fill(0, 0, 2);
  std::optional<SyncViolation> v =
      fillThenRead(dma, Ev::barrier(/*drainsLds=*/true), {{}});
  ASSERT_TRUE(v);
  EXPECT_EQ(v->counter, Ev::Counter::vm);
  EXPECT_FALSE(
      fillThenRead(dma, Ev::barrier(true), {{0, WaitCounts::kNoWait}}));
}

/// Reads of regions 0 and 1 (4 LDS operations each), a wait of ds(4), a
/// barrier, and a refill of region 0: in order, the wait covers the first
/// read; in an unordered group it does not.
std::optional<SyncViolation> partialLdsWait(bool unordered) {
  std::vector<Ev> events = {
      Ev::fill(0, 0, 2), Ev::fill(1, 0, 2), Ev::wait(0),
      Ev::barrier(),     Ev::read(0, 0, 4), Ev::read(1, 0, 4),
      Ev::wait(1),       Ev::barrier(),     Ev::fill(0, 1, 2)};
  if (unordered)
    events[4].unordered = events[5].unordered = 0;
  return findSyncViolation(
      {{events}}, 1, {{0, WaitCounts::kNoWait}, {WaitCounts::kNoWait, 4}});
}

TEST(ScheduleWaitsTest, UnorderedGroupsCountOnlyOnceAllIssued) {
  EXPECT_FALSE(partialLdsWait(false));
  std::optional<SyncViolation> v = partialLdsWait(true);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->missing, Missing::wait);
  EXPECT_EQ(v->event, 8);      // the refill
  EXPECT_EQ(v->otherEvent, 4); // the read it may overwrite
  EXPECT_EQ(v->barrierEvent, 7);
  // Only ds(0) covers a read of the group: nothing surely issues after it.
  EXPECT_EQ(v->covering, 0);
}

TEST(ScheduleWaitsTest, UsesCompleteTheirReadAndWhatPrecededIt) {
  // Two reads, a use of the first, a barrier, refills of both: the first
  // read is complete (used), the second is not.
  std::vector<Ev> events = {
      Ev::fill(0, 0, 2), Ev::fill(1, 0, 2), Ev::wait(0),      Ev::barrier(),
      Ev::read(0, 0, 4), Ev::read(1, 0, 4), Ev::use(0, 0, 4), Ev::barrier(),
      Ev::fill(0, 1, 2), Ev::fill(1, 1, 2)};
  std::optional<SyncViolation> v =
      findSyncViolation({{events}}, 1, {{0, WaitCounts::kNoWait}});
  ASSERT_TRUE(v);
  EXPECT_EQ(v->event, 9);
  EXPECT_EQ(v->otherEvent, 5);
  // Using the second read instead completes both (LDS reads complete in
  // order).
  events[6] = Ev::use(1, 0, 5);
  EXPECT_FALSE(findSyncViolation({{events}}, 1, {{0, WaitCounts::kNoWait}}));
}

TEST(ScheduleWaitsTest, BarrierCountsMustMatchAcrossGroups) {
  ScheduleRun run = {{Ev::barrier(), Ev::barrier()}, {Ev::barrier()}};
  std::optional<SyncViolation> v = findSyncViolation({run}, 1, {});
  ASSERT_TRUE(v);
  EXPECT_EQ(v->event, -1);
  EXPECT_NE(v->message.find("barriers pair up wrongly"), std::string::npos);
}

TEST(ScheduleWaitsTest, RegisterLoadsCountOnVmcntOnly) {
  // A fill of 2, then 3 loads into registers, a wait, a barrier and a read
  // of the fill: vmcnt(3) leaves only the loads in flight, vmcnt(4) one of
  // the fill's operations; no LDS count is involved.
  std::vector<Ev> events = {Ev::fill(0, 0, 2), Ev::load(3), Ev::wait(0),
                            Ev::barrier(), Ev::read(0, 0, 4)};
  EXPECT_FALSE(findSyncViolation({{events}}, 1, {{3, WaitCounts::kNoWait}}));
  std::optional<SyncViolation> v =
      findSyncViolation({{events}}, 1, {{4, WaitCounts::kNoWait}});
  ASSERT_TRUE(v);
  EXPECT_EQ(v->counter, Ev::Counter::vm);
  EXPECT_EQ(v->covering, 3);
  std::vector<WaitCounts> waits(1);
  EXPECT_EQ(message(computeScheduleWaits({{events}}, 1, gfx950Limits(), waits)),
            "");
  EXPECT_EQ(waits[0].vm, 3);
  EXPECT_EQ(waits[0].lgkm, WaitCounts::kNoWait);
}

TEST(ScheduleWaitsTest, PingPongCountsRegisterLoads) {
  // MXFP8's block scales: 3 loads per cluster for the next K tile. The
  // derived waits hold and are tight, and leave the loads issued after a
  // fill in flight on top of the fills (larger vm counts than without).
  PingPongShape shape = hipKittensShape();
  shape.registerLoads = {3, 3, 3, 3};
  PingPongPlan p;
  ASSERT_EQ(message(planPingPong(shape, gfx950Limits(), p)), "");
  PingPongPlan without = plan(FillInterval::compute);
  EXPECT_EQ(p.lead, without.lead);
  std::vector<ScheduleRun> runs = runsUpTo(shape, p, 32);
  EXPECT_EQ(message(checkScheduleWaits(runs, 2, p.waits)), "");
  bool looser = false;
  for (int site = 0; site < p.numSites(); ++site) {
    if (p.waits[site].vm == WaitCounts::kNoWait)
      continue;
    EXPECT_GE(p.waits[site].vm, without.waits[site].vm) << site;
    looser |= p.waits[site].vm > without.waits[site].vm;
    std::vector<WaitCounts> raised = p.waits;
    raised[site].vm += 1;
    EXPECT_NE(message(checkScheduleWaits(runs, 2, raised)), "")
        << "site " << site << " vmcnt " << p.waits[site].vm
        << " + 1 still passes";
  }
  EXPECT_TRUE(looser);
  // Waits derived without the loads stay valid with them: a load only
  // adds to what a wait completes.
  EXPECT_EQ(message(checkScheduleWaits(runs, 2, without.waits)), "");
  shape.registerLoads = {3, 3};
  EXPECT_NE(message(planPingPong(shape, gfx950Limits(), p)), "");
}

TEST(ScheduleWaitsTest, RegisterLoadsInUnorderedGroupsMayIssueFirst) {
  // A fill and 3 register loads of one interleaved cluster: the loads may
  // issue before the fill, so vmcnt(3) no longer covers it; vmcnt(0) does.
  std::vector<Ev> events = {Ev::fill(0, 0, 2), Ev::load(3), Ev::wait(0),
                            Ev::barrier(), Ev::read(0, 0, 4)};
  events[0].unordered = events[1].unordered = 0;
  std::optional<SyncViolation> v =
      findSyncViolation({{events}}, 1, {{3, WaitCounts::kNoWait}});
  ASSERT_TRUE(v);
  EXPECT_EQ(v->covering, 0);
  EXPECT_FALSE(findSyncViolation({{events}}, 1, {{0, WaitCounts::kNoWait}}));
}
