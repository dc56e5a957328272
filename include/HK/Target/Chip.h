//===- Chip.h - the chips hk compiles for -----------------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The target description: every per-chip fact hk relies on (wave size, LDS
// capacity and banks, matrix instructions and their lane layouts,
// direct-to-LDS support, barrier form) as data in one table. Passes query
// it (through hk::resolveChip for IR); nothing else compares chip names.
//
//===----------------------------------------------------------------------===//

#ifndef HK_TARGET_CHIP_H
#define HK_TARGET_CHIP_H

#include "HK/Dialect/HK/IR/HKEnums.h"
#include "HK/Dialect/HK/Utils/LaneLayout.h"

#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"

namespace mlir::hk {

/// Scalar element types as the target description spells them.
enum class ElementKind { bf16, f16, f32 };

/// One matrix instruction of a chip.
struct MmaInstr {
  /// ISA mnemonic, e.g. "v_mfma_f32_16x16x32_bf16".
  StringRef mnemonic;
  MmaLayout layout;
  ElementKind operandKind;
  ElementKind accumulatorKind;
};

/// How a workgroup barrier is spelled in the ISA.
enum class BarrierKind {
  /// `s_barrier` (CDNA).
  Single,
  /// `s_barrier_signal -1` then `s_barrier_wait -1` (gfx12).
  SplitSignalWait,
};

/// Everything hk knows about one chip.
struct ChipInfo {
  Chip chip;
  /// The LLVM processor name, e.g. "gfx950".
  StringRef name;
  /// Marketing family, for messages: "CDNA4", "RDNA4".
  StringRef family;
  int64_t waveSize;
  /// LDS bytes available to one workgroup.
  int64_t ldsBytes;
  /// LDS banks of 4 bytes.
  int64_t ldsBanks;
  /// Architectural VGPRs (plus AGPRs on CDNA) per lane of a wave.
  int64_t maxRegistersPerLane;
  ArrayRef<MmaInstr> mmas;
  /// Bytes per lane of a direct-to-LDS buffer load, 0 if the chip has none.
  int64_t directToLdsBytesPerLane;
  BarrierKind barrier;

  bool hasDirectToLds() const { return directToLdsBytesPerLane != 0; }

  /// The instruction computing `shape` on `operand` elements into `acc`
  /// elements, or null if the chip has none.
  const MmaInstr *findMma(MmaShape shape, ElementKind operand,
                          ElementKind acc) const;

  /// The MMA shapes of the chip for messages, e.g. "16x16x32".
  std::string describeMmaShapes() const;
};

/// The description of `chip`.
const ChipInfo &getChipInfo(Chip chip);

/// All chips hk supports, for messages: "gfx950, gfx1201".
std::string describeSupportedChips();

/// Element kind of `type`, if it is one the target description knows.
std::optional<ElementKind> getElementKind(Type type);

} // namespace mlir::hk

#endif // HK_TARGET_CHIP_H
