//===- LowerGridDims.cpp - grid size from the launch shape ----------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements hk-lower-grid-dims: in a kernel with an `hk.launch`,
// `gpu.grid_dim` becomes the argument size the launch derives the grid
// from, so that no call into the ROCm device library is needed.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Dialect/HK/Transforms/Passes.h"
#include "HK/Dialect/HK/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

#define DEBUG_TYPE "hk-lower-grid-dims"

namespace mlir::hk {
#define GEN_PASS_DEF_LOWERGRIDDIMS
#include "HK/Dialect/HK/Transforms/Passes.h.inc"
} // namespace mlir::hk

using namespace mlir;
using namespace mlir::hk;

/// The size `term` names, as an index, at `b`'s position.
static Value emitSize(OpBuilder &b, Location loc, gpu::GPUFuncOp kernel,
                      const SizeTerm &term,
                      function_ref<Value(int64_t)> constant) {
  Value arg = kernel.getArgument(term.arg);
  if (isa<MemRefType>(arg.getType()))
    return memref::DimOp::create(b, loc, arg, constant(term.dim));
  if (arg.getType().isIndex())
    return arg;
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), arg);
}

LogicalResult mlir::hk::lowerGridDims(gpu::GPUFuncOp kernel) {
  SmallVector<gpu::GridDimOp> dims;
  kernel.walk([&](gpu::GridDimOp op) { dims.push_back(op); });
  if (dims.empty())
    return success();
  auto launch =
      kernel->getAttrOfType<LaunchAttr>(HKDialect::getLaunchAttrName());
  if (!kernel.isKernel() || !launch) {
    kernel.emitRemark()
        << "hk-lower-grid-dims: gpu.grid_dim kept in @" << kernel.getName()
        << ", which is not a kernel with 'hk.launch'; its lowering calls "
           "__ockl_get_num_groups of the ROCm device library";
    return success();
  }
  // hk.launch has been verified against the arguments: every term names a
  // memref dimension or an integer argument.
  OpBuilder b = OpBuilder::atBlockBegin(&kernel.front());
  Location loc = kernel.getLoc();
  llvm::SmallDenseMap<int64_t, Value> constants;
  auto constant = [&](int64_t v) {
    Value &c = constants[v];
    if (!c)
      c = arith::ConstantIndexOp::create(b, loc, v);
    return c;
  };
  ArrayRef<SizeTerm> grid = launch.getGrid();
  Value sizes[3];
  for (unsigned d = 0; d < 3; ++d) {
    if (d >= grid.size()) {
      sizes[d] = constant(1);
      continue;
    }
    Value size = emitSize(b, loc, kernel, grid[d], constant);
    sizes[d] = grid[d].roundUp ? b.createOrFold<arith::CeilDivUIOp>(
                                     loc, size, constant(grid[d].factor))
                               : b.createOrFold<arith::DivUIOp>(
                                     loc, size, constant(grid[d].factor));
  }
  for (gpu::GridDimOp op : dims) {
    op.replaceAllUsesWith(sizes[static_cast<unsigned>(op.getDimension())]);
    op.erase();
  }
  return success();
}

namespace {
struct LowerGridDimsPass : hk::impl::LowerGridDimsBase<LowerGridDimsPass> {
  using LowerGridDimsBase::LowerGridDimsBase;

  void runOnOperation() override {
    for (auto func : getOperation().getOps<gpu::GPUFuncOp>())
      if (failed(lowerGridDims(func)))
        return signalPassFailure();
  }
};
} // namespace
