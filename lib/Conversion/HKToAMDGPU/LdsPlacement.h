//===- LdsPlacement.h - where LLVM puts a kernel's tiles --------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The LDS globals of hk.alloc_shared, the addresses the backend will give
// them, and the address windows of the tiles above the first 64 KiB
// (private to lib/Conversion/HKToAMDGPU).
//
// A DS instruction adds a 16-bit offset to its address register, so a read
// of a tile above 64 KiB cannot take the tile's base in the offset field:
// LLVM adds it to the lane's offset in a register of its own, one per
// distinct constant, and hoists those adds out of the loops (one VGPR each,
// live through the loop). A window is one register per lane pattern at a
// base below such tiles: their reads take the rest of the address in the
// offset field (docs/Kernels.md#lds-windows).
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_CONVERSION_HKTOAMDGPU_LDSPLACEMENT_H
#define HK_LIB_CONVERSION_HKTOAMDGPU_LDSPLACEMENT_H

#include "HK/Dialect/HK/IR/HKDialect.h"

#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <optional>

namespace mlir::hk::detail {

/// Bytes a DS instruction's offset field reaches past its address register.
inline constexpr int64_t kDsOffsetReach = 1 << 16;

/// An LDS variable as the backend lays it out.
struct LdsVariable {
  std::string name;
  int64_t bytes = 0;
  int64_t align = 1;
};

/// The byte address of each of `variables` (same order) in the block the
/// backend allocates for a kernel: AMDGPULowerModuleLDS (LLVM 22) sorts a
/// kernel's variables by name and hands them to performOptimizedStructLayout
/// (llvm/Support/OptimizedStructLayout.h), which orders them by decreasing
/// alignment, then decreasing size, then that order, and packs them.
SmallVector<int64_t> predictLdsAddresses(ArrayRef<LdsVariable> variables);

/// For each variable at `addresses[i]` of `bytes[i]`, the base of its window,
/// or none where the offset field reaches it from address 0 (or a window
/// cannot hold it). Windows are laid greedily from the lowest tile up, each
/// as far as the offset field reaches.
SmallVector<std::optional<int64_t>> ldsWindows(ArrayRef<int64_t> addresses,
                                               ArrayRef<int64_t> bytes);

/// A tile's window: it starts at the global `base`, the window's lowest
/// tile. An access adds the distance from `base` to its tile as LLVM
/// computes it (ptrtoint), never the predicted one, so a prediction that
/// misses costs registers, not correctness.
struct LdsWindow {
  std::string base;
  MemRefType baseType;
};

/// The alias scopes of a window access. LLVM gives the accesses it traces
/// to a global that global's scope but cannot trace a window's register,
/// and the backend waits for every LDS DMA fill before a read without a
/// scope (docs/Hardware.md#lds-addresses); hk names the tile slot of each
/// window access in a domain of its own. The fills carry none, as before:
/// hk's own waits order them.
struct LdsScopes {
  ArrayAttr scopes;
  ArrayAttr noalias;
};

/// The LDS globals of a module's hk.alloc_shared ops, created per function
/// on its first alloc (so that every tile of the kernel is known when the
/// windows are laid), and their windows.
class LdsPlan {
public:
  /// The name of the global of `op`'s tile, created with its function's.
  FailureOr<StringRef> globalFor(AllocSharedOp op,
                                 ConversionPatternRewriter &rewriter,
                                 const TypeConverter &converter);

  /// The window of the tile memref `tile` (a memref.get_global of one of
  /// the plan's globals), if it has one: a tile above the first 64 KiB whose
  /// fragment reads and writes all name constant slots.
  std::optional<LdsWindow> windowOf(Value tile) const;

  /// The alias scopes of accesses to `slot` (an index, the whole tile if
  /// not constant) of the tile memref `tile`, where its function has
  /// windows.
  std::optional<LdsScopes> scopesOf(Value tile, Value slot) const;

private:
  LogicalResult placeFunction(Operation *func,
                              ConversionPatternRewriter &rewriter,
                              const TypeConverter &converter);

  DenseMap<Operation *, std::string> names;
  /// A tile's scope per slot, and the function whose scopes it is among.
  struct TileScopes {
    SmallVector<Attribute> slots;
    size_t function = 0;
  };

  llvm::StringMap<LdsWindow> windows;
  llvm::StringMap<TileScopes> scopes;
  SmallVector<SmallVector<Attribute>> functionScopes;
};

/// A window's register: the address of its base behind
/// llvm.strip.invariant.group, which no IR pass looks through
/// (CodeGenPrepare drops it just before instruction selection). An access
/// adds its lane's offset and a constant to it: instruction selection, which
/// sees the register, adds the lane's offset in a register of its own (one
/// per lane pattern, as below 64 KiB) and puts the constant in the offset
/// field. Without it LLVM folds the window's base into the constant and
/// the constant into a register of its own per access.
Value emitWindowRegister(OpBuilder &b, Location loc, const LdsWindow &window);

/// The bytes from `window`'s base to `tile`, an i32 LLVM knows only once it
/// has placed the globals (so it stays out of the window's register).
Value emitWindowDistance(OpBuilder &b, Location loc, const LdsWindow &window,
                         Value tile);

/// A `type` read from `byteOffset` (i32) bytes past a window register.
Value loadThroughWindow(OpBuilder &b, Location loc, VectorType type,
                        Value window, Value byteOffset, int64_t align,
                        const LdsScopes &scopes);

/// ds_read_b64_tr_b16 (a `type` of 16-bit elements) from `byteOffset` bytes
/// past a window register.
Value transposedReadThroughWindow(OpBuilder &b, Location loc, VectorType type,
                                  Value window, Value byteOffset,
                                  const LdsScopes &scopes);

/// `value` written `byteOffset` bytes past a window register.
void storeThroughWindow(OpBuilder &b, Location loc, Value value, Value window,
                        Value byteOffset, int64_t align,
                        const LdsScopes &scopes);

} // namespace mlir::hk::detail

#endif // HK_LIB_CONVERSION_HKTOAMDGPU_LDSPLACEMENT_H
