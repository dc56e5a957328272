//===- RaiseMmaPriority.cpp - s_setprio around the MMA phase --------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements hk-raise-mma-priority: the policy that puts the MMA
// phase of K/V loops (KVLoop.h) in clusters of raised wave priority
// (ClusterSchedule.h).
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Analysis/KVLoop.h"
#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Dialect/HK/Transforms/ClusterSchedule.h"
#include "HK/Dialect/HK/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#define DEBUG_TYPE "hk-raise-mma-priority"

namespace mlir::hk {
#define GEN_PASS_DEF_RAISEMMAPRIORITY
#include "HK/Dialect/HK/Transforms/Passes.h.inc"
} // namespace mlir::hk

using namespace mlir;
using namespace mlir::hk;

/// True if `op` is or holds what a cluster may not (whyNotInCluster).
static bool separatesClusters(Operation *op) {
  return op
      ->walk([](Operation *inner) {
        return whyNotInCluster(inner) ? WalkResult::interrupt()
                                      : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The policy for `loop`: its MMA phase, split at what separates clusters,
/// one interleaved cluster at `priority` per piece. A loop of the phase
/// that holds a separator gets its own phase instead.
static LogicalResult raisePriority(scf::ForOp loop, int32_t priority) {
  Block &body = *loop.getBody();
  std::optional<std::pair<Operation *, Operation *>> phase = findMmaPhase(body);
  if (!phase)
    return success();
  DenseMap<Operation *, unsigned> clusterOf;
  ClusterSchedule schedule;
  bool open = false;
  SmallVector<scf::ForOp> inner;
  for (Operation *op = phase->first; op != phase->second->getNextNode();
       op = op->getNextNode()) {
    if (separatesClusters(op)) {
      open = false;
      if (auto nested = dyn_cast<scf::ForOp>(op))
        inner.push_back(nested);
      continue;
    }
    if (!open) {
      schedule.clusters.push_back({priority, /*interleaved=*/true});
      open = true;
    }
    clusterOf[op] = schedule.clusters.size() - 1;
  }
  schedule.clusterOf = [&](Operation *op) -> std::optional<unsigned> {
    auto it = clusterOf.find(op);
    if (it == clusterOf.end())
      return std::nullopt;
    return it->second;
  };
  if (failed(formClusters(phase->first->getIterator(),
                          std::next(phase->second->getIterator()), schedule)))
    return failure();
  for (scf::ForOp nested : inner)
    if (failed(raisePriority(nested, priority)))
      return failure();
  return success();
}

namespace {
struct RaiseMmaPriorityPass
    : hk::impl::RaiseMmaPriorityBase<RaiseMmaPriorityPass> {
  using RaiseMmaPriorityBase::RaiseMmaPriorityBase;

  void runOnOperation() override {
    // The hk.cluster verifier checks the priority's range.
    // The outermost loops with an MMA phase; loops inside them are part of
    // their phase (or get their own when they hold a barrier).
    SmallVector<scf::ForOp> loops;
    getOperation().walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
      if (findMmaPhase(*loop.getBody())) {
        loops.push_back(loop);
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    for (scf::ForOp loop : loops)
      if (failed(raisePriority(loop, priority)))
        return signalPassFailure();
  }
};
} // namespace
