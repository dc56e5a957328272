//===- BankConflicts.cpp - LDS bank conflicts of a kernel -----------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Every fragment load and fill of a kernel is described to the static
// conflict model of HK/Target/BankConflicts.h (chip, tile layout, access),
// and its figures are reported as remarks, or as errors above a bound.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Analysis/BankConflicts.h"

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Target/BankConflicts.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "hk-check-bank-conflicts"

using namespace mlir;
using namespace mlir::hk;

/// "4-way on ds_read_b128 (8 per wave)", and when positions differ how many
/// placements have each figure: "(8 per wave; by position: 1-way 16, 2-way
/// 16)".
static std::string describe(const LdsInstrConflicts &kind) {
  std::string text = llvm::formatv("{0}-way on {1} ({2} per wave",
                                   kind.worstWays, kind.mnemonic, kind.perWave);
  if (kind.placementsByWays.size() > 1) {
    text += "; by position:";
    for (auto [ways, count] : kind.placementsByWays)
      text += llvm::formatv(
          "{0} {1}-way {2}",
          ways == kind.placementsByWays.begin()->first ? "" : ",", ways, count);
  }
  return text + ")";
}

/// The analysis of `op`, or failure with an error saying why it cannot be
/// checked.
static FailureOr<std::vector<LdsInstrConflicts>>
analyze(Operation *op, const ChipInfo &chip, gpu::GPUFuncOp func) {
  if (auto load = dyn_cast<LoadFragmentOp>(op)) {
    FragmentType type = load.getType();
    const MmaInstr *instr = type.findInstr(chip);
    if (!instr)
      return load.emitOpError() << chip.name << " has no instruction for "
                                << type << " to check bank conflicts of";
    FragmentAccess access{instr->layout, type.getLaneLayout(),
                          type.getNumFragmentRows() * type.getNumFragmentCols(),
                          load.getTranspose()};
    return getFragmentLoadConflicts(chip, load.getTile().getType().getLayout(),
                                    access);
  }
  auto copy = cast<CopyToSharedOp>(op);
  DenseI32ArrayAttr block = func.getKnownBlockSizeAttr();
  if (!block || block.size() != 3)
    return copy.emitOpError("needs the workgroup size (known_block_size of "
                            "the gpu.func) to check bank conflicts");
  FillAccess access;
  access.threads = int64_t(block[0]) * block[1] * block[2];
  access.direct = copy.getDirect();
  access.transposed = copy.getTranspose();
  TileLayout layout = copy.getTile().getType().getLayout();
  int64_t vec = access.chunkBytes / layout.elementBytes;
  int64_t units = access.transposed ? vec * kTransposedCopyRun : vec;
  if (access.threads < 1 || (!access.transposed && layout.cols % vec != 0) ||
      (layout.numElements() / units) % access.threads != 0)
    return copy.emitOpError()
           << "cannot be checked for bank conflicts: the " << layout.rows << "x"
           << layout.cols << " tile does not split into " << access.chunkBytes
           << "-byte chunks over the " << access.threads
           << " threads of the workgroup";
  return getFillConflicts(chip, layout, access);
}

LogicalResult mlir::hk::checkBankConflicts(gpu::GPUFuncOp func,
                                           unsigned maxWays) {
  bool ok = true;
  func.walk([&](Operation *op) {
    if (!isa<LoadFragmentOp, CopyToSharedOp>(op))
      return;
    FailureOr<const ChipInfo *> chip = resolveChip(op);
    if (succeeded(chip) && !*chip)
      op->emitOpError("has no chip to check bank conflicts for: give the "
                      "gpu.module a #rocdl.target<chip = ...> or an hk.chip "
                      "attribute");
    if (failed(chip) || !*chip) {
      ok = false;
      return;
    }
    FailureOr<std::vector<LdsInstrConflicts>> kinds = analyze(op, **chip, func);
    if (failed(kinds)) {
      ok = false;
      return;
    }
    for (const LdsInstrConflicts &kind : *kinds) {
      LLVM_DEBUG(llvm::dbgs() << op->getName() << " at " << op->getLoc() << ": "
                              << describe(kind) << "\n");
      if (maxWays != 0 && kind.worstWays > maxWays) {
        op->emitOpError() << describe(kind) << " exceeds max-ways=" << maxWays;
        ok = false;
      } else {
        op->emitRemark() << describe(kind);
      }
    }
  });
  return success(ok);
}
