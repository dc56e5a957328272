//===- ScheduleWaits.cpp - memory-counter waits of a schedule -------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the derivation and the check of a schedule's wait
// counts (see ScheduleWaits.h): a small model of in-order counters per wave
// and of barriers shared by the workgroup.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Utils/ScheduleWaits.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <algorithm>
#include <map>
#include <utility>

using namespace mlir::hk;

namespace {
/// One wave group's event list with the positions the model needs.
struct Timeline {
  const std::vector<SyncEvent> &events;
  /// Operations of each counter issued before event i.
  std::vector<int> vmBefore, lgkmBefore;
  /// Event index of the j-th barrier; barriers before event i.
  std::vector<int> barrierAt, barriersBefore;
  /// (region, generation) -> event index of its fill; of its reads.
  std::map<std::pair<int, int64_t>, int> fills;
  std::map<std::pair<int, int64_t>, std::vector<int>> reads;
  /// Per Fill and Read: the count of its counter by which it has surely
  /// issued, and before which everything surely issued before it.
  std::vector<int> issuedBy, precededBy;
  /// Per Use event: the read it consumes.
  std::map<int, int> usedRead;
  /// Set when a region's fills are not in generation order, or a use comes
  /// before any read of what it uses.
  std::string error;

  explicit Timeline(const std::vector<SyncEvent> &events) : events(events) {
    int vm = 0, lgkm = 0;
    for (int i = 0, e = events.size(); i < e; ++i) {
      const SyncEvent &ev = events[i];
      vmBefore.push_back(vm);
      lgkmBefore.push_back(lgkm);
      barriersBefore.push_back(barrierAt.size());
      switch (ev.kind) {
      case SyncEvent::Kind::Fill: {
        auto key = std::make_pair(ev.region, ev.generation);
        auto later = fills.lower_bound(key);
        if (!fills.emplace(key, i).second ||
            (later != fills.end() && later->first.first == ev.region))
          error = "the fills of region " + std::to_string(ev.region) +
                  " are not issued once each in generation order";
        break;
      }
      case SyncEvent::Kind::Read:
        reads[{ev.region, ev.generation}].push_back(i);
        break;
      case SyncEvent::Kind::Use: {
        int used = ev.readEvent;
        if (used < 0) {
          auto read = reads.find({ev.region, ev.generation});
          if (read != reads.end())
            used = read->second.back();
        }
        if (used < 0 || used >= i || events[used].kind != SyncEvent::Kind::Read)
          error = "a use of region " + std::to_string(ev.region) +
                  " (generation " + std::to_string(ev.generation) +
                  ") comes before any read of it";
        else
          usedRead[i] = used;
        break;
      }
      case SyncEvent::Kind::Barrier:
        barrierAt.push_back(i);
        break;
      case SyncEvent::Kind::Wait:
      case SyncEvent::Kind::Load:
        break;
      }
      vm += countedOps(i, /*vm=*/true);
      lgkm += countedOps(i, /*vm=*/false);
    }
    // Unordered groups: an event is surely issued once the last of its
    // group is, and surely preceded only by what was issued before the
    // first.
    int n = events.size();
    std::map<int, std::pair<int, int>> span; // group -> first, last event
    for (int i = 0; i < n; ++i)
      if (events[i].unordered >= 0) {
        auto [it, fresh] = span.try_emplace(events[i].unordered, i, i);
        it->second.second = i;
      }
    issuedBy.resize(n);
    precededBy.resize(n);
    for (int k = 0; k < n; ++k) {
      bool vm = countsOn(k);
      const std::vector<int> &before = vm ? vmBefore : lgkmBefore;
      issuedBy[k] = before[k] + countedOps(k, vm);
      precededBy[k] = before[k];
      if (events[k].unordered < 0)
        continue;
      auto [first, last] = span[events[k].unordered];
      issuedBy[k] = before[last] + countedOps(last, vm);
      precededBy[k] = before[first];
    }
  }

  /// Operations of counter `vm` (or lgkm) surely issued after event `op`
  /// and before event `until`: the largest count a wait right before
  /// `until` may have and still cover `op`.
  int opsAfter(int op, int until, bool vm) const {
    return (vm ? vmBefore : lgkmBefore)[until] - issuedBy[op];
  }

