//===- EnumOptions.h - hk's enums as command-line values --------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The values of the options that take one of hk's enums, for the passes'
// options (Passes.td, as the Canonicalizer's region-simplify takes
// GreedySimplifyRegionLevel), the pipelines' and the tools' flags: one
// spelling everywhere, the enum's own (Enums.td).
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_UTILS_ENUMOPTIONS_H
#define HK_DIALECT_HK_UTILS_ENUMOPTIONS_H

#include "HK/Dialect/HK/Utils/Enums.h"

#include "llvm/Support/CommandLine.h"

namespace mlir::hk {

/// One value of an enum option, spelled as the enum prints it.
template <typename EnumType>
llvm::cl::OptionEnumValue enumOptionValue(EnumType value,
                                          llvm::StringRef description) {
  return {stringifyEnum(value), int(value), description};
}

/// The values of every `chip` option of hk's passes, pipelines and tools.
inline auto chipOptionValues() {
  return llvm::cl::values(enumOptionValue(Chip::gfx950, "CDNA4, MI350/MI355X"),
                          enumOptionValue(Chip::gfx1201, "RDNA4, RX 9070"));
}

inline auto scheduleOptionValues() {
  return llvm::cl::values(
      enumOptionValue(Schedule::none,
                      "the program's order (double-buffered with stages=2)"),
      enumOptionValue(Schedule::pingPong,
                      "HipKittens' 8-wave ping-pong clusters with derived "
                      "partial waits, fills and the next cluster's reads "
                      "issued beside the MMAs (double-buffered, direct-to-LDS "
                      "fills: gfx950)"),
      enumOptionValue(Schedule::pingPongHK,
                      "the same with reads and fills between clusters, as "
                      "HipKittens places them"),
      enumOptionValue(Schedule::interleave,
                      "one barrier per K tile, in its middle, fills two tiles "
                      "ahead and the first MMA's operands read a tile ahead "
                      "(hk-schedule-interleave; double-buffered, "
                      "direct-to-LDS fills: gfx950)"));
}

inline auto workgroupOrderOptionValues() {
  return llvm::cl::values(
      enumOptionValue(WorkgroupOrder::rowMajor,
                      "workgroup (x, y) computes tile row y, column x"),
      enumOptionValue(WorkgroupOrder::xcd,
                      "HipKittens' order for L2 locality: ids chunked over "
                      "the chip's XCDs, then groups of 8 tile rows "
                      "(hk-remap-workgroups)"));
}

/// The fp8 formats a kernel can be rewritten to (hk-set-fp8-format).
inline auto fp8FormatOptionValues() {
  return llvm::cl::values(
      enumOptionValue(Fp8Format::e4m3, "every fp8 type becomes f8E4M3FN"),
      enumOptionValue(Fp8Format::e5m2, "every fp8 type becomes f8E5M2"));
}

/// The same with `source`, which keeps the source's fp8 types.
inline auto fp8FormatKnobValues() {
  return llvm::cl::values(
      enumOptionValue(Fp8Format::source, "keep the source's fp8 types"),
      enumOptionValue(Fp8Format::e4m3, "every fp8 type becomes f8E4M3FN"),
      enumOptionValue(Fp8Format::e5m2, "every fp8 type becomes f8E5M2"));
}

} // namespace mlir::hk

#endif // HK_DIALECT_HK_UTILS_ENUMOPTIONS_H
