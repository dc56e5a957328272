//===- HKAttrs.td - hk attributes --------------------------*- tablegen -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file defines the attributes of the hk dialect: those wrapping the
// enums of HK/Dialect/HK/Utils/Enums.td (swizzles, column permutations,
// chips) and the launch shape.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_IR_HKATTRS_TD
#define HK_DIALECT_HK_IR_HKATTRS_TD

include "HK/Dialect/HK/IR/HKBase.td"
include "HK/Dialect/HK/Utils/Enums.td"
include "HK/Dialect/HK/IR/HKEnums.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Swizzle
//===----------------------------------------------------------------------===//

def HK_SwizzleAttr : EnumAttr<HK_Dialect, HK_Swizzle, "swizzle"> {
  let summary = "HipKittens LDS swizzle of a shared tile";
  let description = [{
    Syntax:

    ```
    swizzle-attr ::= `#hk.swizzle<` (`none` | `st_16x16` | `st_16x32`
                                     | `st_32x16` | `st_32x32` | `st_8x64`
                                     | `st_16x64` | `st_16x128`
                                     | `st_16x128_b64`) `>`
    ```

    A shared tile is stored as sub-tiles in row-major order, each sub-tile
    row-major inside. Within a sub-tile of `S` bytes the byte offset `off` is
    stored at `off ^ (((off % S) >> a) << b)`. The swizzles up to `st_16x64`
    are for 16-bit elements, `st_16x128` and `st_16x128_b64` for 8-bit ones
    (fp8):

    | swizzle    | sub-tile (rows x cols) | S    | a  | b | effect                                        |
    |------------|------------------------|------|----|---|-----------------------------------------------|
    | `none`     | whole tile             | -    | -  | - | plain row-major                               |
    | `st_16x16` | 16 x 16                | 512  | 7  | 3 | 8-byte group index ^= (row / 4) % 4           |
    | `st_16x32` | 16 x 32                | 1024 | 9  | 5 | rows 8..15 swap the two 32-byte row halves    |
    | `st_32x16` | 32 x 16                | 1024 | 9  | 4 | rows 16..31 swap the two 16-byte row halves   |
    | `st_32x32` | 32 x 32                | 2048 | 10 | 4 | rows 16..31 swap neighbouring 16-byte chunks  |
    | `st_8x64`  | 8 x 64                 | 1024 | 7  | 4 | 16-byte chunk index ^= row % 8                |
    | `st_16x64` | 16 x 64                | 2048 | 8  | 4 | 16-byte chunk index ^= (row % 16) / 2         |
    | `st_16x128`| 16 x 128 (8-bit)       | 2048 | 8  | 4 | 16-byte chunk index ^= (row % 16) / 2         |
    | `st_16x128_b64` | 16 x 128 (8-bit)  | 2048 | 7  | 3 | 8-byte group index ^= row % 16                |

    `st_16x32` on one sub-tile (each cell is 16 bytes = 8 bf16, numbers are
    the logical 16-byte column group stored at that position):

    ```
    rows 0..7  : | 0 | 1 | 2 | 3 |
    rows 8..15 : | 2 | 3 | 0 | 1 |
    ```

    `st_8x64` on one sub-tile (128-byte rows):

    ```
    row 0 : | 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 |
    row 1 : | 1 | 0 | 3 | 2 | 5 | 4 | 7 | 6 |
    row 2 : | 2 | 3 | 0 | 1 | 6 | 7 | 4 | 5 |
    ...
    row 7 : | 7 | 6 | 5 | 4 | 3 | 2 | 1 | 0 |
    ```

    Every swizzle is an involution, so the same formula maps logical to
    physical offsets and back. With the fragment reads of `hk.load_fragment`
    on gfx950 (`ds_read_b128`, 64 banks, 4 phases of 16 lanes), `st_16x32`
    makes the reads conflict-free. On gfx1201 (`ds_load_b128`, 32 banks, so
    8 lanes per phase, which read 8 consecutive rows of one 16-byte column
    group), `st_16x32` leaves them 4-way; `st_8x64` puts the 8 rows' chunks
    in the 8 distinct 16-byte bank groups, and the register-path fills (two
    rows of 8-byte stores per 16-lane phase) are conflict-free too.
    `st_16x64` serves the 32x32x16 MFMA's operands on gfx950: each 16-lane
    phase of their `ds_read_b128` reads the same 16 bytes of 16 consecutive
    rows, which it puts in 16 distinct 16-byte bank groups (`st_8x64` only
    has 8 rows per pattern: 2-way); a 16-lane phase of a fill writes two
    64-column rows, also conflict-free.
    `st_16x128` is HipKittens' fp8 tile for gfx950
    (docs/hardware/Fp8Facts.md#st-16x128): the two 16-byte reads of each
    lane of a 16x128 fragment are conflict-free.
    `st_16x128_b64` serves gfx1201's fp8 fragments: each 16-lane phase of
    their 8-byte reads takes the same 8 bytes of 16 rows, which it puts in
    16 distinct 8-byte groups (a 16-byte chunk swizzle has only 8 places);
    fills then write 8 bytes at a time.

    Example:

    ```mlir
    !hk.shared_tile<256x64xbf16, #hk.swizzle<st_16x32>>
    ```
  }];
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Column permutation
//===----------------------------------------------------------------------===//

def HK_ColumnPermutationAttr
    : EnumAttr<HK_Dialect, HK_ColumnPermutation, "col_perm"> {
  let summary = "column permutation of a shared tile";
  let description = [{
    Syntax:

    ```
    col-perm-attr ::= `#hk.col_perm<` (`identity` | `block4_0213`) `>`
    ```

    `block4_0213` stores the four 4-element column blocks of every 16-column
    group in the order [0, 2, 1, 3] (logical block 1 at position 2 and block
    2 at position 1; the permutation is its own inverse):

    ```
    logical  columns: | 0-3 | 4-7 | 8-11 | 12-15 |
    physical columns: | 0-3 | 8-11 | 4-7 | 12-15 |
    ```

    A gfx1201 WMMA operand lane holds k = {0-3, 8-11} or {4-7, 12-15} of a
    16-wide k chunk; under `block4_0213` each of those sets is 8 contiguous
    elements, so every fragment is one 16-byte LDS read. The permutation is
    applied to the column before the swizzle.

    Example:

    ```mlir
    !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, #hk.col_perm<block4_0213>>
    ```
  }];
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Chip
//===----------------------------------------------------------------------===//

def HK_ChipAttr : EnumAttr<HK_Dialect, HK_Chip, "chip"> {
  let summary = "the chip hk code is compiled for";
  let description = [{
    Syntax:

    ```
    chip-attr ::= `#hk.chip<` (`gfx950` | `gfx1201`) `>`
    ```

    Attached as the discardable attribute `hk.chip` to any op (usually a
    `builtin.module`, `gpu.module` or function), it selects the chip whose
    rules the hk ops nested under it are checked against. It takes
    precedence over the `#rocdl.target` of an enclosing `gpu.module`; if
    both are present they must name the same chip.

    | chip      | wave | LDS        | bf16 MMA                   | direct-to-LDS |
    |-----------|------|------------|----------------------------|---------------|
    | `gfx950`  | 64   | 160 KiB    | `v_mfma_f32_16x16x32_bf16` | yes           |
    | `gfx1201` | 32   | 64 KiB     | `v_wmma_f32_16x16x16_bf16` | no            |

    Example:

    ```mlir
    module attributes {hk.chip = #hk.chip<gfx950>} {}
    ```
  }];
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Launch shape
//===----------------------------------------------------------------------===//

