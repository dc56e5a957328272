//===- KernelBuilder.cpp - building hk programs with readable names -------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::hk;
using namespace mlir::hk::kernels;

Type mlir::hk::kernels::getElementType(MLIRContext *ctx, ElementKind kind) {
  switch (kind) {
  case ElementKind::bf16:
    return BFloat16Type::get(ctx);
  case ElementKind::f16:
    return Float16Type::get(ctx);
  case ElementKind::f32:
    return Float32Type::get(ctx);
  case ElementKind::f8e4m3:
    return Float8E4M3FNType::get(ctx);
  case ElementKind::f8e5m2:
    return Float8E5M2Type::get(ctx);
  }
  llvm_unreachable("covered switch over ElementKind");
}

Location KernelBuilder::loc(StringRef name) const {
  if (name.empty())
    return b.getUnknownLoc();
  return NameLoc::get(b.getStringAttr(name));
}

gpu::GPUFuncOp
KernelBuilder::startKernel(StringRef moduleName, StringRef kernelName,
                           ArrayRef<std::pair<StringRef, Type>> arguments,
                           int64_t threads, ArrayRef<SizeTerm> grid) {
  MLIRContext *ctx = getContext();
  auto target = ROCDL::ROCDLTargetAttr::get(ctx, /*optLevel=*/2,
                                            "amdgcn-amd-amdhsa", chip.name);
  auto module = gpu::GPUModuleOp::create(b, b.getUnknownLoc(), moduleName,
                                         b.getArrayAttr({target}));
  b.setInsertionPointToStart(module.getBody());
  return startNextKernel(kernelName, arguments, threads, grid);
}

gpu::GPUFuncOp
KernelBuilder::startNextKernel(StringRef kernelName,
                               ArrayRef<std::pair<StringRef, Type>> arguments,
                               int64_t threads, ArrayRef<SizeTerm> grid) {
  MLIRContext *ctx = getContext();
  if (func) {
    b.setInsertionPointAfter(func);
    argIndex.clear();
    indices.clear();
    ints.clear();
    lastFloat = nullptr;
  }
  SmallVector<Type> types;
  for (auto [name, type] : arguments) {
    argIndex[name] = types.size();
    types.push_back(type);
  }
  func = gpu::GPUFuncOp::create(b, b.getUnknownLoc(), kernelName,
                                b.getFunctionType(types, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr({int32_t(threads), 1, 1}));
  func->setAttr(HKDialect::getLaunchAttrName(),
                LaunchAttr::get(ctx, grid, /*divisible=*/{}));
  Block &entry = func.getBody().front();
  for (auto [i, argument] : llvm::enumerate(arguments))
    entry.getArgument(i).setLoc(loc(argument.first));
  b.setInsertionPointToStart(&entry);
  return func;
}

Value KernelBuilder::arg(StringRef name) {
  auto it = argIndex.find(name);
  assert(it != argIndex.end() && "no such kernel argument");
  return func.getArgument(it->second);
}

gpu::GPUModuleOp KernelBuilder::finishKernel() {
  gpu::ReturnOp::create(b, b.getUnknownLoc());
  return func->getParentOfType<gpu::GPUModuleOp>();
}

void KernelBuilder::placeConstant(std::map<int64_t, Operation *> &cache,
                                  int64_t value, Operation *op,
                                  Operation *after) {
  auto next = cache.upper_bound(value);
  Block &entry = func.getBody().front();
  if (next != cache.end())
    op->moveBefore(next->second);
  else if (!cache.empty())
    op->moveAfter(std::prev(next)->second);
  else if (after)
    op->moveAfter(after);
  else
    op->moveBefore(&entry, entry.begin());
  cache[value] = op;
}

Value KernelBuilder::index(int64_t value) {
  auto it = indices.find(value);
  if (it != indices.end())
    return it->second->getResult(0);
  auto op = create<arith::ConstantIndexOp>("c" + llvm::itostr(value), value);
  // Index constants open the kernel in ascending order, then the i32 and
  // the f32 ones.
  placeConstant(indices, value, op, /*after=*/nullptr);
  return op;
}

Value KernelBuilder::waveIndex(StringRef name) {
  Value tid = create<gpu::ThreadIdOp>("tid", gpu::Dimension::x);
  Value wave = div(name.str() + "_in_lane", tid, index(chip.waveSize));
  // Broadcast as i32: readfirstlane reads one 32-bit register.
  Value narrow =
      create<arith::IndexCastUIOp>(name.str() + "_i32", b.getI32Type(), wave);
  Value uniform = create<gpu::SubgroupBroadcastOp>(
      name.str() + "_uniform", narrow, /*lane=*/Value(),
      gpu::BroadcastType::first_active_lane);
  return create<arith::IndexCastUIOp>(name, b.getIndexType(), uniform);
}

Value KernelBuilder::i32(int64_t value) {
  auto it = ints.find(value);
  if (it != ints.end())
    return it->second->getResult(0);
  auto op = create<arith::ConstantIntOp>("c" + llvm::itostr(value) + "_i32",
                                         b.getI32Type(), value);
  placeConstant(ints, value, op,
                indices.empty() ? nullptr : indices.rbegin()->second);
  return op;
}

Value KernelBuilder::f32(StringRef name, double value) {
  auto op = create<arith::ConstantOp>(name, b.getF32FloatAttr(value));
  Block &entry = func.getBody().front();
  if (lastFloat)
    op->moveAfter(lastFloat);
  else if (!ints.empty())
    op->moveAfter(ints.rbegin()->second);
  else if (!indices.empty())
    op->moveAfter(indices.rbegin()->second);
  else
    op->moveBefore(&entry, entry.begin());
  lastFloat = op;
  return op;
}

FragmentType KernelBuilder::fragment(FragmentLayout layout, int64_t rows,
                                     int64_t cols, Type element,
                                     MmaShape mma) const {
  return FragmentType::get(getContext(), layout.role, rows, cols, element,
                           mma.m, mma.n, mma.k, layout.kOrder);
}

SharedTileType KernelBuilder::sharedTile(int64_t rows, int64_t cols,
                                         Type element, Swizzle swizzle,
                                         ColumnPermutation permutation) const {
  MLIRContext *ctx = getContext();
  return SharedTileType::get(ctx, rows, cols, element,
                             SwizzleAttr::get(ctx, swizzle),
                             ColumnPermutationAttr::get(ctx, permutation),
                             /*slots=*/1);
}

namespace {
/// Keeps the first diagnostic emitted on a context while it lives (and
/// stops it from being printed).
struct FirstDiagnostic {
  explicit FirstDiagnostic(MLIRContext *ctx)
      : handler(ctx, [this](Diagnostic &diag) {
          if (message.empty())
            message = diag.str();
          return success();
        }) {}
  std::string message;
  ScopedDiagnosticHandler handler;
};
} // namespace

llvm::Error mlir::hk::kernels::verifyKernel(gpu::GPUModuleOp kernel) {
  FirstDiagnostic first(kernel.getContext());
  if (succeeded(verify(kernel)))
    return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "internal error: the generated kernel does "
                                 "not verify: " +
                                     first.message);
}

