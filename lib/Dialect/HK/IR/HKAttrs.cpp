//===- HKAttrs.cpp - hk attributes ----------------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the hk enum attributes (their parsers and printers are
// generated) and the enums only ops store (HKEnums.td).
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::hk;

#include "HK/Dialect/HK/IR/HKEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "HK/Dialect/HK/IR/HKAttrs.cpp.inc"

//===----------------------------------------------------------------------===//
// LaunchAttr
//===----------------------------------------------------------------------===//

/// Parses `argN[D] / factor` or `argN[D] ceildiv factor` (grid) or
/// `argN[D] by factor` (divisible).
static ParseResult parseSizeTerm(AsmParser &parser, bool isGrid,
                                 SizeTerm &term) {
  StringRef name;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeyword(&name))
    return failure();
  if (!name.consume_front("arg") || name.getAsInteger(10, term.arg))
    return parser.emitError(loc, "expected 'arg<N>', got '") << name << "'";
  if (parser.parseLSquare() || parser.parseInteger(term.dim) ||
      parser.parseRSquare())
    return failure();
  if (isGrid) {
    term.roundUp = succeeded(parser.parseOptionalKeyword("ceildiv"));
    if (!term.roundUp && failed(parser.parseOptionalSlash()))
      return parser.emitError(parser.getCurrentLocation(),
                              "expected '/' or 'ceildiv' in a grid term");
  } else if (parser.parseKeyword("by")) {
    return failure();
  }
  return parser.parseInteger(term.factor);
}

static ParseResult parseSizeTerms(AsmParser &parser, bool isGrid,
                                  SmallVectorImpl<SizeTerm> &terms) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        return parseSizeTerm(parser, isGrid, terms.emplace_back());
      });
}

Attribute LaunchAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<SizeTerm> grid, divisible;
  if (parser.parseLess() || parser.parseKeyword("grid") ||
      parser.parseEqual() || parseSizeTerms(parser, /*isGrid=*/true, grid))
    return {};
  if (succeeded(parser.parseOptionalComma()))
    if (parser.parseKeyword("divisible") || parser.parseEqual() ||
        parseSizeTerms(parser, /*isGrid=*/false, divisible))
      return {};
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    grid, divisible);
}

static void printSizeTerms(AsmPrinter &printer, ArrayRef<SizeTerm> terms,
                           StringRef op) {
  printer << "[";
  llvm::interleaveComma(terms, printer, [&](const SizeTerm &t) {
    printer << "arg" << t.arg << "[" << t.dim << "] "
            << (t.roundUp ? StringRef("ceildiv") : op) << " " << t.factor;
  });
  printer << "]";
}

void LaunchAttr::print(AsmPrinter &printer) const {
  printer << "<grid = ";
  printSizeTerms(printer, getGrid(), "/");
  if (!getDivisible().empty()) {
    printer << ", divisible = ";
    printSizeTerms(printer, getDivisible(), "by");
  }
  printer << ">";
}

LogicalResult LaunchAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<SizeTerm> grid,
                                 ArrayRef<SizeTerm> divisible) {
  if (grid.empty() || grid.size() > 3)
    return emitError() << "grid needs 1 to 3 dimensions, got " << grid.size();
  for (ArrayRef<SizeTerm> terms : {grid, divisible})
    for (const SizeTerm &t : terms)
      if (t.arg < 0 || t.dim < 0 || t.factor < 1)
        return emitError() << "size term arg" << t.arg << "[" << t.dim
                           << "] needs a non-negative argument and dimension "
                              "and a positive factor, got "
                           << t.factor;
  return success();
}

