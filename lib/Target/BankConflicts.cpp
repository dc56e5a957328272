//===- BankConflicts.cpp - static LDS bank conflicts of tile accesses -----===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the static conflict analysis of BankConflicts.h. The
// addresses are those the lowering of hk.load_fragment and hk.copy_to_shared
// computes, relative to the start of the tile's slot: conflict ways are
// invariant under a common 4-byte-aligned shift of every lane's address (it
// rotates the banks, mapping distinct words to distinct words), and the LDS
// base of a tile and the start of each slot are such shifts (16-byte
// aligned), so neither the slot nor where the tile is allocated matters.
//
//===----------------------------------------------------------------------===//

#include "HK/Target/BankConflicts.h"

#include "HK/Dialect/HK/Utils/AccessPlan.h"
#include "HK/Target/LdsBanks.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <optional>

using namespace mlir::hk;

/// The ds_read/ds_write mnemonic of `bytes` per lane.
static std::string dsMnemonic(bool write, unsigned bytes) {
  if (bytes >= 4)
    return llvm::formatv("ds_{0}_b{1}", write ? "write" : "read", bytes * 8);
  // Sub-dword reads zero-extend into a VGPR.
  return llvm::formatv("ds_{0}{1}", write ? "write_b" : "read_u", bytes * 8);
}

/// The direct-to-LDS buffer load of `bytes` per lane.
static std::string directMnemonic(unsigned bytes) {
  switch (bytes) {
  case 1:
    return "buffer_load_ubyte ... lds";
  case 2:
    return "buffer_load_ushort ... lds";
  case 4:
    return "buffer_load_dword ... lds";
  default:
    return llvm::formatv("buffer_load_dwordx{0} ... lds", bytes / 4);
  }
}

namespace {
/// Collects placements per instruction kind, keeping kinds in first-use
/// order.
struct Collector {
  const ChipInfo &chip;
  std::vector<LdsInstrConflicts> kinds;

  LdsInstrConflicts &kind(const std::string &mnemonic, unsigned bytes) {
    for (LdsInstrConflicts &k : kinds)
      if (k.mnemonic == mnemonic)
        return k;
    kinds.push_back({mnemonic, bytes});
    return kinds.back();
  }

  /// One placement of an instruction at these per-lane byte addresses.
  void add(LdsInstrConflicts &k,
           const std::vector<std::optional<uint64_t>> &addresses) {
    unsigned ways = getLdsConflictWays(chip, k.bytes, addresses);
    k.worstWays = std::max(k.worstWays, ways);
    ++k.placementsByWays[ways];
  }
};
} // namespace

std::vector<LdsInstrConflicts>
mlir::hk::getFragmentLoadConflicts(const ChipInfo &chip, const TileLayout &tile,
                                   const FragmentAccess &access) {
  FragmentShape shape = getFragmentShape(access.layout, access.fragment);
  Collector collect{chip, {}};
  std::vector<std::optional<uint64_t>> addresses(shape.waveSize);
  if (access.transposed) {
    unsigned bytes = kTransposedReadElems * tile.elementBytes;
    LdsInstrConflicts &k = collect.kind("ds_read_b64_tr_b16", bytes);
    k.perWave += 2 * access.fragments;
    // A fragment's k runs along the tile's rows, its m (or n) along columns.
    for (int64_t r0 = 0; r0 + shape.cols <= tile.rows; r0 += shape.cols)
      for (int64_t c0 = 0; c0 + shape.rows <= tile.cols; c0 += shape.rows)
        for (int64_t s = 0; s < 2; ++s) {
          for (int64_t lane = 0; lane < shape.waveSize; ++lane) {
            Coord c =
                transposedReadSource(access.layout, access.fragment, lane, s);
            addresses[lane] =
                tile.physicalOffset(r0 + c.row, c0 + c.col) * tile.elementBytes;
          }
          collect.add(k, addresses);
        }
    return collect.kinds;
  }
  std::vector<Run> runs =
      planFragmentAccess(access.layout, access.fragment, tile);
  for (Run run : runs) {
    unsigned bytes = run.length * tile.elementBytes;
    LdsInstrConflicts &k = collect.kind(dsMnemonic(false, bytes), bytes);
    k.perWave += access.fragments;
    // Each fragment of the load sits at a fragment-aligned position.
    for (int64_t r0 = 0; r0 + shape.rows <= tile.rows; r0 += shape.rows)
      for (int64_t c0 = 0; c0 + shape.cols <= tile.cols; c0 += shape.cols) {
        for (int64_t lane = 0; lane < shape.waveSize; ++lane) {
          Coord c = getFragmentElement(access.layout, access.fragment, lane,
                                       run.first);
          addresses[lane] =
              tile.physicalOffset(r0 + c.row, c0 + c.col) * tile.elementBytes;
        }
        collect.add(k, addresses);
      }
  }
  return collect.kinds;
}

