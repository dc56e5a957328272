//===- ClusterLoopExpansion.cpp - a pipelined K loop from its description -===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements applyLoopClusterSchedule (ClusterSchedule.h): the
// one expander of hk's loop schedules. A policy (hk-schedule-ping-pong,
// hk-schedule-interleave, -test-hk-cluster-schedule) says what each op of
// a K tile is issued for and where; this file builds the prologue, the
// steady loop, the remainder and the drain from that, as
// scf::pipelineForLoop does from its getScheduleFn.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Dialect/HK/Transforms/ClusterSchedule.h"
#include "HK/Dialect/HK/Transforms/Transforms.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

#define DEBUG_TYPE "hk-cluster-schedule"

using namespace mlir;
using namespace mlir::hk;

Value mlir::hk::emitTileCount(OpBuilder &b, scf::ForOp loop) {
  Location loc = loop.getLoc();
  return arith::CeilDivSIOp::create(
      b, loc,
      arith::SubIOp::create(b, loc, loop.getUpperBound(), loop.getLowerBound()),
      loop.getStep());
}

void mlir::hk::emitWait(OpBuilder &b, Location loc, const WaitCounts &w) {
  if (!w.waitsForAnything())
    return;
  auto count = [&](int v) {
    return v == WaitCounts::kNoWait ? IntegerAttr() : b.getI32IntegerAttr(v);
  };
  amdgpu::MemoryCounterWaitOp::create(b, loc, count(w.vm), nullptr,
                                      count(w.lgkm), nullptr, nullptr);
}

/// True if `loop` sits in another loop of its function.
static bool isRepeated(scf::ForOp loop) {
  for (Operation *op = loop->getParentOp(); op && !isa<FunctionOpInterface>(op);
       op = op->getParentOp())
    if (isa<LoopLikeOpInterface>(op))
      return true;
  return false;
}

namespace {
/// The K tile one copy of the steps computes: its index and its slots.
struct TileRef {
  Value tile;
  /// Slots are constants: the tile's is `staticSlot`; else they are
  /// computed from the tile.
  std::optional<int64_t> staticSlot;
};

/// Builds the schedule of one loop.
class Expansion {
public:
  Expansion(scf::ForOp loop, const LoopClusterSchedule &schedule)
      : loop(loop), s(schedule), loc(loop.getLoc()) {}

