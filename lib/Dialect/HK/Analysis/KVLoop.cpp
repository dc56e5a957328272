//===- KVLoop.cpp - the one analysis of a K/V loop ------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the K/V loop analysis of KVLoop.h: the sections of a
// synchronous loop, its tiles with their fills and reads, its MMAs and
// elementwise work, and the MMA phase of a loop in any form.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Analysis/KVLoop.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::hk;

static llvm::Error notKVLoop(const Twine &why) {
  return llvm::createStringError(why);
}

llvm::SetVector<Operation *> mlir::hk::getBodySlice(scf::ForOp loop,
                                                    Operation *root) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Operation *> work = {root};
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!slice.insert(op))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        if (def->getBlock() == loop.getBody())
          work.push_back(def);
  }
  return slice;
}

/// Fills in what `kv`'s MMAs read first, where its register reads are first
/// needed, and the early work.
static void analyzeComputeOrder(KVLoop &kv) {
  scf::ForOp loop = kv.loop;
  Block *body = loop.getBody();
  DenseSet<Operation *> used;
  for (MmaOp mma : kv.mmas) {
    SmallVector<LoadFragmentOp> first;
    for (Value operand : {mma.getA(), mma.getB()}) {
      auto load = operand.getDefiningOp<LoadFragmentOp>();
      if (load && load->getBlock() == body && used.insert(load).second)
        first.push_back(load);
    }
    llvm::sort(first, [](LoadFragmentOp x, LoadFragmentOp y) {
      return x->isBeforeInBlock(y);
    });
    kv.firstReads.push_back(std::move(first));
  }
  int mmaCount = kv.mmas.size();
  kv.registerReadFirstMma.assign(kv.registerReads.size(), mmaCount);
  for (auto [c, mma] : llvm::enumerate(kv.mmas)) {
    llvm::SetVector<Operation *> slice = getBodySlice(loop, mma);
    for (auto [j, read] : llvm::enumerate(kv.registerReads))
      if (kv.registerReadFirstMma[j] == mmaCount && slice.contains(read))
        kv.registerReadFirstMma[j] = c;
  }
  llvm::SmallPtrSet<Operation *, 8> early;
  for (ReadFragmentOp read : kv.registerReads)
    early.insert(read);
  for (Operation *op : kv.elementwise.front()) {
    bool fromReads = false, onlyReads = op->getNumRegions() == 0;
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && early.contains(def))
        fromReads = true;
      else if (!loop.isDefinedOutsideOfLoop(operand))
        onlyReads = false;
    }
    if (fromReads && onlyReads) {
      early.insert(op);
      kv.earlyWork.push_back(op);
    }
  }
}

llvm::Expected<KVLoop> mlir::hk::analyzeKVLoop(scf::ForOp loop) {
  KVLoop kv;
  kv.loop = loop;
  Block *body = loop.getBody();
  Operation *end = body->getTerminator()->getPrevNode();
  if (!isWorkgroupBarrier(end))
    return notKVLoop("the loop body does not end with a barrier");
  kv.endBarrier = end;

  // The fill section: everything before the first barrier.
  Block::iterator it = body->begin();
  for (; &*it != end; ++it) {
    Operation *op = &*it;
    if (isWorkgroupBarrier(op)) {
      kv.fillBarrier = op;
      break;
    }
    if (isa<amdgpu::MemoryCounterWaitOp>(op)) {
      kv.fillWaits.push_back(op);
      continue;
    }
    if (auto copy = dyn_cast<CopyToSharedOp>(op))
      kv.copies.push_back(copy);
    else if (!isPure(op))
      return notKVLoop(Twine("'") + op->getName().getStringRef() +
                       "' with side effects comes before the fill barrier");
    kv.fillSection.push_back(op);
  }
  if (!kv.fillBarrier)
    return notKVLoop("no barrier separates the fills from the compute part");
  if (kv.copies.empty())
    return notKVLoop("the loop fills no shared tile before its first barrier");

  // The compute section.
  kv.elementwise.emplace_back();
  for (++it; &*it != end; ++it) {
    Operation *op = &*it;
    kv.computeSection.push_back(op);
    if (auto mma = dyn_cast<MmaOp>(op)) {
      kv.mmas.push_back(mma);
      kv.elementwise.emplace_back();
    } else if (auto read = dyn_cast<ReadFragmentOp>(op)) {
      kv.registerReads.push_back(read);
    } else if (!isa<LoadFragmentOp>(op)) {
      kv.elementwise.back().push_back(op);
    }
  }

  // The tiles, their fills and their reads.
  for (CopyToSharedOp copy : kv.copies) {
    auto alloc = copy.getTile().getDefiningOp<AllocSharedOp>();
    if (!alloc)
      return notKVLoop("a copied tile does not come from hk.alloc_shared");
    KVTile &tile = kv.tiles[alloc];
    tile.alloc = alloc;
    tile.fills.push_back(copy);
  }
  loop.walk([&](Operation *user) {
    for (Value operand : user->getOperands()) {
      auto it = kv.tiles.find(operand.getDefiningOp());
      if (it == kv.tiles.end())
        continue;
      KVTile &tile = it->second;
      if (auto load = dyn_cast<LoadFragmentOp>(user))
        tile.reads.push_back(load);
      else if (!llvm::is_contained(tile.fills, user) && !tile.otherUse)
        tile.otherUse = user;
    }
  });
  analyzeComputeOrder(kv);
  return kv;
}

std::optional<std::pair<Operation *, Operation *>>
mlir::hk::findMmaPhase(Block &body) {
  auto inPhase = [](Operation *op) {
    return op
        ->walk([](Operation *inner) {
          return isa<LoadFragmentOp, MmaOp>(inner) ? WalkResult::interrupt()
                                                   : WalkResult::advance();
        })
        .wasInterrupted();
  };
  Operation *first = nullptr, *last = nullptr;
  for (Operation &op : body.without_terminator())
    if (inPhase(&op)) {
      first = first ? first : &op;
      last = &op;
    }
  if (!first)
    return std::nullopt;
  return std::make_pair(first, last);
}

Operation *mlir::hk::findPublishingBarrier(Operation *op) {
  for (Operation *cur = op; cur && !isa<FunctionOpInterface>(cur);
       cur = cur->getParentOp())
    for (Operation *next = cur->getNextNode(); next; next = next->getNextNode())
      if (isWorkgroupBarrier(next))
        return next;
  return nullptr;
}

bool mlir::hk::isRemainderLoop(scf::ForOp loop) {
  return loop->hasAttr(HKDialect::getRemainderAttrName());
}

SmallVector<scf::ForOp> mlir::hk::collectKVLoops(Operation *root) {
  SmallVector<scf::ForOp> loops;
  root->walk([&](scf::ForOp loop) {
    if (!loop.getBody()->getOps<CopyToSharedOp>().empty() &&
        !isRemainderLoop(loop))
      loops.push_back(loop);
  });
  return loops;
}
