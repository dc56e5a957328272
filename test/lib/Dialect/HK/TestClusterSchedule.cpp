//===- TestClusterSchedule.cpp - drive the cluster mechanism --------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements -test-hk-cluster-schedule: the cluster mechanism of
// ClusterSchedule.h driven by attributes, as -test-scf-pipelining drives
// scf::pipelineForLoop. On an scf.for:
//   __test_cluster_priorities__ = array<i32: p0, p1, ...>  one per cluster
//   __test_cluster_interleaved__ = array<i32: c, ...>     interleaved ones
//   __test_cluster_alternating__ = array<i32: c, ...>     alternating ones
//   __test_trips_per_body__ = n : i64                     (default 1)
//   __test_stagger_wave_groups__                          (unit)
// and on the ops of its body `__test_cluster__ = c : i64`. The attributes
// are removed before the schedule is applied.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Dialect/HK/Transforms/ClusterSchedule.h"

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
constexpr StringLiteral kTrips = "__test_trips_per_body__";
constexpr StringLiteral kStagger = "__test_stagger_wave_groups__";
constexpr StringLiteral kCluster = "__test_cluster__";

struct TestClusterSchedulePass
    : PassWrapper<TestClusterSchedulePass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestClusterSchedulePass)

  StringRef getArgument() const final { return "test-hk-cluster-schedule"; }
  StringRef getDescription() const final {
    return "Apply the cluster schedule the __test_*__ attributes describe";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<HKDialect, arith::ArithDialect, gpu::GPUDialect,
                    ROCDL::ROCDLDialect, scf::SCFDialect>();
  }

  /// The schedule `loop`'s attributes describe, or an error.
  static FailureOr<LoopClusterSchedule>
  readSchedule(scf::ForOp loop, DenseMap<Operation *, unsigned> &clusterOf) {
    LoopClusterSchedule schedule;
    auto priorities = loop->getAttrOfType<DenseI32ArrayAttr>(kPriorities);
    for (int32_t p : priorities.asArrayRef())
      schedule.trip.clusters.push_back({p, /*interleaved=*/false});
    for (auto [name, flag] :
         {std::pair(kInterleaved, &ClusterSpec::interleaved),
          std::pair(kAlternating, &ClusterSpec::alternating)}) {
      Attribute attr = loop->getAttr(name);
      if (!attr)
        continue;
      auto list = dyn_cast<DenseI32ArrayAttr>(attr);
      if (!list)
        return loop.emitError() << name << " must be an array<i32>";
      for (int32_t c : list.asArrayRef()) {
        if (c < 0 || size_t(c) >= schedule.trip.clusters.size())
          return loop.emitError() << name << " names cluster " << c << " of "
                                  << schedule.trip.clusters.size();
        schedule.trip.clusters[c].*flag = true;
      }
    }
    if (Attribute attr = loop->getAttr(kTrips)) {
      auto trips = dyn_cast<IntegerAttr>(attr);
      if (!trips || trips.getInt() < 1)
        return loop.emitError() << kTrips << " must be a positive integer";
      schedule.tripsPerBody = trips.getInt();
    }
    schedule.staggerWaveGroups = loop->hasAttr(kStagger);
    for (StringRef name :
         {kPriorities, kInterleaved, kAlternating, kTrips, kStagger})
      loop->removeAttr(name);
    for (Operation &op : loop.getBody()->without_terminator()) {
      Attribute attr = op.removeAttr(kCluster);
      if (!attr)
        continue;
      auto c = dyn_cast<IntegerAttr>(attr);
      if (!c || c.getInt() < 0)
        return op.emitError() << kCluster << " must be a cluster index";
      clusterOf[&op] = c.getInt();
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
      DenseMap<Operation *, unsigned> clusterOf;
      FailureOr<LoopClusterSchedule> schedule = readSchedule(loop, clusterOf);
      if (failed(schedule))
        return signalPassFailure();
      schedule->trip.clusterOf = [&](Operation *op) -> std::optional<unsigned> {
        auto it = clusterOf.find(op);
        if (it == clusterOf.end())
          return std::nullopt;
        return it->second;
      };
      if (failed(applyLoopClusterSchedule(loop, *schedule)))
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
