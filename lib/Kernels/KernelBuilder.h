//===- KernelBuilder.h - building hk programs by name -----------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The small vocabulary the kernel builders share: ops created with a name
// (a NameLoc, which hk-gen prints as the SSA name), index constants hoisted
// to the top of the kernel, hk types from shapes, and hk.map bodies from a
// lambda. Private to lib/Kernels.
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_KERNELS_KERNELBUILDER_H
#define HK_LIB_KERNELS_KERNELBUILDER_H

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Target/Chip.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <map>

namespace mlir::hk::kernels {

/// The MLIR type of an element kind.
Type getElementType(MLIRContext *ctx, ElementKind kind);

/// Runs the verifiers over a built kernel: an error (a bug of the builder,
/// never of the description) with their first message.
llvm::Error verifyKernel(gpu::GPUModuleOp kernel);

/// Builds one kernel's body. Names given to ops become their SSA names when
/// printed with OpPrintingFlags::printNameLocAsPrefix.
class KernelBuilder {
public:
  KernelBuilder(OpBuilder &b, const ChipInfo &chip) : b(b), chip(chip) {}

  OpBuilder &b;
  const ChipInfo &chip;

  MLIRContext *getContext() const { return b.getContext(); }
  Location loc(StringRef name) const;

  /// Creates `OpT` at the insertion point, its results named `name`.
  template <typename OpT, typename... Args>
  OpT create(StringRef name, Args &&...args) {
    return OpT::create(b, loc(name), std::forward<Args>(args)...);
  }

  /// Starts the kernel: a gpu.module holding a kernel gpu.func with the
  /// given argument names and types, `threads` lanes per workgroup and its
  /// launch grid; the builder is left inside the function.
  gpu::GPUFuncOp startKernel(StringRef moduleName, StringRef kernelName,
                             ArrayRef<std::pair<StringRef, Type>> arguments,
                             int64_t threads, ArrayRef<SizeTerm> grid);
  /// Starts another kernel in the module of the one just finished.
  gpu::GPUFuncOp startNextKernel(StringRef kernelName,
                                 ArrayRef<std::pair<StringRef, Type>> arguments,
                                 int64_t threads, ArrayRef<SizeTerm> grid);
  /// The function's argument `name`.
  Value arg(StringRef name);
  /// Ends the kernel (gpu.return) and returns its module.
  gpu::GPUModuleOp finishKernel();

  /// An index constant, created once at the top of the kernel (%c<value>).
  Value index(int64_t value);
  /// An i32 constant, created once at the top of the kernel, after the
  /// index ones (%c<value>_i32).
  Value i32(int64_t value);
  /// An f32 constant at the top of the kernel.
  Value f32(StringRef name, double value);

  Value add(StringRef name, Value x, Value y) {
    return create<arith::AddIOp>(name, x, y);
  }
  Value mul(StringRef name, Value x, Value y) {
    return create<arith::MulIOp>(name, x, y);
  }
  Value div(StringRef name, Value x, Value y) {
    return create<arith::DivUIOp>(name, x, y);
  }
  Value rem(StringRef name, Value x, Value y) {
    return create<arith::RemUIOp>(name, x, y);
  }
  /// The index of the calling thread's wave in its 1-D workgroup,
  /// `thread_id x / waveSize`, broadcast from the wave's first active lane:
  /// LLVM cannot tell it is the same for the whole wave, and the values
  /// computed from it (a wave's rows, its mask bounds) would otherwise take
  /// vector registers, 64-bit ones two each.
  Value waveIndex(StringRef name);
  Value dim(StringRef name, Value memref, int64_t d) {
    return create<memref::DimOp>(name, memref, index(d));
  }

  /// A fragment type of lane layout `layout` (a role, and a k order for
  /// `a` and `b`).
  FragmentType fragment(FragmentLayout layout, int64_t rows, int64_t cols,
                        Type element, MmaShape mma) const;
  SharedTileType
  sharedTile(int64_t rows, int64_t cols, Type element, Swizzle swizzle,
             ColumnPermutation permutation = ColumnPermutation::identity) const;

  /// Checks the invariants of hk types (what get() skips), with the first
  /// violation's message as the error.
  llvm::Error verifyTypes(ArrayRef<Type> types);

  /// The scalar body of an hk.map or hk.any: one f32 (or element) argument
  /// per input, named.
  using ScalarBody = llvm::function_ref<Value(ValueRange)>;
  Value map(StringRef name, Type result, ValueRange inputs,
            ArrayRef<StringRef> argNames, ScalarBody body);
  /// An hk.cluster of `result` holding the ops `body` creates, which
  /// returns the value it yields: the backend keeps them apart from the
  /// work around them, or, `alternating`, issues its MFMAs and memory
  /// instructions in turn.
  Value cluster(StringRef name, Type result, bool alternating,
                llvm::function_ref<Value()> body);
  /// Starts a region block with named arguments of `types`.
  Block *startBlock(Region &region, TypeRange types,
                    ArrayRef<StringRef> argNames);

private:
  /// Keeps constant `op` (of `value`) among `cache`'s in ascending order;
  /// the first goes after `after`, or opens the kernel.
  void placeConstant(std::map<int64_t, Operation *> &cache, int64_t value,
                     Operation *op, Operation *after);

  gpu::GPUFuncOp func;
  llvm::StringMap<unsigned> argIndex;
  std::map<int64_t, Operation *> indices;
  std::map<int64_t, Operation *> ints;
  Operation *lastFloat = nullptr;
};

} // namespace mlir::hk::kernels

#endif // HK_LIB_KERNELS_KERNELBUILDER_H
