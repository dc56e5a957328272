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

#include "mlir/IR/MLIRContext.h"

#include <cstdint>
#include <vector>

namespace mlir::hk::run {

/// An attention problem: the sizes of --attention and --causal.
struct AttentionProblem : KernelArguments {
  int64_t batch = 1, qHeads = 1, kvHeads = 1, queries = 1, keys = 1,
          headDim = 64;
  bool causal = false;

  std::optional<int64_t> extent(unsigned arg, int64_t dim) const override;
  std::optional<int64_t> stride(unsigned arg, int64_t dim) const override;
  std::optional<uint64_t> scalarBits(unsigned arg) const override;
  bool isBuffer(unsigned arg) const override { return arg < 5; }

  /// The sizes of argument `arg` (Q, K, V, O or LSE).
  std::vector<int64_t> shape(unsigned arg) const;
  /// Elements of argument `arg`.
  int64_t elements(unsigned arg) const;
};

/// The kernel's arguments, in order.
enum AttentionArg : unsigned { argQ, argK, argV, argO, argLse, argCausal };

/// Checks the options (--attention, --causal, --test) into `problem`; 0, or
/// exit status 2 after printing why.
int makeAttentionProblem(AttentionProblem &problem);

/// Checks that kernel `name` of argument types `types` computes attention
/// for `problem` (the signature above, its head dim); 0, or exit status 2
/// after printing why not.
int checkAttentionKernel(StringRef name, ArrayRef<Type> types,
                         const AttentionProblem &problem);

/// The inputs: Q, K, V as bf16 bits, and the kernel's buffers (Q, K, V, O,
/// LSE; O and LSE filled with NaN, so that an element the kernel does not
/// write fails the check).
struct AttentionInputs {
  std::vector<uint16_t> q, k, v;
  std::vector<std::vector<uint8_t>> buffers;
};

/// Draws the inputs for `problem` (--seed).
void makeAttentionInputs(const AttentionProblem &problem,
                         AttentionInputs &inputs);

/// How O and LSE compare with the reference (or another kernel's).
struct AttentionCheck {
  double maxAbsO = 0, maxAbsLse = 0;
  int64_t badO = 0, badLse = 0;
  int64_t checked = 0;
  int64_t bad() const { return badO + badLse; }
};

/// Checks the kernel's O and LSE buffers against the fp64 reference, or
/// bit for bit against `other`'s buffers (--test=compare).
AttentionCheck checkAttention(const AttentionProblem &problem,
                              const AttentionInputs &inputs,
                              const std::vector<std::vector<uint8_t>> &result,
                              const std::vector<std::vector<uint8_t>> *other);

/// hk-run's attention workload: compiles the kernel (and --compare's), runs
/// it on random inputs, checks O and LSE and reports; the exit status.
int runAttentionWorkload(MLIRContext &context);

} // namespace mlir::hk::run

#endif // HK_HARNESS_ATTENTIONWORKLOAD_H