  /// Checks the schedule against the loop; nothing is changed on failure.
  LogicalResult check();
  /// Replaces the loop by its schedule.
  LogicalResult expand();

private:
  Value index(OpBuilder &b, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  Value toI32(OpBuilder &b, Value v) {
    return arith::IndexCastOp::create(b, loc, b.getI32Type(), v);
  }
  /// The loop's induction value for K tile `tile`, with `clamp` clamped to
  /// the last tile. The clamp is on i32 (tile counts are small): gfx9 has a
  /// scalar 32-bit min but no 64-bit compare.
  Value kOfTile(OpBuilder &b, Value tile, bool clamp) {
    // The first tile is in range whenever the schedule runs.
    if (matchPattern(tile, m_Zero()))
      return loop.getLowerBound();
    if (clamp)
      tile = arith::IndexCastOp::create(
          b, loc, b.getIndexType(),
          arith::MinSIOp::create(b, loc, toI32(b, tile), toI32(b, lastTile)));
    return arith::AddIOp::create(
        b, loc, loop.getLowerBound(),
        arith::MulIOp::create(b, loc, tile, loop.getStep()));
  }
  /// Points `clone`'s slot at `slot` if it fills or reads a double-buffered
  /// tile.
  void assignSlot(Operation *clone, function_ref<Value()> slot);
  /// Whether `op` fills or reads a double-buffered tile.
  bool accessesBufferedTile(Operation *op) const;
  void emitBarrier(OpBuilder &b) {
    if (s.barrier)
      b.clone(*s.barrier);
    else
      BarrierOp::create(b, loc);
  }
  /// Clones step `op` for K tile `target` (`slot`), issued ahead, with the
  /// pure ops of the body it depends on that `map` (the values already
  /// issued for that tile) lacks; `map` gets the clone's results.
  void cloneAhead(OpBuilder &b, Operation *op, function_ref<Value()> target,
                  function_ref<Value()> slot, IRMapping &map);
  /// The steps of one K tile at `b`, from `accs` and `carriedIn` (the
  /// values issued for it one tile ahead); with `carriedOut`, the steps
  /// issued ahead too, whose carried values it receives. `copy` chooses
  /// the waits. Returns the loop's yielded values for the tile.
  FailureOr<SmallVector<Value>> emitTile(OpBuilder &b, const TileRef &t,
                                         ValueRange accs, ValueRange carriedIn,
                                         unsigned copy,
                                         SmallVector<Value> *carriedOut);
  /// The steps `steps` (indices into s.tile) for constant K tile `target`,
  /// issued as the tiles before the first issue them, into `maps`.
  void emitForTile(OpBuilder &b, ArrayRef<unsigned> steps, int64_t target,
                   SmallVector<IRMapping> &maps);
  /// The prologue's steps `steps` for the first tile, in a cluster
  /// (clusterPrologueReads); `maps` gets their formed results.
  LogicalResult emitPrologueReads(OpBuilder &b, ArrayRef<unsigned> steps,
                                  SmallVector<IRMapping> &maps);
  /// The loop and the remainder after it, from `inits`; their results.
  FailureOr<SmallVector<Value>> emitLoop(OpBuilder &b, ValueRange inits);

  scf::ForOp loop;
  const LoopClusterSchedule &s;
  Location loc;
  Value tiles, lastTile;
  std::optional<WaveGroups> groups;
  llvm::SmallPtrSet<Operation *, 8> buffered;
  /// The results of the steps issued one tile ahead, in carry order.
  SmallVector<Value> carried;
  unsigned maxAhead = 0;
};
} // namespace

LogicalResult Expansion::check() {
  auto refuse = [&](Operation *at, const Twine &why) {
    return at->emitError("cluster schedule: ") << why;
  };
  if (s.tilesPerTrip != 1 && s.tilesPerTrip != 2)
    return refuse(loop, "a loop trip holds 1 or 2 K tiles, got " +
                            Twine(s.tilesPerTrip));
  if (s.staggerWaveGroups) {
    if (!s.guardWholeSchedule)
      return refuse(loop, "staggering the wave groups needs the whole "
                          "schedule guarded");
    FailureOr<WaveGroups> resolved = resolveWaveGroups(
        loop, "cluster schedule: cannot stagger the wave groups: ");
    if (failed(resolved))
      return failure();
    groups = *resolved;
  }
  for (Operation *alloc : s.doubleBuffered) {
    auto tile = dyn_cast_or_null<AllocSharedOp>(alloc);
    if (!tile || tile.getType().getSlots() != 1)
      return refuse(alloc ? alloc : loop.getOperation(),
                    "a double-buffered tile must be a one-slot "
                    "hk.alloc_shared");
    buffered.insert(alloc);
  }
  Block *body = loop.getBody();
  llvm::SmallPtrSet<Operation *, 32> issued;
  SmallVector<std::pair<unsigned, unsigned>> ranked; // (rank, step)
  for (auto [i, step] : llvm::enumerate(s.tile)) {
    if (!s.remainderClusters.empty() &&
        s.remainderClusters.size() != s.clusters.size())
      return refuse(loop,
                    "the remainder has " + Twine(s.remainderClusters.size()) +
                        " clusters but a tile " + Twine(s.clusters.size()));
    if (step.cluster && *step.cluster >= s.clusters.size())
      return refuse(step.op ? step.op : loop.getOperation(),
                    Twine(step.op ? "the op" : "a step") +
                        " is put in cluster " + Twine(*step.cluster) +
                        " but the schedule has " + Twine(s.clusters.size()) +
                        " clusters");
    if (step.kind == TileStep::Kind::wait && !s.waitCounts)
      return refuse(loop, "a step waits but the schedule gives no counts");
    if (step.kind != TileStep::Kind::op)
      continue;
    if (!step.op || step.op->getBlock() != body)
      return refuse(loop, "a step is not an op of the loop body");
    if (!issued.insert(step.op).second)
      return refuse(step.op, "the op is issued twice in a tile");
    maxAhead = std::max(maxAhead, step.ahead);
    if (step.ahead > 1 && !step.op->use_empty())
      return refuse(step.op, "the op is issued " + Twine(step.ahead) +
                                 " tiles ahead, but only values issued one "
                                 "tile ahead are carried to their tile");
    if (step.ahead == 1)
      ranked.push_back({step.carryRank, i});
  }
  llvm::stable_sort(ranked, [](auto x, auto y) { return x.first < y.first; });
  for (auto [rank, i] : ranked)
    llvm::append_range(carried, s.tile[i].op->getResults());
  // A tile computes from the values the steps of its own tile issue.
  for (const TileStep &step : s.tile)
    if (step.kind == TileStep::Kind::op && step.ahead == 0)
      for (Value operand : step.op->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (def && def->getBlock() == body && !issued.contains(def))
          return refuse(step.op, "the op uses a value of the loop body that "
                                 "no step issues");
      }
  if (!s.guardWholeSchedule)
    for (Value v : carried)
      if (!isa<FragmentType>(v.getType()) ||
          !isa<FloatType>(cast<FragmentType>(v.getType()).getElementType()))
        return refuse(v.getDefiningOp(),
                      "without the whole schedule guarded, a value issued "
                      "ahead is zero when the loop does not run: it must "
                      "be a float fragment");
  return success();
}

bool Expansion::accessesBufferedTile(Operation *op) const {
  if (auto load = dyn_cast<LoadFragmentOp>(op))
    return buffered.contains(load.getTile().getDefiningOp());
  if (auto copy = dyn_cast<CopyToSharedOp>(op))
    return buffered.contains(copy.getTile().getDefiningOp());
  return false;
}

void Expansion::assignSlot(Operation *clone, function_ref<Value()> slot) {
  if (!accessesBufferedTile(clone))
    return;
  if (auto load = dyn_cast<LoadFragmentOp>(clone))
    load.getSlotMutable().assign(slot());
  else
    cast<CopyToSharedOp>(clone).getSlotMutable().assign(slot());
}

void Expansion::cloneAhead(OpBuilder &b, Operation *op,
                           function_ref<Value()> target,
                           function_ref<Value()> slot, IRMapping &map) {
  Block *body = loop.getBody();
  llvm::SetVector<Operation *> slice;
  SmallVector<Operation *> work = {op};
  bool usesIndex = false;
  while (!work.empty()) {
    Operation *next = work.pop_back_val();
    if (!slice.insert(next))
      continue;
    next->walk([&](Operation *nested) {
      usesIndex |=
          llvm::is_contained(nested->getOperands(), loop.getInductionVar());
    });
    for (Value operand : next->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && def->getBlock() == body && !map.contains(operand))
        work.push_back(def);
    }
  }
  // Made before the clones that use them.
  Value slotValue = accessesBufferedTile(op) ? slot() : Value();
  IRMapping local = map;
  if (usesIndex)
    local.map(loop.getInductionVar(), kOfTile(b, target(), /*clamp=*/true));
  Operation *clone = nullptr;
  for (Operation &bodyOp : body->without_terminator())
    if (slice.contains(&bodyOp))
      clone = b.clone(bodyOp, local);
  if (slotValue)
    assignSlot(clone, [&] { return slotValue; });
  map.map(op->getResults(), clone->getResults());
}

