//===- TestClusterSchedule.cpp - drive the cluster mechanism --------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements -test-hk-cluster-schedule: the loop expansion of
// ClusterSchedule.h (applyLoopClusterSchedule, the entry point the
// schedule passes use) driven by attributes, as -test-scf-pipelining
// drives scf::pipelineForLoop. Every op of the loop body is a step of the
// K tile, in program order or at its position. On the ops of the body:
//   __test_position__ = p : i64      the step's position (default: the
//                                    op's index in the body)
//   __test_cluster__ = c : i64       the step's cluster
//   __test_ahead__ = d : i64         issued for the tile d tiles ahead
//   __test_carry_rank__ = r : i64    carried in rank order
// On the scf.for (the LoopClusterSchedule fields):
//   __test_cluster_priorities__ = array<i32: p0, p1, ...>  one per cluster
//   __test_cluster_interleaved__ = array<i32: c, ...>     interleaved ones
//   __test_cluster_alternating__ = array<i32: c, ...>     alternating ones
//   __test_tiles_per_trip__ = n : i64                     (default 1)
//   __test_prologue_wait__, __test_publish_wait__, __test_final_wait__
//     = array<i32: vmcnt, lgkmcnt>                        (-1: no wait)
//   __test_stagger_wave_groups__, __test_count_on_i32__,
//   __test_keep_computed_tile__ (no clamp), __test_guard_prologue_only__,
//   __test_drain_barrier__                                (unit)
// The tiles the copies issued ahead fill are double-buffered. The
// attributes are removed before the schedule is applied.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Dialect/HK/Transforms/ClusterSchedule.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::hk;

