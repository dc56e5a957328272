//===- Describe.cpp - the facts of one instruction -----------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements IsaTarget::describe: an instruction's class,
// registers, counters, waits and timing, from LLVM's description of the
// opcode (MCInstrDesc and its TSFlags, MCRegisterInfo, the chip's
// MCSchedModel). Only the control instructions LLVM gives no flag for
// (waits, barriers, s_setprio, s_nop, s_sleep) are told apart by mnemonic.
//
//===----------------------------------------------------------------------===//

#include "SIInstrFlags.h"

#include "HK/Isa/Isa.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSchedule.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace mlir::hk::isa {

namespace flags = si_flags;

StringRef getClassName(InstrClass cls) {
  switch (cls) {
  case InstrClass::Matrix:
    return "matrix";
  case InstrClass::Valu:
    return "valu";
  case InstrClass::Transcendental:
    return "trans";
  case InstrClass::Salu:
    return "salu";
  case InstrClass::Lds:
    return "lds";
  case InstrClass::VmemLoad:
    return "vmem-load";
  case InstrClass::VmemStore:
    return "vmem-store";
  case InstrClass::DirectToLdsLoad:
    return "direct-to-lds";
  case InstrClass::Smem:
    return "smem";
  case InstrClass::Branch:
    return "branch";
  case InstrClass::Wait:
    return "wait";
  case InstrClass::Barrier:
    return "barrier";
  case InstrClass::SetPrio:
    return "setprio";
  case InstrClass::Nop:
    return "nop";
  case InstrClass::Sleep:
    return "sleep";
  case InstrClass::Other:
    return "other";
  }
  return "other";
}

StringRef getRegKindName(RegKind kind) {
  static constexpr StringLiteral names[] = {"vgpr", "agpr", "sgpr", "vcc",
                                            "exec", "scc",  "m0",   "other"};
  return names[unsigned(kind)];
}

unsigned getCounterLimit(Arch arch, Counter counter) {
  // The widths of the wait fields decoded below (AMDGPUBaseInfo.cpp,
  // get*BitWidth): gfx9 vmcnt 6 bits, lgkmcnt 4, expcnt 3; gfx12 loadcnt,
  // storecnt, dscnt and samplecnt 6, kmcnt 5, expcnt and bvhcnt 3.
  unsigned bits = 6;
  switch (counter) {
  case Counter::Lgkm:
    bits = arch == Arch::gfx950 ? 4 : 6;
    break;
  case Counter::Exp:
  case Counter::Bvh:
    bits = 3;
    break;
  case Counter::Km:
    bits = 5;
    break;
  default:
    break;
  }
  return (1u << bits) - 1;
}

StringRef getCounterName(Counter counter) {
  static constexpr StringLiteral names[] = {"vmcnt",   "lgkmcnt",   "expcnt",
                                            "loadcnt", "storecnt",  "dscnt",
                                            "kmcnt",   "samplecnt", "bvhcnt"};
  return names[unsigned(counter)];
}

/// Whether a vector memory instruction counts as a store: stores, and
/// atomics that return nothing (SIInsertWaitcnts.cpp, getVmemWaitEventType:
/// such atomics are VMEM_WRITE_ACCESS, storecnt on gfx12).
static bool isStoreLike(const MCInstrDesc &desc) {
  return desc.mayStore() &&
         (!desc.mayLoad() || (desc.TSFlags & flags::kIsAtomicNoRet));
}

/// A buffer or global load that writes LDS instead of VGPRs (the `lds`
/// modifier): it loads and stores, writes no register operand, is no
/// atomic, and reads M0, which holds the LDS address.
static bool isDirectToLds(const MCInstrDesc &desc, const MCRegisterInfo &mri) {
  if (!(desc.TSFlags & (flags::kMubuf | flags::kFlat)))
    return false;
  if (!desc.mayLoad() || !desc.mayStore() ||
      (desc.TSFlags & flags::kIsAtomicNoRet) || desc.getNumDefs() != 0)
    return false;
  return llvm::any_of(desc.implicit_uses(), [&](MCPhysReg reg) {
    return StringRef(mri.getName(reg)).starts_with("M0");
  });
}