FailureOr<SmallVector<Value>>
Expansion::emitTile(OpBuilder &b, const TileRef &t, ValueRange accs,
                    ValueRange carriedIn, unsigned copy,
                    SmallVector<Value> *carriedOut) {
  IRMapping map;
  map.map(loop.getInductionVar(), kOfTile(b, t.tile, s.clampComputedTile));
  map.map(loop.getRegionIterArgs(), accs);
  map.map(carried, carriedIn);
  // The tile's slot, and the other; a constant one is made where it is
  // used, but for the tile's own (its reads share it).
  Value slot, other;
  if (t.staticSlot) {
    slot = index(b, *t.staticSlot);
  } else {
    slot = arith::AndIOp::create(b, loc, t.tile, index(b, 1));
    other = arith::XOrIOp::create(b, loc, slot, index(b, 1));
  }
  auto slotOf = [&](unsigned ahead) -> Value {
    if (ahead % 2 == 0 && (!t.staticSlot || ahead == 0))
      return slot;
    if (t.staticSlot)
      return index(b, (*t.staticSlot + ahead) % 2);
    return other;
  };
  // The steps are emitted in their order, after the values above; the
  // recorder notes the cluster of each op and forms them.
  ClusterRecorder recorder(b, carriedOut || s.remainderClusters.empty()
                                  ? s.clusters
                                  : s.remainderClusters);
  SmallVector<IRMapping> ahead(maxAhead + 1);
  for (const TileStep &step : s.tile) {
    if (step.ahead > 0 && !carriedOut)
      continue;
    recorder.enter(step.cluster);
    switch (step.kind) {
    case TileStep::Kind::wait:
      emitWait(b, loc, s.waitCounts(step.wait, copy));
      break;
    case TileStep::Kind::barrier:
      emitBarrier(b);
      break;
    case TileStep::Kind::op:
      if (step.ahead == 0) {
        assignSlot(b.clone(*step.op, map), [&] { return slotOf(0); });
        break;
      }
      auto target = [&] {
        return arith::AddIOp::create(b, loc, t.tile, index(b, step.ahead));
      };
      cloneAhead(
          b, step.op, target, [&] { return slotOf(step.ahead); },
          ahead[step.ahead]);
      break;
    }
  }
  recorder.close();
  SmallVector<Value> out;
  for (Value v : loop.getBody()->getTerminator()->getOperands())
    out.push_back(map.lookupOrDefault(v));
  size_t accCount = out.size();
  if (carriedOut)
    for (Value v : carried)
      out.push_back(ahead[1].lookup(v));
  if (failed(recorder.form(out)))
    return failure();
  if (carriedOut)
    carriedOut->assign(out.begin() + accCount, out.end());
  out.resize(accCount);
  return out;
}

