//===- HKScheduleOps.cpp - hk schedule operations -------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the verifiers of the schedule ops (hk.barrier,
// hk.cluster, hk.stagger) and the workgroup-uniformity test they share: a
// barrier that some waves skip deadlocks or pairs the wrong intervals, so
// every barrier must sit in control flow every wave takes alike.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::hk;

/// Values computed from these alone are the same in every lane of a
/// workgroup.
static bool isUniformSource(Operation *op) {
  return op->hasTrait<OpTrait::ConstantLike>() ||
         isa<gpu::BlockIdOp, gpu::GridDimOp, gpu::BlockDimOp, gpu::ClusterIdOp,
             gpu::ClusterDimOp, memref::DimOp>(op);
}

/// A kernel argument only read (memref.load) or measured (memref.dim): the
/// same in every lane for the whole launch.
static bool isReadOnlyArgument(Value memref) {
  auto arg = dyn_cast<BlockArgument>(memref);
  if (!arg || !arg.getOwner()->isEntryBlock() ||
      !isa_and_nonnull<FunctionOpInterface>(arg.getOwner()->getParentOp()))
    return false;
  return llvm::all_of(arg.getUsers(), [](Operation *user) {
    return isa<memref::LoadOp, memref::DimOp>(user);
  });
}

static bool isUniform(Value value, DenseMap<Value, bool> &known,
                      unsigned depth);

/// Value `number` carried by `loop` (`carried`: its iteration argument or
/// result) is uniform if the loop's bounds are, its initial value is, and
/// what the body yields for it is.
static bool isUniformCarried(scf::ForOp loop, unsigned number,
                             DenseMap<Value, bool> &known, unsigned depth) {
  auto uniform = [&](Value v) { return isUniform(v, known, depth + 1); };
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  return uniform(loop.getLowerBound()) && uniform(loop.getUpperBound()) &&
         uniform(loop.getStep()) && uniform(loop.getInitArgs()[number]) &&
         uniform(yield.getOperand(number));
}

/// `known` caches answers. A value still being decided (a cycle through a
/// loop's carried values) counts as uniform: every lane then computes it
/// alike from uniform inputs, trip by trip. If it turns out not to be, the
/// answers given under that assumption are forgotten.
static bool isUniform(Value value, DenseMap<Value, bool> &known,
                      unsigned depth) {
  auto [it, inserted] = known.try_emplace(value, true);
  if (!inserted)
    return it->second;
  if (depth > 64) {
    known.clear();
    known[value] = false;
    return false;
  }
  auto decide = [&]() {
    auto uniform = [&](Value v) { return isUniform(v, known, depth + 1); };
    auto uniformBounds = [&](scf::ForOp loop) {
      return uniform(loop.getLowerBound()) && uniform(loop.getUpperBound()) &&
             uniform(loop.getStep());
    };
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      Operation *owner = arg.getOwner()->getParentOp();
      // Kernel arguments are the same for the whole launch.
      if (isa_and_nonnull<FunctionOpInterface>(owner) &&
          arg.getOwner()->isEntryBlock())
        return true;
      // The induction variable of a loop with uniform bounds.
      auto loop = dyn_cast_or_null<scf::ForOp>(owner);
      if (!loop)
        return false;
      if (arg == loop.getInductionVar())
        return uniformBounds(loop);
      return isUniformCarried(loop, arg.getArgNumber() - 1, known, depth);
    }
    Operation *def = value.getDefiningOp();
    if (isUniformSource(def))
      return true;
    // What a loop with uniform bounds carries out of uniform values.
    if (auto loop = dyn_cast<scf::ForOp>(def))
      return isUniformCarried(loop, cast<OpResult>(value).getResultNumber(),
                              known, depth);
    // A read of memory the kernel does not write, at a uniform place.
    if (auto load = dyn_cast<memref::LoadOp>(def))
      return isReadOnlyArgument(load.getMemRef()) &&
             llvm::all_of(load.getIndices(), uniform);
    // A loop of scalar work (scf.while) on uniform values: every lane
    // takes the same path through it.
    if (isa<scf::WhileOp>(def)) {
      if (!llvm::all_of(def->getOperands(), uniform))
        return false;
      return !def->walk([&](Operation *inner) {
                   bool alike =
                       isa<scf::ConditionOp, scf::YieldOp>(inner) ||
                       (isa<memref::LoadOp>(inner)
                            ? isReadOnlyArgument(inner->getOperand(0))
                            : isPure(inner) && inner->getNumRegions() == 0 &&
                                  !isa<gpu::ThreadIdOp, gpu::LaneIdOp>(inner));
                   alike = alike &&
                           llvm::all_of(inner->getOperands(), [&](Value v) {
                             return def->isAncestor(
                                        v.getParentBlock()->getParentOp()) ||
                                    uniform(v);
                           });
                   return alike ? WalkResult::advance()
                                : WalkResult::interrupt();
                 })
                  .wasInterrupted();
    }
    // Other sources (thread and lane ids) differ between lanes.
    if (!isPure(def) || def->getNumRegions() != 0 || def->getNumOperands() == 0)
      return false;
    return llvm::all_of(def->getOperands(), uniform);
  };
  bool result = decide();
  if (!result)
    known.clear();
  known[value] = result;
  return result;
}

