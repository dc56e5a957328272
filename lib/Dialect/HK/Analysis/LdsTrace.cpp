//===- LdsTrace.cpp - a kernel's LDS synchronisation, as events -----------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the abstract run of LdsTrace.h. Values are integers
// the chosen sizes determine, the fragments of fragment loads (to find the
// instruction that waits for a load: its first consumer) or unknown.
// Integer arithmetic is evaluated here, not with the ops' folders: folding
// may update an op in place, and an analysis must leave the IR alone.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Analysis/LdsTrace.h"

#include "HK/Dialect/HK/Analysis/MemoryOps.h"
#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Dialect/HK/Utils/AccessPlan.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::hk;

namespace {
/// A value as the model knows it.
struct Abstract {
  enum class Kind { unknown, integer, fragment } kind = Kind::unknown;
  llvm::APInt integer;
  /// fragment: the event of the load that produced it.
  int readEvent = -1;

  static Abstract of(llvm::APInt v) {
    Abstract a;
    a.kind = Kind::integer;
    a.integer = std::move(v);
    return a;
  }
  static Abstract fragment(int event) {
    Abstract a;
    a.kind = Kind::fragment;
    a.readEvent = event;
    return a;
  }
  bool isInteger() const { return kind == Kind::integer; }
};

unsigned widthOf(Type type) {
  if (type.isIndex())
    return 64;
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.getWidth();
  return 0;
}

/// True if `value` is computed from a memref.load (by ops around it or
/// inside their regions): a value of the data, not of the sizes.
bool isReadFromMemory(Value value, unsigned depth = 0) {
  Operation *def = value.getDefiningOp();
  if (!def || depth > 32)
    return false;
  if (isa<memref::LoadOp>(def))
    return true;
  if (def->getNumRegions() != 0 &&
      def->walk([](memref::LoadOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    return true;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return isReadFromMemory(operand, depth + 1);
  });
}

/// True for the ops that read or write LDS, wait for counters or
/// synchronise waves, and that the model does not follow: refused.
bool isUnmodelledSync(Operation *op) {
  if (isa<amdgpu::GatherToLDSOp, amdgpu::TransposeLoadOp>(op))
    return true;
  if (op->getDialect() && op->getDialect()->getNamespace() == "rocdl" &&
      !isBarrier(op)) {
    // Scheduling fences (rocdl.sched.barrier) only order the backend's
    // scheduler, like amdgpu.sched_barrier.
    StringRef name = op->getName().getStringRef();
    return (name.contains("barrier") && !name.starts_with("rocdl.sched.")) ||
           name.contains("wait") || name.contains("lds") ||
           name.contains(".ds");
  }
  auto inWorkgroupMemory = [](Value v) {
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type)
      return false;
    auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
    if (space)
      return space.getValue() == gpu::AddressSpace::Workgroup;
    auto number = dyn_cast_or_null<IntegerAttr>(type.getMemorySpace());
    return number && number.getInt() == 3;
  };
  return llvm::any_of(op->getOperands(), inWorkgroupMemory);
}

/// True for the ops the model follows (MMAs for the loads they wait for,
/// register reads in clusters, whose loads a schedule's waits count; the
/// trace counts every register read in the regions it enters).
bool isModelledSync(Operation *op) {
  if (isa<ReadFragmentOp>(op))
    return op->getParentOfType<ClusterOp>() != nullptr;
  return isa<CopyToSharedOp, LoadFragmentOp, StoreSharedOp, MmaOp,
             amdgpu::MemoryCounterWaitOp, StaggerOp>(op) ||
         isBarrier(op);
}

class TraceBuilder {
public:
  TraceBuilder(const LdsTraceInput &input, LdsTrace &trace, int group)
      : input(input), kernel(input.kernel), memo(*input.memo), trace(trace),
        group(group), events(trace.groups[group]) {}

  LogicalResult run() {
    if (!memo.scanned) {
      memo.scanned = true;
      kernel.walk([&](Operation *op) {
        if (isUnmodelledSync(op))
          memo.unmodelled.insert(op);
        if (!isModelledSync(op))
          return;
        for (Operation *p = op->getParentOp(); p && p != kernel;
             p = p->getParentOp())
          memo.holdsSync.insert(p);
      });
    }
    Block &entry = kernel.getBody().front();
    for (auto [number, value] : input.scalars) {
      BlockArgument arg = entry.getArgument(number);
      values[arg] = Abstract::of(
          llvm::APInt(widthOf(arg.getType()), value, /*isSigned=*/true));
    }
    if (failed(runBlock(entry)))
      return failure();
    if (overflowed)
      return refuseOverflow();
    return success();
  }

private:
  InFlightDiagnostic refuse(Operation *op) {
    return op->emitError() << "hk-verify-lds cannot prove this kernel's LDS "
                              "synchronisation: ";
  }