def HK_LaunchAttr : HK_Attr<"Launch", "launch"> {
  let summary = "the grid of a kernel as a function of its argument sizes";
  let description = [{
    Syntax:

    ```
    launch-attr ::= `#hk.launch<` `grid` `=` `[` size-term (`,` size-term)* `]`
                    (`,` `divisible` `=` `[` divisibility (`,` divisibility)* `]`)? `>`
    size-term   ::= `arg` N `[` D `]` (`/` | `ceildiv`) integer
    divisibility ::= `arg` N `[` D `]` `by` integer
    ```

    Attached to a `gpu.func` kernel as `hk.launch`, it records how to launch
    the kernel for given argument sizes: grid dimension x, y, z (in that
    order; missing ones are 1) is dimension `D` of memref argument `N`
    divided by the tile size. A `/` term also states that the size is a
    multiple of the tile; a `ceildiv` term rounds up (a kernel serving
    partial tiles). `divisible` lists further sizes the kernel needs to be
    multiples. A batch is a grid term `argN[0] / 1`. The workgroup size is the upstream `known_block_size`.
    Argument numbers are those of the hk source (before
    `hk-lower-kernel-abi`, which rewrites the terms to name the `i32`
    arguments now carrying the sizes: `argN[0]` of an integer argument is its
    value).

    Example: the gfx950 GEMM (`A` is M x K, `C` is M x N), grid (N / 256,
    M / 256), K a multiple of 64:

    ```mlir
    #hk.launch<grid = [arg2[1] / 256, arg2[0] / 256], divisible = [arg0[1] by 64]>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"::mlir::hk::SizeTerm">:$grid,
    ArrayRefParameter<"::mlir::hk::SizeTerm">:$divisible
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Checks the terms against the arguments of `kernel`.
    ::mlir::LogicalResult verifyFor(::mlir::Operation *kernel) const;
  }];
}

//===----------------------------------------------------------------------===//
// Schedule
//===----------------------------------------------------------------------===//

def HK_ScheduleAttr : HK_Attr<"Schedule", "schedule"> {
  let summary = "the schedule knobs a gpu.module's kernels are compiled with";
  let description = [{
    Syntax:

    ```
    schedule-attr ::= `#hk.schedule<` (knob `=` value (`,` knob `=` value)*)? `>`
    ```

    The knobs of hk's pipelines (`HK/Dialect/HK/Utils/ScheduleOptions.def`:
    `stages`, `unroll`, `direct-lds`, `defer-fill-stores`, `mma-priority`,
    `ping-pong-priority`,
    `schedule`, `workgroup-order`, `fp8-format`, `verify-lds`), spelled and
    valued as the pipeline options, each at most once, in any order; the
    others keep their defaults, and only those that differ from them print.
    The verifier refuses knobs that cannot go together whatever the chip (a
    knob a schedule contradicts or does not use).

    Attached to a `gpu.module` as `hk.schedule` (what `hk-linalg-to-kernels`
    records from the kernel library's fastest schedule), it is the schedule
    the pipelines compile the module's kernels with; a pipeline option given
    with another value is an error.

    Example:

    ```mlir
    gpu.module @hk_gemm attributes {
        hk.schedule = #hk.schedule<stages = 2, direct-lds = true, schedule = ping-pong>} {
    ```
  }];
  let parameters = (ins AttrParameter<"::mlir::hk::ScheduleSettings",
      "the knobs", "const ::mlir::hk::ScheduleSettings &">:$settings);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

#endif // HK_DIALECT_HK_IR_HKATTRS_TD
