//===- LaunchFuzzer.cpp - libFuzzer target: launch descriptions -----------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Any text is a launch description (hk-compile --launch) to
// parseLaunchDescription: it must read it or say why.
//
//===----------------------------------------------------------------------===//

#include "HK/KernelAbi/LaunchDescription.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::Expected<mlir::hk::LaunchDescription> description =
      mlir::hk::parseLaunchDescription(
          llvm::StringRef(reinterpret_cast<const char *>(data), size));
  if (!description)
    llvm::consumeError(description.takeError());
  return 0;
}
