//===- MoeRouting.cpp - which experts the MoE workload's tokens choose ----===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the MoE workload's routing: each token's topk
// distinct experts (drawn, fixed, or read from a .npy), and the forms
// derived from them: the contiguous order (the slots sorted by expert, the
// group offsets) and the gathered index (sorted_token_ids, expert_ids).
//
//===----------------------------------------------------------------------===//

#include "HK/Harness/MoeWorkload.h"

#include "HK/Runtime/Npy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>

using namespace mlir;
using namespace mlir::hk;

namespace mlir::hk::run {

const char *stringifyMoeRoutingKind(MoeRoutingKind kind) {
  switch (kind) {
  case MoeRoutingKind::random:
    return "random";
  case MoeRoutingKind::skewed:
    return "skewed";
  case MoeRoutingKind::oneExpert:
    return "one-expert";
  case MoeRoutingKind::file:
    return "file";
  }
  return "";
}

int64_t MoeRouting::expertOf(int64_t row) const {
  // The last expert whose slots start at or before `row` (empty experts
  // before it share its offset).
  auto after = std::upper_bound(offsets.begin(), offsets.end(), row);
  return (after - offsets.begin()) - 1;
}

void sortSlotsByExpert(MoeRouting &routing) {
  int64_t experts = routing.experts, rows = routing.rows();
  routing.offsets.assign(experts + 1, 0);
  for (int32_t e : routing.choices)
    ++routing.offsets[e + 1];
  std::partial_sum(routing.offsets.begin(), routing.offsets.end(),
                   routing.offsets.begin());
  // Tokens in order, each token's choices in order: stable within an
  // expert.
  std::vector<int32_t> next(routing.offsets.begin(), routing.offsets.end() - 1);
  routing.slotToken.assign(rows, 0);
  routing.slotChoice.assign(rows, 0);
  for (int64_t t = 0; t < routing.tokens; ++t)
    for (int64_t c = 0; c < routing.topk; ++c) {
      int32_t slot = next[routing.choices[t * routing.topk + c]]++;
      routing.slotToken[slot] = t;
      routing.slotChoice[slot] = c;
    }
}

MoeAlignment alignMoeRouting(const MoeRouting &routing, int64_t blockM) {
  MoeAlignment alignment;
  alignment.blockM = blockM;
  const int32_t padding = int32_t(routing.rows());
  for (int64_t e = 0; e < routing.experts; ++e) {
    if (routing.rowsOf(e) == 0)
      continue;
    // The contiguous order is stable by token, then by choice: its slots of
    // expert e are in ascending slot order.
    for (int64_t r = routing.offsets[e]; r < routing.offsets[e + 1]; ++r)
      alignment.sortedTokenIds.push_back(
          int32_t(routing.slotToken[r] * routing.topk + routing.slotChoice[r]));
    int64_t tiles = llvm::divideCeil(routing.rowsOf(e), blockM);
    alignment.sortedTokenIds.resize(
        alignment.expertIds.size() * blockM + tiles * blockM, padding);
    alignment.expertIds.insert(alignment.expertIds.end(), tiles, int32_t(e));
  }
  if (int64_t(routing.weights.size()) == routing.rows())
    for (int32_t slot : alignment.sortedTokenIds)
      alignment.sortedWeights.push_back(slot < padding ? routing.weights[slot]
                                                       : 0.0f);
  return alignment;
}

void drawMoeWeights(MoeRouting &routing, unsigned seed) {
  std::mt19937_64 rng(seed + 4);
  std::normal_distribution<double> logit(0.0, 1.0);
  int64_t topk = routing.topk;
  routing.weights.assign(routing.rows(), 0.0f);
  std::vector<double> e(topk);
  for (int64_t t = 0; t < routing.tokens; ++t) {
    // exp(l - max) <= 1, the largest exactly 1: no overflow, sum >= 1.
    double sum = 0, top = -INFINITY;
    for (int64_t c = 0; c < topk; ++c)
      top = std::max(top, e[c] = logit(rng));
    for (int64_t c = 0; c < topk; ++c)
      sum += e[c] = std::exp(e[c] - top);
    for (int64_t c = 0; c < topk; ++c)
      routing.weights[t * topk + c] = float(e[c] / sum);
  }
}

/// Draws each token's topk distinct experts, expert e with weight
/// `weight(e)`: sampling without replacement, as successive draws among
/// the experts not yet chosen (Efraimidis and Spirakis: the topk largest
/// keys u^(1 / w), u uniform, in decreasing order; compared as ln(u) / w).
template <typename Weight>
static void drawChoices(MoeRouting &routing, unsigned seed, Weight weight) {
  std::mt19937_64 rng(seed + 2);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int64_t experts = routing.experts, topk = routing.topk;
  std::vector<std::pair<double, int32_t>> keys(experts);
  for (int64_t t = 0; t < routing.tokens; ++t) {
    for (int64_t e = 0; e < experts; ++e)
      keys[e] = {std::log(unit(rng)) / weight(e), int32_t(e)};
    std::partial_sort(keys.begin(), keys.begin() + topk, keys.end(),
                      [](const auto &x, const auto &y) {
                        return x.first > y.first ||
                               (x.first == y.first && x.second < y.second);
                      });
    for (int64_t c = 0; c < topk; ++c)
      routing.choices[t * topk + c] = keys[c].second;
  }
}

/// An expert id of an integer .npy array's data: element `i`, of `bytes`
/// bytes, signed or not (little-endian).
static int64_t readId(const NpyArray &array, int64_t i, int64_t bytes,
                      bool isSigned) {
  uint64_t raw = 0;
  std::memcpy(&raw, array.data.data() + i * bytes, bytes);
  if (isSigned && bytes < 8 && (raw >> (8 * bytes - 1)) & 1)
    raw |= ~uint64_t(0) << (8 * bytes);
  if (!isSigned && int64_t(raw) < 0)
    return -1; // beyond int64: out of range anyway
  return int64_t(raw);
}

/// Reads the choices from `path`: an integer array of shape (T, topk),
/// ids in [0, E), distinct within a token.
static llvm::Error readChoices(StringRef path, MoeRouting &routing) {
  llvm::Expected<NpyArray> array = readNpy(path);
  if (!array)
    return badInput(llvm::toString(array.takeError()));
  StringRef dtype = array->dtype;
  int64_t bytes = 0;
  bool isSigned = dtype.size() == 3 && dtype[1] == 'i';
  if (dtype.size() != 3 || (dtype[1] != 'i' && dtype[1] != 'u') ||
      dtype.drop_front(2).getAsInteger(10, bytes) ||
      !llvm::is_contained({1, 2, 4, 8}, bytes))
    return badInput(llvm::formatv("'{0}' holds {1}; --routing reads "
                                  "integer expert ids (int8 to int64, or "
                                  "uint8 to uint64)",
                                  path, dtype));
  int64_t tokens = routing.tokens, topk = routing.topk;
  if (array->shape != std::vector<int64_t>{tokens, topk})
    return badInput(llvm::formatv(
        "'{0}' has shape ({1}); --routing needs (T, topk) = ({2}, {3})", path,
        llvm::join(llvm::map_range(array->shape,
                                   [](int64_t n) { return std::to_string(n); }),
                   ", "),
        tokens, topk));
  for (int64_t t = 0; t < tokens; ++t)
    for (int64_t c = 0; c < topk; ++c) {
      int64_t id = readId(*array, t * topk + c, bytes, isSigned);
      if (id < 0 || id >= routing.experts)
        return badInput(llvm::formatv("'{0}': token {1}'s choice {2} is "
                                      "expert {3}, outside [0, {4})",
                                      path, t, c, id, routing.experts));
      for (int64_t other = 0; other < c; ++other)
        if (routing.choices[t * topk + other] == id)
          return badInput(llvm::formatv("'{0}': token {1} chooses expert "
                                        "{2} twice (choices {3} and {4})",
                                        path, t, id, other, c));
      routing.choices[t * topk + c] = int32_t(id);
    }
  return llvm::Error::success();
}

llvm::Expected<MoeRouting> makeMoeRouting(MoeRoutingKind kind, StringRef file,
                                          const MoeSizes &sizes,
                                          unsigned seed) {
  MoeRouting routing;
  routing.experts = sizes.experts;
  routing.tokens = sizes.tokens;
  routing.topk = sizes.topk;
  routing.choices.assign(sizes.rows(), 0);
  switch (kind) {
  case MoeRoutingKind::random:
    drawChoices(routing, seed, [](int64_t) { return 1.0; });
    break;
  case MoeRoutingKind::skewed:
    drawChoices(routing, seed, [](int64_t e) { return 1.0 / double(e + 1); });
    break;
  case MoeRoutingKind::oneExpert:
    for (int64_t t = 0; t < sizes.tokens; ++t)
      for (int64_t c = 0; c < sizes.topk; ++c)
        routing.choices[t * sizes.topk + c] = int32_t(c);
    break;
  case MoeRoutingKind::file:
    if (llvm::Error e = readChoices(file, routing))
      return std::move(e);
    break;
  }
  sortSlotsByExpert(routing);
  drawMoeWeights(routing, seed);
  return std::move(routing);
}

} // namespace mlir::hk::run
