//===- AssemblyLoop.cpp - the main loop of AMDGPU assembly ----------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements findLoops and findMainLoop: a line scan of the backend's
// assembly for labels and the branches that jump back to them, and the
// instruction classes of the loop's body.
//
//===----------------------------------------------------------------------===//

#include "HK/Report/AssemblyLoop.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace llvm;
using namespace mlir::hk;

std::string mlir::hk::classifyInstruction(StringRef mnemonic,
                                          StringRef operands) {
  auto startsWithAny = [&](std::initializer_list<StringRef> prefixes) {
    return llvm::any_of(prefixes,
                        [&](StringRef p) { return mnemonic.starts_with(p); });
  };
  if (startsWithAny({"v_mfma", "v_smfmac", "v_wmma", "v_swmmac"}))
    return "mma";
  bool isLoad = startsWithAny({"buffer_load", "global_load", "flat_load"});
  // Loads to LDS: `buffer_load_dwordx4 v1, s[4:7], s2 offen lds` (cache
  // bits may follow `lds`) or the global_load_lds_* forms.
  SmallVector<StringRef> tokens;
  SplitString(operands, tokens, " \t,");
  if (isLoad && (mnemonic.starts_with("global_load_lds") ||
                 llvm::is_contained(tokens, "lds")))
    return "direct_lds_load";
  if (isLoad)
    return "global_load";
  if (startsWithAny({"buffer_store", "global_store", "flat_store"}))
    return "global_store";
  // Values moving between lanes: DPP forms, permlanes, and the LDS-pipe
  // permutes (which take no LDS space but count in lgkmcnt).
  if (mnemonic.contains("_dpp") ||
      startsWithAny({"v_permlane", "ds_swizzle", "ds_bpermute", "ds_permute"}))
    return "cross_lane";
  if (startsWithAny({"ds_read", "ds_load"}))
    return "lds_read";
  if (startsWithAny({"ds_write", "ds_store"}))
    return "lds_write";
  if (mnemonic.starts_with("s_barrier"))
    return "barrier";
  if (startsWithAny({"s_waitcnt", "s_wait_"}))
    return "wait";
  if (mnemonic == "s_setprio")
    return "setprio";
  if (mnemonic.starts_with("s_"))
    return "salu";
  // The quarter-rate VALU ops (attention's exp2 is v_exp_f32).
  if (startsWithAny({"v_exp_", "v_log_", "v_rcp_", "v_rsq_", "v_sqrt_",
                     "v_sin_", "v_cos_"}))
    return "transcendental";
  if (mnemonic.starts_with("v_"))
    return "valu";
  return "other";
}

int64_t AssemblyLoop::count(StringRef instrClass) const {
  auto it = mix.find(instrClass.str());
  if (it == mix.end())
    return 0;
  int64_t total = 0;
  for (const auto &[mnemonic, n] : it->second)
    total += n;
  return total;
}

namespace {
/// One line of assembly: a label definition, an instruction, or neither.
struct Line {
  StringRef label;
  StringRef mnemonic, operands;
};
} // namespace

static Line parseLine(StringRef text) {
  Line line;
  text = text.split(';').first;
  if (!text.empty() && !isSpace(text.front())) {
    // `name:` at the start of a line.
    StringRef head = text.rtrim();
    if (head.ends_with(":"))
      line.label = head.drop_back();
    return line;
  }
  text = text.trim();
  if (text.empty() || text.front() == '.')
    return line; // directive
  size_t end = text.find_first_of(" \t");
  line.mnemonic = text.take_front(end);
  line.operands = end == StringRef::npos ? "" : text.drop_front(end).trim();
  return line;
}

static bool isBranch(StringRef mnemonic) {
  return mnemonic == "s_branch" || mnemonic.starts_with("s_cbranch");
}

