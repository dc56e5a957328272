//===- ScheduleLowering.cpp - lowering the hk schedule ops ----------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the lowering of hk.barrier, hk.cluster and hk.stagger
// to upstream ops: a barrier without memory waits (wavefront fences around
// rocdl.s.barrier), clusters as sched_barrier-fenced code at a priority,
// and the phase offset as two conditional barriers.
//
//===----------------------------------------------------------------------===//

#include "HK/Conversion/HKToAMDGPU/HKToAMDGPU.h"
#include "HK/Dialect/HK/IR/HKDialect.h"
#include "LoweringSupport.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::hk;

/// A barrier that waits for no memory counter: the wavefront-scope fences
/// cost no wait (a workgroup-scope one would drain vmcnt whenever an LDS DMA
/// is in flight) but keep LLVM from moving memory operations across it.
static void emitExecutionBarrier(OpBuilder &b, Location loc) {
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::release, "wavefront");
  ROCDL::SBarrierOp::create(b, loc);
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acquire, "wavefront");
}

static Operation *emitSchedFence(OpBuilder &b, Location loc) {
  return amdgpu::SchedBarrierOp::create(
      b, loc,
      amdgpu::sched_barrier_opt_enumAttr::get(
          b.getContext(), amdgpu::sched_barrier_opt_enum::none));
}

/// Marks the opening fence of an alternating cluster until its body is
/// lowered and its instructions can be counted.
constexpr StringLiteral kAlternatingMark = "hk.alternating_cluster";

/// Moves the body of `op` before it and replaces `op` by what it yields.
static void inlineBody(ConversionPatternRewriter &rewriter, Operation *op,
                       Region &body) {
  Block &block = body.front();
  auto yield = cast<YieldOp>(block.getTerminator());
  SmallVector<Value> values(yield.getValues());
  rewriter.eraseOp(yield);
  rewriter.inlineBlockBefore(&block, op);
  rewriter.replaceOp(op, values);
}

namespace {
struct BarrierLowering : OpConversionPattern<BarrierOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BarrierOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    emitExecutionBarrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

struct ClusterLowering : OpConversionPattern<ClusterOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ClusterOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int32_t priority = op.getPriority();
    Operation *fence = emitSchedFence(rewriter, loc);
    if (op.getAlternating())
      fence->setAttr(kAlternatingMark, rewriter.getUnitAttr());
    if (priority != 0)
      ROCDL::SetPrioOp::create(rewriter, loc,
                               rewriter.getI16IntegerAttr(priority));
    // Memory ops issue in program order: a wait after the cluster counts
    // them in that order.
    Block &block = op.getBody().front();
    Operation *previousMemoryOp = nullptr;
    for (Operation &inner : block.without_terminator()) {
      if (op.getInterleaved() ||
          !isa<LoadFragmentOp, ReadFragmentOp, CopyToSharedOp>(inner))
        continue;
      if (previousMemoryOp) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPoint(&inner);
        emitSchedFence(rewriter, inner.getLoc());
      }
      previousMemoryOp = &inner;
    }
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointAfter(op);
      if (priority != 0)
        ROCDL::SetPrioOp::create(rewriter, loc, rewriter.getI16IntegerAttr(0));
      emitSchedFence(rewriter, loc);
    }
    inlineBody(rewriter, op, op.getBody());
    return success();
  }
};

struct StaggerLowering : OpConversionPattern<StaggerOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(StaggerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto conditionalBarrier = [&](Value condition) {
      auto branch = scf::IfOp::create(rewriter, loc, condition,
                                      /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(branch.thenBlock()->getTerminator());
      emitExecutionBarrier(rewriter, loc);
    };
    conditionalBarrier(adaptor.getLate());
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointAfter(op);
      Value early = arith::XOrIOp::create(
          rewriter, loc, adaptor.getLate(),
          arith::ConstantIntOp::create(rewriter, loc, rewriter.getI1Type(), 1));
      conditionalBarrier(early);
    }
    inlineBody(rewriter, op, op.getBody());
    return success();
  }
};
} // namespace

// The instruction classes of llvm.amdgcn.sched.group.barrier's mask.
constexpr int32_t kGroupMfma = 0x8;
constexpr int32_t kGroupVmem = 0x10;
constexpr int32_t kGroupDsRead = 0x100;

/// Whether `op`, after the conversion, reads LDS into registers (from a
/// tile's memref, or through an LDS window's register).
static bool isLdsRead(Operation *op) {
  if (auto load = dyn_cast<LLVM::LoadOp>(op))
    return cast<LLVM::LLVMPointerType>(load.getAddr().getType())
               .getAddressSpace() == hk::detail::kLdsAddressSpace;
  auto load = dyn_cast<vector::LoadOp>(op);
  return load && gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(
                     cast<MemRefType>(load.getBase().getType()));
}

void mlir::hk::emitAlternatingClusterGroups(Operation *root) {
  SmallVector<Operation *> fences;
  root->walk([&](amdgpu::SchedBarrierOp fence) {
    if (fence->removeAttr(kAlternatingMark))
      fences.push_back(fence);
  });
  for (Operation *fence : fences) {
    // The body runs to the closing fence: an alternating cluster has no
    // fence between memory ops. Its memory instructions' classes are kept in
    // program order, as the backend keeps them (an LDS DMA may write what a
    // later read reads).
    int64_t mfmas = 0;
    SmallVector<int32_t> memory;
    Operation *insertAfter = fence;
    for (Operation *op = fence->getNextNode();
         op && !isa<amdgpu::SchedBarrierOp>(op); op = op->getNextNode()) {
      if (isa<ROCDL::SetPrioOp>(op) && insertAfter == fence)
        insertAfter = op;
      op->walk([&](Operation *inner) {
        if (isa<amdgpu::MFMAOp, amdgpu::ScaledMFMAOp>(inner))
          ++mfmas;
        else if (isLdsRead(inner))
          memory.push_back(kGroupDsRead);
        else if (isa<ROCDL::RawPtrBufferLoadLdsOp, ROCDL::RawPtrBufferStoreOp,
                     ROCDL::RawPtrBufferAtomicFaddOp>(inner))
          memory.push_back(kGroupVmem);
      });
    }
    if (memory.empty())
      continue;
    OpBuilder b(insertAfter->getContext());
    b.setInsertionPointAfter(insertAfter);
    Location loc = fence->getLoc();
    auto group = [&](int32_t mask) {
      ROCDL::SchedGroupBarrier::create(b, loc, mask, /*size=*/1,
                                       /*groupId=*/0);
    };
    // One MFMA, then one memory instruction: each memory instruction issues
    // in an MFMA's shadow; what the MFMAs cannot cover follows them.
    size_t next = 0;
    for (int64_t i = 0; i < mfmas; ++i) {
      group(kGroupMfma);
      if (next < memory.size())
        group(memory[next++]);
    }
    for (; next < memory.size(); ++next)
      group(memory[next]);
  }
}

void mlir::hk::populateHKScheduleLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<BarrierLowering, ClusterLowering, StaggerLowering>(
      converter, patterns.getContext());
}
