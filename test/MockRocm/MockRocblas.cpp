//===- MockRocblas.cpp - a stand-in librocblas.so for the tests -----------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements rocblas_gemm_ex as rocBLAS documents it, on the host
// (device memory is host memory under the mock HIP runtime): column-major
// D = alpha op(A) op(B) + beta C with bf16 matrices and fp32 computation.
// Because it follows the documented column-major semantics rather than hk's
// row-major view, a test that checks hk-run's rocBLAS baseline against fp64
// checks hk's mapping of its row-major product onto rocBLAS.
//
//===----------------------------------------------------------------------===//

#include "HK/Runtime/BFloat16.h"

#include <cstdint>

using mlir::hk::bf16ToFloat;
using mlir::hk::floatToBf16;

namespace {
// rocblas_status, rocblas_operation and rocblas_datatype values.
constexpr int kSuccess = 0, kInvalidHandle = 1, kNotImplemented = 2,
              kInvalidSize = 4;
constexpr int kNone = 111, kTranspose = 112;
constexpr int kBf16 = 168, kF32 = 151;
int handles = 0;
} // namespace

extern "C" {
int rocblas_create_handle(void **handle) {
  *handle = &handles;
  ++handles;
  return kSuccess;
}
int rocblas_destroy_handle(void *handle) {
  if (handle != &handles || handles == 0)
    return kInvalidHandle;
  --handles;
  return kSuccess;
}
int rocblas_gemm_ex(void *handle, int transA, int transB, int m, int n, int k,
                    const void *alpha, const void *a, int aType, int lda,
                    const void *b, int bType, int ldb, const void *beta,
                    const void *c, int cType, int ldc, void *d, int dType,
                    int ldd, int computeType, int algo, int32_t solution,
                    uint32_t flags) {
  if (handle != &handles)
    return kInvalidHandle;
  if (aType != kBf16 || bType != kBf16 || cType != kBf16 || dType != kBf16 ||
      computeType != kF32 || algo != 0 || solution != 0 || flags != 0 ||
      (transA != kNone && transA != kTranspose) ||
      (transB != kNone && transB != kTranspose))
    return kNotImplemented;
  // Column-major: op(A) is m x k, op(B) is k x n.
  if (m < 0 || n < 0 || k < 0 || lda < (transA == kNone ? m : k) ||
      ldb < (transB == kNone ? k : n) || ldc < m || ldd < m)
    return kInvalidSize;
  auto *A = static_cast<const uint16_t *>(a);
  auto *B = static_cast<const uint16_t *>(b);
  auto *C = static_cast<const uint16_t *>(c);
  auto *D = static_cast<uint16_t *>(d);
  float al = *static_cast<const float *>(alpha);
  float be = *static_cast<const float *>(beta);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      float acc = 0;
      for (int p = 0; p < k; ++p) {
        uint16_t x =
            transA == kNone ? A[i + int64_t(p) * lda] : A[p + int64_t(i) * lda];
        uint16_t y =
            transB == kNone ? B[p + int64_t(j) * ldb] : B[j + int64_t(p) * ldb];
        acc += bf16ToFloat(x) * bf16ToFloat(y);
      }
      float old = be == 0 ? 0 : be * bf16ToFloat(C[i + int64_t(j) * ldc]);
      D[i + int64_t(j) * ldd] = floatToBf16(al * acc + old);
    }
  return kSuccess;
}
}
