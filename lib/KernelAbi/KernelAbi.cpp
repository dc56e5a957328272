//===- KernelAbi.cpp - the arguments of a compiled hk kernel --------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HK/KernelAbi/KernelAbi.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::hk;

/// The dimensions whose strides a kernel receives for `type`: none when
/// row-major, else its dynamic ones (after its dynamic sizes).
static SmallVector<int64_t> dynamicStrideDims(MemRefType type) {
  SmallVector<int64_t> dims;
  if (type.getLayout().isIdentity())
    return dims;
  auto [strides, offset] = type.getStridesAndOffset();
  for (auto [dim, stride] : llvm::enumerate(strides))
    if (ShapedType::isDynamic(stride))
      dims.push_back(dim);
  return dims;
}

SmallVector<KernelAbiEntry> mlir::hk::getKernelAbi(TypeRange argTypes) {
  using Kind = KernelAbiEntry::Kind;
  SmallVector<KernelAbiEntry> abi;
  for (auto [i, type] : llvm::enumerate(argTypes)) {
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref) {
      abi.push_back({Kind::value, unsigned(i)});
      continue;
    }
    abi.push_back({Kind::pointer, unsigned(i)});
    for (int64_t dim = 0; dim < memref.getRank(); ++dim)
      if (memref.isDynamicDim(dim))
        abi.push_back({Kind::size, unsigned(i), dim});
    for (int64_t dim : dynamicStrideDims(memref))
      abi.push_back({Kind::stride, unsigned(i), dim});
  }
  return abi;
}

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