static std::string getMnemonic(StringRef text) {
  StringRef word = text.take_until([](char c) { return llvm::isSpace(c); });
  for (StringRef suffix : {"_e32", "_e64_dpp", "_e64", "_sdwa", "_dpp"})
    if (word.consume_back(suffix))
      break;
  return word.str();
}

static InstrClass classify(const MCInstrDesc &desc, StringRef mnemonic,
                           const MCRegisterInfo &mri) {
  // Program control LLVM has no flag for: SOPP instructions by mnemonic.
  if (mnemonic.starts_with("s_wait"))
    return InstrClass::Wait;
  if (mnemonic == "s_barrier" || mnemonic.starts_with("s_barrier_"))
    return InstrClass::Barrier;
  if (mnemonic == "s_setprio")
    return InstrClass::SetPrio;
  if (mnemonic == "s_nop")
    return InstrClass::Nop;
  if (mnemonic == "s_sleep")
    return InstrClass::Sleep;
  if (desc.isBranch() || desc.isIndirectBranch())
    return InstrClass::Branch;

  uint64_t tsFlags = desc.TSFlags;
  if (tsFlags & flags::kDs)
    return InstrClass::Lds;
  if (tsFlags & flags::kSmrd)
    return InstrClass::Smem;
  if (tsFlags & flags::kVectorMemory) {
    if (isDirectToLds(desc, mri))
      return InstrClass::DirectToLdsLoad;
    return isStoreLike(desc) ? InstrClass::VmemStore : InstrClass::VmemLoad;
  }
  // IsMAI also marks the AGPR moves (v_accvgpr_read/write/mov), which run
  // on the VALU (SIInstrInfo::isMFMA leaves them out likewise).
  if ((tsFlags & flags::kIsMai) && !mnemonic.starts_with("v_accvgpr"))
    return InstrClass::Matrix;
  if (tsFlags & (flags::kIsWmma | flags::kIsSwmmac))
    return InstrClass::Matrix;
  if (tsFlags & flags::kTrans)
    return InstrClass::Transcendental;
  if (tsFlags & flags::kValu)
    return InstrClass::Valu;
  if (tsFlags & flags::kSalu)
    return InstrClass::Salu;
  return InstrClass::Other;
}

/// The counters an instruction increments, from its TSFlags counter bits
/// the way SIInsertWaitcnts.cpp (updateEventWaitcntAfter) turns them into
/// events. gfx9: VM_CNT is vmcnt (loads, stores and direct-to-LDS loads),
/// LGKM_CNT lgkmcnt (LDS, SMEM, messages, FLAT), EXP_CNT expcnt. gfx12
/// splits vmcnt into loadcnt/storecnt/samplecnt/bvhcnt and lgkmcnt into
/// dscnt (LDS, FLAT) and kmcnt (SMEM, messages) (RDNA4 ISA guide, "Data
/// Dependency Resolution").
static CounterSet getCounters(const MCInstrDesc &desc, StringRef mnemonic,
                              Arch arch, const MCRegisterInfo &mri) {
  uint64_t tsFlags = desc.TSFlags;
  CounterSet set;
  // EXP_CNT on vector memory marks the store-data lock of SI/CI
  // (vmemWriteNeedsExpWaitcnt), which neither chip has; exports and
  // parameter loads do count.
  if ((tsFlags & flags::kExpCnt) && !(tsFlags & flags::kVectorMemory))
    set.insert(Counter::Exp);
  if (arch == Arch::gfx950) {
    if (tsFlags & flags::kVmCnt)
      set.insert(Counter::Vm);
    // Direct-to-LDS loads complete through vmcnt alone.
    if ((tsFlags & flags::kLgkmCnt) && !isDirectToLds(desc, mri))
      set.insert(Counter::Lgkm);
    return set;
  }
  if (tsFlags & flags::kVmCnt) {
    if (tsFlags & flags::kVsample)
      set.insert(Counter::Sample);
    else if (mnemonic.starts_with("image_bvh"))
      set.insert(Counter::Bvh);
    else
      set.insert(isStoreLike(desc) ? Counter::Store : Counter::Load);
  }
  if (tsFlags & flags::kLgkmCnt)
    set.insert((tsFlags & (flags::kDs | flags::kFlat)) ? Counter::Ds
                                                       : Counter::Km);
  return set;
}

