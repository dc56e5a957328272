//===- SimControlFlow.cpp - sim: control flow and divergence --------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the control flow of the `sim` interpreter
// (SimInterpreter.h): stepping a wave through its instructions (the dispatch
// to LaneOpVisitor), branches (which split the execution mask) and returns,
// jumps between blocks with the per-lane evaluation of PHIs, and
// reconvergence of divergent paths at the branch's immediate post-dominator.
//
//===----------------------------------------------------------------------===//

#include "SimInterpreter.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace mlir::hk;
using namespace mlir::hk::sim;
using namespace mlir::hk::sim::detail;

Error Interpreter::step(Wave &wave) {
  const Instruction &inst = *wave.pc;
  if (++wave.steps > config.stepLimit)
    return error(wave, inst,
                 formatv("step limit of {0} wave instructions reached",
                         config.stepLimit));
  ++counters.waveInstructions;
  counters.laneInstructions += wave.active.size();
  ++classCounts[instructionClass.lookup(&inst)];
  ++wave.pc;
  // InstVisitor's switch on the opcode, inlined here.
  return LaneOpVisitor(*this, wave).visit(const_cast<Instruction &>(inst));
}

Error LaneOpVisitor::visitBranchInst(BranchInst &br) {
  if (!br.isConditional() || br.getSuccessor(0) == br.getSuccessor(1))
    return sim.jump(wave, br.getSuccessor(0));
  uint64_t taken = 0;
  for (unsigned lane : wave.active)
    if (*operand(br.getCondition(), lane) & 1)
      taken |= uint64_t(1) << lane;
  uint64_t notTaken = wave.mask & ~taken;
  if (notTaken == 0)
    return sim.jump(wave, br.getSuccessor(0));
  if (taken == 0)
    return sim.jump(wave, br.getSuccessor(1));
  // Divergence: run the taken lanes to the branch's immediate
  // post-dominator, then the others, then merge.
  auto *node = sim.postDominators->getNode(wave.block);
  const BasicBlock *meet =
      node && node->getIDom() ? node->getIDom()->getBlock() : nullptr;
  for (unsigned lane : wave.active)
    wave.from[lane] = wave.block;
  wave.divergences.push_back({meet, br.getSuccessor(1), notTaken, wave.mask});
  wave.setMask(taken);
  if (br.getSuccessor(0) == meet)
    return sim.reconverge(wave);
  sim.enterBlock(wave, br.getSuccessor(0));
  return Error::success();
}

Error LaneOpVisitor::visitReturnInst(ReturnInst &) {
  wave.exited |= wave.mask;
  if (wave.divergences.empty()) {
    sim.waitCounters(wave, 0, 0); // what is in flight lands before the end
    wave.done = true;
    return Error::success();
  }
  return sim.reconverge(wave);
}

void Interpreter::enterBlock(Wave &wave, const BasicBlock *to) {
  // PHIs read their inputs before any of them is written; each lane takes
  // the input of the block it came from.
  // The inputs are staged in a reused buffer (no allocation or clearing
  // per block entry); only active lanes' bytes are written and read.
  size_t total = 0;
  for (const PHINode &phi : to->phis())
    total += sizeOf(phi.getType()) * lanes;
  if (phiStaging.size() < total)
    phiStaging.resize(total);
  size_t at = 0;
  for (const PHINode &phi : to->phis()) {
    unsigned bytes = sizeOf(phi.getType());
    for (unsigned lane : wave.active)
      std::memcpy(
          phiStaging.data() + at + lane * bytes,
          operand(wave, phi.getIncomingValueForBlock(wave.from[lane]), lane),
          bytes);
    at += bytes * lanes;
  }
  at = 0;
  for (const PHINode &phi : to->phis()) {
    unsigned bytes = sizeOf(phi.getType());
    for (unsigned lane : wave.active)
      std::memcpy(result(wave, &phi, lane),
                  phiStaging.data() + at + lane * bytes, bytes);
    at += bytes * lanes;
  }
  wave.block = to;
  wave.pc = to->getFirstNonPHIIt();
}

Error Interpreter::jump(Wave &wave, const BasicBlock *to) {
  for (unsigned lane : wave.active)
    wave.from[lane] = wave.block;
  if (!wave.divergences.empty() && wave.divergences.back().reconverge == to)
    return reconverge(wave);
  enterBlock(wave, to);
  return Error::success();
}

Error Interpreter::reconverge(Wave &wave) {
  while (!wave.divergences.empty()) {
    Divergence &d = wave.divergences.back();
    if (d.pending) {
      const BasicBlock *target = d.pending;
      d.pending = nullptr;
      wave.setMask(d.pendingMask);
      if (target == d.reconverge)
        continue; // an empty path: it starts at the meeting point
      enterBlock(wave, target);
      return Error::success();
    }
    const BasicBlock *meet = d.reconverge;
    uint64_t mask = d.outerMask & ~wave.exited;
    wave.divergences.pop_back();
    wave.setMask(mask);
    if (mask == 0 || !meet)
      continue; // nobody left at this level, or the paths meet at exit
    if (!wave.divergences.empty() && wave.divergences.back().reconverge == meet)
      continue; // also where the enclosing divergence ends
    enterBlock(wave, meet);
    return Error::success();
  }
  wave.done = true; // every lane has exited
  return Error::success();
}