llvm::Error KernelBuilder::verifyTypes(ArrayRef<Type> types) {
  FirstDiagnostic first(getContext());
  auto emitError = [&] { return mlir::emitError(b.getUnknownLoc()); };
  for (Type type : types) {
    LogicalResult valid = success();
    if (auto tile = dyn_cast<SharedTileType>(type))
      valid = SharedTileType::verify(emitError, tile.getRows(), tile.getCols(),
                                     tile.getElementType(), tile.getSwizzle(),
                                     tile.getPermutation(), tile.getSlots());
    else if (auto fragment = dyn_cast<FragmentType>(type))
      valid = FragmentType::verify(
          emitError, fragment.getRole(), fragment.getRows(), fragment.getCols(),
          fragment.getElementType(), fragment.getMmaM(), fragment.getMmaN(),
          fragment.getMmaK(), fragment.getKOrder());
    if (failed(valid))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     first.message);
  }
  return llvm::Error::success();
}

Block *KernelBuilder::startBlock(Region &region, TypeRange types,
                                 ArrayRef<StringRef> argNames) {
  SmallVector<Location> locs;
  for (StringRef name : argNames)
    locs.push_back(loc(name));
  return b.createBlock(&region, region.end(), types, locs);
}

Value KernelBuilder::cluster(StringRef name, Type result, bool alternating,
                             llvm::function_ref<Value()> body) {
  auto op = create<ClusterOp>(name, TypeRange{result}, /*priority=*/0);
  if (alternating) {
    op.setInterleaved(true);
    op.setAlternating(true);
  }
  OpBuilder::InsertionGuard guard(b);
  startBlock(op.getBody(), {}, {});
  create<YieldOp>("", body());
  return op.getResult(0);
}

Value KernelBuilder::map(StringRef name, Type result, ValueRange inputs,
                         ArrayRef<StringRef> argNames, ScalarBody body) {
  auto op = create<MapOp>(name, result, inputs);
  SmallVector<Type> scalars;
  for (Value input : inputs)
    scalars.push_back(cast<FragmentType>(input.getType()).getElementType());
  OpBuilder::InsertionGuard guard(b);
  Block *block = startBlock(op.getBody(), scalars, argNames);
  Value out = body(block->getArguments());
  create<YieldOp>("", out);
  return op;
}