  LogicalResult refuseOverflow() {
    return refuse(overflowed)
           << "more than " << input.eventLimit
           << " LDS operations, waits and barriers to check for one wave "
              "group";
  }

  Abstract get(Value v) const { return values.lookup(v); }

  /// The integer `v` must have for the model to go on.
  FailureOr<llvm::APInt> integerOf(Value v, Operation *user, StringRef what) {
    Abstract a = get(v);
    if (a.isInteger())
      return a.integer;
    return refuse(user) << what
                        << " is not determined by constants and the sizes "
                           "of the kernel's arguments";
  }

  /// True if `step` is an integer kernel argument (cast to index) that
  /// sets a grid dimension: a persistent kernel's workgroup count.
  bool isPersistentStep(Value step) const {
    if (auto cast = step.getDefiningOp<arith::IndexCastOp>())
      step = cast.getIn();
    auto arg = dyn_cast<BlockArgument>(step);
    gpu::GPUFuncOp kernel = input.kernel;
    if (!arg || arg.getOwner() != &kernel.getBody().front())
      return false;
    auto launch =
        kernel->getAttrOfType<LaunchAttr>(HKDialect::getLaunchAttrName());
    return launch && llvm::any_of(launch.getGrid(), [&](const SizeTerm &t) {
             return t.arg == int64_t(arg.getArgNumber());
           });
  }

  int tag(Operation *op) {
    trace.origins.push_back(op);
    return trace.origins.size() - 1;
  }

  void push(SyncEvent event, Operation *origin) {
    if (int64_t(events.size()) == input.eventLimit)
      overflowed = origin;
    event.tag = tag(origin);
    if (event.kind == SyncEvent::Kind::Fill ||
        event.kind == SyncEvent::Kind::Read ||
        event.kind == SyncEvent::Kind::Load)
      event.unordered = unordered;
    events.push_back(event);
  }

  FailureOr<int> regionOf(Operation *user, Value tile, Value slot) {
    auto alloc = tile.getDefiningOp<AllocSharedOp>();
    if (!alloc)
      return refuse(user) << "its shared tile does not come from an "
                             "hk.alloc_shared in the kernel";
    FailureOr<llvm::APInt> index = integerOf(slot, user, "its slot index");
    if (failed(index))
      return failure();
    int64_t s = index->getSExtValue();
    for (size_t r = 0; r < trace.slots.size(); ++r)
      if (trace.slots[r].alloc == alloc && trace.slots[r].slot == s)
        return int(r);
    trace.slots.push_back({alloc, s});
    return int(trace.slots.size() - 1);
  }

  LogicalResult runBlock(Block &block) {
    for (Operation &op : block)
      if (failed(runOp(&op)))
        return failure();
    return success();
  }

  /// Runs `region`'s block with `args` bound, returning its terminator's
  /// operands.
  FailureOr<SmallVector<Abstract>> runRegion(Region &region,
                                             ArrayRef<Abstract> args) {
    Block &block = region.front();
    for (auto [arg, value] : llvm::zip(block.getArguments(), args))
      values[arg] = value;
    if (failed(runBlock(block)))
      return failure();
    SmallVector<Abstract> results;
    for (Value v : block.getTerminator()->getOperands())
      results.push_back(get(v));
    return results;
  }

  void setResults(Operation *op, ArrayRef<Abstract> results) {
    for (auto [result, value] : llvm::zip(op->getResults(), results))
      values[result] = value;
  }

