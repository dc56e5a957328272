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
/// cluster c after its MMA), and the regions and reads of each cluster.
struct SyncLoop {
  KVLoop kv;
  /// The copy filling each region, regions numbered in order of first read.
  SmallVector<CopyToSharedOp> fills;
  /// Per MMA: the loads it is the first user of, in program order.
  SmallVector<SmallVector<LoadFragmentOp>> clusterLoads;
  /// Per cluster: the indices into kv.registerReads its memory interval
  /// issues for the next K tile, spread evenly in the order of their first
  /// MMA (the first needed the longest ahead).
  SmallVector<SmallVector<int>> clusterRegisterReads;
  /// The elementwise work before the first MMA that depends on the loop
  /// only through its register reads (block scales arranged for the MFMA),
  /// in program order: the tile before runs it, beside its last MMA, and
  /// the loop carries its results.
  SmallVector<Operation *> earlyWork;
  DenseMap<Operation *, int> regionOfAlloc;
};
} // namespace

static bool isZeroIndex(Value v) { return matchPattern(v, m_Zero()); }

/// The ops of `loop`'s body that `root` depends on, `root` included.
static llvm::SetVector<Operation *> bodySliceOf(scf::ForOp loop,
                                                Operation *root) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Operation *> work = {root};
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!slice.insert(op))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        if (def->getBlock() == loop.getBody())
          work.push_back(def);
  }
  return slice;
}

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
    for (Operation *op : bodySliceOf(loop, read)) {
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

  DenseSet<Operation *> used;
  for (MmaOp mma : sync.kv.mmas) {
    // Operands read from the loop's tiles are the cluster's reads; others
    // (a fragment kept in registers, one computed in the loop) are values.
    SmallVector<LoadFragmentOp> first;
    bool readsTile = false;
    for (Value operand : {mma.getA(), mma.getB()}) {
      auto load = operand.getDefiningOp<LoadFragmentOp>();
      if (!load || load->getBlock() != body)
        continue;
      readsTile = true;
      if (used.insert(load).second)
        first.push_back(load);
    }
    if (!readsTile)
      return refuse("an MMA reads no fragment from the tiles the loop fills");
    llvm::sort(first, [](LoadFragmentOp x, LoadFragmentOp y) {
      return x->isBeforeInBlock(y);
    });
    for (LoadFragmentOp load : first) {
      Operation *alloc = load.getTile().getDefiningOp();
      if (!sync.regionOfAlloc.count(alloc))
        sync.regionOfAlloc[alloc] = sync.regionOfAlloc.size();
    }
    sync.clusterLoads.push_back(std::move(first));
  }
  int clusters = sync.kv.mmas.size();
  int readCount = sync.kv.registerReads.size();
  // Each read's first MMA: the first whose slice holds it.
  SmallVector<int> firstUse(readCount, clusters), order;
  for (auto [c, mma] : llvm::enumerate(sync.kv.mmas)) {
    llvm::SetVector<Operation *> slice = bodySliceOf(loop, mma);
    for (auto [j, read] : llvm::enumerate(sync.kv.registerReads))
      if (firstUse[j] == clusters && slice.contains(read))
        firstUse[j] = c;
  }
  for (int j = 0; j < readCount; ++j)
    order.push_back(j);
  llvm::stable_sort(order,
                    [&](int x, int y) { return firstUse[x] < firstUse[y]; });
  llvm::SmallPtrSet<Operation *, 8> early;
  for (ReadFragmentOp read : sync.kv.registerReads)
    early.insert(read);
  for (Operation *op : sync.kv.elementwise.front()) {
    bool fromReads = false, onlyReads = op->getNumRegions() == 0;
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && early.contains(def))
        fromReads = true;
      else if (!loop.isDefinedOutsideOfLoop(operand))
        onlyReads = false;
    }
    if (fromReads && onlyReads) {
      early.insert(op);
      sync.earlyWork.push_back(op);
    }
  }
  // Early work runs in the last cluster: the reads go to the clusters two
  // or more before it (or the first), so it never waits for a load issued
  // one cluster before (MXFP8: 3.5 llvm-mca cycles per K tile).
  int spread = clusters > 1 && !sync.earlyWork.empty()
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
  for (const SmallVector<LoadFragmentOp> &loads : sync.clusterLoads) {
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

namespace {
/// Emits the scheduled loop of one SyncLoop.
class PingPongEmitter {
public:
  PingPongEmitter(SyncLoop &sync, const PingPongPlan &plan, unsigned priority)
      : sync(sync), plan(plan), priority(priority), loc(sync.kv.loop.getLoc()),
        n(plan.clusters) {}

  /// Replaces the loop's uses by its schedule; `waves` per workgroup.
  LogicalResult emit(int64_t waveSize, int64_t waves);

private:
  Value index(OpBuilder &b, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  /// The loop's induction value for K tile `tile`, clamped to the last one.
  /// The clamp is on i32 (tile counts are small): gfx9 has a scalar 32-bit
  /// min but no 64-bit compare.
  Value kOfTile(OpBuilder &b, Value tile) {
    auto i32 = [&](Value v) {
      return arith::IndexCastOp::create(b, loc, b.getI32Type(), v);
    };
    Value clamped = arith::IndexCastOp::create(
        b, loc, b.getIndexType(),
        arith::MinSIOp::create(b, loc, i32(tile), i32(lastTile)));
    return arith::AddIOp::create(
        b, loc, sync.kv.loop.getLowerBound(),
        arith::MulIOp::create(b, loc, clamped, sync.kv.loop.getStep()));
  }
  void emitWait(OpBuilder &b, int site) {
    const WaitCounts &w = plan.waits[site];
    if (!w.waitsForAnything())
      return;
    auto count = [&](int v) {
      return v == WaitCounts::kNoWait ? IntegerAttr() : b.getI32IntegerAttr(v);
    };
    amdgpu::MemoryCounterWaitOp::create(b, loc, count(w.vm), nullptr,
                                        count(w.lgkm), nullptr, nullptr);
  }
  /// `root` and the pure ops of the loop body it depends on, cloned for K
  /// tile `tile`; returns the clone of `root`.
  Operation *cloneForTile(OpBuilder &b, Operation *root, Value tile) {
    llvm::SetVector<Operation *> slice = bodySliceOf(sync.kv.loop, root);
    IRMapping map;
    map.map(sync.kv.loop.getInductionVar(), kOfTile(b, tile));
    Operation *clone = nullptr;
    for (Operation &op : sync.kv.loop.getBody()->without_terminator())
      if (slice.contains(&op))
        clone = b.clone(op, map);
    return clone;
  }
  /// The fill of `region` for K tile `tile` into `slot`.
  void emitFill(OpBuilder &b, int region, Value tile, int64_t slot) {
    Value slotValue = index(b, slot);
    auto copy = cast<CopyToSharedOp>(cloneForTile(b, sync.fills[region], tile));
    copy.getSlotMutable().assign(slotValue);
  }
  /// Register read `j` (of kv.registerReads) for K tile `tile`.
  Value emitRegisterRead(OpBuilder &b, int j, Value tile) {
    return cloneForTile(b, sync.kv.registerReads[j], tile)->getResult(0);
  }
  /// Every register read for K tile `tile`, in program order.
  SmallVector<Value> emitRegisterReads(OpBuilder &b, Value tile) {
    SmallVector<Value> out;
    for (int j = 0, e = sync.kv.registerReads.size(); j < e; ++j)
      out.push_back(emitRegisterRead(b, j, tile));
    return out;
  }
  /// What a K tile takes from the one before: with read-ahead its first
  /// fragment reads, its register reads (kv.registerReads' order), and its
  /// early work's results (SyncLoop::earlyWork's order).
  struct Carried {
    SmallVector<Value> firstReads;
    SmallVector<Value> registerReads;
    SmallVector<Value> early;
  };
  /// SyncLoop::earlyWork on the register reads `reads`: its results.
  SmallVector<Value> emitEarlyWork(OpBuilder &b, ValueRange reads) {
    IRMapping map;
    for (auto [read, value] : llvm::zip_equal(sync.kv.registerReads, reads))
      map.map(read.getResult(), value);
    SmallVector<Value> out;
    for (Operation *op : sync.earlyWork)
      llvm::append_range(out, b.clone(*op, map)->getResults());
    return out;
  }
  /// The clusters of K tile `tile`, reading `slot`, from `in`. With `next`
  /// (the loop body), each cluster issues its fill and its register reads
  /// for the next tile, and with read-ahead the last cluster reads the next
  /// tile's first fragments, all returned in `next`. Returns the
  /// accumulators after the tile.
  FailureOr<SmallVector<Value>> emitTile(OpBuilder &b, Value tile, int64_t slot,
                                         ValueRange accs,
                                         function_ref<int(int, bool)> site,
                                         const Carried &in,
                                         Carried *next = nullptr);
  /// `load` cloned with `map`, reading `slot`.
  static Value cloneLoad(OpBuilder &b, LoadFragmentOp load, IRMapping &map,
                         Value slot) {
    auto clone = cast<LoadFragmentOp>(b.clone(*load, map));
    clone.getSlotMutable().assign(slot);
    return clone.getResult();
  }
  /// Clones the first cluster's reads from `slot` (their offsets do not
  /// depend on the loop).
  SmallVector<Value> emitFirstReads(OpBuilder &b, int64_t slot) {
    SmallVector<Value> out;
    Value slotValue = index(b, slot);
    for (LoadFragmentOp load : sync.clusterLoads[0]) {
      IRMapping none;
      out.push_back(cloneLoad(b, load, none, slotValue));
    }
    return out;
  }

  SyncLoop &sync;
  const PingPongPlan &plan;
  unsigned priority;
  Location loc;
  int n;
  Value lastTile;
};
} // namespace

FailureOr<SmallVector<Value>>
PingPongEmitter::emitTile(OpBuilder &b, Value tile, int64_t slot,
                          ValueRange accs, function_ref<int(int, bool)> site,
                          const Carried &in, Carried *next) {
  scf::ForOp loop = sync.kv.loop;
  bool fills = next;
  // The tile is emitted in its final order; the recorder notes which
  // cluster each op is in, and the cluster mechanism forms them.
  ClusterRecorder recorder(b);
  IRMapping map;
  map.map(loop.getInductionVar(), kOfTile(b, tile));
  map.map(loop.getRegionIterArgs(), accs);
  for (auto [load, value] : llvm::zip(sync.clusterLoads[0], in.firstReads))
    map.map(load.getResult(), value);
  for (auto [read, value] :
       llvm::zip_equal(sync.kv.registerReads, in.registerReads))
    map.map(read.getResult(), value);
  // The early work's results come from the tile before.
  SmallVector<Value> earlyResults;
  for (Operation *op : sync.earlyWork)
    llvm::append_range(earlyResults, op->getResults());
  map.map(earlyResults, in.early);
  for (Operation *op : sync.kv.elementwise[0])
    if (!llvm::is_contained(sync.earlyWork, op))
      b.clone(*op, map);
  Value slotValue = index(b, slot);
  SmallVector<Value> nextReads;
  SmallVector<Value> nextRegisterReads(sync.kv.registerReads.size());
  SmallVector<Value> nextEarly;
  Value nextTile;
  if (fills)
    nextTile = arith::AddIOp::create(b, loc, tile, index(b, 1));
  for (int c = 0; c < n; ++c) {
    // Memory: this MMA's first reads, then one fill.
    // With read-ahead, the reads of clusters after the first were issued by
    // the cluster before, after its MMA.
    SmallVector<LoadFragmentOp> loads;
    if (!plan.readAhead)
      loads = sync.clusterLoads[c];
    bool fillWithMemory = fills && plan.fills == FillInterval::memory;
    bool fillWithCompute = fills && plan.fills == FillInterval::compute;
    auto emitClusterFill = [&] {
      // Cluster c of this tile is cluster tile * n + c overall; its fill
      // is for tile + (c + lead) / n, region (c + lead) % n.
      int64_t ahead = (c + plan.lead) / n;
      Value fillTile = arith::AddIOp::create(b, loc, tile, index(b, ahead));
      emitFill(b, (c + plan.lead) % n, fillTile, (slot + ahead) % 2);
    };
    recorder.open({/*priority=*/0, /*interleaved=*/false});
    for (LoadFragmentOp load : loads)
      map.map(load.getResult(), cloneLoad(b, load, map, slotValue));
    if (fills)
      for (int j : sync.clusterRegisterReads[c])
        nextRegisterReads[j] = emitRegisterRead(b, j, nextTile);
    if (fillWithMemory)
      emitClusterFill();
    recorder.close();
    emitWait(b, site(c, false));
    BarrierOp::create(b, loc);
    MmaOp mma = sync.kv.mmas[c];
    SmallVector<LoadFragmentOp> ahead;
    if (plan.readAhead && c + 1 < n)
      ahead = sync.clusterLoads[c + 1];
    bool readsNext = plan.readAhead && c + 1 == n && fills;
    // Reads issued beside the MMA may interleave with it: no wait counts
    // them (planPingPong refuses read-ahead otherwise). Without elementwise
    // work (a GEMM), the memory instructions alternate with its MFMAs, each
    // in one's shadow (a cluster that is not interleaved holds at most its
    // fill, one op).
    bool interleaved = !ahead.empty() || readsNext;
    recorder.open({int32_t(priority), interleaved,
                   (interleaved || fillWithCompute) &&
                       sync.kv.elementwise[c + 1].empty()});
    map.map(mma.getResult(), b.clone(*mma, map)->getResult(0));
    for (Operation *op : sync.kv.elementwise[c + 1])
      b.clone(*op, map);
    if (fillWithCompute)
      emitClusterFill();
    for (LoadFragmentOp load : ahead)
      map.map(load.getResult(), cloneLoad(b, load, map, slotValue));
    if (readsNext)
      nextReads = emitFirstReads(b, (slot + 1) % 2);
    // The next tile's early work, beside this tile's last MFMAs: every
    // register read for it is issued by now.
    if (fills && c + 1 == n)
      nextEarly = emitEarlyWork(b, nextRegisterReads);
    recorder.close();
    emitWait(b, site(c, true));
    BarrierOp::create(b, loc);
  }
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  SmallVector<Value> out;
  for (Value v : yield.getOperands())
    out.push_back(map.lookupOrDefault(v));
  size_t accCount = out.size();
  if (fills) {
    llvm::append_range(out, nextReads);
    llvm::append_range(out, nextRegisterReads);
    llvm::append_range(out, nextEarly);
  }
  if (failed(recorder.form(out)))
    return failure();
  if (fills) {
    ArrayRef<Value> carried = ArrayRef(out).drop_front(accCount);
    next->firstReads.assign(carried.begin(),
                            carried.begin() + nextReads.size());
    carried = carried.drop_front(nextReads.size());
    next->registerReads.assign(carried.begin(),
                               carried.begin() + nextRegisterReads.size());
    next->early.assign(carried.begin() + nextRegisterReads.size(),
                       carried.end());
  }
  out.resize(accCount);
  return out;
}

LogicalResult PingPongEmitter::emit(int64_t waveSize, int64_t waves) {
  scf::ForOp loop = sync.kv.loop;
  OpBuilder b(loop);
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound();
  Value step = loop.getStep();
  // Tile count: ceil((ub - lb) / step), 0 when the loop does not run.
  Value runs = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, lb, ub);
  Value span = arith::SubIOp::create(b, loc, ub, lb);
  Value tiles = arith::DivSIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, span,
                            arith::SubIOp::create(b, loc, step, index(b, 1))),
      step);
  TypeRange accTypes = loop.getResultTypes();
  auto ifRuns = scf::IfOp::create(b, loc, accTypes, runs,
                                  /*withElseRegion=*/true);
  {
    OpBuilder e = OpBuilder::atBlockBegin(ifRuns.elseBlock());
    scf::YieldOp::create(e, loc, loop.getInits());
  }
  OpBuilder t = OpBuilder::atBlockBegin(ifRuns.thenBlock());
  lastTile = arith::SubIOp::create(t, loc, tiles, index(t, 1));

  // Prologue: the first `lead` fills, the first tile's register reads.
  for (int q = -plan.lead; q < 0; ++q) {
    auto [region, tile] = plan.fillOf(q);
    emitFill(t, region, index(t, tile), tile % 2);
  }
  // In a cluster, whose fence keeps them after the fills the wait counts
  // them behind.
  SmallVector<Value> firstRegisterReads;
  if (!sync.kv.registerReads.empty()) {
    ClusterRecorder recorder(t);
    recorder.open({/*priority=*/0, /*interleaved=*/false});
    firstRegisterReads = emitRegisterReads(t, index(t, 0));
    if (failed(recorder.form(firstRegisterReads)))
      return failure();
  }
  emitWait(t, PingPongPlan::kPrologueSite);

  // Waves of the second half of the workgroup run one barrier behind.
  Value late = emitLateWaveGroup(t, loc, waveSize, waves);
  auto stagger = StaggerOp::create(t, loc, accTypes, late);
  OpBuilder s = OpBuilder::atBlockBegin(&stagger.getBody().emplaceBlock());
  emitWait(s, PingPongPlan::kPublishSite);
  BarrierOp::create(s, loc);

  // With read-ahead, the first tile's first reads (the loop carries each
  // next tile's, and its register reads).
  SmallVector<Value> inits(loop.getInits());
  size_t accCount = inits.size();
  size_t readCount = 0;
  if (plan.readAhead) {
    ClusterRecorder recorder(s);
    recorder.open({/*priority=*/0, /*interleaved=*/false});
    SmallVector<Value> reads = emitFirstReads(s, 0);
    if (failed(recorder.form(reads)))
      return failure();
    readCount = reads.size();
    llvm::append_range(inits, reads);
  }
  llvm::append_range(inits, firstRegisterReads);
  // The first tile's early work (waiting for its register reads here).
  SmallVector<Value> firstEarly = emitEarlyWork(s, firstRegisterReads);
  llvm::append_range(inits, firstEarly);
  size_t registerReadCount = firstRegisterReads.size();
  // The carried values after the accumulators of `values`.
  auto carriedOf = [&](ValueRange values) {
    values = values.drop_front(accCount);
    Carried c;
    llvm::append_range(c.firstReads, values.take_front(readCount));
    values = values.drop_front(readCount);
    llvm::append_range(c.registerReads, values.take_front(registerReadCount));
    llvm::append_range(c.early, values.drop_front(registerReadCount));
    return c;
  };

  // Two K tiles per iteration, slots 0 and 1.
  Value pairs = arith::DivSIOp::create(s, loc, tiles, index(s, 2));
  auto pairLoop =
      scf::ForOp::create(s, loc, index(s, 0), pairs, index(s, 1), inits);
  {
    OpBuilder l = OpBuilder::atBlockBegin(pairLoop.getBody());
    Value first =
        arith::MulIOp::create(l, loc, pairLoop.getInductionVar(), index(l, 2));
    ValueRange args = pairLoop.getRegionIterArgs();
    SmallVector<Value> accs(args.take_front(accCount));
    Carried carried = carriedOf(args);
    for (int half = 0; half < 2; ++half) {
      Value tile = arith::AddIOp::create(l, loc, first, index(l, half));
      Carried next;
      FailureOr<SmallVector<Value>> out = emitTile(
          l, tile, half, accs,
          [&](int c, bool after) { return plan.bodySite(half, c, after); },
          carried, &next);
      if (failed(out))
        return failure();
      accs = *out;
      carried = std::move(next);
    }
    llvm::append_range(accs, carried.firstReads);
    llvm::append_range(accs, carried.registerReads);
    llvm::append_range(accs, carried.early);
    scf::YieldOp::create(l, loc, accs);
  }
  ValueRange loopAccs = pairLoop.getResults().take_front(accCount);
  // An odd tile count: the last tile (even, slot 0), its fills long issued.
  Value odd = arith::CmpIOp::create(
      s, loc, arith::CmpIPredicate::ne,
      arith::RemSIOp::create(s, loc, tiles, index(s, 2)), index(s, 0));
  auto ifOdd = scf::IfOp::create(s, loc, accTypes, odd,
                                 /*withElseRegion=*/true);
  {
    OpBuilder o = OpBuilder::atBlockBegin(ifOdd.thenBlock());
    FailureOr<SmallVector<Value>> accs = emitTile(
        o, lastTile, 0, loopAccs,
        [&](int c, bool after) { return plan.oddTileSite(c, after); },
        carriedOf(pairLoop.getResults()));
    if (failed(accs))
      return failure();
    scf::YieldOp::create(o, loc, *accs);
    OpBuilder e = OpBuilder::atBlockBegin(ifOdd.elseBlock());
    scf::YieldOp::create(e, loc, loopAccs);
  }
  emitWait(s, plan.finalSite());
  YieldOp::create(s, loc, ifOdd.getResults());
  // The clamped fills past the last tile are still in flight: drain them
  // before anything else uses LDS or the kernel ends.
  emitWaitForLoads(t, loc);
  scf::YieldOp::create(t, loc, stagger.getResults());

  loop.replaceAllUsesWith(ifRuns.getResults());
  return success();
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
    for (LoadFragmentOp load : sync->clusterLoads[0])
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

  // Double-buffer the regions, then replace the loop.
  for (CopyToSharedOp copy : sync->fills)
    copy.getTile().getDefiningOp<AllocSharedOp>().setSlots(2);
  if (failed(PingPongEmitter(*sync, plan, priority)
                 .emit(chip->waveSize, groups->waves)))
    return failure();
  loop.erase();
  return success();
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
