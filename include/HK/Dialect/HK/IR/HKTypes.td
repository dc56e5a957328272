//===- HKTypes.td - hk types -------------------------------*- tablegen -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file defines the two hk types: a tile of shared memory (LDS) and a
// register fragment with the lane layout of a chip's matrix instruction.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_IR_HKTYPES_TD
#define HK_DIALECT_HK_IR_HKTYPES_TD

include "HK/Dialect/HK/IR/HKBase.td"
include "HK/Dialect/HK/IR/HKAttrs.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def HK_SharedTileType : HK_Type<"SharedTile", "shared_tile"> {
  let summary = "a tile of LDS with a swizzled layout, in one or more slots";
  let description = [{
    Syntax:

    ```
    shared-tile-type ::= `!hk.shared_tile<` rows `x` cols `x` element-type
                         `,` swizzle-attr (`,` col-perm-attr)?
                         (`,` `slots` `=` integer)? `>`
    ```

    A `rows x cols` matrix of `element-type` held in the workgroup's LDS,
    replicated in `slots` independent copies (default 1) for multi-buffering;
    slot `s` starts `s * rows * cols * sizeof(element)` bytes after slot 0.
    Ops address it in logical (row, column) coordinates; the physical
    position of (r, c) is: permute c with the column permutation, then apply
    the swizzle to the row-major byte offset within the sub-tile
    (`#hk.swizzle`, `#hk.col_perm`).

    Constraints: element type bf16, f16 or f32; a swizzle other than `none`
    needs 16-bit elements and a tile that is a whole number of its
    sub-tiles; `block4_0213` needs a multiple of 16 columns; slots >= 1.

    Example:

    ```mlir
    !hk.shared_tile<256x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    ```
  }];
  let parameters = (ins
    "int64_t":$rows,
    "int64_t":$cols,
    "::mlir::Type":$elementType,
    "::mlir::hk::SwizzleAttr":$swizzle,
    "::mlir::hk::ColumnPermutationAttr":$permutation,
    "int64_t":$slots
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Bytes of one slot.
    int64_t getSlotBytes() const;
    /// Bytes of all slots: what the tile takes of the chip's LDS.
    int64_t getTotalBytes() const;
    /// The layout as the plain description the layout utilities take.
    ::mlir::hk::TileLayout getLayout() const;
  }];
}

