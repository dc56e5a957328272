//===- LdsPlacement.cpp - where LLVM puts a kernel's tiles ----------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "LdsPlacement.h"

#include "LoweringSupport.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace mlir::hk;
using namespace mlir::hk::detail;

SmallVector<int64_t>
mlir::hk::detail::predictLdsAddresses(ArrayRef<LdsVariable> variables) {
  SmallVector<size_t> order(variables.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    return variables[a].name < variables[b].name;
  });
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    const LdsVariable &x = variables[a], &y = variables[b];
    if (x.align != y.align)
      return x.align > y.align;
    return x.bytes > y.bytes;
  });
  SmallVector<int64_t> addresses(variables.size());
  uint64_t next = 0;
  for (size_t i : order) {
    next = llvm::alignTo(next, variables[i].align);
    addresses[i] = next;
    next += variables[i].bytes;
  }
  return addresses;
}

SmallVector<std::optional<int64_t>>
mlir::hk::detail::ldsWindows(ArrayRef<int64_t> addresses,
                             ArrayRef<int64_t> bytes) {
  SmallVector<size_t> order(addresses.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::stable_sort(
      order, [&](size_t a, size_t b) { return addresses[a] < addresses[b]; });
  SmallVector<std::optional<int64_t>> windows(addresses.size());
  std::optional<int64_t> open;
  for (size_t i : order) {
    int64_t end = addresses[i] + bytes[i];
    if (end <= kDsOffsetReach || bytes[i] > kDsOffsetReach)
      continue;
    if (!open || end > *open + kDsOffsetReach)
      open = addresses[i];
    windows[i] = open;
  }
  return windows;
}

FailureOr<StringRef> LdsPlan::globalFor(AllocSharedOp op,
                                        ConversionPatternRewriter &rewriter,
                                        const TypeConverter &converter) {
  auto it = names.find(op);
  if (it == names.end()) {
    auto func = op->getParentOfType<FunctionOpInterface>();
    if (!func || failed(placeFunction(func, rewriter, converter)))
      return failure();
    it = names.find(op);
    if (it == names.end())
      return failure();
  }
  return StringRef(it->second);
}

/// Whether a window pays for `alloc`'s tile: it has several slots (one
/// slot the backend already reads from one register per lane pattern, the
/// tile's base in it and the rest in the offset field) and every fragment
/// read and write names a constant one. A slot that changes in a loop (its
/// parity) puts an add in each of the loop's accesses anyway, and LLVM keeps
/// nothing live for them; a tile read both ways would keep both sets of
/// address registers.
static bool windowPays(AllocSharedOp alloc) {
  if (alloc.getType().getSlots() < 2)
    return false;
  return llvm::all_of(alloc->getUsers(), [](Operation *user) {
    if (auto load = dyn_cast<LoadFragmentOp>(user))
      return getConstantIntValue(load.getSlot()).has_value();
    if (auto store = dyn_cast<StoreSharedOp>(user))
      return getConstantIntValue(store.getSlot()).has_value();
    return true;
  });
}

namespace {
/// A tile some op reads or writes: its global, type and slots, and whether
/// a window would pay for it (windowPays).
struct UsedTile {
  LdsVariable variable;
  MemRefType type;
  int64_t slots = 1;
  bool windowable = false;
};
} // namespace

LogicalResult LdsPlan::placeFunction(Operation *func,
                                     ConversionPatternRewriter &rewriter,
                                     const TypeConverter &converter) {
  Operation *symbolTableOp = SymbolTable::getNearestSymbolTable(func);
  if (!symbolTableOp)
    return failure();
  StringRef funcName = SymbolTable::getSymbolName(func).getValue();
  SmallVector<AllocSharedOp> allocs;
  func->walk([&](AllocSharedOp alloc) { allocs.push_back(alloc); });

  SmallVector<UsedTile> used;
  for (AllocSharedOp alloc : allocs) {
    auto type = converter.convertType<MemRefType>(alloc.getType());
    if (!type)
      return failure();
    // A readable name that is unique in the module: the alloc's place among
    // its block's.
    int64_t index = 0;
    for (auto other : alloc->getBlock()->getOps<AllocSharedOp>()) {
      if (other == alloc)
        break;
      ++index;
    }
    std::string base = ("__hk_shared_" + funcName + "_" + Twine(index)).str();
    std::string name = base;
    for (int suffix = 1; SymbolTable::lookupSymbolIn(symbolTableOp, name);
         ++suffix)
      name = base + "_" + std::to_string(suffix);

    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&symbolTableOp->getRegion(0).front());
    memref::GlobalOp::create(rewriter, alloc.getLoc(), name,
                             rewriter.getStringAttr("private"), type,
                             /*initial_value=*/Attribute(), /*constant=*/false,
                             rewriter.getI64IntegerAttr(kChunkBytes));
    names[alloc] = name;
    // LLVM drops a global nothing reads or writes.
    if (alloc->use_empty())
      continue;
    LdsVariable variable{
        name, type.getNumElements() * (type.getElementTypeBitWidth() / 8),
        kChunkBytes};
    used.push_back({std::move(variable), type, alloc.getType().getSlots(),
                    windowPays(alloc)});
  }

  SmallVector<int64_t> addresses = predictLdsAddresses(
      llvm::map_to_vector(used, [](const UsedTile &t) { return t.variable; }));
  SmallVector<int64_t> bytes = llvm::map_to_vector(
      used, [](const UsedTile &t) { return t.variable.bytes; });
  SmallVector<std::optional<int64_t>> bases = ldsWindows(addresses, bytes);
  if (llvm::none_of(bases, [](auto base) { return base.has_value(); }))
    return success();
  // One scope per slot: window accesses to two slots of a tile are told
  // apart, as LLVM tells the tile's other accesses apart by their offsets.
  MLIRContext *ctx = func->getContext();
  auto domain = LLVM::AliasScopeDomainAttr::get(
      ctx, StringAttr::get(ctx, ("hk LDS tiles of " + funcName).str()));
  size_t group = functionScopes.size();
  functionScopes.emplace_back();
  for (const UsedTile &tile : used) {
    TileScopes &tileScopes = scopes[tile.variable.name];
    tileScopes.function = group;
    for (int64_t slot = 0; slot < tile.slots; ++slot) {
      tileScopes.slots.push_back(LLVM::AliasScopeAttr::get(
          domain, StringAttr::get(ctx, tile.variable.name + " slot " +
                                           std::to_string(slot))));
      functionScopes[group].push_back(tileScopes.slots.back());
    }
  }

  // A window starts at its lowest tile.
  DenseMap<int64_t, size_t> byAddress;
  for (auto [i, address] : llvm::enumerate(addresses))
    byAddress.try_emplace(address, i);
  for (auto [tile, base] : llvm::zip(used, bases)) {
    if (!base || !tile.windowable)
      continue;
    const UsedTile &lowest = used[byAddress.lookup(*base)];
    windows[tile.variable.name] = LdsWindow{lowest.variable.name, lowest.type};
  }
  return success();
}