std::vector<AssemblyLoop> mlir::hk::findLoops(StringRef assembly) {
  SmallVector<StringRef> lines;
  assembly.split(lines, '\n');
  std::vector<Line> parsed;
  StringMap<unsigned> labelLine;
  for (auto [i, text] : llvm::enumerate(lines)) {
    parsed.push_back(parseLine(text));
    if (!parsed.back().label.empty())
      labelLine[parsed.back().label] = i;
  }
  // True if control reaches line `to` from line `from`: a branch back to a
  // label is a loop only then (the backend also places blocks after the
  // code they return to).
  auto reaches = [&](unsigned from, unsigned to) {
    std::vector<bool> seen(parsed.size(), false);
    SmallVector<unsigned> work = {from};
    while (!work.empty()) {
      unsigned i = work.pop_back_val();
      if (i >= parsed.size() || seen[i])
        continue;
      if (i == to)
        return true;
      seen[i] = true;
      const Line &line = parsed[i];
      if (isBranch(line.mnemonic)) {
        auto it = labelLine.find(line.operands);
        if (it != labelLine.end())
          work.push_back(it->second);
        if (line.mnemonic == "s_branch")
          continue;
      }
      if (line.mnemonic == "s_endpgm" || line.mnemonic == "s_setpc_b64")
        continue;
      work.push_back(i + 1);
    }
    return false;
  };
  // header line -> last line branching back to it.
  std::map<unsigned, unsigned> loops;
  for (auto [i, line] : llvm::enumerate(parsed)) {
    if (!isBranch(line.mnemonic))
      continue;
    auto it = labelLine.find(line.operands);
    if (it != labelLine.end() && it->second < i && reaches(it->second, i))
      loops[it->second] = std::max<unsigned>(loops[it->second], i);
  }

  std::vector<AssemblyLoop> found;
  for (auto [first, last] : loops) {
    AssemblyLoop &loop = found.emplace_back();
    loop.header = parsed[first].label.str();
    loop.firstLine = first + 1;
    loop.lastLine = last + 1;
    for (unsigned i = first + 1; i <= last; ++i) {
      const Line &line = parsed[i];
      if (line.mnemonic.empty())
        continue;
      std::string instrClass =
          classifyInstruction(line.mnemonic, line.operands);
      loop.instructions.push_back(
          {(line.mnemonic + (line.operands.empty() ? "" : " ") + line.operands)
               .str(),
           instrClass});
      ++loop.mix[instrClass][line.mnemonic.str()];
    }
  }
  return found;
}

/// The loops' header labels, comma-separated, or "none".
static std::string listHeaders(ArrayRef<AssemblyLoop> loops) {
  std::string headers;
  for (const AssemblyLoop &loop : loops)
    headers += (headers.empty() ? "" : ", ") + loop.header;
  return headers.empty() ? "none" : headers;
}

Expected<AssemblyLoop> mlir::hk::findMainLoop(ArrayRef<AssemblyLoop> loops) {
  // Most MMAs; of loops with as many, the innermost of a nest (a range
  // inside the other), else the first (a peeled remainder loop follows
  // the main one).
  const AssemblyLoop *best = nullptr;
  for (const AssemblyLoop &loop : loops) {
    int64_t mmas = loop.count("mma");
    bool inside = best && loop.firstLine > best->firstLine &&
                  loop.lastLine <= best->lastLine;
    if (mmas > 0 && (!best || mmas > best->count("mma") ||
                     (mmas == best->count("mma") && inside)))
      best = &loop;
  }
  if (!best)
    return createStringError(inconvertibleErrorCode(),
                             "no loop with an MMA instruction in the "
                             "assembly (loops: " +
                                 listHeaders(loops) + ")");
  return *best;
}

Expected<AssemblyLoop> mlir::hk::findMainLoop(StringRef assembly) {
  return findMainLoop(findLoops(assembly));
}

Expected<AssemblyLoop> mlir::hk::findLoop(ArrayRef<AssemblyLoop> loops,
                                          StringRef header) {
  for (const AssemblyLoop &loop : loops)
    if (loop.header == header)
      return loop;
  return createStringError(inconvertibleErrorCode(),
                           "no loop with header '" + header +
                               "' (loops: " + listHeaders(loops) + ")");
}

Expected<std::string> mlir::hk::keepKernel(StringRef assembly,
                                           StringRef kernel) {
  SmallVector<StringRef> lines;
  assembly.split(lines, '\n');
  std::string out, kernels;
  bool inside = false, found = false;
  for (StringRef line : lines) {
    StringRef trimmed = line.trim();
    // A function starts at its label (`name:`) after `.type name,@function`.
    if (trimmed.consume_front(".type") && trimmed.contains("@function")) {
      StringRef name = trimmed.trim().split(',').first.trim();
      kernels += (kernels.empty() ? "" : ", ") + name.str();
    }
    if (line.trim() == (kernel + ":").str()) {
      inside = found = true;
    } else if (inside && line.starts_with(".Lfunc_end")) {
      out += line.str() + "\n";
      inside = false;
      continue;
    }
    out += (inside ? line.str() : std::string()) + "\n";
  }
  if (!found)
    return createStringError(inconvertibleErrorCode(),
                             "no kernel named '" + kernel +
                                 "' (its kernels: " + kernels + ")");
  out.pop_back();
  return out;
}
