//===- HKAttrs.cpp - hk attributes ----------------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the hk enum attributes (their parsers and printers are
// generated).
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::hk;

#define GET_ATTRDEF_CLASSES
#include "HK/Dialect/HK/IR/HKAttrs.cpp.inc"

void HKDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "HK/Dialect/HK/IR/HKAttrs.cpp.inc"
      >();
}
