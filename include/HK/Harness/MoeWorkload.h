//===- MoeWorkload.h - the MoE GEMM hk-run checks ---------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The MoE GEMM workload (hk-run --moe=E,N,K,T,topk): T tokens of K
// activations each choose topk of E experts (the routing); each routed
// (token, choice) slot is multiplied by its expert's weights,
//
//   C[r, j] = sum_k A[r, k] B[e, j, k],  r in [offsets[e], offsets[e + 1])
//
// in the contiguous form, C[s, j] = sum_k A[s / topk, k] B[e(s), j, k] for
// each slot s in the gathered one (times scale_a scale_b[e] for fp8, with E8M0
// block scales for MXFP8), or gated: C[r, j] = silu(g) u, g = (A B[e]^T)[r, j],
// u = (A B[e]^T)[r, N/2 + j]. The kernel's name says what it takes:
//
//   moe_gemm_<bf16|fp8|mxfp8>[_<W>wave][_c<f16|f32>]_<contiguous|gathered>
//       [_gated|_combine[_deterministic]][_small_m]
//
// and its arguments. The contiguous form: A [rows, K] with the rows = T
// topk slots sorted by expert (stable: by token, then by choice), B [E, N,
// K], C [rows, N or N/2], group_offsets [E + 1] i32, for fp8 scale_a (f32)
// and scale_b [E] f32 or for MXFP8 SA [rows, ceil(K / 32)] and SB [E, N,
// ceil(K / 32)] E8M0, and last the persistent grid's workgroup count
// (i32). The gathered form: A [T, K] (the tokens themselves), B, C [T topk,
// N or N/2] by slot (row t topk + c: token t's c-th choice),
// sorted_token_ids [P] and expert_ids [P / BM] i32 (MoeAlignment), topk
// (i32), for fp8 scale_a and scale_b or for MXFP8 SA [T, ceil(K / 32)]
// (per token: slot s takes token s / topk's scales) and SB [E, N, ceil(K /
// 32)], and last the workgroup count; the
// kernel's hk.launch declares its tile height BM as a divisibility term on
// sorted_token_ids. A combine kernel (gathered, `_cf32`) adds each slot's
// product times the slot's routing weight into its token's row of C [T, N]
// (f32, zero before the launch: C[t, j] = sum_c w(t, c) (A B[e(t, c)]^T)[t,
// j]) and takes sorted_weights [P] f32 (each entry's slot's weight, 0 for
// padding) after expert_ids. A deterministic combine kernel
// (`_combine_deterministic`) takes the same arguments but adds nothing: its
// C is Y [T topk, N] f32, where it stores each slot s's weighted product
// (row s, once); the source's second kernel, moe_combine_sum_f32 (Y, C [T,
// N], topk), then writes C[t, j] = sum over c < topk, in that order, of Y[t
// topk + c, j], so C's bits do not depend on the order the workgroups ran
// in. The per-token expert choices are the routing's
// primary data; the contiguous order and offsets, and the gathered form's
// index, are derived from them. The check compares C with an fp64 reference per
// element, within a bound derived from the kernel's roundings (README,
// "Tolerances").
//
//===----------------------------------------------------------------------===//

#ifndef HK_HARNESS_MOEWORKLOAD_H
#define HK_HARNESS_MOEWORKLOAD_H

#include "HK/Dialect/HK/Utils/Enums.h"
#include "HK/Harness/Launch.h"
#include "HK/Harness/RunConfig.h"
#include "HK/Kernels/MoeGemm.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Types.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::hk::run {

/// The sizes --moe gives: experts, each expert's N x K weights, tokens and
/// the experts each token chooses.
struct MoeSizes {
  int64_t experts = 1, n = 1, k = 1, tokens = 1, topk = 1;
  /// The routed slots: T topk, the rows of A and C.
  int64_t rows() const { return tokens * topk; }
};

/// How tokens choose experts (--routing).
enum class MoeRoutingKind {
  /// topk distinct experts, uniformly.
  random,
  /// topk distinct experts, expert e with weight 1 / (e + 1): early experts
  /// get most tokens, late ones are often empty.
  skewed,
  /// Experts 0..topk-1 for every token.
  oneExpert,
  /// An integer .npy of T x topk expert ids.
  file,
};

/// The name of a routing kind, as --routing spells it.
const char *stringifyMoeRoutingKind(MoeRoutingKind kind);