bool mlir::hk::isWorkgroupUniform(Value value) {
  DenseMap<Value, bool> known;
  return isUniform(value, known, 0);
}

BarrierRole mlir::hk::classifyBarrier(Operation *op) {
  if (isa_and_nonnull<amdgpu::LDSBarrierOp, gpu::BarrierOp>(op))
    return BarrierRole::workgroup;
  if (isa_and_nonnull<BarrierOp, ROCDL::SBarrierOp>(op))
    return BarrierRole::execution;
  return BarrierRole::none;
}

LogicalResult mlir::hk::verifyUniformBarrier(Operation *barrier) {
  auto refuse = [&](const Twine &why) {
    return barrier->emitOpError()
           << "every wave must execute the same barriers, but this one " << why;
  };
  const char *uniformRule =
      "not provably uniform across the workgroup (computed only from "
      "constants, kernel arguments, workgroup ids and sizes and memref.dim)";
  for (Operation *parent = barrier->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (isa<FunctionOpInterface>(parent))
      return success();
    if (isa<ClusterOp>(parent))
      return refuse("sits inside an hk.cluster; clusters are separated by "
                    "barriers, not split by them");
    if (isa<StaggerOp>(parent))
      continue;
    if (auto loop = dyn_cast<scf::ForOp>(parent)) {
      if (!isWorkgroupUniform(loop.getLowerBound()) ||
          !isWorkgroupUniform(loop.getUpperBound()) ||
          !isWorkgroupUniform(loop.getStep()))
        return refuse(Twine("sits in an scf.for whose bounds are ") +
                      uniformRule);
      continue;
    }
    if (auto branch = dyn_cast<scf::IfOp>(parent)) {
      if (!isWorkgroupUniform(branch.getCondition()))
        return refuse(Twine("sits under an scf.if whose condition is ") +
                      uniformRule);
      continue;
    }
    return refuse(Twine("sits in '") + parent->getName().getStringRef() +
                  "', whose control flow hk cannot prove uniform");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

LogicalResult BarrierOp::verify() { return verifyUniformBarrier(*this); }

/// The yield of `op`'s body yields what `op` returns.
static LogicalResult verifyYield(Operation *op, Region &body) {
  auto yield = dyn_cast<YieldOp>(body.front().getTerminator());
  if (!yield)
    return op->emitOpError("body must end with hk.yield");
  if (yield.getValues().getTypes() != op->getResultTypes())
    return op->emitOpError()
           << "yields " << yield.getValues().size() << " values of types ("
           << yield.getValues().getTypes() << ") but has "
           << op->getNumResults() << " results of types ("
           << op->getResultTypes() << ")";
  return success();
}

const char *mlir::hk::whyNotInCluster(Operation *op) {
  if (isBarrier(op))
    return "clusters are separated by barriers";
  if (isa<amdgpu::MemoryCounterWaitOp, ROCDL::SetPrioOp,
          amdgpu::SchedBarrierOp>(op))
    return "waits, priority changes and scheduling fences go between "
           "clusters";
  if (isa<ClusterOp>(op))
    return "clusters do not nest";
  if (isa<StaggerOp>(op))
    return "a stagger holds clusters, not the other way round";
  return nullptr;
}

LogicalResult ClusterOp::verify() {
  int32_t priority = getPriority();
  if (priority < 0 || priority > 3)
    return emitOpError() << "priority must be 0 to 3 (s_setprio), got "
                         << priority;
  if (getAlternating() && !getInterleaved()) {
    int64_t memoryOps = 0;
    getBody().walk([&](Operation *op) {
      memoryOps += isa<LoadFragmentOp, CopyToSharedOp>(op);
    });
    if (memoryOps > 1)
      return emitOpError() << "is 'alternating' but not 'interleaved' with "
                           << memoryOps
                           << " memory operations: they cannot both keep "
                              "their order and alternate with its MMAs";
  }
  if (failed(verifyYield(*this, getBody())))
    return failure();
  // Anything may be clustered but what separates or encloses clusters.
  Operation *offender = nullptr;
  const char *why = nullptr;
  getBody().walk([&](Operation *op) {
    why = whyNotInCluster(op);
    if (!why)
      return WalkResult::advance();
    offender = op;
    return WalkResult::interrupt();
  });
  if (!offender)
    return success();
  if (isBarrier(offender))
    return emitOpError("cannot hold a barrier: clusters are separated by "
                       "barriers")
               .attachNote(offender->getLoc())
           << "barrier here";
  InFlightDiagnostic diag =
      emitOpError() << "cannot hold '" << offender->getName() << "': " << why;
  diag.attachNote(offender->getLoc()) << "here";
  return diag;
}

LogicalResult StaggerOp::verify() {
  if (failed(verifyYield(*this, getBody())))
    return failure();
  if ((*this)->getParentOfType<StaggerOp>())
    return emitOpError("cannot be nested in another hk.stagger: two phase "
                       "offsets would pair the wrong intervals");
  WalkResult result = getBody().walk([&](Operation *op) {
    if (isa<StaggerOp>(op))
      return WalkResult(op->emitOpError(
          "cannot be nested in another hk.stagger: two phase offsets would "
          "pair the wrong intervals"));
    // hk.barrier verifies itself; upstream barriers get the same rule here.
    if (isBarrier(op) && !isa<BarrierOp>(op) &&
        failed(verifyUniformBarrier(op)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}
