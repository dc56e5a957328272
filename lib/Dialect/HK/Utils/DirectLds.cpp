//===- DirectLds.cpp - direct-to-LDS fill addressing ----------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the global-side addressing of a direct-to-LDS fill of
// an st_16x32 tile (docs/Hardware.md#direct-lds-fill).
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Utils/DirectLds.h"

using namespace mlir::hk;

Coord mlir::hk::directLdsSourceSt16x32Cols64(int64_t p) {
  int64_t sub = p >> 9;          // 512-element (1 KiB) sub-tile
  int64_t r16 = (p & 511) >> 5;  // row inside the sub-tile
  int64_t flip = (r16 >> 3) & 1; // rows 8..15 swap their 32-byte halves
  int64_t cb = ((p & 31) >> 2) ^ (flip << 2); // 4-element block in the row
  return {(sub >> 1) * 16 + r16, cb * 4 + (sub & 1) * 32 + p % 4};
}
