//===- IsaTest.cpp - tests of the ISA layer
//--------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Checks what the ISA layer derives from LLVM for hand-written snippets of
// both chips (classes, registers, counters, waits, timing), the TSFlags bits
// it mirrors, its errors, and code objects assembled by llvm-mc at build
// time.
//
//===----------------------------------------------------------------------===//

#include "HK/Isa/Isa.h"
#include "SIInstrFlags.h"

#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCSchedule.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

using namespace mlir::hk::isa;
using llvm::StringRef;

namespace {

InstructionStream parseOk(StringRef text, Arch arch) {
  llvm::Expected<InstructionStream> stream = parseAssembly(text, arch);
  if (!stream) {
    ADD_FAILURE() << llvm::toString(stream.takeError());
    return {};
  }
  return std::move(*stream);
}

/// The first instruction whose printed text starts with `prefix`.
const Instruction &findInstr(const InstructionStream &stream,
                             StringRef prefix) {
  for (const Instruction &instr : stream.instructions)
    if (StringRef(instr.text).starts_with(prefix))
      return instr;
  ADD_FAILURE() << "no instruction starting with " << prefix.str();
  static Instruction none;
  return none;
}

bool hasRange(llvm::ArrayRef<RegRange> ranges, RegKind kind, unsigned first,
              unsigned count) {
  return llvm::is_contained(ranges, RegRange{kind, first, count, {}});
}

constexpr StringRef kGfx950Snippet = R"(; comment
  .text
kernel:
  v_mfma_f32_16x16x32_bf16 v[12:15], v[160:163], v[144:147], v[12:15]
  v_mfma_f32_32x32x16_bf16 a[0:15], v[0:3], v[4:7], a[0:15]
  v_accvgpr_read_b32 v0, a3
  v_add_f32 v0, v1, v2
  v_exp_f32 v0, v1
  v_cmp_eq_u32 vcc, v0, v1
.LBB0_1:
  s_add_u32 s0, s1, s2
  s_lshl_b64 s[4:5], s[6:7], 2
  ds_read_b128 v[0:3], v4 offset:16
  s_mov_b32 m0, s36
  buffer_load_dwordx4 v135, s[8:11], s34 offen lds
  buffer_load_dword v1, v0, s[8:11], s34 offen
  global_load_dwordx4 v[0:3], v[4:5], off
  global_store_dwordx4 v[4:5], v[0:3], off
  global_atomic_add v[4:5], v0, off
  flat_load_dword v0, v[2:3]
  s_load_dwordx4 s[0:3], s[4:5], 0x10
  s_waitcnt vmcnt(3) lgkmcnt(0)
  s_waitcnt vmcnt(40) expcnt(2)
  s_barrier
  s_setprio 1
  s_nop 3
  s_sleep 1
  s_cbranch_scc1 .LBB0_1
  s_endpgm
)";

constexpr StringRef kGfx1201Snippet = R"(
  v_wmma_f32_16x16x16_bf16 v[0:7], v[8:11], v[12:15], v[0:7]
  v_add_f32 v0, v1, v2
  v_exp_f32 v0, v1
  v_cmp_eq_u32 vcc_lo, v0, v1
  ds_load_b128 v[0:3], v4
  global_load_b128 v[0:3], v[4:5], off
  global_store_b128 v[4:5], v[0:3], off
  flat_load_b32 v0, v[2:3]
  s_load_b128 s[0:3], s[4:5], 0x10
  s_wait_loadcnt 0x2
  s_wait_loadcnt_dscnt 0x203
  s_wait_storecnt_dscnt 0x3f02
  s_wait_alu 0xfffd
  s_barrier_signal -1
  s_barrier_wait -1
  s_setprio 1
)";

