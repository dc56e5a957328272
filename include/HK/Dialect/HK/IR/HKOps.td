//===- HKOps.td - hk operations ----------------------------*- tablegen -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file defines the hk ops: allocating shared tiles, the cooperative
// global-to-LDS copy, fragment loads, MMA, fragment fill, elementwise map,
// read and store. The ops
// schedules are written with are in HKScheduleOps.td; a plain barrier or
// priority change is an upstream op (`amdgpu.lds_barrier`, `gpu.barrier`,
// `rocdl.s.setprio`), see docs/Rationale.md.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_IR_HKOPS_TD
#define HK_DIALECT_HK_IR_HKOPS_TD

include "HK/Dialect/HK/IR/HKBase.td"
include "HK/Dialect/HK/IR/HKTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def HK_SharedMemory : Resource<"::mlir::hk::SharedMemoryResource">;

def HK_SharedTile : Type<CPred<"::llvm::isa<::mlir::hk::SharedTileType>($_self)">,
    "hk shared tile", "::mlir::hk::SharedTileType">;
def HK_Fragment : Type<CPred<"::llvm::isa<::mlir::hk::FragmentType>($_self)">,
    "hk fragment", "::mlir::hk::FragmentType">;
def HK_GlobalMatrix : MemRefRankOf<[BF16, F16, F32], [2]>;
def HK_GlobalMatrixOrVector : MemRefRankOf<[BF16, F16, F32], [1, 2]>;
def HK_CopySource : MemRefRankOf<[BF16, F16, F32, F8E4M3FN, F8E5M2], [2]>;
// The row numbers a gathering copy or scattering store follows.
def HK_RowIds : MemRefRankOf<[I32], [1]>;
def HK_GlobalMatrixOrRow : MemRefRankOf<[BF16, F16, F32, F8E8M0FNU], [1, 2]>;

//===----------------------------------------------------------------------===//
// alloc_shared
//===----------------------------------------------------------------------===//

def HK_AllocSharedOp : HK_Op<"alloc_shared",
    [MemoryEffects<[MemAlloc<HK_SharedMemory>]>]> {
  let summary = "allocate a shared tile in the workgroup's LDS";
  let description = [{
    Reserves LDS for a shared tile (all its slots) for the lifetime of the
    enclosing kernel. The allocation is static: the op must sit in the entry
    block of a function, and the tiles of one function together must fit the
    chip's LDS (160 KiB on gfx950, 64 KiB on gfx1201). Every thread of the
    workgroup sees the same tile.

    Lowers to a workgroup-memory buffer (`memref` in address space
    `#gpu.address_space<workgroup>`) of `getTotalBytes()` bytes.

    Example:

    ```mlir
    %a = hk.alloc_shared : !hk.shared_tile<256x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    ```
  }];
  let results = (outs HK_SharedTile:$tile);
  let assemblyFormat = "attr-dict `:` type($tile)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Gives the tile `slots` slots, keeping its layout (multi-buffering).
    void setSlots(int64_t slots);
  }];
}

//===----------------------------------------------------------------------===//
// copy_to_shared
//===----------------------------------------------------------------------===//

