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

#include "HK/Harness/RunConfig.h"
#include "HK/KernelAbi/LaunchDescription.h"

#include "HK/Runtime/Hip.h"
#include "HK/Runtime/Simulator.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
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
  /// The schedule it was compiled at, as run headers name it: the knobs
  /// off their defaults ("stages=2 direct-lds=true schedule=ping-pong",
  /// "synchronous" when none), then the module's own hk.schedule if it
  /// records one.
  std::string variant;
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

/// A problem whose memory arguments are dense and row-major: their extents,
/// strides and element counts follow from their shapes.
class RowMajorArguments : public KernelArguments {
public:
  /// The sizes of memory argument `arg` (none for a scalar).
  virtual std::vector<int64_t> shape(unsigned arg) const = 0;
  /// Elements of memory argument `arg`.
  int64_t elements(unsigned arg) const;

  std::optional<int64_t> extent(unsigned arg, int64_t dim) const override;
  std::optional<int64_t> stride(unsigned arg, int64_t dim) const override;
};

/// Reads the problem a workload poses to kernel `name` of argument types
/// `types` and points `arguments` at it, or fails with why the kernel
/// cannot serve it.
using ProblemReader = llvm::function_ref<llvm::Error(
    StringRef name, ArrayRef<Type> types, const KernelArguments *&arguments)>;

/// Reads what a workload needs of a kernel's hk source beyond its argument
/// types (a GEMM: how it takes A and B), before its problem is read. A
/// launch description has no source: it is not called then.
using SourceReader = llvm::function_ref<void(gpu::GPUFuncOp kernel)>;

/// The same from a launch description's entry for the kernel, which holds
/// what hk-compile read from the source (a GEMM: its operand layout).
using DescriptionReader =
    llvm::function_ref<void(const LaunchDescription::Kernel &kernel)>;

/// Fails with the first static size in `types` that differs from the
/// problem's.
llvm::Error checkStaticExtents(StringRef kernel, ArrayRef<Type> types,
                               const KernelArguments &arguments);

/// Which kernel of a run is being compiled: the one under test, or the
/// other version of TestKind::compare.
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
  /// The diagnostics, when RunConfig::diagnostics is null.
  std::unique_ptr<std::string> captured;
  std::unique_ptr<llvm::raw_string_ostream> capturedStream;
  std::unique_ptr<SourceMgrDiagnosticHandler> diagnostics;
  OwningOpRef<ModuleOp> module;
  /// The kernel named RunConfig::kernelName, or the only one.
  gpu::GPUFuncOp kernel;

  /// The error of a step whose diagnostics went to this source's handler.
  llvm::Error diagnosedError() const;
};

/// The names of the kernels the hk source or launch description (.json)
/// `path` holds, in order, or why it cannot be read.
llvm::Expected<std::vector<std::string>>
listKernels(MLIRContext &context, const RunConfig &config, StringRef path);

/// Parses the hk source `path` and selects its kernel, or fails with why.
llvm::Expected<ParsedKernel>
parseKernel(MLIRContext &context, const RunConfig &config, StringRef path);

/// Compiles `parsed` for the backend into `run.image`. The compared version
/// is the plain baseline with RunConfig::compareStages stages when that is
/// set; otherwise both get the same schedule.
llvm::Error compileModule(MLIRContext &context, const RunConfig &config,
                          ParsedKernel &parsed, PreparedKernel &run,
                          Version version);

/// Prepares the kernel of the hk source `path` for the problem
/// `readProblem` poses (after `readSource`, when given, has read the
/// kernel), checked against its launch shape.
llvm::Expected<PreparedKernel>
prepareFromSource(MLIRContext &context, const RunConfig &config, StringRef path,
                  ProblemReader readProblem, Version version,
                  SourceReader readSource = {});

/// The same for a kernel compiled by `hk-compile --launch=<path>` (after
/// `readDescription`, when given, has read the kernel's entry).
llvm::Expected<PreparedKernel>
prepareFromLaunch(MLIRContext &context, const RunConfig &config, StringRef path,
                  ProblemReader readProblem,
                  DescriptionReader readDescription = {});

/// prepareFromLaunch for a `.json` path, else prepareFromSource.
llvm::Expected<PreparedKernel>
prepareKernel(MLIRContext &context, const RunConfig &config, StringRef path,
              ProblemReader readProblem, Version version,
              SourceReader readSource = {},
              DescriptionReader readDescription = {});

/// Runs `kernel` on the backend. `buffers` are the kernel's memory arguments
/// (indexed by AbiArgument::buffer); they hold the results afterwards (on
/// hip, those marked in `outputs`). A race the simulator finds is a
/// RunError of kind failed; no GPU, of kind unavailable.
llvm::Expected<LaunchStats>
launchKernel(const RunConfig &config, const PreparedKernel &kernel,
             std::vector<std::vector<uint8_t>> &buffers,
             const std::vector<bool> &outputs);

/// Copies each of `buffers` into `memory` ("argument #i"), in order; their
/// addresses.
std::vector<uint64_t>
placeBuffers(sim::GlobalMemory &memory,
             const std::vector<std::vector<uint8_t>> &buffers);

/// launchKernel for Backend::isa (IsaLaunch.cpp): the code object on the
/// ISA executor. A wrong kernel (a poisoned read) is a RunError of kind
/// failed; what it cannot run, of kind bad input.
llvm::Error launchOnIsa(const RunConfig &config, const PreparedKernel &kernel,
                        std::vector<std::vector<uint8_t>> &buffers,
                        LaunchStats &stats);

} // namespace mlir::hk::run

#endif // HK_HARNESS_LAUNCH_H