TEST(IsaTest, ClassesGfx950) {
  InstructionStream s = parseOk(kGfx950Snippet, Arch::gfx950);
  std::pair<StringRef, InstrClass> expected[] = {
      {"v_mfma_f32_16x16x32_bf16", InstrClass::Matrix},
      {"v_mfma_f32_32x32x16_bf16", InstrClass::Matrix},
      {"v_accvgpr_read_b32", InstrClass::Valu},
      {"v_add_f32", InstrClass::Valu},
      {"v_exp_f32", InstrClass::Transcendental},
      {"v_cmp_eq_u32", InstrClass::Valu},
      {"s_add_u32", InstrClass::Salu},
      {"ds_read_b128", InstrClass::Lds},
      {"buffer_load_dwordx4", InstrClass::DirectToLdsLoad},
      {"buffer_load_dword ", InstrClass::VmemLoad},
      {"global_load_dwordx4", InstrClass::VmemLoad},
      {"global_store_dwordx4", InstrClass::VmemStore},
      {"global_atomic_add", InstrClass::VmemStore},
      {"flat_load_dword", InstrClass::VmemLoad},
      {"s_load_dwordx4", InstrClass::Smem},
      {"s_waitcnt", InstrClass::Wait},
      {"s_barrier", InstrClass::Barrier},
      {"s_setprio 1", InstrClass::SetPrio},
      {"s_nop 3", InstrClass::Nop},
      {"s_sleep", InstrClass::Sleep},
      {"s_cbranch_scc1", InstrClass::Branch},
      {"s_endpgm", InstrClass::Salu},
  };
  for (auto [prefix, cls] : expected)
    EXPECT_EQ(getClassName(findInstr(s, prefix).cls), getClassName(cls))
        << prefix.str();
  EXPECT_EQ(findInstr(s, "v_add_f32").mnemonic, "v_add_f32");
  EXPECT_EQ(findInstr(s, "v_add_f32").text, "v_add_f32_e32 v0, v1, v2");
  EXPECT_TRUE(StringRef(findInstr(s, "v_mfma_f32_16x16x32_bf16").opcodeName)
                  .starts_with("V_MFMA_F32_16X16X32_BF16"));
}

TEST(IsaTest, ClassesGfx1201) {
  InstructionStream s = parseOk(kGfx1201Snippet, Arch::gfx1201);
  std::pair<StringRef, InstrClass> expected[] = {
      {"v_wmma_f32_16x16x16_bf16", InstrClass::Matrix},
      {"v_add_f32", InstrClass::Valu},
      {"v_exp_f32", InstrClass::Transcendental},
      {"ds_load_b128", InstrClass::Lds},
      {"global_load_b128", InstrClass::VmemLoad},
      {"global_store_b128", InstrClass::VmemStore},
      {"s_load_b128", InstrClass::Smem},
      {"s_wait_loadcnt 0x2", InstrClass::Wait},
      {"s_wait_alu", InstrClass::Wait},
      {"s_barrier_signal", InstrClass::Barrier},
      {"s_barrier_wait", InstrClass::Barrier},
      {"s_setprio", InstrClass::SetPrio},
  };
  for (auto [prefix, cls] : expected)
    EXPECT_EQ(getClassName(findInstr(s, prefix).cls), getClassName(cls))
        << prefix.str();
}

// Each mirrored TSFlags bit, on an instruction that has it and one that
// does not (lib/Isa/SIInstrFlags.h).
TEST(IsaTest, MirroredTsFlags) {
  InstructionStream s950 = parseOk(kGfx950Snippet, Arch::gfx950);
  InstructionStream s1201 = parseOk(kGfx1201Snippet, Arch::gfx1201);
  auto flagsOf = [](const InstructionStream &s, StringRef prefix) {
    return s.target->getInstrInfo()
        .get(findInstr(s, prefix).inst.getOpcode())
        .TSFlags;
  };
  namespace f = si_flags;
  struct Case {
    const InstructionStream *stream;
    StringRef with, without;
    uint64_t bit;
  } cases[] = {
      {&s950, "s_add_u32", "v_add_f32", f::kSalu},
      {&s950, "v_add_f32", "s_add_u32", f::kValu},
      {&s950, "v_exp_f32", "v_add_f32", f::kTrans},
      {&s950, "buffer_load_dword ", "global_load_dwordx4", f::kMubuf},
      {&s950, "s_load_dwordx4", "ds_read_b128", f::kSmrd},
      {&s950, "global_load_dwordx4", "buffer_load_dword ", f::kFlat},
      {&s950, "ds_read_b128", "s_load_dwordx4", f::kDs},
      {&s950, "global_load_dwordx4", "ds_read_b128", f::kVmCnt},
      {&s950, "ds_read_b128", "global_load_dwordx4", f::kLgkmCnt},
      {&s950, "global_load_dwordx4", "flat_load_dword", f::kFlatGlobal},
      {&s950, "v_mfma_f32_16x16x32_bf16", "v_add_f32", f::kIsMai},
      {&s950, "global_atomic_add", "global_store_dwordx4", f::kIsAtomicNoRet},
      {&s1201, "v_wmma_f32_16x16x16_bf16", "v_add_f32", f::kIsWmma},
  };
  for (const Case &c : cases) {
    EXPECT_TRUE(flagsOf(*c.stream, c.with) & c.bit) << c.with.str();
    EXPECT_FALSE(flagsOf(*c.stream, c.without) & c.bit) << c.without.str();
  }
}

