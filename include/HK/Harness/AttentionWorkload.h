//===- AttentionWorkload.h - the attention hk-run checks ------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The attention workload (FlashAttention forward, docs/Attention.md):
//
//   O[b, h, q]   = sum_k softmax_k(S) V[b, g, k],  g = h / (Hq / Hkv)
//   LSE[b, h, q] = ln sum_k exp(S_k),  S_k = Q[b, h, q] . K[b, g, k] / sqrt(d)
//
// over the keys k < Nkv (and k <= q when causal). The kernel takes
// (Q, K, V, O, LSE, causal): Q, O [B, Hq, Nq, d], K, V [B, Hkv, Nkv, d] bf16,
// LSE [B, Hq, Nq] f32, causal i32. The check compares O and LSE with an
// fp64 reference of the same bf16 inputs, within a bound derived from the
// kernel's roundings (README, "Tolerances").
//
//===----------------------------------------------------------------------===//

#ifndef HK_HARNESS_ATTENTIONWORKLOAD_H
#define HK_HARNESS_ATTENTIONWORKLOAD_H

#include "HK/Harness/Launch.h"
#include "HK/Harness/RunConfig.h"

#include "mlir/IR/MLIRContext.h"

#include <cstdint>
#include <vector>

namespace mlir::hk::run {

/// An attention problem: the sizes (--attention) and the mask (--causal).
struct AttentionProblem : RowMajorArguments {
  int64_t batch = 1, qHeads = 1, kvHeads = 1, queries = 1, keys = 1,
          headDim = 64;
  bool causal = false;

  std::optional<uint64_t> scalarBits(unsigned arg) const override;
  bool isBuffer(unsigned arg) const override { return arg < 5; }

  /// The sizes of argument `arg` (Q, K, V, O or LSE).
  std::vector<int64_t> shape(unsigned arg) const override;
};

/// The kernel's arguments, in order.
enum AttentionArg : unsigned { argQ, argK, argV, argO, argLse, argCausal };

/// An attention run: the problem, how the inputs are drawn.
struct AttentionConfig {
  RunConfig run;
  AttentionProblem problem;
  AttentionScores scores = AttentionScores::random;
};

/// Fails with why `config` poses no problem the workload runs (sizes, GQA,
/// the test); messages name the sizes as command-line `option` gave them.
llvm::Error checkAttentionConfig(const AttentionConfig &config,
                                 StringRef option = "attention");

/// Fails with why kernel `name` of argument types `types` does not compute
/// attention for `problem` (the signature above, its head dim).
llvm::Error checkAttentionKernel(StringRef name, ArrayRef<Type> types,
                                 const AttentionProblem &problem);

/// The inputs: Q, K, V as bf16 bits, and the kernel's buffers (Q, K, V, O,
/// LSE; O and LSE filled with NaN, so that an element the kernel does not
/// write fails the check).
struct AttentionInputs {
  std::vector<uint16_t> q, k, v;
  std::vector<std::vector<uint8_t>> buffers;
};

/// Draws the inputs `config` asks for (its scores, its seed).
void makeAttentionInputs(const AttentionConfig &config,
                         AttentionInputs &inputs);

/// How O and LSE compare with the reference (or another kernel's).
struct AttentionCheck {
  double maxAbsO = 0, maxAbsLse = 0;
  int64_t badO = 0, badLse = 0;
  int64_t checked = 0;
  int64_t bad() const { return badO + badLse; }
};

/// Checks the kernel's O and LSE buffers against the fp64 reference (every
/// query row, or the check sample), or bit for bit against `other`'s
/// buffers (TestKind::compare).
AttentionCheck checkAttention(const RunConfig &config,
                              const AttentionProblem &problem,
                              const AttentionInputs &inputs,
                              const std::vector<std::vector<uint8_t>> &result,
                              const std::vector<std::vector<uint8_t>> *other);

/// What the attention workload found.
struct AttentionResult {
  PreparedKernel kernel;
  LaunchStats stats;
  AttentionCheck check;
  bool passed() const { return check.bad() == 0; }
  /// The problem's FLOPs: 4 B Hq Nq Nkv d, halved when causal.
  double flops = 0;
};

/// Runs the forward kernel of the hk source `path` on `inputs` and returns
/// its buffers (Q, K, V, O, LSE), as the backward workload needs them.
llvm::Expected<std::vector<std::vector<uint8_t>>>
runAttentionForward(MLIRContext &context, const RunConfig &config,
                    StringRef path, const AttentionProblem &problem,
                    const AttentionInputs &inputs);

/// The attention workload: compiles the kernel (and the compared one), runs
/// it on random inputs and checks O and LSE.
llvm::Expected<AttentionResult>
runAttentionWorkload(MLIRContext &context, const AttentionConfig &config);

} // namespace mlir::hk::run

#endif // HK_HARNESS_ATTENTIONWORKLOAD_H
