//===- ScheduleSettings.cpp - the schedule knobs as values ----------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Utils/ScheduleSettings.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::hk;

bool ScheduleSettings::operator==(const ScheduleSettings &other) const {
#define HK_SCHEDULE_OPTION(TYPE, FIELD, ...)                                   \
  if (FIELD != other.FIELD)                                                    \
    return false;
#include "HK/Dialect/HK/Utils/ScheduleOptions.def"
  return true;
}

llvm::hash_code mlir::hk::hash_value(const ScheduleSettings &settings) {
  llvm::hash_code hash(0);
#define HK_SCHEDULE_OPTION(TYPE, FIELD, ...)                                   \
  hash = llvm::hash_combine(hash, settings.FIELD);
#include "HK/Dialect/HK/Utils/ScheduleOptions.def"
  return hash;
}

std::string ScheduleSettings::str() const {
  ScheduleSettings defaults;
  std::string text;
#define HK_SCHEDULE_OPTION(TYPE, FIELD, NAME, ...)                             \
  if (FIELD != defaults.FIELD)                                                 \
    text += (text.empty() ? "" : " ") + std::string(NAME) + "=" +              \
            formatScheduleKnob(FIELD);
#include "HK/Dialect/HK/Utils/ScheduleOptions.def"
  return text;
}

std::string mlir::hk::formatScheduleKnob(unsigned value) {
  return std::to_string(value);
}
std::string mlir::hk::formatScheduleKnob(int value) {
  return std::to_string(value);
}
std::string mlir::hk::formatScheduleKnob(bool value) {
  return value ? "true" : "false";
}
std::string mlir::hk::formatScheduleKnob(Schedule value) {
  return stringifySchedule(value).str();
}
std::string mlir::hk::formatScheduleKnob(WorkgroupOrder value) {
  return stringifyWorkgroupOrder(value).str();
}
std::string mlir::hk::formatScheduleKnob(Fp8Format value) {
  return stringifyFp8Format(value).str();
}

bool mlir::hk::parseScheduleKnob(StringRef text, unsigned &value) {
  return !text.getAsInteger(10, value);
}
bool mlir::hk::parseScheduleKnob(StringRef text, int &value) {
  return !text.getAsInteger(10, value);
}
bool mlir::hk::parseScheduleKnob(StringRef text, bool &value) {
  std::optional<bool> parsed = llvm::StringSwitch<std::optional<bool>>(text)
                                   .Case("true", true)
                                   .Case("false", false)
                                   .Default(std::nullopt);
  if (parsed)
    value = *parsed;
  return parsed.has_value();
}
template <typename EnumType>
static bool parseEnumKnob(StringRef text, EnumType &value) {
  std::optional<EnumType> parsed = symbolizeEnum<EnumType>(text);
  if (parsed)
    value = *parsed;
  return parsed.has_value();
}
bool mlir::hk::parseScheduleKnob(StringRef text, Schedule &value) {
  return parseEnumKnob(text, value);
}
bool mlir::hk::parseScheduleKnob(StringRef text, WorkgroupOrder &value) {
  return parseEnumKnob(text, value);
}
bool mlir::hk::parseScheduleKnob(StringRef text, Fp8Format &value) {
  return parseEnumKnob(text, value);
}

llvm::Error mlir::hk::checkScheduleSettings(const ScheduleSettings &s,
                                            const ScheduleKnobsGiven &given) {
  auto invalid = [](const llvm::Twine &why) {
    return llvm::createStringError(why);
  };
  std::string schedule = "schedule=" + formatScheduleKnob(s.schedule);
  bool pingPong =
      s.schedule == Schedule::pingPong || s.schedule == Schedule::pingPongHK;
  if (!pingPong && given.pingPongPriority)
    return invalid("ping-pong-priority is the priority of schedule=ping-pong's "
                   "MMA clusters; " +
                   schedule + " does not use it" +
                   (s.schedule == Schedule::none
                        ? " (mma-priority raises the MMA phase's)"
                        : ""));
  if (s.deferFillStores) {
    if (s.schedule != Schedule::none)
      return invalid(schedule +
                     " fills its tiles with direct-to-LDS loads: "
                     "defer-fill-stores (the stores of fills through "
                     "registers) does not apply");
    if (s.stages != 2)
      return invalid("defer-fill-stores defers the stores of stages=2's "
                     "prefetch: it needs stages=2, got stages=" +
                     std::to_string(s.stages));
    if (s.directLds)
      return invalid("defer-fill-stores keeps fills on the register path, "
                     "direct-lds=true makes them direct-to-LDS loads: give "
                     "one of them");
  }
  if (s.schedule == Schedule::none)
    return llvm::Error::success();
  // The schedules double-buffer their tiles and fill them with
  // direct-to-LDS loads themselves: stages and direct-lds may only agree.
  if (given.stages && s.stages != 2)
    return invalid(schedule + " double-buffers its tiles (stages=2): stages=" +
                   std::to_string(s.stages) + " contradicts it");
  if (given.directLds && !s.directLds)
    return invalid(schedule +
                   " fills its tiles with direct-to-LDS loads, which its "
                   "waits count: direct-lds=false contradicts it");
  if (s.schedule == Schedule::interleave) {
    if (s.unroll != 1)
      return invalid(schedule +
                     " keeps one K tile per trip: it needs unroll=1, got "
                     "unroll=" +
                     std::to_string(s.unroll));
    if (s.mmaPriority != 0)
      return invalid(schedule +
                     " raises no wave priority (one wave per SIMD has no "
                     "other to yield to): it needs mma-priority=0, got " +
                     std::to_string(s.mmaPriority));
    return llvm::Error::success();
  }
  if (s.unroll != 1)
    return invalid(schedule +
                   "'s loop body already covers two K tiles with constant "
                   "slots: it needs unroll=1, got unroll=" +
                   std::to_string(s.unroll));
  if (s.mmaPriority != 0)
    return invalid(schedule +
                   " raises its MMA clusters' priority to ping-pong-priority "
                   "(default 1); mma-priority is hk-raise-mma-priority's, for "
                   "schedule=none: got mma-priority=" +
                   std::to_string(s.mmaPriority));
  return llvm::Error::success();
}

llvm::Error mlir::hk::checkScheduleSettings(const ScheduleSettings &s) {
  ScheduleSettings defaults;
  ScheduleKnobsGiven given;
#define HK_SCHEDULE_OPTION(TYPE, FIELD, ...)                                   \
  given.FIELD = s.FIELD != defaults.FIELD;
#include "HK/Dialect/HK/Utils/ScheduleOptions.def"
  return checkScheduleSettings(s, given);
}
