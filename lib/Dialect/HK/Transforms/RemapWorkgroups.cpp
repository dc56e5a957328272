//===- RemapWorkgroups.cpp - XCD workgroup order --------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements hk-remap-workgroups: kernels compute the tiles of
// their grid in HipKittens' XCD order (chiplet chunking of the linear
// workgroup id, then grouped order) instead of the row-major one. The
// arithmetic mirrors HK/Dialect/HK/Utils/WorkgroupOrder.h, which the unit
// tests compare it with.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Transforms/Passes.h"
#include "HK/Dialect/HK/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "hk-remap-workgroups"

namespace mlir::hk {
#define GEN_PASS_DEF_REMAPWORKGROUPS
#include "HK/Dialect/HK/Transforms/Passes.h.inc"
} // namespace mlir::hk

using namespace mlir;
using namespace mlir::hk;

std::pair<Value, Value> mlir::hk::emitXcdOrderTile(OpBuilder &b, Location loc,
                                                   Value x, Value y,
                                                   Value gridX, Value gridY,
                                                   const XcdOrder &order) {
  llvm::SmallDenseMap<int64_t, Value> constants;
  auto cst = [&](int64_t v) {
    Value &c = constants[v];
    if (!c)
      c = arith::ConstantIndexOp::create(b, loc, v);
    return c;
  };
  auto mul = [&](Value l, Value r) {
    return b.createOrFold<arith::MulIOp>(loc, l, r);
  };
  auto add = [&](Value l, Value r) {
    return b.createOrFold<arith::AddIOp>(loc, l, r);
  };
  auto div = [&](Value l, Value r) {
    return b.createOrFold<arith::DivUIOp>(loc, l, r);
  };
  auto rem = [&](Value l, Value r) {
    return b.createOrFold<arith::RemUIOp>(loc, l, r);
  };

  // One value per statement: the order of the emitted ops does not depend
  // on the compiler's order of evaluating arguments.

  // The linear id, in the hardware's dispatch order.
  Value linear = add(mul(y, gridX), x);

  // Step 1, chiplet chunking: the workgroups of one XCD get `chunk`
  // consecutive ids in each full block; the tail keeps its ids.
  Value id = linear;
  if (order.xcds > 1) {
    Value count = mul(gridX, gridY);
    Value xcds = cst(order.xcds);
    Value chunk = cst(order.chunk);
    Value block = cst(order.xcds * order.chunk);
    Value xcd = rem(linear, xcds);
    Value local = div(linear, xcds);
    Value blockStart = mul(div(local, chunk), block);
    Value chunkStart = add(blockStart, mul(xcd, chunk));
    Value chunked = add(chunkStart, rem(local, chunk));
    Value limit = mul(div(count, block), block);
    Value inBlocks = b.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::ult, linear, limit);
    id = b.createOrFold<arith::SelectOp>(loc, inBlocks, chunked, linear);
  }

  // Step 2, grouped order: down groups of `groupRows` rows, column by
  // column; the last group has the rows that are left.
  Value groupRows = cst(order.groupRows);
  Value perGroup = mul(groupRows, gridX);
  Value firstRow = mul(div(id, perGroup), groupRows);
  Value rowsLeft = b.createOrFold<arith::SubIOp>(loc, gridY, firstRow);
  Value size = b.createOrFold<arith::MinUIOp>(loc, groupRows, rowsLeft);
  Value k = rem(id, perGroup);
  Value row = add(firstRow, rem(k, size));
  Value col = div(k, size);
  return {row, col};
}

/// The block ids x and y of `kernel`, or failure (with an error) on a read
/// of the workgroup id that cannot be redirected; `*usesZ` tells whether
/// block id z is read.
static LogicalResult collectBlockIds(gpu::GPUFuncOp kernel,
                                     SmallVectorImpl<gpu::BlockIdOp> &ids,
                                     bool *usesZ) {
  WalkResult walk = kernel.walk([&](Operation *op) {
    if (auto id = dyn_cast<gpu::BlockIdOp>(op)) {
      if (id.getDimension() == gpu::Dimension::z)
        *usesZ = true;
      else
        ids.push_back(id);
      return WalkResult::advance();
    }
    if (auto global = dyn_cast<gpu::GlobalIdOp>(op)) {
      if (global.getDimension() == gpu::Dimension::z)
        return WalkResult::advance();
      op->emitOpError() << "hk-remap-workgroups: global id "
                        << gpu::stringifyDimension(global.getDimension())
                        << " includes the workgroup id, which the remap "
                           "cannot redirect; compute it from gpu.block_id";
      return WalkResult::interrupt();
    }
    if (isa<ROCDL::BlockIdXOp, ROCDL::BlockIdYOp>(op)) {
      op->emitOpError() << "hk-remap-workgroups: reads the hardware "
                           "workgroup id, which the remap cannot redirect; "
                           "use gpu.block_id";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult mlir::hk::remapWorkgroups(gpu::GPUFuncOp kernel,
                                        const XcdOrder &order) {
  SmallVector<gpu::BlockIdOp> ids;
  bool usesZ = false;
  if (failed(collectBlockIds(kernel, ids, &usesZ)))
    return failure();
  if (usesZ)
    kernel.emitRemark() << "hk-remap-workgroups: block id z is left as it "
                           "is; each x-y slice of the grid is remapped on "
                           "its own";
  if (ids.empty())
    return success();

  Location loc = kernel.getLoc();
  OpBuilder b = OpBuilder::atBlockBegin(&kernel.front());
  Value x = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value y = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value gridX = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  Value gridY = gpu::GridDimOp::create(b, loc, gpu::Dimension::y);
  auto [row, col] = emitXcdOrderTile(b, loc, x, y, gridX, gridY, order);
  LLVM_DEBUG(llvm::dbgs() << "remapping " << ids.size() << " block ids of @"
                          << kernel.getName() << "\n");
  for (gpu::BlockIdOp id : ids) {
    id.replaceAllUsesWith(id.getDimension() == gpu::Dimension::x ? col : row);
    id.erase();
  }
  return success();
}

namespace {
struct RemapWorkgroupsPass
    : hk::impl::RemapWorkgroupsBase<RemapWorkgroupsPass> {
  using RemapWorkgroupsBase::RemapWorkgroupsBase;

  void runOnOperation() override {
    if (xcds < 1 || chunk < 1 || group < 1) {
      getOperation().emitError()
          << "hk-remap-workgroups: xcds, chunk and group must be at least 1, "
             "got xcds="
          << xcds.getValue() << ", chunk=" << chunk.getValue()
          << ", group=" << group.getValue();
      return signalPassFailure();
    }
    XcdOrder order{xcds, chunk, group};
    bool failedAny = false;
    for (Operation &op : getOperation().getBody()->getOperations()) {
      auto kernel = dyn_cast<gpu::GPUFuncOp>(op);
      if (kernel && kernel.isKernel()) {
        failedAny |= failed(remapWorkgroups(kernel, order));
        continue;
      }
      if (!isa<FunctionOpInterface>(op))
        continue;
      // A function called by kernels would see the hardware's order.
      op.walk([&](gpu::BlockIdOp id) {
        if (id.getDimension() == gpu::Dimension::z)
          return;
        id.emitOpError() << "hk-remap-workgroups: block id "
                         << gpu::stringifyDimension(id.getDimension())
                         << " outside a kernel cannot be remapped; pass "
                            "it from the kernel";
        failedAny = true;
      });
    }
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
