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
#include "mlir/IR/IRMapping.h"

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

/// Replaces the planned loop by its schedule:
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
static LogicalResult emitSchedule(InterleavePlan &plan) {
  const KVLoop &kv = plan.kv;
  scf::ForOp loop = kv.loop;
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  auto index = [&](OpBuilder &at, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(at, loc, v);
  };
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
        step = loop.getStep();
  for (AllocSharedOp alloc : plan.tiles)
    alloc.setSlots(2);

  // Tiles and the last tile; the clamp is on i32 (tile counts are small):
  // gfx9 has a scalar 32-bit min but no 64-bit compare.
  Value tiles = arith::CeilDivSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, ub, lb), step);
  Value lastTile = arith::SubIOp::create(b, loc, tiles, index(b, 1));
  auto i32 = [&](OpBuilder &at, Value v) -> Value {
    return arith::IndexCastOp::create(at, loc, at.getI32Type(), v);
  };
  auto kOfTile = [&](OpBuilder &at, Value tile) -> Value {
    Value clamped = arith::IndexCastOp::create(
        at, loc, at.getIndexType(),
        arith::MinSIOp::create(at, loc, i32(at, tile), i32(at, lastTile)));
    return arith::AddIOp::create(at, loc, lb,
                                 arith::MulIOp::create(at, loc, clamped, step));
  };

  // Prologue: the first two tiles (the second clamped, so that the slot a
  // one-tile loop reads ahead holds data), then the first tile's loads
  // ahead (zeros when the loop does not run: nothing reads an unfilled
  // slot).
  Value runs = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                     index(b, 0), tiles);
  {
    auto guard = scf::IfOp::create(b, loc, runs, /*withElseRegion=*/false);
    OpBuilder in = OpBuilder::atBlockTerminator(guard.thenBlock());
    Value slot0 = index(in, 0), slot1 = index(in, 1);
    emitFill(in, kv, lb, slot0);
    emitFill(in, kv, kOfTile(in, slot1), slot1);
  }
  emitWaitForLoads(b, loc);
  b.clone(*kv.fillBarrier);
  SmallVector<Type> aheadTypes;
  for (LoadFragmentOp load : plan.ahead)
    aheadTypes.push_back(load.getType());
  auto first = scf::IfOp::create(b, loc, aheadTypes, runs,
                                 /*withElseRegion=*/true);
  {
    OpBuilder in = OpBuilder::atBlockBegin(first.thenBlock());
    Value slot0 = index(in, 0);
    SmallVector<Value> reads;
    for (LoadFragmentOp load : plan.ahead) {
      auto clone = cast<LoadFragmentOp>(in.clone(*load));
      clone.getSlotMutable().assign(slot0);
      reads.push_back(clone);
    }
    scf::YieldOp::create(in, loc, reads);
    in.setInsertionPointToStart(first.elseBlock());
    SmallVector<Value> zeros;
    for (LoadFragmentOp load : plan.ahead) {
      FragmentType type = load.getType();
      Value zero = arith::ConstantOp::create(
          in, loc, in.getFloatAttr(type.getElementType(), 0.0));
      zeros.push_back(FillFragmentOp::create(in, loc, type, zero));
    }
    scf::YieldOp::create(in, loc, zeros);
  }

  // The loop, carrying the loads ahead after its own values.
  SmallVector<Value> inits(loop.getInitArgs());
  llvm::append_range(inits, first.getResults());
  // The loop counts tiles on i32: its exit is a scalar compare (a 64-bit
  // one is a VALU compare on a VGPR pair, two registers the loop lacks).
  auto scheduled = scf::ForOp::create(
      b, loc, arith::ConstantIntOp::create(b, loc, 0, 32), i32(b, tiles),
      arith::ConstantIntOp::create(b, loc, 1, 32), inits);
  Block &body = *scheduled.getBody();
  OpBuilder in = OpBuilder::atBlockBegin(&body);
  Value tile = arith::IndexCastOp::create(in, loc, in.getIndexType(),
                                          scheduled.getInductionVar());
  Value iv = arith::AddIOp::create(in, loc, lb,
                                   arith::MulIOp::create(in, loc, tile, step));
  Value slot = arith::AndIOp::create(in, loc, tile, index(in, 1));
  Value other = arith::XOrIOp::create(in, loc, slot, index(in, 1));
  IRMapping map;
  map.map(loop.getInductionVar(), iv);
  size_t own = loop.getNumRegionIterArgs();
  for (auto [old, now] :
       llvm::zip(loop.getRegionIterArgs(),
                 scheduled.getRegionIterArgs().take_front(own)))
    map.map(old, now);
  for (auto [load, now] :
       llvm::zip(plan.ahead, scheduled.getRegionIterArgs().drop_front(own)))
    map.map(load.getResult(), now);

  Operation *aheadAfter = placeLoadsAhead(plan);
  SmallVector<Value> next;
  auto emitLoadsAhead = [&] {
    for (LoadFragmentOp load : plan.ahead) {
      auto clone = cast<LoadFragmentOp>(in.clone(*load, map));
      clone.getSlotMutable().assign(other);
      next.push_back(clone);
    }
  };
  // The ops are emitted in their final order; the recorder notes the
  // cluster of each and the cluster mechanism forms them.
  ClusterRecorder recorder(in);
  const ClusterSpec alternating{/*priority=*/0, /*interleaved=*/true,
                                /*alternating=*/true};
  auto nextCluster = [&] {
    recorder.close();
    recorder.open(alternating);
  };
  recorder.open(alternating);
  bool pastFirstMma = false;
  for (Operation *op : plan.order) {
    // A later load opens the next MMA's cluster: it stays after the MMAs
    // before it (the backend would otherwise hoist it and hold its
    // registers beside theirs).
    if (tileRead(kv, op) && pastFirstMma)
      nextCluster();
    Operation *clone = in.clone(*op, map);
    if (LoadFragmentOp load = tileRead(kv, clone))
      load.getSlotMutable().assign(slot);
    pastFirstMma |= isa<MmaOp>(op);
    if (op != plan.split) {
      if (op == aheadAfter) {
        nextCluster();
        emitLoadsAhead();
      }
      continue;
    }
    recorder.close();
    emitWaitForLoads(in, loc);
    in.clone(*kv.fillBarrier);
    recorder.open(alternating);
    Value two = arith::AddIOp::create(in, loc, tile, index(in, 2));
    emitFill(in, kv, kOfTile(in, two), slot);
    if (!aheadAfter)
      emitLoadsAhead();
  }
  recorder.close();
  SmallVector<Value> yielded;
  for (Value v : loop.getBody()->getTerminator()->getOperands())
    yielded.push_back(map.lookupOrDefault(v));
  llvm::append_range(yielded, next);
  if (failed(recorder.form(yielded)))
    return failure();
  OpBuilder end = OpBuilder::atBlockEnd(&body);
  scf::YieldOp::create(end, loc, yielded);

  // The clamped fills past the last tile are still in flight, and the
  // last loads ahead read the other slot: drain and sync before anything
  // else uses LDS.
  b.setInsertionPointAfter(scheduled);
  emitWaitForLoads(b, loc);
  b.clone(*kv.fillBarrier);
  loop.replaceAllUsesWith(scheduled.getResults().take_front(own));
  loop.erase();
  return success();
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
      if (failed(emitSchedule(plan)))
        return signalPassFailure();
    if (!plans.empty())
      keepAccumulatorPhisWhole(getOperation());
  }
};
} // namespace