TEST(IsaTest, Registers) {
  InstructionStream s = parseOk(kGfx950Snippet, Arch::gfx950);
  const Instruction &mfma = findInstr(s, "v_mfma_f32_16x16x32_bf16");
  EXPECT_TRUE(hasRange(mfma.writes, RegKind::Vgpr, 12, 4));
  EXPECT_EQ(mfma.writes.size(), 1u);
  EXPECT_TRUE(hasRange(mfma.reads, RegKind::Vgpr, 160, 4));
  EXPECT_TRUE(hasRange(mfma.reads, RegKind::Vgpr, 144, 4));
  EXPECT_TRUE(hasRange(mfma.reads, RegKind::Vgpr, 12, 4));
  EXPECT_TRUE(hasRange(mfma.reads, RegKind::Exec, 0, 2));

  const Instruction &agprMfma = findInstr(s, "v_mfma_f32_32x32x16_bf16");
  EXPECT_TRUE(hasRange(agprMfma.writes, RegKind::Agpr, 0, 16));

  const Instruction &shift = findInstr(s, "s_lshl_b64");
  EXPECT_TRUE(hasRange(shift.writes, RegKind::Sgpr, 4, 2));
  EXPECT_TRUE(hasRange(shift.writes, RegKind::Scc, 0, 1));
  EXPECT_TRUE(hasRange(shift.reads, RegKind::Sgpr, 6, 2));

  EXPECT_TRUE(
      hasRange(findInstr(s, "v_cmp_eq_u32").writes, RegKind::Vcc, 0, 2));
  EXPECT_TRUE(hasRange(findInstr(s, "s_mov_b32 m0").writes, RegKind::M0, 0, 1));
  EXPECT_TRUE(
      hasRange(findInstr(s, "s_cbranch_scc1").reads, RegKind::Scc, 0, 1));
  const Instruction &direct = findInstr(s, "buffer_load_dwordx4");
  EXPECT_TRUE(hasRange(direct.reads, RegKind::M0, 0, 1));
  EXPECT_TRUE(hasRange(direct.reads, RegKind::Sgpr, 8, 4));
  EXPECT_TRUE(direct.writes.empty());

  // wave32: the low halves of VCC and EXEC.
  InstructionStream r = parseOk(kGfx1201Snippet, Arch::gfx1201);
  const Instruction &cmp = findInstr(r, "v_cmp_eq_u32");
  EXPECT_TRUE(hasRange(cmp.writes, RegKind::Vcc, 0, 1));
  EXPECT_TRUE(hasRange(cmp.reads, RegKind::Exec, 0, 1));
  EXPECT_TRUE(hasRange(findInstr(r, "v_wmma").writes, RegKind::Vgpr, 0, 8));
}

std::string countersOf(const Instruction &instr) {
  std::string names;
  for (unsigned c = 0; c < kNumCounters; ++c)
    if (instr.counters.contains(Counter(c)))
      names += (names.empty() ? "" : " ") + getCounterName(Counter(c)).str();
  return names;
}

