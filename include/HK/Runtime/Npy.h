//===- Npy.h - NumPy .npy files ---------------------------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Reading and writing NumPy .npy arrays (format 1.0 and 2.0, C order,
// little-endian), for the harness's inputs and outputs.
//
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_NPY_H
#define HK_RUNTIME_NPY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::hk {

struct NpyArray {
  /// NumPy type string, e.g. "<f4" or "<u2".
  std::string dtype;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;
};

/// Reads `path`; errors name the file and what is wrong with it.
llvm::Expected<NpyArray> readNpy(llvm::StringRef path);

/// Parses the contents of a .npy file; `name` is what errors call it.
llvm::Expected<NpyArray> parseNpy(llvm::StringRef bytes, llvm::StringRef name);

/// Writes `array` to `path` in format 1.0.
llvm::Error writeNpy(llvm::StringRef path, const NpyArray &array);

} // namespace mlir::hk

#endif // HK_RUNTIME_NPY_H
