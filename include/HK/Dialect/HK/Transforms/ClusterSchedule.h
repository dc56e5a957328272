//===- ClusterSchedule.h - the cluster expansion mechanism ------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The mechanism every hk schedule is written with. A policy says, for each
// op of a K loop's body, which K tile it is issued for (the tile computed
// or one ahead), in which cluster and at which priority, where the waits
// and barriers go, how many tiles one loop trip holds and whether the
// workgroup's two wave groups run one barrier apart (LoopClusterSchedule);
// applyLoopClusterSchedule builds the prologue, the steady loop, the
// remainder and the drain from that, with hk.cluster / hk.stagger. The
// policies are hk-schedule-ping-pong (HipKittens' ping-pong) and
// hk-schedule-interleave (a tile read ahead, one barrier per tile);
// hk-raise-mma-priority forms one cluster with formClusters;
// -test-hk-cluster-schedule drives applyLoopClusterSchedule from
// attributes on the ops, as -test-scf-pipelining drives
// scf::pipelineForLoop.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_TRANSFORMS_CLUSTERSCHEDULE_H
#define HK_DIALECT_HK_TRANSFORMS_CLUSTERSCHEDULE_H

#include "HK/Dialect/HK/Analysis/KVLoop.h"
#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Dialect/HK/Utils/ScheduleWaits.h"

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
  /// Records into `clusters` (more are added by `open`).
  explicit ClusterRecorder(OpBuilder &b, ArrayRef<ClusterSpec> clusters = {});
  ~ClusterRecorder() override;

  /// Ops inserted from now on go in a new cluster of `spec`.
  void open(const ClusterSpec &spec);
  /// Ops inserted from now on go in cluster `cluster` (of those given to
  /// the constructor or opened), or, with nullopt, stay between clusters.
  void enter(std::optional<unsigned> cluster);
  /// Ops inserted from now on stay between clusters.
  void close() { enter(std::nullopt); }
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

/// One step of a scheduled K tile, in issue order.
struct TileStep {
  enum class Kind { op, wait, barrier };
  Kind kind = Kind::op;
  /// Kind::op: an op of the loop body, cloned for the K tile `ahead` tiles
  /// after the one the step's tile computes. With `ahead` > 0 the pure ops
  /// of the body it depends on are cloned with it, for that tile.
  Operation *op = nullptr;
  unsigned ahead = 0;
  /// Kind::wait: which of the schedule's waits (`waitCounts` gives its
  /// counts in each copy of the tile).
  unsigned wait = 0;
  /// The cluster (an index into the schedule's `clusters`) the step is
  /// issued in, or none.
  std::optional<unsigned> cluster;
  /// Results of steps issued one tile ahead are carried by the loop to the
  /// tile they are for, ordered by rank, then by step.
  unsigned carryRank = 0;

  static TileStep ofOp(Operation *op, unsigned ahead = 0,
                       std::optional<unsigned> cluster = std::nullopt) {
    TileStep s;
    s.op = op;
    s.ahead = ahead;
    s.cluster = cluster;
    return s;
  }
  static TileStep ofWait(unsigned wait) {
    TileStep s;
    s.kind = Kind::wait;
    s.wait = wait;
    return s;
  }
  static TileStep ofBarrier() {
    TileStep s;
    s.kind = Kind::barrier;
    return s;
  }
};

