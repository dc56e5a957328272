//===- ScheduleInterleave.cpp - K loops read a tile ahead, one barrier ---===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements hk-schedule-interleave: a synchronous K loop with
// direct-to-LDS fills becomes a double-buffered loop with one barrier per K
// tile, in its middle, that carries the operands of its first MMA a tile
// ahead in registers. The loop is taken apart by the K/V loop analysis
// (KVLoop.h) and its clusters formed by the cluster mechanism
// (ClusterSchedule.h); this file is the policy.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Dialect/HK/Transforms/ClusterSchedule.h"
#include "HK/Dialect/HK/Transforms/Passes.h"
#include "HK/Dialect/HK/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#define DEBUG_TYPE "hk-schedule-interleave"

namespace mlir::hk {
#define GEN_PASS_DEF_SCHEDULEINTERLEAVE
#include "HK/Dialect/HK/Transforms/Passes.h.inc"
} // namespace mlir::hk

using namespace mlir;
using namespace mlir::hk;

namespace {
/// What the schedule does with one synchronous K loop.
struct InterleavePlan {
  KVLoop kv;
  SmallVector<AllocSharedOp> tiles;
  /// The fragment loads before the first MMA: the loop carries them, read
  /// a tile ahead.
  SmallVector<LoadFragmentOp> ahead;
  /// The rest of the compute section in the order the schedule emits it:
  /// each other fragment load that follows an MMA is issued before it (the
  /// MMA's time hides its latency).
  SmallVector<Operation *> order;
  /// The MMA of `order` after which the barrier goes: the first after the
  /// last other fragment load.
  Operation *split = nullptr;
};
} // namespace

/// `op` as a fragment load of a tile the loop fills; null if it is not one.
static LoadFragmentOp tileRead(const KVLoop &kv, Operation *op) {
  auto load = dyn_cast<LoadFragmentOp>(op);
  if (load && kv.getTile(load.getTile().getDefiningOp()))
    return load;
  return nullptr;
}

/// Plans `loop`, or says (as an error on it) why the schedule cannot take
/// it.
static FailureOr<InterleavePlan> planLoop(scf::ForOp loop) {
  auto refuse = [&](const Twine &why) {
    return loop.emitError("hk-schedule-interleave: ") << why;
  };
  llvm::Expected<KVLoop> kv = analyzeKVLoop(loop);
  if (!kv)
    return refuse(llvm::toString(kv.takeError()));
  InterleavePlan plan{std::move(*kv), {}, {}, {}, nullptr};
  const KVLoop &k = plan.kv;
  if (llvm::any_of(k.copies, [](CopyToSharedOp c) { return !c.getDirect(); }))
    return refuse("its fills must be direct-to-LDS loads (hk-direct-lds-fill) "
                  "so that its waits count them");
  if (!k.registerReads.empty())
    return refuse("it reads global memory into registers "
                  "('hk.read_fragment'); schedule=ping-pong carries those");
  std::string why;
  FailureOr<std::optional<SmallVector<AllocSharedOp>>> tiles =
      checkSecondSlots(loop, k, "hk-schedule-interleave", why);
  if (failed(tiles))
    return failure();
  if (!*tiles)
    return refuse(why);
  plan.tiles = std::move(**tiles);
  llvm::SmallPtrSet<Operation *, 16> fillOps(k.fillSection.begin(),
                                             k.fillSection.end());
  for (Operation *op : k.computeSection) {
    WalkResult uses = op->walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        if (fillOps.contains(v.getDefiningOp()))
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (uses.wasInterrupted())
      return refuse("its compute part uses a value its fill part computes");
  }
  for (auto &[op, tile] : k.tiles)
    for (LoadFragmentOp read : tile.reads)
      if (read->getParentOp() != loop.getOperation())
        return refuse("a fragment load of a filled tile is nested in the "
                      "loop body, not at its top level");

  // Loads before the first MMA, whose indices do not change in the loop,
  // are read a tile ahead; each other load that follows an MMA moves
  // before it; the barrier goes after the first MMA that follows the last
  // other load.
  bool beforeMma = true;
  for (Operation *op : k.computeSection) {
    LoadFragmentOp load = tileRead(k, op);
    if (isa<MmaOp>(op))
      beforeMma = false;
    if (load && beforeMma && llvm::all_of(load->getOperands(), [&](Value v) {
          return v == load.getSlot() || loop.isDefinedOutsideOfLoop(v);
        })) {
      plan.ahead.push_back(load);
      continue;
    }
    if (load && !plan.order.empty() && isa<MmaOp>(plan.order.back()))
      plan.order.insert(std::prev(plan.order.end()), op);
    else
      plan.order.push_back(op);
  }
  for (Operation *op : plan.order) {
    if (tileRead(k, op))
      plan.split = nullptr;
    else if (isa<MmaOp>(op) && !plan.split)
      plan.split = op;
  }
  if (plan.ahead.empty())
    return refuse("no fragment load with loop-invariant indices comes "
                  "before its first MMA: nothing to read a tile ahead");
  if (!plan.split)
    return refuse("no MMA follows its last fragment load to hide the wait "
                  "of the barrier after it");
  return plan;
}

/// Where the loads ahead of the next tile go, together: after the op of
/// `plan.order` that last uses one of their values for this tile (each
/// takes its value's registers), or, when that is the split MMA or an op
/// before it, after the barrier and the fill (nullptr).
static Operation *placeLoadsAhead(const InterleavePlan &plan) {
  DenseMap<Operation *, size_t> position;
  for (auto [i, op] : llvm::enumerate(plan.order))
    position[op] = i;
  size_t split = position.lookup(plan.split), last = split;
  Block *body = scf::ForOp(plan.kv.loop).getBody();
  for (LoadFragmentOp load : plan.ahead)
    for (Operation *user : load->getUsers()) {
      auto it = position.find(body->findAncestorOpInBlock(*user));
      if (it != position.end())
        last = std::max(last, it->second);
    }
  return last == split ? nullptr : plan.order[last];
}