/// A transposing copy: block b of a thread holds tile rows (b / colBlocks)
/// * vec + j and columns (b % colBlocks) * run .. + run - 1; one ds_write
/// per j.
static std::vector<LdsInstrConflicts>
getTransposedFillConflicts(const ChipInfo &chip, const TileLayout &tile,
                           const FillAccess &access, int64_t vec,
                           int64_t waves) {
  int64_t run = kTransposedCopyRun;
  int64_t blocks = tile.numElements() / (vec * run);
  int64_t colBlocks = tile.cols / run;
  unsigned bytes = run * tile.elementBytes;
  Collector collect{chip, {}};
  LdsInstrConflicts &k = collect.kind(dsMnemonic(true, bytes), bytes);
  k.perWave += blocks / access.threads * vec;
  std::vector<std::optional<uint64_t>> addresses(chip.waveSize);
  for (int64_t it = 0; it < blocks / access.threads; ++it)
    for (int64_t w = 0; w < waves; ++w)
      for (int64_t j = 0; j < vec; ++j) {
        for (int64_t lane = 0; lane < chip.waveSize; ++lane) {
          int64_t thread = w * chip.waveSize + lane;
          if (thread >= access.threads) {
            addresses[lane] = std::nullopt;
            continue;
          }
          int64_t block = it * access.threads + thread;
          addresses[lane] = tile.physicalOffset((block / colBlocks) * vec + j,
                                                (block % colBlocks) * run) *
                            tile.elementBytes;
        }
        collect.add(k, addresses);
      }
  return collect.kinds;
}

std::vector<LdsInstrConflicts>
mlir::hk::getFillConflicts(const ChipInfo &chip, const TileLayout &tile,
                           const FillAccess &access) {
  int64_t vec = access.chunkBytes / tile.elementBytes;
  int64_t chunks = tile.numElements() / vec;
  int64_t iterations = chunks / access.threads;
  int64_t waves = (access.threads + chip.waveSize - 1) / chip.waveSize;
  if (access.transposed)
    return getTransposedFillConflicts(chip, tile, access, vec, waves);
  int64_t chunksPerRow = tile.cols / vec;
  // Register path: one ds_write per run of the chunk; direct: the chunk
  // itself, lane-linear from the wave's slice of the iteration.
  std::vector<Run> runs =
      access.direct ? std::vector<Run>{{0, vec}} : planChunkAccess(tile, vec);
  Collector collect{chip, {}};
  std::vector<std::optional<uint64_t>> addresses(chip.waveSize);
  for (Run run : runs) {
    unsigned bytes = run.length * tile.elementBytes;
    LdsInstrConflicts &k = collect.kind(
        access.direct ? directMnemonic(bytes) : dsMnemonic(true, bytes), bytes);
    k.perWave += iterations;
    for (int64_t it = 0; it < iterations; ++it)
      for (int64_t w = 0; w < waves; ++w) {
        for (int64_t lane = 0; lane < chip.waveSize; ++lane) {
          int64_t thread = w * chip.waveSize + lane;
          int64_t chunk = it * access.threads + thread;
          if (thread >= access.threads) {
            addresses[lane] = std::nullopt;
            continue;
          }
          addresses[lane] =
              access.direct ? chunk * access.chunkBytes
                            : tile.physicalOffset(chunk / chunksPerRow,
                                                  (chunk % chunksPerRow) * vec +
                                                      run.first) *
                                  tile.elementBytes;
        }
        collect.add(k, addresses);
      }
  }
  return collect.kinds;
}
