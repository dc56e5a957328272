//===- GemmWorkload.h - the GEMM hk-run checks ----------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The GEMM workload: which kernels it runs (their signature), the problem a
// run poses (sizes, layouts, batch, padding, epilogue), its inputs laid out
// as the kernel takes them, and the check of C against an fp64 reference
// (docs/Hardware.md#oracle, docs/Shapes.md).
//
//   C[b] = alpha op(A[b]) op(B[b]) + beta C[b] + bias,  b < batch
//
//===----------------------------------------------------------------------===//

#ifndef HK_HARNESS_GEMMWORKLOAD_H
#define HK_HARNESS_GEMMWORKLOAD_H

#include "HK/Dialect/HK/Analysis/KernelLaunch.h"
#include "HK/Harness/Launch.h"
#include "HK/Harness/RunConfig.h"
#include "HK/Target/Chip.h"

#include "mlir/IR/Types.h"
#include "llvm/Support/Error.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace mlir::hk::run {

/// A GEMM run: the problem, the inputs, the checks.
struct GemmConfig {
  RunConfig run;
  GemmShape shape;
  /// shape's transposeA and transposeB were asked for (--layout): a kernel
  /// whose reads of A and B say otherwise is refused. When not, the
  /// kernel's own layout is taken (readOperandLayout; nt where its
  /// reads do not say).
  bool layoutGiven = false;
  /// Batches (3-D kernels) and the padding of every row of A, B and C
  /// (strided kernels; the padding holds NaN and must come back unchanged).
  int64_t batch = 1, pad = 0;
  /// The epilogue (C = alpha op(A) op(B) + beta C + bias), for kernels that
  /// have one: alpha 1, beta 0 and bias "zeros" when not set; bias "zeros",
  /// "random" (N(0, 1)) or a float32 .npy of N values.
  std::optional<float> alpha, beta;
  std::optional<std::string> bias;
  /// fp8 kernels' per-tensor scales (1 when not set).
  std::optional<float> scaleA, scaleB;
  /// MXFP8 kernels' E8M0 block scales: empty or "random" (2^-6..2^6), or a
  /// uint8 .npy.
  std::string scalesA, scalesB;
  /// A and B: empty or "random" (N(0, 1)), "zeros", "range" ((row + col) %
  /// 16 - 8) or a .npy.
  std::string inputA, inputB;
  /// Where the inputs are also written (<prefix>a.npy, ...), empty: nowhere.
  std::string saveInputsPrefix;
  /// TestKind::expected: C's expected values (float32 .npy).
  std::string expectedFile;
  /// Where C is written (float32 .npy), empty: nowhere.
  std::string outputFile;
  /// hip: also run and time the product through a vendor library.
  Baseline baseline = Baseline::none;
};

/// Fails with why `config` poses no GEMM a kernel could serve (sizes,
/// batch, padding, scalars, the test), before any kernel is looked at.
llvm::Error checkGemmConfig(const GemmConfig &config);

/// An element kind as --dtype and hk-run's messages spell it: an fp8 format
/// without its "f8" (e4m3, e5m2), the others as ElementKind names them.
inline StringRef dtypeName(ElementKind kind) {
  StringRef name = stringifyElementKind(kind);
  return isFp8(kind) ? name.drop_front(2) : name;
}

