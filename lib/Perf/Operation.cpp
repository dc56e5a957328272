//===- Operation.cpp - an instruction as the timing model sees it --------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements buildOperations: from each decoded instruction (the
// ISA layer's class, registers, counters and sched info) the few numbers
// the model's inner loop reads. The only facts read from mnemonics are the
// access width of stores and direct-to-LDS loads (which write no register
// that would give it) and a WMMA's shape on gfx1201, whose sched model
// has no matrix pipe.
//
//===----------------------------------------------------------------------===//

#include "Operation.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCInst.h"

using namespace llvm;

namespace mlir::hk::perf {

using isa::InstrClass;
using isa::RegKind;

static Category getCategory(InstrClass cls) {
  switch (cls) {
  case InstrClass::Matrix:
  case InstrClass::Valu:
  case InstrClass::Transcendental:
    return Category::Valu;
  case InstrClass::Salu:
  case InstrClass::Smem:
    return Category::Salu;
  case InstrClass::VmemLoad:
  case InstrClass::VmemStore:
  case InstrClass::DirectToLdsLoad:
    return Category::Vmem;
  case InstrClass::Lds:
    return Category::Lds;
  case InstrClass::Branch:
    return Category::Branch;
  default:
    return Category::Internal;
  }
}

/// The scoreboard slots of `range`; nothing for registers no dependency of
/// a loop goes through (MODE, trap registers, ...).
static std::optional<RegSpan> getSpan(const isa::RegRange &range) {
  unsigned base, limit;
  switch (range.kind) {
  case RegKind::Vgpr:
    base = kVgprBase, limit = 512;
    break;
  case RegKind::Agpr:
    base = kAgprBase, limit = 256;
    break;
  case RegKind::Sgpr:
    base = kSgprBase, limit = 128;
    break;
  case RegKind::Vcc:
    base = kVccBase, limit = 2;
    break;
  case RegKind::Exec:
    base = kExecBase, limit = 2;
    break;
  case RegKind::Scc:
    base = kSccSlot, limit = 1;
    break;
  case RegKind::M0:
    base = kM0Slot, limit = 1;
    break;
  default:
    return std::nullopt;
  }
  if (range.first >= limit || range.count == 0)
    return std::nullopt;
  unsigned count = std::min(range.count, limit - range.first);
  return RegSpan{uint16_t(base + range.first), uint16_t(count)};
}

/// Bytes per lane of a memory access by its mnemonic's width: for stores
/// and direct-to-LDS loads, whose data width no written register gives.
static unsigned getBytesPerLane(StringRef mnemonic) {
  struct Width {
    StringLiteral token;
    unsigned bytes;
  };
  // Longest tokens first: "dwordx4" before "dword", "b128" before "b16".
  static constexpr Width widths[] = {{"write2st64_b64", 16},
                                     {"write2_b64", 16},
                                     {"2addr_b64", 16},
                                     {"write2st64_b32", 8},
                                     {"write2_b32", 8},
                                     {"2addr_b32", 8},
                                     {"dwordx4", 16},
                                     {"b128", 16},
                                     {"dwordx3", 12},
                                     {"b96", 12},
                                     {"dwordx2", 8},
                                     {"b64", 8},
                                     {"dword", 4},
                                     {"b32", 4},
                                     {"short", 2},
                                     {"b16", 2},
                                     {"u16", 2},
                                     {"i16", 2},
                                     {"byte", 1},
                                     {"b8", 1},
                                     {"u8", 1},
                                     {"i8", 1}};
  for (const Width &width : widths)
    if (mnemonic.contains(width.token))
      return width.bytes;
  return 4;
}

static unsigned getWrittenVectorDwords(const isa::Instruction &instr) {
  unsigned dwords = 0;
  for (const isa::RegRange &range : instr.writes)
    if (range.kind == RegKind::Vgpr || range.kind == RegKind::Agpr)
      dwords += range.count;
  return dwords;
}

/// Matrix pipe cycles of a WMMA from its shape (v_wmma_f32_16x16x16_bf16:
/// 4096 MACs) at `macsPerCycle` for 16-bit inputs, twice that for 8-bit
/// and four times for 4-bit ones.
static unsigned getWmmaPasses(StringRef mnemonic, unsigned macsPerCycle) {
  SmallVector<StringRef, 6> parts;
  mnemonic.split(parts, '_');
  uint64_t macs = 16 * 16 * 16;
  for (StringRef part : parts) {
    SmallVector<StringRef, 3> dims;
    part.split(dims, 'x');
    unsigned m, n, k;
    if (dims.size() == 3 && !dims[0].getAsInteger(10, m) &&
        !dims[1].getAsInteger(10, n) && !dims[2].getAsInteger(10, k))
      macs = uint64_t(m) * n * k;
  }
  StringRef input = parts.back();
  unsigned rate = 1;
  if (input.contains("8"))
    rate = 2;
  else if (input.contains("4"))
    rate = 4;
  return std::max<uint64_t>(1, divideCeil(macs, uint64_t(macsPerCycle) * rate));
}

static unsigned getResourceRelease(const isa::SchedInfo &sched,
                                   StringRef name) {
  for (const isa::ResourceUse &use : sched.resources)
    if (use.name == name)
      return use.releaseAtCycle;
  return 0;
}

static int64_t getImmediate(const MCInst &inst) {
  for (const MCOperand &op : inst)
    if (op.isImm())
      return op.getImm();
  return 0;
}

static BarrierRole getBarrierRole(StringRef mnemonic) {
  if (mnemonic == "s_barrier")
    return BarrierRole::SignalAndWait;
  if (mnemonic.starts_with("s_barrier_signal"))
    return BarrierRole::Signal;
  if (mnemonic == "s_barrier_wait")
    return BarrierRole::Wait;
  return BarrierRole::None;
}

static Operation buildOperation(const isa::Instruction &instr,
                                const ChipTiming &timing) {
  Operation op;
  op.cls = instr.cls;
  op.category = getCategory(instr.cls);
  op.latency = std::max(instr.sched.latency, 1);
  op.latencyToSrcAB = op.latencyToOther = op.latency;
  for (const isa::RegRange &range : instr.reads)
    if (std::optional<RegSpan> span = getSpan(range))
      op.reads.push_back(*span);
  for (const isa::RegRange &range : instr.writes)
    if (std::optional<RegSpan> span = getSpan(range))
      op.writes.push_back(*span);
  op.counters = instr.counters;
  op.wait = instr.wait;
  unsigned lanes = isa::getWaveSize(timing.arch);
  switch (instr.cls) {
  case InstrClass::Matrix:
    op.matrixPasses =
        timing.matrixMacsPerCycle16Bit
            ? getWmmaPasses(instr.mnemonic, timing.matrixMacsPerCycle16Bit)
            : std::max(1u, getResourceRelease(instr.sched, "HWXDL"));
    op.latency = std::max(op.latency, op.matrixPasses);
    op.latencyToSrcAB = op.latency + timing.matrixToMatrixSrcAB;
    op.latencyToOther = op.latency + timing.matrixToOther;
    // Operands in MCInst order: vdst, src A, src B, src C, modifiers.
    if (op.reads.size() >= 3)
      op.srcCRead = 2;
    op.valuCycles = timing.matrixHoldsValu ? op.matrixPasses : 0;
    break;
  case InstrClass::Valu:
  case InstrClass::Transcendental:
    op.valuCycles = std::max(1u, getResourceRelease(instr.sched, "HWVALU"));
    break;
  case InstrClass::Lds:
  case InstrClass::VmemLoad:
  case InstrClass::VmemStore:
  case InstrClass::DirectToLdsLoad: {
    unsigned dwords = getWrittenVectorDwords(instr);
    unsigned perLane =
        (instr.cls == InstrClass::VmemLoad || instr.cls == InstrClass::Lds) &&
                dwords
            ? dwords * 4
            : getBytesPerLane(instr.mnemonic);
    op.bytes = perLane * lanes;
    break;
  }
  case InstrClass::Smem:
    op.outOfOrder = true;
    break;
  case InstrClass::Nop:
    // s_nop N inserts N + 1 wait states, its own issue slot included.
    op.stallCycles = unsigned(getImmediate(instr.inst) & 0xf) + 1;
    break;
  case InstrClass::Sleep:
    // s_sleep N: about 64 * N clocks.
    op.stallCycles =
        std::max<unsigned>(1, unsigned(getImmediate(instr.inst) & 0x7f) * 64 /
                                  timing.clocksPerCycle);
    break;
  case InstrClass::SetPrio:
    op.priority = int(getImmediate(instr.inst) & 0x3);
    break;
  case InstrClass::Barrier:
    op.barrier = getBarrierRole(instr.mnemonic);
    break;
  default:
    break;
  }
  return op;
}

std::vector<Operation> buildOperations(const isa::InstructionStream &stream,
                                       const ChipTiming &timing) {
  std::vector<Operation> ops;
  ops.reserve(stream.instructions.size());
  for (const isa::Instruction &instr : stream.instructions)
    ops.push_back(buildOperation(instr, timing));
  return ops;
}

} // namespace mlir::hk::perf