  /// True if event `k` counts on vmcnt (a direct fill), false for lgkmcnt.
  bool countsOn(int k) const {
    return events[k].kind == SyncEvent::Kind::Fill &&
           events[k].counter == SyncEvent::Counter::vm;
  }
  /// The operations event `k` adds to counter `vm` (or lgkm).
  int countedOps(int k, bool vm) const {
    const SyncEvent &ev = events[k];
    if (ev.kind == SyncEvent::Kind::Read)
      return vm ? 0 : ev.ops;
    if (ev.kind == SyncEvent::Kind::Fill)
      return countsOn(k) == vm ? ev.ops : 0;
    if (ev.kind == SyncEvent::Kind::Load)
      return vm ? ev.ops : 0;
    return 0;
  }

  /// True if the operations of event `op` (counter `vm` or lgkm) are
  /// complete at event `until`, by a wait, a use of a later read or an
  /// LDS-draining barrier in between.
  bool completedBy(int op, int until, bool vm,
                   const std::vector<WaitCounts> &waits) const {
    const std::vector<int> &before = vm ? vmBefore : lgkmBefore;
    int last = issuedBy[op];
    for (int i = op + 1; i < until; ++i) {
      if (!vm && events[i].kind == SyncEvent::Kind::Use) {
        int read = usedRead.at(i);
        if (read == op || precededBy[read] >= last)
          return true;
      }
      if (!vm && events[i].kind == SyncEvent::Kind::Barrier &&
          events[i].drainsLds)
        return true;
      if (events[i].kind != SyncEvent::Kind::Wait)
        continue;
      const WaitCounts &w = waits[events[i].site];
      int allowed = vm ? w.vm : w.lgkm;
      if (allowed != WaitCounts::kNoWait && before[i] - allowed >= last)
        return true;
    }
    // A draining barrier completes LDS operations before it synchronizes.
    return !vm && until < int(events.size()) &&
           events[until].kind == SyncEvent::Kind::Barrier &&
           events[until].drainsLds;
  }
};

std::string describe(const SyncEvent &ev) {
  return std::string(ev.kind == SyncEvent::Kind::Fill ? "fill" : "read") +
         " of region " + std::to_string(ev.region) + " (generation " +
         std::to_string(ev.generation) + ")";
}

/// The event lists of every run, with their positions.
using Model = std::vector<std::vector<Timeline>>;

llvm::Error buildModel(const std::vector<ScheduleRun> &runs, Model &model) {
  for (const ScheduleRun &run : runs) {
    std::vector<Timeline> &groups = model.emplace_back();
    for (const std::vector<SyncEvent> &events : run) {
      groups.emplace_back(events);
      if (!groups.back().error.empty())
        return llvm::createStringError(groups.back().error);
    }
    for (size_t g = 1; g < groups.size(); ++g)
      if (groups[g].barrierAt.size() != groups[0].barrierAt.size())
        return llvm::createStringError(
            "wave group " + std::to_string(g) + " executes " +
            std::to_string(groups[g].barrierAt.size()) +
            " barriers but wave group 0 executes " +
            std::to_string(groups[0].barrierAt.size()) +
            ", so barriers pair up wrongly across the workgroup");
  }
  return llvm::Error::success();
}

/// Walks every dependency of `model`; on an unmet one, `onUnmet(timeline,
/// opEvent, barrierEvent, vm)` may tighten the wait before the barrier and
/// return nullopt, or return why it cannot. Returns the first violation.
/// Fills of a region come in generation order in every group (buildModel
/// checks), so a fill need only wait for the reads of the generation it
/// replaces: earlier ones finished before that generation's own fill. Fills
/// under one counter land in order; after one under the other counter, a
/// fill also waits for it (WAW).
template <typename OnUnmet>
std::optional<SyncViolation>
walkDependencies(const Model &model, int slots,
                 const std::vector<WaitCounts> &waits, OnUnmet onUnmet) {
  using Missing = SyncViolation::Missing;
  for (const std::vector<Timeline> &groups : model) {
    for (size_t r = 0; r < groups.size(); ++r) {
      const Timeline &reader = groups[r];
      for (int p = 0, e = reader.events.size(); p < e; ++p) {
        const SyncEvent &ev = reader.events[p];
        auto violation = [&](std::string message, int other, int otherEvent,
                             int barrier, Missing missing) {
          SyncViolation v;
          v.message = std::move(message);
          v.group = r;
          v.event = p;
          v.otherGroup = other;
          v.otherEvent = otherEvent;
          v.barrier = barrier;
          v.barrierEvent = barrier >= 0 ? reader.barrierAt[barrier] : -1;
          v.missing = missing;
          return v;
        };
        // A wait before `barrier` (event index) in `t` would cover event
        // `op`: say which counter and how far.
        auto missingWait = [&](SyncViolation v, const Timeline &t, int op,
                               int barrier, bool vm) {
          v.barrierEvent = barrier;
          v.counter = vm ? SyncEvent::Counter::vm : SyncEvent::Counter::lgkm;
          v.covering = t.opsAfter(op, barrier, vm);
          return v;
        };
        // A fill replacing a slot's contents needs event `q` of group `o`
        // issued before that group's barrier `j` and complete (counter `vm`)
        // by it; `unordered` says why when no barrier orders them.
        auto completeBefore = [&](size_t o, int q, int j, bool vm,
                                  llvm::function_ref<std::string()> unordered)
            -> std::optional<SyncViolation> {
          const Timeline &other = groups[o];
          if (j < 0 || q > other.barrierAt[j])
            return violation(unordered(), o, q, j, Missing::barrier);
          int barrier = other.barrierAt[j];
          if (other.completedBy(q, barrier, vm, waits))
            return std::nullopt;
          std::optional<std::string> why = onUnmet(other, q, barrier, vm);
          if (!why)
            return std::nullopt;
          return missingWait(violation(*why, o, q, j, Missing::wait), other, q,
                             barrier, vm);
        };
        if (ev.kind == SyncEvent::Kind::Read) {
          // RAW: every group's fill of this generation, published by the
          // last barrier before the read.
          int j = reader.barriersBefore[p] - 1;
          for (size_t w = 0; w < groups.size(); ++w) {
            const Timeline &writer = groups[w];
            auto fill = writer.fills.find({ev.region, ev.generation});
            if (fill == writer.fills.end())
              return violation("wave group " + std::to_string(w) +
                                   " never issues the fill that the " +
                                   describe(ev) + " of wave group " +
                                   std::to_string(r) + " needs",
                               w, -1, j, Missing::other);
            if (j < 0)
              return violation(
                  "the " + describe(ev) + " of wave group " +
                      std::to_string(r) +
                      " comes before any barrier that could publish its fill",
                  w, fill->second, j, Missing::barrier);
            int barrier = writer.barrierAt[j];
            if (fill->second > barrier)
              return violation("the " + describe(ev) + " of wave group " +
                                   std::to_string(r) + " follows barrier " +
                                   std::to_string(j) + " but wave group " +
                                   std::to_string(w) +
                                   " issues that fill after it",
                               w, fill->second, j, Missing::barrier);
            bool vm =
                writer.events[fill->second].counter == SyncEvent::Counter::vm;
            if (!writer.completedBy(fill->second, barrier, vm, waits)) {
              std::optional<std::string> why =
                  onUnmet(writer, fill->second, barrier, vm);
              if (why)
                return missingWait(
                    violation(*why, w, fill->second, j, Missing::wait), writer,
                    fill->second, barrier, vm);
            }
          }
          continue;
        }
        if (ev.kind != SyncEvent::Kind::Fill || ev.generation < slots)
          continue;
        int j = reader.barriersBefore[p] - 1;
        // WAW: after a fill under the other counter (direct-to-LDS loads
        // after LDS stores or the reverse, whose writes land in no common
        // order), the slot's previous fill must be complete, by every
        // group, before the last barrier before this one.
        for (size_t o = 0; o < groups.size(); ++o) {
          const Timeline &other = groups[o];
          auto previous = other.fills.find({ev.region, ev.generation - slots});
          if (previous == other.fills.end() ||
              other.events[previous->second].counter == ev.counter)
            continue;
          int q = previous->second;
          bool vm = other.events[q].counter == SyncEvent::Counter::vm;
          if (auto v = completeBefore(o, q, j, vm, [&] {
                return "the " + describe(ev) + " of wave group " +
                       std::to_string(r) + " may land before the " +
                       describe(other.events[q]) + " of wave group " +
                       std::to_string(o) +
                       ", under the other counter: no barrier orders them";
              }))
            return v;
        }
        // WAR: the reads of the generation this fill replaces, by every
        // group, finished before the last barrier before this fill.
        for (size_t o = 0; o < groups.size(); ++o) {
          const Timeline &other = groups[o];
          auto reads = other.reads.find({ev.region, ev.generation - slots});
          if (reads == other.reads.end())
            continue;
          for (int q : reads->second)
            if (auto v = completeBefore(o, q, j, /*vm=*/false, [&] {
                  return "the " + describe(ev) + " of wave group " +
                         std::to_string(r) + " overwrites slot " +
                         std::to_string(ev.generation % slots) + " while the " +
                         describe(other.events[q]) + " of wave group " +
                         std::to_string(o) +
                         " may still be running: no barrier orders them";
                }))
              return v;
        }
      }
    }
  }
  return std::nullopt;
}

std::optional<SyncViolation> check(const Model &model, int slots,
                                   const std::vector<WaitCounts> &waits) {
  return walkDependencies(
      model, slots, waits,
      [](const Timeline &t, int op, int,
         bool vm) -> std::optional<std::string> {
        return "the " + describe(t.events[op]) + " is not complete (" +
               (vm ? "vmcnt" : "lgkmcnt") +
               ") at the barrier that must publish or release it";
      });
}
} // namespace

