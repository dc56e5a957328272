//===- LdsSynchronization.cpp - proof of LDS synchronisation --------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Every kernel is run abstractly (LdsTrace.h) for a range of its dynamic
// sizes, and the events of each run are checked against the dependency rules
// of ScheduleWaits.h, each slot of each shared tile a region of its own: a
// read needs its fill completed and published by a barrier, a fill needs the
// reads of the data it replaces completed before a barrier it follows.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Analysis/LdsSynchronization.h"

#include "HK/Dialect/HK/Analysis/LdsTrace.h"
#include "HK/Dialect/HK/IR/HKDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/STLExtras.h"

#include <numeric>
#include <set>

#define DEBUG_TYPE "hk-verify-lds"

using namespace mlir;
using namespace mlir::hk;

/// The extent unit: sizes are tried at multiples of it (and just off
/// them), so that every loop over a size sees whole and partial trips. It
/// is the lcm of the kernel's constant loop steps, divisors and
/// divisibility terms.
static int64_t extentUnit(gpu::GPUFuncOp kernel, LaunchAttr launch) {
  int64_t unit = 1;
  auto join = [&](int64_t v) {
    if (v > 1 && v <= (1 << 16))
      unit = std::min<int64_t>(std::lcm(unit, v), 1 << 16);
  };
  if (launch)
    for (const SizeTerm &term : launch.getDivisible())
      join(term.factor);
  kernel.walk([&](Operation *op) {
    APInt v;
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      if (matchPattern(loop.getStep(), m_ConstantInt(&v)))
        join(v.getSExtValue());
      return;
    }
    if (isa<arith::DivSIOp, arith::DivUIOp, arith::CeilDivSIOp,
            arith::CeilDivUIOp, arith::FloorDivSIOp, arith::RemSIOp,
            arith::RemUIOp>(op) &&
        matchPattern(op->getOperand(1), m_ConstantInt(&v)))
      join(v.getSExtValue());
  });
  return unit;
}

/// The size assignments to verify: every (argument, dimension) the kernel
/// reads with memref.dim gets t * unit + r, for t < `multiples` and r in
/// {0, 1, 16, unit - 1}, rounded up to the divisibility the kernel declares.
static std::vector<std::map<std::pair<unsigned, int64_t>, int64_t>>
chooseExtents(gpu::GPUFuncOp kernel, unsigned multiples) {
  auto launch =
      kernel->getAttrOfType<LaunchAttr>(HKDialect::getLaunchAttrName());
  std::map<std::pair<unsigned, int64_t>, int64_t> factor;
  kernel.walk([&](memref::DimOp dim) {
    std::optional<int64_t> index = dim.getConstantIndex();
    if (!index)
      return;
    // An argument's dimension, or those a memref.collapse_shape of it groups.
    Value source = dim.getSource();
    SmallVector<int64_t> dims = {*index};
    if (auto collapse = source.getDefiningOp<memref::CollapseShapeOp>()) {
      dims = llvm::to_vector(collapse.getReassociationIndices()[*index]);
      source = collapse.getSrc();
    }
    auto arg = dyn_cast<BlockArgument>(source);
    if (arg && arg.getOwner() == &kernel.getBody().front())
      for (int64_t d : dims)
        factor[{arg.getArgNumber(), d}] = 1;
  });
  // A strided argument's modelled strides are products of its sizes.
  kernel.walk([&](memref::ExtractStridedMetadataOp metadata) {
    auto arg = dyn_cast<BlockArgument>(metadata.getSource());
    if (arg && arg.getOwner() == &kernel.getBody().front())
      for (int64_t d = 0; d < cast<MemRefType>(arg.getType()).getRank(); ++d)
        factor.try_emplace({arg.getArgNumber(), d}, 1);
  });
  if (launch)
    for (const SizeTerm &term : launch.getDivisible()) {
      auto it = factor.find({unsigned(term.arg), term.dim});
      if (it != factor.end())
        it->second = std::lcm(it->second, term.factor);
    }
  int64_t unit = extentUnit(kernel, launch);
  std::set<std::map<std::pair<unsigned, int64_t>, int64_t>> runs;
  for (int64_t t = 0; t < multiples; ++t)
    // 16 past a multiple: rows of whole 16-byte chunks (8- and 16-bit
    // elements) with a partial tile, where a peeled main loop and its
    // remainder both run.
    for (int64_t r :
         {int64_t(0), int64_t(1), std::min<int64_t>(16, unit - 1), unit - 1}) {
      std::map<std::pair<unsigned, int64_t>, int64_t> extents;
      for (auto [key, f] : factor)
        extents[key] = llvm::divideCeil(t * unit + r, f) * f;
      runs.insert(extents);
    }
  return {runs.begin(), runs.end()};
}