  LogicalResult runOp(Operation *op) {
    if (++steps > input.stepLimit)
      return refuse(op) << "more than " << input.stepLimit
                        << " operations to follow for one wave group";
    if (overflowed)
      return refuseOverflow();
    flushDeferredFills(op);
    if (op->hasTrait<OpTrait::IsTerminator>())
      return success();
    if (memo.unmodelled.contains(op))
      return refuse(op) << "'" << op->getName()
                        << "' touches LDS, waits or synchronises in a way "
                           "the model does not follow";
    // An MMA waits for the loads of its operands (register RAW). Only
    // inside a cluster, whose fences keep it where it is: elsewhere LLVM
    // may sink it past a barrier.
    if (isa<MmaOp>(op) && op->getParentOfType<ClusterOp>())
      for (Value operand : op->getOperands()) {
        Abstract a = get(operand);
        if (a.kind == Abstract::Kind::fragment) {
          const SyncEvent &read = events[a.readEvent];
          push(SyncEvent::use(read.region, read.generation, a.readEvent), op);
        }
      }
    // A cluster is followed even without LDS work: its results may decide
    // LDS work after it (hk-raise-mma-priority clusters a remainder
    // loop's guard).
    if (op->getNumRegions() != 0 && !memo.holdsSync.contains(op) &&
        !isa<ClusterOp>(op))
      return success(); // results unknown; no LDS work inside
    return TypeSwitch<Operation *, LogicalResult>(op)
        .Case<scf::ForOp>([&](auto loop) { return runFor(loop); })
        .Case<scf::IfOp>([&](auto branch) { return runIf(branch); })
        .Case<ClusterOp>([&](ClusterOp cluster) {
          // The memory operations of an interleaved cluster issue in any
          // order among themselves.
          if (cluster.getInterleaved())
            unordered = nextUnordered++;
          FailureOr<SmallVector<Abstract>> r = runRegion(cluster.getBody(), {});
          unordered = -1;
          if (failed(r))
            return failure();
          setResults(cluster, *r);
          return success();
        })
        .Case<StaggerOp>([&](StaggerOp stagger) { return runStagger(stagger); })
        .Case<CopyToSharedOp>([&](auto copy) { return runCopy(copy); })
        .Case<LoadFragmentOp>([&](auto load) { return runLoad(load); })
        .Case<StoreSharedOp>([&](auto store) { return runStore(store); })
        .Case<ReadFragmentOp>([&](auto read) { return runRegisterRead(read); })
        .Case<amdgpu::MemoryCounterWaitOp>([&](auto wait) {
          WaitCounts counts;
          if (std::optional<int32_t> load = wait.getLoad())
            counts.vm = *load;
          if (std::optional<int32_t> ds = wait.getDs())
            counts.lgkm = *ds;
          trace.waits.push_back(counts);
          push(SyncEvent::wait(trace.waits.size() - 1), wait);
          return success();
        })
        .Default([&](Operation *other) -> LogicalResult {
          if (isBarrier(other)) {
            // hk.barrier and rocdl.s.barrier wait for nothing; the others
            // are a workgroup release fence (LDS operations complete) and
            // s_barrier.
            push(SyncEvent::barrier(isWorkgroupBarrier(other)), other);
            return success();
          }
          if (other->getNumRegions() != 0)
            return refuse(other)
                   << "LDS work inside '" << other->getName()
                   << "', whose control flow the model does not follow";
          evaluate(other);
          return success();
        });
  }

  LogicalResult runFor(scf::ForOp loop) {
    FailureOr<llvm::APInt> lb =
        integerOf(loop.getLowerBound(), loop, "the lower bound of this loop");
    FailureOr<llvm::APInt> step =
        integerOf(loop.getStep(), loop, "the step of this loop");
    if (failed(lb) || failed(step))
      return failure();
    // A persistent loop's bound read from memory (its count of work): the
    // loop runs `unknownTrips` trips, its LDS work alike in each.
    bool persistent = isPersistentStep(loop.getStep());
    FailureOr<llvm::APInt> ub =
        get(loop.getUpperBound()).isInteger()
            ? get(loop.getUpperBound()).integer
        : persistent && isReadFromMemory(loop.getUpperBound())
            ? *lb + *step * uint64_t(input.unknownTrips)
            : integerOf(loop.getUpperBound(), loop,
                        "the upper bound of this loop");
    if (failed(ub))
      return failure();
    // A persistent loop (stepping by the grid's workgroup count) runs its
    // work items alike too: its first `unknownTrips` trips show them.
    if (persistent) {
      llvm::APInt last = *lb + *step * uint64_t(input.unknownTrips);
      if (last.slt(*ub))
        ub = last;
    }
    bool isSigned = !loop.getUnsignedCmp();
    if (step->isZero() || (isSigned && step->isNegative()))
      return refuse(loop) << "its step is not positive";
    SmallVector<Abstract> carried;
    for (Value init : loop.getInitArgs())
      carried.push_back(get(init));
    for (llvm::APInt iv = *lb; isSigned ? iv.slt(*ub) : iv.ult(*ub);
         iv += *step) {
      SmallVector<Abstract> args = {Abstract::of(iv)};
      args.append(carried);
      FailureOr<SmallVector<Abstract>> next = runRegion(loop.getRegion(), args);
      if (failed(next))
        return failure();
      carried = std::move(*next);
      // Stop before the induction variable wraps around.
      llvm::APInt room =
          isSigned ? llvm::APInt::getSignedMaxValue(iv.getBitWidth()) - iv
                   : llvm::APInt::getMaxValue(iv.getBitWidth()) - iv;
      if (room.ult(*step))
        break;
    }
    setResults(loop, carried);
    return success();
  }

