//===- HKTypes.cpp - hk types ---------------------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the shared-tile and fragment types: their syntax and
// the chip-independent rules on them.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::hk;

#define GET_TYPEDEF_CLASSES
#include "HK/Dialect/HK/IR/HKTypes.cpp.inc"

void HKDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "HK/Dialect/HK/IR/HKTypes.cpp.inc"
      >();
}

/// Parses `<rows>x<cols>x<element-type>`.
static ParseResult parseMatrixShape(AsmParser &parser, int64_t &rows,
                                    int64_t &cols, Type &elementType) {
  SmallVector<int64_t, 2> dims;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseDimensionList(dims, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return failure();
  if (dims.size() != 2)
    return parser.emitError(loc)
           << "expected a 2-D shape, got " << dims.size() << " dimensions";
  rows = dims[0];
  cols = dims[1];
  return success();
}

//===----------------------------------------------------------------------===//
// SharedTileType
//===----------------------------------------------------------------------===//

static constexpr int64_t kMaxTileDim = 1 << 16;
static constexpr int64_t kMaxSlots = 64;

Type SharedTileType::parse(AsmParser &parser) {
  MLIRContext *ctx = parser.getContext();
  SMLoc loc = parser.getCurrentLocation();
  int64_t rows, cols;
  Type elementType;
  SwizzleAttr swizzle;
  auto permutation =
      ColumnPermutationAttr::get(ctx, ColumnPermutation::identity);
  int64_t slots = 1;
  if (parser.parseLess() || parseMatrixShape(parser, rows, cols, elementType) ||
      parser.parseComma() || parser.parseAttribute(swizzle))
    return {};
  while (succeeded(parser.parseOptionalComma())) {
    if (succeeded(parser.parseOptionalKeyword("slots"))) {
      if (parser.parseEqual() || parser.parseInteger(slots))
        return {};
      continue;
    }
    if (parser.parseAttribute(permutation))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, ctx, rows, cols,
                    elementType, swizzle, permutation, slots);
}

void SharedTileType::print(AsmPrinter &printer) const {
  printer << "<" << getRows() << "x" << getCols() << "x" << getElementType()
          << ", " << getSwizzle();
  if (getPermutation().getValue() != ColumnPermutation::identity)
    printer << ", " << getPermutation();
  if (getSlots() != 1)
    printer << ", slots = " << getSlots();
  printer << ">";
}

LogicalResult
SharedTileType::verify(function_ref<InFlightDiagnostic()> emitError,
                       int64_t rows, int64_t cols, Type elementType,
                       SwizzleAttr swizzle, ColumnPermutationAttr permutation,
                       int64_t slots) {
  if (!elementType.isBF16() && !elementType.isF16() && !elementType.isF32() &&
      !isa<Float8E4M3FNType, Float8E5M2Type>(elementType))
    return emitError() << "shared tile element type must be bf16, f16, f32, "
                          "f8E4M3FN or f8E5M2, got "
                       << elementType;
  if (slots < 1)
    return emitError() << "shared tile needs at least 1 slot, got " << slots;
  // Far beyond any LDS, and keeps every byte count well inside int64_t.
  if (rows > kMaxTileDim || cols > kMaxTileDim || slots > kMaxSlots)
    return emitError() << "shared tile " << rows << "x" << cols << " with "
                       << slots << " slot(s) exceeds the limits of "
                       << kMaxTileDim << " rows or columns and " << kMaxSlots
                       << " slots";
  TileLayout layout{rows, cols, elementType.getIntOrFloatBitWidth() / 8,
                    swizzle.getValue(), permutation.getValue()};
  std::string why = layout.whyInvalid();
  if (!why.empty())
    return emitError() << why;
  return success();
}

TileLayout SharedTileType::getLayout() const {
  return {getRows(), getCols(), getElementType().getIntOrFloatBitWidth() / 8,
          getSwizzle().getValue(), getPermutation().getValue()};
}

int64_t SharedTileType::getSlotBytes() const {
  return getRows() * getCols() * getElementType().getIntOrFloatBitWidth() / 8;
}

int64_t SharedTileType::getTotalBytes() const {
  return getSlotBytes() * getSlots();
}

//===----------------------------------------------------------------------===//
// FragmentType
//===----------------------------------------------------------------------===//

Type FragmentType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef roleName;
  int64_t rows, cols;
  Type elementType;
  SmallVector<int64_t, 3> mma;
  if (parser.parseLess() || parser.parseKeyword(&roleName))
    return {};
  std::optional<FragmentRole> role = symbolizeFragmentRole(roleName);
  if (!role) {
    parser.emitError(loc) << "unknown fragment role '" << roleName
                          << "', expected 'a', 'b', 'acc', 'scale', "
                             "'scale_mma', 'row' or 'col'";
    return {};
  }
  SMLoc mmaLoc;
  if (parser.parseComma() ||
      parseMatrixShape(parser, rows, cols, elementType) ||
      parser.parseComma() || parser.parseKeyword("mma") ||
      parser.parseEqual() || parser.getCurrentLocation(&mmaLoc) ||
      parser.parseDimensionList(mma, /*allowDynamic=*/false,
                                /*withTrailingX=*/false))
    return {};
  if (mma.size() != 3) {
    parser.emitError(mmaLoc)
        << "expected an MMA shape MxNxK, got " << mma.size() << " dimensions";
    return {};
  }
  KOrder kOrder = KOrder::mma;
  if (succeeded(parser.parseOptionalComma())) {
    StringRef orderName;
    SMLoc orderLoc;
    if (parser.parseKeyword("k") || parser.parseEqual() ||
        parser.getCurrentLocation(&orderLoc) || parser.parseKeyword(&orderName))
      return {};
    std::optional<KOrder> order = symbolizeKOrder(orderName);
    if (!order) {
      parser.emitError(orderLoc) << "unknown k order '" << orderName
                                 << "', expected 'mma', 'acc' or 'run'";
      return {};
    }
    kOrder = *order;
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    *role, rows, cols, elementType, mma[0], mma[1], mma[2],
                    kOrder);
}

