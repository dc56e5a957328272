//===- LdsBanks.h - LDS bank-conflict model ---------------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Which lanes of a wave an LDS access services together, and how many ways
// it conflicts. LDS has `ChipInfo::ldsBanks` banks of 4 bytes; an access is
// serviced in phases, each a fixed set of lanes; within a phase, lanes that
// touch different 4-byte words of the same bank conflict (the same word is
// broadcast). The one copy of the model: the simulator counts the accesses
// it executes with it, hk-check-bank-conflicts predicts them with it
// (BankConflicts.h). The phases of each access width:
//
//   gfx950 (64 banks; AMD, see docs/Hardware.md#lds-banks):
//     16 bytes: {0-3, 12-15, 20-23, 24-27}, the same + 32,
//               {4-11, 16-19, 28-31}, the same + 32
//     8 bytes:  {0-31}, {32-63};   4 bytes or less: {0-63}
//   gfx1201 (32 banks; measured on RX 9070 XT, nod-ai/amd-shark-ai
//   docs/empirical-lds/rdna4info.md):
//     16 bytes: {0-7}, {8-15}, {16-23}, {24-31}
//     8 bytes:  {0-15}, {16-31};   4 bytes or less: {0-31}
//
//===----------------------------------------------------------------------===//

#ifndef HK_TARGET_LDSBANKS_H
#define HK_TARGET_LDSBANKS_H

#include "HK/Target/Chip.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace mlir::hk {

/// The lane sets serviced together by an access of `bytes` per lane.
std::vector<std::vector<unsigned>> getLdsPhases(const ChipInfo &chip,
                                                unsigned bytes);

/// The worst number of distinct words that one bank serves within one phase
/// (1: conflict-free) for an access of `bytes` per lane at the byte
/// addresses of the lanes (nullopt: lane inactive); 0 if no lane is active.
unsigned
getLdsConflictWays(const ChipInfo &chip, unsigned bytes,
                   const std::vector<std::optional<uint64_t>> &addresses);

} // namespace mlir::hk

#endif // HK_TARGET_LDSBANKS_H
