//===- Hip.h - the HIP backend ----------------------------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The `hip` backend: loads libamdhip64.so at run time (hk has no build-time
// dependency on ROCm), loads a code object, launches a kernel on the first
// GPU and times it with events.
//
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_HIP_H
#define HK_RUNTIME_HIP_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace mlir::hk::hip {

/// Why the HIP backend cannot run here, as opposed to a failure of a run.
class UnavailableError : public llvm::ErrorInfo<UnavailableError> {
public:
  static char ID;
  explicit UnavailableError(std::string message) : text(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override { os << text; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string text;
};

/// A kernel argument: a host buffer copied to the device (and back after
/// the run, when `output`), or a 32-bit value.
struct Argument {
  std::vector<uint8_t> *buffer = nullptr;
  bool output = false;
  uint32_t value = 0;
};

struct Timing {
  std::vector<double> milliseconds; // one per timed run
  double median() const;
};

/// Runs `kernel` of the code object `image` once (results copied back),
/// then `warmup` untimed and `iterations` timed launches. Fails with
/// UnavailableError when there is no HIP runtime or no GPU.
llvm::Expected<Timing> run(llvm::StringRef image, llvm::StringRef kernel,
                           std::array<int64_t, 3> grid,
                           std::array<int64_t, 3> block,
                           std::vector<Argument> &arguments, int warmup,
                           int iterations);

/// C[M,N] = A[M,K] @ B[N,K]^T (bf16, fp32 accumulation) through rocBLAS's
/// rocblas_gemm_ex, loaded at run time from librocblas.so, with A stored
/// K x M when `transposeA` and B stored K x N when not `transposeB` (hk-run
/// --layout): the first run's C
/// is copied back into `c` (for checking), then `warmup` untimed and
/// `iterations` timed runs follow. An UnavailableError if HIP, a GPU or
/// rocBLAS is missing.
llvm::Expected<Timing> rocblasGemm(const std::vector<uint8_t> &a,
                                   const std::vector<uint8_t> &b,
                                   std::vector<uint8_t> &c, int64_t m,
                                   int64_t n, int64_t k, bool transposeA,
                                   bool transposeB, int warmup, int iterations);

/// C[M,N] = scale_a scale_b A[M,K] B[N,K]^T for OCP fp8 A and B (e4m3, or
/// e5m2 when `e5m2`; the codes as bytes), C bf16 or, with `f32Output`, f32,
/// through hipBLASLt's hipblasLtMatmul (fp32 compute, per-tensor scales on
/// the device), loaded at run time from libhipblaslt.so; measured like
/// rocblasGemm. An UnavailableError if HIP, a GPU or hipBLASLt is missing.
llvm::Expected<Timing>
hipblasLtFp8Gemm(const std::vector<uint8_t> &a, const std::vector<uint8_t> &b,
                 std::vector<uint8_t> &c, int64_t m, int64_t n, int64_t k,
                 bool e5m2, bool f32Output, float scaleA, float scaleB,
                 int warmup, int iterations);

} // namespace mlir::hk::hip

#endif // HK_RUNTIME_HIP_H
