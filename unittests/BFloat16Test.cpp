//===- BFloat16Test.cpp - bf16 conversions --------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The simulator's bf16 rounding equals LLVM's APFloat round-to-nearest-even.
//
//===----------------------------------------------------------------------===//

#include "HK/Runtime/BFloat16.h"

#include "llvm/ADT/APFloat.h"

#include "gtest/gtest.h"

#include <random>

using namespace mlir::hk;

namespace {

uint16_t reference(float f) {
  llvm::APFloat v(f);
  bool lost;
  v.convert(llvm::APFloat::BFloat(), llvm::APFloat::rmNearestTiesToEven, &lost);
  return static_cast<uint16_t>(v.bitcastToAPInt().getZExtValue());
}

TEST(BFloat16Test, RoundsToNearestEven) {
  // Ties: 1 + 2^-8 is halfway between 1 and 1 + 2^-7 and goes to even (1);
  // 1 + 3 * 2^-8 goes up to 1 + 2^-6.
  EXPECT_EQ(floatToBf16(1.0f + 0x1p-8f), 0x3f80);
  EXPECT_EQ(floatToBf16(1.0f + 3 * 0x1p-8f), 0x3f82);
  EXPECT_EQ(floatToBf16(-0.0f), 0x8000);
  EXPECT_EQ(floatToBf16(NAN) & 0x7fc0, 0x7fc0);
  std::mt19937 rng(7);
  std::uniform_int_distribution<uint32_t> bits;
  for (int i = 0; i < 1000000; ++i) {
    uint32_t w = bits(rng);
    float f;
    std::memcpy(&f, &w, 4);
    if (std::isnan(f))
      continue;
    ASSERT_EQ(floatToBf16(f), reference(f)) << std::hex << w;
  }
}

TEST(BFloat16Test, WideningIsExact) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float f = bf16ToFloat(static_cast<uint16_t>(h));
    if (!std::isnan(f))
      ASSERT_EQ(floatToBf16(f), h);
  }
}

} // namespace
