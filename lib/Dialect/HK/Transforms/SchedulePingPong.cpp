//===- SchedulePingPong.cpp - HipKittens' 8-wave ping-pong schedule -------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements hk-schedule-ping-pong: the policy that turns a
// synchronous K loop with direct fills into the ping-pong schedule of
// PingPong.h, written with hk.cluster / hk.barrier / hk.stagger and the
// waits computeScheduleWaits derives.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Dialect/HK/Transforms/ClusterSchedule.h"
#include "HK/Dialect/HK/Transforms/Passes.h"
#include "HK/Dialect/HK/Transforms/Transforms.h"
#include "HK/Dialect/HK/Utils/AccessPlan.h"
#include "HK/Dialect/HK/Utils/PingPong.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSwitch.h"

#define DEBUG_TYPE "hk-schedule-ping-pong"

namespace mlir::hk {
#define GEN_PASS_DEF_SCHEDULEPINGPONG
#include "HK/Dialect/HK/Transforms/Passes.h.inc"
} // namespace mlir::hk

using namespace mlir;
using namespace mlir::hk;

namespace {
/// A synchronous K loop as the schedule sees it: the K/V loop analysis
/// (whose elementwise work [0] runs before the first cluster, [c + 1] in
/// cluster c after its MMA, and whose first reads of MMA c are cluster c's
/// reads), and the regions and register reads of each cluster.
struct SyncLoop {
  KVLoop kv;
  /// The copy filling each region, regions numbered in order of first read.
  SmallVector<CopyToSharedOp> fills;
  /// Per cluster: the indices into kv.registerReads its memory interval
  /// issues for the next K tile, spread evenly in the order of their first
  /// MMA (the first needed the longest ahead).
  SmallVector<SmallVector<int>> clusterRegisterReads;
  DenseMap<Operation *, int> regionOfAlloc;
};
} // namespace

static bool isZeroIndex(Value v) { return matchPattern(v, m_Zero()); }

