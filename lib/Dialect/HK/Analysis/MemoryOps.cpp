//===- MemoryOps.cpp - memory operations per lane of hk ops ---------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements MemoryOps.h: how many LDS reads a fragment load, how
// many fill operations a copy and how many loads a register read issue per
// lane, as their lowerings emit them; the schedule planner and
// hk-verify-lds count waits with them.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Analysis/MemoryOps.h"
#include "HK/Dialect/HK/Utils/AccessPlan.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::hk;

FailureOr<int64_t> mlir::hk::countFragmentReadsPerLane(LoadFragmentOp load,
                                                       const ChipInfo &chip) {
  FragmentType type = load.getType();
  const MmaInstr *instr = type.findInstr(chip);
  if (!instr)
    return load.emitOpError() << chip.name << " has no MMA for " << type;
  // Transposed: two ds_read_b64_tr_b16 per fragment.
  int64_t runs = load.getTranspose()
                     ? 2
                     : planFragmentAccess(instr->layout, type.getLaneLayout(),
                                          load.getTile().getType().getLayout())
                           .size();
  return type.getNumFragmentRows() * type.getNumFragmentCols() * runs;
}

FailureOr<int64_t> mlir::hk::countFragmentWritesPerLane(StoreSharedOp store,
                                                        const ChipInfo &chip) {
  FragmentType type = store.getFragment().getType();
  const MmaInstr *instr = type.findInstr(chip);
  if (!instr)
    return store.emitOpError() << chip.name << " has no MMA for " << type;
  int64_t runs = planFragmentWrites(instr->layout, type.getLaneLayout(),
                                    store.getTile().getType().getLayout())
                     .size();
  return type.getNumFragmentRows() * type.getNumFragmentCols() * runs;
}

FailureOr<int64_t> mlir::hk::countFillOpsPerLane(CopyToSharedOp copy,
                                                 int64_t threads) {
  TileLayout layout = copy.getTile().getType().getLayout();
  int64_t vec = kCopyChunkBytes / layout.elementBytes;
  int64_t chunks = layout.numElements() / vec;
  // A transposing copy writes each block of kTransposedCopyRun chunks as
  // `vec` runs.
  if (copy.getTranspose()) {
    int64_t blocks = chunks / kTransposedCopyRun;
    if (threads <= 0 || blocks % threads != 0)
      return copy.emitOpError() << "a tile of " << blocks << " blocks does "
                                << "not split over " << threads << " threads";
    return blocks / threads * vec;
  }
  if (threads <= 0 || chunks % threads != 0)
    return copy.emitOpError() << "a tile of " << chunks << " chunks of "
                              << kCopyChunkBytes << " bytes does not split "
                              << "over " << threads << " threads";
  // A direct fill is one load per chunk; the register path writes each
  // chunk to LDS in the runs its layout allows.
  int64_t perChunk =
      copy.getDirect() ? 1 : int64_t(planChunkAccess(layout, vec).size());
  return chunks / threads * perChunk;
}

/// Whether `value` reaches an MMA's operand, through the results of the
/// regions that yield it (clusters, staggers, loops and their carried
/// values, branches) and block scales' arrangement (hk.to_operand).
static bool reachesMma(Value value) {
  SmallVector<Value> work = {value};
  llvm::SmallPtrSet<void *, 8> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v.getAsOpaquePointer()).second)
      continue;
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      unsigned index = use.getOperandNumber();
      if (isa<MmaOp>(user))
        return true;
      // Block scales arranged for the MFMA are what it reads.
      if (isa<ToOperandOp>(user)) {
        work.push_back(user->getResult(index));
        continue;
      }
      if (auto loop = dyn_cast<scf::ForOp>(user)) {
        if (OpResult result = loop.getTiedLoopResult(&use)) {
          work.push_back(result);
          work.push_back(loop.getTiedLoopRegionIterArg(&use));
        }
        continue;
      }
      if (!user->hasTrait<OpTrait::IsTerminator>())
        continue;
      Operation *parent = user->getParentOp();
      if (index < parent->getNumResults())
        work.push_back(parent->getResult(index));
      if (auto loop = dyn_cast<scf::ForOp>(parent))
        work.push_back(loop.getRegionIterArgs()[index]);
    }
  }
  return false;
}

FailureOr<int64_t> mlir::hk::countRegisterLoadsPerLane(ReadFragmentOp read,
                                                       const ChipInfo &chip) {
  FragmentType type = read.getResult().getType();
  VectorType lanes = type.getLaneVectorType(chip);
  if (!lanes)
    return read.emitOpError() << chip.name << " has no MMA for " << type;
  if (!reachesMma(read.getResult()) || read.getBounds() == BoundsMode::inside ||
      read.getSource().getType().getRank() != 2)
    return 0;
  // Scales: a word per load with `partial_rows`, else a byte.
  if (type.getRole() == FragmentRole::scale) {
    int64_t words = getScaleWordsPerLane(type.getRows(), type.getCols());
    return read.getBounds() == BoundsMode::partial_rows ? words : 4 * words;
  }
  return lanes.getNumElements();
}
