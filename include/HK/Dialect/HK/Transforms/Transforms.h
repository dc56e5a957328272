//===- Transforms.h - hk transformations ------------------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The transformations behind the hk passes, callable without a pass.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_TRANSFORMS_TRANSFORMS_H
#define HK_DIALECT_HK_TRANSFORMS_TRANSFORMS_H

#include "HK/Dialect/HK/Analysis/KVLoop.h"
#include "HK/Dialect/HK/Analysis/MemoryOps.h"
#include "HK/Dialect/HK/Utils/WorkgroupOrder.h"

#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "mlir/Support/LogicalResult.h"

#include <utility>

namespace mlir {
class LLVMTypeConverter;
class OpBuilder;
namespace gpu {
class GPUFuncOp;
} // namespace gpu
namespace scf {
class ForOp;
} // namespace scf
namespace hk {
class AllocSharedOp;
class CopyToSharedOp;
class LoadFragmentOp;
struct ChipInfo;

/// Rewrites `kernel` to take each memref argument as a global pointer plus
/// one i32 per dynamic dimension and dynamic stride (see
/// hk-lower-kernel-abi). `converter` gives the memref descriptor layout the
/// later lowering will use.
LogicalResult lowerKernelAbi(gpu::GPUFuncOp kernel,
                             const LLVMTypeConverter &converter);

/// The slots of a double-buffered loop, inside its body: the one computed
/// from and the one prefetched into.
struct MultiBufferedLoop {
  Value slot, otherSlot;
};

/// Double-buffers the shared tiles filled in `loop` (see hk-multi-buffer).
/// Returns std::nullopt, with a remark on the loop saying why, when the
/// loop does not have the expected form, and failure after emitting an
/// error when it cannot be done (the LDS budget).
/// With `deferRegisterFills`, a fill through registers runs in every
/// iteration with deferred stores.
FailureOr<std::optional<MultiBufferedLoop>>
multiBufferLoop(scf::ForOp loop, bool deferRegisterFills = false);

/// Emits at `b`'s position the index arithmetic of the XCD order
/// (WorkgroupOrder.h) and returns the (row, col) of the tile that workgroup
/// (`x`, `y`) of a `gridX` x `gridY` grid computes; operations on constants
/// are folded, so constant operands give constants.
std::pair<Value, Value> emitXcdOrderTile(OpBuilder &b, Location loc, Value x,
                                         Value y, Value gridX, Value gridY,
                                         const XcdOrder &order);

/// Gives `kernel`'s workgroups the XCD order (see hk-remap-workgroups): the
/// uses of `gpu.block_id x` and `y` become the tile column and row of
/// `order`. Emits an error and fails on reads of the workgroup id it cannot
/// redirect; a remark when `gpu.block_id z` is left as it is.
LogicalResult remapWorkgroups(gpu::GPUFuncOp kernel, const XcdOrder &order);

/// Replaces the `gpu.grid_dim` ops of `kernel` with the sizes its
/// `hk.launch` gives the grid (see hk-lower-grid-dims). Without `hk.launch`
/// they are kept, with a remark.
LogicalResult lowerGridDims(gpu::GPUFuncOp kernel);

} // namespace hk
} // namespace mlir

#endif // HK_DIALECT_HK_TRANSFORMS_TRANSFORMS_H
