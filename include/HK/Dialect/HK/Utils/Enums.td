//===- Enums.td - hk enums --------------------------------*- tablegen -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The enums hk names at every layer: swizzles, column permutations,
// fragment roles, chips and element kinds. They are generated apart from
// the dialect (HKEnumsIncGen) so that the layout math, the target
// description and the runtime, which sit below the dialect, use them
// without it. None generates an attribute class (genSpecializedAttr = 0):
// Enums.h needs no MLIR IR header. HKAttrs.td wraps them in attributes;
// the enums only ops store (bounds modes, reductions) are the dialect's
// own, in HKEnums.td.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_UTILS_ENUMS_TD
#define HK_DIALECT_HK_UTILS_ENUMS_TD

include "mlir/IR/EnumAttr.td"

def HK_Swizzle : I32EnumAttr<"Swizzle", "LDS swizzle of a shared tile", [
    I32EnumAttrCase<"none", 0>,
    I32EnumAttrCase<"st_16x16", 1>,
    I32EnumAttrCase<"st_16x32", 2>,
    I32EnumAttrCase<"st_32x16", 3>,
    I32EnumAttrCase<"st_32x32", 4>,
    I32EnumAttrCase<"st_8x64", 5>,
    I32EnumAttrCase<"st_16x128", 6>,
    I32EnumAttrCase<"st_16x128_b64", 7>,
    I32EnumAttrCase<"st_16x64", 8>
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::hk";
}

def HK_ColumnPermutation : I32EnumAttr<"ColumnPermutation",
    "permutation of a shared tile's columns applied before the swizzle", [
    I32EnumAttrCase<"identity", 0>,
    I32EnumAttrCase<"block4_0213", 1>
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::hk";
}

// How a copy or store treats the part of its region outside the matrix:
// - inside (the default): the region lies inside the matrix; nothing is
//   checked at run time;
// - partial_rows (copies and reads): rows past the matrix's last row read
//   as zero, the columns lie inside; free (the buffer range ends at the
//   last row), for rows that are whole 16-byte chunks (copies) or 4-byte
//   words (block-scale reads);
// - partial: rows and columns past the matrix read as zero (copies) or are
//   not written (stores), for any sizes and strides;
// - partial_chunks (copies only): as partial, for rows that are whole
//   16-byte chunks (row stride, offset, columns and the region's column
//   multiples of 16 bytes), without the element-wise path.
def HK_FragmentRole : I32EnumAttr<"FragmentRole",
    "operand role of a register fragment in an MMA", [
    I32EnumAttrCase<"a", 0>,
    I32EnumAttrCase<"b", 1>,
    I32EnumAttrCase<"acc", 2>,
    // E8M0 block scales of an a or b fragment (MXFP8): one per row per 32 k.
    I32EnumAttrCase<"scale", 3>,
    // One value per row (per column) of an accumulator tile, held by the
    // lanes that hold that row (column): reductions, broadcasts.
    I32EnumAttrCase<"row", 4>,
    I32EnumAttrCase<"col", 5>,
    // Block scales arranged for the MFMA (hk.to_operand of `scale`): what
    // hk.mma does to a `scale` fragment itself, done ahead where a schedule
    // puts it.
    I32EnumAttrCase<"scale_mma", 6>
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::hk";
}

// The order in which an `a` or `b` fragment takes k (the `k` parameter of
// !hk.fragment; docs/TileAlgebra.md#k-order). Both operands of an MMA take
// it in the same order: the MMA pairs their k slot by slot.
// - mma (the default): the matrix instruction's own order;
// - acc: an accumulator's row order, lane l's element i holding
//   k = M (i / E) + (the row of accumulator element i % E of lane l): the
//   registers of an accumulator are such a B operand (hk.to_operand), and
//   an A operand loaded in the same order multiplies it;
// - run: the order of each lane's contiguous run, lane l's element i
//   holding k = (l / M) E + i: read from a tile without a column
//   permutation in one load per run.
def HK_KOrder : I32EnumAttr<"KOrder", "order an operand fragment takes k in", [
    I32EnumAttrCase<"mma", 0>,
    I32EnumAttrCase<"acc", 1>,
    I32EnumAttrCase<"run", 2>
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::hk";
}

def HK_Chip : I32EnumAttr<"Chip", "AMD GPU supported by hk", [
    I32EnumAttrCase<"gfx950", 0>,
    I32EnumAttrCase<"gfx1201", 1>
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::hk";
}

def HK_ElementKind : I32EnumAttr<"ElementKind",
    "scalar element type as the target description spells it", [
    I32EnumAttrCase<"bf16", 0>,
    I32EnumAttrCase<"f16", 1>,
    I32EnumAttrCase<"f32", 2>,
    // The OCP fp8 formats.
    I32EnumAttrCase<"f8e4m3", 3>,
    I32EnumAttrCase<"f8e5m2", 4>
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::hk";
}

// The knobs of #hk.schedule and of the pipelines' schedule options
// (ScheduleOptions.def), spelled as those options take them.

// The schedule of K loops: the program's own order (double-buffered with
// stages=2); HipKittens' 8-wave ping-pong (hk-schedule-ping-pong), each
// cluster's fill after its MMA and the next cluster's reads beside it; the
// same with HipKittens' placement of reads and fills, between clusters; one
// barrier per K tile, the first MMA's operands read a tile ahead
// (hk-schedule-interleave), for one wave per SIMD.
def HK_Schedule : I32EnumAttr<"Schedule", "schedule of K loops", [
    I32EnumAttrCase<"none", 0>,
    I32EnumAttrCase<"pingPong", 1, "ping-pong">,
    I32EnumAttrCase<"pingPongHK", 2, "ping-pong-hk">,
    I32EnumAttrCase<"interleave", 3>
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::hk";
}

// Which workgroup computes which tile of the grid: workgroup (x, y) tile row
// y, column x (the program's own); HipKittens' chiplet-chunked grouped order
// (hk-remap-workgroups).
def HK_WorkgroupOrder : I32EnumAttr<"WorkgroupOrder",
    "order in which the workgroups of a kernel take the tiles of its grid", [
    I32EnumAttrCase<"rowMajor", 0, "row-major">,
    I32EnumAttrCase<"xcd", 1>
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::hk";
}

// The fp8 format of fp8 kernels (hk-set-fp8-format): the source's own
// types, or every fp8 type rewritten to f8E4M3FN or f8E5M2.
def HK_Fp8Format : I32EnumAttr<"Fp8Format", "fp8 format of fp8 kernels", [
    I32EnumAttrCase<"source", 0>,
    I32EnumAttrCase<"e4m3", 1>,
    I32EnumAttrCase<"e5m2", 2>
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::hk";
}

#endif // HK_DIALECT_HK_UTILS_ENUMS_TD
