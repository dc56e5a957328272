//===- RegisterModel.h - physical registers as 32-bit ranges ----*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The range of 32-bit registers each AMDGPU physical register covers,
// computed once per chip from MCRegisterInfo: the 32-bit pieces are the
// members of VGPR_32, AGPR_32 and SReg_32; a tuple's pieces are its
// sub-registers among them; an index is the position in the class.
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_ISA_REGISTERMODEL_H
#define HK_LIB_ISA_REGISTERMODEL_H

#include "HK/Isa/Instruction.h"

#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace llvm {
class MCRegisterClass;
class MCRegisterInfo;
} // namespace llvm

namespace mlir::hk::isa {

class RegisterModel {
public:
  explicit RegisterModel(const llvm::MCRegisterInfo &mri);

  RegRange get(llvm::MCRegister reg) const {
    return reg.id() < ranges.size() ? ranges[reg.id()] : RegRange{};
  }

private:
  bool isPiece(llvm::MCRegister reg) const;
  RegKind getPieceKind(llvm::MCRegister piece) const;
  RegRange compute(llvm::MCRegister reg) const;

  const llvm::MCRegisterInfo &mri;
  const llvm::MCRegisterClass *vgpr32 = nullptr;
  const llvm::MCRegisterClass *agpr32 = nullptr;
  const llvm::MCRegisterClass *sgpr32 = nullptr;
  const llvm::MCRegisterClass *sreg32 = nullptr;
  llvm::DenseMap<unsigned, unsigned> positions;
  std::vector<RegRange> ranges;
};

} // namespace mlir::hk::isa

#endif // HK_LIB_ISA_REGISTERMODEL_H