  LogicalResult runIf(scf::IfOp branch) {
    FailureOr<llvm::APInt> cond = integerOf(
        branch.getCondition(), branch,
        "the condition of this scf.if, which guards LDS work or barriers,");
    if (failed(cond))
      return failure();
    Region &taken =
        cond->isZero() ? branch.getElseRegion() : branch.getThenRegion();
    if (taken.empty())
      return success();
    FailureOr<SmallVector<Abstract>> r = runRegion(taken, {});
    if (failed(r))
      return failure();
    setResults(branch, *r);
    return success();
  }

  LogicalResult runStagger(StaggerOp stagger) {
    bool late = group == 1;
    values[stagger.getLate()] = Abstract::of(llvm::APInt(1, late));
    if (late)
      push(SyncEvent::barrier(), stagger);
    FailureOr<SmallVector<Abstract>> r = runRegion(stagger.getBody(), {});
    if (failed(r))
      return failure();
    if (!late)
      push(SyncEvent::barrier(), stagger);
    setResults(stagger, *r);
    return success();
  }

  LogicalResult runCopy(CopyToSharedOp copy) {
    FailureOr<int> region = regionOf(copy, copy.getTile(), copy.getSlot());
    if (failed(region))
      return failure();
    int64_t generation = fillsIssued[*region]++;
    FailureOr<int64_t> ops =
        opsOf(copy, [&] { return countFillOpsPerLane(copy, input.threads); });
    if (failed(ops))
      return failure();
    SyncEvent fill = SyncEvent::fill(
        *region, generation, *ops,
        copy.getDirect() ? SyncEvent::Counter::vm : SyncEvent::Counter::lgkm);
    if (!copy.getDeferred()) {
      push(fill, copy);
      return success();
    }
    // A deferred copy's stores issue at its deferred-stores point.
    Operation *point = copy.getDeferredStoresPoint();
    if (!point)
      return refuse(copy) << "a deferred copy in a block without a "
                             "terminator";
    deferredFills.push_back({point, fill, copy});
    return success();
  }

  /// Pushes the fills of the deferred copies whose stores issue before `op`.
  void flushDeferredFills(Operation *op) {
    for (auto it = deferredFills.begin(); it != deferredFills.end();) {
      if (it->point != op) {
        ++it;
        continue;
      }
      push(it->fill, it->copy);
      it = deferredFills.erase(it);
    }
  }

  /// A wave's write of its accumulator into a region: a fill from
  /// registers, which every wave must finish (lgkmcnt) and meet the others
  /// at a barrier before any reads it.
  LogicalResult runStore(StoreSharedOp store) {
    FailureOr<int> region = regionOf(store, store.getTile(), store.getSlot());
    if (failed(region))
      return failure();
    int64_t generation = fillsIssued[*region]++;
    FailureOr<int64_t> ops = opsOf(
        store, [&] { return countFragmentWritesPerLane(store, *input.chip); });
    if (failed(ops))
      return failure();
    push(SyncEvent::fill(*region, generation, *ops, SyncEvent::Counter::lgkm),
         store);
    return success();
  }

  template <typename Count>
  FailureOr<int64_t> opsOf(Operation *op, Count count) {
    if (auto it = memo.opsPerLane.find(op); it != memo.opsPerLane.end())
      return it->second;
    FailureOr<int64_t> ops = count();
    if (succeeded(ops))
      memo.opsPerLane[op] = *ops;
    return ops;
  }

