//===- LowerKernelAbi.cpp - bare-pointer kernel arguments -----------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements hk-lower-kernel-abi: kernels take each memref as a
// global pointer plus its dynamic sizes and (strided layouts) its dynamic
// strides, and rebuild the descriptor inside.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Analysis/KernelLaunch.h"
#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Dialect/HK/Transforms/Passes.h"
#include "HK/Dialect/HK/Transforms/Transforms.h"

#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

#define DEBUG_TYPE "hk-lower-kernel-abi"

namespace mlir::hk {
#define GEN_PASS_DEF_LOWERKERNELABI
#include "HK/Dialect/HK/Transforms/Passes.h.inc"
} // namespace mlir::hk

using namespace mlir;

/// AMDGPU's global address space.
static constexpr unsigned kGlobalAddressSpace = 1;

/// Builds, at the builder's position, the descriptor of `type` (row-major,
/// or strided with a static offset) whose data starts at `pointer` and whose
/// dynamic sizes and strides are `sizes` and `strides` (i32), and returns it
/// as a memref value.
static Value buildMemRef(OpBuilder &b, Location loc, MemRefType type,
                         Value pointer, ValueRange sizes, ValueRange strides,
                         const LLVMTypeConverter &converter) {
  auto structType = cast<LLVM::LLVMStructType>(converter.convertType(type));
  Type indexType = converter.getIndexType();
  MemRefDescriptor desc = MemRefDescriptor::poison(b, loc, structType);
  Type elementPtrType = desc.getElementPtrType();
  if (pointer.getType() != elementPtrType)
    pointer = LLVM::AddrSpaceCastOp::create(b, loc, elementPtrType, pointer);
  desc.setAllocatedPtr(b, loc, pointer);
  desc.setAlignedPtr(b, loc, pointer);
  auto [staticStrides, offset] = type.getStridesAndOffset();
  desc.setConstantOffset(b, loc, offset);

  auto index = [&](int64_t v) -> Value {
    return LLVM::ConstantOp::create(b, loc, indexType,
                                    b.getIntegerAttr(indexType, v));
  };
  auto dynamic = [&](ValueRange values, unsigned &next) -> Value {
    return LLVM::ZExtOp::create(b, loc, indexType, values[next++]);
  };
  SmallVector<Value> dims, given;
  unsigned nextSize = 0, nextStride = 0;
  for (int64_t dim : type.getShape())
    dims.push_back(ShapedType::isDynamic(dim) ? dynamic(sizes, nextSize)
                                              : index(dim));
  if (!type.getLayout().isIdentity())
    for (int64_t stride : staticStrides)
      given.push_back(ShapedType::isDynamic(stride)
                          ? dynamic(strides, nextStride)
                          : index(stride));
  // Row-major: each stride is the product of the sizes after it.
  Value stride = given.empty() ? index(1) : Value();
  for (int64_t i = type.getRank() - 1; i >= 0; --i) {
    desc.setSize(b, loc, i, dims[i]);
    desc.setStride(b, loc, i, given.empty() ? stride : given[i]);
    if (given.empty() && i > 0)
      stride = LLVM::MulOp::create(b, loc, stride, dims[i]);
  }
  return UnrealizedConversionCastOp::create(b, loc, type, Value(desc))
      .getResult(0);
}

