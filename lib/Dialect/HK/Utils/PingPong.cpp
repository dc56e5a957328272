//===- PingPong.cpp - the 8-wave ping-pong schedule, as data --------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the expansion of a ping-pong schedule into the event
// lists of its two wave groups and the choice of its lead and waits.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Utils/PingPong.h"

#include <algorithm>

using namespace mlir::hk;

ScheduleRun mlir::hk::expandPingPong(const PingPongShape &shape,
                                     const PingPongPlan &plan, int64_t tiles) {
  int n = shape.clusters();
  auto registerLoads = [&](int c) {
    return shape.registerLoads.empty() ? 0 : shape.registerLoads[c];
  };
  ScheduleRun run(2);
  for (int late = 0; late < 2; ++late) {
    std::vector<SyncEvent> &events = run[late];
    auto fill = [&](int64_t q) {
      auto [region, tile] = plan.fillOf(q);
      events.push_back(SyncEvent::fill(region, tile, shape.fillOps[region]));
    };
    // K tile t; the loop body's tiles (withFills) read the next tile's
    // first reads at their end when reading ahead.
    auto tile = [&](int64_t t, bool withFills, auto site) {
      auto reads = [&](int c, int64_t of) {
        for (PingPongShape::Read read : shape.reads[c])
          events.push_back(SyncEvent::read(read.region, of, read.ops));
      };
      for (int c = 0; c < n; ++c) {
        if (!plan.readAhead)
          reads(c, t);
        if (withFills && registerLoads(c))
          events.push_back(SyncEvent::load(registerLoads(c)));
        if (withFills && plan.fills == FillInterval::memory)
          fill(t * n + c);
        events.push_back(SyncEvent::wait(site(c, false)));
        events.push_back(SyncEvent::barrier());
        for (int region : shape.uses[c])
          events.push_back(SyncEvent::use(region, t));
        if (withFills && plan.fills == FillInterval::compute)
          fill(t * n + c);
        if (plan.readAhead && c + 1 < n)
          reads(c + 1, t);
        if (plan.readAhead && c + 1 == n && withFills)
          reads(0, t + 1);
        events.push_back(SyncEvent::wait(site(c, true)));
        events.push_back(SyncEvent::barrier());
      }
    };
    for (int q = -plan.lead; q < 0; ++q)
      fill(q);
    int firstLoads = 0;
    for (int c = 0; c < n; ++c)
      firstLoads += registerLoads(c);
    if (firstLoads)
      events.push_back(SyncEvent::load(firstLoads));
    events.push_back(SyncEvent::wait(PingPongPlan::kPrologueSite));
    if (late)
      events.push_back(SyncEvent::barrier());
    events.push_back(SyncEvent::wait(PingPongPlan::kPublishSite));
    events.push_back(SyncEvent::barrier());
    if (plan.readAhead)
      for (PingPongShape::Read read : shape.reads[0])
        events.push_back(SyncEvent::read(read.region, 0, read.ops));
    for (int64_t t = 0; t + 1 < tiles; t += 2)
      for (int half = 0; half < 2; ++half)
        tile(t + half, true,
             [&](int c, bool after) { return plan.bodySite(half, c, after); });
    if (tiles % 2)
      tile(tiles - 1, false,
           [&](int c, bool after) { return plan.oddTileSite(c, after); });
    events.push_back(SyncEvent::wait(plan.finalSite()));
    if (!late)
      events.push_back(SyncEvent::barrier());
  }
  return run;
}

llvm::Error mlir::hk::planPingPong(const PingPongShape &shape,
                                   const CounterLimits &limits,
                                   PingPongPlan &plan) {
  auto refuse = [](const std::string &why) {
    return llvm::createStringError(why);
  };
  int n = shape.clusters();
  if (n == 0)
    return refuse("the loop body has no MMA");
  if (shape.uses.size() != shape.reads.size())
    return refuse("every cluster needs the list of regions its MMA uses");
  if (!shape.registerLoads.empty() && int(shape.registerLoads.size()) != n)
    return refuse("register loads are given for " +
                  std::to_string(shape.registerLoads.size()) + " clusters of " +
                  std::to_string(n));
  if (shape.regions() != n)
    return refuse("a ping-pong K tile fills one shared-tile region per "
                  "cluster, but the loop fills " +
                  std::to_string(shape.regions()) + " regions and has " +
                  std::to_string(n) + " MMAs");
  // A region is overwritten (two tiles later, same slot) only in a cluster
  // after its last read: fill (q + lead) of region j happens at cluster
  // q = u n + j - lead, its previous contents are last read at cluster
  // (u - 2) n + lastRead(j).
  std::vector<int> lastRead(n, -1);
  for (int c = 0; c < n; ++c)
    for (PingPongShape::Read read : shape.reads[c]) {
      if (read.region < 0 || read.region >= n)
        return refuse("cluster " + std::to_string(c) + " reads region " +
                      std::to_string(read.region) + " of " + std::to_string(n));
      lastRead[read.region] = c;
    }
  int maxLead = 2 * n;
  for (int j = 0; j < n; ++j) {
    if (lastRead[j] < 0)
      return refuse("region " + std::to_string(j) +
                    " is filled but never read");
    maxLead = std::min(maxLead, 2 * n + j - lastRead[j] - 1);
  }
  std::string why = "no lead works";
  for (int lead = maxLead; lead >= 1; --lead) {
    plan.clusters = n;
    plan.lead = lead;
    plan.waits.assign(plan.numSites(), WaitCounts());
    std::vector<ScheduleRun> runs;
    for (int64_t tiles = 1; tiles <= kPingPongCheckedTiles; ++tiles)
      runs.push_back(expandPingPong(shape, plan, tiles));
    if (llvm::Error error =
            computeScheduleWaits(runs, /*slots=*/2, limits, plan.waits)) {
      why = llvm::toString(std::move(error));
      continue;
    }
    // Reads issued beside an MMA may interleave with it, so no wait may
    // count them in order.
    bool countsReads = false;
    if (plan.readAhead)
      for (const WaitCounts &w : plan.waits)
        if (w.lgkm != WaitCounts::kNoWait) {
          why = "read-ahead needs schedules whose waits count no LDS reads, "
                "but lgkmcnt(" +
                std::to_string(w.lgkm) + ") is needed";
          countsReads = true;
        }
    if (!countsReads)
      return llvm::Error::success();
  }
  return refuse(why);
}
