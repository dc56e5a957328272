//===- ScheduleSupport.cpp - helpers the schedule passes share -----------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The pieces of schedule IR every loop schedule (hk-multi-buffer, the
// cluster mechanism's policies, hk-direct-lds-fill's waits, the stagger)
// emits the same way; declared in ClusterSchedule.h.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Dialect/HK/Transforms/ClusterSchedule.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::hk;

static bool isZero(Value v) { return matchPattern(v, m_Zero()); }

FailureOr<std::optional<SmallVector<AllocSharedOp>>>
mlir::hk::checkSecondSlots(scf::ForOp loop, const KVLoop &kv, StringRef pass,
                           std::string &why) {
  using Result = std::optional<SmallVector<AllocSharedOp>>;
  auto refuse = [&](const Twine &reason) -> Result {
    why = reason.str();
    return std::nullopt;
  };
  // The policy: tiles allocated with one slot, filled in slot 0, read only
  // by fragment loads of slot 0.
  llvm::SetVector<AllocSharedOp> allocs;
  for (auto &[op, tile] : kv.tiles) {
    AllocSharedOp alloc = tile.alloc;
    if (alloc.getType().getSlots() != 1)
      return refuse(Twine("a copied tile already has ") +
                    Twine(alloc.getType().getSlots()) + " slots");
    for (CopyToSharedOp copy : tile.fills)
      if (!isZero(copy.getSlot()))
        return refuse("a copy does not fill slot 0");
    if (tile.otherUse || llvm::any_of(tile.reads, [](LoadFragmentOp load) {
          return !isZero(load.getSlot());
        }))
      return refuse("a copied tile is used in the loop by something other "
                    "than a fragment load of slot 0");
    allocs.insert(alloc);
  }

  // LDS budget with two slots per tile.
  FailureOr<const ChipInfo *> chip = resolveChip(loop);
  if (failed(chip))
    return failure();
  if (*chip) {
    auto func = loop->getParentOfType<FunctionOpInterface>();
    int64_t total = 0, added = 0;
    for (auto alloc : func.getFunctionBody().front().getOps<AllocSharedOp>()) {
      total += alloc.getType().getTotalBytes();
      if (allocs.contains(alloc))
        added += alloc.getType().getTotalBytes();
    }
    if (total + added > (*chip)->ldsBytes) {
      loop.emitError() << pass << ": double-buffering needs " << total + added
                       << " bytes of LDS (" << total << " now, " << added
                       << " more for the second slots), but " << (*chip)->name
                       << " has " << (*chip)->ldsBytes
                       << " bytes; use smaller tiles or stages=1";
      return failure();
    }
  }
  return Result(allocs.takeVector());
}

SmallVector<CopyToSharedOp> mlir::hk::emitFill(OpBuilder &b, const KVLoop &kv,
                                               Value iv, Value slot) {
  IRMapping map;
  map.map(scf::ForOp(kv.loop).getInductionVar(), iv);
  SmallVector<CopyToSharedOp> copies;
  for (Operation *op : kv.fillSection) {
    Operation *clone = b.clone(*op, map);
    if (auto copy = dyn_cast<CopyToSharedOp>(clone)) {
      copy.getSlotMutable().assign(slot);
      copies.push_back(copy);
    }
  }
  return copies;
}

void mlir::hk::emitWaitForLoads(OpBuilder &b, Location loc) {
  amdgpu::MemoryCounterWaitOp::create(b, loc, b.getI32IntegerAttr(0), nullptr,
                                      nullptr, nullptr, nullptr);
}

Value mlir::hk::emitWaveFirstThreadId(OpBuilder &b, Location loc,
                                      Value threadIdX, int64_t waveSize) {
  Type i32 = b.getI32Type();
  Value mask = arith::ConstantIntOp::create(b, loc, i32, -waveSize);
  Value id = arith::IndexCastUIOp::create(b, loc, i32, threadIdX);
  return ROCDL::ReadfirstlaneOp::create(
      b, loc, i32, arith::AndIOp::create(b, loc, id, mask));
}
