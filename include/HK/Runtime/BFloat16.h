//===- BFloat16.h - bf16 <-> f32 conversions --------------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The bf16 conversions the simulator and the harness share: widening is
// exact; narrowing rounds to nearest even, as the hardware and
// `fptrunc ... to bfloat` do.
//
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_BFLOAT16_H
#define HK_RUNTIME_BFLOAT16_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace mlir::hk {

inline float bf16ToFloat(uint16_t bits) {
  uint32_t w = uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}

/// f32 -> bf16, round to nearest even; NaN stays a (quiet) NaN.
inline uint16_t floatToBf16(float f) {
  if (std::isnan(f))
    return 0x7fc0;
  uint32_t w;
  std::memcpy(&w, &f, 4);
  return static_cast<uint16_t>((w + 0x7fff + ((w >> 16) & 1)) >> 16);
}

} // namespace mlir::hk

#endif // HK_RUNTIME_BFLOAT16_H
