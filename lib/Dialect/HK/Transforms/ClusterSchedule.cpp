//===- ClusterSchedule.cpp - the cluster expansion mechanism --------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the mechanism of ClusterSchedule.h: ops reordered
// into clusters and wrapped in hk.cluster, loops unrolled into trips of
// clusters, and the wave groups staggered.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Transforms/ClusterSchedule.h"
#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Dialect/HK/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <numeric>

#define DEBUG_TYPE "hk-cluster-schedule"

using namespace mlir;
using namespace mlir::hk;

namespace {
/// Where an op goes: the cluster it sorts with, and whether it is in it
/// (rather than just before it).
struct Placement {
  unsigned cluster;
  bool inCluster;
  bool operator<(const Placement &o) const {
    return std::tie(cluster, inCluster) < std::tie(o.cluster, o.inCluster);
  }
};
} // namespace

/// The placement of each of `ops` under `schedule`, or an error.
static FailureOr<SmallVector<Placement>>
placeOps(ArrayRef<Operation *> ops, const ClusterSchedule &schedule) {
  unsigned n = schedule.clusters.size();
  SmallVector<std::optional<unsigned>> cluster(ops.size());
  for (auto [i, op] : llvm::enumerate(ops)) {
    cluster[i] = schedule.clusterOf(op);
    if (cluster[i] && *cluster[i] >= n)
      return op->emitError()
             << "cluster schedule: the op is put in cluster " << *cluster[i]
             << " but the schedule has " << n << " clusters";
  }
  // An op between two ops of one cluster joins it; any other op outside
  // every cluster sorts just before the cluster of the next op that has one.
  SmallVector<std::optional<unsigned>> previous(ops.size());
  for (size_t i = 1; i < ops.size(); ++i)
    previous[i] = cluster[i - 1] ? cluster[i - 1] : previous[i - 1];
  SmallVector<Placement> placement(ops.size());
  std::optional<unsigned> next;
  for (size_t i = ops.size(); i-- > 0;) {
    if (cluster[i]) {
      next = cluster[i];
      placement[i] = {*next, true};
      continue;
    }
    bool joins = next && previous[i] == next;
    placement[i] = {next.value_or(n), joins};
  }
  return placement;
}

