//===- KVLoop.h - the one analysis of a K/V loop ----------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A K/V loop is the loop every hk kernel streams through: each trip fills
// shared tiles from global memory, publishes them with a barrier, reads
// fragments of them, multiplies and does elementwise work (a GEMM's K loop,
// attention's KV loop), and ends with a barrier before the next trip
// overwrites the tiles. This analysis takes such a loop apart once, and the
// passes that change it (hk-multi-buffer, hk-direct-lds-fill,
// hk-raise-mma-priority, hk-schedule-ping-pong, hk-schedule-interleave)
// each apply their own requirements to what it found: the analysis is the
// mechanism, the passes are the policies.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_ANALYSIS_KVLOOP_H
#define HK_DIALECT_HK_ANALYSIS_KVLOOP_H

#include "HK/Dialect/HK/IR/HKDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <utility>

namespace mlir::hk {

/// A shared tile the loop fills, with what the loop does to it.
struct KVTile {
  AllocSharedOp alloc;
  /// The copies of the fill section that fill it, in program order.
  SmallVector<CopyToSharedOp> fills;
  /// The fragment loads of it anywhere in the loop, in program order.
  SmallVector<LoadFragmentOp> reads;
  /// A use in the loop that is neither one of `fills` nor a fragment load
  /// (null if none).
  Operation *otherUse = nullptr;
};

/// A synchronous K/V loop taken apart:
///
///   scf.for ... {
///     <fill section: hk.copy_to_shared, the pure ops feeding them, waits>
///     <fill barrier>                  // publishes the tiles
///     <compute section: fragment loads, register reads, MMAs,
///      elementwise work>
///     <end barrier>                   // the tiles may be overwritten
///   }
struct KVLoop {
  scf::ForOp loop;
  /// The fill section's ops but its waits, in program order.
  SmallVector<Operation *> fillSection;
  /// The `amdgpu.memory_counter_wait`s of the fill section.
  SmallVector<Operation *> fillWaits;
  Operation *fillBarrier = nullptr;
  /// The ops strictly between the two barriers, in program order.
  SmallVector<Operation *> computeSection;
  Operation *endBarrier = nullptr;
  /// The copies of the fill section, in program order.
  SmallVector<CopyToSharedOp> copies;
  /// The tiles the copies fill, in order of their first copy.
  llvm::MapVector<Operation *, KVTile> tiles;
  /// The compute section's MMAs (top level, in program order).
  SmallVector<MmaOp> mmas;
  /// The compute section's reads of global memory into registers
  /// (hk.read_fragment: an MXFP8 GEMM's block scales), in program order.
  SmallVector<ReadFragmentOp> registerReads;
  /// The compute section's other ops, neither fragment loads, register
  /// reads nor MMAs (softmax, masks, rescales, address arithmetic), by the
  /// MMAs before them: [0] before the first MMA, [c + 1] after MMA c;
  /// mmas.size() + 1 lists.
  SmallVector<SmallVector<Operation *>> elementwise;
  /// Per MMA: the fragment loads of the loop body its operands come from
  /// that no MMA before it uses, in program order.
  SmallVector<SmallVector<LoadFragmentOp>> firstReads;
  /// Per register read: the first MMA that depends on it, or mmas.size().
  SmallVector<int> registerReadFirstMma;
  /// The elementwise work before the first MMA that depends on the loop
  /// only through the register reads (block scales arranged for the MFMA),
  /// in program order: a schedule that reads registers a tile ahead can run
  /// it a tile ahead too.
  SmallVector<Operation *> earlyWork;

  /// The tile `alloc` is, or null if the loop does not fill it.
  const KVTile *getTile(Operation *alloc) const {
    auto it = tiles.find(alloc);
    return it == tiles.end() ? nullptr : &it->second;
  }
};

/// The ops of `loop`'s body that `root` depends on through operands,
/// `root` included, in the order found.
llvm::SetVector<Operation *> getBodySlice(scf::ForOp loop, Operation *root);

/// Takes `loop` apart, or says why it is not a synchronous K/V loop (the
/// reason reads after "the loop is not a K/V loop: ").
llvm::Expected<KVLoop> analyzeKVLoop(scf::ForOp loop);

/// The MMA phase of a loop body in any form (synchronous, double-buffered,
/// scheduled): the first and last top-level ops of `body` that are or hold
/// a fragment load or an MMA; nullopt when there is none.
std::optional<std::pair<Operation *, Operation *>> findMmaPhase(Block &body);

/// The barrier that publishes what `op` writes to LDS: the first workgroup
/// barrier executed after it, in its block or, past its end, after the ops
/// enclosing it (up to the function); null if there is none.
Operation *findPublishingBarrier(Operation *op);

/// Whether `loop` is a remainder loop (marked `hk.remainder` by
/// hk-peel-partial-tiles or hk-split-loops): the schedule passes keep it in
/// program order.
bool isRemainderLoop(scf::ForOp loop);

/// The loops of `root` that fill shared tiles (hold an hk.copy_to_shared
/// at the top level of their body) and are not remainder loops, which the
/// schedule passes keep in program order.
SmallVector<scf::ForOp> collectKVLoops(Operation *root);

} // namespace mlir::hk

#endif // HK_DIALECT_HK_ANALYSIS_KVLOOP_H