/// The workgroup-uniform inputs loop bounds and branch conditions read:
/// gpu.block_id dimensions and integer kernel arguments (a runtime flag),
/// which the runs must fix for the control flow to be known.
static void findUniformInputs(gpu::GPUFuncOp kernel,
                              std::set<unsigned> &blockDims,
                              std::set<unsigned> &scalarArgs) {
  Block &entry = kernel.getBody().front();
  SmallVector<Value> work;
  llvm::DenseSet<Value> seen;
  kernel.walk([&](Operation *op) {
    if (auto loop = dyn_cast<scf::ForOp>(op))
      work.append({loop.getLowerBound(), loop.getUpperBound(), loop.getStep()});
    else if (auto branch = dyn_cast<scf::IfOp>(op))
      work.push_back(branch.getCondition());
  });
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == &entry && isa<IntegerType>(arg.getType()))
        scalarArgs.insert(arg.getArgNumber());
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (auto id = dyn_cast<gpu::BlockIdOp>(def))
      blockDims.insert(unsigned(id.getDimension()));
    else if (def->getNumRegions() == 0)
      work.append(def->operand_begin(), def->operand_end());
  }
}

namespace {
/// Values of the uniform inputs for one run.
struct UniformChoice {
  std::map<unsigned, int64_t> blockIds, scalars;
};
} // namespace

/// The values the runs give those inputs for one choice of extents: each
/// scalar 0 and 1 (one that sets the grid, one and three workgroups), each
/// block id 0 and the grid's last (0 and 1 without a grid term); every
/// combination. None when the grid is empty.
static std::vector<UniformChoice>
chooseUniforms(gpu::GPUFuncOp kernel, const std::set<unsigned> &blockDims,
               const std::set<unsigned> &scalarArgs,
               const std::map<std::pair<unsigned, int64_t>, int64_t> &extents) {
  auto launch =
      kernel->getAttrOfType<LaunchAttr>(HKDialect::getLaunchAttrName());
  std::vector<UniformChoice> runs(1);
  auto branch = [&](bool isBlockId, unsigned key, ArrayRef<int64_t> values) {
    std::vector<UniformChoice> next;
    for (const UniformChoice &run : runs)
      for (int64_t v : values) {
        next.push_back(run);
        (isBlockId ? next.back().blockIds : next.back().scalars)[key] = v;
      }
    runs = std::move(next);
  };
  // No workgroup runs on an empty grid: nothing to check.
  if (launch)
    for (const SizeTerm &term : launch.getGrid())
      if (auto it = extents.find({unsigned(term.arg), term.dim});
          it != extents.end() && term.divide(it->second) == 0)
        return {};
  // A scalar that sets the grid (a persistent kernel's workgroup count):
  // one workgroup, and three.
  auto gridTerm = [&](unsigned arg) -> const SizeTerm * {
    if (launch)
      for (const SizeTerm &term : launch.getGrid())
        if (term.arg == int64_t(arg))
          return &term;
    return nullptr;
  };
  for (unsigned arg : scalarArgs) {
    if (const SizeTerm *term = gridTerm(arg))
      branch(/*isBlockId=*/false, arg, {term->factor, 3 * term->factor});
    else
      branch(/*isBlockId=*/false, arg, {0, 1});
  }
  // Each block id: 0 and the grid's last.
  for (unsigned dim : blockDims) {
    std::vector<UniformChoice> next;
    for (const UniformChoice &run : runs) {
      int64_t last = 1;
      if (launch && dim < launch.getGrid().size() &&
          launch.getGrid()[dim].arg >= 0 &&
          launch.getGrid()[dim].arg < int64_t(kernel.getNumArguments())) {
        const SizeTerm &term = launch.getGrid()[dim];
        auto type =
            dyn_cast<MemRefType>(kernel.getArgument(term.arg).getType());
        std::optional<int64_t> size;
        if (auto it = extents.find({unsigned(term.arg), term.dim});
            it != extents.end())
          size = it->second;
        else if (auto it = run.scalars.find(term.arg); it != run.scalars.end())
          size = it->second;
        else if (type && !type.isDynamicDim(term.dim))
          size = type.getDimSize(term.dim);
        last = size ? std::max<int64_t>(term.divide(*size) - 1, 0) : 1;
      }
      for (int64_t v : {int64_t(0), last}) {
        next.push_back(run);
        next.back().blockIds[dim] = v;
        if (last == 0)
          break;
      }
    }
    runs = std::move(next);
  }
  return runs;
}

