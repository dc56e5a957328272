//===- MockHip.cpp - a stand-in libamdhip64.so for the tests --------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the HIP entry points hk-run's hip backend loads, on
// the host, so that the backend's own code (loading a code object, finding
// the kernel, marshalling arguments, copies, launches, event timing) runs
// in the test suite on machines without a GPU. Device memory is host memory.
// A launch of hk's GEMM kernel (`gemm_bf16`, arguments: A, B, C each as a
// pointer and two i32 sizes) computes C = A B^T on the CPU (bf16 inputs, fp32
// accumulation, rounded to bf16; A or B K-major when its sizes say so, the
// operand layouts of hk-run --layout) after checking the argument sizes against
// each other and the grid and workgroup size against the reference kernels'
// tiles. A launch of the fp8 GEMM (`gemm_fp8`: A, B as fp8 codes, C bf16,
// then scale_a and scale_b as f32 values) computes scale_a scale_b A B^T the
// same way, reading the codes as e4m3 (the examples' own format: the mock
// cannot tell which format hk-set-fp8-format chose); a launch of any other
// kernel fails. It is a test double: it
// says nothing about the speed or correctness of the code object itself.
//
//===----------------------------------------------------------------------===//

#include "HK/Runtime/BFloat16.h"
#include "MockFp8.h"

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using mlir::hk::bf16ToFloat;
using mlir::hk::floatToBf16;

namespace {
// hipError_t values the mock returns.
constexpr int kSuccess = 0, kInvalidValue = 1, kInvalidImage = 200,
              kNotFound = 500, kNotSupported = 801;
constexpr uint16_t kElfMachineAmdgpu = 224;

struct Function {
  std::string name;
};
/// Like HIP's, a module owns the function handles taken from it: unloading
/// it frees them.
struct Module {
  const unsigned char *image;
  size_t size;
  std::vector<std::unique_ptr<Function>> functions;
};
struct Event {
  std::chrono::steady_clock::time_point when;
};

/// The ELF file's size from its header: the section headers come last.
size_t elfSize(const unsigned char *image) {
  uint64_t shoff;
  uint16_t shentsize, shnum;
  std::memcpy(&shoff, image + 0x28, 8);
  std::memcpy(&shentsize, image + 0x3a, 2);
  std::memcpy(&shnum, image + 0x3c, 2);
  return shoff + size_t(shentsize) * shnum;
}

/// The reference GEMMs' C tile per workgroup, from their workgroup size:
/// 512 lanes (gfx950) compute 256 x 256, 256 lanes (gfx1201) 128 x 128.
int64_t tileOfBlock(unsigned lanes) {
  return lanes == 512 ? 256 : lanes == 256 ? 128 : 0;
}

template <typename Element>
int gemm(void **params, unsigned gx, unsigned gy, unsigned bx,
         float (*value)(Element), float scale) {
  auto size = [&](int i) {
    return int64_t(*static_cast<uint32_t *>(params[i]));
  };
  const Element *a = *static_cast<Element **>(params[0]);
  const Element *b = *static_cast<Element **>(params[3]);
  uint16_t *c = *static_cast<uint16_t **>(params[6]);
  int64_t m = size(7), n = size(8);
  // The operand layout from the sizes (hk-run --layout): A is M x K or
  // K x M, B N x K or K x N; where M = K or N = K, the reference's.
  bool aKMajor = size(1) != m, bKMajor = size(4) != n;
  int64_t k = aKMajor ? size(1) : size(2);
  if ((aKMajor ? size(2) : size(1)) != m ||
      (bKMajor ? size(4) : size(5)) != k || (bKMajor ? size(5) : size(4)) != n)
    return kInvalidValue;
  // The grid is (ceil(N / tile n), ceil(M / tile m)), as the launch
  // description says: the reference tile of the workgroup size, or one
  // halved along M or N (the kernel library's smaller default blocks).
  int64_t tile = tileOfBlock(bx);
  auto covers = [&](int64_t tileM, int64_t tileN) {
    return int64_t(gx) == (n + tileN - 1) / tileN &&
           int64_t(gy) == (m + tileM - 1) / tileM;
  };
  if (tile == 0 ||
      !(covers(tile, tile) || covers(tile / 2, tile) || covers(tile, tile / 2)))
    return kInvalidValue;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float acc = 0;
      for (int64_t p = 0; p < k; ++p)
        acc += value(a[aKMajor ? p * m + i : i * k + p]) *
               value(b[bKMajor ? p * n + j : j * k + p]);
      c[i * n + j] = floatToBf16(scale * acc);
    }
  return kSuccess;
}
} // namespace

