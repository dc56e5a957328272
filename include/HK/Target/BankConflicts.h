//===- BankConflicts.h - static LDS bank conflicts of accesses --*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The LDS conflict ways of the accesses hk lowers tile ops to, computed
// without running anything: for a fragment load or a fill of a shared tile,
// the per-lane byte address of every LDS instruction the lowering emits
// (convert-hk-to-amdgpu: the runs of AccessPlan.h at the tile's swizzled and
// permuted offsets), fed to the bank model of LdsBanks.h at every position
// the access can take. These are the figures the simulator measures on the
// compiled kernel, so hk-check-bank-conflicts can bound them at compile time.
//
//===----------------------------------------------------------------------===//

#ifndef HK_TARGET_BANKCONFLICTS_H
#define HK_TARGET_BANKCONFLICTS_H

#include "HK/Dialect/HK/Utils/AccessPlan.h"
#include "HK/Dialect/HK/Utils/LaneLayout.h"
#include "HK/Target/Chip.h"

#include <map>
#include <string>
#include <vector>

namespace mlir::hk {

/// The conflicts of one kind of LDS instruction an access issues.
struct LdsInstrConflicts {
  /// ISA spelling, e.g. "ds_read_b128" or "buffer_load_dwordx4 ... lds".
  std::string mnemonic;
  /// Bytes each lane reads or writes.
  unsigned bytes = 0;
  /// Instructions of this kind one wave issues for the access.
  int64_t perWave = 0;
  /// The worst conflict ways over every lane and position.
  unsigned worstWays = 0;
  /// Ways -> how many (position, instruction) placements have them.
  std::map<unsigned, int64_t> placementsByWays;
};

/// A fragment load of `fragments` fragments of `fragment` under `layout` (one
/// LDS instruction per run of the lane's part of each fragment).
struct FragmentAccess {
  MmaLayout layout;
  FragmentLayout fragment;
  int64_t fragments = 1;
  /// From a K-major tile with gfx950's transposed reads (two
  /// ds_read_b64_tr_b16 per fragment, at transposedReadSource).
  bool transposed = false;
};

/// A cooperative fill by `threads` threads, each moving chunks of
/// `chunkBytes` consecutive bytes of a tile row per iteration; `direct`: with
/// direct-to-LDS loads, whose LDS side is lane-linear.
struct FillAccess {
  int64_t chunkBytes = kCopyChunkBytes;
  int64_t threads = 0;
  bool direct = false;
  /// A transposing copy: blocks of kTransposedCopyRun source rows by one
  /// chunk, written as runs of kTransposedCopyRun elements of tile rows,
  /// consecutive threads along a tile row.
  bool transposed = false;
};

/// The conflicts of each kind of LDS instruction of a fragment load from
/// `tile`, worst over every fragment-aligned position in the tile (the
/// load's row and column are runtime values). Kinds in order of first use.
std::vector<LdsInstrConflicts>
getFragmentLoadConflicts(const ChipInfo &chip, const TileLayout &tile,
                         const FragmentAccess &access);

/// The conflicts of each kind of LDS instruction of a fill of `tile`, worst
/// over every iteration and wave. Requires a tile of whole chunks that
/// splits evenly over the threads (what the lowering accepts).
std::vector<LdsInstrConflicts> getFillConflicts(const ChipInfo &chip,
                                                const TileLayout &tile,
                                                const FillAccess &access);

} // namespace mlir::hk

#endif // HK_TARGET_BANKCONFLICTS_H