/// What a GEMM kernel's argument types say it computes: (A, B, C), (A, B,
/// C, bias, alpha, beta) or, fp8, (A, B, C, scale_a, scale_b); A and B bf16
/// or fp8 (one format), C bf16, f16 or f32, all of rank 2 or all of rank 3
/// (batch first), row-major or all strided.
struct GemmSignature {
  int64_t rank = 2;
  /// A's and B's element type: bf16, f8e4m3 (f8E4M3FN) or f8e5m2.
  ElementKind abElement = ElementKind::bf16;
  /// fp8 per-tensor scales (f32) follow C: C = scale_a scale_b A B^T.
  bool scaled = false;
  /// MXFP8: E8M0 block scales SA (M x ceil(K / 32)) and SB (N x ceil(K /
  /// 32)) follow C, one per 32 k of each row of A and of B.
  bool blockScales = false;
  /// A, B and C take their strides: rows may be padded.
  bool strided = false;
  /// C's element type: bf16, f16 or f32.
  ElementKind cElement = ElementKind::bf16;
  /// bias (f32, one per column of C) follows C.
  bool bias = false;
  /// alpha and beta (f32) follow C and the bias: C = alpha A B + beta C.
  bool alphaBeta = false;

  bool epilogue() const { return bias || alphaBeta; }
  /// The argument holding alpha (beta follows it).
  unsigned alphaArg() const { return bias ? 4 : 3; }

  int64_t cBytes() const { return cElement == ElementKind::f32 ? 4 : 2; }
  bool fp8() const { return isFp8(abElement); }
  int64_t abBytes() const { return fp8() ? 1 : 2; }
};

/// The signature of a kernel with argument types `types` (its fp8 types
/// read as `fp8Format` unless that is `source`: --dtype), or an error
/// saying why it is not a GEMM kernel.
llvm::Expected<GemmSignature> readGemmSignature(ArrayRef<Type> types,
                                                Fp8Format fp8Format);

/// Whether A and B are stored K-major, as the kernel's reads say
/// (KernelLaunch.h: from source; LaunchDescription.h: as hk-compile recorded
/// it).
using GemmOperandLayout = OperandLayout;

/// BLAS's name of `shape`'s layout: "nt", "nn", "tn" or "tt".
std::string getLayoutName(const GemmShape &shape);

/// The matrices of a GEMM, as indices of the kernel's arguments.
enum GemmArg : unsigned { argA = 0, argB = 1, argC = 2, argBias = 3 };

/// A run's problem: the options it was given, checked against the kernel.
struct GemmProblem : KernelArguments {
  GemmShape shape;
  int64_t batch = 1, pad = 0;
  float alpha = 1, beta = 0;
  float scaleA = 1, scaleB = 1;
  GemmSignature signature;

  /// The stored (rows, cols) of matrix `arg` (A, B or C).
  std::pair<int64_t, int64_t> storedSize(unsigned arg) const;
  /// Elements from one stored row of matrix `arg` to the next.
  int64_t leadingDim(unsigned arg) const {
    return storedSize(arg).second + pad;
  }
  /// Elements from one batch's matrix `arg` to the next.
  int64_t batchStride(unsigned arg) const {
    return storedSize(arg).first * leadingDim(arg);
  }
  /// Dimension `dim` of argument `arg` as the kernel sees it; none for a
  /// dimension the kernel's arguments do not have.
  std::optional<int64_t> extent(unsigned arg, int64_t dim) const override;
  /// Stride `dim` of matrix argument `arg`.
  std::optional<int64_t> stride(unsigned arg, int64_t dim) const override;
  /// The bits of scalar argument `arg` (alpha, beta, or the fp8 scales).
  std::optional<uint64_t> scalarBits(unsigned arg) const override;
  bool isBuffer(unsigned arg) const override;
};

/// The problem `config` poses to a kernel of `signature` named `kernel`, or
/// why the kernel cannot serve it.
llvm::Error makeGemmProblem(const GemmConfig &config,
                            const GemmSignature &signature, StringRef kernel,
                            GemmProblem &problem);

/// A run's inputs: A and B as the reference reads them (per batch, A M x K
/// and B N x K, bf16 bits or fp8 codes), C's initial values, the bias or
/// the block scales, and the kernel's memory arguments (A, B, C, then the
/// bias or SA and SB) as it takes them.
struct GemmInputs {
  std::vector<uint16_t> a, b;
  std::vector<double> c0;
  std::vector<float> bias;
  /// MXFP8: the E8M0 codes of SA (M x KB) and SB (N x KB), KB = ceil(K / 32).
  std::vector<uint8_t> scalesA, scalesB;
  std::vector<std::vector<uint8_t>> buffers;
  /// What was written where (GemmConfig::saveInputsPrefix), one line each.
  std::vector<std::string> saved;
};