/// Which experts the tokens chose, and the contiguous order derived from
/// it.
struct MoeRouting {
  int64_t experts = 0, tokens = 0, topk = 0;
  /// The primary data: the expert of token t's c-th choice is
  /// choices[t topk + c]; a token's choices are distinct.
  std::vector<int32_t> choices;
  /// The routing weight of slot t topk + c: positive, a token's sum to 1 (a
  /// softmax of N(0, 1) logits over its choices, drawn from the seed).
  std::vector<float> weights;
  /// The contiguous order: the slots sorted by expert, stable (by token,
  /// then by choice). Slot r comes from token slotToken[r]'s choice
  /// slotChoice[r]; expert e's slots are [offsets[e], offsets[e + 1]).
  std::vector<int32_t> slotToken, slotChoice, offsets;

  int64_t rows() const { return tokens * topk; }
  int64_t rowsOf(int64_t expert) const {
    return offsets[expert + 1] - offsets[expert];
  }
  /// The expert of slot `row` (of the contiguous order).
  int64_t expertOf(int64_t row) const;
};

/// The routing `kind` asks for (`file` for MoeRoutingKind::file) for
/// `sizes`, drawn from `seed`, with its contiguous order; a file of the
/// wrong shape, type, or with ids out of [0, E) or repeated within a token
/// is refused (bad input).
llvm::Expected<MoeRouting> makeMoeRouting(MoeRoutingKind kind, StringRef file,
                                          const MoeSizes &sizes, unsigned seed);

/// Derives the contiguous order (slotToken, slotChoice, offsets) from the
/// choices.
void sortSlotsByExpert(MoeRouting &routing);

/// Draws the routing weights of `routing`'s slots from `seed`: per token,
/// the softmax of topk N(0, 1) logits.
void drawMoeWeights(MoeRouting &routing, unsigned seed);

/// The gathered form's index of a routing, as vLLM's moe_align_block_size
/// lays it out: for each expert in order, the slots routed to it (slot s =
/// t topk + c, ascending), then padding entries of value T topk (one past
/// the last slot) up to the next multiple of the kernel's tile height BM;
/// an expert without slots gets no entries. Tile i (entries [i BM, (i + 1)
/// BM)) is expert expertIds[i]'s.
struct MoeAlignment {
  int64_t blockM = 0;
  /// P entries, a multiple of blockM.
  std::vector<int32_t> sortedTokenIds;
  /// P / blockM entries.
  std::vector<int32_t> expertIds;
  /// P entries (when the routing has weights): the weight of entry i's
  /// slot, 0 for a padding entry; a combine kernel's sorted_weights.
  std::vector<float> sortedWeights;

  int64_t entries() const { return sortedTokenIds.size(); }
  int64_t tiles() const { return expertIds.size(); }
};

/// The gathered index of `routing` for tiles of `blockM` (>= 1) entries.
MoeAlignment alignMoeRouting(const MoeRouting &routing, int64_t blockM);

/// What the kernel does after the product (the name's last token).
enum class MoeEpilogue { none, gated, combine };

/// What a MoE GEMM kernel's name and argument types say it takes.
struct MoeSignature {
  /// A's and B's element type: bf16, f8e4m3 or f8e5m2 (fp8 and mxfp8).
  ElementKind abElement = ElementKind::bf16;
  /// mxfp8: E8M0 block scales SA and SB instead of scale_a and scale_b.
  bool blockScales = false;
  /// C's element type: bf16 (the default), f16 or f32 (`_c<type>`).
  ElementKind cElement = ElementKind::bf16;
  /// The name's `<W>wave`, 0 when it has none.
  int64_t waves = 0;
  bool gathered = false;
  MoeEpilogue epilogue = MoeEpilogue::none;
  /// A combine in a fixed order (`_combine_deterministic`): C is Y [T topk,
  /// N], each slot's weighted product, which kMoeCombineSumKernel sums.
  bool deterministic = false;

  bool fp8() const { return isFp8(abElement); }
  bool gated() const { return epilogue == MoeEpilogue::gated; }
  /// Gathered with the weighted combine: C [T, N] f32, sorted_weights.
  bool combine() const { return epilogue == MoeEpilogue::combine; }
  /// fp8 with per-tensor and per-expert scales.
  bool scaled() const { return fp8() && !blockScales; }
  /// Gathered: topk, after sorted_weights when combine.
  unsigned topkArg() const { return combine() ? 6 : 5; }
  /// fp8's scale_a (MXFP8's SA) and scale_b (SB): after the form's
  /// arguments (MoeArg).
  unsigned scaleAArg() const { return gathered ? topkArg() + 1 : 4; }
  unsigned scaleBArg() const { return scaleAArg() + 1; }
  /// The workgroup count's argument: the last.
  unsigned workgroupsArg() const { return scaleAArg() + (fp8() ? 2 : 0); }
};

