//===- HKEnums.td - enums the hk ops store -----------------*- tablegen -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The enums only hk ops use, stored as i32 attributes with their own
// attribute classes (BoundsModeAttr, ReduceKindAttr): the dialect's, unlike
// the enums of HK/Dialect/HK/Utils/Enums.td that the layers below it name.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_IR_HKENUMS_TD
#define HK_DIALECT_HK_IR_HKENUMS_TD

include "mlir/IR/EnumAttr.td"

def HK_ReduceKind : I32EnumAttr<"ReduceKind",
    "how hk.reduce combines the elements of a row or a column", [
    // arith.maximumf: NaN if any element is NaN.
    I32EnumAttrCase<"max", 0>,
    // arith.addf, in a fixed order.
    I32EnumAttrCase<"sum", 1>
  ]> {
  let cppNamespace = "::mlir::hk";
}

def HK_BoundsMode : I32EnumAttr<"BoundsMode",
    "how a copy or store treats the part of its region outside the matrix", [
    I32EnumAttrCase<"inside", 0>,
    I32EnumAttrCase<"partial_rows", 1>,
    I32EnumAttrCase<"partial", 2>,
    I32EnumAttrCase<"partial_chunks", 3>
  ]> {
  let cppNamespace = "::mlir::hk";
}

#endif // HK_DIALECT_HK_IR_HKENUMS_TD
