//===- KernelAbi.cpp - the arguments of a compiled hk kernel --------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HK/KernelAbi/KernelAbi.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::hk;

StringRef mlir::hk::stringifyKernelAbiKind(KernelAbiEntry::Kind kind) {
  switch (kind) {
  case KernelAbiEntry::Kind::pointer:
    return "pointer";
  case KernelAbiEntry::Kind::size:
    return "size";
  case KernelAbiEntry::Kind::stride:
    return "stride";
  case KernelAbiEntry::Kind::value:
    return "value";
  }
  llvm_unreachable("unknown kernel argument kind");
}

std::optional<KernelAbiEntry::Kind>
mlir::hk::symbolizeKernelAbiKind(StringRef name) {
  using Kind = KernelAbiEntry::Kind;
  return llvm::StringSwitch<std::optional<Kind>>(name)
      .Case("pointer", Kind::pointer)
      .Case("size", Kind::size)
      .Case("stride", Kind::stride)
      .Case("value", Kind::value)
      .Default(std::nullopt);
}