/// The entry of `map` for the global the tile memref `tile` reads, if any.
template <typename T>
static const T *lookupTile(const llvm::StringMap<T> &map, Value tile) {
  auto global = tile.getDefiningOp<memref::GetGlobalOp>();
  if (!global)
    return nullptr;
  auto it = map.find(global.getName());
  return it == map.end() ? nullptr : &it->second;
}

std::optional<LdsScopes> LdsPlan::scopesOf(Value tile, Value slot) const {
  const TileScopes *found = lookupTile(scopes, tile);
  if (!found)
    return std::nullopt;
  const TileScopes &tileScopes = *found;
  SmallVector<Attribute> mine(tileScopes.slots);
  if (std::optional<int64_t> at = getConstantIntValue(slot))
    if (*at >= 0 && *at < int64_t(mine.size()))
      mine = {mine[*at]};
  SmallVector<Attribute> others;
  for (Attribute scope : functionScopes[tileScopes.function])
    if (!llvm::is_contained(mine, scope))
      others.push_back(scope);
  MLIRContext *ctx = tile.getContext();
  return LdsScopes{ArrayAttr::get(ctx, mine), ArrayAttr::get(ctx, others)};
}

std::optional<LdsWindow> LdsPlan::windowOf(Value tile) const {
  if (const LdsWindow *window = lookupTile(windows, tile))
    return *window;
  return std::nullopt;
}