void Expansion::emitForTile(OpBuilder &b, ArrayRef<unsigned> steps,
                            int64_t target, SmallVector<IRMapping> &maps) {
  if (steps.empty())
    return;
  Value tile = index(b, target), slot = index(b, target % 2);
  for (unsigned i : steps)
    cloneAhead(
        b, s.tile[i].op, [&] { return tile; }, [&] { return slot; },
        maps[s.tile[i].ahead]);
}

LogicalResult Expansion::emitPrologueReads(OpBuilder &b,
                                           ArrayRef<unsigned> steps,
                                           SmallVector<IRMapping> &maps) {
  if (steps.empty())
    return success();
  ClusterRecorder recorder(b);
  if (s.clusterPrologueReads)
    recorder.open({});
  // Each is issued for the first tile, by the tile `ahead` before it.
  emitForTile(b, steps, 0, maps);
  recorder.close();
  SmallVector<Value> originals, values;
  for (unsigned i : steps)
    for (Value v : s.tile[i].op->getResults()) {
      originals.push_back(v);
      values.push_back(maps[s.tile[i].ahead].lookup(v));
    }
  if (failed(recorder.form(values)))
    return failure();
  for (auto [original, value] : llvm::zip(originals, values))
    for (IRMapping &map : maps)
      if (map.contains(original))
        map.map(original, value);
  return success();
}

