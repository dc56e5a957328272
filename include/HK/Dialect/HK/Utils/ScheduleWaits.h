//===- ScheduleWaits.h - memory-counter waits of a schedule -----*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The wait counts of a schedule, derived from its event order. A schedule is
// given as the program of each group of waves (all waves of a group run the
// same events), unrolled for one launch: asynchronous fills of shared-tile
// regions (counted by vmcnt), LDS reads (counted by lgkmcnt), loads into
// registers (counted by vmcnt, with no LDS dependency: the backend waits
// for their registers itself), barriers and the wait sites before them. Both
// counters complete in issue order per wave. The j-th barrier a wave executes
// is the j-th of the workgroup.
//
// Every cross-wave dependency must hold for every pair of waves:
//  - RAW: a read of (region, generation) after barrier j needs every wave's
//    fill of that generation completed by a wait before that wave's barrier
//    j (so the barrier publishes it);
//  - WAR: a fill of (region, generation) issued after barrier j needs every
//    wave's reads of earlier generations in the same slot completed by a
//    wait before that wave's barrier j.
// A WAW needs no rule of its own: counters complete in order per wave, so a
// read's RAW on generation g also covers every earlier fill of the region
// by the same counter.
// `computeScheduleWaits` finds the largest counts (the most operations left
// in flight) for which all hold, by tightening the wait right before the
// barrier each unmet dependency names until none is unmet.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_UTILS_SCHEDULEWAITS_H
#define HK_DIALECT_HK_UTILS_SCHEDULEWAITS_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace mlir::hk {

/// One event of a wave's program.
struct SyncEvent {
  enum class Kind { Fill, Read, Use, Wait, Barrier, Load };
  /// The counter an LDS write is waited for with: direct-to-LDS loads by
  /// vmcnt, LDS stores of registers (ds_write) by lgkmcnt.
  enum class Counter { vm, lgkm };
  Kind kind;
  /// Fill, Read, Use: the shared-tile region and which of its fills (the K
  /// tile); generation g lives in slot g % slots. A Use is an instruction
  /// consuming the registers of a read of that region and generation: the
  /// backend waits for the read before it, and LDS reads complete in order,
  /// so every earlier LDS operation is complete there too.
  int region = 0;
  int64_t generation = 0;
  /// Fill: operations of its counter; Read: LDS operations (lgkmcnt);
  /// Load: vector-memory loads (vmcnt).
  int ops = 0;
  /// Wait: the static wait this is an instance of (an index into the waits).
  int site = -1;
  /// Fill: which counter completes it.
  Counter counter = Counter::vm;
  /// Barrier: whether it first completes the wave's LDS operations (a
  /// workgroup release fence, as `amdgpu.lds_barrier`), not its vector
  /// memory ones.
  bool drainsLds = false;
  /// Use: the event index of the read it consumes; -1 for the wave's last
  /// read of `region` and `generation`.
  int readEvent = -1;
  /// Fill, Read: consecutive events with the same non-negative value may
  /// issue in any order among themselves (an `interleaved` hk.cluster), so
  /// a count only covers one once the whole group has issued, and a use of
  /// one only completes what was issued before the group.
  int unordered = -1;
  /// For the caller: what this event stands for (an op), in messages.
  int tag = -1;

  static SyncEvent fill(int region, int64_t generation, int ops,
                        Counter counter = Counter::vm) {
    SyncEvent e{Kind::Fill, region, generation, ops};
    e.counter = counter;
    return e;
  }
  static SyncEvent read(int region, int64_t generation, int ops) {
    return {Kind::Read, region, generation, ops};
  }
  /// Loads into registers, which only move vmcnt.
  static SyncEvent load(int ops) { return {Kind::Load, 0, 0, ops}; }
  static SyncEvent use(int region, int64_t generation, int readEvent = -1) {
    SyncEvent e{Kind::Use, region, generation};
    e.readEvent = readEvent;
    return e;
  }
  static SyncEvent wait(int site) { return {Kind::Wait, 0, 0, 0, site}; }
  static SyncEvent barrier(bool drainsLds = false) {
    SyncEvent e{Kind::Barrier};
    e.drainsLds = drainsLds;
    return e;
  }
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

/// The largest counts a wait can name on each counter: the chip's
/// (ChipInfo::maxVmCount, maxLgkmCount).
struct CounterLimits {
  int vm;
  int lgkm;
};

/// Computes, into `waits` (one entry per site, start with no waits), the
/// counts that make every dependency of every run hold; a site's count is
/// the minimum over its instances. Every barrier must directly follow a
/// wait. Fails with why no counts can (a read before any fill of its
/// generation, a dependency no wait before the barrier can cover, ...).
llvm::Error computeScheduleWaits(const std::vector<ScheduleRun> &runs,
                                 int slots, const CounterLimits &limits,
                                 std::vector<WaitCounts> &waits);

/// The first dependency a schedule breaks, with the events involved.
struct SyncViolation {
  /// What is wrong, as a sentence naming regions and generations.
  std::string message;
  /// The dependent event (a read or a fill) and the event it depends on
  /// (the fill a read needs, the read a fill would overwrite): wave group
  /// and event index; -1 where a message names no such event.
  int group = -1, event = -1;
  int otherGroup = -1, otherEvent = -1;
  /// The workgroup barrier (0-based) that must order them, -1 if none, and
  /// its event index in the group a wait must mend (`otherGroup` for a
  /// missing wait, `group` otherwise).
  int barrier = -1;
  int barrierEvent = -1;
  /// What would mend it: a wait before that barrier in `otherGroup`
  /// (`counter` names which), or a barrier between the two events.
  enum class Missing { barrier, wait, other } missing = Missing::other;
  SyncEvent::Counter counter = SyncEvent::Counter::vm;
  /// For a missing wait: the largest count of `counter` a wait right
  /// before the barrier may have and still cover `otherEvent`.
  int covering = 0;
};

/// Checks that `waits` make every dependency of `runs` hold; fails with the
/// first violation.
llvm::Error checkScheduleWaits(const std::vector<ScheduleRun> &runs, int slots,
                               const std::vector<WaitCounts> &waits);

/// The same, with the violation's events: nullopt if every dependency
/// holds.
std::optional<SyncViolation>
findSyncViolation(const std::vector<ScheduleRun> &runs, int slots,
                  const std::vector<WaitCounts> &waits);

} // namespace mlir::hk

#endif // HK_DIALECT_HK_UTILS_SCHEDULEWAITS_H
