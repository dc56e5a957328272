//===- ParseGfx950.h - gfx950 assembly for hk-perf's unit tests -*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef HK_UNITTESTS_PERF_PARSEGFX950_H
#define HK_UNITTESTS_PERF_PARSEGFX950_H

#include "HK/Isa/Isa.h"

#include "llvm/Support/Error.h"

#include "gtest/gtest.h"

namespace mlir::hk::perf::test {

/// `text` as a gfx950 instruction stream; a test failure (and an empty
/// stream) when it does not assemble.
inline isa::InstructionStream parse(llvm::StringRef text) {
  llvm::Expected<isa::InstructionStream> stream =
      isa::parseAssembly(text, isa::Arch::gfx950);
  if (!stream) {
    ADD_FAILURE() << llvm::toString(stream.takeError());
    return {};
  }
  return std::move(*stream);
}

} // namespace mlir::hk::perf::test

#endif // HK_UNITTESTS_PERF_PARSEGFX950_H
