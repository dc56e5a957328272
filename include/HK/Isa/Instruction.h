//===- Instruction.h - one decoded AMDGPU instruction -----------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The records of the ISA layer: one `Instruction` per machine instruction,
// read from assembly text or from a code object, with the facts a timing
// model or an executor needs (class, registers read and written, counters
// incremented, counter waits, latency and pipe occupancy). Every fact comes
// from LLVM's own description of the chip (MCInstrDesc, MCRegisterInfo,
// MCSchedModel, TSFlags); see lib/Isa/Describe.cpp.
//
// This layer depends on LLVM only, not on MLIR or the rest of hk, so it
// names its two chips itself (`Arch`).
//
//===----------------------------------------------------------------------===//

#ifndef HK_ISA_INSTRUCTION_H
#define HK_ISA_INSTRUCTION_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCRegister.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace mlir::hk::isa {

/// The chips the ISA layer decodes: CDNA4 (wave64) and RDNA4 (wave32).
enum class Arch { gfx950, gfx1201 };

/// The LLVM processor name: "gfx950", "gfx1201".
llvm::StringRef getArchName(Arch arch);
/// The chip named `name`, if it is one of the two.
std::optional<Arch> parseArch(llvm::StringRef name);
/// Lanes of a wave: 64 on gfx950, 32 on gfx1201.
unsigned getWaveSize(Arch arch);

/// What an instruction does, as a timing model groups it.
enum class InstrClass {
  Matrix,          // MFMA (CDNA) or WMMA/SWMMAC (RDNA)
  Valu,            // vector ALU, including v_accvgpr_* moves and dots
  Transcendental,  // v_exp, v_log, v_rcp, v_rsq, v_sqrt, v_sin, v_cos, ...
  Salu,            // scalar ALU
  Lds,             // ds_*
  VmemLoad,        // buffer/global/flat/scratch/image loads and atomics
  VmemStore,       // vector memory stores and atomics without return
  DirectToLdsLoad, // buffer/global load writing LDS (`lds` modifier)
  Smem,            // s_load_*, s_buffer_load_*
  Branch,          // s_branch, s_cbranch_*, s_setpc and friends
  Wait,            // s_waitcnt, gfx12 s_wait_*
  Barrier,         // s_barrier, gfx12 s_barrier_signal/s_barrier_wait
  SetPrio,         // s_setprio
  Nop,             // s_nop
  Sleep,           // s_sleep
  Other,
};

/// Lower-case name of `cls`, e.g. "matrix", "vmem-load".
llvm::StringRef getClassName(InstrClass cls);

/// What kind of register file a register range lives in.
enum class RegKind { Vgpr, Agpr, Sgpr, Vcc, Exec, Scc, M0, Other };

llvm::StringRef getRegKindName(RegKind kind);

/// A range of 32-bit registers of one kind: v[12:15] is {Vgpr, 12, 4},
/// s[4:5] is {Sgpr, 4, 2}, vcc in wave64 is {Vcc, 0, 2}. SCC counts as one.
/// Special registers other than VCC/EXEC/SCC/M0 are `Other`, told apart by
/// `reg` (MCRegisterInfo::getName).
struct RegRange {
  RegKind kind = RegKind::Other;
  unsigned first = 0;
  unsigned count = 0;
  llvm::MCRegister reg;

  bool operator==(const RegRange &other) const {
    return kind == other.kind && first == other.first && count == other.count;
  }
};

/// The hardware counters an instruction increments and a wait names. gfx950
/// has the first three, gfx1201 expcnt and the rest.
enum class Counter {
  Vm,
  Lgkm,
  Exp,
  Load,
  Store,
  Ds,
  Km,
  Sample,
  Bvh,
};
constexpr unsigned kNumCounters = 9;

/// The assembler's name of `counter`: "vmcnt", "loadcnt", ...
llvm::StringRef getCounterName(Counter counter);

/// A set of counters.
struct CounterSet {
  uint16_t bits = 0;
  bool contains(Counter c) const { return bits & (1u << unsigned(c)); }
  void insert(Counter c) { bits |= 1u << unsigned(c); }
  bool empty() const { return bits == 0; }
};

/// What a wait instruction waits for: per counter, the value it must drop to
/// (std::nullopt: not waited on). A gfx12 `s_wait_alu` waits for none of
/// the counters (it names ALU dependencies) and has `dependencyWait` set.
struct WaitCounts {
  std::array<std::optional<unsigned>, kNumCounters> counts;
  bool dependencyWait = false;

  std::optional<unsigned> get(Counter c) const { return counts[unsigned(c)]; }
  void set(Counter c, unsigned value) { counts[unsigned(c)] = value; }
};

/// One processor resource an instruction occupies in the sched model.
struct ResourceUse {
  /// The resource's name in the sched model, e.g. "HWXDL", "HWVALU".
  llvm::StringRef name;
  unsigned index = 0;
  /// Cycles after issue the resource is taken and released.
  unsigned acquireAtCycle = 0;
  unsigned releaseAtCycle = 0;
};

/// Timing of an instruction in the chip's MCSchedModel.
struct SchedInfo {
  unsigned schedClass = 0;
  /// MCSchedModel::computeInstrLatency; -1 if the class is invalid.
  int latency = -1;
  llvm::SmallVector<ResourceUse, 2> resources;
};

/// One instruction of a stream.
struct Instruction {
  llvm::MCInst inst;
  /// Position in the stream.
  unsigned index = 0;
  /// Byte offset: in the section for code objects, from the first
  /// instruction for assembly (by the encoder's sizes).
  uint64_t address = 0;
  /// Encoded size in bytes.
  unsigned size = 0;
  /// The first 32 bits of the encoding (little-endian), for fields the
  /// disassembler does not keep (gfx12's op_sel of 16-bit VOP3 forms
  /// without true16).
  uint32_t firstWord = 0;
  /// Line of the assembly text (1-based), 0 for code objects.
  unsigned line = 0;
  /// As MCInstPrinter prints it, without leading whitespace.
  std::string text;
  /// The ISA mnemonic, e.g. "v_mfma_f32_16x16x32_bf16".
  std::string mnemonic;
  /// LLVM's opcode name, e.g. "V_MFMA_F32_16X16X32_BF16_gfx950".
  llvm::StringRef opcodeName;

  InstrClass cls = InstrClass::Other;
  llvm::SmallVector<RegRange, 4> reads;
  llvm::SmallVector<RegRange, 2> writes;
  /// Counters this instruction increments when it issues.
  CounterSet counters;
  /// Set for `Wait` instructions.
  std::optional<WaitCounts> wait;
  /// For branches with a known target: the index of the target instruction
  /// in the stream (labels in assembly, addresses in code objects).
  std::optional<unsigned> branchTarget;
  SchedInfo sched;
};

} // namespace mlir::hk::isa

#endif // HK_ISA_INSTRUCTION_H
