//===- Options.h - hk-run's command line ----------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The options of hk-run, shared by its GEMM and generic paths.
//
//===----------------------------------------------------------------------===//

#ifndef HK_HARNESS_OPTIONS_H
#define HK_HARNESS_OPTIONS_H

#include "HK/Dialect/HK/Utils/Enums.h"
#include "HK/Pipelines/Pipelines.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace mlir::hk::run {

enum class TestKind { identity, random, expected, compare };
enum class Backend { sim, hip };
enum class Baseline { none, rocblas, hipblaslt };
/// How the attention workload draws its scores (AttentionWorkload.h).
enum class AttentionScores { random, rising, steps };

extern llvm::cl::OptionCategory toolOptions;
extern llvm::cl::opt<std::string> inputFile;
extern llvm::cl::opt<Chip> chipOption;
extern llvm::cl::list<int64_t> sizes;
extern llvm::cl::list<std::string> genericArgs;
extern llvm::cl::list<int64_t> gridOption;
extern llvm::cl::list<std::string> expectations;
extern llvm::cl::list<std::string> saves;
extern llvm::cl::opt<TestKind> testKind;
extern llvm::cl::opt<std::string> layoutOption;
extern llvm::cl::opt<int64_t> batchOption;
extern llvm::cl::opt<int64_t> padOption;
extern llvm::cl::opt<float> alphaOption;
extern llvm::cl::opt<float> betaOption;
extern llvm::cl::opt<std::string> biasOption;
extern llvm::cl::opt<float> scaleAOption;
extern llvm::cl::opt<std::string> scalesAOption;
extern llvm::cl::opt<std::string> scalesBOption;
extern llvm::cl::opt<std::string> saveInputsPrefix;
extern llvm::cl::opt<float> scaleBOption;
extern llvm::cl::opt<std::string> inputA;
extern llvm::cl::opt<std::string> inputB;
extern llvm::cl::opt<std::string> expectedFile;
extern llvm::cl::opt<Backend> backend;
extern llvm::cl::opt<int> warmup;
extern llvm::cl::opt<int> iterations;
extern llvm::cl::opt<uint64_t> checkSample;
extern llvm::cl::list<int64_t> attentionSizes;
extern llvm::cl::opt<bool> causalOption;
extern llvm::cl::opt<AttentionScores> attentionScores;
extern llvm::cl::opt<Baseline> baseline;
extern llvm::cl::opt<bool> emitJson;
extern llvm::cl::opt<std::string> outputFile;
extern llvm::cl::opt<std::string> kernelName;
extern llvm::cl::opt<std::string> compareWith;
extern ScheduleCLOptions schedule;
extern llvm::cl::opt<unsigned> compareStages;
extern llvm::cl::opt<unsigned> seed;
extern llvm::cl::opt<uint64_t> stepLimit;

/// Prints `message` as hk-run's error; returns exit status 2 (bad input).
int fail(const llvm::Twine &message);

/// Parses hk-run's command line into the options above; 0, or exit status
/// 2 after printing why to `errors`.
int parseCommandLine(int argc, const char *const *argv,
                     llvm::raw_ostream &errors);

/// With --backend=hip: at least one timed launch and no negative warm-up;
/// 0, or exit status 2 after printing why.
int checkTimingOptions();

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

/// Checks the parsed options of a GEMM run and reads its sizes; 0, or the
/// exit status after printing why.
int checkGemmOptions(GemmShape &shape);

} // namespace mlir::hk::run

#endif // HK_HARNESS_OPTIONS_H
