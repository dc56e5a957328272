//===- ScheduleWaits.h - memory-counter waits of a schedule -----*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The wait counts of a schedule, derived from its event order. A schedule is
// given as the program of each group of waves (all waves of a group run the
// same events), unrolled for one launch: asynchronous fills of shared-tile
// regions (counted by vmcnt), LDS reads (counted by lgkmcnt), barriers and
// the wait sites before them. Both counters complete in issue order per
// wave. The j-th barrier a wave executes is the j-th of the workgroup.
//
// Every cross-wave dependency must hold for every pair of waves:
//  - RAW: a read of (region, generation) after barrier j needs every wave's
//    fill of that generation completed by a wait before that wave's barrier
//    j (so the barrier publishes it);
//  - WAR: a fill of (region, generation) issued after barrier j needs every
//    wave's reads of earlier generations in the same slot completed by a
//    wait before that wave's barrier j.
// `computeScheduleWaits` finds the largest counts (the most operations left
// in flight) for which all hold, by tightening the wait right before the
// barrier each unmet dependency names until none is unmet.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_UTILS_SCHEDULEWAITS_H
#define HK_DIALECT_HK_UTILS_SCHEDULEWAITS_H

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace mlir::hk {

/// One event of a wave's program.
struct SyncEvent {
  enum class Kind { Fill, Read, Use, Wait, Barrier };
  Kind kind;
  /// Fill, Read, Use: the shared-tile region and which of its fills (the K
  /// tile); generation g lives in slot g % slots. A Use is an instruction
  /// consuming the registers of the wave's last read of that region and
  /// generation: the backend waits for the read before it, and LDS reads
  /// complete in order, so every earlier read is complete there too.
  int region = 0;
  int64_t generation = 0;
  /// Fill: vector-memory operations (vmcnt); Read: LDS operations (lgkmcnt).
  int ops = 0;
  /// Wait: the static wait this is an instance of (an index into the waits).
  int site = -1;

  static SyncEvent fill(int region, int64_t generation, int ops) {
    return {Kind::Fill, region, generation, ops, -1};
  }
  static SyncEvent read(int region, int64_t generation, int ops) {
    return {Kind::Read, region, generation, ops, -1};
  }
  static SyncEvent use(int region, int64_t generation) {
    return {Kind::Use, region, generation, 0, -1};
  }
  static SyncEvent wait(int site) { return {Kind::Wait, 0, 0, 0, site}; }
  static SyncEvent barrier() { return {Kind::Barrier, 0, 0, 0, -1}; }
};

/// The most operations of each counter allowed in flight after a wait;
/// `kNoWait` means the wait does not constrain that counter.
struct WaitCounts {
  static constexpr int kNoWait = std::numeric_limits<int>::max();
  int vm = kNoWait;
  int lgkm = kNoWait;
  bool waitsForAnything() const { return vm != kNoWait || lgkm != kNoWait; }
  bool operator==(const WaitCounts &o) const {
    return vm == o.vm && lgkm == o.lgkm;
  }
};

/// One launch of a schedule: the event list of each wave group.
using ScheduleRun = std::vector<std::vector<SyncEvent>>;

/// Limits of the hardware counters (gfx9: vmcnt 6 bits, lgkmcnt 4 bits).
struct CounterLimits {
  int vm = 63;
  int lgkm = 15;
};

/// Computes, into `waits` (one entry per site, start with no waits), the
/// counts that make every dependency of every run hold; a site's count is
/// the minimum over its instances. Every barrier must directly follow a
/// wait. Returns an empty string on success, else why no counts can
/// (a read before any fill of its generation, a dependency no wait before
/// the barrier can cover, ...).
std::string computeScheduleWaits(const std::vector<ScheduleRun> &runs,
                                 int slots, const CounterLimits &limits,
                                 std::vector<WaitCounts> &waits);

/// Checks that `waits` make every dependency of `runs` hold; returns the
/// first violation, or an empty string.
std::string checkScheduleWaits(const std::vector<ScheduleRun> &runs, int slots,
                               const std::vector<WaitCounts> &waits);

} // namespace mlir::hk

#endif // HK_DIALECT_HK_UTILS_SCHEDULEWAITS_H