  LogicalResult runLoad(LoadFragmentOp load) {
    FailureOr<int> region = regionOf(load, load.getTile(), load.getSlot());
    if (failed(region))
      return failure();
    // Generation -1 (no fill before it) is reported by the check, in
    // order with the other violations.
    int64_t generation = fillsIssued.lookup(*region) - 1;
    FailureOr<int64_t> ops = opsOf(
        load, [&] { return countFragmentReadsPerLane(load, *input.chip); });
    if (failed(ops))
      return failure();
    push(SyncEvent::read(*region, generation, *ops), load);
    values[load.getResult()] = Abstract::fragment(events.size() - 1);
    return success();
  }

  /// A read of global memory into registers only moves vmcnt. Reads in a
  /// region the model does not enter are not counted, which only makes
  /// the waits complete more.
  LogicalResult runRegisterRead(ReadFragmentOp read) {
    FailureOr<int64_t> ops = opsOf(
        read, [&] { return countRegisterLoadsPerLane(read, *input.chip); });
    if (failed(ops))
      return failure();
    if (*ops)
      push(SyncEvent::load(*ops), read);
    return success();
  }

  /// Evaluates an integer op whose operands are known.
  void evaluate(Operation *op) {
    if (auto metadata = dyn_cast<memref::ExtractStridedMetadataOp>(op))
      return evaluateMetadata(metadata);
    if (op->getNumResults() != 1)
      return;
    Value result = op->getResult(0);
    unsigned width = widthOf(result.getType());
    if (auto memrefDim = dyn_cast<memref::DimOp>(op)) {
      std::optional<int64_t> dim = memrefDim.getConstantIndex();
      if (std::optional<int64_t> size =
              dim ? extentOf(memrefDim.getSource(), *dim) : std::nullopt)
        values[result] = Abstract::of(llvm::APInt(64, *size));
      return;
    }
    if (auto id = dyn_cast<gpu::BlockIdOp>(op)) {
      auto it = input.blockIds.find(unsigned(id.getDimension()));
      if (it != input.blockIds.end())
        values[result] = Abstract::of(llvm::APInt(64, it->second));
      return;
    }
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      if (auto attr = dyn_cast<IntegerAttr>(constant.getValue()))
        values[result] = Abstract::of(attr.getValue());
      return;
    }
    if (auto select = dyn_cast<arith::SelectOp>(op)) {
      Abstract cond = get(select.getCondition());
      if (cond.isInteger())
        values[result] = get(cond.integer.isZero() ? select.getFalseValue()
                                                   : select.getTrueValue());
      return;
    }
    if (width == 0)
      return;
    SmallVector<llvm::APInt, 2> in;
    for (Value operand : op->getOperands()) {
      Abstract a = get(operand);
      if (!a.isInteger())
        return;
      in.push_back(a.integer);
    }
    std::optional<llvm::APInt> out = evaluateInteger(op, in, width);
    if (out)
      values[result] = Abstract::of(*out);
  }

  /// Dimension `dim` of `memref`: an argument's chosen extent, a static
  /// size, or a subview's size.
  std::optional<int64_t> extentOf(Value memref, int64_t dim) {
    auto type = cast<MemRefType>(memref.getType());
    if (!type.isDynamicDim(dim))
      return type.getDimSize(dim);
    if (auto arg = dyn_cast<BlockArgument>(memref)) {
      if (arg.getOwner() != &kernel.getBody().front())
        return std::nullopt;
      auto it = input.extents.find({arg.getArgNumber(), dim});
      if (it == input.extents.end())
        return std::nullopt;
      return it->second;
    }
    if (auto collapse = memref.getDefiningOp<memref::CollapseShapeOp>()) {
      // The product of the source dimensions it groups.
      int64_t product = 1;
      SmallVector<ReassociationIndices> groups =
          collapse.getReassociationIndices();
      for (int64_t d : groups[dim]) {
        std::optional<int64_t> size = extentOf(collapse.getSrc(), d);
        if (!size)
          return std::nullopt;
        product *= *size;
      }
      return product;
    }
    auto view = memref.getDefiningOp<memref::SubViewOp>();
    if (!view)
      return std::nullopt;
    // Result dimension `dim` is the dim-th size the view does not drop.
    llvm::SmallBitVector dropped = view.getDroppedDims();
    for (auto [i, size] : llvm::enumerate(view.getMixedSizes())) {
      if (dropped.test(i))
        continue;
      if (dim-- != 0)
        continue;
      if (auto value = dyn_cast<Value>(size)) {
        Abstract a = get(value);
        return a.isInteger() ? std::optional<int64_t>(a.integer.getSExtValue())
                             : std::nullopt;
      }
      return getConstantIntValue(size);
    }
    return std::nullopt;
  }