/// The schedule of the planned loop, as the cluster mechanism takes it:
///
///   fill tile 0 -> slot 0; fill tile 1 -> slot 1; wait; barrier
///   ahead = the first MMA's loads of slot 0
///   for tile t (slot s = t % 2, carrying ahead):
///     the compute section up to the split MMA, from slot s
///     wait for the fills of tile t + 1; barrier
///     fill tile min(t + 2, last) -> slot s
///     the rest of the compute section; the loads ahead of tile t + 1,
///       from slot 1 - s, after the last use of their tile-t values
///   wait; barrier
///
/// Each MMA forms an alternating cluster with the memory ops issued just
/// before it (its loads; after the barrier the fill; the loads ahead): its
/// MFMAs and their LDS reads and direct loads issue in turn.
static LoopClusterSchedule describeSchedule(const InterleavePlan &plan) {
  const KVLoop &kv = plan.kv;
  LoopClusterSchedule schedule;
  const ClusterSpec alternating{/*priority=*/0, /*interleaved=*/true,
                                /*alternating=*/true};
  schedule.clusters.push_back(alternating);
  auto nextCluster = [&] { schedule.clusters.push_back(alternating); };
  auto cluster = [&] { return unsigned(schedule.clusters.size() - 1); };
  Operation *aheadAfter = placeLoadsAhead(plan);
  auto addLoadsAhead = [&] {
    for (LoadFragmentOp load : plan.ahead)
      schedule.tile.push_back(TileStep::ofOp(load, 1, cluster()));
  };
  bool pastFirstMma = false;
  for (Operation *op : plan.order) {
    // A later load opens the next MMA's cluster: it stays after the MMAs
    // before it (the backend would otherwise hoist it and hold its
    // registers beside theirs).
    if (tileRead(kv, op) && pastFirstMma)
      nextCluster();
    schedule.tile.push_back(TileStep::ofOp(op, 0, cluster()));
    pastFirstMma |= isa<MmaOp>(op);
    if (op != plan.split) {
      if (op == aheadAfter) {
        nextCluster();
        addLoadsAhead();
      }
      continue;
    }
    schedule.tile.push_back(TileStep::ofWait(0));
    schedule.tile.push_back(TileStep::ofBarrier());
    nextCluster();
    for (CopyToSharedOp copy : kv.copies)
      schedule.tile.push_back(TileStep::ofOp(copy, 2, cluster()));
    if (!aheadAfter)
      addLoadsAhead();
  }
  schedule.doubleBuffered.assign(plan.tiles.begin(), plan.tiles.end());
  // Every wait is for the loads: the fills of the next tile.
  WaitCounts loads;
  loads.vm = 0;
  schedule.prologueWait = loads;
  schedule.waitCounts = [loads](unsigned, unsigned) { return loads; };
  schedule.barrier = kv.fillBarrier;
  // The clamped fills past the last tile are still in flight, and the
  // last loads ahead read the other slot: drain and sync before anything
  // else uses LDS.
  schedule.drainBarrier = true;
  // The loop counts tiles on i32 (its exit is a scalar compare); a tile's
  // index needs no clamp; the reads ahead are zeros when the loop does not
  // run.
  schedule.countOnI32 = true;
  schedule.clampComputedTile = false;
  schedule.guardWholeSchedule = false;
  schedule.clusterPrologueReads = false;
  return schedule;
}

/// Asks the backend to keep the loops' vector phis whole. AMDGPUCodeGenPrepare
/// splits the accumulator phis (zero on entry, rebuilt from MFMA results)
/// into 32-bit phis; the register allocator then reassembles each MFMA's
/// accumulator from copies and moves values between VGPRs and AGPRs in the
/// loop. Other schedules measured worse unsplit (docs/Fp8.md#interleave). An
/// explicit setting in the module's options stays.
static void keepAccumulatorPhisWhole(gpu::GPUModuleOp module) {
  constexpr StringLiteral breakLargePhis =
      "amdgpu-codegenprepare-break-large-phis";
  StringRef name = HKDialect::getBackendOptionsAttrName();
  NamedAttrList options;
  if (auto existing = module->getAttrOfType<DictionaryAttr>(name))
    options.append(existing.getValue());
  if (!options.get(breakLargePhis))
    options.set(breakLargePhis, StringAttr::get(module.getContext(), "false"));
  module->setAttr(name, options.getDictionary(module.getContext()));
}

namespace {
struct ScheduleInterleavePass
    : hk::impl::ScheduleInterleaveBase<ScheduleInterleavePass> {
  using ScheduleInterleaveBase::ScheduleInterleaveBase;

  void runOnOperation() override {
    std::vector<InterleavePlan> plans;
    for (scf::ForOp loop : collectKVLoops(getOperation())) {
      FailureOr<InterleavePlan> plan = planLoop(loop);
      if (failed(plan))
        return signalPassFailure();
      plans.push_back(std::move(*plan));
    }
    for (InterleavePlan &plan : plans)
      if (failed(
              applyLoopClusterSchedule(plan.kv.loop, describeSchedule(plan))))
        return signalPassFailure();
    if (!plans.empty())
      keepAccumulatorPhisWhole(getOperation());
  }
};
} // namespace
