//===- RematerializeAfterLoops.cpp - lane values recomputed after loops ---===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// hk-rematerialize-after-loops (Passes.td): values computed before a loop
// from the thread id by a few integer ops, used after it and not in it, are
// computed again right after it, from a thread id rebuilt there.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Dialect/HK/Transforms/ClusterSchedule.h"
#include "HK/Dialect/HK/Transforms/Passes.h"
#include "HK/Dialect/HK/Transforms/Transforms.h"
#include "HK/Target/Chip.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir::hk {
#define GEN_PASS_DEF_REMATERIALIZEAFTERLOOPS
#include "HK/Dialect/HK/Transforms/Passes.h.inc"
} // namespace mlir::hk

using namespace mlir;

namespace {

/// At most this many ops are recomputed for one value.
constexpr size_t kMaxRecomputed = 12;

bool containsLoop(Operation *op) {
  return op->walk([](scf::ForOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// The integer ops recomputed: arithmetic and bit operations, casts, minima
/// and maxima; divisions only by constants (shifts once lowered).
bool isCheap(Operation *op) {
  if (isa<arith::DivUIOp, arith::RemUIOp, arith::DivSIOp, arith::RemSIOp>(op))
    return matchPattern(op->getOperand(1), m_Constant());
  return isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::AndIOp,
             arith::OrIOp, arith::XOrIOp, arith::ShLIOp, arith::ShRUIOp,
             arith::ShRSIOp, arith::MinSIOp, arith::MinUIOp, arith::MaxSIOp,
             arith::MaxUIOp, arith::IndexCastOp, arith::IndexCastUIOp,
             arith::ExtUIOp, arith::ExtSIOp, arith::TruncIOp>(op);
}

/// Thread ids the pass rebuilt, each with the `gpu.thread_id` it equals.
using ThreadIdCopies = DenseMap<Value, gpu::ThreadIdOp>;

/// The thread id `id`, rebuilt at `b`'s insertion point from a
/// readfirstlane of it made there: convergent, so that neither LLVM's GVN
/// nor MachineLICM (which ignores `llvm.loop_annotation`) takes it, or what
/// is computed from it, out of an enclosing loop. The wave bits are masked
/// after the readfirstlane, in an SGPR, so that no VGPR but the thread id's
/// is read.
Value emitThreadIdHere(OpBuilder &b, Location loc, gpu::ThreadIdOp id,
                       int64_t waveSize) {
  Type i32 = b.getI32Type();
  Value mask = arith::ConstantIntOp::create(b, loc, i32, -waveSize);
  Value lanes = arith::IndexCastUIOp::create(b, loc, i32, id);
  Value first = arith::AndIOp::create(
      b, loc, ROCDL::ReadfirstlaneOp::create(b, loc, i32, lanes), mask);
  return arith::IndexCastUIOp::create(
      b, loc, id.getType(), arith::OrIOp::create(b, loc, lanes, first));
}

/// The wave size of `id`'s chip when the lane id is the thread id's low
/// bits (x, whole waves in a row of the workgroup), else nullopt.
std::optional<int64_t> wavesInRows(gpu::ThreadIdOp id) {
  FailureOr<const hk::ChipInfo *> chip = hk::resolveChip(id);
  auto kernel = id->getParentOfType<gpu::GPUFuncOp>();
  std::optional<ArrayRef<int32_t>> block =
      kernel ? kernel.getKnownBlockSize() : std::nullopt;
  if (failed(chip) || !*chip || id.getDimension() != gpu::Dimension::x ||
      !block || block->front() % (*chip)->waveSize != 0)
    return std::nullopt;
  return (*chip)->waveSize;
}

/// Whether the innermost loop around `op` has an `llvm.loop_annotation`
/// that disables LICM. Under an ordinary loop, LICM should take what is
/// computed from a thread id read before that loop out of it.
bool innermostLoopKeepsInvariants(Operation *op) {
  auto outer = op->getParentOfType<LoopLikeOpInterface>();
  if (!outer)
    return false;
  auto annotation =
      outer->getAttrOfType<LLVM::LoopAnnotationAttr>("llvm.loop_annotation");
  return annotation && annotation.getLicm() &&
         annotation.getLicm().getDisable() &&
         annotation.getLicm().getDisable().getValue();
}

/// The values used after one loop of a block and computed again there.
class AfterLoop {
public:
  AfterLoop(Operation *loop, ThreadIdCopies &threadIds)
      : loop(loop), threadIds(threadIds), builder(loop->getContext()) {
    // The copy goes right before the loop, with what LICM moves out of it,
    // until the destructor erases them all.
    previous = loop->getPrevNode();
    OpBuilder before(loop);
    hoisted = before.clone(*loop);
    hoisted->walk(
        [](LoopLikeOpInterface inner) { moveLoopInvariantCode(inner); });
    builder.setInsertionPointAfter(loop);
  }
  ~AfterLoop() {
    while (loop->getPrevNode() != previous) {
      Operation *op = loop->getPrevNode();
      op->dropAllUses();
      op->erase();
    }
  }
  AfterLoop(const AfterLoop &) = delete;
  AfterLoop &operator=(const AfterLoop &) = delete;

  /// Whether recomputing what `uses` read after the loop frees registers:
  /// the values recomputed must outnumber the thread id, which the
  /// recomputation keeps through the loop unless a loop there reads it.
  bool pays(ArrayRef<OpOperand *> uses) {
    llvm::SmallPtrSet<void *, 8> values;
    bool threadIdKept = false;
    for (OpOperand *use : uses) {
      Value v = use->get();
      SmallVector<Operation *> chain;
      if (threadIdOf(v))
        threadIdKept |= isLeafOfLoop(v);
      else if (isBefore(v) && !isLeaf(v) && collect(v, chain))
        values.insert(v.getAsOpaquePointer());
    }
    return values.size() > (threadIdKept ? 0u : 1u);
  }

  /// `v`, computed again after the loop when that frees its register.
  Value rematerialized(Value v) {
    if (Value known = copies.lookupOrNull(v))
      return known;
    // What is computed after the loop from the thread id itself: from the
    // rebuilt one, or GVN merges it with what was computed before.
    if (gpu::ThreadIdOp id = threadIdOf(v); id && isBefore(v))
      if (Value tid = threadIdAfter(id))
        return tid;
    SmallVector<Operation *> chain;
    if (!isBefore(v) || isLeaf(v) || !collect(v, chain))
      return v;
    for (Operation *op : chain) {
      if (copies.contains(op->getResult(0)))
        continue;
      for (Value operand : op->getOperands())
        if (gpu::ThreadIdOp id = threadIdOf(operand))
          if (Value tid = threadIdAfter(id))
            copies.map(operand, tid);
      builder.clone(*op, copies);
    }
    return copies.lookup(v);
  }

private:
  /// The thread id `v` is, itself or rebuilt after an earlier loop.
  gpu::ThreadIdOp threadIdOf(Value v) {
    if (auto id = v.getDefiningOp<gpu::ThreadIdOp>())
      return id;
    return threadIds.lookup(v);
  }

  /// Whether `v` is defined before the loop (outside it, ahead of it).
  bool isBefore(Value v) {
    Operation *def = v.getDefiningOp();
    if (!def || loop->isAncestor(def))
      return false;
    Operation *ancestor = loop->getBlock()->findAncestorOpInBlock(*def);
    return !ancestor || ancestor->isBeforeInBlock(loop);
  }

  /// Values taken as they are, which cost no register through the loop
  /// that they would not hold anyway: constants, kernel arguments, block
  /// ids, the thread id (rebuilt after the loop), and values a loop uses.
  /// The op after which values are recomputed may hold more than a loop (a
  /// prologue, a remainder): what only they use does not count.
  bool isLeaf(Value v) {
    Operation *def = v.getDefiningOp();
    if (!def || matchPattern(v, m_Constant()) || isa<gpu::BlockIdOp>(def) ||
        threadIdOf(v))
      return true;
    return isLeafOfLoop(v);
  }

  /// Whether a loop in the op `v` is recomputed after reads it, once what
  /// the loop computes from invariants only has left it (LLVM moves it out):
  /// asked of a copy of the op with loop-invariant code moved, which reads
  /// the same values from before it.
  bool isLeafOfLoop(Value v) {
    return llvm::any_of(v.getUsers(), [&](Operation *user) {
      auto inner = dyn_cast<scf::ForOp>(user);
      if (!inner)
        inner = user->getParentOfType<scf::ForOp>();
      return inner && hoisted->isAncestor(inner);
    });
  }

  /// Appends the ops computing `v` from leaves (operands first); false when
  /// one is neither cheap nor a leaf, or there are too many.
  bool collect(Value v, SmallVectorImpl<Operation *> &chain) {
    if (isLeaf(v))
      return true;
    Operation *op = v.getDefiningOp();
    if (!isBefore(v) || !isCheap(op))
      return false;
    if (llvm::is_contained(chain, op))
      return true;
    for (Value operand : op->getOperands())
      if (!collect(operand, chain))
        return false;
    chain.push_back(op);
    return chain.size() <= kMaxRecomputed;
  }

  /// The thread id after the loop, rebuilt from the lane id (`gpu.lane_id`)
  /// and the wave's first thread id (an SGPR; right in a loop that keeps
  /// its invariant code, from a readfirstlane made here): neither CSE nor
  /// LLVM's GVN can merge what is computed from it with what was computed
  /// before the loop. Null unless the lane id is the thread id's low bits: x,
  /// with whole waves in a row of the workgroup.
  Value threadIdAfter(gpu::ThreadIdOp id) {
    if (Value known = rebuilt.lookup(id))
      return known;
    std::optional<int64_t> waveSize = wavesInRows(id);
    if (!waveSize)
      return {};
    // Right in a loop whose annotation keeps its invariant code in it (a
    // persistent kernel's walk over work), a wave's first thread id read
    // before it would leave what is computed here invariant there, and
    // MachineLICM, which does not read the annotation, would take it out:
    // read it again here.
    Value tid = innermostLoopKeepsInvariants(loop)
                    ? emitThreadIdHere(builder, id.getLoc(), id, *waveSize)
                    : threadIdFromLaneId(id, *waveSize);
    rebuilt[id] = tid;
    threadIds[tid] = id;
    return tid;
  }

  /// The thread id as the lane id or'ed, here, to the wave's first thread
  /// id read before the loop.
  Value threadIdFromLaneId(gpu::ThreadIdOp id, int64_t waveSize) {
    Location loc = id.getLoc();
    Value first = waveFirstThreadId(id, waveSize);
    if (!first) {
      OpBuilder atId(id);
      atId.setInsertionPointAfter(id);
      first = hk::emitWaveFirstThreadId(atId, loc, id, waveSize);
    }
    Value lane = arith::IndexCastUIOp::create(
        builder, loc, builder.getI32Type(),
        gpu::LaneIdOp::create(builder, loc, nullptr));
    return arith::IndexCastUIOp::create(
        builder, loc, id.getType(),
        arith::OrIOp::create(builder, loc, first, lane));
  }

  /// An hk::emitWaveFirstThreadId of `id` before the loop (hk.stagger's
  /// condition reads one), or null.
  Value waveFirstThreadId(gpu::ThreadIdOp id, int64_t waveSize) {
    DominanceInfo dominance;
    for (Operation *cast : id->getUsers()) {
      if (!isa<arith::IndexCastUIOp>(cast) ||
          !cast->getResult(0).getType().isInteger(32))
        continue;
      for (Operation *mask : cast->getUsers()) {
        APInt bits;
        if (!isa<arith::AndIOp>(mask) ||
            !matchPattern(mask->getOperand(1), m_ConstantInt(&bits)) ||
            bits.getSExtValue() != -waveSize)
          continue;
        for (Operation *read : mask->getUsers())
          if (isa<ROCDL::ReadfirstlaneOp>(read) &&
              dominance.properlyDominates(read, loop))
            return read->getResult(0);
      }
    }
    return {};
  }

  Operation *loop;
  ThreadIdCopies &threadIds;
  /// The copy of `loop` with loop-invariant code moved, between `previous`
  /// (the op before the loop, or null) and the loop.
  Operation *hoisted;
  Operation *previous;
  OpBuilder builder;
  IRMapping copies;
  DenseMap<Operation *, Value> rebuilt;
};

/// Whether a wave of `kernel` has at most 256 registers, so that what
/// lives through a loop takes them from the loop. With one wave per SIMD a
/// gfx950 wave has 512 (VGPRs and AGPRs): the backend keeps such values in
/// AGPRs, two moves each, and a thread id kept through the loop instead
/// can cost moves in it (the 4-wave fp8 GEMM).
bool registersAreScarce(gpu::GPUFuncOp kernel) {
  FailureOr<const hk::ChipInfo *> chip = hk::resolveChip(kernel);
  std::optional<ArrayRef<int32_t>> block = kernel.getKnownBlockSize();
  // Empty workgroups are hk-attach-target's to report.
  if (failed(chip) || !*chip || !block ||
      llvm::any_of(*block, [](int32_t extent) { return extent < 1; }))
    return false;
  int64_t lanes = 1;
  for (int32_t extent : *block)
    lanes *= extent;
  int64_t waves = llvm::divideCeil(lanes, (*chip)->waveSize);
  int64_t perSimd = llvm::divideCeil(waves, (*chip)->simdsPerCu);
  int64_t registers =
      std::min((*chip)->maxRegistersPerLane, (*chip)->vgprsPerSimd / perSimd);
  return registers <= 256;
}

struct RematerializeAfterLoopsPass
    : mlir::hk::impl::RematerializeAfterLoopsBase<RematerializeAfterLoopsPass> {
  void runOnOperation() override {
    // Outer blocks first: what a loop inside another takes from the thread
    // id rebuilt after an earlier loop outside is then computed again.
    SmallVector<Block *> blocks;
    ThreadIdCopies threadIds;
    getOperation().walk([&](gpu::GPUFuncOp kernel) {
      if (registersAreScarce(kernel))
        kernel.walk<WalkOrder::PreOrder>(
            [&](Block *block) { blocks.push_back(block); });
    });
    for (Block *block : blocks) {
      // Each op holding a loop, and the uses of the ops after it up to the
      // next such op included: what a later loop takes from before the
      // first is then computed between the two.
      SmallVector<Operation *> loops;
      for (Operation &op : *block)
        if (containsLoop(&op))
          loops.push_back(&op);
      for (Operation *loop : loops) {
        SmallVector<OpOperand *> uses;
        for (Operation *op = loop->getNextNode(); op; op = op->getNextNode()) {
          op->walk([&](Operation *user) {
            for (OpOperand &operand : user->getOpOperands())
              uses.push_back(&operand);
          });
          if (containsLoop(op))
            break;
        }
        AfterLoop after(loop, threadIds);
        if (!after.pays(uses))
          continue;
        for (OpOperand *use : uses)
          use->set(after.rematerialized(use->get()));
      }
    }
  }
};

} // namespace
