//===- NpyFuzzer.cpp - libFuzzer target: the .npy reader ------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Any bytes are a .npy file to parseNpy: it must accept them or say why,
// and an accepted array's data must be exactly what its shape and dtype
// need.
//
//===----------------------------------------------------------------------===//

#include "HK/Runtime/Npy.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::Expected<mlir::hk::NpyArray> array = mlir::hk::parseNpy(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), "input");
  if (!array) {
    llvm::consumeError(array.takeError());
    return 0;
  }
  uint64_t count = 1;
  for (int64_t n : array->shape)
    count *= uint64_t(n);
  unsigned itemSize = std::atoi(array->dtype.c_str() + 2);
  if (array->data.size() != count * itemSize)
    std::abort(); // accepted an array whose data does not fit its shape
  return 0;
}
