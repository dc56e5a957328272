//===- ClusterSchedule.h - the cluster expansion mechanism ------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The mechanism every hk schedule is written with: a policy says which ops
// go in which cluster, at which priority, how many loop trips one loop body
// holds and whether the workgroup's two wave groups run one barrier apart;
// this mechanism turns that description into hk.cluster / hk.stagger IR.
// The policies are hk-schedule-ping-pong (HipKittens' ping-pong),
// hk-schedule-interleave (an alternating cluster per MMA) and
// hk-raise-mma-priority (one cluster around a loop's MMA phase);
// -test-hk-cluster-schedule drives the mechanism from attributes on the ops,
// as -test-scf-pipelining drives scf::pipelineForLoop.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_TRANSFORMS_CLUSTERSCHEDULE_H
#define HK_DIALECT_HK_TRANSFORMS_CLUSTERSCHEDULE_H

#include "HK/Dialect/HK/IR/HKDialect.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/Builders.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>
#include <optional>

namespace mlir {
namespace scf {
class ForOp;
} // namespace scf
namespace hk {

/// One cluster of a schedule.
struct ClusterSpec {
  /// Wave priority of the body: 0 to 3 (`s_setprio`; 0 leaves it as is).
  int32_t priority = 0;
  /// Whether the backend may interleave the body's memory operations
  /// (hk.cluster's `interleaved`).
  bool interleaved = false;
  /// With `interleaved`: whether the backend is asked to issue its MFMAs and
  /// memory instructions in turn (hk.cluster's `alternating`).
  bool alternating = false;
};

/// A policy's decisions for the ops of one block.
struct ClusterSchedule {
  /// The clusters, in the order they run.
  SmallVector<ClusterSpec> clusters;
  /// The cluster an op belongs to (an index into `clusters`), or nullopt for
  /// an op that stays between clusters (waits, barriers, glue arithmetic).
  std::function<std::optional<unsigned>(Operation *)> clusterOf;
};

/// Forms the clusters of `schedule` from the ops [`begin`, `end`) of one
/// block. The ops are reordered, stably, so that each cluster's ops are
/// contiguous and the clusters run in order; an op outside every cluster
/// keeps its place before the cluster of the next op after it that has one
/// (or after the last cluster). Each cluster's ops then become the body of
/// an hk.cluster that yields the values used after it. An empty cluster
/// forms nothing. `liveOut` are values of the ops the caller will use later
/// (in ops it has yet to create): they escape their cluster too, and are
/// replaced in place by the cluster results that carry them.
///
/// Fails, with an error, when the order would use a value before it is
/// defined or swap two ops with memory effects (the IR is then unchanged),
/// or when a formed cluster does not verify (the caller's pass fails).
/// Returns the clusters formed, in order.
FailureOr<SmallVector<ClusterOp>>
formClusters(Block::iterator begin, Block::iterator end,
             const ClusterSchedule &schedule,
             MutableArrayRef<Value> liveOut = {});

/// For a policy that emits a schedule's ops in their final order: while
/// attached to a builder, notes the cluster that is open when each op is
/// inserted into the builder's block, then forms the clusters of all the
/// ops inserted (formClusters).
class ClusterRecorder : public OpBuilder::Listener {
public:
  explicit ClusterRecorder(OpBuilder &b);
  ~ClusterRecorder() override;

  /// Ops inserted from now on go in a new cluster of `spec`.
  void open(const ClusterSpec &spec);
  /// Ops inserted from now on stay between clusters.
  void close();
  /// Forms the clusters of the ops inserted so far (see formClusters for
  /// `liveOut` and the errors).
  LogicalResult form(MutableArrayRef<Value> liveOut = {});

  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint previous) override;

private:
  OpBuilder &builder;
  OpBuilder::Listener *previousListener;
  Block *block;
  Operation *first = nullptr;
  ClusterSchedule schedule;
  DenseMap<Operation *, unsigned> clusterOf;
  std::optional<unsigned> current;
};

/// A schedule for a loop: the clusters of one trip of its body, and how the
/// loop runs.
struct LoopClusterSchedule {
  /// The clusters of one trip; `clusterOf` is asked about the ops of the
  /// original body.
  ClusterSchedule trip;
  /// Loop trips one body holds (the unroll factor), each trip formed into
  /// its own clusters; trips left over when the trip count is not a
  /// multiple run in a remainder loop in program order.
  unsigned tripsPerBody = 1;
  /// Whether the second half of the workgroup's waves runs one barrier
  /// behind the first (the loop inside hk.stagger).
  bool staggerWaveGroups = false;
};

/// Applies `schedule` to `loop`. Fails, with an error, when the loop cannot
/// be unrolled, a trip's clusters cannot be formed (formClusters) or the
/// wave groups cannot be told apart (staggering needs a 1-D workgroup of an
/// even number of waves and a known chip).
LogicalResult applyLoopClusterSchedule(scf::ForOp loop,
                                       const LoopClusterSchedule &schedule);

/// The two wave groups of the workgroup running `op`: its chip and its
/// 1-D workgroup of an even number (at least 2) of whole waves.
struct WaveGroups {
  const ChipInfo *chip;
  int64_t threads;
  int64_t waves;
};

/// The wave groups of `op`'s kernel, or an error on `op` starting with
/// `prefix` saying what is missing (a chip, a 1-D `known_block_size`, an
/// even number of whole waves).
FailureOr<WaveGroups> resolveWaveGroups(Operation *op, const Twine &prefix);

/// Emits `late`: true for the waves of the second half of a 1-D workgroup
/// of `waves` waves of `waveSize` lanes (the wave group hk.stagger runs one
/// barrier behind).
Value emitLateWaveGroup(OpBuilder &b, Location loc, int64_t waveSize,
                        int64_t waves);

} // namespace hk
} // namespace mlir

#endif // HK_DIALECT_HK_TRANSFORMS_CLUSTERSCHEDULE_H