llvm::Error mlir::hk::computeScheduleWaits(const std::vector<ScheduleRun> &runs,
                                           int slots,
                                           const CounterLimits &limits,
                                           std::vector<WaitCounts> &waits) {
  Model model;
  if (llvm::Error error = buildModel(runs, model))
    return error;
  // Tighten the wait each unmet dependency names until none is unmet.
  bool changed = true;
  while (changed) {
    changed = false;
    std::optional<SyncViolation> violation = walkDependencies(
        model, slots, waits,
        [&](const Timeline &t, int op, int barrier,
            bool vm) -> std::optional<std::string> {
          int site = barrier - 1;
          if (site <= op || t.events[site].kind != SyncEvent::Kind::Wait)
            return "no wait between the " + describe(t.events[op]) +
                   " and the barrier that must find it complete";
          int needed = t.opsAfter(op, site, vm);
          needed = std::min(needed, vm ? limits.vm : limits.lgkm);
          WaitCounts &w = waits[t.events[site].site];
          int &count = vm ? w.vm : w.lgkm;
          if (needed < count) {
            count = needed;
            changed = true;
          }
          return std::nullopt;
        });
    if (violation)
      return llvm::createStringError(violation->message);
  }
  // A wait tightened early may have become redundant through a later one:
  // loosen each count as far as the dependencies allow (they are monotone
  // in it), dropping it where they need none.
  for (WaitCounts &w : waits)
    for (bool vm : {true, false}) {
      int &count = vm ? w.vm : w.lgkm;
      if (count == WaitCounts::kNoWait)
        continue;
      int tight = count;
      count = WaitCounts::kNoWait;
      if (!check(model, slots, waits))
        continue;
      int lo = tight, hi = vm ? limits.vm : limits.lgkm; // lo passes
      while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        count = mid;
        if (!check(model, slots, waits))
          lo = mid;
        else
          hi = mid - 1;
      }
      count = lo;
    }
  return llvm::Error::success();
}

std::optional<SyncViolation>
mlir::hk::findSyncViolation(const std::vector<ScheduleRun> &runs, int slots,
                            const std::vector<WaitCounts> &waits) {
  Model model;
  if (llvm::Error error = buildModel(runs, model)) {
    SyncViolation v;
    v.message = llvm::toString(std::move(error));
    return v;
  }
  return check(model, slots, waits);
}

llvm::Error mlir::hk::checkScheduleWaits(const std::vector<ScheduleRun> &runs,
                                         int slots,
                                         const std::vector<WaitCounts> &waits) {
  std::optional<SyncViolation> v = findSyncViolation(runs, slots, waits);
  return v ? llvm::createStringError(v->message) : llvm::Error::success();
}
