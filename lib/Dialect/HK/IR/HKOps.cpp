//===- HKOps.cpp - hk operations ------------------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the verifiers of the hk ops: every rule ODS cannot
// state (shapes, roles, bounds of constant offsets, chip support, the LDS
// budget of a kernel).
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Dialect/HK/Utils/AccessPlan.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::hk;

/// A list of fragment types written as a single one is (`<acc, ...>`),
/// for ops with several fragment operands or results.
static ParseResult parseFragmentTypes(OpAsmParser &parser,
                                      SmallVectorImpl<Type> &types) {
  return parser.parseCommaSeparatedList([&]() -> ParseResult {
    FragmentType type;
    if (parser.parseCustomTypeWithFallback(type))
      return failure();
    types.push_back(type);
    return success();
  });
}

static void printFragmentTypes(OpAsmPrinter &printer, Operation *,
                               TypeRange types) {
  llvm::interleaveComma(types, printer, [&](Type type) {
    printer.printStrippedAttrOrType(cast<FragmentType>(type));
  });
}

#define GET_OP_CLASSES
#include "HK/Dialect/HK/IR/HKOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared verification helpers
//===----------------------------------------------------------------------===//

static std::optional<int64_t> getConstantIndex(Value value) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return constant.getSExtValue();
  return std::nullopt;
}

/// "16x16x32" for messages.
static std::string formatMma(MmaShape shape) {
  return std::to_string(shape.m) + "x" + std::to_string(shape.n) + "x" +
         std::to_string(shape.k);
}

/// Checks that the chip of `op`, when known, has the MMA `type` is made of.
static LogicalResult verifyChipHasMma(Operation *op, FragmentType type) {
  FailureOr<const ChipInfo *> chip = resolveChip(op);
  if (failed(chip))
    return failure();
  if (!*chip || type.findInstr(**chip))
    return success();
  InFlightDiagnostic diag = op->emitOpError()
                            << (*chip)->name << " has no "
                            << formatMma(type.getMmaShape()) << " ";
  if (type.getRole() == FragmentRole::acc)
    diag << "MMA accumulating f32";
  else if (isScaleRole(type.getRole()))
    diag << "MMA with block scales (MXFP8 needs gfx950's "
            "v_mfma_scale_f32_16x16x128_f8f6f4)";
  else
    diag << type.getElementType() << " MMA";
  return diag << " (its MMA shapes: " << (*chip)->describeMmaShapes() << ")";
}

/// Checks that a constant slot index addresses one of the tile's slots.
static LogicalResult verifySlot(Operation *op, Value slot,
                                SharedTileType tile) {
  std::optional<int64_t> index = getConstantIndex(slot);
  if (index && (*index < 0 || *index >= tile.getSlots()))
    return op->emitOpError()
           << "slot " << *index << " is out of range for a tile with "
           << tile.getSlots() << " slot(s)";
  return success();
}