FailureOr<SmallVector<Value>> Expansion::emitLoop(OpBuilder &b,
                                                  ValueRange inits) {
  size_t accCount = loop.getNumRegionIterArgs();
  unsigned perTrip = s.tilesPerTrip;
  Value trips =
      perTrip == 1
          ? tiles
          : Value(arith::DivSIOp::create(b, loc, tiles, index(b, perTrip)));
  scf::ForOp steady;
  if (s.countOnI32) {
    // A scalar compare exits the loop (a 64-bit one is a VALU compare on a
    // VGPR pair, two registers the loop lacks).
    steady = scf::ForOp::create(
        b, loc, arith::ConstantIntOp::create(b, loc, 0, 32), toI32(b, trips),
        arith::ConstantIntOp::create(b, loc, 1, 32), inits);
  } else {
    steady = scf::ForOp::create(b, loc, index(b, 0), trips, index(b, 1), inits);
  }
  {
    OpBuilder l = OpBuilder::atBlockBegin(steady.getBody());
    Value trip = steady.getInductionVar();
    if (s.countOnI32)
      trip = arith::IndexCastOp::create(l, loc, l.getIndexType(), trip);
    Value first =
        perTrip == 1
            ? trip
            : Value(arith::MulIOp::create(l, loc, trip, index(l, perTrip)));
    ValueRange args = steady.getRegionIterArgs();
    SmallVector<Value> accs(args.take_front(accCount));
    SmallVector<Value> carriedIn(args.drop_front(accCount));
    for (unsigned copy = 0; copy < perTrip; ++copy) {
      TileRef t;
      t.tile =
          perTrip == 1
              ? first
              : Value(arith::AddIOp::create(l, loc, first, index(l, copy)));
      if (perTrip == 2)
        t.staticSlot = copy;
      SmallVector<Value> carriedOut;
      FailureOr<SmallVector<Value>> out =
          emitTile(l, t, accs, carriedIn, copy, &carriedOut);
      if (failed(out))
        return failure();
      accs = *out;
      carriedIn = std::move(carriedOut);
    }
    llvm::append_range(accs, carriedIn);
    scf::YieldOp::create(l, loc, accs);
  }
  SmallVector<Value> results(steady.getResults().take_front(accCount));
  if (perTrip == 1)
    return results;
  // An odd tile count: the last tile (even, slot 0), without the steps
  // issued ahead.
  Value odd = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne,
      arith::RemSIOp::create(b, loc, tiles, index(b, 2)), index(b, 0));
  auto ifOdd = scf::IfOp::create(b, loc, loop.getResultTypes(), odd,
                                 /*withElseRegion=*/true);
  OpBuilder o = OpBuilder::atBlockBegin(ifOdd.thenBlock());
  TileRef last{lastTile, 0};
  FailureOr<SmallVector<Value>> accs =
      emitTile(o, last, results, steady.getResults().drop_front(accCount),
               /*copy=*/perTrip, /*carriedOut=*/nullptr);
  if (failed(accs))
    return failure();
  scf::YieldOp::create(o, loc, *accs);
  OpBuilder e = OpBuilder::atBlockBegin(ifOdd.elseBlock());
  scf::YieldOp::create(e, loc, results);
  return SmallVector<Value>(ifOdd.getResults());
}

/// Zeros of the float fragment types `types`.
static SmallVector<Value> emitZeros(OpBuilder &b, Location loc,
                                    TypeRange types) {
  SmallVector<Value> zeros;
  for (Type type : types) {
    auto fragment = cast<FragmentType>(type);
    Value zero = arith::ConstantOp::create(
        b, loc, b.getFloatAttr(fragment.getElementType(), 0.0));
    zeros.push_back(FillFragmentOp::create(b, loc, fragment, zero));
  }
  return zeros;
}