LogicalResult LaunchAttr::verifyFor(Operation *kernel) const {
  auto func = dyn_cast<FunctionOpInterface>(kernel);
  if (!func)
    return kernel->emitOpError("'hk.launch' belongs on a kernel function");
  ArrayRef<Type> inputs = func.getArgumentTypes();
  for (ArrayRef<SizeTerm> terms : {getGrid(), getDivisible()}) {
    for (const SizeTerm &t : terms) {
      if (t.arg >= static_cast<int64_t>(inputs.size()))
        return kernel->emitOpError()
               << "'hk.launch' refers to argument #" << t.arg
               << " but the kernel has " << inputs.size() << " arguments";
      Type type = inputs[t.arg];
      // A size passed as its own argument (after hk-lower-kernel-abi).
      if (type.isIntOrIndex()) {
        if (t.dim != 0)
          return kernel->emitOpError()
                 << "'hk.launch' refers to dimension " << t.dim
                 << " of integer argument #" << t.arg
                 << ", whose value is its only size (dimension 0)";
        continue;
      }
      auto memref = dyn_cast<MemRefType>(type);
      if (!memref)
        return kernel->emitOpError()
               << "'hk.launch' refers to the sizes of argument #" << t.arg
               << ", which is neither a memref nor an integer but " << type;
      if (t.dim >= memref.getRank())
        return kernel->emitOpError()
               << "'hk.launch' refers to dimension " << t.dim
               << " of argument #" << t.arg << " of rank " << memref.getRank();
    }
  }
  return success();
}

void HKDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "HK/Dialect/HK/IR/HKAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// ScheduleAttr
//===----------------------------------------------------------------------===//

/// A knob's name or value as the pipeline options spell it: an integer, or
/// words joined by hyphens (`ping-pong-hk`, which MLIR reads as keywords
/// and minus signs).
static ParseResult parseScheduleWord(AsmParser &parser, std::string &word) {
  StringRef part;
  if (failed(parser.parseOptionalKeyword(&part))) {
    // (After the keywords: MLIR reads `true` and `false` as integers too.)
    int64_t integer;
    if (parser.parseInteger(integer))
      return failure();
    word = std::to_string(integer);
    return success();
  }
  word = part.str();
  while (succeeded(parser.parseOptionalMinus())) {
    if (parser.parseKeyword(&part))
      return failure();
    word += "-" + part.str();
  }
  return success();
}

Attribute ScheduleAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  ScheduleSettings settings;
  llvm::StringSet<> seen;
  auto parseKnob = [&]() -> ParseResult {
    SMLoc knobLoc = parser.getCurrentLocation();
    std::string name, value;
    if (parseScheduleWord(parser, name) || parser.parseEqual())
      return failure();
    SMLoc valueLoc = parser.getCurrentLocation();
    if (parseScheduleWord(parser, value))
      return failure();
    if (!seen.insert(name).second)
      return parser.emitError(knobLoc)
             << "schedule knob '" << name << "' is given twice";
#define HK_SCHEDULE_OPTION(TYPE, FIELD, NAME, ...)                             \
  if (name == NAME) {                                                          \
    if (!parseScheduleKnob(value, settings.FIELD))                             \
      return parser.emitError(valueLoc)                                        \
             << "'" << value << "' is not a value of schedule knob '" << name  \
             << "'";                                                           \
    return success();                                                          \
  }
#include "HK/Dialect/HK/Utils/ScheduleOptions.def"
    std::string names;
#define HK_SCHEDULE_OPTION(TYPE, FIELD, NAME, ...)                             \
  names += (names.empty() ? "" : ", ") + std::string(NAME);
#include "HK/Dialect/HK/Utils/ScheduleOptions.def"
    return parser.emitError(knobLoc)
           << "'" << name << "' is not a schedule knob (" << names << ")";
  };
  if (parser.parseLess())
    return {};
  if (failed(parser.parseOptionalGreater())) {
    if (parser.parseCommaSeparatedList(parseKnob) || parser.parseGreater())
      return {};
  }
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    settings);
}

void ScheduleAttr::print(AsmPrinter &printer) const {
  const ScheduleSettings &settings = getSettings();
  ScheduleSettings defaults;
  printer << "<";
  llvm::ListSeparator comma;
#define HK_SCHEDULE_OPTION(TYPE, FIELD, NAME, ...)                             \
  if (settings.FIELD != defaults.FIELD)                                        \
    printer.getStream() << comma << NAME << " = "                              \
                        << formatScheduleKnob(settings.FIELD);
#include "HK/Dialect/HK/Utils/ScheduleOptions.def"
  printer << ">";
}

LogicalResult ScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   ScheduleSettings settings) {
  if (llvm::Error why = checkScheduleSettings(settings))
    return emitError() << llvm::toString(std::move(why));
  return success();
}
