//===- Launch.h - compile and launch kernels ------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Preparing a kernel (from hk source, or from hk-compile's launch
// description) and launching it on the simulator or through HIP.
//
//===----------------------------------------------------------------------===//

#ifndef HK_TOOLS_HK_RUN_LAUNCH_H
#define HK_TOOLS_HK_RUN_LAUNCH_H

#include "GemmWorkload.h"
#include "Options.h"

#include "HK/Runtime/Hip.h"
#include "HK/Runtime/Simulator.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace mlir::hk::run {

/// A kernel ready to run: its launch shape, argument list and image (LLVM
/// bitcode or text for sim, a code object for hip).
struct AbiArgument {
  int buffer = -1;    // index of a memory argument, or -1 for a value
  uint64_t value = 0; // the value (a size, a scalar)
};
struct PreparedKernel {
  std::string name;
  std::array<int64_t, 3> grid = {1, 1, 1}, block = {1, 1, 1};
  std::vector<AbiArgument> abi;
  std::string image;
  bool imageIsBitcode = true;
  double compileSeconds = 0;
};

/// What one compile-and-run of a GEMM kernel produced.
struct GemmRun {
  std::string kernel;
  std::array<int64_t, 3> grid = {1, 1, 1};
  std::vector<uint8_t> c;
  sim::Counters counters;
  hip::Timing timing;
  double compileSeconds = 0, runSeconds = 0;
};

/// Which kernel of a run is being compiled: the one under test, or the
/// other version of --test=compare.
enum class Version { tested, compared };

/// Work counted and time taken by one launch.
struct LaunchStats {
  sim::Counters counters;
  hip::Timing timing;
  double runSeconds = 0;
};

/// An hk source parsed (with the input limits of parseCheckedSourceFile),
/// its diagnostics reported against it while it lives, and its kernel.
struct ParsedKernel {
  std::unique_ptr<llvm::SourceMgr> sourceMgr;
  std::unique_ptr<SourceMgrDiagnosticHandler> diagnostics;
  OwningOpRef<ModuleOp> module;
  /// The kernel named --kernel, or the only one; null after printing why
  /// the source does not parse or has no such kernel.
  gpu::GPUFuncOp kernel;
};

ParsedKernel parseKernel(MLIRContext &context, StringRef path);

int compileModule(MLIRContext &context, ModuleOp module,
                  PreparedKernel &run, Version version);

/// Prepares the GEMM kernel of the hk source `path` (--kernel, or its only
/// one) for the problem the options and `shape` pose, which it fills in.
int prepareFromSource(MLIRContext &context, StringRef path,
                      const GemmShape &shape, PreparedKernel &run,
                      Version version, GemmProblem &problem);

/// The same for a kernel compiled by `hk-compile --launch=<path>`.
int prepareFromLaunch(MLIRContext &context, StringRef path,
                      const GemmShape &shape, PreparedKernel &run,
                      GemmProblem &problem);

int launchKernel(const PreparedKernel &kernel,
                 std::vector<std::vector<uint8_t>> &buffers,
                 const std::vector<bool> &outputs, LaunchStats &stats);

int execute(const PreparedKernel &kernel, const GemmInputs &inputs,
            GemmRun &run);

} // namespace mlir::hk::run

#endif // HK_TOOLS_HK_RUN_LAUNCH_H