LogicalResult Expansion::expand() {
  for (Operation *alloc : buffered)
    cast<AllocSharedOp>(alloc).setSlots(2);
  // The steps issued ahead, by what the prologue does with them: fills of
  // the shared tiles; other ops with memory effects (reads into
  // registers), before the waits; the rest (reads of the shared tiles,
  // work on what was read) after the publishing barrier.
  SmallVector<unsigned> fills, reads, rest;
  for (auto [i, step] : llvm::enumerate(s.tile)) {
    if (step.kind != TileStep::Kind::op || step.ahead == 0)
      continue;
    auto load = dyn_cast<LoadFragmentOp>(step.op);
    if (isa<CopyToSharedOp>(step.op))
      fills.push_back(i);
    else if ((load && buffered.contains(load.getTile().getDefiningOp())) ||
             isMemoryEffectFree(step.op))
      rest.push_back(i);
    else
      reads.push_back(i);
  }
  OpBuilder b(loop);
  tiles = emitTileCount(b, loop);
  if (!s.guardWholeSchedule)
    lastTile = arith::SubIOp::create(b, loc, tiles, index(b, 1));
  Value runs = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                     index(b, 0), tiles);
  TypeRange accTypes = loop.getResultTypes();
  scf::IfOp ifRuns;
  OpBuilder t = b;
  if (s.guardWholeSchedule) {
    ifRuns = scf::IfOp::create(b, loc, accTypes, runs,
                               /*withElseRegion=*/true);
    OpBuilder e = OpBuilder::atBlockBegin(ifRuns.elseBlock());
    scf::YieldOp::create(e, loc, loop.getInits());
    t.setInsertionPointToStart(ifRuns.thenBlock());
  }
  if (!lastTile)
    lastTile = arith::SubIOp::create(t, loc, tiles, index(t, 1));

  // Prologue: the fills the tiles before the first would issue, in the
  // order they would.
  SmallVector<IRMapping> maps(maxAhead + 1);
  {
    OpBuilder f = t;
    if (!s.guardWholeSchedule && !fills.empty()) {
      auto guard = scf::IfOp::create(t, loc, runs, /*withElseRegion=*/false);
      f.setInsertionPoint(guard.thenBlock()->getTerminator());
    }
    // Per tile before the first, its fills for each tile, in order.
    for (int64_t before = -int64_t(maxAhead); before < 0; ++before) {
      SmallVector<unsigned> forTile;
      for (int64_t target = 0; target <= before + maxAhead; ++target) {
        forTile.clear();
        for (unsigned i : fills)
          if (before + int64_t(s.tile[i].ahead) == target)
            forTile.push_back(i);
        emitForTile(f, forTile, target, maps);
      }
    }
  }
  if (failed(emitPrologueReads(t, reads, maps)))
    return failure();
  emitWait(t, loc, s.prologueWait);
  OpBuilder st = t;
  StaggerOp stagger;
  if (groups) {
    // Waves of the second half of the workgroup run one barrier behind.
    Value late =
        emitLateWaveGroup(t, loc, groups->chip->waveSize, groups->waves);
    stagger = StaggerOp::create(t, loc, accTypes, late);
    st.setInsertionPointToStart(&stagger.getBody().emplaceBlock());
  }
  emitWait(st, loc, s.publishWait);
  if (!fills.empty())
    emitBarrier(st);
  // The rest of the first tile's values issued ahead.
  SmallVector<Value> inits(loop.getInits());
  // Reads of the shared tiles in a cluster, then the work on them.
  auto emitRest = [&](OpBuilder &at) {
    SmallVector<unsigned> sharedReads, work;
    for (unsigned i : rest)
      (isa<LoadFragmentOp>(s.tile[i].op) ? sharedReads : work).push_back(i);
    if (failed(emitPrologueReads(at, sharedReads, maps)))
      return failure();
    emitForTile(at, work, 0, maps);
    return success();
  };
  if (s.guardWholeSchedule) {
    if (failed(emitRest(st)))
      return failure();
    for (Value v : carried)
      inits.push_back(maps[1].lookup(v));
  } else if (!carried.empty()) {
    auto first = scf::IfOp::create(st, loc, ValueRange(carried).getTypes(),
                                   runs, /*withElseRegion=*/true);
    OpBuilder in = OpBuilder::atBlockBegin(first.thenBlock());
    if (failed(emitRest(in)))
      return failure();
    SmallVector<Value> values;
    for (Value v : carried)
      values.push_back(maps[1].lookup(v));
    scf::YieldOp::create(in, loc, values);
    in.setInsertionPointToStart(first.elseBlock());
    scf::YieldOp::create(in, loc,
                         emitZeros(in, loc, ValueRange(carried).getTypes()));
    llvm::append_range(inits, first.getResults());
  }

  FailureOr<SmallVector<Value>> results = emitLoop(st, inits);
  if (failed(results))
    return failure();
  emitWait(st, loc, s.finalWait);
  if (stagger) {
    YieldOp::create(st, loc, *results);
    results = SmallVector<Value>(stagger.getResults());
  }
  // Fills issued for tiles past the last are still in flight: drain them
  // before anything else uses LDS or the kernel ends.
  if (!fills.empty())
    emitWaitForLoads(t, loc);
  if (s.drainBarrier) {
    emitBarrier(t);
  } else if (!fills.empty() && isRepeated(loop)) {
    // The schedule runs again (a persistent kernel's next work item): its
    // prologue's fills wait for every wave's last reads of the tiles.
    WaitCounts reads;
    reads.lgkm = 0;
    emitWait(t, loc, reads);
    emitBarrier(t);
  }
  if (ifRuns) {
    scf::YieldOp::create(t, loc, *results);
    results = SmallVector<Value>(ifRuns.getResults());
  }
  loop.replaceAllUsesWith(*results);
  loop.erase();
  return success();
}

LogicalResult
mlir::hk::applyLoopClusterSchedule(scf::ForOp loop,
                                   const LoopClusterSchedule &schedule) {
  Expansion expansion(loop, schedule);
  if (failed(expansion.check()))
    return failure();
  return expansion.expand();
}