/// A loop of K tiles run as a pipeline: what each op of a K tile is issued
/// for and where, and how the loop around them is built. The expansion
/// (applyLoopClusterSchedule) emits
///
///   prologue: the steps issued ahead for the first tiles, as the tiles
///             before the first would have issued them: shared-tile fills,
///             then reads of global memory into registers; the prologue
///             wait; [the stagger opens] the publish wait; a barrier (if
///             anything fills a shared tile); the reads of shared tiles
///             and the other work issued ahead
///   steady:   a loop of `tilesPerTrip` tiles per trip, each the steps
///   remainder: the tiles left over, without the steps issued ahead
///   drain:    the final wait; [the stagger closes] a wait for every load
///             (if anything fills a shared tile); a barrier
///             (`drainBarrier`), or, when the loop sits in another loop (a
///             persistent kernel's work items) and fills shared tiles, a
///             wait for every LDS load and a barrier, so that the next
///             prologue's fills follow every wave's last reads
///
/// Tile t reads and fills slot t % 2 of each tile in `doubleBuffered`
/// (which the expansion gives two slots); a step issued for a tile past the
/// last is issued for the last (the K index is clamped), which keeps the
/// counts of every tile alike.
struct LoopClusterSchedule {
  /// The clusters of one K tile, in the order they run.
  SmallVector<ClusterSpec> clusters;
  /// The clusters of a remainder tile, when they differ (a cluster that
  /// interleaves only what is issued ahead), else empty.
  SmallVector<ClusterSpec> remainderClusters;
  /// One K tile. Every op of the body a tile computes with is a step with
  /// `ahead` 0; the body's waits and barriers that are not steps are
  /// dropped.
  SmallVector<TileStep> tile;
  /// The shared tiles' hk.alloc_shared ops.
  SmallVector<Operation *> doubleBuffered;
  /// K tiles per loop trip: 1 (slots are computed from the tile) or 2
  /// (slots are constants).
  unsigned tilesPerTrip = 1;
  /// Whether the second half of the workgroup's waves runs one barrier
  /// behind the first (the loop inside hk.stagger).
  bool staggerWaveGroups = false;
  /// Waits of the prologue (before the stagger), before the first barrier,
  /// and after the last tile.
  WaitCounts prologueWait, publishWait, finalWait;
  /// The counts of `wait` in tile copy `copy` of the loop body (0 to
  /// tilesPerTrip - 1), or in the remainder (`copy` = tilesPerTrip).
  std::function<WaitCounts(unsigned wait, unsigned copy)> waitCounts;
  /// Whether the whole schedule runs only when the loop does (else only the
  /// prologue's memory ops are guarded, and the reads ahead are zeros when
  /// it does not run).
  bool guardWholeSchedule = true;
  /// Whether a tile computes with the K index clamped to the last tile.
  bool clampComputedTile = true;
  /// Whether the loop counts on i32 (a scalar compare on gfx9) rather than
  /// index.
  bool countOnI32 = false;
  /// Whether the prologue's register reads and shared-tile reads each form
  /// a cluster (whose fences keep them after the fills the waits count).
  bool clusterPrologueReads = true;
  /// Whether the drain ends with a barrier.
  bool drainBarrier = false;
  /// The barrier the schedule issues (cloned), or null: hk.barrier.
  Operation *barrier = nullptr;
};

/// Replaces `loop` by the pipeline `schedule` describes. Fails, with an
/// error, when a step cannot be issued as described (a value issued more
/// than one tile ahead, a tile's clusters cannot be formed: formClusters)
/// or the wave groups cannot be told apart (staggering needs a 1-D
/// workgroup of an even number of waves and a known chip); the loop is
/// then left as it was, or the pass fails.
LogicalResult applyLoopClusterSchedule(scf::ForOp loop,
                                       const LoopClusterSchedule &schedule);

/// Emits the `amdgpu.memory_counter_wait` of `counts`, or nothing when it
/// waits for nothing.
void emitWait(OpBuilder &b, Location loc, const WaitCounts &counts);

/// The number of K tiles `loop` runs: ceil((ub - lb) / step), 0 when it
/// does not run.
Value emitTileCount(OpBuilder &b, scf::ForOp loop);

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

//===----------------------------------------------------------------------===//
// Helpers the schedule passes share
//===----------------------------------------------------------------------===//

/// The shared tiles `kv` fills, when each can take a second slot: it has
/// one, is filled and read (by fragment loads only) in slot 0, and the LDS
/// has room for the second slots. std::nullopt, with `why` set, when the
/// policy does not hold; failure, after an error naming `pass`, when the
/// LDS is too small.
FailureOr<std::optional<SmallVector<AllocSharedOp>>>
checkSecondSlots(scf::ForOp loop, const KVLoop &kv, StringRef pass,
                 std::string &why);

/// Emits at `b` the fill section of `kv` (its copies and the pure ops
/// feeding them) for induction value `iv`, the copies into `slot`.
SmallVector<CopyToSharedOp> emitFill(OpBuilder &b, const KVLoop &kv, Value iv,
                                     Value slot);

/// Emits `amdgpu.memory_counter_wait load(0)`: every load the wave issued,
/// direct-to-LDS fills included, is complete.
void emitWaitForLoads(OpBuilder &b, Location loc);

/// Emits at `b`'s position the wave's first thread id,
/// `rocdl.readfirstlane(i32(threadIdX) & -waveSize)`: a scalar. hk.stagger's
/// condition reads it, and hk-rematerialize-after-loops rebuilds thread ids
/// after loops from it (reusing one emitted before the loop: readfirstlanes
/// are not merged by CSE, and each would take an SGPR through the loop).
Value emitWaveFirstThreadId(OpBuilder &b, Location loc, Value threadIdX,
                            int64_t waveSize);

} // namespace hk
} // namespace mlir

#endif // HK_DIALECT_HK_TRANSFORMS_CLUSTERSCHEDULE_H