namespace {
constexpr StringLiteral kPriorities = "__test_cluster_priorities__";
constexpr StringLiteral kInterleaved = "__test_cluster_interleaved__";
constexpr StringLiteral kAlternating = "__test_cluster_alternating__";
constexpr StringLiteral kTiles = "__test_tiles_per_trip__";
constexpr StringLiteral kCluster = "__test_cluster__";
constexpr StringLiteral kAhead = "__test_ahead__";
constexpr StringLiteral kRank = "__test_carry_rank__";
constexpr StringLiteral kPosition = "__test_position__";

struct TestClusterSchedulePass
    : PassWrapper<TestClusterSchedulePass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestClusterSchedulePass)

  StringRef getArgument() const final { return "test-hk-cluster-schedule"; }
  StringRef getDescription() const final {
    return "Apply the loop cluster schedule the __test_*__ attributes "
           "describe";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<HKDialect, amdgpu::AMDGPUDialect, arith::ArithDialect,
                    gpu::GPUDialect, ROCDL::ROCDLDialect, scf::SCFDialect>();
  }

  /// The non-negative integer `name` of `op` (removed), or `fallback`.
  static FailureOr<unsigned> takeIndex(Operation *op, StringRef name,
                                       unsigned fallback) {
    Attribute attr = op->removeAttr(name);
    if (!attr)
      return fallback;
    auto value = dyn_cast<IntegerAttr>(attr);
    if (!value || value.getInt() < 0)
      return op->emitError() << name << " must be a non-negative integer";
    return unsigned(value.getInt());
  }

  /// The wait `name` of `loop` (removed): array<i32: vmcnt, lgkmcnt>.
  static FailureOr<WaitCounts> takeWait(scf::ForOp loop, StringRef name) {
    WaitCounts wait;
    Attribute attr = loop->removeAttr(name);
    if (!attr)
      return wait;
    auto counts = dyn_cast<DenseI32ArrayAttr>(attr);
    if (!counts || counts.size() != 2)
      return loop.emitError() << name << " must be array<i32: vm, lgkm>";
    if (counts[0] >= 0)
      wait.vm = counts[0];
    if (counts[1] >= 0)
      wait.lgkm = counts[1];
    return wait;
  }

  static bool takeFlag(scf::ForOp loop, StringRef name) {
    return bool(loop->removeAttr(name));
  }

  /// The clusters `loop`'s attributes describe, into `schedule`.
  static LogicalResult readClusters(scf::ForOp loop,
                                    LoopClusterSchedule &schedule) {
    auto priorities = loop->getAttrOfType<DenseI32ArrayAttr>(kPriorities);
    for (int32_t p : priorities.asArrayRef())
      schedule.clusters.push_back({p, /*interleaved=*/false});
    for (auto [name, flag] :
         {std::pair(kInterleaved, &ClusterSpec::interleaved),
          std::pair(kAlternating, &ClusterSpec::alternating)}) {
      Attribute attr = loop->removeAttr(name);
      if (!attr)
        continue;
      auto list = dyn_cast<DenseI32ArrayAttr>(attr);
      if (!list)
        return loop.emitError() << name << " must be an array<i32>";
      for (int32_t c : list.asArrayRef()) {
        if (c < 0 || size_t(c) >= schedule.clusters.size())
          return loop.emitError() << name << " names cluster " << c << " of "
                                  << schedule.clusters.size();
        schedule.clusters[c].*flag = true;
      }
    }
    loop->removeAttr(kPriorities);
    return success();
  }

  /// The schedule `loop`'s attributes describe, or an error.
  static FailureOr<LoopClusterSchedule> readSchedule(scf::ForOp loop) {
    LoopClusterSchedule schedule;
    if (failed(readClusters(loop, schedule)))
      return failure();
    FailureOr<unsigned> tiles = takeIndex(loop, kTiles, 1);
    if (failed(tiles))
      return failure();
    schedule.tilesPerTrip = *tiles;
    for (auto [name, wait] :
         {std::pair("__test_prologue_wait__", &schedule.prologueWait),
          std::pair("__test_publish_wait__", &schedule.publishWait),
          std::pair("__test_final_wait__", &schedule.finalWait)}) {
      FailureOr<WaitCounts> counts = takeWait(loop, name);
      if (failed(counts))
        return failure();
      *wait = *counts;
    }
    schedule.staggerWaveGroups = takeFlag(loop, "__test_stagger_wave_groups__");
    schedule.countOnI32 = takeFlag(loop, "__test_count_on_i32__");
    schedule.clampComputedTile = !takeFlag(loop, "__test_keep_computed_tile__");
    schedule.guardWholeSchedule =
        !takeFlag(loop, "__test_guard_prologue_only__");
    schedule.clusterPrologueReads = schedule.guardWholeSchedule;
    schedule.drainBarrier = takeFlag(loop, "__test_drain_barrier__");
    SmallVector<std::pair<unsigned, Operation *>> positioned;
    for (auto [i, op] : llvm::enumerate(loop.getBody()->without_terminator())) {
      FailureOr<unsigned> position = takeIndex(&op, kPosition, i);
      if (failed(position))
        return failure();
      positioned.push_back({*position, &op});
    }
    llvm::stable_sort(positioned,
                      [](auto x, auto y) { return x.first < y.first; });
    for (auto [position, opPtr] : positioned) {
      Operation &op = *opPtr;
      FailureOr<unsigned> ahead = takeIndex(&op, kAhead, 0);
      FailureOr<unsigned> rank = takeIndex(&op, kRank, 0);
      if (failed(ahead) || failed(rank))
        return failure();
      TileStep step = TileStep::ofOp(&op, *ahead);
      step.carryRank = *rank;
      if (op.hasAttr(kCluster)) {
        FailureOr<unsigned> cluster = takeIndex(&op, kCluster, 0);
        if (failed(cluster))
          return failure();
        step.cluster = *cluster;
      }
      schedule.tile.push_back(step);
      auto copy = dyn_cast<CopyToSharedOp>(op);
      if (copy && *ahead > 0 &&
          !llvm::is_contained(schedule.doubleBuffered,
                              copy.getTile().getDefiningOp()))
        schedule.doubleBuffered.push_back(copy.getTile().getDefiningOp());
    }
    return schedule;
  }

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      if (loop->getAttrOfType<DenseI32ArrayAttr>(kPriorities))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops) {
      FailureOr<LoopClusterSchedule> schedule = readSchedule(loop);
      if (failed(schedule) || failed(applyLoopClusterSchedule(loop, *schedule)))
        return signalPassFailure();
    }
  }
};
} // namespace

namespace mlir::hk::test {
void registerTestClusterSchedulePass() {
  PassRegistration<TestClusterSchedulePass>();
}
} // namespace mlir::hk::test