TEST(IsaTest, Counters) {
  InstructionStream s = parseOk(kGfx950Snippet, Arch::gfx950);
  EXPECT_EQ(countersOf(findInstr(s, "ds_read_b128")), "lgkmcnt");
  EXPECT_EQ(countersOf(findInstr(s, "s_load_dwordx4")), "lgkmcnt");
  EXPECT_EQ(countersOf(findInstr(s, "buffer_load_dwordx4")), "vmcnt");
  EXPECT_EQ(countersOf(findInstr(s, "buffer_load_dword ")), "vmcnt");
  EXPECT_EQ(countersOf(findInstr(s, "global_load_dwordx4")), "vmcnt");
  EXPECT_EQ(countersOf(findInstr(s, "global_store_dwordx4")), "vmcnt");
  EXPECT_EQ(countersOf(findInstr(s, "flat_load_dword")), "vmcnt lgkmcnt");
  EXPECT_EQ(countersOf(findInstr(s, "v_mfma_f32_16x16x32_bf16")), "");

  InstructionStream r = parseOk(kGfx1201Snippet, Arch::gfx1201);
  EXPECT_EQ(countersOf(findInstr(r, "ds_load_b128")), "dscnt");
  EXPECT_EQ(countersOf(findInstr(r, "global_load_b128")), "loadcnt");
  EXPECT_EQ(countersOf(findInstr(r, "global_store_b128")), "storecnt");
  EXPECT_EQ(countersOf(findInstr(r, "flat_load_b32")), "loadcnt dscnt");
  EXPECT_EQ(countersOf(findInstr(r, "s_load_b128")), "kmcnt");
}

std::string waitsOf(const Instruction &instr) {
  if (!instr.wait)
    return "none";
  std::string text;
  for (unsigned c = 0; c < kNumCounters; ++c)
    if (std::optional<unsigned> value = instr.wait->get(Counter(c)))
      text += (text.empty() ? "" : " ") + getCounterName(Counter(c)).str() +
              "=" + std::to_string(*value);
  if (instr.wait->dependencyWait)
    text += text.empty() ? "alu" : " alu";
  return text;
}

// The decoded values agree with llvm-mc's own spelling of the encodings.
TEST(IsaTest, WaitValues) {
  InstructionStream s = parseOk(kGfx950Snippet, Arch::gfx950);
  EXPECT_EQ(waitsOf(findInstr(s, "s_waitcnt vmcnt(3)")), "vmcnt=3 lgkmcnt=0");
  EXPECT_EQ(waitsOf(findInstr(s, "s_waitcnt vmcnt(40)")), "vmcnt=40 expcnt=2");
  EXPECT_EQ(waitsOf(findInstr(s, "s_barrier")), "none");
  EXPECT_EQ(findInstr(s, "s_nop 3").inst.getOperand(0).getImm(), 3);

  InstructionStream r = parseOk(kGfx1201Snippet, Arch::gfx1201);
  EXPECT_EQ(waitsOf(findInstr(r, "s_wait_loadcnt 0x2")), "loadcnt=2");
  EXPECT_EQ(waitsOf(findInstr(r, "s_wait_loadcnt_dscnt")), "loadcnt=2 dscnt=3");
  EXPECT_EQ(waitsOf(findInstr(r, "s_wait_storecnt_dscnt")), "dscnt=2");
  EXPECT_EQ(waitsOf(findInstr(r, "s_wait_alu")), "alu");
  InstructionStream old =
      parseOk("  s_waitcnt vmcnt(0)\n  s_waitcnt lgkmcnt(2) expcnt(1)\n",
              Arch::gfx1201);
  EXPECT_EQ(waitsOf(old.instructions[0]), "loadcnt=0");
  EXPECT_EQ(waitsOf(old.instructions[1]), "expcnt=1 dscnt=2 kmcnt=2");
}