Value mlir::hk::detail::emitWindowRegister(OpBuilder &b, Location loc,
                                           const LdsWindow &window) {
  Value base =
      memref::GetGlobalOp::create(b, loc, window.baseType, window.base);
  auto pointer = LLVM::LLVMPointerType::get(b.getContext(), kLdsAddressSpace);
  return LLVM::StripInvariantGroupOp::create(
      b, loc,
      LLVM::IntToPtrOp::create(b, loc, pointer, pointerAsI32(b, loc, base)));
}

Value mlir::hk::detail::emitWindowDistance(OpBuilder &b, Location loc,
                                           const LdsWindow &window,
                                           Value tile) {
  Value base =
      memref::GetGlobalOp::create(b, loc, window.baseType, window.base);
  return b.createOrFold<arith::SubIOp>(loc, pointerAsI32(b, loc, tile),
                                       pointerAsI32(b, loc, base));
}

/// The address `byteOffset` bytes past `window`.
static Value windowAddress(OpBuilder &b, Location loc, Value window,
                           Value byteOffset) {
  return LLVM::GEPOp::create(b, loc, window.getType(), b.getI8Type(), window,
                             ValueRange{byteOffset});
}

/// `type` with integers of its elements' width: what LLVM loads and stores
/// (fp8 has no LLVM type).
static VectorType asIntegers(VectorType type) {
  return VectorType::get(
      type.getShape(),
      IntegerType::get(type.getContext(), type.getElementTypeBitWidth()));
}

Value mlir::hk::detail::loadThroughWindow(OpBuilder &b, Location loc,
                                          VectorType type, Value window,
                                          Value byteOffset, int64_t align,
                                          const LdsScopes &scopes) {
  auto load =
      LLVM::LoadOp::create(b, loc, asIntegers(type),
                           windowAddress(b, loc, window, byteOffset), align);
  load.setAliasScopesAttr(scopes.scopes);
  load.setNoaliasScopesAttr(scopes.noalias);
  return arith::BitcastOp::create(b, loc, type, load);
}

Value mlir::hk::detail::transposedReadThroughWindow(OpBuilder &b, Location loc,
                                                    VectorType type,
                                                    Value window,
                                                    Value byteOffset,
                                                    const LdsScopes &scopes) {
  Value bits = ROCDL::ds_read_tr16_b64::create(
      b, loc, asIntegers(type), windowAddress(b, loc, window, byteOffset),
      scopes.scopes, scopes.noalias, /*tbaa=*/nullptr);
  return arith::BitcastOp::create(b, loc, type, bits);
}

void mlir::hk::detail::storeThroughWindow(OpBuilder &b, Location loc,
                                          Value value, Value window,
                                          Value byteOffset, int64_t align,
                                          const LdsScopes &scopes) {
  auto type = cast<VectorType>(value.getType());
  Value bits = arith::BitcastOp::create(b, loc, asIntegers(type), value);
  auto store = LLVM::StoreOp::create(
      b, loc, bits, windowAddress(b, loc, window, byteOffset), align);
  store.setAliasScopesAttr(scopes.scopes);
  store.setNoaliasScopesAttr(scopes.noalias);
}