/// Checks that the `regionRows x regionCols` region at (`row`, `col`) lies
/// inside a `rows x cols` extent, for the offsets and extents that are
/// known; `what` names the extent in messages. A null `row` skips the rows.
static LogicalResult
verifyRegionInBounds(Operation *op, StringRef what, Value row, Value col,
                     int64_t regionRows, int64_t regionCols, int64_t rows,
                     int64_t cols, BoundsMode bounds = BoundsMode::inside) {
  struct Dim {
    StringRef name;
    Value offset;
    int64_t size, extent;
    bool partial;
  } dims[] = {{"row", row, regionRows, rows, bounds != BoundsMode::inside},
              {"column", col, regionCols, cols, masksColumns(bounds)}};
  for (const Dim &dim : dims) {
    if (!dim.offset) // a dimension the access does not have
      continue;
    // A partial dimension may run past the end (and start past it).
    if (dim.partial) {
      std::optional<int64_t> offset = getConstantIndex(dim.offset);
      if (offset && *offset < 0)
        return op->emitOpError()
               << dim.name << " offset " << *offset << " is negative";
      continue;
    }
    if (!ShapedType::isDynamic(dim.extent) && dim.size > dim.extent)
      return op->emitOpError()
             << "region of " << regionRows << "x" << regionCols
             << " does not fit in the " << dim.extent << " " << dim.name
             << "s of the " << what;
    std::optional<int64_t> offset = getConstantIndex(dim.offset);
    if (!offset)
      continue;
    if (*offset < 0)
      return op->emitOpError()
             << dim.name << " offset " << *offset << " is negative";
    // Written so a huge constant cannot overflow (dim.size <= dim.extent).
    if (!ShapedType::isDynamic(dim.extent) && *offset > dim.extent - dim.size)
      return op->emitOpError()
             << "region of " << dim.size << " " << dim.name << "s at "
             << dim.name << " offset " << *offset << " exceeds the "
             << dim.extent << " " << dim.name << "s of the " << what;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// AllocSharedOp
//===----------------------------------------------------------------------===//

void AllocSharedOp::setSlots(int64_t slots) {
  SharedTileType type = getType();
  getResult().setType(SharedTileType::get(
      type.getContext(), type.getRows(), type.getCols(), type.getElementType(),
      type.getSwizzle(), type.getPermutation(), slots));
}

LogicalResult AllocSharedOp::verify() {
  auto func = dyn_cast_or_null<FunctionOpInterface>((*this)->getParentOp());
  if (!func || (*this)->getBlock() != &func.getFunctionBody().front())
    return emitOpError("must be in the entry block of a function (shared "
                       "tiles are allocated once per kernel)");

  FailureOr<const ChipInfo *> chip = resolveChip(*this);
  if (failed(chip))
    return failure();
  if (!*chip)
    return success();

  // Report the budget once, on the allocation that crosses it.
  int64_t before = 0, total = 0;
  for (auto alloc : func.getFunctionBody().front().getOps<AllocSharedOp>()) {
    if (alloc == *this)
      before = total;
    total += alloc.getType().getTotalBytes();
  }
  int64_t lds = (*chip)->ldsBytes;
  int64_t mine = getType().getTotalBytes();
  if (total > lds && before <= lds && before + mine > lds)
    return emitOpError() << "shared tiles of '" << func.getName() << "' need "
                         << total << " bytes of LDS (this tile " << mine
                         << " bytes), but " << (*chip)->name << " has " << lds
                         << " bytes";
  return success();
}

//===----------------------------------------------------------------------===//
// CopyToSharedOp
//===----------------------------------------------------------------------===//

/// Whether `op` is a barrier or holds one. Scheduling fences
/// (amdgpu.sched_barrier, rocdl.sched.*) order only the backend's scheduler.
static bool isOrHoldsBarrier(Operation *op) {
  WalkResult found = op->walk([](Operation *inner) {
    StringRef name = inner->getName().getStringRef();
    return name.contains("barrier") && !name.contains("sched")
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return found.wasInterrupted();
}

Operation *CopyToSharedOp::getDeferredStoresPoint() {
  Operation *op = getOperation()->getNextNode();
  for (; op && !op->hasTrait<OpTrait::IsTerminator>(); op = op->getNextNode())
    if (isOrHoldsBarrier(op))
      return op;
  return op;
}

LogicalResult CopyToSharedOp::verify() {
  SharedTileType tile = getTile().getType();
  MemRefType source = getSource().getType();
  if (source.getElementType() != tile.getElementType())
    return emitOpError() << "source element type " << source.getElementType()
                         << " does not match the tile's "
                         << tile.getElementType();
  if (failed(verifySlot(*this, getSlot(), tile)))
    return failure();
  if (getRowIds() && getTranspose())
    return emitOpError() << "a gathering copy is not transposed: drop "
                            "'transpose'";
  if (getDeferred() && getDirect())
    return emitOpError() << "a direct fill has no stores to defer: drop "
                            "'deferred'";
  // Both fills read rows in 16-byte chunks of consecutive elements.
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(source.getStridesAndOffset(strides, offset)) ||
      strides.back() != 1)
    return emitOpError() << "source must have a strided layout whose last "
                            "stride is 1 (rows are read in 16-byte chunks), "
                            "got "
                         << source;
  if (getDirect() && masksColumns(getBounds()))
    return emitOpError() << "a direct fill cannot take 'bounds "
                         << stringifyBoundsMode(getBounds())
                         << "': "
                            "columns past the source are zeroed on the "
                            "register path only (use partial_rows with "
                            "whole K tiles, see hk-peel-partial-tiles)";
  if (getDirect()) {
    FailureOr<const ChipInfo *> chip = resolveChip(*this);
    if (failed(chip))
      return failure();
    if (*chip && !(*chip)->hasDirectToLds())
      return emitOpError() << (*chip)->name
                           << " has no direct-to-LDS loads; fill through "
                              "registers (drop 'direct')";
    // Each lane's 16 bytes land at consecutive LDS positions, which must
    // hold consecutive elements of one row of the source.
    TileLayout layout = tile.getLayout();
    int64_t where = 0;
    if (!chunksAreRowContiguous(layout, 16 / layout.elementBytes, &where))
      return emitOpError()
             << "a direct fill needs each 16-byte chunk of LDS to hold "
                "consecutive elements of a row, which this tile's layout "
                "does not (LDS element "
             << where << ")";
    // Lane offsets inside the tile are 32-bit buffer offsets.
    int64_t elementBytes = layout.elementBytes;
    if (!ShapedType::isDynamic(strides.front()) &&
        tile.getRows() * strides.front() * elementBytes >= (int64_t(1) << 32))
      return emitOpError() << "a direct fill addresses its tile with 32-bit "
                              "offsets: "
                           << tile.getRows() << " rows x row stride "
                           << strides.front() << " x " << elementBytes
                           << " bytes reaches 4 GiB";
  }
  bool transpose = getTranspose();
  if (transpose) {
    if (getDirect())
      return emitOpError() << "a transposing copy goes through registers: "
                              "drop 'direct'";
    TileLayout layout = tile.getLayout();
    int64_t where = 0;
    if (layout.elementBytes != 2 || tile.getRows() % 8 != 0 ||
        tile.getCols() % kTransposedCopyRun != 0)
      return emitOpError() << "a transposing copy moves blocks of 4 source "
                              "rows of 8 16-bit elements: it needs 16-bit "
                              "elements, tile rows a multiple of 8 and columns "
                              "a multiple of 4, got "
                           << tile;
    if (!chunksAreRowContiguous(layout, kTransposedCopyRun, &where))
      return emitOpError() << "a transposing copy writes 4 consecutive "
                              "elements of a tile row in one place, which "
                              "this tile's layout does not keep (LDS element "
                           << where << ")";
  }
  return verifyRegionInBounds(*this, "source", getRow(), getCol(),
                              transpose ? tile.getCols() : tile.getRows(),
                              transpose ? tile.getRows() : tile.getCols(),
                              source.getDimSize(0), source.getDimSize(1),
                              getBounds());
}

//===----------------------------------------------------------------------===//
// LoadFragmentOp
//===----------------------------------------------------------------------===//

/// What a transposed fragment read needs: gfx950's ds_read_b64_tr_b16, an
/// operand layout it serves, 4-element runs of a tile row in one place.
static LogicalResult verifyTransposedRead(LoadFragmentOp op, FragmentType frag,
                                          SharedTileType tile) {
  FailureOr<const ChipInfo *> chip = resolveChip(op);
  if (failed(chip))
    return failure();
  if (*chip && !(*chip)->hasTransposedLdsReads())
    return op.emitOpError()
           << (*chip)->name
           << " has no transposed LDS reads (ds_read_b64_tr_b16 is gfx950's); "
              "fill the tile with 'hk.copy_to_shared ... transpose' instead";
  MmaShape mma = frag.getMmaShape();
  if (frag.getElementType().getIntOrFloatBitWidth() != 16 ||
      (mma != MmaShape{16, 16, 32} && mma != MmaShape{32, 32, 16}))
    return op.emitOpError() << "transposed reads serve 16-bit MFMA 16x16x32 "
                               "and 32x32x16 operands, got "
                            << frag;
  int64_t where = 0;
  if (!chunksAreRowContiguous(tile.getLayout(), kTransposedReadElems, &where))
    return op.emitOpError()
           << "a transposed read takes 4 consecutive elements of a tile row "
              "from one place, which this tile's layout does not keep (LDS "
              "element "
           << where << ")";
  return success();
}

LogicalResult LoadFragmentOp::verify() {
  SharedTileType tile = getTile().getType();
  FragmentType frag = getResult().getType();
  if (!isOperandRole(frag.getRole()))
    return emitOpError() << "loads 'a' or 'b' fragments, not '"
                         << stringifyFragmentRole(frag.getRole()) << "'";
  if (frag.getElementType() != tile.getElementType())
    return emitOpError() << "fragment element type " << frag.getElementType()
                         << " does not match the tile's "
                         << tile.getElementType();
  if (failed(verifySlot(*this, getSlot(), tile)))
    return failure();
  // A transposed read takes the fragment's columns from the tile's rows.
  bool transpose = getTranspose();
  int64_t regionRows = transpose ? frag.getCols() : frag.getRows();
  int64_t regionCols = transpose ? frag.getRows() : frag.getCols();
  if (failed(verifyRegionInBounds(*this, "tile", getRow(), getCol(), regionRows,
                                  regionCols, tile.getRows(), tile.getCols())))
    return failure();
  if (transpose && failed(verifyTransposedRead(*this, frag, tile)))
    return failure();
  struct Dim {
    StringRef name;
    Value offset;
    int64_t multiple;
  } dims[] = {{"row", getRow(),
               transpose ? frag.getFragmentCols() : frag.getFragmentRows()},
              {"column", getCol(),
               transpose ? frag.getFragmentRows() : frag.getFragmentCols()}};
  for (const Dim &dim : dims) {
    std::optional<int64_t> offset = getConstantIndex(dim.offset);
    if (offset && *offset % dim.multiple != 0)
      return emitOpError() << dim.name << " offset " << *offset
                           << " is not a multiple of the fragment's "
                           << dim.multiple << " " << dim.name << "s";
  }
  return verifyChipHasMma(*this, frag);
}

//===----------------------------------------------------------------------===//
// StoreSharedOp
//===----------------------------------------------------------------------===//

LogicalResult StoreSharedOp::verify() {
  FragmentType frag = getFragment().getType();
  SharedTileType tile = getTile().getType();
  if (frag.getRole() != FragmentRole::acc)
    return emitOpError() << "writes 'acc' fragments, not '"
                         << stringifyFragmentRole(frag.getRole()) << "'";
  if (frag.getElementType() != tile.getElementType() &&
      !(frag.getElementType().isF32() &&
        tile.getElementType().getIntOrFloatBitWidth() == 16))
    return emitOpError() << "writes f32 accumulators (rounded to the tile's "
                            "16-bit type) or ones of the tile's type, got "
                         << frag.getElementType() << " into "
                         << tile.getElementType();
  if (failed(verifySlot(*this, getSlot(), tile)) ||
      failed(verifyRegionInBounds(*this, "tile", getRow(), getCol(),
                                  frag.getRows(), frag.getCols(),
                                  tile.getRows(), tile.getCols())))
    return failure();
  std::pair<StringRef, Value> dims[] = {{"row", getRow()},
                                        {"column", getCol()}};
  int64_t multiples[] = {frag.getFragmentRows(), frag.getFragmentCols()};
  for (auto [dim, multiple] : llvm::zip(dims, multiples)) {
    std::optional<int64_t> offset = getConstantIndex(dim.second);
    if (offset && *offset % multiple != 0)
      return emitOpError() << dim.first << " offset " << *offset
                           << " is not a multiple of the fragment's "
                           << multiple << " " << dim.first << "s";
  }
  return verifyChipHasMma(*this, frag);
}

//===----------------------------------------------------------------------===//
// MmaOp
//===----------------------------------------------------------------------===//

LogicalResult MmaOp::verify() {
  FragmentType a = getA().getType(), b = getB().getType(),
               acc = getAcc().getType();
  // The operands' lane layouts: a and b on their sides, in one k order
  // (the MMA pairs their k slot by slot), and an accumulator.
  KOrder kOrder = a.getKOrder();
  struct Operand {
    StringRef name;
    FragmentType type;
    FragmentLayout layout;
  } operands[] = {{"a", a, {FragmentRole::a, kOrder}},
                  {"b", b, {FragmentRole::b, kOrder}},
                  {"acc", acc, {FragmentRole::acc}}};
  for (const Operand &operand : operands) {
    if (operand.type.getLaneLayout() == operand.layout)
      continue;
    if (operand.type.getRole() == operand.layout.role)
      return emitOpError() << "'a' takes k in '" << stringifyKOrder(kOrder)
                           << "' order but 'b' in '"
                           << stringifyKOrder(b.getKOrder())
                           << "' order: both operands must take k in the "
                              "same order";
    return emitOpError() << "operand '" << operand.name << "' must be an '"
                         << stringifyFragmentRole(operand.layout.role)
                         << "' fragment, got '"
                         << operand.type.getLaneLayout().str() << "'";
  }
  if (!a.hasSameMma(b) || !a.hasSameMma(acc))
    return emitOpError() << "fragments of different MMA shapes: a "
                         << formatMma(a.getMmaShape()) << ", b "
                         << formatMma(b.getMmaShape()) << ", acc "
                         << formatMma(acc.getMmaShape());
  if (a.getElementType() != b.getElementType())
    return emitOpError() << "'a' holds " << a.getElementType()
                         << " but 'b' holds " << b.getElementType();
  if (!acc.getElementType().isF32())
    return emitOpError() << "accumulates in f32, but 'acc' holds "
                         << acc.getElementType();
  if (a.getCols() != b.getCols())
    return emitOpError() << "'a' has K = " << a.getCols()
                         << " but 'b' has K = " << b.getCols();
  if (a.getRows() != acc.getRows() || b.getRows() != acc.getCols())
    return emitOpError() << "'acc' is " << acc.getRows() << "x" << acc.getCols()
                         << " but a * b^T is " << a.getRows() << "x"
                         << b.getRows();
  if (failed(verifyChipHasMma(*this, a)))
    return failure();
  if (getScales().empty())
    return success();
  if (getScales().size() != 2)
    return emitOpError() << "takes the scales of 'a' and 'b', got "
                         << getScales().size() << " scale fragment(s)";
  // Block scales: one per row of a (b) per 32 k.
  for (auto [name, scale, operand] :
       {std::tuple{StringRef("a"), getScaleA(), a},
        std::tuple{StringRef("b"), getScaleB(), b}}) {
    auto type = cast<FragmentType>(scale.getType());
    if (!isScaleRole(type.getRole()) || !type.hasSameMma(a))
      return emitOpError() << "the scales of '" << name
                           << "' must be a 'scale' or 'scale_mma' fragment "
                              "of the same MMA shape";
    if (type.getRows() != operand.getRows() ||
        type.getCols() * kScaleBlock != operand.getCols())
      return emitOpError() << "the scales of '" << name << "' are "
                           << type.getRows() << "x" << type.getCols()
                           << " but '" << name << "' needs "
                           << operand.getRows() << "x"
                           << operand.getCols() / kScaleBlock
                           << " (one per row per " << kScaleBlock << " k)";
  }
  return verifyChipHasMma(*this, cast<FragmentType>(getScaleA().getType()));
}

//===----------------------------------------------------------------------===//
// FillFragmentOp
//===----------------------------------------------------------------------===//

LogicalResult FillFragmentOp::verify() {
  return verifyChipHasMma(*this, getResult().getType());
}

//===----------------------------------------------------------------------===//
// StoreFragmentOp
//===----------------------------------------------------------------------===//

LogicalResult StoreFragmentOp::verify() {
  if (getAtomic() && (getTranspose() || getBounds() != BoundsMode::partial ||
                      !getDest().getType().getElementType().isF32() ||
                      !getFragment().getType().getElementType().isF32()))
    return emitOpError() << "an atomic store adds an f32 fragment into an f32 "
                            "destination with 'bounds partial', untransposed";
  if (getRowIds() && (getTranspose() || getBounds() != BoundsMode::partial ||
                      getDest().getType().getRank() != 2))
    return emitOpError() << "a scattering store takes a 2-D destination with "
                            "'bounds partial' (padding rows fall past it), "
                            "untransposed";
  FragmentType frag = getFragment().getType();
  MemRefType dest = getDest().getType();
  bool vector = frag.getRole() == FragmentRole::row ||
                frag.getRole() == FragmentRole::col;
  if (frag.getRole() != FragmentRole::acc && !vector)
    return emitOpError() << "stores 'acc' fragments and 'row' / 'col' "
                            "vectors, got '"
                         << stringifyFragmentRole(frag.getRole()) << "'";
  if (vector != (dest.getRank() == 1))
    return emitOpError() << (vector ? "stores a 'row' or 'col' vector to a "
                                      "1-D memref"
                                    : "stores an 'acc' fragment to a 2-D "
                                      "memref");
  if (vector && getTranspose())
    return emitOpError() << "transposes 'acc' fragments only";
  if (!frag.getElementType().isF32() &&
      frag.getElementType() != dest.getElementType())
    return emitOpError() << "stores f32 accumulators (rounded to the "
                            "destination's type) or ones of the destination's "
                            "type, got "
                         << frag.getElementType() << " into "
                         << dest.getElementType();
  if (getBounds() == BoundsMode::partial_rows ||
      getBounds() == BoundsMode::partial_chunks)
    return emitOpError() << "stores take bounds 'inside' or 'partial', not '"
                         << stringifyBoundsMode(getBounds()) << "'";
  // A vector is a row (col) of a 1-D destination read as N x 1 (1 x N).
  bool rows = frag.getRole() == FragmentRole::row;
  int64_t destRows =
      vector ? (rows ? dest.getDimSize(0) : 1) : dest.getDimSize(0);
  int64_t destCols =
      vector ? (rows ? 1 : dest.getDimSize(0)) : dest.getDimSize(1);
  bool transpose = getTranspose();
  if (failed(verifyRegionInBounds(*this, "destination", getRow(), getCol(),
                                  transpose ? frag.getCols() : frag.getRows(),
                                  transpose ? frag.getRows() : frag.getCols(),
                                  destRows, destCols, getBounds())))
    return failure();
  return verifyChipHasMma(*this, frag);
}

//===----------------------------------------------------------------------===//
// MapOp
//===----------------------------------------------------------------------===//

/// "acc 64x32 mma = 16x16x32" for messages: a fragment type without its
/// element type.
static std::string formatFragmentShape(FragmentType type) {
  std::string text =
      (stringifyFragmentRole(type.getRole()) + " " +
       std::to_string(type.getRows()) + "x" + std::to_string(type.getCols()) +
       " mma = " + formatMma(type.getMmaShape()))
          .str();
  if (type.getKOrder() != KOrder::mma)
    text += ", k = " + stringifyKOrder(type.getKOrder()).str();
  return text;
}

/// The checks hk.map and hk.mask share on their bodies: plain arithmetic on
/// scalars (the lowering clones the body once per element).
static LogicalResult verifyElementBody(Operation *owner, Block &body,
                                       Operation *terminator) {
  WalkResult walk = body.walk([&](Operation *op) {
    if (op != terminator && !isMemoryEffectFree(op)) {
      op->emitOpError() << "in an '" << owner->getName()
                        << "' body must not touch memory (the body runs once "
                           "per element)";
      return WalkResult::interrupt();
    }
    auto isHK = [](Type t) { return isa<FragmentType, SharedTileType>(t); };
    if (llvm::any_of(op->getOperandTypes(), isHK) ||
        llvm::any_of(op->getResultTypes(), isHK)) {
      op->emitOpError() << "in an '" << owner->getName()
                        << "' body uses an hk value; the body computes one "
                           "element from scalars";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// The check hk.map and hk.any share on their body's arguments: one scalar
/// per input fragment, of its element type.
static LogicalResult verifyElementArguments(Operation *owner, Block &body,
                                            ValueRange inputs) {
  if (body.getNumArguments() != inputs.size())
    return owner->emitOpError()
           << "body takes " << body.getNumArguments() << " element(s) for "
           << inputs.size() << " input(s)";
  for (auto [i, arg, input] : llvm::enumerate(body.getArguments(), inputs)) {
    Type element = cast<FragmentType>(input.getType()).getElementType();
    if (arg.getType() != element)
      return owner->emitOpError()
             << "body argument #" << i << " is " << arg.getType()
             << " but input #" << i << " holds " << element;
  }
  return success();
}

LogicalResult MapOp::verify() {
  FragmentType result = getResult().getType();
  if (getInputs().empty())
    return emitOpError() << "needs at least one input fragment";
  if (isScaleRole(result.getRole()))
    return emitOpError() << "computes no 'scale' fragments (block scales are "
                            "read, not computed)";
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    auto type = cast<FragmentType>(input.getType());
    // A row or column vector of an accumulator broadcasts along it.
    bool rowOfResult = type.getRole() == FragmentRole::row &&
                       type.getRows() == result.getRows();
    bool colOfResult = type.getRole() == FragmentRole::col &&
                       type.getCols() == result.getCols();
    if (result.getRole() == FragmentRole::acc && type.hasSameMma(result) &&
        (rowOfResult || colOfResult))
      continue;
    if (type.getLaneLayout() != result.getLaneLayout() ||
        type.getRows() != result.getRows() ||
        type.getCols() != result.getCols() || !type.hasSameMma(result))
      return emitOpError() << "input #" << i << " is a '"
                           << formatFragmentShape(type)
                           << "' fragment but the result is '"
                           << formatFragmentShape(result)
                           << "': the fragments must share lane layout (role "
                              "and k order), shape and MMA shape (or be a "
                              "'row' or 'col' vector of an "
                              "'acc' result's rows or columns)";
  }
  return verifyChipHasMma(*this, result);
}

LogicalResult MapOp::verifyRegions() {
  Block &body = getBody().front();
  if (failed(verifyElementArguments(*this, body, getInputs())))
    return failure();
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError() << "body must end with 'hk.yield'";
  Type element = getResult().getType().getElementType();
  if (yield.getValues().size() != 1)
    return emitOpError() << "body yields " << yield.getValues().size()
                         << " values; it yields the one element it computes";
  if (yield.getValues()[0].getType() != element)
    return emitOpError() << "body yields " << yield.getValues()[0].getType()
                         << " but the result holds " << element;
  return verifyElementBody(*this, body, yield);
}

//===----------------------------------------------------------------------===//
// AnyOp
//===----------------------------------------------------------------------===//

LogicalResult AnyOp::verify() {
  if (getInputs().empty())
    return emitOpError() << "needs at least one input fragment";
  auto first = cast<FragmentType>(getInputs()[0].getType());
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    auto type = cast<FragmentType>(input.getType());
    if (type.getLaneLayout() != first.getLaneLayout() ||
        type.getRows() != first.getRows() ||
        type.getCols() != first.getCols() || !type.hasSameMma(first))
      return emitOpError() << "input #" << i << " is a '"
                           << formatFragmentShape(type)
                           << "' fragment but input #0 is '"
                           << formatFragmentShape(first)
                           << "': the fragments must share lane layout (role "
                              "and k order), shape and MMA shape";
  }
  return verifyChipHasMma(*this, first);
}

LogicalResult AnyOp::verifyRegions() {
  Block &body = getBody().front();
  if (failed(verifyElementArguments(*this, body, getInputs())))
    return failure();
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield || yield.getValues().size() != 1 ||
      !yield.getValues()[0].getType().isInteger(1))
    return emitOpError() << "body must end with 'hk.yield' of one i1 (the "
                            "predicate of the element)";
  return verifyElementBody(*this, body, yield);
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  FragmentType input = getInput().getType(), result = getResult().getType();
  if (input.getRole() != FragmentRole::acc)
    return emitOpError() << "reduces 'acc' fragments, got '"
                         << formatFragmentShape(input) << "'";
  if (!input.getElementType().isF32() ||
      result.getElementType() != input.getElementType())
    return emitOpError() << "reduces f32 to f32, got " << input.getElementType()
                         << " to " << result.getElementType();
  if (!result.hasSameMma(input))
    return emitOpError() << "result '" << formatFragmentShape(result)
                         << "' has another MMA shape than the input's "
                         << formatMma(input.getMmaShape());
  if (result.getRole() == FragmentRole::col) {
    if (result.getCols() != input.getCols())
      return emitOpError() << "a 'col' result holds one value per column of "
                              "the input: it needs 1x"
                           << input.getCols() << ", got "
                           << formatFragmentShape(result);
  } else if (result.getRole() == FragmentRole::row) {
    if (result.getRows() != input.getRows())
      return emitOpError() << "a 'row' result holds one value per row of the "
                              "input: it needs "
                           << input.getRows() << "x1, got "
                           << formatFragmentShape(result);
  } else {
    return emitOpError() << "reduces to a 'row' or 'col' vector, got '"
                         << formatFragmentShape(result) << "'";
  }
  return verifyChipHasMma(*this, input);
}

//===----------------------------------------------------------------------===//
// ToOperandOp
//===----------------------------------------------------------------------===//

LogicalResult ToOperandOp::verify() {
  if (getInputs().size() != getOutputs().size() || getInputs().empty())
    return emitOpError() << "gives one result per input, got "
                         << getInputs().size() << " inputs and "
                         << getOutputs().size() << " results";
  for (auto [in, out] : llvm::zip(getInputs(), getOutputs())) {
    auto input = cast<FragmentType>(in.getType());
    auto result = cast<FragmentType>(out.getType());
    if (getInputs().size() > 1 && !isScaleRole(input.getRole()) &&
        !isScaleRole(result.getRole()))
      return emitOpError() << "takes several fragments only of block scales, "
                              "got '"
                           << formatFragmentShape(input) << "'";
    if (failed(verifyConversion(input, result)))
      return failure();
  }
  return success();
}

LogicalResult ToOperandOp::verifyConversion(FragmentType input,
                                            FragmentType result) {
  // Block scales arranged for the MFMA: the same scales.
  if (isScaleRole(input.getRole()) || isScaleRole(result.getRole())) {
    if (input.getRole() != FragmentRole::scale ||
        result != FragmentType::get(
                      getContext(), FragmentRole::scale_mma, input.getRows(),
                      input.getCols(), input.getElementType(),
                      input.getMmaShape().m, input.getMmaShape().n,
                      input.getMmaShape().k, KOrder::mma))
      return emitOpError() << "arranges a 'scale' fragment for the MMA as "
                              "the 'scale_mma' fragment of the same shape, "
                              "got '"
                           << formatFragmentShape(input) << "' to '"
                           << formatFragmentShape(result) << "'";
    return verifyChipHasMma(*this, result);
  }
  if (input.getRole() != FragmentRole::acc)
    return emitOpError() << "takes an 'acc' fragment, got '"
                         << formatFragmentShape(input) << "'";
  FragmentLayout accOperand{FragmentRole::b, KOrder::acc};
  if (isOperandRole(result.getRole()) && result.getLaneLayout() != accOperand)
    return emitOpError()
           << "gives 'b' operands with k = acc, which the accumulator's "
              "registers already are; a '"
           << result.getLaneLayout().str()
           << "' result would move elements between lanes (an LDS round "
              "trip hk does not build): multiply by the accumulator as the B "
              "operand (S^T orientation) and load the other operand as 'a' "
              "with k = acc";
  if (result.getLaneLayout() != accOperand)
    return emitOpError() << "gives a 'b' operand with k = acc, got '"
                         << formatFragmentShape(result) << "'";
  if (!result.hasSameMma(input))
    return emitOpError() << "result '" << formatFragmentShape(result)
                         << "' has another MMA shape than the input's "
                         << formatMma(input.getMmaShape());
  if (result.getRows() != input.getCols() ||
      result.getCols() != input.getRows())
    return emitOpError() << "the B operand of an " << input.getRows() << "x"
                         << input.getCols() << " accumulator X (B = X^T) is "
                         << input.getCols() << "x" << input.getRows()
                         << ", got " << formatFragmentShape(result);
  Type from = input.getElementType(), to = result.getElementType();
  if (!to.isBF16() && !to.isF16())
    return emitOpError() << "gives bf16 or f16 operands, got " << to;
  if (!from.isF32() && from != to)
    return emitOpError() << "converts f32 (rounding to nearest even) or keeps "
                            "the type, got "
                         << from << " to " << to;
  return verifyChipHasMma(*this, result);
}

//===----------------------------------------------------------------------===//
// MaskOp
//===----------------------------------------------------------------------===//

LogicalResult MaskOp::verify() {
  FragmentType type = getInput().getType();
  if (isScaleRole(type.getRole()))
    return emitOpError() << "masks no 'scale' fragments";
  return verifyChipHasMma(*this, type);
}

LogicalResult MaskOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getNumArguments() != 2 ||
      !llvm::all_of(body.getArgumentTypes(),
                    [](Type t) { return t.isIndex(); }))
    return emitOpError() << "body takes the (row, column) of an element: two "
                            "'index' arguments";
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield || yield.getValues().size() != 1 ||
      !yield.getValues()[0].getType().isInteger(1))
    return emitOpError() << "body must end with 'hk.yield' of one i1 (true "
                            "keeps the element)";
  return verifyElementBody(*this, body, yield);
}

//===----------------------------------------------------------------------===//
// ReadFragmentOp
//===----------------------------------------------------------------------===//

/// A gathering read: scale rows picked by ids, zero past the source.
LogicalResult ReadFragmentOp::verifyGather() {
  bool any = getRowIds() || getRowIdsAt() || getRowIdsDivisor();
  if (!any)
    return success();
  if (!getRowIds() || !getRowIdsAt() || !getRowIdsDivisor())
    return emitOpError() << "a gathering read needs the ids, the first id's "
                            "position and the divisor";
  if (getResult().getType().getRole() != FragmentRole::scale ||
      getSource().getType().getRank() != 2 || getTranspose())
    return emitOpError() << "a gathering read reads a 'scale' fragment from "
                            "a 2-D source, untransposed";
  if (getBounds() != BoundsMode::partial &&
      getBounds() != BoundsMode::partial_rows)
    return emitOpError() << "a gathering read takes bounds 'partial' or "
                            "'partial_rows' (padding ids point past the "
                            "source's rows), not '"
                         << stringifyBoundsMode(getBounds()) << "'";
  return success();
}

LogicalResult ReadFragmentOp::verify() {
  FragmentType frag = getResult().getType();
  MemRefType source = getSource().getType();
  FragmentRole role = frag.getRole();
  bool vector = role == FragmentRole::row || role == FragmentRole::col;
  if (role != FragmentRole::acc && role != FragmentRole::scale && !vector)
    return emitOpError() << "reads 'acc', 'scale', 'row' or 'col' fragments, "
                            "got '"
                         << stringifyFragmentRole(role) << "'";
  if (role != FragmentRole::scale && !frag.getElementType().isF32())
    return emitOpError() << "reads into f32 fragments, got "
                         << frag.getElementType();
  bool scales = role == FragmentRole::scale;
  if (scales != isa<Float8E8M0FNUType>(source.getElementType()) ||
      (scales && source.getRank() != 2))
    return emitOpError() << "reads 'scale' fragments from 2-D f8E8M0FNU "
                            "memrefs and 'acc' fragments from bf16, f16 or "
                            "f32 ones";
  if (vector && source.getRank() != 1)
    return emitOpError() << "reads a 'row' or 'col' vector from a 1-D memref";
  if (getTranspose() && (role != FragmentRole::acc || source.getRank() != 2))
    return emitOpError() << "transposes 'acc' fragments read from 2-D memrefs "
                            "only";
  if (getIndices().size() != size_t(source.getRank()))
    return emitOpError() << "takes " << source.getRank()
                         << " index(es) for a rank-" << source.getRank()
                         << " source, got " << getIndices().size();
  if (getBounds() == BoundsMode::partial_chunks)
    return emitOpError() << "reads take bounds 'inside', 'partial_rows' or "
                            "'partial', not 'partial_chunks'";
  if (failed(verifyGather()))
    return failure();
  if (getBounds() == BoundsMode::partial_rows &&
      (source.getRank() != 2 || getTranspose()))
    return emitOpError() << "bounds 'partial_rows' reads rows of a 2-D "
                            "source, not transposed";
  int64_t offset;
  SmallVector<int64_t> strides;
  if (failed(source.getStridesAndOffset(strides, offset)) ||
      strides.back() != 1)
    return emitOpError() << "source must be strided with unit stride along "
                            "its rows, got "
                         << source;
  // A 1-D source is one row (a broadcast acc, a `col` vector) or, for a
  // `row` vector, one column.
  if (source.getRank() == 1) {
    bool column = role == FragmentRole::row;
    int64_t n = source.getDimSize(0);
    if (failed(verifyRegionInBounds(
            *this, "source", column ? getIndices()[0] : Value(),
            column ? Value() : getIndices()[0], column ? frag.getRows() : 1,
            column ? 1 : frag.getCols(), column ? n : 1, column ? 1 : n,
            getBounds())))
      return failure();
    return verifyChipHasMma(*this, frag);
  }
  bool transpose = getTranspose();
  if (failed(verifyRegionInBounds(
          *this, "source", getIndices()[0], getIndices()[1],
          transpose ? frag.getCols() : frag.getRows(),
          transpose ? frag.getRows() : frag.getCols(), source.getDimSize(0),
          source.getDimSize(1), getBounds())))
    return failure();
  return verifyChipHasMma(*this, frag);
}
