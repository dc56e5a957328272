//===- ScheduleSettings.h - the schedule knobs as values --------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The schedule knobs of ScheduleOptions.def as plain values: what
// #hk.schedule holds, what the kernel library returns as a kernel's fastest
// schedule, what a program sets without a command line; and the rules their
// combinations obey, checked by the attribute's verifier and the pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_UTILS_SCHEDULESETTINGS_H
#define HK_DIALECT_HK_UTILS_SCHEDULESETTINGS_H

#include "HK/Dialect/HK/Utils/Enums.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::hk {

/// The schedule knobs, each at its default unless set.
struct ScheduleSettings {
#define HK_SCHEDULE_OPTION(TYPE, FIELD, NAME, FLAG, DEFAULT, ...)              \
  TYPE FIELD = DEFAULT;
#include "HK/Dialect/HK/Utils/ScheduleOptions.def"

  bool operator==(const ScheduleSettings &other) const;
  bool operator!=(const ScheduleSettings &other) const {
    return !(*this == other);
  }
  /// The knobs that differ from their defaults, in pipeline-option syntax
  /// ("stages=2 direct-lds=true schedule=ping-pong"); empty when none does.
  std::string str() const;
};

llvm::hash_code hash_value(const ScheduleSettings &settings);

/// Which knobs were given (a pipeline's options that were set, even at
/// their defaults); the others are at their defaults.
struct ScheduleKnobsGiven {
#define HK_SCHEDULE_OPTION(TYPE, FIELD, ...) bool FIELD = false;
#include "HK/Dialect/HK/Utils/ScheduleOptions.def"
};

/// Fails with why the knobs cannot be applied together: one a schedule
/// contradicts or does not use (a knob given and ignored), whatever the
/// chip. `given` says which knobs were given.
llvm::Error checkScheduleSettings(const ScheduleSettings &settings,
                                  const ScheduleKnobsGiven &given);

/// The same with the knobs that differ from their defaults as the given
/// ones (#hk.schedule, a program's settings).
llvm::Error checkScheduleSettings(const ScheduleSettings &settings);

/// A knob's value as the pipeline options spell it.
std::string formatScheduleKnob(unsigned value);
std::string formatScheduleKnob(int value);
std::string formatScheduleKnob(bool value);
std::string formatScheduleKnob(Schedule value);
std::string formatScheduleKnob(WorkgroupOrder value);
std::string formatScheduleKnob(Fp8Format value);

/// Reads a knob's value as the pipeline options spell it; false if `text`
/// is not one.
bool parseScheduleKnob(llvm::StringRef text, unsigned &value);
bool parseScheduleKnob(llvm::StringRef text, int &value);
bool parseScheduleKnob(llvm::StringRef text, bool &value);
bool parseScheduleKnob(llvm::StringRef text, Schedule &value);
bool parseScheduleKnob(llvm::StringRef text, WorkgroupOrder &value);
bool parseScheduleKnob(llvm::StringRef text, Fp8Format &value);

} // namespace mlir::hk

#endif // HK_DIALECT_HK_UTILS_SCHEDULESETTINGS_H