void FragmentType::print(AsmPrinter &printer) const {
  printer << "<" << stringifyFragmentRole(getRole()) << ", " << getRows() << "x"
          << getCols() << "x" << getElementType() << ", mma = " << getMmaM()
          << "x" << getMmaN() << "x" << getMmaK();
  if (getKOrder() != KOrder::mma)
    printer << ", k = " << stringifyKOrder(getKOrder());
  printer << ">";
}

/// Fragment (rows, cols) of `role` for an m x n x k MMA.
static std::pair<int64_t, int64_t> fragmentDims(FragmentRole role, int64_t m,
                                                int64_t n, int64_t k) {
  switch (role) {
  case FragmentRole::a:
    return {m, k};
  case FragmentRole::b:
    return {n, k};
  case FragmentRole::acc:
    return {m, n};
  case FragmentRole::scale:
  case FragmentRole::scale_mma:
    return {m, k / kScaleBlock};
  case FragmentRole::row:
    return {m, 1};
  case FragmentRole::col:
    return {1, n};
  }
  llvm_unreachable("covered switch over FragmentRole");
}

LogicalResult FragmentType::verify(function_ref<InFlightDiagnostic()> emitError,
                                   FragmentRole role, int64_t rows,
                                   int64_t cols, Type elementType, int64_t m,
                                   int64_t n, int64_t k, KOrder kOrder) {
  if (m <= 0 || n <= 0 || k <= 0)
    return emitError() << "MMA shape " << m << "x" << n << "x" << k
                       << " must be positive";
  if (rows <= 0 || cols <= 0)
    return emitError() << "fragment tile " << rows << "x" << cols
                       << " must have positive dimensions";
  if (isScaleRole(role)) {
    if (!isa<Float8E8M0FNUType>(elementType))
      return emitError() << "'scale' fragments hold f8E8M0FNU, got "
                         << elementType;
    if (k % kScaleBlock != 0)
      return emitError() << "'scale' fragments need an MMA K that is a "
                            "multiple of "
                         << kScaleBlock << ", got " << k;
  }
  bool isOperand = isOperandRole(role);
  if (!isOperand && kOrder != KOrder::mma)
    return emitError() << "only 'a' and 'b' fragments take a k order, got '"
                       << stringifyFragmentRole(role)
                       << "' with k = " << stringifyKOrder(kOrder);
  if (isOperand && !elementType.isBF16() && !elementType.isF16() &&
      !isa<Float8E4M3FNType, Float8E5M2Type>(elementType))
    return emitError() << "'" << stringifyFragmentRole(role)
                       << "' fragments hold bf16, f16, f8E4M3FN or f8E5M2, "
                          "got "
                       << elementType;
  // f32 is what an MMA accumulates; bf16 and f16 are its conversions.
  if (isAccumulatorLike(role) && !elementType.isF32() &&
      !elementType.isBF16() && !elementType.isF16())
    return emitError() << "'" << stringifyFragmentRole(role)
                       << "' fragments hold f32, bf16 or f16, got "
                       << elementType;
  if ((role == FragmentRole::row && cols != 1) ||
      (role == FragmentRole::col && rows != 1))
    return emitError() << "a '" << stringifyFragmentRole(role) << "' vector is "
                       << (role == FragmentRole::row ? "Rx1" : "1xC")
                       << ", got " << rows << "x" << cols;
  auto [fragRows, fragCols] = fragmentDims(role, m, n, k);
  if (rows % fragRows != 0 || cols % fragCols != 0)
    return emitError() << "fragment tile " << rows << "x" << cols
                       << " is not a whole number of " << fragRows << "x"
                       << fragCols << " '" << stringifyFragmentRole(role)
                       << "' fragments of a " << m << "x" << n << "x" << k
                       << " MMA";
  return success();
}