def HK_CopyToSharedOp : HK_Op<"copy_to_shared", [AttrSizedOperandSegments]> {
  let summary = "cooperative copy of a global tile into a shared-tile slot";
  let description = [{
    Copies the `rows x cols` region of the 2-D memref `source` whose top-left
    element is at (`row`, `col`) into slot `slot` of the shared tile, at the
    tile's swizzled (and permuted) positions. The copy is cooperative: every
    thread of the workgroup executes the op with the same operands and each
    moves its share of the tile, so it must not sit under control flow that
    depends on the thread id. It does not synchronize: a barrier
    (`amdgpu.lds_barrier`) must separate it from fragment loads of the slot.

    The element types must match; `source` must be strided with unit stride
    along rows, e.g. `memref<?x?xbf16>` or a subview of one. What the region
    may do at the matrix's edges is its `bounds` mode:
    - `inside` (the default): the region lies inside `source`, and its rows
      are whole 16-byte chunks; nothing is checked at run time.
    - `partial_rows`: rows past the last row of `source` read as zero (also
      a region starting past it); the columns lie inside. It costs nothing:
      the buffer resource's range ends at the last row and row offsets stay
      out of `soffset`. Rows must be whole 16-byte chunks (row stride and
      offset multiples of 16 bytes). Allowed with `direct`, but there what
      the tile holds in those rows is not certain (sources disagree on
      whether an out-of-range load to LDS writes zeros or nothing; the
      simulator writes NaN): `direct` is for copies whose rows past the end
      are not used (hk-direct-lds-fill keeps a remainder loop's on the
      register path).
    - `partial`: rows and columns past `source` read as zero, whatever the
      sizes and strides: 16-byte chunks past the last column get an
      out-of-range offset (two vector instructions per chunk), and when the
      rows are not whole 16-byte chunks (row stride, offset, columns or the
      region's column not multiples of 16 bytes), a branch chosen at run
      time loads element by element instead. Register path only (the
      register path's zeros are certain; `direct` is refused).
    - `partial_chunks`: as `partial` for rows that are whole 16-byte chunks,
      without the element-wise path; the caller guarantees the rows (as
      hk-peel-partial-tiles' main loop does). Register path only.
    `hk-peel-partial-tiles` turns a K loop of `partial` copies into a loop
    over the whole K tiles, whose copies are `partial_rows` (K along the
    copy's columns) or `partial_chunks` (K along its rows), and a remainder
    loop.

    With `transpose` the tile receives the region transposed: tile element
    (i, j) is source element (`row` + j, `col` + i), the region being `cols x
    rows` of the source (a K x M operand into an M x K tile, for chips
    without transposed LDS reads). Each thread reads 4 source rows of 8
    elements (four 16-byte chunks), transposes them in registers and writes
    8 tile rows of 4 elements (8-byte LDS stores); the tile's layout must
    keep 4-element runs of a row contiguous, its rows must be a multiple of
    8 and its columns of 4, and its 32-element blocks must split evenly over
    the workgroup. Register path only.

    Lowers to vectorized global loads and LDS stores (thread-major chunks of
    16 bytes): all the copy's loads, then its stores. Register-path copies
    that follow each other in a block (not `partial`, whose loads are
    chosen at run time) are lowered together: all their loads, then each
    copy's stores behind one `amdgpu.memory_counter_wait load(n)`, n the
    loads of the copies after it, so a copy's load latency runs under the
    next copies' loads and its stores wait once, not once per load. With
    `direct` (set by `hk-direct-lds-fill` on chips that have
    direct-to-LDS loads), each wave instead writes its own 64 x 16-byte run
    of LDS lane-linearly with direct-to-LDS loads (`buffer_load_dwordx4 ...
    lds` through a raw buffer resource based at the region's first row:
    per-lane offsets in voffset, the region's column in soffset; these
    32-bit offsets need rows x row stride of the region below 4 GiB), each
    lane fetching the element the tile layout stores at its position:
    the swizzle moves to the global side (docs/Hardware.md#direct-lds-fill).
    A direct copy completes asynchronously: it must be followed by a wait
    for vector memory loads (`amdgpu.memory_counter_wait load(0)`) before
    the barrier that publishes the tile.

    With `deferred` (register path only; set by `hk-multi-buffer` with
    `defer-register-fills`), the copy's loads issue at the op and its LDS
    stores right before the first later op of its block that is or holds a
    barrier (the block's terminator if none): the global latency runs under
    the work in between instead of stalling the stores. The stores stay in
    the op's barrier interval; hk-verify-lds places them where they issue.

    With `gather %ids[%first] div %d` the tile's rows are gathered: tile row
    i comes from source row `row + ids[first + i] / d` (`ids` an i32
    vector; an MoE GEMM's routed slots, `d` its top-k, so that slot s reads
    token s / top-k). Gathered rows past the source's last read as zero
    on the register path (padding entries point past it), whatever the
    `bounds` mode, which applies to the columns; a `direct` fill leaves
    those rows undefined (the rows of results a scattering store drops).
    Not `transpose`. Each lane loads the ids of its chunks' rows
    (loop-invariant when `first` is). Like every masked access, the source
    must lie within 2 GiB of its first row (rule R1).

    Example:

    ```mlir
    hk.copy_to_shared %A[%c0, %k0], %tile[%c0] gather %ids[%m0] div %topk bounds partial
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>, memref<?xi32>
    hk.copy_to_shared %A[%m0, %k0], %tile[%slot]
        : memref<?x?xbf16>, !hk.shared_tile<256x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    hk.copy_to_shared %A[%m0, %k0], %tile[%slot] bounds partial
        : memref<?x?xbf16>, !hk.shared_tile<256x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    ```
  }];
  let arguments = (ins
    Arg<HK_CopySource, "global source", [MemRead]>:$source,
    Index:$row, Index:$col,
    Arg<HK_SharedTile, "destination tile", [MemWrite<HK_SharedMemory>]>:$tile,
    Index:$slot, UnitAttr:$direct, UnitAttr:$transpose,
    DefaultValuedAttr<HK_BoundsMode, "::mlir::hk::BoundsMode::inside">:$bounds,
    Arg<Optional<HK_RowIds>, "gathered rows", [MemRead]>:$rowIds,
    Optional<Index>:$rowIdsAt, Optional<Index>:$rowIdsDivisor,
    UnitAttr:$deferred);
  let assemblyFormat = [{
    $source `[` $row `,` $col `]` `,` $tile `[` $slot `]`
    (`gather` $rowIds^ `[` $rowIdsAt `]` `div` $rowIdsDivisor)?
    (`direct` $direct^)? (`transpose` $transpose^)? (`deferred` $deferred^)?
    (`bounds` $bounds^)?
    attr-dict `:` type($source) `,` type($tile) (`,` type($rowIds)^)?
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$source, "::mlir::Value":$row,
      "::mlir::Value":$col, "::mlir::Value":$tile, "::mlir::Value":$slot,
      "bool":$direct, "bool":$transpose, "::mlir::hk::BoundsMode":$bounds), [{
      build($_builder, $_state, source, row, col, tile, slot, direct,
            transpose, bounds, /*rowIds=*/nullptr, /*rowIdsAt=*/nullptr,
            /*rowIdsDivisor=*/nullptr, /*deferred=*/false);
    }]>
  ];
  let extraClassDeclaration = [{
    /// Where a `deferred` copy's LDS stores issue: the first later op of
    /// its block that is or holds a barrier, else the block's terminator.
    ::mlir::Operation *getDeferredStoresPoint();
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// load_fragment
//===----------------------------------------------------------------------===//

def HK_LoadFragmentOp : HK_Op<"load_fragment"> {
  let summary = "load a wave's A or B fragments from a shared tile";
  let description = [{
    Each wave loads the `rows x cols` sub-matrix of slot `slot` of the shared
    tile whose top-left element is at (`row`, `col`) into an `a` or `b`
    fragment, every lane taking the elements the chip's lane layout assigns
    to it. This is a wave-level op: each wave passes its own offsets (for
    example, derived from `gpu.subgroup_id`). Row and column offsets must be
    multiples of the fragment shape; the region must lie inside the tile.

    Lowers to one 16-byte LDS read (`ds_read_b128`) per fragment per lane
    when the tile's layout keeps each lane's elements contiguous
    (`st_16x32` on gfx950; `st_8x64` with `block4_0213` on gfx1201).

    With `transpose` the tile holds the operand transposed (K-major, as a
    fill of a K x M or K x N matrix leaves it): fragment element (i, j) is
    tile element (`row` + j, `col` + i), and the region of `cols x rows`
    must lie inside the tile. It lowers to `amdgpu.transpose_load`
    (`ds_read_b64_tr_b16`, two per 16x32 fragment: the same bytes as one
    `ds_read_b128` in one more instruction) and needs gfx950, MFMA
    16x16x32 fragments and a tile layout keeping 4-element runs of a row
    contiguous (`st_16x32`). Other chips have no transposed LDS reads: fill
    the tile with `hk.copy_to_shared ... transpose` instead.

    Example:

    ```mlir
    %a = hk.load_fragment %tile[%slot][%r, %c]
        : !hk.shared_tile<256x64xbf16, #hk.swizzle<st_16x32>>
        -> !hk.fragment<a, 128x32xbf16, mma = 16x16x32>
    // A K-major tile (64 k x 256 m): the same fragment, transposed reads.
    %t = hk.load_fragment %kmajor[%slot][%c, %r] transpose
        : !hk.shared_tile<64x256xbf16, #hk.swizzle<st_16x32>>
        -> !hk.fragment<a, 128x32xbf16, mma = 16x16x32>
    ```
  }];
  let arguments = (ins
    Arg<HK_SharedTile, "source tile", [MemRead<HK_SharedMemory>]>:$tile,
    Index:$slot, Index:$row, Index:$col, UnitAttr:$transpose);
  let results = (outs HK_Fragment:$result);
  let assemblyFormat = [{
    $tile `[` $slot `]` `[` $row `,` $col `]` (`transpose` $transpose^)?
    attr-dict `:` type($tile) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// store_shared
//===----------------------------------------------------------------------===//

def HK_StoreSharedOp : HK_Op<"store_shared"> {
  let summary = "write a wave's accumulator fragment into a shared tile";
  let description = [{
    Each lane converts its accumulator elements to the tile's element type
    (f32 to bf16 or f16, round to nearest even) and writes them to slot
    `slot` of the shared tile at the region whose top-left element is
    (`row`, `col`), following the chip's accumulator lane layout: the
    mirror of `hk.load_fragment`. A wave-level op: each wave passes its own
    offsets, and the waves that later read the region with
    `hk.load_fragment` (in another fragment layout, or transposed) wait
    for the writes and meet the writers at a barrier, as after a fill.
    Row and column offsets must be multiples of the fragment shape; the
    region must lie inside the tile.

    This is how an accumulator reaches an operand whose k runs along the
    accumulator's columns (an attention backward's dS, the A operand of
    dQ = dS K): `hk.to_operand` serves only k along the rows, in
    registers. Each run of elements a lane holds consecutively in the
    tile's layout is one LDS write (`ds_write_b16` for a column of a
    row-major tile).

    Example:

    ```mlir
    hk.store_shared %ds, %dS[%c0][%c0, %wk]
        : !hk.fragment<acc, 64x32xf32, mma = 32x32x16>,
          !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x32>>
    ```
  }];
  let arguments = (ins HK_Fragment:$fragment,
    Arg<HK_SharedTile, "destination tile", [MemWrite<HK_SharedMemory>]>:$tile,
    Index:$slot, Index:$row, Index:$col);
  let assemblyFormat = [{
    $fragment `,` $tile `[` $slot `]` `[` $row `,` $col `]`
    attr-dict `:` type($fragment) `,` type($tile)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// mma
//===----------------------------------------------------------------------===//

def HK_MmaOp : HK_Op<"mma", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "matrix multiply-accumulate on fragments: acc + a * b^T";
  let description = [{
    Computes `result = acc + a * b^T` for one wave, where `a` is `M x K`,
    `b` is `N x K` (rows of B^T) and `acc` is `M x N`, all built from
    fragments of the same MMA shape. Every (i, j) accumulator fragment
    receives the products of row-fragment i of `a` and row-fragment j of `b`
    over the K chunks in ascending order, one MMA instruction per chunk, with
    fp32 accumulation.

    The chip must have the MMA shape for the element types: gfx950 has
    16x16x32 bf16/f16 and 16x16x128 f8E4M3FN/f8E5M2 (MFMA), gfx1201
    16x16x16 bf16/f16 and f8E4M3FN/f8E5M2 (WMMA).

    With `scales(%sa, %sb)` (MXFP8), `sa` and `sb` are `scale` or
    `scale_mma` fragments of f8E8M0FNU, one per row of `a` (`b`) per 32 k:
    each 32-k block product is multiplied by 2^(sa - 127) 2^(sb - 127)
    before it is accumulated. A `scale` fragment is arranged for the MFMA
    here, once per register; a `scale_mma` one (`hk.to_operand`) was
    arranged before. Only gfx950's 16x16x128 fp8 MFMA has block scales
    (`v_mfma_scale_f32_16x16x128_f8f6f4`, `amdgpu.scaled_mfma`).

    Lowers to `amdgpu.mfma`, `amdgpu.scaled_mfma` or `amdgpu.wmma`, one per
    fragment triple.

    Example:

    ```mlir
    %r = hk.mma %a, %b, %c
        : !hk.fragment<a, 128x32xbf16, mma = 16x16x32>,
          !hk.fragment<b, 64x32xbf16, mma = 16x16x32>,
          !hk.fragment<acc, 128x64xf32, mma = 16x16x32>
    ```
  }];
  let arguments = (ins HK_Fragment:$a, HK_Fragment:$b, HK_Fragment:$acc,
                       Variadic<HK_Fragment>:$scales);
  let results = (outs HK_Fragment:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc (`scales` `(` $scales^ `)`)? attr-dict
    `:` type($a) `,` type($b) `,` type($acc) (`,` type($scales)^)?
  }];
  let extraClassDeclaration = [{
    /// The block scales of `a` and `b` (MXFP8), or null.
    ::mlir::Value getScaleA() {
      return getScales().empty() ? nullptr : getScales()[0];
    }
    ::mlir::Value getScaleB() {
      return getScales().size() < 2 ? nullptr : getScales()[1];
    }
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// fill_fragment
//===----------------------------------------------------------------------===//

def HK_FillFragmentOp : HK_Op<"fill_fragment", [Pure,
    TypesMatchWith<"value type matches the fragment's element type",
                   "result", "value",
                   "::llvm::cast<::mlir::hk::FragmentType>($_self).getElementType()">]> {
  let summary = "a fragment with every element equal to a scalar";
  let description = [{
    Produces a fragment whose every element is `value`, typically the zero
    accumulator before a K loop. Lowers to a splat of the per-lane vector.

    Example:

    ```mlir
    %zero = arith.constant 0.0 : f32
    %acc = hk.fill_fragment %zero : !hk.fragment<acc, 128x64xf32, mma = 16x16x32>
    ```
  }];
  let arguments = (ins AnyFloat:$value);
  let results = (outs HK_Fragment:$result);
  let assemblyFormat = "$value attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// map
//===----------------------------------------------------------------------===//

def HK_MapOp : HK_Op<"map", [RecursiveMemoryEffects, SingleBlock]> {
  let summary = "apply a scalar computation to every element of fragments";
  let description = [{
    Computes each element of the result from the elements at the same
    position of `inputs`: the body's block takes one scalar per input (its
    element type) and `hk.yield`s the result element. The inputs and the
    result are fragments of one role, shape and MMA shape (element types may
    differ, as the role allows), so every lane holds the same positions of
    each and the op moves no data between lanes. An `acc` result may also
    take `row` and `col` vectors of its rows and columns (the results of
    `hk.reduce`): element (i, j) reads element i of a `row` input and
    element j of a `col` input, which the lane holds already. The result
    role may be any fragment role but `scale`. Element types may change: an
    f32 accumulator converts to a bf16 or f16 one with `arith.truncf` in the
    body (`v_cvt_pk_bf16_f32` on gfx950, where LLVM pairs the elements). The body may use scalars
    defined above it (an `alpha`, a runtime flag) but no hk values, and must
    not touch memory: the lowering clones it once per element a lane holds
    (scalar ops on the lane-vector's elements, which LLVM may vectorize).

    Example (an epilogue's alpha * acc + beta * c):

    ```mlir
    %d = hk.map %acc, %c
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>,
          !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32> {
    ^bb0(%x: f32, %y: f32):
      %ax = arith.mulf %alpha, %x : f32
      %r = math.fma %beta, %y, %ax : f32
      hk.yield %r : f32
    }
    ```
  }];
  let arguments = (ins Variadic<HK_Fragment>:$inputs);
  let results = (outs HK_Fragment:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $inputs attr-dict `:` type($inputs) `->` type($result) $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

//===----------------------------------------------------------------------===//
// reduce
//===----------------------------------------------------------------------===//

def HK_ReduceOp : HK_Op<"reduce", [Pure]> {
  let summary = "max or sum of an accumulator's rows or columns, across lanes";
  let description = [{
    Reduces every column (result role `col`) or every row (result role
    `row`) of an `acc` fragment to one value, `max` (`arith.maximumf`: NaN
    if any element is NaN) or `sum` (`arith.addf`). Every lane holding a
    position of the row or column receives the value, so the result can be
    broadcast back with `hk.map` without moving data.

    A lane first combines the elements it holds itself, then the lanes of a
    row or column exchange partial values in registers, never through LDS:

    | result | gfx950 (wave64)                            | gfx1201 (wave32)        |
    |--------|--------------------------------------------|-------------------------|
    | `col`  | `v_permlane32_swap`, `v_permlane16_swap`   | `v_permlanex16_b32`     |
    | `row`  | 4 DPP steps within 16 lanes (quad_perm x 2, row_half_mirror, row_mirror) | the same |

    Each exchange is symmetric (both partners compute op(own, partner)),
    so all lanes end with the same bits. A wave-level op: all lanes of the
    wave must be active, as for `hk.mma`.

    Example (the maximum over the kv rows of S^T, one per query column):

    ```mlir
    %m = hk.reduce max %s
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        -> !hk.fragment<col, 1x32xf32, mma = 16x16x32>
    ```
  }];
  let arguments = (ins HK_ReduceKind:$kind, HK_Fragment:$input);
  let results = (outs HK_Fragment:$result);
  let assemblyFormat = [{
    $kind $input attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// any
//===----------------------------------------------------------------------===//

def HK_AnyOp : HK_Op<"any", [RecursiveMemoryEffects, SingleBlock]> {
  let summary = "whether a predicate holds for some element of fragments, "
                "in any lane of the wave";
  let description = [{
    Evaluates the body on the elements at each position of `inputs`, as
    `hk.map` does, and returns true when it yields true for at least one
    position of the fragments: one wave-uniform `i1` (a vote), which can
    take an `scf.if` whose branch every lane of the wave follows alike. The
    inputs are fragments of one role, shape and MMA shape; the body takes
    one scalar per input (its element type), yields an `i1`, and may use
    scalars defined above it but no hk values and no memory.

    A lane ors its own elements' predicates, then one ballot (`v_cmp` into
    a scalar mask, `s_cmp`; `rocdl.ballot`) combines the lanes: the vote
    costs no cross-lane exchange. A wave-level op: all lanes of the wave
    must be active, as for `hk.mma`.

    Example (attention's lazy rescale: has some query's running maximum
    risen by more than 8 in the exp2 domain?):

    ```mlir
    %rescale = hk.any %tile_max, %m
        : !hk.fragment<col, 1x32xf32, mma = 16x16x32>,
          !hk.fragment<col, 1x32xf32, mma = 16x16x32> {
    ^bb0(%new: f32, %old: f32):
      %rise = arith.subf %new, %old : f32
      %scaled = arith.mulf %rise, %scale : f32
      %big = arith.cmpf ugt, %scaled, %eight : f32
      hk.yield %big : i1
    }
    ```
  }];
  let arguments = (ins Variadic<HK_Fragment>:$inputs);
  let results = (outs I1:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $inputs attr-dict `:` type($inputs) $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

//===----------------------------------------------------------------------===//
// to_operand
//===----------------------------------------------------------------------===//

def HK_ToOperandOp : HK_Op<"to_operand", [Pure]> {
  let summary = "an accumulator as the B operand of the next MMA, or block "
                "scales arranged for it, in registers";
  let description = [{
    Gives the B operand whose B^T is the accumulator X (`B = X^T`: the next
    `hk.mma %a, %b, %c` computes `c + a * X`), rounded from f32 to the
    result's bf16 or f16 (nearest even) or kept in it. The result is a `b`
    fragment with `k = acc`: its k index runs in the accumulator's row
    order, so each lane keeps its own registers and no element moves
    between lanes (on gfx950 the two 16-row accumulator fragments of a
    32-k chunk make one B fragment; on gfx1201 one accumulator fragment is
    one B fragment). The A operand it multiplies must take k in the same
    order: an `a` fragment with `k = acc` (`hk.load_fragment ... transpose`
    on gfx950, a plain read of a k-contiguous tile on gfx1201).

    An `a` result, or a `b` result in another k order, would have to
    exchange elements between lanes through LDS; the verifier refuses it and names the alternative.
    This is attention's P^T in the S^T = K Q^T orientation: the softmax
    probabilities are already the B operand of O^T = V^T P^T.

    On `scale` fragments (MXFP8 block scales as `hk.read_fragment` reads
    them) it gives the same scales as `scale_mma` fragments of the same
    shapes, arranged as the MFMA takes them: a transpose of bytes across
    lane groups, docs/Fp8.md#scales. Registers of scales are arranged two
    at a time (three permlane swaps and four `v_perm_b32` for the pair, the
    cost of a single one), so the op takes several `scale` fragments, one
    result each: arrange together what is needed together. `hk.mma` does it
    itself for `scale` fragments; done ahead, it runs where a schedule puts
    it (the ping-pong runs a tile's first arrangements beside the MFMAs of
    the tile before). An accumulator is converted alone.

    Example:

    ```mlir
    %p = hk.to_operand %s
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32, k = acc>
    %t0, %t1 = hk.to_operand %sa0, %sa1
        : !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>,
          !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>
        -> !hk.fragment<scale_mma, 64x4xf8E8M0FNU, mma = 16x16x128>,
           !hk.fragment<scale_mma, 64x4xf8E8M0FNU, mma = 16x16x128>
    ```
  }];
  let arguments = (ins Variadic<HK_Fragment>:$inputs);
  let results = (outs Variadic<HK_Fragment>:$outputs);
  let assemblyFormat = "$inputs attr-dict `:` custom<FragmentTypes>("
                       "type($inputs)) `->` custom<FragmentTypes>("
                       "type($outputs))";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Verifies one input and its result.
    ::llvm::LogicalResult verifyConversion(FragmentType input,
                                           FragmentType result);
  }];
}

//===----------------------------------------------------------------------===//
// mask
//===----------------------------------------------------------------------===//

def HK_MaskOp : HK_Op<"mask", [RecursiveMemoryEffects, SingleBlock,
    AllTypesMatch<["input", "result"]>,
    TypesMatchWith<"fill type matches the fragment's element type",
                   "input", "fill",
                   "::llvm::cast<::mlir::hk::FragmentType>($_self).getElementType()">]> {
  let summary = "replace the elements of a fragment where a predicate fails";
  let description = [{
    Element (i, j) of the result is element (i, j) of `input` where the body
    yields true for the position (`row` + i, `col` + j), and `fill`
    elsewhere. The body takes the two indices (a fragment's place in a
    larger matrix when `row` and `col` are its origin) and yields an `i1`:
    a causal mask keeps `k <= q`, a sequence tail keeps `k < n`. The body
    may use values defined above it but no hk values and no memory, like
    `hk.map`'s; the lowering clones it once per element a lane holds, with
    the lane's positions from the chip's lane layout (index arithmetic and a
    select per element).

    Example (S^T, kv rows from %kv0 and query columns from %q0: keep a key
    at or before its query):

    ```mlir
    %masked = hk.mask %s, %neg_inf at [%kv0, %q0]
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32> {
    ^bb0(%kv: index, %q: index):
      %keep = arith.cmpi ule, %kv, %q : index
      hk.yield %keep : i1
    }
    ```
  }];
  let arguments = (ins HK_Fragment:$input, AnyFloat:$fill, Index:$row,
                       Index:$col);
  let results = (outs HK_Fragment:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $input `,` $fill `at` `[` $row `,` $col `]` attr-dict `:` type($input)
    $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

//===----------------------------------------------------------------------===//
// read_fragment
//===----------------------------------------------------------------------===//

def HK_ReadFragmentOp : HK_Op<"read_fragment", [AttrSizedOperandSegments]> {
  let summary = "read a wave's accumulator-layout fragment from global memory";
  let description = [{
    The mirror of `hk.store_fragment`: each lane reads the elements the
    chip's accumulator lane layout assigns it from the region of `source`
    whose top-left element is at `indices` and converts them to f32 (an
    epilogue's C, for `beta * C`). A `scale` fragment is read the same way
    from a 2-D f8E8M0FNU memref (MXFP8 block scales, one per row per 32 k:
    `indices` are the row and the k block), in the scales' lane layout. A
    1-D `source` read as an `acc` is a row vector broadcast down the
    fragment: element (i, j) is `source[col + j]` (a bias per column of C).
    A wave-level op: each wave passes its own offsets.

    With `transpose` the fragment is read transposed: element (i, j) is
    `source[row + j, col + i]`, the region being `cols x rows` of `source`
    (an attention backward's dO^T from dO).

    A `row` or `col` vector result reads a 1-D `source`, as
    `hk.store_fragment` stores one: element i of a `row` vector is
    `source[index + i]`, element j of a `col` vector `source[index + j]`
    (a log-sum-exp per query). Every lane holding a position reads it.

    With `bounds inside` (the default) the region lies inside `source`; with
    `bounds partial` elements outside it read as zero (rows and columns are
    both masked, so any strides are served: an out-of-range offset per
    element, no branch), and the indices must be the same in every lane of a
    wave (the lowering makes them scalar, taking lane 0's). `bounds
    partial_rows` (a 2-D source, not transposed) masks only the rows, for
    free: the columns lie inside, rows do not overlap (row stride at least
    the columns), and for block scales each row's scales start 4-byte words
    (row stride, offset and column multiples of 4), as
    `hk-peel-partial-tiles` makes them in a loop of whole K tiles. A lane
    then loads a word of 4 block scales at once (docs/Fp8.md#scales).

    With `gather %ids[%first] div %d` (a `scale` fragment, `bounds partial`
    or `partial_rows`, not `transpose`) the fragment's rows are gathered as
    `hk.copy_to_shared ... gather` gathers a tile's: row i reads source row
    `row + ids[first + i] / d` (an MoE GEMM's per-token scales of its routed
    slots, `d` its top-k). Rows past the source's last read as zero
    (padding entries of the ids point past it), in both bounds modes; the
    columns are handled as without `gather`. Each lane loads the ids of its
    rows once, before the loops they do not depend on.

    Example:

    ```mlir
    %c = hk.read_fragment %C[%m, %n] bounds partial
        : memref<?x?xbf16, strided<[?, 1], offset: ?>>
        -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
    %bias = hk.read_fragment %b[%n] bounds partial
        : memref<?xf32> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
    %dot = hk.read_fragment %dO[%q, %c0] transpose bounds partial
        : memref<?x?xbf16> -> !hk.fragment<acc, 64x32xf32, mma = 32x32x16>
    %lse = hk.read_fragment %L[%q] bounds partial
        : memref<?xf32> -> !hk.fragment<row, 64x1xf32, mma = 32x32x16>
    %sa = hk.read_fragment %SA[%c0, %kb] gather %ids[%m] div %topk
        bounds partial : memref<?x?xf8E8M0FNU>, memref<?xi32>
        -> !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>
    ```
  }];
  let arguments = (ins
    Arg<HK_GlobalMatrixOrRow, "global source", [MemRead]>:$source,
    Variadic<Index>:$indices, UnitAttr:$transpose,
    DefaultValuedAttr<HK_BoundsMode, "::mlir::hk::BoundsMode::inside">:$bounds,
    Arg<Optional<HK_RowIds>, "gathered rows", [MemRead]>:$rowIds,
    Optional<Index>:$rowIdsAt, Optional<Index>:$rowIdsDivisor);
  let results = (outs HK_Fragment:$result);
  let assemblyFormat = [{
    $source `[` $indices `]`
    (`gather` $rowIds^ `[` $rowIdsAt `]` `div` $rowIdsDivisor)?
    (`transpose` $transpose^)? (`bounds` $bounds^)?
    attr-dict `:` type($source) (`,` type($rowIds)^)? `->` type($result)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$source,
      "::mlir::ValueRange":$indices, "bool":$transpose,
      "::mlir::hk::BoundsMode":$bounds), [{
      build($_builder, $_state, result, source, indices, transpose, bounds,
            /*rowIds=*/nullptr, /*rowIdsAt=*/nullptr,
            /*rowIdsDivisor=*/nullptr);
    }]>
  ];
  let extraClassDeclaration = [{
    ::mlir::LogicalResult verifyGather();
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// store_fragment
//===----------------------------------------------------------------------===//

def HK_StoreFragmentOp : HK_Op<"store_fragment", [AttrSizedOperandSegments]> {
  let summary = "convert and store a wave's accumulator to global memory";
  let description = [{
    Each lane converts its accumulator elements to the element type of `dest`
    (round to nearest even for bf16 and f16) and stores them at the region of
    `dest` whose top-left element is (`row`, `col`), following the chip's
    accumulator lane layout. A wave-level op: each wave passes its own
    offsets. With `bounds inside` (the default) the region must lie inside
    `dest`; with `bounds partial` the elements outside `dest` are not written
    (buffer stores whose out-of-range offsets the hardware drops: a compare
    and a select per element, no branch), and `row` and `col` must be the
    same in every lane of a wave (the lowering makes them scalar, taking
    lane 0's). `partial_rows` is for copies and reads, `partial_chunks`
    for copies.

    With `transpose` the fragment is stored transposed: element (i, j) goes
    to `dest[row + j, col + i]` (an attention kernel's O^T accumulator as
    O), the region being `cols x rows` of `dest`.

    With `scatter %ids[%first] div %d` (a 2-D `dest`, `bounds partial`, not
    `transpose`) region row r goes to `dest` row `row + ids[first + r] /
    d`: an MoE GEMM's routed rows back to their slots. Rows past `dest`'s
    last (padding) are not written.

    With `atomic` (an f32 fragment and `dest`, `bounds partial`, not
    `transpose`) each element is added into `dest` with an fp32 atomic add
    (`buffer_atomic_add_f32`) instead of stored: rows that several waves or
    workgroups write, such as an MoE combine's token rows (`scatter` with
    the top-k as divisor). The order of the adds is the hardware's.

    A `row` or `col` vector is stored to a 1-D `dest`: element i of a `row`
    vector at `dest[row + i]`, element j of a `col` vector at
    `dest[col + j]` (a log-sum-exp per query; give the unused index as 0).
    Every lane holding a value stores it; the stores of one address agree.

    Example:

    ```mlir
    hk.store_fragment %acc, %C[%m, %n]
        : !hk.fragment<acc, 128x64xf32, mma = 16x16x32>, memref<?x?xbf16>
    hk.store_fragment %acc, %C[%m, %n] bounds partial
        : !hk.fragment<acc, 128x64xf32, mma = 16x16x32>, memref<?x?xbf16>
    hk.store_fragment %ot, %O[%q, %d] transpose bounds partial
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<?x?xbf16>
    hk.store_fragment %lse, %L[%c0, %q] bounds partial
        : !hk.fragment<col, 1x32xf32, mma = 16x16x32>, memref<?xf32>
    ```
  }];
  let arguments = (ins HK_Fragment:$fragment,
    Arg<HK_GlobalMatrixOrVector, "global destination", [MemWrite]>:$dest,
    Index:$row, Index:$col, UnitAttr:$transpose,
    DefaultValuedAttr<HK_BoundsMode, "::mlir::hk::BoundsMode::inside">:$bounds,
    Arg<Optional<HK_RowIds>, "scattered rows", [MemRead]>:$rowIds,
    Optional<Index>:$rowIdsAt, Optional<Index>:$rowIdsDivisor,
    UnitAttr:$atomic);
  let assemblyFormat = [{
    $fragment `,` $dest `[` $row `,` $col `]`
    (`scatter` $rowIds^ `[` $rowIdsAt `]` `div` $rowIdsDivisor)?
    (`atomic` $atomic^)? (`transpose` $transpose^)? (`bounds` $bounds^)? attr-dict
    `:` type($fragment) `,` type($dest) (`,` type($rowIds)^)?
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$fragment, "::mlir::Value":$dest,
      "::mlir::Value":$row, "::mlir::Value":$col, "bool":$transpose,
      "::mlir::hk::BoundsMode":$bounds), [{
      build($_builder, $_state, fragment, dest, row, col, transpose, bounds,
            /*rowIds=*/nullptr, /*rowIdsAt=*/nullptr,
            /*rowIdsDivisor=*/nullptr);
    }]>
  ];
  let hasVerifier = 1;
}

#endif // HK_DIALECT_HK_IR_HKOPS_TD
