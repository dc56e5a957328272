//===- Isa.h - AMDGPU machine code as one instruction stream ----*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The entry points of the ISA layer: assembly text (LLVM's MC asm parser)
// and code objects (ELF through the AMDGPU MCDisassembler) both become an
// `InstructionStream` of `Instruction` records (Instruction.h). `IsaTarget`
// owns the MC objects of one chip; it is created once per chip and process
// and shared by the streams read for that chip.
//
//===----------------------------------------------------------------------===//

#ifndef HK_ISA_ISA_H
#define HK_ISA_ISA_H

#include "HK/Isa/Instruction.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <vector>

namespace llvm {
class MCAsmInfo;
class MCContext;
class MCInstPrinter;
class MCInstrInfo;
class MCRegisterInfo;
class MCSubtargetInfo;
class Target;
} // namespace llvm

namespace mlir::hk::isa {

class RegisterModel;

/// The LLVM MC objects of one chip (triple amdgcn-amd-amdhsa), created
/// once and then shared; every method is const.
class IsaTarget {
public:
  /// The target of `arch`; an error if libLLVM has no AMDGPU target.
  static llvm::Expected<const IsaTarget *> get(Arch arch);

  Arch getArch() const { return arch; }
  const llvm::Target &getTarget() const { return *target; }
  const llvm::MCRegisterInfo &getRegisterInfo() const { return *mri; }
  const llvm::MCInstrInfo &getInstrInfo() const { return *mii; }
  const llvm::MCSubtargetInfo &getSubtargetInfo() const { return *sti; }
  const llvm::MCAsmInfo &getAsmInfo() const { return *mai; }
  const llvm::MCInstPrinter &getPrinter() const { return *printer; }

  /// Fills the derived fields of `instr` (everything after `opcodeName`)
  /// and its text, mnemonic and opcode name from `instr.inst`.
  void describe(Instruction &instr) const;

  /// The register range of one physical register.
  RegRange describeRegister(llvm::MCRegister reg) const;

  /// The name of a register, e.g. "VGPR0_VGPR1".
  llvm::StringRef getRegisterName(llvm::MCRegister reg) const;

  ~IsaTarget();

private:
  IsaTarget() = default;
  Arch arch = Arch::gfx950;
  const llvm::Target *target = nullptr;
  std::unique_ptr<llvm::MCRegisterInfo> mri;
  std::unique_ptr<llvm::MCInstrInfo> mii;
  std::unique_ptr<llvm::MCSubtargetInfo> sti;
  std::unique_ptr<llvm::MCAsmInfo> mai;
  std::unique_ptr<llvm::MCInstPrinter> printer;
  std::unique_ptr<RegisterModel> registers;
};

/// A label of an assembly stream: the instruction it stands before.
struct Label {
  std::string name;
  /// Index of the next instruction (== size() for a label at the end).
  unsigned index = 0;
};

/// Instructions read from one input, with what their MCInsts point into
/// (branch targets of assembly are MCExprs owned by an MCContext).
struct InstructionStream {
  const IsaTarget *target = nullptr;
  std::vector<Instruction> instructions;
  std::vector<Label> labels;
  /// Owner of the MCExprs that `instructions` refer to.
  std::shared_ptr<llvm::MCContext> context;

  /// The index a label stands before, if the stream has it.
  std::optional<unsigned> findLabel(llvm::StringRef name) const;
};

/// Parses AMDGPU assembly for `arch`: instructions, labels (kept, so a loop
/// is found by its label and back-edge), directives and comments
/// (tolerated). An error names the line and the assembler's reason.
llvm::Expected<InstructionStream>
parseAssembly(llvm::StringRef text, Arch arch,
              llvm::StringRef bufferName = "<assembly>");

/// One kernel (an STT_FUNC symbol in .text) of a code object.
struct KernelCode {
  std::string name;
  /// Offset of the kernel's first byte in its section, and its size.
  uint64_t start = 0;
  uint64_t size = 0;
  /// Addresses are section offsets; branch targets are indices into
  /// `code.instructions`.
  InstructionStream code;
};

/// The largest value `counter` holds on `arch` (its field in s_waitcnt is
/// all ones). The hardware never lets more operations be outstanding:
/// LLVM's SIInsertWaitcnts relies on it (a wait for the largest value
/// retires the oldest of one more), and hk's executor models it.
unsigned getCounterLimit(Arch arch, Counter counter);

/// The chip a code object is for, from its e_flags (EF_AMDGPU_MACH_*); an
/// error for a non-ELF, non-AMDGPU or unsupported-chip file.
llvm::Expected<Arch> getCodeObjectArch(llvm::StringRef elfBytes);

/// Disassembles every kernel of an AMDGPU code object (ELF, relocatable or
/// linked). An error names the kernel and offset of an undecodable word.
llvm::Expected<std::vector<KernelCode>>
decodeCodeObject(llvm::StringRef elfBytes);

} // namespace mlir::hk::isa

#endif // HK_ISA_ISA_H