// Latencies are the sched model's (MCSchedModel::computeInstrLatency of
// the resolved class); the values below are also what llvm-mca-22
// -mcpu=gfx950 prints. For the MFMAs llvm-mca prints 8 and 12 where the
// class's write latency is 4 and 8, so only their pipe occupancy is pinned.
TEST(IsaTest, LatencyAndResources) {
  InstructionStream s = parseOk(kGfx950Snippet, Arch::gfx950);
  const llvm::MCSubtargetInfo &sti = s.target->getSubtargetInfo();
  for (const Instruction &instr : s.instructions)
    EXPECT_EQ(instr.sched.latency, sti.getSchedModel().computeInstrLatency(
                                       sti, instr.sched.schedClass))
        << instr.text;
  std::pair<StringRef, int> latencies[] = {
      {"v_add_f32", 1},    {"v_exp_f32", 4},
      {"ds_read_b128", 5}, {"global_load_dwordx4", 80},
      {"s_add_u32", 1},    {"s_barrier", 500},
  };
  for (auto [prefix, latency] : latencies)
    EXPECT_EQ(findInstr(s, prefix).sched.latency, latency) << prefix.str();

  auto holds = [](const Instruction &instr, StringRef name) {
    return llvm::any_of(instr.sched.resources, [&](const ResourceUse &use) {
      return use.name == name;
    });
  };
  // The XDL pipe is held 4 and 8 cycles, llvm-mca's reciprocal throughputs.
  const Instruction &mfma = findInstr(s, "v_mfma_f32_16x16x32_bf16");
  const Instruction &bigMfma = findInstr(s, "v_mfma_f32_32x32x16_bf16");
  ASSERT_TRUE(holds(mfma, "HWXDL"));
  EXPECT_EQ(mfma.sched.resources.front().releaseAtCycle, 4u);
  EXPECT_EQ(bigMfma.sched.resources.front().releaseAtCycle, 8u);
  EXPECT_TRUE(holds(findInstr(s, "v_add_f32"), "HWVALU"));
  EXPECT_TRUE(holds(findInstr(s, "ds_read_b128"), "HWLGKM"));
  EXPECT_TRUE(holds(findInstr(s, "global_load_dwordx4"), "HWVMEM"));
  EXPECT_TRUE(holds(findInstr(s, "s_add_u32"), "HWSALU"));
  EXPECT_TRUE(holds(findInstr(s, "s_barrier"), "HWBranch"));
}

TEST(IsaTest, LabelsLinesAndAddresses) {
  InstructionStream s = parseOk(kGfx950Snippet, Arch::gfx950);
  std::optional<unsigned> loop = s.findLabel(".LBB0_1");
  ASSERT_TRUE(loop);
  EXPECT_EQ(s.instructions[*loop].text, "s_add_u32 s0, s1, s2");
  EXPECT_EQ(findInstr(s, "s_cbranch_scc1").branchTarget, loop);
  EXPECT_EQ(s.findLabel("kernel"), 0u);
  EXPECT_EQ(findInstr(s, "v_mfma_f32_16x16x32_bf16").line, 4u);
  EXPECT_EQ(findInstr(s, "s_endpgm").line, 29u);
  // MFMAs and memory instructions are 8 bytes, VOP2 and SOP 4.
  EXPECT_EQ(s.instructions[0].size, 8u);
  EXPECT_EQ(s.instructions[1].address, 8u);
  EXPECT_EQ(findInstr(s, "v_add_f32").size, 4u);
}