  /// The metadata of a strided kernel argument, modelled as laid out
  /// contiguously (its dynamic strides the products of the extents after
  /// them): the sizes the verifier chooses determine every stride.
  void evaluateMetadata(memref::ExtractStridedMetadataOp metadata) {
    auto arg = dyn_cast<BlockArgument>(metadata.getSource());
    if (!arg || arg.getOwner() != &kernel.getBody().front())
      return;
    auto type = cast<MemRefType>(arg.getType());
    auto [strides, offset] = type.getStridesAndOffset();
    if (ShapedType::isDynamic(offset))
      return;
    values[metadata.getOffset()] = Abstract::of(llvm::APInt(64, offset));
    std::optional<int64_t> contiguous = 1;
    for (int64_t i = type.getRank() - 1; i >= 0; --i) {
      std::optional<int64_t> size = extentOf(arg, i);
      if (size)
        values[metadata.getSizes()[i]] = Abstract::of(llvm::APInt(64, *size));
      std::optional<int64_t> stride =
          ShapedType::isDynamic(strides[i]) ? contiguous : strides[i];
      if (stride)
        values[metadata.getStrides()[i]] =
            Abstract::of(llvm::APInt(64, *stride));
      contiguous = contiguous && size
                       ? std::optional<int64_t>(*contiguous * *size)
                       : std::nullopt;
    }
  }

  static std::optional<llvm::APInt>
  evaluateInteger(Operation *op, ArrayRef<llvm::APInt> in, unsigned width) {
    using R = std::optional<llvm::APInt>;
    auto nonZero = [&](size_t i) { return !in[i].isZero(); };
    return TypeSwitch<Operation *, R>(op)
        .Case([&](arith::AddIOp) { return in[0] + in[1]; })
        .Case([&](arith::SubIOp) { return in[0] - in[1]; })
        .Case([&](arith::MulIOp) { return in[0] * in[1]; })
        .Case([&](arith::DivSIOp) -> R {
          return nonZero(1) ? R(in[0].sdiv(in[1])) : std::nullopt;
        })
        .Case([&](arith::DivUIOp) -> R {
          return nonZero(1) ? R(in[0].udiv(in[1])) : std::nullopt;
        })
        .Case([&](arith::CeilDivSIOp) -> R {
          return nonZero(1) ? R(llvm::APIntOps::RoundingSDiv(
                                  in[0], in[1], llvm::APInt::Rounding::UP))
                            : std::nullopt;
        })
        .Case([&](arith::CeilDivUIOp) -> R {
          return nonZero(1) ? R(llvm::APIntOps::RoundingUDiv(
                                  in[0], in[1], llvm::APInt::Rounding::UP))
                            : std::nullopt;
        })
        .Case([&](arith::FloorDivSIOp) -> R {
          return nonZero(1) ? R(llvm::APIntOps::RoundingSDiv(
                                  in[0], in[1], llvm::APInt::Rounding::DOWN))
                            : std::nullopt;
        })
        .Case([&](arith::RemSIOp) -> R {
          return nonZero(1) ? R(in[0].srem(in[1])) : std::nullopt;
        })
        .Case([&](arith::RemUIOp) -> R {
          return nonZero(1) ? R(in[0].urem(in[1])) : std::nullopt;
        })
        .Case([&](arith::AndIOp) { return in[0] & in[1]; })
        .Case([&](arith::OrIOp) { return in[0] | in[1]; })
        .Case([&](arith::XOrIOp) { return in[0] ^ in[1]; })
        .Case([&](arith::ShLIOp) -> R {
          return in[1].ult(width) ? R(in[0].shl(in[1])) : std::nullopt;
        })
        .Case([&](arith::ShRSIOp) -> R {
          return in[1].ult(width) ? R(in[0].ashr(in[1])) : std::nullopt;
        })
        .Case([&](arith::ShRUIOp) -> R {
          return in[1].ult(width) ? R(in[0].lshr(in[1])) : std::nullopt;
        })
        .Case(
            [&](arith::MinSIOp) { return llvm::APIntOps::smin(in[0], in[1]); })
        .Case(
            [&](arith::MaxSIOp) { return llvm::APIntOps::smax(in[0], in[1]); })
        .Case(
            [&](arith::MinUIOp) { return llvm::APIntOps::umin(in[0], in[1]); })
        .Case(
            [&](arith::MaxUIOp) { return llvm::APIntOps::umax(in[0], in[1]); })
        .Case([&](arith::CmpIOp cmp) {
          return llvm::APInt(
              1, arith::applyCmpPredicate(cmp.getPredicate(), in[0], in[1]));
        })
        .Case<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(
            [&](Operation *) { return in[0].sextOrTrunc(width); })
        .Case<arith::IndexCastUIOp, arith::ExtUIOp>(
            [&](Operation *) { return in[0].zextOrTrunc(width); })
        .Default([](Operation *) { return std::nullopt; });
  }

