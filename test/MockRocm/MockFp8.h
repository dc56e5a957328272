//===- MockFp8.h - OCP fp8 values for the mock libraries ------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The value of an OCP fp8 code, from the format's definition (e4m3fn: bias
// 7, no infinities, S.1111.111 NaN; e5m2: bias 15, IEEE-like), written out
// here so the mocks do not share hk's own decoding.
//
//===----------------------------------------------------------------------===//

#ifndef HK_TEST_MOCKROCM_MOCKFP8_H
#define HK_TEST_MOCKROCM_MOCKFP8_H

#include <cmath>
#include <cstdint>
#include <limits>

inline float mockFp8Value(uint8_t code, bool e5m2) {
  int mantissaBits = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
  int exponent = (code >> mantissaBits) & (e5m2 ? 0x1f : 0xf);
  int mantissa = code & ((1 << mantissaBits) - 1);
  float sign = code & 0x80 ? -1.0f : 1.0f;
  if (e5m2 && exponent == 0x1f)
    return mantissa ? std::numeric_limits<float>::quiet_NaN()
                    : sign * std::numeric_limits<float>::infinity();
  if (!e5m2 && exponent == 0xf && mantissa == 7)
    return std::numeric_limits<float>::quiet_NaN();
  float fraction = float(mantissa) / float(1 << mantissaBits);
  if (exponent == 0)
    return sign * std::ldexp(fraction, 1 - bias);
  return sign * std::ldexp(1.0f + fraction, exponent - bias);
}

#endif // HK_TEST_MOCKROCM_MOCKFP8_H