extern "C" {
int hipInit(unsigned) { return kSuccess; }
int hipGetDeviceCount(int *count) {
  *count = 1;
  return kSuccess;
}
const char *hipGetErrorString(int error) {
  switch (error) {
  case kInvalidValue:
    return "mock: invalid value";
  case kInvalidImage:
    return "mock: not an AMDGPU code object";
  case kNotFound:
    return "mock: no such kernel in the code object";
  case kNotSupported:
    return "mock: only hk's gemm_bf16 kernel runs here";
  default:
    return "mock: unknown error";
  }
}
int hipModuleLoadData(void **module, const void *data) {
  auto *image = static_cast<const unsigned char *>(data);
  uint16_t machine;
  std::memcpy(&machine, image + 0x12, 2);
  if (std::memcmp(image,
                  "\x7f"
                  "ELF",
                  4) != 0 ||
      machine != kElfMachineAmdgpu)
    return kInvalidImage;
  *module = new Module{image, elfSize(image), {}};
  return kSuccess;
}
int hipModuleUnload(void *module) {
  delete static_cast<Module *>(module);
  return kSuccess;
}
int hipModuleGetFunction(void **function, void *module, const char *name) {
  auto *m = static_cast<Module *>(module);
  std::string symbol = std::string(name) + ".kd";
  std::string bytes(reinterpret_cast<const char *>(m->image), m->size);
  if (bytes.find(symbol) == std::string::npos)
    return kNotFound;
  m->functions.push_back(std::make_unique<Function>(Function{name}));
  *function = m->functions.back().get();
  return kSuccess;
}
int hipMalloc(void **pointer, size_t bytes) {
  *pointer = std::malloc(bytes ? bytes : 1);
  return *pointer ? kSuccess : kInvalidValue;
}
int hipFree(void *pointer) {
  std::free(pointer);
  return kSuccess;
}
int hipMemcpy(void *dst, const void *src, size_t bytes, int kind) {
  if (kind != 1 && kind != 2) // host to device, device to host
    return kInvalidValue;
  std::memcpy(dst, src, bytes);
  return kSuccess;
}
int hipModuleLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz,
                          unsigned bx, unsigned by, unsigned bz, unsigned,
                          void *, void **params, void **extra) {
  if (!params || extra || gx == 0 || gy == 0 || gz != 1 || bx == 0 || by != 1 ||
      bz != 1)
    return kInvalidValue;
  const std::string &name = static_cast<Function *>(function)->name;
  if (name == "gemm_bf16")
    return gemm<uint16_t>(params, gx, gy, bx, bf16ToFloat, 1.0f);
  if (name == "gemm_fp8") {
    float scaleA = *static_cast<float *>(params[9]);
    float scaleB = *static_cast<float *>(params[10]);
    return gemm<uint8_t>(
        params, gx, gy, bx, [](uint8_t x) { return mockFp8Value(x, false); },
        scaleA * scaleB);
  }
  return kNotSupported;
}
int hipDeviceSynchronize() { return kSuccess; }
int hipEventCreate(void **event) {
  *event = new Event{};
  return kSuccess;
}
int hipEventRecord(void *event, void *) {
  static_cast<Event *>(event)->when = std::chrono::steady_clock::now();
  return kSuccess;
}
int hipEventSynchronize(void *) { return kSuccess; }
int hipEventElapsedTime(float *ms, void *start, void *stop) {
  *ms =
      std::chrono::duration<float, std::milli>(
          static_cast<Event *>(stop)->when - static_cast<Event *>(start)->when)
          .count();
  return kSuccess;
}
int hipEventDestroy(void *event) {
  delete static_cast<Event *>(event);
  return kSuccess;
}
}