/// The deterministic combine's second kernel, in the same source as the
/// first: (Y memref<?x?xf32> [T topk, N], C memref<?x?xf32> [T, N], topk
/// i32), writing C[t, j] = sum over c < topk, in that order, of Y[t topk +
/// c, j] in f32; its grid comes from its own hk.launch. The kernel library
/// builds it under this name.
inline constexpr StringLiteral kMoeCombineSumKernel =
    kernels::kMoeCombineSumKernelName;

/// The sum kernel's arguments.
enum MoeSumArg : unsigned { moeSumArgY, moeSumArgC, moeSumArgTopk };

/// Fails with why kernel `name` of argument types `types` is not the sum
/// kernel kMoeCombineSumKernel names (bad input).
llvm::Error checkMoeSumSignature(StringRef name, ArrayRef<Type> types);

/// The signature kernel `name` of argument types `types` has (its fp8
/// types read as `fp8Format` unless that is `source`: --dtype), or why it
/// is not a MoE GEMM kernel hk-run runs (bad input).
llvm::Expected<MoeSignature>
readMoeSignature(StringRef name, ArrayRef<Type> types, Fp8Format fp8Format);

/// The kernel's arguments, in order: A, B, C, then the form's; then fp8's
/// scales (MoeSignature::scaleAArg) and the workgroup count.
enum MoeArg : unsigned {
  moeArgA,
  moeArgB,
  moeArgC,
  /// Contiguous: group_offsets [E + 1].
  moeArgOffsets = 3,
  /// Gathered: sorted_token_ids [P], expert_ids [P / BM], then combine's
  /// sorted_weights [P] f32, then topk (i32: MoeSignature::topkArg).
  moeArgSortedIds = 3,
  moeArgExpertIds,
  moeArgSortedWeights,
};

/// A MoE run: the sizes, the routing, the grid, the fp8 scales.
struct MoeConfig {
  RunConfig run;
  MoeSizes sizes;
  MoeRoutingKind routing = MoeRoutingKind::random;
  /// MoeRoutingKind::file: the .npy of expert ids.
  std::string routingFile;
  /// The persistent grid; none: the chip's compute units.
  std::optional<int64_t> workgroups;
  /// fp8 kernels: scale_a, and scale_b for every expert; when scale_b is
  /// not given, each expert's is drawn from [0.5, 2).
  std::optional<float> scaleA, scaleB;
  /// Files to write C to after the run (--save=2:file.npy), float32 [rows,
  /// columns] as checked.
  std::vector<std::string> saveFiles;
};

/// Fails with why `config` poses no problem the workload runs (sizes,
/// routing, grid, scales, the test), before any kernel is looked at.
llvm::Error checkMoeConfig(const MoeConfig &config);

/// A run's problem: the sizes, the routing's slots, the kernel's signature.
struct MoeProblem : RowMajorArguments {
  MoeSizes sizes;
  MoeSignature signature;
  int64_t workgroups = 1;
  float scaleA = 1;
  /// fp8: scale_b per expert.
  std::vector<float> scaleB;
  /// Gathered: the routing's index for the kernel's tile height.
  MoeAlignment alignment;

  /// C's columns: N, or N / 2 gated.
  int64_t outColumns() const {
    return signature.gated() ? sizes.n / 2 : sizes.n;
  }
  /// The checked C's rows: T combine, the slots T topk otherwise.
  int64_t outRows() const {
    return signature.combine() ? sizes.tokens : sizes.rows();
  }
  /// The rows of the kernel's C argument: outRows(), or a deterministic
  /// combine's Y: the slots.
  int64_t cArgRows() const {
    return signature.deterministic ? sizes.rows() : outRows();
  }
  std::vector<int64_t> shape(unsigned arg) const override;
  /// Also the workgroup count, as its own size 0.
  std::optional<int64_t> extent(unsigned arg, int64_t dim) const override;
  std::optional<uint64_t> scalarBits(unsigned arg) const override;
  bool isBuffer(unsigned arg) const override;
};

/// The sum kernel's problem (kMoeCombineSumKernel): Y [T topk, N], C [T,
/// N] and topk.
struct MoeSumProblem : RowMajorArguments {
  MoeSizes sizes;

