//===- HK.td - hk dialect umbrella -------------------------*- tablegen -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Umbrella file: everything TableGen generates for the hk dialect comes from
// here (ops, types, attributes, enums, dialect, docs).
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_IR_HK_TD
#define HK_DIALECT_HK_IR_HK_TD

include "HK/Dialect/HK/IR/HKBase.td"
include "HK/Dialect/HK/IR/HKAttrs.td"
include "HK/Dialect/HK/IR/HKTypes.td"
include "HK/Dialect/HK/IR/HKOps.td"
include "HK/Dialect/HK/IR/HKScheduleOps.td"

#endif // HK_DIALECT_HK_IR_HK_TD
