//===- AssemblyLoop.h - the loops of AMDGPU assembly ------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Finds the loops in the assembly the AMDGPU backend prints, the main one
// (the K loop of a GEMM) among them, and counts their instructions by
// class, so that a kernel's schedule can be read as numbers: MMAs, LDS reads
// and writes by width, global and direct-to-LDS loads by width, barriers,
// waits, priorities.
//
//===----------------------------------------------------------------------===//

#ifndef HK_REPORT_ASSEMBLYLOOP_H
#define HK_REPORT_ASSEMBLYLOOP_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace mlir::hk {

/// The class of an instruction for the mix, e.g. "mma", "lds_read",
/// "direct_lds_load", "cross_lane" (DPP, permlanes, ds_swizzle/bpermute),
/// "transcendental" (v_exp_f32, ...); "salu", "valu" or "other" for the
/// rest.
std::string classifyInstruction(llvm::StringRef mnemonic,
                                llvm::StringRef operands);

/// One instruction of a loop, as printed, and its class.
struct LoopInstruction {
  std::string text;
  std::string instrClass;
};

struct AssemblyLoop {
  /// The loop's header label, e.g. ".LBB0_4".
  std::string header;
  /// 1-based lines of the header label and of the last branch back to it.
  unsigned firstLine = 0, lastLine = 0;
  /// The instructions between them, in order, without labels, directives or
  /// comments (the input llvm-mca takes).
  std::vector<LoopInstruction> instructions;
  /// class -> mnemonic -> count, over one pass through the loop's lines.
  std::map<std::string, std::map<std::string, int64_t>> mix;

  int64_t count(llvm::StringRef instrClass) const;
};

/// Every loop of `assembly`, in the order of their headers; a loop is a
/// label and the lines up to the last branch back to it.
std::vector<AssemblyLoop> findLoops(llvm::StringRef assembly);

/// The main loop of `loops` (findLoops'): the one with the most MMA
/// instructions (in a nest, the innermost of those with as many). An error
/// listing the loops' headers if no loop has an MMA.
llvm::Expected<AssemblyLoop> findMainLoop(llvm::ArrayRef<AssemblyLoop> loops);

/// findMainLoop of findLoops(`assembly`).
llvm::Expected<AssemblyLoop> findMainLoop(llvm::StringRef assembly);

/// The loop of `loops` whose header label is `header` (e.g. a peeled loop
/// beside the main one); an error listing the loops' headers when there is
/// none.
llvm::Expected<AssemblyLoop> findLoop(llvm::ArrayRef<AssemblyLoop> loops,
                                      llvm::StringRef header);

/// `assembly` with every line outside kernel `kernel`'s function (from its
/// label to the `.Lfunc_end` label after it) left empty, so that line
/// numbers stay those of the file; an error naming the file's kernels when
/// there is no such kernel.
llvm::Expected<std::string> keepKernel(llvm::StringRef assembly,
                                       llvm::StringRef kernel);

} // namespace mlir::hk

#endif // HK_REPORT_ASSEMBLYLOOP_H