  /// The sizes of memory argument `arg` (none for topk).
  std::vector<int64_t> shape(unsigned arg) const override;
  std::optional<uint64_t> scalarBits(unsigned arg) const override;
  bool isBuffer(unsigned arg) const override;
};

/// The tile height BM a gathered kernel `name` declares: the divisibility
/// term on sorted_token_ids among its hk.launch's `divisible` terms, or why
/// it has none (bad input).
llvm::Expected<int64_t> readMoeBlockM(StringRef name,
                                      ArrayRef<SizeTerm> divisible);

/// The problem `config` and `routing` pose to kernel `name` of argument
/// types `types` and hk.launch divisibility terms `divisible` (with fp8
/// scale_b drawn from the seed when not given, and a gathered kernel's
/// index of the routing for its tile height), or why the kernel cannot
/// serve it (bad input).
llvm::Error readMoeProblem(const MoeConfig &config, const MoeRouting &routing,
                           StringRef name, ArrayRef<Type> types,
                           ArrayRef<SizeTerm> divisible, MoeProblem &problem);

/// The spread of bf16 draws, N(0, sigma^2): 1, or the power of two below
/// it that keeps a product within C's range (gated f16 at large K).
double moeInputSigma(const MoeProblem &problem);

/// The inputs: the tokens' activations (T x K codes) and the experts'
/// weights (E x N x K), with their E8M0 block scales for MXFP8 (T x KB and
/// E x N x KB, KB = ceil(K / 32)), and the kernel's memory arguments as it
/// takes them (A and SA gathered into the contiguous order, or the tokens
/// and their scales themselves for a gathered kernel; C filled with NaN, or
/// zeros for an atomic combine kernel, which adds into it; a deterministic
/// one's Y with NaN).
struct MoeInputs {
  std::vector<uint16_t> tokens, weights;
  std::vector<uint8_t> tokenScales, weightScales;
  std::vector<std::vector<uint8_t>> buffers;
};

/// Draws the inputs (from the run's seed) and lays them out for `routing`.
void makeMoeInputs(const MoeConfig &config, const MoeRouting &routing,
                   const MoeProblem &problem, MoeInputs &inputs);

/// Writes the routing's index arguments as `problem`'s kernel takes them
/// into `buffers` (the kernel's memory arguments): group_offsets, or
/// sorted_token_ids and expert_ids (and combine's sorted_weights).
void writeMoeIndices(const MoeProblem &problem, const MoeRouting &routing,
                     std::vector<std::vector<uint8_t>> &buffers);

/// How C compares with the reference (or the other kernel's).
struct MoeCheck {
  double maxAbs = 0;
  int64_t bad = 0, checked = 0;
  /// The first wrong elements, one line each.
  static constexpr size_t kShownMismatches = 5;
  std::vector<std::string> mismatches;
};

/// Checks the kernel's C against the fp64 reference (all of C, or the
/// check sample), or against `other`'s C (TestKind::compare): bit for bit
/// when `exact`, else (isMoeCompareExact) within the reference's
/// tolerance.
MoeCheck checkMoe(const RunConfig &config, const MoeProblem &problem,
                  const MoeRouting &routing, const MoeInputs &inputs,
                  const std::vector<uint8_t> &c,
                  const std::vector<uint8_t> *other, bool exact);

/// Whether TestKind::compare of kernels of signatures `a` and `b` (the same
/// but for a combine's form) is bit for bit: unless either is an atomic
/// combine, whose adds come in any order.
bool isMoeCompareExact(const MoeSignature &a, const MoeSignature &b);

/// What the MoE workload found.
struct MoeResult {
  PreparedKernel kernel;
  LaunchStats stats;
  /// A deterministic combine's kMoeCombineSumKernel, run after the kernel.
  std::optional<PreparedKernel> sumKernel;
  LaunchStats sumStats;
  /// TestKind::compare: bit for bit (isMoeCompareExact), else within the
  /// tolerance.
  bool compareExact = true;
  MoeProblem problem;
  MoeRouting routing;
  MoeCheck check;
  /// The product's FLOPs: 2 rows N K.
  double flops = 0;
  /// What MoeConfig::saveFiles got, one line each.
  std::vector<std::string> saved;
  bool passed() const { return check.bad == 0; }
};

/// The MoE workload: draws the routing, compiles the kernel (and the
/// compared one), runs it on random inputs and checks C.
llvm::Expected<MoeResult> runMoeWorkload(MLIRContext &context,
                                         const MoeConfig &config);

} // namespace mlir::hk::run

#endif // HK_HARNESS_MOEWORKLOAD_H
