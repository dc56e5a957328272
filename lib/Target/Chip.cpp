//===- Chip.cpp - the chips hk compiles for -------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the target description table.
//
//===----------------------------------------------------------------------===//

#include "HK/Target/Chip.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::hk;

// Sources: AMD CDNA4 ISA guide (MFMA 16x16x32 bf16/f16, 160 KiB LDS, 64
// banks), AMD RDNA4 ISA guide (WMMA 16x16x16 bf16/f16 wave32, 64 KiB LDS per
// workgroup, split barriers) and SPEC section 3.
static const MmaInstr kGfx950Mmas[] = {
    {"v_mfma_f32_16x16x32_bf16", MmaLayout::Mfma16x16x32, ElementKind::bf16,
     ElementKind::f32},
    {"v_mfma_f32_16x16x32_f16", MmaLayout::Mfma16x16x32, ElementKind::f16,
     ElementKind::f32},
};

static const MmaInstr kGfx1201Mmas[] = {
    {"v_wmma_f32_16x16x16_bf16", MmaLayout::Wmma16x16x16Gfx12,
     ElementKind::bf16, ElementKind::f32},
    {"v_wmma_f32_16x16x16_f16", MmaLayout::Wmma16x16x16Gfx12,
     ElementKind::f16, ElementKind::f32},
};

static const ChipInfo kChips[] = {
    {Chip::gfx950, "gfx950", "CDNA4", /*waveSize=*/64,
     /*ldsBytes=*/160 * 1024, /*ldsBanks=*/64, /*maxRegistersPerLane=*/512,
     kGfx950Mmas, /*directToLdsBytesPerLane=*/16, BarrierKind::Single},
    {Chip::gfx1201, "gfx1201", "RDNA4", /*waveSize=*/32,
     /*ldsBytes=*/64 * 1024, /*ldsBanks=*/64, /*maxRegistersPerLane=*/256,
     kGfx1201Mmas, /*directToLdsBytesPerLane=*/0,
     BarrierKind::SplitSignalWait},
};

const ChipInfo &mlir::hk::getChipInfo(Chip chip) {
  for (const ChipInfo &info : kChips)
    if (info.chip == chip)
      return info;
  llvm_unreachable("every Chip has an entry in kChips");
}

std::string mlir::hk::describeSupportedChips() {
  return llvm::join(llvm::map_range(kChips,
                                    [](const ChipInfo &c) { return c.name; }),
                    ", ");
}

const MmaInstr *ChipInfo::findMma(MmaShape shape, ElementKind operand,
                                  ElementKind acc) const {
  for (const MmaInstr &instr : mmas)
    if (getMmaShape(instr.layout) == shape && instr.operandKind == operand &&
        instr.accumulatorKind == acc)
      return &instr;
  return nullptr;
}

std::string ChipInfo::describeMmaShapes() const {
  SmallVector<std::string> shapes;
  for (const MmaInstr &instr : mmas) {
    MmaShape s = getMmaShape(instr.layout);
    std::string text = llvm::formatv("{0}x{1}x{2}", s.m, s.n, s.k);
    if (!llvm::is_contained(shapes, text))
      shapes.push_back(text);
  }
  return llvm::join(shapes, ", ");
}

std::optional<ElementKind> mlir::hk::getElementKind(Type type) {
  if (type.isBF16())
    return ElementKind::bf16;
  if (type.isF16())
    return ElementKind::f16;
  if (type.isF32())
    return ElementKind::f32;
  return std::nullopt;
}
