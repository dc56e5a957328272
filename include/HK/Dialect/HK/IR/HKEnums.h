//===- HKEnums.h - hk enums -------------------------------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The C++ enums generated from HKAttrs.td (Swizzle, ColumnPermutation,
// FragmentRole, Chip). The layout utilities and the target description use
// them without needing the rest of the dialect.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_IR_HKENUMS_H
#define HK_DIALECT_HK_IR_HKENUMS_H

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>

#include "HK/Dialect/HK/IR/HKEnums.h.inc"

#endif // HK_DIALECT_HK_IR_HKENUMS_H