int64_t FragmentType::getFragmentRows() const {
  return fragmentDims(getRole(), getMmaM(), getMmaN(), getMmaK()).first;
}

int64_t FragmentType::getFragmentCols() const {
  return fragmentDims(getRole(), getMmaM(), getMmaN(), getMmaK()).second;
}

MmaShape FragmentType::getMmaShape() const {
  return {getMmaM(), getMmaN(), getMmaK()};
}

bool FragmentType::hasSameMma(FragmentType other) const {
  return getMmaShape() == other.getMmaShape();
}

const MmaInstr *FragmentType::findInstr(const ChipInfo &chip) const {
  MmaShape shape = getMmaShape();
  if (isScaleRole(getRole())) {
    for (const MmaInstr &instr : chip.mmas)
      if (hk::getMmaShape(instr.layout) == shape && instr.blockScales)
        return &instr;
    return nullptr;
  }
  if (!isAccumulatorLike(getRole()))
    return chip.findMma(shape, *getElementKind(getElementType()),
                        ElementKind::f32);
  // An accumulator (or a row or column of one) does not know its operands'
  // type: any f32 MMA of the shape has the same accumulator layout.
  for (const MmaInstr &instr : chip.mmas)
    if (hk::getMmaShape(instr.layout) == shape &&
        instr.accumulatorKind == ElementKind::f32)
      return &instr;
  return nullptr;
}

VectorType FragmentType::getLaneVectorType(const ChipInfo &chip) const {
  const MmaInstr *instr = findInstr(chip);
  if (!instr)
    return nullptr;
  int64_t perLane =
      getFragmentShape(instr->layout, getLaneLayout()).elemsPerLane;
  return VectorType::get(
      {getNumFragmentRows() * getNumFragmentCols() * perLane},
      getElementType());
}
