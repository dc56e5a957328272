//===- AttentionBackwardWorkload.h - the attention backward checks -*- C++
//-*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The attention backward workload (hk-run --attention-bwd, docs/Attention.md):
// Q, K, V and dO drawn in bf16, hk's forward kernel run for O and LSE, then
// the backward kernels (dQ and D, then dK and dV), checked against fp64
// gradients of the same bf16 inputs with per-element bounds derived from
// the kernels' roundings, or bit for bit against another version.
//
//===----------------------------------------------------------------------===//

#ifndef HK_HARNESS_ATTENTIONBACKWARDWORKLOAD_H
#define HK_HARNESS_ATTENTIONBACKWARDWORKLOAD_H

#include "HK/Harness/AttentionWorkload.h"

namespace mlir::hk::run {

/// The backward kernels' arguments, in order (both kernels take them all).
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
  bwdBuffers = bwdCausal
};

/// The backward problem: the forward's sizes and mask, the backward's
/// argument list.
struct AttentionBackwardProblem : KernelArguments {
  AttentionProblem forward;

  std::optional<int64_t> extent(unsigned arg, int64_t dim) const override;
  std::optional<int64_t> stride(unsigned arg, int64_t dim) const override;
  std::optional<uint64_t> scalarBits(unsigned arg) const override;
  bool isBuffer(unsigned arg) const override { return arg < bwdBuffers; }
  /// The forward argument whose shape backward argument `arg` has.
  static unsigned shapeOf(unsigned arg);
};

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

struct AttentionBackwardResult {
  /// The dQ and the dK/dV kernels.
  PreparedKernel dqKernel, dkdvKernel;
  LaunchStats dqStats, dkdvStats;
  AttentionBackwardCheck check;
  bool passed() const { return check.bad() == 0; }
  /// 10 B Hq Nq Nkv d, halved when causal.
  double flops = 0;
};

/// The workload: the forward for O and LSE, both backward kernels, the check.
llvm::Expected<AttentionBackwardResult>
runAttentionBackwardWorkload(MLIRContext &context,
                             const AttentionBackwardConfig &config);

} // namespace mlir::hk::run

#endif // HK_HARNESS_ATTENTIONBACKWARDWORKLOAD_H