def HK_FragmentType : HK_Type<"Fragment", "fragment"> {
  let summary = "a wave's register tile made of MMA fragments";
  let description = [{
    Syntax:

    ```
    fragment-type ::= `!hk.fragment<` role `,` rows `x` cols `x` element-type
                      `,` `mma` `=` m `x` n `x` k (`,` `k` `=` k-order)? `>`
    role          ::= `a` | `b` | `acc` | `scale` | `scale_mma` | `row` | `col`
    k-order       ::= `mma` | `acc` | `run`
    ```

    A `rows x cols` matrix distributed over the lanes of one wave, as a grid
    of fragments of the MMA instruction with shape `m x n x k`. The role
    fixes the shape of one fragment:

    | role  | matrix       | fragment | tile rows, cols multiple of |
    |-------|--------------|----------|-----------------------------|
    | `a`   | A (M x K)    | m x k    | m, k                        |
    | `b`   | B^T (N x K)  | n x k    | n, k                        |
    | `acc` | C (M x N)    | m x n    | m, n                        |
    | `scale` | block scales (M x K/32) | m x k/32 | m, k/32           |
    | `row` | one value per row of an `acc` (R x 1) | m x 1 | m, 1     |
    | `col` | one value per column of an `acc` (1 x C) | 1 x n | 1, n  |

    The role and the k order are the fragment's lane layout, as data
    (`FragmentLayout`): ops that combine fragments compare them. `k` (only
    on `a` and `b`, default `mma`, which is not printed) is the order in
    which the operand takes its k index (docs/TileAlgebra.md#k-order):

    - `k = mma`: the matrix instruction's own order.
    - `k = acc`: an accumulator's row order: lane l's element i is
      k = M (i / E) + (the row of accumulator element i % E of lane l), E
      the accumulator's elements per lane. An accumulator's registers are
      such a B operand (`hk.to_operand`), and an A operand loaded in the
      same order multiplies it.
    - `k = run`: the order of each lane's contiguous run: lane l's element
      i is k = (l / M) E + i (M the lanes of a row group, E the elements
      per lane); each lane reads one run from a tile without a column
      permutation. On gfx950's bf16 MFMAs this is the MMA's own order; on
      gfx1201's WMMA (lanes 0-15 hold k 0-3 and 8-11) it spares the
      `block4_0213` tiles, whose fills store 8-byte halves. The attention
      kernels' S^T = K Q^T takes them there.

    The MMA pairs A's and B's elements slot by slot, so both operands of an
    `hk.mma` must take k in the same order; the product is then the
    product of the matrices.

    A `row` or `col` vector is held by the lanes holding that row or
    column of an accumulator of the same MMA shape (each lane the rows of
    its accumulator elements, or its one column), so `hk.reduce` produces
    them and `hk.map` broadcasts them without moving data.

    B fragments hold rows of B stored N x K (`C = A * B^T`, HipKittens'
    `mma_ABt`). Which lane holds which element is the lane layout of the
    chip's instruction for that shape (docs/Hardware.md#lane-layouts). On
    the chip each lane holds `E` elements of every fragment,
    `F = (rows/fm) * (cols/fn)` fragments of shape `fm x fn` in row-major
    order: a
    `vector<(F * E) x element-type>` whose elements
    `[(i * (cols/fn) + j) * E, +E)` belong to fragment (i, j):

    | chip      | mma        | `a`, `b` elements/lane | `acc` elements/lane |
    |-----------|------------|------------------------|---------------------|
    | `gfx950`  | 16x16x32   | 8 bf16                 | 4 f32               |
    | `gfx1201` | 16x16x16   | 8 bf16                 | 8 f32               |

    Constraints: `a` and `b` hold bf16, f16, f8E4M3FN or f8E5M2; `acc`,
    `row` and `col` hold f32 (what an MMA accumulates) or bf16 / f16 (its
    conversions, for storing or the next MMA); `scale` holds f8E8M0FNU; the
    tile is a whole number of fragments. Whether the chip has the MMA shape is checked
    by the ops using the type, once the chip is known.

    Example:

    ```mlir
    !hk.fragment<acc, 128x64xf32, mma = 16x16x32>
    !hk.fragment<a, 64x64xbf16, mma = 16x16x32, k = acc>
    ```
  }];
  let parameters = (ins
    "::mlir::hk::FragmentRole":$role,
    "int64_t":$rows,
    "int64_t":$cols,
    "::mlir::Type":$elementType,
    "int64_t":$mmaM,
    "int64_t":$mmaN,
    "int64_t":$mmaK,
    "::mlir::hk::KOrder":$kOrder
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The lane layout: role and k order.
    ::mlir::hk::FragmentLayout getLaneLayout() const {
      return {getRole(), getKOrder()};
    }
    /// Rows and columns of one fragment for this role.
    int64_t getFragmentRows() const;
    int64_t getFragmentCols() const;
    /// Fragments along the rows and the columns of the tile.
    int64_t getNumFragmentRows() const { return getRows() / getFragmentRows(); }
    int64_t getNumFragmentCols() const { return getCols() / getFragmentCols(); }
    /// The MMA shape as the target description spells it.
    ::mlir::hk::MmaShape getMmaShape() const;
    /// True if `other` is a fragment of the same MMA shape.
    bool hasSameMma(FragmentType other) const;
    /// The instruction of `chip` computing this fragment, or null if the
    /// chip has no MMA of this shape and element type.
    const ::mlir::hk::MmaInstr *findInstr(const ::mlir::hk::ChipInfo &chip) const;
    /// What each lane holds on `chip`: vector<((rows/fm) * (cols/fn) * E) x T>,
    /// fragment (i, j) at elements [(i * (cols/fn) + j) * E, +E); null if
    /// the chip has no such MMA.
    ::mlir::VectorType getLaneVectorType(const ::mlir::hk::ChipInfo &chip) const;
  }];
}

#endif // HK_DIALECT_HK_IR_HKTYPES_TD