/// Gives the compute part its own copies of the fill section's values it
/// uses (a next tile's key index): the schedule moves the fills away from
/// it. Returns whether there were any.
static bool recomputeFillValuesForCompute(const KVLoop &kv) {
  llvm::SmallPtrSet<Operation *, 16> fill(kv.fillSection.begin(),
                                          kv.fillSection.end());
  Block *body = scf::ForOp(kv.loop).getBody();
  auto usedByCompute = [&](Operation *op) {
    for (Operation *user : op->getUsers()) {
      Operation *top = body->findAncestorOpInBlock(*user);
      if (top && !fill.contains(top) && top != kv.fillBarrier &&
          !llvm::is_contained(kv.fillWaits, top))
        return true;
    }
    return false;
  };
  // The fill ops the compute part uses and those they use, in order.
  llvm::SetVector<Operation *> needed;
  for (Operation *op : kv.fillSection)
    if (usedByCompute(op))
      needed.insert(op);
  for (size_t i = 0; i < needed.size(); ++i)
    for (Value operand : needed[i]->getOperands())
      if (Operation *def = operand.getDefiningOp(); def && fill.contains(def))
        needed.insert(def);
  if (needed.empty())
    return false;
  SmallVector<Operation *> ordered(needed.begin(), needed.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  OpBuilder b(kv.fillBarrier->getNextNode());
  IRMapping map;
  for (Operation *op : ordered) {
    Operation *copy = b.clone(*op, map);
    for (auto [from, to] : llvm::zip(op->getResults(), copy->getResults()))
      from.replaceUsesWithIf(to, [&](OpOperand &use) {
        Operation *top = body->findAncestorOpInBlock(*use.getOwner());
        return top && copy->isBeforeInBlock(top);
      });
  }
  return true;
}

/// Takes `loop` apart, or says (as an error on the loop) why it is not a
/// loop the schedule applies to.
static FailureOr<SyncLoop> matchSyncLoop(scf::ForOp loop) {
  auto refuse = [&](const Twine &why) -> FailureOr<SyncLoop> {
    return loop.emitError("hk-schedule-ping-pong: ") << why;
  };
  llvm::Expected<KVLoop> kv = analyzeKVLoop(loop);
  if (!kv)
    return refuse(llvm::toString(kv.takeError()));
  // The compute part's waits and scheduler fences (a kernel's batched
  // fragment reads and its phases) are dropped, and so are the fill
  // section's waits: the schedule places its own.
  SmallVector<Operation *> computeWaits;
  for (Operation *op : kv->computeSection)
    if (isa<amdgpu::MemoryCounterWaitOp, amdgpu::SchedBarrierOp>(op))
      computeWaits.push_back(op);
  bool recomputed = recomputeFillValuesForCompute(*kv);
  if (!computeWaits.empty() || recomputed) {
    for (Operation *op : computeWaits)
      op->erase();
    kv = analyzeKVLoop(loop);
    if (!kv)
      return refuse(llvm::toString(kv.takeError()));
  }
  SyncLoop sync;
  sync.kv = std::move(*kv);
  Block *body = loop.getBody();
  for (Operation *op : sync.kv.computeSection)
    if (!isa<LoadFragmentOp, ReadFragmentOp, MmaOp>(op) &&
        !isMemoryEffectFree(op))
      return refuse(Twine("the compute part may only hold fragment loads, "
                          "register reads, MMAs and ops without memory "
                          "effects, not '") +
                    op->getName().getStringRef() + "'");
  // A register read is issued a K tile ahead, so what it reads may depend
  // on the loop only through the K index: pure ops of the body, without
  // regions, on the induction variable and values from outside.
  for (ReadFragmentOp read : sync.kv.registerReads)
    for (Operation *op : getBodySlice(loop, read)) {
      auto carried = [&](Value v) {
        auto arg = dyn_cast<BlockArgument>(v);
        return arg && arg.getOwner() == body && arg != loop.getInductionVar();
      };
      bool pure = op == read.getOperation() ||
                  (isMemoryEffectFree(op) && op->getNumRegions() == 0);
      std::string what = !pure ? "'" + op->getName().getStringRef().str() + "'"
                               : std::string("a value the loop carries");
      if (!pure || llvm::any_of(op->getOperands(), carried))
        return refuse("a register read (hk.read_fragment) depends on " + what +
                      ", but it is issued a K tile ahead: it may depend on "
                      "the loop only through the K index");
    }

  for (CopyToSharedOp copy : sync.kv.copies) {
    if (masksColumns(copy.getBounds()))
      return refuse("a copy's bounds mask columns past the matrix ("
                    "register path) but the waits "
                    "count direct loads; hk-peel-partial-tiles makes the "
                    "copies whose column is the K index partial_rows in a "
                    "loop of whole K tiles (not a K-major operand's, whose "
                    "M or N edge is in its columns)");
    if (!copy.getDirect())
      return refuse("its waits count direct-to-LDS loads, but a copy is on "
                    "the register path: fill with direct-to-LDS loads "
                    "(direct-lds, gfx950)");
    // The analysis found every copied tile's hk.alloc_shared.
    const KVTile *tile = sync.kv.getTile(copy.getTile().getDefiningOp());
    AllocSharedOp alloc = tile->alloc;
    if (alloc.getType().getSlots() != 1 || !isZeroIndex(copy.getSlot()))
      return refuse("every copy must fill slot 0 of a one-slot tile from "
                    "hk.alloc_shared");
    if (tile->fills.size() > 1)
      return refuse("two copies fill the same tile");
  }

  // Elementwise work (softmax, rescale) runs in the compute cluster of the
  // MMA before it; work before the first MMA may not depend on a fragment
  // read in the loop, which the schedule issues later.
  for (Operation *op : sync.kv.elementwise.front())
    for (Value operand : op->getOperands())
      if (operand.getDefiningOp<LoadFragmentOp>() &&
          operand.getParentBlock() == body)
        return refuse("an op before the first MMA uses a fragment the "
                      "loop reads");
  for (Operation *op : sync.kv.computeSection)
    if (auto load = dyn_cast<LoadFragmentOp>(op))
      if (!sync.kv.getTile(load.getTile().getDefiningOp()) ||
          !isZeroIndex(load.getSlot()))
        return refuse("a fragment load does not read slot 0 of a tile the "
                      "loop fills");

  // Each MMA's first reads are its cluster's; the tiles are numbered into
  // regions in the order they are first read.
  for (auto [mma, first] : llvm::zip(sync.kv.mmas, sync.kv.firstReads)) {
    bool readsTile =
        llvm::any_of(ValueRange{mma.getA(), mma.getB()}, [&](Value operand) {
          auto load = operand.getDefiningOp<LoadFragmentOp>();
          return load && load->getBlock() == body;
        });
    if (!readsTile)
      return refuse("an MMA reads no fragment from the tiles the loop fills");
    for (LoadFragmentOp load : first) {
      Operation *alloc = load.getTile().getDefiningOp();
      if (!sync.regionOfAlloc.count(alloc))
        sync.regionOfAlloc[alloc] = sync.regionOfAlloc.size();
    }
  }
  int clusters = sync.kv.mmas.size();
  int readCount = sync.kv.registerReads.size();
  // The register reads in the order of their first MMA.
  SmallVector<int> order;
  for (int j = 0; j < readCount; ++j)
    order.push_back(j);
  llvm::stable_sort(order, [&](int x, int y) {
    return sync.kv.registerReadFirstMma[x] < sync.kv.registerReadFirstMma[y];
  });
  // Early work runs in the last cluster: the reads go to the clusters two
  // or more before it (or the first), so it never waits for a load issued
  // one cluster before (MXFP8: 3.5 llvm-mca cycles per K tile).
  int spread = clusters > 1 && !sync.kv.earlyWork.empty()
                   ? std::max(1, clusters - 2)
                   : clusters;
  sync.clusterRegisterReads.resize(clusters);
  for (int j = 0; j < readCount; ++j)
    sync.clusterRegisterReads[int64_t(j) * spread / readCount].push_back(
        order[j]);
  sync.fills.resize(sync.kv.copies.size());
  for (CopyToSharedOp copy : sync.kv.copies) {
    auto it = sync.regionOfAlloc.find(copy.getTile().getDefiningOp());
    if (it == sync.regionOfAlloc.end())
      return refuse("a tile the loop fills is never read");
    sync.fills[it->second] = copy;
  }
  return sync;
}

/// The schedule's view of `sync`: per cluster its reads, per region its
/// fill, in operations per wave.
static FailureOr<PingPongShape>
describeShape(const SyncLoop &sync, const ChipInfo &chip, int64_t threads) {
  PingPongShape shape;
  for (const SmallVector<LoadFragmentOp> &loads : sync.kv.firstReads) {
    std::vector<PingPongShape::Read> reads;
    for (LoadFragmentOp load : loads) {
      FailureOr<int64_t> ops = countFragmentReadsPerLane(load, chip);
      if (failed(ops))
        return failure();
      reads.push_back(
          {sync.regionOfAlloc.lookup(load.getTile().getDefiningOp()),
           int(*ops)});
    }
    shape.reads.push_back(std::move(reads));
  }
  for (MmaOp mma : sync.kv.mmas) {
    std::vector<int> uses;
    scf::ForOp loop = sync.kv.loop;
    for (Value operand : {mma.getA(), mma.getB()})
      if (auto load = operand.getDefiningOp<LoadFragmentOp>())
        if (load->getBlock() == loop.getBody())
          uses.push_back(
              sync.regionOfAlloc.lookup(load.getTile().getDefiningOp()));
    shape.uses.push_back(std::move(uses));
  }
  for (CopyToSharedOp copy : sync.fills) {
    FailureOr<int64_t> ops = countFillOpsPerLane(copy, threads);
    if (failed(ops))
      return failure();
    shape.fillOps.push_back(*ops);
  }
  for (const SmallVector<int> &reads : sync.clusterRegisterReads) {
    int ops = 0;
    for (int j : reads) {
      FailureOr<int64_t> n =
          countRegisterLoadsPerLane(sync.kv.registerReads[j], chip);
      if (failed(n))
        return failure();
      ops += *n;
    }
    shape.registerLoads.push_back(ops);
  }
  return shape;
}

/// The ping-pong of `sync` under `plan`, as the cluster mechanism takes it.
/// A K tile (PingPong.h) is, per MMA c:
///
///   memory cluster 2c:    its first reads (unless read ahead), its share
///                         of the next tile's register reads, with
///                         fills=memory its fill
///   wait, barrier
///   compute cluster 2c+1: the MMA, the elementwise work after it, with
///                         fills=compute its fill, with read-ahead the
///                         next cluster's reads (the last cluster: the next
///                         tile's first reads and early work)
///   wait, barrier
///
/// after the elementwise work before the first MMA.
static LoopClusterSchedule describeSchedule(const SyncLoop &sync,
                                            const PingPongPlan &plan,
                                            unsigned priority) {
  LoopClusterSchedule schedule;
  int n = plan.clusters;
  const KVLoop &kv = sync.kv;
  auto add = [&](Operation *op, unsigned ahead, unsigned cluster,
                 unsigned rank = 0) {
    TileStep step = TileStep::ofOp(op, ahead, cluster);
    step.carryRank = rank;
    schedule.tile.push_back(step);
  };
  auto addWaitAndBarrier = [&](unsigned wait) {
    schedule.tile.push_back(TileStep::ofWait(wait));
    schedule.tile.push_back(TileStep::ofBarrier());
  };
  // Carried to the next tile in this order: first reads, register reads,
  // early work.
  unsigned registerReadRank = 1;
  unsigned earlyRank = registerReadRank + kv.registerReads.size();
  for (Operation *op : kv.elementwise[0])
    if (!llvm::is_contained(sync.kv.earlyWork, op))
      schedule.tile.push_back(TileStep::ofOp(op));
  for (int c = 0; c < n; ++c) {
    // Cluster c of a tile is cluster tile * n + c overall; its fill is for
    // tile + (c + lead) / n, region (c + lead) % n.
    auto addFill = [&](unsigned cluster) {
      add(sync.fills[(c + plan.lead) % n], (c + plan.lead) / n, cluster);
    };
    unsigned memory = 2 * c, compute = 2 * c + 1;
    schedule.clusters.push_back({/*priority=*/0, /*interleaved=*/false});
    if (!plan.readAhead)
      for (LoadFragmentOp load : sync.kv.firstReads[c])
        add(load, 0, memory);
    for (int j : sync.clusterRegisterReads[c])
      add(kv.registerReads[j], 1, memory, registerReadRank + j);
    if (plan.fills == FillInterval::memory)
      addFill(memory);
    addWaitAndBarrier(2 * c);
    SmallVector<LoadFragmentOp> ahead;
    if (plan.readAhead && c + 1 < n)
      ahead = sync.kv.firstReads[c + 1];
    bool readsNext = plan.readAhead && c + 1 == n;
    // Reads issued beside the MMA may interleave with it: no wait counts
    // them (planPingPong refuses read-ahead otherwise). Without elementwise
    // work (a GEMM), the memory instructions alternate with its MFMAs, each
    // in one's shadow (a cluster that is not interleaved holds at most its
    // fill, one op).
    bool fillWithCompute = plan.fills == FillInterval::compute;
    auto computeSpec = [&](bool interleaved) -> ClusterSpec {
      return {int32_t(priority), interleaved,
              (interleaved || fillWithCompute) &&
                  kv.elementwise[c + 1].empty()};
    };
    schedule.clusters.push_back(computeSpec(!ahead.empty() || readsNext));
    // The odd tile reads no next tile.
    schedule.remainderClusters.push_back(schedule.clusters[memory]);
    schedule.remainderClusters.push_back(computeSpec(!ahead.empty()));
    add(kv.mmas[c], 0, compute);
    for (Operation *op : kv.elementwise[c + 1])
      add(op, 0, compute);
    if (fillWithCompute)
      addFill(compute);
    for (LoadFragmentOp load : ahead)
      add(load, 0, compute);
    if (readsNext)
      for (LoadFragmentOp load : sync.kv.firstReads[0])
        add(load, 1, compute);
    // The next tile's early work, beside this tile's last MFMAs: every
    // register read for it is issued by now.
    if (c + 1 == n)
      for (Operation *op : sync.kv.earlyWork)
        add(op, 1, compute, earlyRank);
    addWaitAndBarrier(2 * c + 1);
  }
  for (CopyToSharedOp copy : sync.fills)
    schedule.doubleBuffered.push_back(copy.getTile().getDefiningOp());
  schedule.tilesPerTrip = 2;
  schedule.staggerWaveGroups = true;
  schedule.prologueWait = plan.waits[PingPongPlan::kPrologueSite];
  schedule.publishWait = plan.waits[PingPongPlan::kPublishSite];
  schedule.finalWait = plan.waits[plan.finalSite()];
  schedule.waitCounts = [plan](unsigned wait, unsigned copy) {
    int cluster = wait / 2;
    bool afterCompute = wait % 2;
    return plan.waits[copy < 2 ? plan.bodySite(copy, cluster, afterCompute)
                               : plan.oddTileSite(cluster, afterCompute)];
  };
  return schedule;
}

/// Schedules `loop`; errors are emitted.
static LogicalResult scheduleLoop(scf::ForOp loop, unsigned priority,
                                  FillInterval fills, bool readAhead) {
  FailureOr<WaveGroups> groups =
      resolveWaveGroups(loop, "hk-schedule-ping-pong: ");
  if (failed(groups))
    return failure();
  const ChipInfo *chip = groups->chip;
  FailureOr<SyncLoop> sync = matchSyncLoop(loop);
  if (failed(sync))
    return failure();
  if (readAhead)
    for (LoadFragmentOp load : sync->kv.firstReads[0])
      for (Value operand : load->getOperands())
        if (operand != load.getSlot() &&
            loop->isAncestor(operand.getParentBlock()->getParentOp()))
          return load.emitOpError(
              "hk-schedule-ping-pong: reading ahead issues a K tile's first "
              "reads in the tile before, so their offsets must not depend on "
              "the loop");
  FailureOr<PingPongShape> shape = describeShape(*sync, *chip, groups->threads);
  if (failed(shape))
    return failure();
  PingPongPlan plan;
  plan.fills = fills;
  plan.readAhead = readAhead;
  CounterLimits limits{int(chip->maxVmCount), int(chip->maxLgkmCount)};
  if (llvm::Error why = planPingPong(*shape, limits, plan))
    return loop.emitError("hk-schedule-ping-pong: ")
           << llvm::toString(std::move(why));
  LLVM_DEBUG({
    llvm::dbgs() << "lead " << plan.lead << "\n";
    for (int site = 0; site < plan.numSites(); ++site)
      llvm::dbgs() << "site " << site << ": vm " << plan.waits[site].vm
                   << " lgkm " << plan.waits[site].lgkm << "\n";
  });

  // Double-buffer the regions and replace the loop.
  return applyLoopClusterSchedule(loop,
                                  describeSchedule(*sync, plan, priority));
}

namespace {
struct SchedulePingPongPass
    : hk::impl::SchedulePingPongBase<SchedulePingPongPass> {
  using SchedulePingPongBase::SchedulePingPongBase;

  void runOnOperation() override {
    // The hk.cluster verifier checks the priority's range.
    for (scf::ForOp loop : collectKVLoops(getOperation()))
      if (failed(scheduleLoop(loop, priority, fills, readAhead)))
        return signalPassFailure();
  }
};
} // namespace
