//===- LdsBanks.cpp - LDS bank-conflict model -----------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the LDS phase and bank-conflict model of
// LdsBanks.h.
//
//===----------------------------------------------------------------------===//

#include "HK/Target/LdsBanks.h"

#include <algorithm>
#include <map>
#include <set>

using namespace mlir::hk;

static std::vector<unsigned>
lanesOf(std::initializer_list<std::pair<unsigned, unsigned>> ranges,
        unsigned offset = 0) {
  std::vector<unsigned> lanes;
  for (auto [first, last] : ranges)
    for (unsigned l = first; l <= last; ++l)
      lanes.push_back(l + offset);
  return lanes;
}

std::vector<std::vector<unsigned>> mlir::hk::getLdsPhases(const ChipInfo &chip,
                                                          unsigned bytes) {
  unsigned wave = chip.waveSize;
  if (bytes <= 4)
    return {lanesOf({{0, wave - 1}})};
  if (bytes <= 8)
    return {lanesOf({{0, wave / 2 - 1}}), lanesOf({{wave / 2, wave - 1}})};
  if (chip.chip == Chip::gfx950) {
    auto even = {
        std::pair<unsigned, unsigned>{0, 3}, {12, 15}, {20, 23}, {24, 27}};
    auto odd = {std::pair<unsigned, unsigned>{4, 11}, {16, 19}, {28, 31}};
    return {lanesOf(even), lanesOf(even, 32), lanesOf(odd), lanesOf(odd, 32)};
  }
  std::vector<std::vector<unsigned>> phases;
  for (unsigned first = 0; first < wave; first += wave / 4)
    phases.push_back(lanesOf({{first, first + wave / 4 - 1}}));
  return phases;
}

unsigned mlir::hk::getLdsConflictWays(
    const ChipInfo &chip, unsigned bytes,
    const std::vector<std::optional<uint64_t>> &addresses) {
  unsigned worst = 0;
  for (const std::vector<unsigned> &phase : getLdsPhases(chip, bytes)) {
    std::map<uint64_t, std::set<uint64_t>> wordsPerBank;
    for (unsigned lane : phase) {
      if (lane >= addresses.size() || !addresses[lane])
        continue;
      for (uint64_t word = *addresses[lane] / 4;
           word * 4 < *addresses[lane] + bytes; ++word)
        wordsPerBank[word % chip.ldsBanks].insert(word);
    }
    for (auto &[bank, words] : wordsPerBank)
      worst = std::max<unsigned>(worst, words.size());
  }
  return worst;
}
