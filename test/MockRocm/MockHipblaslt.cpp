//===- MockHipblaslt.cpp - a stand-in libhipblaslt.so for the tests -------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the hipBLASLt entry points hk-run's fp8 baseline
// calls, on the host (device memory is host memory under the mock HIP
// runtime), as hipBLASLt documents them: column-major D = alpha op(A) op(B)
// scale_a scale_b + beta C for OCP fp8 A and B (HIP_R_8F_E4M3 / _E5M2), C = D
// bf16 or f32, fp32 compute, the scales read through the device pointers set
// as A_SCALE_POINTER / B_SCALE_POINTER. Anything else is refused with a
// non-zero status. Following the documented semantics rather than hk's
// row-major view, it lets the tests check hk's mapping onto hipBLASLt.
//
//===----------------------------------------------------------------------===//

#include "HK/Runtime/BFloat16.h"
#include "MockFp8.h"

#include <cstdint>
#include <cstring>
#include <new>

using mlir::hk::floatToBf16;

namespace {
constexpr int kSuccess = 0, kInvalidValue = 7, kNotSupported = 8;
constexpr int kOpN = 111, kOpT = 112;
constexpr int kR32F = 0, kR16BF = 14, kR8FE4M3 = 28, kR8FE5M2 = 29;
constexpr int kCompute32F = 2;

struct Desc {
  int transA = kOpN, transB = kOpN;
  const float *scaleA = nullptr, *scaleB = nullptr;
};
struct Layout {
  int type;
  uint64_t rows, cols;
  int64_t ld;
};
struct Algo {
  uint8_t data[16];
  size_t maxWorkspaceBytes;
};
struct HeuristicResult {
  Algo algo;
  size_t workspaceSize;
  int state;
  float wavesCount;
  int reserved[4];
};
int handles = 0;
} // namespace

extern "C" {
int hipblasLtCreate(void **handle) {
  *handle = &handles;
  ++handles;
  return kSuccess;
}
int hipblasLtDestroy(void *handle) {
  if (handle != &handles || handles == 0)
    return kInvalidValue;
  --handles;
  return kSuccess;
}
int hipblasLtMatmulDescCreate(void **desc, int computeType, int scaleType) {
  if (computeType != kCompute32F || scaleType != kR32F)
    return kNotSupported;
  *desc = new Desc;
  return kSuccess;
}
int hipblasLtMatmulDescDestroy(void *desc) {
  delete static_cast<Desc *>(desc);
  return kSuccess;
}
int hipblasLtMatmulDescSetAttribute(void *desc, int attribute, const void *buf,
                                    size_t bytes) {
  auto *d = static_cast<Desc *>(desc);
  if ((attribute == 0 || attribute == 1) && bytes == 4) {
    int32_t op;
    std::memcpy(&op, buf, 4);
    if (op != kOpN && op != kOpT)
      return kInvalidValue;
    (attribute == 0 ? d->transA : d->transB) = op;
    return kSuccess;
  }
  if ((attribute == 5 || attribute == 6) && bytes == sizeof(void *)) {
    const float *scale;
    std::memcpy(&scale, buf, sizeof(scale));
    (attribute == 5 ? d->scaleA : d->scaleB) = scale;
    return kSuccess;
  }
  return kNotSupported;
}
int hipblasLtMatrixLayoutCreate(void **layout, int type, uint64_t rows,
                                uint64_t cols, int64_t ld) {
  if (ld < int64_t(rows))
    return kInvalidValue;
  *layout = new Layout{type, rows, cols, ld};
  return kSuccess;
}
int hipblasLtMatrixLayoutDestroy(void *layout) {
  delete static_cast<Layout *>(layout);
  return kSuccess;
}
int hipblasLtMatmulPreferenceCreate(void **pref) {
  *pref = new uint64_t(0);
  return kSuccess;
}
int hipblasLtMatmulPreferenceDestroy(void *pref) {
  delete static_cast<uint64_t *>(pref);
  return kSuccess;
}
int hipblasLtMatmulPreferenceSetAttribute(void *pref, int attribute,
                                          const void *buf, size_t bytes) {
  if (attribute != 1 || bytes != 8)
    return kNotSupported;
  std::memcpy(pref, buf, 8);
  return kSuccess;
}
int hipblasLtMatmulAlgoGetHeuristic(void *handle, void *, void *, void *,
                                    void *, void *, void *, int requested,
                                    HeuristicResult *results, int *found) {
  if (handle != &handles || requested < 1)
    return kInvalidValue;
  std::memset(results, 0, sizeof(HeuristicResult));
  *found = 1;
  return kSuccess;
}
int hipblasLtMatmul(void *handle, void *desc, const void *alpha, const void *a,
                    void *aLayout, const void *b, void *bLayout,
                    const void *beta, const void *c, void *cLayout, void *d,
                    void *dLayout, const void *, void *, size_t, void *) {
  auto *ds = static_cast<Desc *>(desc);
  auto *la = static_cast<Layout *>(aLayout);
  auto *lb = static_cast<Layout *>(bLayout);
  auto *lc = static_cast<Layout *>(cLayout);
  auto *ld = static_cast<Layout *>(dLayout);
  bool fp8A = la->type == kR8FE4M3 || la->type == kR8FE5M2;
  bool fp8B = lb->type == kR8FE4M3 || lb->type == kR8FE5M2;
  if (handle != &handles || !fp8A || !fp8B || lc->type != ld->type ||
      (ld->type != kR16BF && ld->type != kR32F) || !c || !ds->scaleA ||
      !ds->scaleB)
    return kNotSupported;
  // op(A) is m x k, op(B) k x n, D m x n.
  uint64_t m = ds->transA == kOpN ? la->rows : la->cols;
  uint64_t k = ds->transA == kOpN ? la->cols : la->rows;
  uint64_t kb = ds->transB == kOpN ? lb->rows : lb->cols;
  uint64_t n = ds->transB == kOpN ? lb->cols : lb->rows;
  if (k != kb || ld->rows != m || ld->cols != n || lc->rows != m ||
      lc->cols != n)
    return kInvalidValue;
  auto *A = static_cast<const uint8_t *>(a);
  auto *B = static_cast<const uint8_t *>(b);
  float al = *static_cast<const float *>(alpha);
  if (*static_cast<const float *>(beta) != 0)
    return kNotSupported;
  float scale = al * *ds->scaleA * *ds->scaleB;
  for (uint64_t j = 0; j < n; ++j)
    for (uint64_t i = 0; i < m; ++i) {
      float acc = 0;
      for (uint64_t p = 0; p < k; ++p) {
        uint8_t x = ds->transA == kOpN ? A[i + p * la->ld] : A[p + i * la->ld];
        uint8_t y = ds->transB == kOpN ? B[p + j * lb->ld] : B[j + p * lb->ld];
        acc += mockFp8Value(x, la->type == kR8FE5M2) *
               mockFp8Value(y, lb->type == kR8FE5M2);
      }
      float v = scale * acc;
      if (ld->type == kR32F)
        std::memcpy(static_cast<float *>(d) + i + j * ld->ld, &v, 4);
      else
        static_cast<uint16_t *>(d)[i + j * ld->ld] = floatToBf16(v);
    }
  return kSuccess;
}
}
