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

#ifndef HK_HARNESS_LAUNCH_H
#define HK_HARNESS_LAUNCH_H

#include "HK/Harness/Options.h"

#include "HK/Runtime/Hip.h"
#include "HK/Runtime/Simulator.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/SourceMgr.h"

#include <array>
#include <memory>
#include <optional>
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

/// What launching needs to know of the problem a workload poses: the
/// sizes, strides and scalar values of the kernel's arguments.
class KernelArguments {
public:
  virtual ~KernelArguments() = default;
  /// Dimension `dim` of argument `arg` as the kernel sees it; none for a
  /// dimension the workload does not give.
  virtual std::optional<int64_t> extent(unsigned arg, int64_t dim) const = 0;
  /// Stride `dim` of memory argument `arg`.
  virtual std::optional<int64_t> stride(unsigned arg, int64_t dim) const = 0;
  /// The bits of scalar argument `arg`.
  virtual std::optional<uint64_t> scalarBits(unsigned arg) const = 0;
  /// True if memory argument `arg` is one of the workload's buffers (its
  /// index in the buffer list is `arg`).
  virtual bool isBuffer(unsigned arg) const = 0;
};

/// Reads the problem a workload poses to kernel `name` of argument types
/// `types` and points `arguments` at it; 0, or exit status 2 after
/// printing why the kernel cannot serve it.
using ProblemReader = llvm::function_ref<int(
    StringRef name, ArrayRef<Type> types, const KernelArguments *&arguments)>;

/// Checks the static sizes in `types` against the problem's; 0, or exit
/// status 2 after printing the first that differs.
int checkStaticExtents(StringRef kernel, ArrayRef<Type> types,
                       const KernelArguments &arguments);

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

/// Prepares the kernel of the hk source `path` (--kernel, or its only one)
/// for the problem `readProblem` poses, checked against its launch shape.
int prepareFromSource(MLIRContext &context, StringRef path,
                      ProblemReader readProblem, PreparedKernel &run,
                      Version version);

/// The same for a kernel compiled by `hk-compile --launch=<path>`.
int prepareFromLaunch(MLIRContext &context, StringRef path,
                      ProblemReader readProblem, PreparedKernel &run);

/// prepareFromLaunch for a `.json` path, else prepareFromSource.
int prepareKernel(MLIRContext &context, StringRef path,
                  ProblemReader readProblem, PreparedKernel &run,
                  Version version);

int launchKernel(const PreparedKernel &kernel,
                 std::vector<std::vector<uint8_t>> &buffers,
                 const std::vector<bool> &outputs, LaunchStats &stats);

} // namespace mlir::hk::run

#endif // HK_HARNESS_LAUNCH_H