/// Checks that running `ops` in `order` keeps every def before its uses and
/// the ops with memory effects in their program order.
static LogicalResult checkOrder(ArrayRef<Operation *> ops,
                                ArrayRef<size_t> order) {
  Block *block = ops.front()->getBlock();
  DenseMap<Operation *, size_t> position;
  for (auto [pos, index] : llvm::enumerate(order))
    position[ops[index]] = pos;
  for (Operation *op : ops) {
    Operation *late = nullptr;
    op->walk([&](Operation *inner) {
      for (Value operand : inner->getOperands()) {
        Operation *def = operand.getDefiningOp();
        Operation *top = def ? block->findAncestorOpInBlock(*def) : nullptr;
        auto it = top ? position.find(top) : position.end();
        if (it != position.end() && top != op &&
            it->second > position.lookup(op)) {
          late = top;
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (late) {
      InFlightDiagnostic diag =
          op->emitError() << "cluster schedule: '" << op->getName()
                          << "' would run before the '" << late->getName()
                          << "' that defines a value it uses; put them in "
                             "one cluster or in clusters in that order";
      diag.attachNote(late->getLoc()) << "defined here";
      return diag;
    }
  }
  SmallVector<Operation *> before, after;
  for (Operation *op : ops)
    if (!isMemoryEffectFree(op))
      before.push_back(op);
  for (size_t index : order)
    if (!isMemoryEffectFree(ops[index]))
      after.push_back(ops[index]);
  for (auto [was, now] : llvm::zip(before, after))
    if (was != now) {
      InFlightDiagnostic diag = now->emitError()
                                << "cluster schedule: '" << now->getName()
                                << "' would move across '" << was->getName()
                                << "'; ops with memory effects keep their "
                                   "program order";
      diag.attachNote(was->getLoc()) << "the other op";
      return diag;
    }
  return success();
}

/// The results of `run`, consecutive ops of one block, used after it or
/// listed in `liveOut`.
static SmallVector<Value> getEscapingValues(ArrayRef<Operation *> run,
                                            ArrayRef<Value> liveOut) {
  Block *block = run.front()->getBlock();
  llvm::SmallPtrSet<Operation *, 16> inRun(run.begin(), run.end());
  SmallVector<Value> escaping;
  for (Operation *op : run)
    for (Value result : op->getResults())
      if (llvm::is_contained(liveOut, result) ||
          llvm::any_of(result.getUsers(), [&](Operation *user) {
            Operation *top = block->findAncestorOpInBlock(*user);
            return !top || !inRun.contains(top);
          }))
        escaping.push_back(result);
  return escaping;
}

/// Moves `run` into the one-block body of `wrapper` (an hk.cluster or
/// hk.stagger just created before it, with a result per `escaping` value),
/// yields `escaping` and redirects their uses after it, `liveOut` too.
static void moveIntoBody(ArrayRef<Operation *> run, Operation *wrapper,
                         ArrayRef<Value> escaping,
                         MutableArrayRef<Value> liveOut) {
  Block *body = &wrapper->getRegion(0).emplaceBlock();
  for (Operation *op : run)
    op->moveBefore(body, body->end());
  OpBuilder inner = OpBuilder::atBlockEnd(body);
  YieldOp::create(inner, wrapper->getLoc(), escaping);
  for (auto [escaped, result] : llvm::zip(escaping, wrapper->getResults())) {
    Value value = escaped;
    value.replaceUsesWithIf(result, [&](OpOperand &use) {
      return !wrapper->isAncestor(use.getOwner());
    });
    for (Value &live : liveOut)
      if (live == value)
        live = result;
  }
}

/// Wraps `run`, consecutive ops of one block, into an hk.cluster of `spec`.
static ClusterOp wrapCluster(ArrayRef<Operation *> run, const ClusterSpec &spec,
                             MutableArrayRef<Value> liveOut) {
  SmallVector<Value> escaping = getEscapingValues(run, liveOut);
  OpBuilder b(run.front());
  auto cluster = ClusterOp::create(
      b, run.front()->getLoc(), ValueRange(escaping).getTypes(), spec.priority);
  if (spec.interleaved)
    cluster.setInterleaved(true);
  if (spec.alternating)
    cluster.setAlternating(true);
  moveIntoBody(run, cluster, escaping, liveOut);
  return cluster;
}

FailureOr<SmallVector<ClusterOp>>
mlir::hk::formClusters(Block::iterator begin, Block::iterator end,
                       const ClusterSchedule &schedule,
                       MutableArrayRef<Value> liveOut) {
  SmallVector<Operation *> ops;
  for (Block::iterator it = begin; it != end; ++it)
    ops.push_back(&*it);
  SmallVector<ClusterOp> clusters;
  if (ops.empty())
    return clusters;
  Block *block = ops.front()->getBlock();
  FailureOr<SmallVector<Placement>> placement = placeOps(ops, schedule);
  if (failed(placement))
    return failure();
  SmallVector<size_t> order(ops.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::stable_sort(order, [&](size_t x, size_t y) {
    return (*placement)[x] < (*placement)[y];
  });
  if (failed(checkOrder(ops, order)))
    return failure();
  for (size_t index : order)
    ops[index]->moveBefore(block, end);

  // Each cluster's ops are now one run.
  for (size_t i = 0; i < order.size();) {
    const Placement &p = (*placement)[order[i]];
    if (!p.inCluster) {
      ++i;
      continue;
    }
    SmallVector<Operation *> run;
    for (; i < order.size() && (*placement)[order[i]].inCluster &&
           (*placement)[order[i]].cluster == p.cluster;
         ++i)
      run.push_back(ops[order[i]]);
    ClusterOp cluster = wrapCluster(run, schedule.clusters[p.cluster], liveOut);
    if (failed(verify(cluster)))
      return failure();
    clusters.push_back(cluster);
  }
  return clusters;
}

ClusterRecorder::ClusterRecorder(OpBuilder &b, ArrayRef<ClusterSpec> clusters)
    : builder(b), previousListener(b.getListener()),
      block(b.getInsertionBlock()) {
  schedule.clusters.assign(clusters.begin(), clusters.end());
  b.setListener(this);
}

ClusterRecorder::~ClusterRecorder() { builder.setListener(previousListener); }

void ClusterRecorder::open(const ClusterSpec &spec) {
  schedule.clusters.push_back(spec);
  current = schedule.clusters.size() - 1;
}

void ClusterRecorder::enter(std::optional<unsigned> cluster) {
  current = cluster;
}

void ClusterRecorder::notifyOperationInserted(Operation *op,
                                              OpBuilder::InsertPoint) {
  if (op->getBlock() != block)
    return; // inside a cloned region
  if (!first)
    first = op;
  if (current)
    clusterOf[op] = *current;
}

LogicalResult ClusterRecorder::form(MutableArrayRef<Value> liveOut) {
  if (!first)
    return success();
  schedule.clusterOf = [this](Operation *op) -> std::optional<unsigned> {
    auto it = clusterOf.find(op);
    if (it == clusterOf.end())
      return std::nullopt;
    return it->second;
  };
  return formClusters(first->getIterator(), builder.getInsertionPoint(),
                      schedule, liveOut);
}

Value mlir::hk::emitLateWaveGroup(OpBuilder &b, Location loc, int64_t waveSize,
                                  int64_t waves) {
  // From the wave's first thread id, a scalar: no lane value lives through
  // the loop for the condition after it.
  Value first = emitWaveFirstThreadId(
      b, loc, gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x), waveSize);
  return arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::uge, first,
      arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                   waves / 2 * waveSize));
}

FailureOr<WaveGroups> mlir::hk::resolveWaveGroups(Operation *op,
                                                  const Twine &prefix) {
  FailureOr<const ChipInfo *> chip = resolveChip(op);
  if (failed(chip))
    return failure();
  if (!*chip)
    return op->emitError(prefix) << "no chip is known";
  auto func = op->getParentOfType<gpu::GPUFuncOp>();
  DenseI32ArrayAttr block = func ? func.getKnownBlockSizeAttr() : nullptr;
  if (!block || block.size() != 3 || block[1] != 1 || block[2] != 1)
    return op->emitError(prefix)
           << "needs a 1-D workgroup (known_block_size = array<i32: x, 1, 1>)";
  int64_t threads = block[0], waveSize = (*chip)->waveSize;
  int64_t waves = threads / waveSize;
  if (threads % waveSize != 0 || waves < 2 || waves % 2 != 0)
    return op->emitError(prefix)
           << "needs an even number of whole waves to pair, got " << threads
           << " threads of wave" << waveSize;
  return WaveGroups{*chip, threads, waves};
}