/// Draws or reads the inputs `config` asks for (A, B, bias, block scales,
/// the seed, the test), and saves them when it says so.
llvm::Error makeGemmInputs(const GemmConfig &config, const GemmProblem &problem,
                           GemmInputs &inputs);

/// How C compares with what the test expects of it.
struct GemmCheck {
  double maxAbs = 0, maxRel = 0;
  int64_t bad = 0;           // elements outside the tolerance
  int64_t checked = 0;       // elements looked at (--check-sample)
  int64_t paddingWrites = 0; // elements of C's padding the kernel changed
  /// The first wrong elements, one line each.
  static constexpr size_t kShownMismatches = 5;
  std::vector<std::string> mismatches;
};

/// Checks C (the kernel's C buffer) against the test of `config`: A itself
/// (identity), `other`'s C bit for bit (compare), `expected` (batch x M x
/// N), or the fp64 reference (all of C, or its check sample); and that C's
/// padding is unchanged.
GemmCheck checkGemm(const RunConfig &config, const GemmProblem &problem,
                    const GemmInputs &inputs, const std::vector<uint8_t> &c,
                    const std::vector<uint8_t> *other,
                    const std::vector<float> &expected);

/// The value of an A or B element (bf16 bits or an fp8 code).
double decodeAB(const GemmSignature &signature, uint16_t code);

/// Element (b, m, n) of C in a C buffer, as a double.
double readC(const GemmProblem &problem, const std::vector<uint8_t> &c,
             int64_t b, int64_t m, int64_t n);

/// The problem `config` poses to kernel `kernel` of argument types `types`
/// (read as --dtype says) and operand layout `layout` (taken where the
/// configuration does not give one), or why it cannot serve it.
llvm::Error readGemmProblem(const GemmConfig &config, StringRef kernel,
                            ArrayRef<Type> types,
                            const GemmOperandLayout &layout,
                            GemmProblem &problem);

/// What one compile-and-run of a GEMM kernel produced.
struct GemmRun {
  std::string kernel;
  /// The schedule it was compiled at (PreparedKernel::variant).
  std::string variant;
  std::array<int64_t, 3> grid = {1, 1, 1};
  std::vector<uint8_t> c;
  sim::Counters counters;
  hip::Timing timing;
  double compileSeconds = 0, runSeconds = 0;
};

/// The vendor library's run of the same product (GemmConfig::baseline).
struct GemmBaseline {
  /// "rocBLAS" or "hipBLASLt".
  std::string library;
  /// Why there is no baseline (the library does not cover the GEMM, or is
  /// missing); empty when it ran.
  std::string skipped;
  std::optional<GemmCheck> check;
  /// Its timing, when its C passed the check.
  std::optional<hip::Timing> timing;
};

/// What the GEMM workload found.
struct GemmResult {
  GemmRun run;
  GemmProblem problem;
  GemmCheck check;
  std::optional<GemmBaseline> baseline;
  /// The inputs written (GemmConfig::saveInputsPrefix), one line each.
  std::vector<std::string> saved;
  /// Elements wrong, C's padding writes included.
  int64_t wrong() const { return check.bad + check.paddingWrites; }
  bool passed() const { return wrong() == 0; }
};

/// The GEMM workload: compiles the kernel (and the compared one), runs it on
/// the inputs `config` asks for, checks C, writes it when asked, and runs
/// the baseline.
llvm::Expected<GemmResult> runGemmWorkload(MLIRContext &context,
                                           const GemmConfig &config);

} // namespace mlir::hk::run

#endif // HK_HARNESS_GEMMWORKLOAD_H
