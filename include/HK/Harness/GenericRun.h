//===- GenericRun.h - hk-run on any kernel --------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// hk-run's path for kernels other than its GEMM: arguments from --arg,
// checks from --expect (within --expect-tolerance), results saved with
// --save.
//
//===----------------------------------------------------------------------===//

#ifndef HK_HARNESS_GENERICRUN_H
#define HK_HARNESS_GENERICRUN_H

#include "HK/Harness/Launch.h"
#include "HK/Harness/RunConfig.h"

#include "mlir/IR/MLIRContext.h"

#include <array>
#include <string>
#include <vector>

namespace mlir::hk::run {

/// How far from its expected value an element checked by --expect may be.
struct ExpectTolerance {
  enum class Kind {
    /// Within one rounding of the element type, relative (the default).
    rounding,
    /// Within `value` ulps of the element type at the expected value (an
    /// integer's ulp is 1).
    ulps,
    /// Within `value`.
    absolute
  };
  Kind kind = Kind::rounding;
  double value = 0;
};

/// A run of any kernel.
struct GenericConfig {
  RunConfig run;
  /// One per kernel argument, in order: an integer, or for a memref
  /// random:SHAPE, zeros:SHAPE, range:SHAPE (the flat index mod 256),
  /// out:SHAPE (unset) or a .npy file; SHAPE like 64x64.
  std::vector<std::string> arguments;
  /// The grid, for a kernel without hk.launch.
  std::vector<int64_t> grid;
  /// "I:file.npy": memref argument I must match the .npy after the run
  /// (within one rounding of its element type).
  std::vector<std::string> expectations;
  ExpectTolerance tolerance;
  /// "I:file.npy": memref argument I is written there after the run. A run
  /// may save without checking anything.
  std::vector<std::string> saves;
};

/// How one memref argument compares with its expected values.
struct ArgumentCheck {
  unsigned argument = 0;
  double maxAbs = 0;
  int64_t bad = 0, elements = 0;
};

/// What a run of any kernel found.
struct GenericResult {
  std::string kernel;
  std::array<int64_t, 3> grid = {1, 1, 1};
  LaunchStats stats;
  std::vector<ArgumentCheck> checks;
  /// TestKind::compare: the bytes of each memory argument that differ from
  /// the compared kernel's.
  std::vector<int64_t> differingBytes;
  /// What was written where (GenericConfig::saves), one line each.
  std::vector<std::string> saved;
  int64_t wrong() const;
  bool passed() const { return wrong() == 0; }
  /// Something was checked: an expectation or the compared kernel.
  bool checked() const { return !checks.empty() || !differingBytes.empty(); }
};

/// Runs the kernel on `config`'s arguments, then checks its expectations
/// (and, TestKind::compare, the other kernel's memory bit for bit) and
/// writes its saves.
llvm::Expected<GenericResult> runGeneric(MLIRContext &context,
                                         const GenericConfig &config);

} // namespace mlir::hk::run

#endif // HK_HARNESS_GENERICRUN_H
