//===- CodeObject.cpp - code objects to instruction streams --------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements decodeCodeObject: the chip from the ELF header's
// e_flags, the kernels from the function symbols of .text, and their
// instructions from the AMDGPU MCDisassembler.
//
//===----------------------------------------------------------------------===//

#include "HK/Isa/Isa.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace mlir::hk::isa {

/// The ELF file in `bytes`, or an error saying why it is not one of ours.
static Expected<std::unique_ptr<object::ELFObjectFileBase>>
openAmdgpuElf(StringRef bytes) {
  Expected<std::unique_ptr<object::ObjectFile>> object =
      object::ObjectFile::createObjectFile(
          MemoryBufferRef(bytes, "code object"));
  if (!object)
    return createStringError("not an object file: " +
                             toString(object.takeError()));
  auto *elf = dyn_cast<object::ELFObjectFileBase>(object->get());
  if (!elf)
    return createStringError("not an ELF file");
  if (elf->getEMachine() != ELF::EM_AMDGPU)
    return createStringError("not an AMDGPU code object (e_machine " +
                             std::to_string(elf->getEMachine()) + ")");
  object->release();
  return std::unique_ptr<object::ELFObjectFileBase>(elf);
}

/// The chip of an AMDGPU ELF from e_flags' EF_AMDGPU_MACH field.
static Expected<Arch> getArch(const object::ELFObjectFileBase &elf) {
  unsigned mach = elf.getPlatformFlags() & ELF::EF_AMDGPU_MACH;
  switch (mach) {
  case ELF::EF_AMDGPU_MACH_AMDGCN_GFX950:
    return Arch::gfx950;
  case ELF::EF_AMDGPU_MACH_AMDGCN_GFX1201:
    return Arch::gfx1201;
  default:
    return createStringError(
        "unsupported chip in the code object (EF_AMDGPU_MACH 0x" +
        utohexstr(mach) + "); supported: gfx950, gfx1201");
  }
}

Expected<Arch> getCodeObjectArch(StringRef elfBytes) {
  auto elf = openAmdgpuElf(elfBytes);
  if (!elf)
    return elf.takeError();
  return getArch(**elf);
}

/// The function symbols of `section`, by address.
static Expected<std::vector<KernelCode>>
findKernels(const object::ELFObjectFileBase &elf,
            const object::SectionRef &section) {
  std::vector<KernelCode> kernels;
  for (object::ELFSymbolRef symbol : elf.symbols()) {
    if (symbol.getELFType() != ELF::STT_FUNC)
      continue;
    Expected<object::section_iterator> where = symbol.getSection();
    if (!where)
      return where.takeError();
    if (*where != section)
      continue;
    Expected<StringRef> name = symbol.getName();
    Expected<uint64_t> value = symbol.getValue();
    if (!name)
      return name.takeError();
    if (!value)
      return value.takeError();
    KernelCode kernel;
    kernel.name = name->str();
    kernel.start = *value - section.getAddress();
    kernel.size = symbol.getSize();
    kernels.push_back(std::move(kernel));
  }
  llvm::sort(kernels, [](const KernelCode &a, const KernelCode &b) {
    return a.start < b.start;
  });
  return kernels;
}

/// Disassembles `kernel`'s bytes of `contents` into its stream.
static Error decodeKernel(const IsaTarget &target, MCDisassembler &disassembler,
                          ArrayRef<uint8_t> contents, KernelCode &kernel) {
  if (kernel.start + kernel.size > contents.size())
    return createStringError("kernel " + kernel.name +
                             " extends past the end of .text");
  std::vector<Instruction> &instructions = kernel.code.instructions;
  for (uint64_t offset = kernel.start, end = kernel.start + kernel.size;
       offset < end;) {
    Instruction instr;
    uint64_t size = 0;
    std::string comments;
    raw_string_ostream commentStream(comments);
    MCDisassembler::DecodeStatus status = disassembler.getInstruction(
        instr.inst, size, contents.slice(offset, end - offset), offset,
        commentStream);
    if (status != MCDisassembler::Success || size == 0)
      return createStringError("cannot decode the instruction at offset 0x" +
                               utohexstr(offset) + " of kernel " + kernel.name +
                               " for " + getArchName(target.getArch()));
    instr.index = instructions.size();
    instr.address = offset;
    instr.size = size;
    if (size >= 4) // every AMDGPU encoding is a whole number of words
      instr.firstWord = support::endian::read32le(contents.data() + offset);
    target.describe(instr);
    instructions.push_back(std::move(instr));
    offset += size;
  }
  return Error::success();
}

/// The target of a PC-relative branch: SOPP's simm16 counts dwords from the
/// next instruction (CDNA4 and RDNA4 ISA guides, S_BRANCH).
static void resolveBranches(std::vector<Instruction> &instructions) {
  for (Instruction &instr : instructions) {
    if (instr.cls != InstrClass::Branch || instr.inst.getNumOperands() == 0 ||
        !instr.inst.getOperand(0).isImm())
      continue;
    int64_t dwords = int16_t(instr.inst.getOperand(0).getImm());
    uint64_t target = instr.address + instr.size + dwords * 4;
    auto it = llvm::partition_point(
        instructions, [&](const Instruction &i) { return i.address < target; });
    if (it != instructions.end() && it->address == target)
      instr.branchTarget = it->index;
  }
}

Expected<std::vector<KernelCode>> decodeCodeObject(StringRef elfBytes) {
  auto elfOrErr = openAmdgpuElf(elfBytes);
  if (!elfOrErr)
    return elfOrErr.takeError();
  const object::ELFObjectFileBase &elf = **elfOrErr;
  Expected<Arch> arch = getArch(elf);
  if (!arch)
    return arch.takeError();
  Expected<const IsaTarget *> targetOrErr = IsaTarget::get(*arch);
  if (!targetOrErr)
    return targetOrErr.takeError();
  const IsaTarget &target = **targetOrErr;

  std::optional<object::SectionRef> text;
  for (const object::SectionRef &section : elf.sections()) {
    Expected<StringRef> name = section.getName();
    if (name && *name == ".text")
      text = section;
  }
  if (!text)
    return createStringError("the code object has no .text section");
  Expected<StringRef> contents = text->getContents();
  if (!contents)
    return contents.takeError();
  ArrayRef<uint8_t> bytes(reinterpret_cast<const uint8_t *>(contents->data()),
                          contents->size());

  auto kernels = findKernels(elf, *text);
  if (!kernels)
    return kernels.takeError();
  const MCSubtargetInfo &sti = target.getSubtargetInfo();
  auto ctx =
      std::make_shared<MCContext>(sti.getTargetTriple(), &target.getAsmInfo(),
                                  &target.getRegisterInfo(), &sti);
  std::unique_ptr<MCDisassembler> disassembler(
      target.getTarget().createMCDisassembler(sti, *ctx));
  if (!disassembler)
    return createStringError("cannot create the AMDGPU disassembler");
  for (KernelCode &kernel : *kernels) {
    kernel.code.target = &target;
    kernel.code.context = ctx;
    if (Error error = decodeKernel(target, *disassembler, bytes, kernel))
      return std::move(error);
    resolveBranches(kernel.code.instructions);
  }
  return kernels;
}

} // namespace mlir::hk::isa