namespace {
/// Turns a violation of one run into a diagnostic at the ops involved.
class RaceReport {
public:
  RaceReport(const LdsTrace &trace, const LdsTraceInput &input)
      : trace(trace), input(input) {}

  void emit(const SyncViolation &v) const {
    if (v.event < 0) {
      InFlightDiagnostic diag = gpu::GPUFuncOp(input.kernel).emitError()
                                << "LDS race: " << v.message;
      if (input.groups == 2)
        diag.attachNote() << "wave group 0 is the early waves of the "
                             "hk.stagger, wave group 1 the late ones";
      noteSizes(diag);
      return;
    }
    const SyncEvent &ev = event(v.group, v.event);
    Operation *op = trace.origins[ev.tag];
    bool isRead = ev.kind == SyncEvent::Kind::Read;
    InFlightDiagnostic diag = op->emitError() << "LDS race: ";
    diag << (isRead ? "this read of " : "this fill of ") << "slot "
         << trace.slots[ev.region].slot << " of a shared tile";
    const SyncEvent *other =
        v.otherEvent >= 0 ? &event(v.otherGroup, v.otherEvent) : nullptr;
    Operation *otherOp = other ? trace.origins[other->tag] : nullptr;
    // A fill racing with a fill: the slot's previous contents came under
    // the other counter (direct-to-LDS loads against LDS stores).
    bool afterFill = !isRead && other && other->kind == SyncEvent::Kind::Fill;
    // The event this one depends on: a fill (RAW, WAW) or a read (WAR).
    bool onFill = isRead || afterFill;
    if (afterFill)
      diag << " may land before " << whose(v.otherGroup, v.group)
           << " earlier fill of it, made "
           << (other->counter == SyncEvent::Counter::vm
                   ? "by direct-to-LDS loads"
                   : "by LDS stores")
           << ", whose writes are not ordered with this one's";
    else if (isRead && ev.generation < 0)
      diag << " comes before any fill of that slot: it reads what no wave "
              "wrote";
    else if (isRead)
      diag << " may run before " << whose(v.otherGroup, v.group)
           << " fill of it has landed";
    else
      diag << " may overwrite it while " << whose(v.otherGroup, v.group)
           << " read of the data it replaces is still running";
    int barrierGroup =
        v.missing == SyncViolation::Missing::wait ? v.otherGroup : v.group;
    Operation *barrier =
        v.barrierEvent >= 0
            ? trace.origins[event(barrierGroup, v.barrierEvent).tag]
            : nullptr;
    switch (v.missing) {
    case SyncViolation::Missing::barrier:
      diag << ": no barrier orders "
           << (isRead      ? "the fill before this read"
               : afterFill ? "the earlier fill before this one"
                           : "the read before this fill");
      break;
    case SyncViolation::Missing::wait: {
      bool vm = v.counter == SyncEvent::Counter::vm;
      diag << ": " << (onFill ? "the fill's " : "the read's ")
           << (vm       ? "direct-to-LDS loads (vmcnt)"
               : onFill ? "LDS stores (lgkmcnt)"
                        : "LDS loads (lgkmcnt)")
           << " are not waited for before the barrier that must "
           << (isRead ? "publish them" : "release the slot")
           << "; a wait before it such as amdgpu.memory_counter_wait "
           << (vm ? "load(" : "ds(") << v.covering << ") covers it";
      break;
    }
    case SyncViolation::Missing::other:
      if (ev.generation >= 0)
        diag << ": " << v.message;
      break;
    }
    if (otherOp)
      diag.attachNote(otherOp->getLoc())
          << (onFill ? "the fill" : "the read") << " of slot "
          << trace.slots[ev.region].slot << " it races with";
    if (barrier)
      diag.attachNote(barrier->getLoc())
          << (v.missing == SyncViolation::Missing::wait
                  ? "the barrier the wait must precede"
                  : "the last barrier before it");
    diag.attachNote(trace.slots[ev.region].alloc->getLoc())
        << "the shared tile";
    noteSizes(diag);
  }

private:
  const SyncEvent &event(int group, int index) const {
    return trace.groups[group][index];
  }

