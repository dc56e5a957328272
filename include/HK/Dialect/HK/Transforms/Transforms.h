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

/// The shared tiles `kv` fills, when each can take a second slot: it has
/// one, is filled and read (by fragment loads only) in slot 0, and the LDS
/// has room for the second slots. std::nullopt, with `why` set, when the
/// policy does not hold; failure, after an error naming `pass`, when the
/// LDS is too small.
FailureOr<std::optional<SmallVector<AllocSharedOp>>>
checkSecondSlots(scf::ForOp loop, const KVLoop &kv, StringRef pass,
                 std::string &why);

/// Emits at `b` the fill section of `kv` (its copies and the pure ops
/// feeding them) for induction value `iv`, the copies into `slot`.
void emitFill(OpBuilder &b, const KVLoop &kv, Value iv, Value slot);

/// Emits `amdgpu.memory_counter_wait load(0)`: every load the wave issued,
/// direct-to-LDS fills included, is complete.
void emitWaitForLoads(OpBuilder &b, Location loc);

/// Double-buffers the shared tiles filled in `loop` (see hk-multi-buffer).
/// Returns std::nullopt, with a remark on the loop saying why, when the
/// loop does not have the expected form, and failure after emitting an
/// error when it cannot be done (the LDS budget).
FailureOr<std::optional<MultiBufferedLoop>> multiBufferLoop(scf::ForOp loop);

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

/// Emits at `b`'s position the wave's first thread id,
/// `rocdl.readfirstlane(i32(threadIdX) & -waveSize)`: a scalar. hk.stagger's
/// condition reads it, and hk-rematerialize-after-loops rebuilds thread ids
/// after loops from it (reusing one emitted before the loop: readfirstlanes
/// are not merged by CSE, and each would take an SGPR through the loop).
Value emitWaveFirstThreadId(OpBuilder &b, Location loc, Value threadIdX,
                            int64_t waveSize);

} // namespace hk
} // namespace mlir

#endif // HK_DIALECT_HK_TRANSFORMS_TRANSFORMS_H