TEST(IsaTest, AssemblyErrors) {
  auto message = [](StringRef text, Arch arch) {
    llvm::Expected<InstructionStream> s = parseAssembly(text, arch, "x.s");
    if (s)
      return std::string("no error");
    return llvm::toString(s.takeError());
  };
  std::string unknown =
      message("  s_nop 0\n  v_frobnicate v0, v1\n", Arch::gfx950);
  EXPECT_NE(unknown.find("x.s:2:"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("invalid instruction"), std::string::npos) << unknown;
  std::string missing =
      message("  v_wmma_f32_16x16x16_bf16 v[0:7], v[8:11], v[12:15], v[0:7]\n",
              Arch::gfx950);
  EXPECT_NE(missing.find("x.s:1:"), std::string::npos) << missing;
  EXPECT_NE(missing.find("gfx950"), std::string::npos) << missing;
  std::string mfma =
      message("\n  v_mfma_f32_16x16x32_bf16 v[0:3], v[4:7], v[8:11], v[0:3]\n",
              Arch::gfx1201);
  EXPECT_NE(mfma.find("x.s:2:"), std::string::npos) << mfma;
}

std::string readObject(StringRef name) {
  auto buffer = llvm::MemoryBuffer::getFile(std::string(HK_ISA_OBJECTS_DIR) +
                                            "/" + name.str());
  if (!buffer) {
    ADD_FAILURE() << "missing " << name.str();
    return "";
  }
  return (*buffer)->getBuffer().str();
}

TEST(IsaTest, CodeObjectGfx950) {
  std::string bytes = readObject("tiny-gfx9-gfx950.o");
  llvm::Expected<Arch> arch = getCodeObjectArch(bytes);
  ASSERT_TRUE(bool(arch)) << llvm::toString(arch.takeError());
  EXPECT_EQ(*arch, Arch::gfx950);
  llvm::Expected<std::vector<KernelCode>> kernels = decodeCodeObject(bytes);
  ASSERT_TRUE(bool(kernels)) << llvm::toString(kernels.takeError());
  ASSERT_EQ(kernels->size(), 2u);
  const KernelCode &first = (*kernels)[0];
  const KernelCode &second = (*kernels)[1];
  EXPECT_EQ(first.name, "first");
  EXPECT_EQ(first.start, 0u);
  EXPECT_EQ(second.name, "second");
  EXPECT_EQ(second.start, 256u); // .p2align 8
  EXPECT_EQ(second.size, 12u);

  // The same instructions as the assembler reads from the source.
  auto source = llvm::MemoryBuffer::getFile(std::string(HK_ISA_SOURCE_INPUTS) +
                                            "/tiny-gfx9.s");
  ASSERT_TRUE(bool(source));
  InstructionStream parsed = parseOk((*source)->getBuffer(), Arch::gfx950);
  const std::vector<Instruction> &decoded = first.code.instructions;
  ASSERT_EQ(decoded.size(), 7u);
  for (size_t i = 0; i < decoded.size(); ++i) {
    EXPECT_EQ(decoded[i].inst.getOpcode(),
              parsed.instructions[i].inst.getOpcode());
    EXPECT_EQ(decoded[i].address, parsed.instructions[i].address);
    EXPECT_EQ(decoded[i].cls, parsed.instructions[i].cls);
    // A branch prints its label in assembly, its offset when decoded.
    if (decoded[i].cls != InstrClass::Branch) {
      EXPECT_EQ(decoded[i].text, parsed.instructions[i].text);
    }
  }
  EXPECT_EQ(decoded[0].text, "s_load_dwordx2 s[0:1], s[0:1], 0x0");
  EXPECT_EQ(decoded[4].cls, InstrClass::Branch);
  EXPECT_EQ(decoded[4].branchTarget, 2u);
  EXPECT_EQ(parsed.instructions[4].branchTarget, 2u);
  EXPECT_EQ(waitsOf(decoded[5]), "lgkmcnt=0");
  ASSERT_EQ(second.code.instructions.size(), 2u);
  EXPECT_EQ(second.code.instructions[0].cls, InstrClass::Lds);
  EXPECT_EQ(second.code.instructions[0].address, 256u);
}

TEST(IsaTest, CodeObjectGfx1201) {
  llvm::Expected<std::vector<KernelCode>> kernels =
      decodeCodeObject(readObject("tiny-gfx12-gfx1201.o"));
  ASSERT_TRUE(bool(kernels)) << llvm::toString(kernels.takeError());
  ASSERT_EQ(kernels->size(), 1u);
  const KernelCode &wmma = kernels->front();
  EXPECT_EQ(wmma.name, "wmma");
  EXPECT_EQ(wmma.code.target->getArch(), Arch::gfx1201);
  ASSERT_EQ(wmma.code.instructions.size(), 4u);
  EXPECT_EQ(countersOf(wmma.code.instructions[0]), "kmcnt");
  EXPECT_EQ(waitsOf(wmma.code.instructions[1]), "kmcnt=0");
  EXPECT_EQ(wmma.code.instructions[2].cls, InstrClass::Matrix);
}

TEST(IsaTest, CodeObjectErrors) {
  auto message = [](StringRef bytes) {
    llvm::Expected<std::vector<KernelCode>> k = decodeCodeObject(bytes);
    return k ? std::string("no error") : llvm::toString(k.takeError());
  };
  std::string gfx90a = message(readObject("tiny-gfx9-gfx90a.o"));
  EXPECT_NE(gfx90a.find("unsupported chip"), std::string::npos) << gfx90a;
  EXPECT_NE(gfx90a.find("0x3F"), std::string::npos) << gfx90a;
  std::string text = message("not an ELF file at all");
  EXPECT_NE(text.find("not an object file"), std::string::npos) << text;
  // A truncated code object: the header survives, the sections do not.
  std::string bytes = readObject("tiny-gfx9-gfx950.o");
  std::string truncated = message(StringRef(bytes).take_front(80));
  EXPECT_NE(truncated, "no error");
}

} // namespace
