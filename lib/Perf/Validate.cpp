//===- Validate.cpp - what the timing model accepts ----------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the checks hk-perf makes before it runs a loop: a
// loop with instructions, each of a class the model times, and wave counts
// the chip allows: waves per SIMD within the chip's wave slots and within
// what the loop's registers leave (the occupancy rule of the register file),
// and workgroups that fill the CU exactly.
//
//===----------------------------------------------------------------------===//

#include "HK/Perf/Perf.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace mlir::hk::perf {

using isa::InstrClass;
using isa::RegKind;

/// Registers per lane one wave of `stream` allocates: the highest VGPR and
/// AGPR it names; on a unified file the AGPRs follow the VGPRs at a
/// multiple of 4 (CDNA4 ISA guide, unified VGPR file).
static unsigned getAllocatedVgprs(const isa::InstructionStream &stream,
                                  const ChipTiming &timing) {
  unsigned vgprs = 0, agprs = 0;
  auto note = [&](const isa::RegRange &range) {
    if (range.kind == RegKind::Vgpr)
      vgprs = std::max(vgprs, range.first + range.count);
    else if (range.kind == RegKind::Agpr)
      agprs = std::max(agprs, range.first + range.count);
  };
  for (const isa::Instruction &instr : stream.instructions) {
    for_each(instr.reads, note);
    for_each(instr.writes, note);
  }
  unsigned total = vgprs;
  if (agprs)
    total = timing.unifiedAgprs ? alignTo(vgprs, 4) + agprs
                                : std::max(vgprs, agprs);
  return std::max<unsigned>(alignTo(total, timing.vgprGranule),
                            timing.vgprGranule);
}

unsigned getMaxWavesPerSimd(const isa::InstructionStream &stream,
                            const ChipTiming &timing) {
  unsigned perWave = getAllocatedVgprs(stream, timing);
  return std::min(timing.maxWavesPerSimd, timing.vgprsPerSimdLane / perWave);
}

/// Where an instruction is, for a diagnostic: its line or its index.
static std::string locate(const isa::Instruction &instr) {
  std::string where = instr.line ? "line " + std::to_string(instr.line)
                                 : "instruction " + std::to_string(instr.index);
  return where + " ('" + instr.text + "')";
}

static Error checkInstructions(const isa::InstructionStream &stream,
                               const ChipTiming &timing) {
  if (stream.instructions.empty())
    return createStringError("the loop is empty: no instructions to time");
  for (const isa::Instruction &instr : stream.instructions) {
    if (instr.cls == InstrClass::Other)
      return createStringError(locate(instr) +
                               ": the model does not time this kind of "
                               "instruction (" +
                               instr.mnemonic + ")");
    if (instr.sched.latency < 0)
      return createStringError(locate(instr) +
                               ": the chip's sched model has no timing for " +
                               instr.mnemonic);
    if (instr.cls != InstrClass::Matrix || timing.matrixMacsPerCycle16Bit)
      continue;
    if (none_of(instr.sched.resources, [](const isa::ResourceUse &use) {
          return use.name == "HWXDL";
        }))
      return createStringError(locate(instr) +
                               ": no matrix pipe occupancy in the sched model "
                               "for " +
                               instr.mnemonic);
  }
  return Error::success();
}

static Error checkWaves(const isa::InstructionStream &stream,
                        const PerfConfig &config, const ChipTiming &timing) {
  StringRef chip = isa::getArchName(timing.arch);
  unsigned waveSize = isa::getWaveSize(timing.arch);
  unsigned maxWorkgroupWaves = 1024 / waveSize;
  if (config.wavesPerSimd == 0 || config.wavesPerSimd > timing.maxWavesPerSimd)
    return createStringError(
        "--waves-per-simd=" + std::to_string(config.wavesPerSimd) +
        " is impossible: " + chip + " runs 1 to " +
        std::to_string(timing.maxWavesPerSimd) + " waves per SIMD");
  unsigned allowed = getMaxWavesPerSimd(stream, timing);
  if (config.wavesPerSimd > allowed)
    return createStringError(
        "--waves-per-simd=" + std::to_string(config.wavesPerSimd) +
        " is impossible: the loop allocates " +
        std::to_string(getAllocatedVgprs(stream, timing)) +
        " vector registers per lane, so " + std::to_string(allowed) +
        " wave(s) of it fit the " + std::to_string(timing.vgprsPerSimdLane) +
        " registers of a SIMD");
  if (config.workgroupWaves == 0 || config.workgroupWaves > maxWorkgroupWaves)
    return createStringError(
        "--workgroup-waves=" + std::to_string(config.workgroupWaves) +
        " is impossible: a workgroup has 1 to " +
        std::to_string(maxWorkgroupWaves) + " waves of " +
        std::to_string(waveSize) + " lanes");
  unsigned residentWaves = timing.simds * config.wavesPerSimd;
  if (residentWaves % config.workgroupWaves)
    return createStringError(
        "--workgroup-waves=" + std::to_string(config.workgroupWaves) +
        " does not divide the " + std::to_string(residentWaves) +
        " waves resident at " + std::to_string(config.wavesPerSimd) +
        " per SIMD on " + std::to_string(timing.simds) + " SIMDs");
  return Error::success();
}

Error validate(const isa::InstructionStream &stream, const PerfConfig &config) {
  if (!stream.target)
    return createStringError("the instruction stream has no target");
  const ChipTiming &timing =
      config.timing ? *config.timing : getChipTiming(stream.target->getArch());
  if (config.iterations == 0)
    return createStringError("--iterations must be at least 1");
  if (config.warmupIterations >= config.iterations)
    return createStringError("the warm-up (" +
                             std::to_string(config.warmupIterations) +
                             " iterations) leaves no iteration to measure");
  if (Error error = checkInstructions(stream, timing))
    return error;
  return checkWaves(stream, config, timing);
}

} // namespace mlir::hk::perf
