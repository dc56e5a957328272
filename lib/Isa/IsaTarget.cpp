//===- IsaTarget.cpp - the MC objects of one chip ------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements IsaTarget: it initializes LLVM's AMDGPU target once,
// creates the MC objects of a chip once per process, and maps physical
// registers to ranges of 32-bit registers from MCRegisterInfo's classes and
// sub-registers.
//
//===----------------------------------------------------------------------===//

#include "RegisterModel.h"

#include "HK/Isa/Isa.h"

#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

using namespace llvm;

// The AMDGPU entry points libLLVM.so exports (llvm/Config/Targets.def
// names them; declared here so only AMDGPU is pulled in).
extern "C" {
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUAsmParser();
void LLVMInitializeAMDGPUDisassembler();
}

namespace mlir::hk::isa {

StringRef getArchName(Arch arch) {
  return arch == Arch::gfx950 ? "gfx950" : "gfx1201";
}

std::optional<Arch> parseArch(StringRef name) {
  if (name == "gfx950")
    return Arch::gfx950;
  if (name == "gfx1201")
    return Arch::gfx1201;
  return std::nullopt;
}

unsigned getWaveSize(Arch arch) { return arch == Arch::gfx950 ? 64 : 32; }

static constexpr StringLiteral kTriple = "amdgcn-amd-amdhsa";

/// The subtarget features of `arch`. gfx12 defaults to wave32 in LLVM
/// already; it is spelled out because hk's gfx1201 kernels are wave32.
static StringRef getFeatures(Arch arch) {
  return arch == Arch::gfx950 ? "" : "+wavefrontsize32";
}

//===----------------------------------------------------------------------===//
// RegisterModel
//===----------------------------------------------------------------------===//

RegisterModel::RegisterModel(const MCRegisterInfo &mri) : mri(mri) {
  for (const MCRegisterClass &rc : mri.regclasses()) {
    StringRef name = mri.getRegClassName(&rc);
    if (name == "VGPR_32")
      vgpr32 = &rc;
    else if (name == "AGPR_32")
      agpr32 = &rc;
    else if (name == "SGPR_32")
      sgpr32 = &rc;
    else if (name == "SReg_32")
      sreg32 = &rc;
  }
  // A register's index is its position in its 32-bit class: the classes
  // list v0..vN, a0..aN and s0..sN in order (SIRegisterInfo.td).
  for (const MCRegisterClass *rc : {vgpr32, agpr32, sgpr32}) {
    if (!rc)
      continue;
    for (unsigned i = 0, e = rc->getNumRegs(); i < e; ++i)
      positions[rc->getRegister(i)] = i;
  }
  ranges.resize(mri.getNumRegs());
  for (unsigned reg = 1, e = mri.getNumRegs(); reg < e; ++reg)
    ranges[reg] = compute(MCRegister(reg));
}

bool RegisterModel::isPiece(MCRegister reg) const {
  return (vgpr32 && vgpr32->contains(reg)) ||
         (agpr32 && agpr32->contains(reg)) || (sreg32 && sreg32->contains(reg));
}

RegKind RegisterModel::getPieceKind(MCRegister piece) const {
  if (vgpr32 && vgpr32->contains(piece))
    return RegKind::Vgpr;
  if (agpr32 && agpr32->contains(piece))
    return RegKind::Agpr;
  if (sgpr32 && sgpr32->contains(piece))
    return RegKind::Sgpr;
  StringRef name = mri.getName(piece);
  if (name.starts_with("VCC_"))
    return RegKind::Vcc;
  if (name.starts_with("EXEC_"))
    return RegKind::Exec;
  // M0 has one name per encoding (M0, M0_gfxpre11 on gfx9).
  if (name == "M0" || name.starts_with("M0_"))
    return RegKind::M0;
  return RegKind::Other;
}

RegRange RegisterModel::compute(MCRegister reg) const {
  SmallVector<MCRegister, 8> pieces;
  if (isPiece(reg)) {
    pieces.push_back(reg);
  } else {
    for (MCPhysReg sub : mri.subregs(reg))
      if (isPiece(sub))
        pieces.push_back(sub);
    // A 16-bit half (v0.l) stands for the 32-bit register holding it.
    if (pieces.empty())
      for (MCPhysReg super : mri.superregs(reg))
        if (isPiece(super)) {
          pieces.push_back(super);
          break;
        }
  }
  RegRange range;
  range.reg = reg;
  if (pieces.empty()) {
    // SCC, MODE, gfx9's M0 and the like: one register of their own.
    StringRef name = mri.getName(reg);
    range.kind = name == "SCC"                             ? RegKind::Scc
                 : name == "M0" || name.starts_with("M0_") ? RegKind::M0
                                                           : RegKind::Other;
    range.count = 1;
    return range;
  }
  range.kind = getPieceKind(pieces.front());
  range.count = pieces.size();
  unsigned first = ~0u;
  for (MCRegister piece : pieces) {
    auto it = positions.find(piece);
    // The high half of VCC or EXEC is their second piece.
    unsigned index = it != positions.end() ? it->second
                     : StringRef(mri.getName(piece)).ends_with("_HI") ? 1
                                                                      : 0;
    first = std::min(first, index);
  }
  range.first = first;
  return range;
}

//===----------------------------------------------------------------------===//
// IsaTarget
//===----------------------------------------------------------------------===//

IsaTarget::~IsaTarget() = default;

static void initializeAmdgpuOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmParser();
    LLVMInitializeAMDGPUDisassembler();
  });
}

Expected<const IsaTarget *> IsaTarget::get(Arch arch) {
  static std::mutex mutex;
  static std::unique_ptr<IsaTarget> targets[2];
  initializeAmdgpuOnce();
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<IsaTarget> &slot = targets[arch == Arch::gfx950 ? 0 : 1];
  if (slot)
    return slot.get();

  Triple triple(kTriple);
  std::string message;
  const Target *target = TargetRegistry::lookupTarget(triple, message);
  if (!target)
    return createStringError("no AMDGPU target in LLVM: " + message);
  auto result = std::unique_ptr<IsaTarget>(new IsaTarget());
  result->arch = arch;
  result->target = target;
  result->mri.reset(target->createMCRegInfo(triple));
  result->mii.reset(target->createMCInstrInfo());
  result->sti.reset(target->createMCSubtargetInfo(triple, getArchName(arch),
                                                  getFeatures(arch)));
  if (!result->mri || !result->mii || !result->sti)
    return createStringError("cannot create the MC objects of " +
                             getArchName(arch));
  MCTargetOptions options;
  result->mai.reset(target->createMCAsmInfo(*result->mri, triple, options));
  if (!result->mai)
    return createStringError("cannot create the MC asm info of " +
                             getArchName(arch));
  result->printer.reset(
      target->createMCInstPrinter(triple, result->mai->getAssemblerDialect(),
                                  *result->mai, *result->mii, *result->mri));
  if (!result->printer)
    return createStringError("cannot create the instruction printer of " +
                             getArchName(arch));
  result->registers = std::make_unique<RegisterModel>(*result->mri);
  slot = std::move(result);
  return slot.get();
}

RegRange IsaTarget::describeRegister(MCRegister reg) const {
  return registers->get(reg);
}

StringRef IsaTarget::getRegisterName(MCRegister reg) const {
  return mri->getName(reg);
}

std::optional<unsigned> InstructionStream::findLabel(StringRef name) const {
  for (const Label &label : labels)
    if (label.name == name)
      return label.index;
  return std::nullopt;
}

} // namespace mlir::hk::isa
