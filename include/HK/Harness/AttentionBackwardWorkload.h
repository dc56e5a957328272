//===- AttentionBackwardWorkload.h - the attention backward checks -*- C++
//-*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The attention backward workload (hk-run --attention-bwd, docs/Attention.md):
// Q, K, V and dO drawn in bf16, hk's forward kernel run for O and LSE, then
// the backward kernels the source holds, in one of two variants: fused (D
// and a zeroed f32 dQ workspace, one pass adding dQ into it with atomics
// beside dK and dV, then dQ from the workspace) or deterministic (dQ and D,
// then dK and dV). dQ, dK, dV and D are checked against fp64 gradients of
// the same bf16 inputs with per-element bounds derived from the kernels'
// roundings, or against another version: bit for bit, but for a fused
// variant's dQ, whose atomic adds come in any order, within the bound.
//
//===----------------------------------------------------------------------===//

#ifndef HK_HARNESS_ATTENTIONBACKWARDWORKLOAD_H
#define HK_HARNESS_ATTENTIONBACKWARDWORKLOAD_H

#include "HK/Harness/AttentionWorkload.h"

namespace mlir::hk::run {

/// The backward kernels' arguments, in order: the deterministic kernels
/// take the first bwdDeterministicArgs, the fused variant's all of them.
enum AttentionBackwardArg : unsigned {
  bwdQ,
  bwdK,
  bwdV,
  bwdO,
  bwdDO,
  bwdLse,
  bwdD,
  bwdDQ,
  bwdDK,
  bwdDV,
  bwdCausal,
  /// The fused variant's f32 workspace [B, Hq, Nq, d] dQ is summed in.
  bwdDQAcc,
  bwdDeterministicArgs = bwdCausal + 1,
  bwdFusedArgs = bwdDQAcc + 1
};

/// The backward problem: the forward's sizes and mask, the backward's
/// argument list.
struct AttentionBackwardProblem : KernelArguments {
  AttentionProblem forward;

  std::optional<int64_t> extent(unsigned arg, int64_t dim) const override;
  std::optional<int64_t> stride(unsigned arg, int64_t dim) const override;
  std::optional<uint64_t> scalarBits(unsigned arg) const override;
  bool isBuffer(unsigned arg) const override {
    return arg < bwdFusedArgs && arg != bwdCausal;
  }
  /// The forward argument whose shape backward argument `arg` has.
  static unsigned shapeOf(unsigned arg);
};

/// The two forms of the backward a source may hold.
enum class AttentionBackwardVariant {
  /// attention_bwd_dot_bf16_d<d>, attention_bwd_fused_bf16_d<d>,
  /// attention_bwd_dq_convert_bf16_d<d>: dQ summed with atomics.
  fused,
  /// attention_bwd_dq_bf16_d<d>, attention_bwd_dkdv_bf16_d<d>: the same
  /// bits on every run.
  deterministic
};

/// "fused" or "deterministic".
const char *stringifyAttentionBackwardVariant(AttentionBackwardVariant v);

/// The kernels of `variant` for head dim `headDim`, in the order they run.
std::vector<std::string>
getAttentionBackwardKernels(AttentionBackwardVariant variant, int64_t headDim);

/// Which variant a source of kernels `names` holds for head dim `headDim`
/// (fused when it has the fused pass), or why it holds neither: a kernel of
/// the variant missing. `path` names the source in the message.
llvm::Expected<AttentionBackwardVariant>
selectAttentionBackwardVariant(ArrayRef<std::string> names, int64_t headDim,
                               StringRef path);

/// Fails with why kernel `name` of argument types `types` does not take
/// the backward's arguments (the first `arguments` of them) for `problem`.
llvm::Error checkAttentionBackwardKernel(StringRef name, ArrayRef<Type> types,
                                         const AttentionProblem &problem,
                                         unsigned arguments);

struct AttentionBackwardConfig {
  RunConfig run;
  AttentionBackwardProblem problem;
  /// The forward kernel's hk source; empty: hk's, generated for the chip.
  std::string forwardFile;
  /// The forward's O and LSE from .npy files (both or neither) instead of
  /// a forward kernel's.
  std::string oFile, lseFile;
  /// Where to write the inputs (--save-inputs): <prefix>{q,k,v,do,o,lse}.npy.
  std::string saveInputsPrefix;
  /// The outputs to write after the run (--save=I:file.npy), as the kernels
  /// left them: argument I (bwdD, bwdDQ, bwdDK, bwdDV, or the fused
  /// variant's bwdDQAcc) to the file, bf16 as its bits (<u2), f32 as <f4.
  std::vector<std::pair<unsigned, std::string>> saves;
};

/// Fails with why `config` poses no problem the workload runs.
llvm::Error checkAttentionBackwardConfig(const AttentionBackwardConfig &config);

/// How dQ, dK, dV (and the stored D) compare with the reference.
struct GradientCheck {
  double maxAbs = 0;
  int64_t bad = 0, checked = 0;
};
struct AttentionBackwardCheck {
  GradientCheck dq, dk, dv, d;
  int64_t bad() const { return dq.bad + dk.bad + dv.bad + d.bad; }
};

/// The inputs the checks need: Q, K, V and dO as bf16 bits (the forward's O
/// is in the buffers).
struct AttentionBackwardInputs {
  std::vector<uint16_t> q, k, v, dO;
};

/// Checks dQ, dK, dV and D of `out` (the backward's buffers) against the
/// fp64 gradients (docs/Attention.md#backward-tolerances). With `other`
/// (TestKind::compare), against `other`'s instead: bit for bit, but dQ
/// within its bound when not `exactDq` (a fused variant's atomic adds).
AttentionBackwardCheck checkAttentionBackward(
    const AttentionProblem &problem, const AttentionBackwardInputs &inputs,
    const std::vector<std::vector<uint8_t>> &out,
    const std::vector<std::vector<uint8_t>> *other, bool exactDq);

/// One backward kernel as run: compiled, and its launch's figures.
struct BackwardKernelRun {
  PreparedKernel kernel;
  LaunchStats stats;
};

struct AttentionBackwardResult {
  AttentionBackwardVariant variant = AttentionBackwardVariant::deterministic;
  /// The kernels, in the order they ran.
  std::vector<BackwardKernelRun> kernels;
  AttentionBackwardCheck check;
  /// TestKind::compare: dQ bit for bit (neither version fused), else within
  /// the fp64 check's bound.
  bool compareExactDq = true;
  bool passed() const { return check.bad() == 0; }
  /// 10 B Hq Nq Nkv d, halved when causal.
  double flops = 0;
  /// What AttentionBackwardConfig::saves wrote where, one line each.
  std::vector<std::string> saved;
};

/// The workload: the forward for O and LSE, the backward kernels, the check.
llvm::Expected<AttentionBackwardResult>
runAttentionBackwardWorkload(MLIRContext &context,
                             const AttentionBackwardConfig &config);

} // namespace mlir::hk::run

#endif // HK_HARNESS_ATTENTIONBACKWARDWORKLOAD_H