/// The first immediate operand, the simm16 of a wait.
static std::optional<int64_t> getImmediate(const MCInst &inst) {
  for (const MCOperand &op : inst)
    if (op.isImm())
      return op.getImm();
  return std::nullopt;
}

/// A counter field of `simm16`, or nullopt when it holds its maximum (the
/// encoding of "do not wait on this counter").
static std::optional<unsigned> field(uint64_t simm16, unsigned shift,
                                     unsigned width) {
  unsigned mask = (1u << width) - 1;
  unsigned value = (simm16 >> shift) & mask;
  if (value == mask)
    return std::nullopt;
  return value;
}

/// The gfx9 s_waitcnt simm16 (CDNA3/CDNA4 ISA guides, S_WAITCNT; LLVM's
/// AMDGPUBaseInfo.cpp decodeWaitcnt for major version 9): vmcnt is bits
/// 3:0 with its high bits in 15:14, expcnt bits 6:4, lgkmcnt bits 11:8.
static WaitCounts decodeGfx9Waitcnt(uint64_t simm16) {
  WaitCounts wait;
  unsigned vm = (simm16 & 0xf) | (((simm16 >> 14) & 0x3) << 4);
  if (vm != 0x3f)
    wait.set(Counter::Vm, vm);
  if (auto exp = field(simm16, 4, 3))
    wait.set(Counter::Exp, *exp);
  if (auto lgkm = field(simm16, 8, 4))
    wait.set(Counter::Lgkm, *lgkm);
  return wait;
}

/// The gfx12 waits (RDNA4 ISA guide, S_WAIT_*; AMDGPUBaseInfo.cpp
/// decodeLoadcntDscnt / decodeStorecntDscnt): a single-counter wait holds
/// the count itself; the combined forms hold loadcnt or storecnt in bits
/// 13:8 and dscnt in bits 5:0.
static WaitCounts decodeGfx12Wait(StringRef mnemonic, uint64_t simm16) {
  WaitCounts wait;
  if (mnemonic == "s_wait_loadcnt_dscnt" ||
      mnemonic == "s_wait_storecnt_dscnt") {
    Counter first =
        mnemonic == "s_wait_loadcnt_dscnt" ? Counter::Load : Counter::Store;
    if (auto count = field(simm16, 8, 6))
      wait.set(first, *count);
    if (auto ds = field(simm16, 0, 6))
      wait.set(Counter::Ds, *ds);
    return wait;
  }
  if (mnemonic == "s_waitcnt") {
    // gfx12 still assembles s_waitcnt in the gfx11 layout
    // (AMDGPUBaseInfo.cpp, major version 11+): vmcnt bits 15:10, lgkmcnt
    // bits 9:4, expcnt bits 2:0 (checked against llvm-mc's encodings).
    // Its vmcnt is loadcnt, its lgkmcnt both dscnt and kmcnt.
    if (auto vm = field(simm16, 10, 6))
      wait.set(Counter::Load, *vm);
    if (auto lgkm = field(simm16, 4, 6)) {
      wait.set(Counter::Ds, *lgkm);
      wait.set(Counter::Km, *lgkm);
    }
    if (auto exp = field(simm16, 0, 3))
      wait.set(Counter::Exp, *exp);
    return wait;
  }
  std::optional<Counter> single = StringSwitch<std::optional<Counter>>(mnemonic)
                                      .Case("s_wait_loadcnt", Counter::Load)
                                      .Case("s_wait_storecnt", Counter::Store)
                                      .Case("s_wait_dscnt", Counter::Ds)
                                      .Case("s_wait_kmcnt", Counter::Km)
                                      .Case("s_wait_expcnt", Counter::Exp)
                                      .Case("s_wait_samplecnt", Counter::Sample)
                                      .Case("s_wait_bvhcnt", Counter::Bvh)
                                      .Default(std::nullopt);
  if (single)
    wait.set(*single, unsigned(simm16));
  else
    wait.dependencyWait = true; // s_wait_alu, s_wait_event, ...
  return wait;
}