  std::string whose(int other, int self) const {
    if (input.groups == 1)
      return "other waves'";
    std::string group = other == 1 ? "late" : "early";
    return "the " + group + " waves' (hk.stagger)";
  }

  void noteSizes(InFlightDiagnostic &diag) const {
    std::string sizes;
    for (auto [key, value] : input.extents)
      sizes += (sizes.empty() ? "" : ", ") +
               ("arg" + std::to_string(key.first)) + "[" +
               std::to_string(key.second) + "] = " + std::to_string(value);
    for (auto [dim, id] : input.blockIds)
      sizes += (sizes.empty() ? "" : ", ") + std::string("block_id ") +
               "xyz"[dim] + " = " + std::to_string(id);
    for (auto [arg, value] : input.scalars)
      sizes += (sizes.empty() ? "" : ", ") + ("arg" + std::to_string(arg)) +
               " = " + std::to_string(value);
    diag.attachNote(gpu::GPUFuncOp(input.kernel).getLoc())
        << "found with the kernel's sizes "
        << (sizes.empty() ? std::string("(none dynamic)") : sizes);
  }

  const LdsTrace &trace;
  const LdsTraceInput &input;
};
} // namespace

LogicalResult mlir::hk::verifyLdsSynchronization(gpu::GPUFuncOp kernel,
                                                 unsigned multiples) {
  FailureOr<const ChipInfo *> chip = resolveChip(kernel);
  if (failed(chip))
    return failure();
  DenseI32ArrayAttr block = kernel.getKnownBlockSizeAttr();
  if (!block)
    return kernel.emitError()
           << "hk-verify-lds needs the workgroup size "
              "(known_block_size = array<i32: x, y, z>) to count each wave's "
              "LDS operations";
  FailureOr<Operation *> stagger = findStagger(kernel, **chip);
  if (failed(stagger))
    return failure();
  LdsTraceInput input;
  input.kernel = kernel;
  input.chip = *chip;
  input.threads = int64_t(block[0]) * block[1] * block[2];
  input.groups = *stagger ? 2 : 1;
  LdsTraceMemo memo;
  input.memo = &memo;
  std::set<unsigned> blockDims, scalarArgs;
  findUniformInputs(kernel, blockDims, scalarArgs);
  for (auto &extents : chooseExtents(kernel, multiples)) {
    input.extents = extents;
    for (UniformChoice &choice :
         chooseUniforms(kernel, blockDims, scalarArgs, extents)) {
      input.blockIds = std::move(choice.blockIds);
      input.scalars = std::move(choice.scalars);
      LdsTrace trace;
      if (failed(buildLdsTrace(input, trace)))
        return failure();
      std::optional<SyncViolation> violation =
          findSyncViolation({trace.groups}, /*slots=*/1, trace.waits);
      if (violation) {
        RaceReport(trace, input).emit(*violation);
        return failure();
      }
    }
  }
  return success();
}