LogicalResult mlir::hk::lowerKernelAbi(gpu::GPUFuncOp kernel,
                                       const LLVMTypeConverter &converter) {
  MLIRContext *ctx = kernel.getContext();
  Block &entry = kernel.front();
  unsigned numOld = kernel.getNumArguments();
  auto ptrType = LLVM::LLVMPointerType::get(ctx, kGlobalAddressSpace);
  auto i32 = IntegerType::get(ctx, 32);

  for (BlockArgument arg : entry.getArguments().take_front(numOld)) {
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || type.getLayout().isIdentity())
      continue;
    int64_t offset;
    SmallVector<int64_t> strides;
    if (failed(type.getStridesAndOffset(strides, offset)) ||
        ShapedType::isDynamic(offset))
      return kernel.emitOpError()
             << "argument #" << arg.getArgNumber() << " of type " << type
             << " is neither row-major nor strided with a static offset; "
                "hk-lower-kernel-abi passes a memref as a pointer, its "
                "dynamic sizes and its dynamic strides";
  }

  // Where each dynamic size goes: (old argument, dimension) -> new argument.
  DenseMap<std::pair<int64_t, int64_t>, int64_t> sizeArgument;

  // New arguments go after the old ones and before any attribution.
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  SmallVector<Type> inputs;
  unsigned insertAt = numOld;
  auto addArgument = [&](Type type, Location loc) {
    inputs.push_back(type);
    return entry.insertArgument(insertAt++, type, loc);
  };
  // The new arguments in getKernelAbi's order (the one hk-compile's launch
  // descriptions and hk-run follow), then each memref rebuilt from its own.
  struct MemRefParts {
    Value pointer;
    SmallVector<Value> sizes, strides;
  };
  SmallVector<MemRefParts> parts(numOld);
  auto oldTypes = llvm::to_vector(kernel.getArgumentTypes());
  for (const hk::KernelAbiEntry &e : getKernelAbi(oldTypes)) {
    BlockArgument arg = entry.getArgument(e.arg);
    switch (e.kind) {
    case hk::KernelAbiEntry::Kind::value:
      // An integer's value is its size 0 (a persistent kernel's grid).
      if (arg.getType().isInteger())
        sizeArgument[{e.arg, 0}] = insertAt - numOld;
      arg.replaceAllUsesWith(addArgument(arg.getType(), arg.getLoc()));
      break;
    case hk::KernelAbiEntry::Kind::pointer:
      parts[e.arg].pointer = addArgument(ptrType, arg.getLoc());
      break;
    case hk::KernelAbiEntry::Kind::size:
      sizeArgument[{e.arg, e.dim}] = insertAt - numOld;
      parts[e.arg].sizes.push_back(addArgument(i32, arg.getLoc()));
      break;
    case hk::KernelAbiEntry::Kind::stride:
      parts[e.arg].strides.push_back(addArgument(i32, arg.getLoc()));
      break;
    }
  }
  for (unsigned i = 0; i < numOld; ++i) {
    BlockArgument arg = entry.getArgument(i);
    if (auto type = dyn_cast<MemRefType>(arg.getType()))
      arg.replaceAllUsesWith(buildMemRef(b, arg.getLoc(), type,
                                         parts[i].pointer, parts[i].sizes,
                                         parts[i].strides, converter));
  }
  entry.eraseArguments(0, numOld);
  kernel.setFunctionType(FunctionType::get(ctx, inputs, {}));
  kernel->removeAttr(kernel.getArgAttrsAttrName());

  // The launch shape now reads the sizes from their own arguments.
  auto launch =
      kernel->getAttrOfType<LaunchAttr>(HKDialect::getLaunchAttrName());
  if (!launch)
    return success();
  auto remap = [&](ArrayRef<SizeTerm> terms,
                   SmallVectorImpl<SizeTerm> &out) -> LogicalResult {
    for (const SizeTerm &t : terms) {
      auto it = sizeArgument.find({t.arg, t.dim});
      if (it == sizeArgument.end())
        return kernel.emitOpError()
               << "'hk.launch' refers to dimension " << t.dim
               << " of argument #" << t.arg
               << ", which is not a dynamic size the kernel receives";
      out.push_back({it->second, 0, t.factor, t.roundUp});
    }
    return success();
  };
  SmallVector<SizeTerm> grid, divisible;
  if (failed(remap(launch.getGrid(), grid)) ||
      failed(remap(launch.getDivisible(), divisible)))
    return failure();
  kernel->setAttr(HKDialect::getLaunchAttrName(),
                  LaunchAttr::get(ctx, grid, divisible));
  return success();
}

namespace {
struct LowerKernelAbiPass : hk::impl::LowerKernelAbiBase<LowerKernelAbiPass> {
  using LowerKernelAbiBase::LowerKernelAbiBase;

  void runOnOperation() override {
    LowerToLLVMOptions options(&getContext());
    options.overrideIndexBitwidth(indexBitwidth);
    LLVMTypeConverter converter(&getContext(), options);
    // The address spaces convert-gpu-to-rocdl gives gpu memory spaces.
    populateGpuMemorySpaceAttributeConversions(
        converter, [](gpu::AddressSpace space) -> unsigned {
          switch (space) {
          case gpu::AddressSpace::Global:
            return 1;
          case gpu::AddressSpace::Workgroup:
            return 3;
          case gpu::AddressSpace::Private:
            return 5;
          }
          llvm_unreachable("covered switch over gpu::AddressSpace");
        });
    for (auto kernel : getOperation().getOps<gpu::GPUFuncOp>())
      if (kernel.isKernel() && failed(hk::lowerKernelAbi(kernel, converter)))
        return signalPassFailure();
  }
};
} // namespace