  const LdsTraceInput &input;
  gpu::GPUFuncOp kernel;
  LdsTraceMemo &memo;
  LdsTrace &trace;
  int group;
  std::vector<SyncEvent> &events;
  llvm::DenseMap<Value, Abstract> values;
  llvm::DenseMap<int, int64_t> fillsIssued;
  /// Fills of deferred copies, pushed when the walk reaches their point.
  struct DeferredFill {
    Operation *point;
    SyncEvent fill;
    Operation *copy;
  };
  SmallVector<DeferredFill> deferredFills;
  /// The unordered group of the interleaved cluster being run, or -1.
  int unordered = -1;
  int nextUnordered = 0;
  /// The op whose event went past the event limit.
  Operation *overflowed = nullptr;
  int64_t steps = 0;
};
} // namespace

LogicalResult mlir::hk::buildLdsTrace(const LdsTraceInput &input,
                                      LdsTrace &trace) {
  trace = LdsTrace();
  trace.groups.resize(input.groups);
  for (int g = 0; g < input.groups; ++g)
    if (failed(TraceBuilder(input, trace, g).run()))
      return failure();
  return success();
}

/// True if `v` is the same in every lane of a wave: computed from
/// workgroup-uniform values, the wave id (thread id x over a multiple of
/// the wave size, in a one-dimensional workgroup) and first-lane reads.
static bool isWaveUniform(Value v, int64_t waveSize, bool oneDimensional,
                          int depth = 0) {
  if (depth > 64)
    return false;
  if (isWorkgroupUniform(v))
    return true;
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  // A value read from the wave's first lane.
  if (isa<gpu::SubgroupIdOp, ROCDL::ReadfirstlaneOp>(def))
    return true;
  if (auto div = dyn_cast<arith::DivUIOp>(def)) {
    auto tid = div.getLhs().getDefiningOp<gpu::ThreadIdOp>();
    APInt divisor;
    if (oneDimensional && tid && tid.getDimension() == gpu::Dimension::x &&
        matchPattern(div.getRhs(), m_ConstantInt(&divisor)) &&
        divisor.getSExtValue() > 0 && divisor.getSExtValue() % waveSize == 0)
      return true;
  }
  if (!isPure(def) || def->getNumRegions() != 0 || def->getNumOperands() == 0)
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return isWaveUniform(operand, waveSize, oneDimensional, depth + 1);
  });
}

FailureOr<Operation *> mlir::hk::findStagger(gpu::GPUFuncOp kernel,
                                             const ChipInfo &chip) {
  StaggerOp first;
  WalkResult result = kernel.walk([&](StaggerOp stagger) {
    if (first && first.getLate() != stagger.getLate()) {
      stagger.emitError()
          << "hk-verify-lds cannot prove this kernel's LDS synchronisation: "
             "its hk.stagger ops split the waves differently";
      return WalkResult::interrupt();
    }
    first = stagger;
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  if (!first)
    return static_cast<Operation *>(nullptr);
  DenseI32ArrayAttr block = kernel.getKnownBlockSizeAttr();
  bool oneDimensional = block && block[1] == 1 && block[2] == 1;
  if (!isWaveUniform(first.getLate(), chip.waveSize, oneDimensional))
    return first.emitError()
           << "hk-verify-lds cannot prove this kernel's LDS synchronisation: "
              "the condition of hk.stagger must be the same in every lane of "
              "a wave (derive it from the wave id, thread_id x / "
           << chip.waveSize << " in a one-dimensional workgroup)";
  return first.getOperation();
}