static WaitCounts decodeWait(const MCInst &inst, StringRef mnemonic,
                             Arch arch) {
  uint64_t simm16 = getImmediate(inst).value_or(0) & 0xffff;
  if (arch == Arch::gfx950) {
    if (mnemonic == "s_waitcnt")
      return decodeGfx9Waitcnt(simm16);
    WaitCounts wait;
    wait.dependencyWait = true;
    return wait;
  }
  return decodeGfx12Wait(mnemonic, simm16);
}

/// The sched class after resolving variants (as llvm-mca does), its
/// latency and the resources it holds.
static SchedInfo getSchedInfo(const MCInst &inst, const MCInstrDesc &desc,
                              const MCSubtargetInfo &sti,
                              const MCInstrInfo &mii) {
  SchedInfo info;
  const MCSchedModel &model = sti.getSchedModel();
  if (!model.hasInstrSchedModel())
    return info;
  unsigned schedClass = desc.getSchedClass();
  const MCSchedClassDesc *classDesc = model.getSchedClassDesc(schedClass);
  for (int depth = 0; classDesc && classDesc->isVariant() && depth < 8;
       ++depth) {
    schedClass = sti.resolveVariantSchedClass(schedClass, &inst, &mii,
                                              model.getProcessorID());
    classDesc = model.getSchedClassDesc(schedClass);
  }
  info.schedClass = schedClass;
  if (!classDesc || !classDesc->isValid() || classDesc->isVariant())
    return info;
  info.latency = MCSchedModel::computeInstrLatency(sti, *classDesc);
  for (const MCWriteProcResEntry *entry = sti.getWriteProcResBegin(classDesc),
                                 *end = sti.getWriteProcResEnd(classDesc);
       entry != end; ++entry) {
    ResourceUse use;
    use.index = entry->ProcResourceIdx;
    use.name = model.getProcResource(entry->ProcResourceIdx)->Name;
    use.acquireAtCycle = entry->AcquireAtCycle;
    use.releaseAtCycle = entry->ReleaseAtCycle;
    info.resources.push_back(use);
  }
  return info;
}

void IsaTarget::describe(Instruction &instr) const {
  const MCInst &inst = instr.inst;
  const MCInstrDesc &desc = mii->get(inst.getOpcode());
  instr.opcodeName = mii->getName(inst.getOpcode());

  instr.text.clear();
  raw_string_ostream os(instr.text);
  printer->printInst(&inst, instr.address, "", *sti, os);
  instr.text = StringRef(instr.text).trim().str();
  instr.mnemonic = getMnemonic(instr.text);

  instr.cls = classify(desc, instr.mnemonic, *mri);

  // Explicit operands: the first getNumDefs() are written, the rest read;
  // then the opcode's implicit uses and defs (EXEC, M0, VCC, SCC, MODE).
  instr.reads.clear();
  instr.writes.clear();
  for (unsigned i = 0, e = inst.getNumOperands(); i < e; ++i) {
    const MCOperand &op = inst.getOperand(i);
    if (!op.isReg() || !op.getReg())
      continue;
    RegRange range = describeRegister(op.getReg());
    if (i < desc.getNumDefs())
      instr.writes.push_back(range);
    else
      instr.reads.push_back(range);
  }
  for (MCPhysReg reg : desc.implicit_uses())
    instr.reads.push_back(describeRegister(reg));
  for (MCPhysReg reg : desc.implicit_defs())
    instr.writes.push_back(describeRegister(reg));
  // Opcodes shared by both wave sizes name all of VCC and EXEC; a wave32
  // instruction uses only their low halves (vcc_lo, exec_lo).
  if (getWaveSize(arch) == 32) {
    auto lowHalf = [](RegRange &range) {
      if (range.kind == RegKind::Vcc || range.kind == RegKind::Exec)
        range.count = 1;
    };
    llvm::for_each(instr.reads, lowHalf);
    llvm::for_each(instr.writes, lowHalf);
  }

  instr.counters = getCounters(desc, instr.mnemonic, arch, *mri);
  instr.wait.reset();
  if (instr.cls == InstrClass::Wait)
    instr.wait = decodeWait(inst, instr.mnemonic, arch);
  instr.sched = getSchedInfo(inst, desc, *sti, *mii);
}

} // namespace mlir::hk::isa
