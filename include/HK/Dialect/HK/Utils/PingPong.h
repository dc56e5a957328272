//===- PingPong.h - the 8-wave ping-pong schedule, as data ------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// HipKittens' ping-pong schedule of a double-buffered K loop, independent of
// IR. A K tile is computed in n clusters, one per MMA of the loop body; the
// shared tiles are split into n regions (one fill each), double-buffered.
// Cluster q (counting over all K tiles) is
//
//   memory:  the fragment reads of its MMA that the tile has not read yet,
//            its share of the next K tile's register reads
//   wait, barrier
//   compute: its MMA, at raised priority
//   wait, barrier
//
// and issues the fill of region (q + lead) % n for K tile (q + lead) / n,
// either in its compute interval, after the MMA (the default: the fill's
// few instructions issue in the MFMAs' shadow, and a refill comes one
// barrier later, so its WAR needs no LDS wait), or in its memory interval,
// as HipKittens does.
//
// and the late wave group runs one barrier behind the other (hk.stagger):
// between two barriers one group computes while the other issues memory
// operations. The prologue issues the first `lead` fills; fills past the
// last tile are clamped to it (they keep the counts uniform; their data is
// never read). The loop body covers two K tiles, so slots are constants; an
// odd tile count ends with one more tile without fills.
//
// Wait sites (the static waits of the schedule, before each barrier):
//   0                     before the stagger (both groups)
//   1                     before the first barrier
//   2 + 2(h n + c) + a    loop body, half h (0, 1), cluster c, a = 0 before
//                         the compute barrier, 1 after the compute
//   2 + 4n + 2c + a       the odd tile
//   2 + 6n                after the loop (before the balancing barrier)
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_UTILS_PINGPONG_H
#define HK_DIALECT_HK_UTILS_PINGPONG_H

#include "HK/Dialect/HK/Utils/ScheduleWaits.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mlir::hk {

/// The K loop a ping-pong schedule is built for.
struct PingPongShape {
  /// A fragment read: its region and the LDS operations (lgkmcnt) one wave
  /// issues for it.
  struct Read {
    int region;
    int ops;
  };
  /// Per cluster of a K tile (one per MMA, in order): the fragment reads it
  /// issues (those of its MMA the tile has not read yet), in issue order.
  std::vector<std::vector<Read>> reads;
  /// Per cluster: the regions whose reads (of this K tile) its MMA uses.
  std::vector<std::vector<int>> uses;
  /// Per region: vector-memory operations of one wave's fill (vmcnt).
  std::vector<int> fillOps;
  /// Per cluster (or empty: none): vector-memory loads into registers
  /// (vmcnt) its memory interval issues for the next K tile, such as block
  /// scales; the first tile's are issued after the prologue's fills.
  std::vector<int> registerLoads;

  int clusters() const { return reads.size(); }
  int regions() const { return fillOps.size(); }
};

/// Where a cluster issues its fill.
enum class FillInterval { compute, memory };

/// A ping-pong schedule: where fills go (chosen by the caller), its lead
/// and its waits (chosen by planPingPong).
struct PingPongPlan {
  FillInterval fills = FillInterval::compute;
  /// Issue every cluster's reads in the compute interval of the cluster
  /// before (after its MMA), a K tile's first reads in the last cluster of
  /// the tile before (the first tile's after the publishing barrier),
  /// instead of in their own memory interval.
  bool readAhead = false;
  int clusters = 0;
  int lead = 0;
  std::vector<WaitCounts> waits;

  static constexpr int kPrologueSite = 0;
  static constexpr int kPublishSite = 1;
  int bodySite(int half, int cluster, bool afterCompute) const {
    return 2 + 2 * (half * clusters + cluster) + afterCompute;
  }
  int oddTileSite(int cluster, bool afterCompute) const {
    return 2 + 4 * clusters + 2 * cluster + afterCompute;
  }
  int finalSite() const { return 2 + 6 * clusters; }
  int numSites() const { return 3 + 6 * clusters; }

  /// The fill cluster `q` issues (q < 0: the prologue's fill lead + q):
  /// (region, K tile).
  std::pair<int, int64_t> fillOf(int64_t q) const {
    int64_t fill = q + lead;
    return {int(fill % clusters), fill / clusters};
  }
};

/// The event lists of both wave groups (early, late) for `tiles` K tiles.
ScheduleRun expandPingPong(const PingPongShape &shape, const PingPongPlan &plan,
                           int64_t tiles);

/// The tile counts the waits are derived over: every prologue, steady state
/// and ending the schedule has appears in one of them.
constexpr int64_t kPingPongCheckedTiles = 12;

/// Chooses the deepest lead whose dependencies waits can satisfy and derives
/// the waits over 1..kPingPongCheckedTiles K tiles, for `plan.fills`.
/// Fails with why no ping-pong schedule exists for `shape`.
llvm::Error planPingPong(const PingPongShape &shape,
                         const CounterLimits &limits, PingPongPlan &plan);

} // namespace mlir::hk

#endif // HK_DIALECT_HK_UTILS_PINGPONG_H
