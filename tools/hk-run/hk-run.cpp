//===- hk-run.cpp - run an hk kernel and check its results ----------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Compiles an hk kernel, runs it on the CPU simulator from the LLVM IR the
// AMDGPU backend would compile, or on a GPU, and checks its results. The
// options choose the workload: a GEMM (GemmWorkload.h, the default),
// attention (--attention, AttentionWorkload.h) or any kernel on .npy
// arguments (--arg, GenericRun.h):
//
//   hk-run examples/gemm_bf16_gfx950.mlir --chip=gfx950 --size=256,256,128 \
//       --test=random
//
// Exit status: 0 PASS, 1 FAIL, 2 bad input or a simulation error.
//
//===----------------------------------------------------------------------===//

#include "HK/Harness/AttentionWorkload.h"
#include "HK/Harness/GemmWorkload.h"
#include "HK/Harness/GenericRun.h"
#include "HK/Harness/Options.h"

#include "HK/InitAllDialects.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::hk;
using namespace mlir::hk::run;

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (int status = parseCommandLine(argc, argv, llvm::errs()))
    return status;
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  // A pass error names its op by location; the op's text after it (62 lines
  // for a one-line error) is for compiler developers, who have hk-opt.
  context.printOpOnDiagnostic(false);
  if (!genericArgs.empty())
    return runGeneric(context);
  if (!attentionSizes.empty())
    return runAttentionWorkload(context);
  return runGemmWorkload(context);
}
