//===- Loops.h - the loops of an instruction stream -------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Finds the loops of a decoded kernel by its branch targets (a loop is the
// target of a backward branch and the instructions up to the last branch
// back to it), the main one among them as hk-report finds it in assembly
// text (the loop with the most matrix instructions, in a nest the
// innermost), and cuts a loop out as the body hk-perf times. LLVM and the
// ISA layer only.
//
//===----------------------------------------------------------------------===//

#ifndef HK_PERF_LOOPS_H
#define HK_PERF_LOOPS_H

#include "HK/Isa/Isa.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::hk::perf {

/// One loop of a stream: the indices of its header and of its last branch
/// back to the header (the body includes both).
struct StreamLoop {
  /// The header's label, or for a code object (which keeps no labels) its
  /// byte offset in .text in hex, as llvm-objdump prints it: "0x5a0".
  std::string name;
  unsigned header = 0, backEdge = 0;
  unsigned matrixInstructions = 0;

  unsigned size() const { return backEdge - header + 1; }
};

/// Every loop of `stream`, in the order of their headers: an instruction a
/// later branch jumps back to, when control from it reaches that branch.
std::vector<StreamLoop> findStreamLoops(const isa::InstructionStream &stream);

/// The loop with the most matrix instructions (of those with as many, the
/// innermost of a nest, else the first), as hk-report's findMainLoop. An error
/// listing the loops when none has a matrix instruction.
llvm::Expected<StreamLoop> findMainStreamLoop(llvm::ArrayRef<StreamLoop> loops);

/// The loop named `name` (StreamLoop::name); an error listing the loops.
llvm::Expected<StreamLoop> findStreamLoop(llvm::ArrayRef<StreamLoop> loops,
                                          llvm::StringRef name);

/// The loops' names with their matrix instructions, for messages:
/// "0x1c0 (0 matrix), 0x5a0 (128 matrix)", or "none".
std::string describeStreamLoops(llvm::ArrayRef<StreamLoop> loops);

/// Whether the waves of `stream` enter `loop` staggered by one barrier, as
/// hk's and HipKittens' ping-pong kernels do: before the loop, a forward
/// conditional branch skips a barrier, so that half the waves arrive at it
/// and the rest go on (docs/hardware/TimingModel.md#barriers).
bool entersStaggered(const isa::InstructionStream &stream,
                     const StreamLoop &loop);

/// `loop`'s instructions of `stream` as a stream of their own (indices,
/// branch targets inside the loop and labels renumbered; targets outside
/// it dropped): the loop body hk-perf times.
isa::InstructionStream extractLoop(const isa::InstructionStream &stream,
                                   const StreamLoop &loop);

} // namespace mlir::hk::perf

#endif // HK_PERF_LOOPS_H
