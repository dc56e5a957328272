//===- RunConfig.h - what every hk-run workload is given ------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The harness's interface apart from any command line: the settings every
// workload shares (the kernel, the chip, the backend, the schedule, the
// test), and the error a workload returns when it has no result. hk-run's
// command line (Options.h) is one way to fill these; a program embedding the
// harness fills them itself.
//
//===----------------------------------------------------------------------===//

#ifndef HK_HARNESS_RUNCONFIG_H
#define HK_HARNESS_RUNCONFIG_H

#include "HK/Dialect/HK/Utils/Enums.h"
#include "HK/Pipelines/Pipelines.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::hk::run {

enum class TestKind { identity, random, expected, compare };
enum class Backend { sim, hip, isa };
/// exec::Completion, for the command line: at issue, at the covering wait,
/// at a moment drawn from the seed.
enum class IsaCompletion { eager, latest, random };
enum class Baseline { none, rocblas, hipblaslt };
/// How the attention workload draws its scores (AttentionWorkload.h).
enum class AttentionScores { random, rising, steps };

/// The name of a test kind ("identity", "random", ...).
const char *stringifyTestKind(TestKind test);

/// The name of a backend, as --backend spells it ("sim", "isa", "hip").
const char *stringifyBackend(Backend backend);

/// The settings every workload shares.
struct RunConfig {
  /// The kernel: hk source (.mlir), or hk-compile's launch description
  /// (.json).
  std::string inputFile;
  Chip chip = Chip::gfx950;
  Backend backend = Backend::sim;
  /// The kernel to run when the source has several; empty: its only one
  /// besides companionKernels.
  std::string kernelName;
  /// Kernels of the source a workload runs after the tested one, by name
  /// (the deterministic MoE combine's sum): without kernelName, the tested
  /// kernel is the only other one.
  std::vector<std::string> companionKernels;
  TestKind test = TestKind::random;
  /// TestKind::compare: the other version of the kernel (empty: the same
  /// input, for a run on another backend), the stages it is compiled with
  /// as the plain baseline (none: the same schedule) and the backend it runs
  /// on (none: `backend`).
  std::string compareWith;
  std::optional<unsigned> compareStages;
  std::optional<Backend> compareBackend;
  ScheduleSettings schedule;
  /// hip: untimed and timed launches.
  int warmup = 3, iterations = 10;
  /// Check this many elements (or query rows) drawn at random; 0: all.
  uint64_t checkSample = 0;
  unsigned seed = 1;
  /// sim: wave instructions one wave may execute.
  uint64_t stepLimit = uint64_t(1) << 28;
  /// sim: run the workgroups in an order drawn from this seed
  /// (sim::LaunchConfig::shuffleSeed); 0: in x, y, z order.
  uint64_t shuffleWorkgroups = 0;
  /// isa: when counted memory operations complete (exec::Completion).
  IsaCompletion isaCompletion = IsaCompletion::latest;
  /// Where the diagnostics of parsing and compiling the kernel are written
  /// as they arise; null: into the message of the error they lead to.
  llvm::raw_ostream *diagnostics = nullptr;
};

/// Why a run has no result. Kinds: bad input (a configuration, file or
/// kernel the workload cannot serve, or a simulation error), a failed run
/// (a race the simulator found: the kernel is wrong), no GPU.
class RunError : public llvm::ErrorInfo<RunError> {
public:
  enum class Kind { badInput, failed, unavailable };
  static char ID;

  RunError(Kind kind, std::string message, bool reported = false)
      : kind(kind), message(std::move(message)), reported(reported) {}
  void log(llvm::raw_ostream &os) const override { os << message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

  Kind kind;
  std::string message;
  /// The message's diagnostics were written to RunConfig::diagnostics.
  bool reported;
};

/// A RunError of kind bad input.
llvm::Error badInput(const llvm::Twine &message);

/// With the hip backend (the compared version's included): at least one
/// timed launch and no negative warm-up.
llvm::Error checkTimingSettings(const RunConfig &config);

/// RunConfig::shuffleWorkgroups: refused unless every run (the compared
/// version's included) is on the simulator, whose order it sets.
llvm::Error checkShuffleSettings(const RunConfig &config);

/// TestKind::compare: refuses a compare without another version (no
/// RunConfig::compareWith and no other backend: the same run twice), and a
/// compare backend without TestKind::compare.
llvm::Error checkCompareSettings(const RunConfig &config);

/// The settings the compared version of TestKind::compare is prepared and
/// launched with: its input (RunConfig::compareWith, or the tested input)
/// as `inputFile`, and its backend.
RunConfig getComparedRunConfig(const RunConfig &config);

/// A GEMM's sizes and how its operands are stored (BLAS naming, C = op(A)
/// op(B) with hk's B given N x K as "t"): A is M x K, or K x M when
/// `transposeA`; B is N x K, or K x N when `!transposeB` ("n").
struct GemmShape {
  int64_t M = 0, N = 0, K = 0;
  bool transposeA = false, transposeB = true;
  /// The stored (rows, cols) of A, B and C, the kernel's arguments.
  void argumentSizes(int64_t dims[3][2]) const {
    dims[0][0] = transposeA ? K : M, dims[0][1] = transposeA ? M : K;
    dims[1][0] = transposeB ? N : K, dims[1][1] = transposeB ? K : N;
    dims[2][0] = M, dims[2][1] = N;
  }
};

} // namespace mlir::hk::run

#endif // HK_HARNESS_RUNCONFIG_H
