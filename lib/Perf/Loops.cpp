//===- Loops.cpp - the loops of an instruction stream ---------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements finding the loops of an instruction stream from its
// branch targets and cutting one out as a loop body.
//
//===----------------------------------------------------------------------===//

#include "HK/Perf/Loops.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <map>

using namespace llvm;

namespace mlir::hk::perf {

/// The header's label if the stream has one there, else its offset.
static std::string nameLoop(const isa::InstructionStream &stream,
                            unsigned header) {
  for (const isa::Label &label : stream.labels)
    if (label.index == header)
      return label.name;
  return "0x" + utohexstr(stream.instructions[header].address, true);
}

/// Whether control reaches instruction `to` from `from`: a branch back to
/// an instruction is a loop only then, since the backend also places blocks
/// after the code they return to (hk-report's rule, AssemblyLoop.cpp).
static bool reaches(const isa::InstructionStream &stream, unsigned from,
                    unsigned to) {
  const std::vector<isa::Instruction> &code = stream.instructions;
  std::vector<bool> seen(code.size(), false);
  SmallVector<unsigned> work = {from};
  while (!work.empty()) {
    unsigned i = work.pop_back_val();
    if (i >= code.size() || seen[i])
      continue;
    if (i == to)
      return true;
    seen[i] = true;
    const isa::Instruction &instr = code[i];
    StringRef mnemonic = instr.mnemonic;
    if (instr.branchTarget)
      work.push_back(*instr.branchTarget);
    if (mnemonic == "s_branch" || mnemonic == "s_endpgm" ||
        mnemonic.starts_with("s_setpc"))
      continue;
    work.push_back(i + 1);
  }
  return false;
}

std::vector<StreamLoop> findStreamLoops(const isa::InstructionStream &stream) {
  // header -> last branch back to it.
  std::map<unsigned, unsigned> backEdges;
  for (const isa::Instruction &instr : stream.instructions)
    if (instr.branchTarget && *instr.branchTarget <= instr.index &&
        reaches(stream, *instr.branchTarget, instr.index)) {
      unsigned &last = backEdges[*instr.branchTarget];
      last = std::max(last, instr.index);
    }
  std::vector<StreamLoop> loops;
  for (auto [header, backEdge] : backEdges) {
    StreamLoop loop;
    loop.name = nameLoop(stream, header);
    loop.header = header;
    loop.backEdge = backEdge;
    for (unsigned i = header; i <= backEdge; ++i)
      loop.matrixInstructions +=
          stream.instructions[i].cls == isa::InstrClass::Matrix;
    loops.push_back(std::move(loop));
  }
  return loops;
}

std::string describeStreamLoops(ArrayRef<StreamLoop> loops) {
  if (loops.empty())
    return "none";
  return join(map_range(loops,
                        [](const StreamLoop &loop) {
                          return loop.name + " (" +
                                 std::to_string(loop.matrixInstructions) +
                                 " matrix)";
                        }),
              ", ");
}

Expected<StreamLoop> findMainStreamLoop(ArrayRef<StreamLoop> loops) {
  // As hk-report: most matrix instructions; of loops with as many, the
  // innermost of a nest, else the first (a peeled remainder loop follows
  // the main one).
  const StreamLoop *best = nullptr;
  for (const StreamLoop &loop : loops) {
    bool inside =
        best && loop.header > best->header && loop.backEdge <= best->backEdge;
    if (loop.matrixInstructions &&
        (!best || loop.matrixInstructions > best->matrixInstructions ||
         (loop.matrixInstructions == best->matrixInstructions && inside)))
      best = &loop;
  }
  if (!best)
    return createStringError("no loop with a matrix instruction (loops: " +
                             describeStreamLoops(loops) + ")");
  return *best;
}

Expected<StreamLoop> findStreamLoop(ArrayRef<StreamLoop> loops,
                                    StringRef name) {
  for (const StreamLoop &loop : loops)
    if (loop.name == name)
      return loop;
  return createStringError("no loop '" + name +
                           "' (loops: " + describeStreamLoops(loops) + ")");
}

bool entersStaggered(const isa::InstructionStream &stream,
                     const StreamLoop &loop) {
  for (unsigned i = 0; i < loop.header; ++i) {
    const isa::Instruction &branch = stream.instructions[i];
    if (branch.cls != isa::InstrClass::Branch || !branch.branchTarget ||
        *branch.branchTarget <= i || *branch.branchTarget > loop.header ||
        !StringRef(branch.mnemonic).starts_with("s_cbranch"))
      continue;
    for (unsigned j = i + 1; j < *branch.branchTarget; ++j)
      if (stream.instructions[j].cls == isa::InstrClass::Barrier)
        return true;
  }
  return false;
}

isa::InstructionStream extractLoop(const isa::InstructionStream &stream,
                                   const StreamLoop &loop) {
  isa::InstructionStream body;
  body.target = stream.target;
  body.context = stream.context;
  for (unsigned i = loop.header; i <= loop.backEdge; ++i) {
    isa::Instruction instr = stream.instructions[i];
    instr.index = i - loop.header;
    if (instr.branchTarget && (*instr.branchTarget < loop.header ||
                               *instr.branchTarget > loop.backEdge))
      instr.branchTarget.reset();
    else if (instr.branchTarget)
      *instr.branchTarget -= loop.header;
    body.instructions.push_back(std::move(instr));
  }
  for (const isa::Label &label : stream.labels)
    if (label.index >= loop.header && label.index <= loop.backEdge)
      body.labels.push_back({label.name, label.index - loop.header});
  return body;
}

} // namespace mlir::hk::perf
