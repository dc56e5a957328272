//===- KernelLaunch.cpp - a kernel's launch, read from its IR -------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the IR readers of the kernel ABI: the argument list
// of a signature, the launch description of a kernel and the layout of a
// GEMM's operands, and the edits that leave one kernel to compile.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Analysis/KernelLaunch.h"

#include "HK/Dialect/HK/IR/HKDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseMap.h"

using namespace llvm;
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

/// `value` as MLIR prints it.
template <typename T> static std::string print(T value) {
  std::string text;
  raw_string_ostream(text) << value;
  return text;
}

void mlir::hk::eraseOtherKernels(gpu::GPUFuncOp kernel) {
  auto module = kernel->getParentOfType<gpu::GPUModuleOp>();
  for (auto func : llvm::make_early_inc_range(module.getOps<gpu::GPUFuncOp>()))
    if (func.isKernel() && func != kernel)
      func.erase();
}

void mlir::hk::eraseAllButGpuModule(gpu::GPUModuleOp kept) {
  Block *body = kept->getBlock();
  for (Operation &op : llvm::make_early_inc_range(body->getOperations()))
    if (&op != kept.getOperation())
      op.erase();
}

std::string mlir::hk::listKernelNames(Operation *root) {
  std::string names;
  root->walk([&](gpu::GPUFuncOp f) {
    if (f.isKernel())
      names += (names.empty() ? "" : ", ") + f.getName().str();
  });
  return names.empty() ? "none" : names;
}

/// The kernel argument `v` views (through subviews and casts), or null.
static BlockArgument viewedArgument(mlir::Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return dyn_cast<BlockArgument>(v);
}

OperandLayout mlir::hk::readOperandLayout(gpu::GPUFuncOp kernel) {
  // Each shared tile argument 0 or 1 is copied into, and whether the copy
  // transposes.
  llvm::DenseMap<mlir::Value, std::pair<unsigned, bool>> fills;
  kernel.walk([&](CopyToSharedOp copy) {
    BlockArgument source = viewedArgument(copy.getSource());
    if (source && source.getOwner() == &kernel.getBody().front() &&
        source.getArgNumber() <= 1)
      fills[copy.getTile()] = {source.getArgNumber(), copy.getTranspose()};
  });
  // An operand is K-major where its tile is read transposed or was filled
  // transposed, not both; reads that disagree say nothing.
  std::optional<bool> kMajor[2];
  bool conflicting[2] = {false, false};
  kernel.walk([&](LoadFragmentOp load) {
    auto fill = fills.find(load.getTile());
    if (fill == fills.end())
      return;
    auto [operand, copyTransposed] = fill->second;
    bool k = copyTransposed != load.getTranspose();
    conflicting[operand] |= kMajor[operand] && *kMajor[operand] != k;
    kMajor[operand] = k;
  });
  OperandLayout layout;
  if (kMajor[0] && !conflicting[0])
    layout.transposeA = *kMajor[0];
  // B is N x K in the kernel's own terms: K-major B is the untransposed one.
  if (kMajor[1] && !conflicting[1])
    layout.transposeB = !*kMajor[1];
  return layout;
}

LaunchDescription::Kernel mlir::hk::describeKernel(gpu::GPUFuncOp kernel) {
  LaunchDescription::Kernel out;
  out.name = kernel.getName().str();
  TypeRange types = kernel.getArgumentTypes();
  for (Type type : types)
    out.argTypes.push_back(print(type));
  for (const KernelAbiEntry &entry : getKernelAbi(types)) {
    Type type = types[entry.arg];
    LaunchDescription::Kernarg arg{entry, {}};
    if (entry.kind == KernelAbiEntry::Kind::pointer)
      arg.type = print(cast<MemRefType>(type).getElementType());
    else if (entry.kind == KernelAbiEntry::Kind::value)
      arg.type = print(type);
    out.kernargs.push_back(std::move(arg));
  }
  if (DenseI32ArrayAttr block = kernel.getKnownBlockSizeAttr())
    out.block = {block.asArrayRef()[0], block.asArrayRef()[1],
                 block.asArrayRef()[2]};
  if (auto launch =
          kernel->getAttrOfType<LaunchAttr>(HKDialect::getLaunchAttrName()))
    out.launch = LaunchDescription::Launch{
        std::vector<SizeTerm>(launch.getGrid().begin(), launch.getGrid().end()),
        std::vector<SizeTerm>(launch.getDivisible().begin(),
                              launch.getDivisible().end())};
  OperandLayout layout = readOperandLayout(kernel);
  out.transposeA = layout.transposeA;
  out.transposeB = layout.transposeB;
  return out;
}
