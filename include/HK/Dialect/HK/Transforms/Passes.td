//===- Passes.td - hk transformation passes ----------------*- tablegen -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_TRANSFORMS_PASSES_TD
#define HK_DIALECT_HK_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def RematerializeAfterLoops
    : Pass<"hk-rematerialize-after-loops", "gpu::GPUModuleOp"> {
  let summary = "Compute lane-derived values again after the loops that "
                "do not use them";
  let description = [{
    A value computed before a loop from the thread id by a few integer ops
    (a lane's address offsets), used after the loop (by a remainder tile or
    an epilogue) and not in it, holds a register through the loop: CSE and
    LLVM's GVN merge the copies that hk's lowering emits before and after
    it, and the AMDGPU backend rematerializes only instructions without
    register operands, so when a loop needs every register it spills such
    values around the loop. This pass computes them again right after the
    loop from a thread id rebuilt there: the lane id (`gpu.lane_id`) or'ed
    to the wave's first thread id (an SGPR: a `rocdl.readfirstlane` of the
    thread id's wave bits before the loop, the one hk.stagger's condition
    reads if there is one, else a new one where the thread id is read).
    Neither CSE nor LLVM's GVN can merge the two computations, and no lane
    value is kept through the loop for them. After a loop right inside one
    whose `llvm.loop_annotation` disables LICM (a persistent kernel's walk
    over work; not under an ordinary loop between, whose LICM should take
    such code out), the wave's first thread id is read again right there (a
    `rocdl.readfirstlane` of the thread id, masked in an SGPR): read before
    the loop, it would leave what is computed after it invariant in the
    outer loop, and LLVM's MachineLICM, which does not read the annotation,
    would take it out and keep it through every inner loop. Blocks are taken
    outermost first, and a thread id the pass rebuilt counts as the thread
    id: what an inner loop's trips take from one rebuilt after an earlier
    loop outside is computed again after the inner loops too. A value is
    recomputed from leaves that cost nothing more through the
    loop: constants, kernel arguments, block ids, the thread id and values
    a loop uses; chains of other ops than integer
    arithmetic, bit operations, casts, minima and maxima (divisions by
    constants only), or longer than 12 ops, are left alone. Whether a loop
    is read from is asked of a copy with loop-invariant code moved out (what
    only such code reads, LLVM moves out of the loop). It applies where it
    pays: after a loop with at least two such values (one when a loop reads
    the thread id anyway), in kernels whose waves have at most 256 registers
    (gfx1201; gfx950 at two or more waves per SIMD). With one wave per SIMD
    a gfx950 wave has 512 VGPRs and AGPRs, and the backend keeps such values
    in AGPRs for two moves each. Runs on the lowered kernels, before
    `convert-scf-to-cf`.
  }];
  let dependentDialects = ["ROCDL::ROCDLDialect"];
}

def ExactLoopExits : Pass<"hk-exact-loop-exits", "gpu::GPUModuleOp"> {
  let summary = "Make loops exit where their steps end, on !=";
  let description = [{
    Rewrites each `scf.for` with a positive constant step and a bound that
    is not constant into an `scf.while` that runs while its induction
    variable is not `end = lb + max(ceildiv(ub - lb, step), 0) * step`, the
    first value the steps reach at or past `ub`: the same trips. LLVM keeps
    an `scf.for`'s exit test `iv < ub`, which for an index (64-bit)
    induction variable the AMDGPU backend emits as a vector compare, an
    AND with the exec mask and a scalar wait (`v_cmp_lt_u64`, `s_and_b32
    vcc_lo, exec_lo`, `s_wait_alu`): there is no 64-bit scalar less-than.
    Not-equal has one (`s_cmp_lg_u64`). hk's pipeline runs this pass where
    the chip table says (`exactLoopExits`: gfx1201); on gfx950 the same
    rewrite made the backend spill (97 VGPRs in the d = 128 attention
    kernel), see docs/Attention.md.

    Before:

    ```mlir
    %r = scf.for %k = %lb to %ub step %c32 iter_args(%a = %init) -> (f32) {
      ...
      scf.yield %next : f32
    }
    ```

    After:

    ```mlir
    %span = arith.subi %ub, %lb : index
    %ceil = arith.ceildivsi %span, %c32 : index
    %trips = arith.maxsi %ceil, %c0 : index
    %length = arith.muli %trips, %c32 : index
    %end = arith.addi %lb, %length : index
    %w:2 = scf.while (%k = %lb, %a = %init) : (index, f32) -> (index, f32) {
      %runs = arith.cmpi ne, %k, %end : index
      scf.condition(%runs) %k, %a : index, f32
    } do {
    ^bb0(%k: index, %a: f32):
      ...
      %k1 = arith.addi %k, %c32 : index
      scf.yield %k1, %next : index, f32
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def LowerKernelAbi : Pass<"hk-lower-kernel-abi", "gpu::GPUModuleOp"> {
  let summary = "Give kernels a bare-pointer-plus-sizes argument list";
  let description = [{
    Rewrites the signature of every `gpu.func` kernel of the module so that
    a HIP program can launch it with `hipModuleLaunchKernel` and a plain
    argument struct: each memref argument becomes a global pointer
    (`!llvm.ptr<1>`) followed by one `i32` per dynamic dimension, in
    dimension order, then, for a strided layout (`strided<[?, ?, 1]>`), one
    `i32` per dynamic stride, in dimension order; other arguments are kept.
    Inside the kernel the memref is rebuilt (a row-major one with offset 0
    and strides from the sizes, a strided one with its static offset and its
    strides), so the body is unchanged. A dynamic offset is refused: pass
    the pointer to the first element instead.

    Before:

    ```mlir
    gpu.func @k(%A: memref<?x?xbf16>, %n: index) kernel { ... }
    ```

    After (C view: `void k(bf16 *A, int A_rows, int A_cols, long n)`):

    ```mlir
    gpu.func @k(%A: !llvm.ptr<1>, %rows: i32, %cols: i32, %n: index) kernel {
      // llvm.insertvalue ... into the descriptor,
      // builtin.unrealized_conversion_cast to memref<?x?xbf16>
      ...
    }
    ```

    Run it right before `convert-gpu-to-rocdl`, with the same index bitwidth.
    Only row-major memrefs (identity layout) can be passed this way.
  }];
  let options = [
    Option<"indexBitwidth", "index-bitwidth", "unsigned", "64",
           "bitwidth of index in the memref descriptors (as given to "
           "convert-gpu-to-rocdl)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def AttachTarget : Pass<"hk-attach-target", "ModuleOp"> {
  let summary = "Give gpu.modules the #rocdl.target of a chip, or check theirs";
  let description = [{
    Every `gpu.module` without a `#rocdl.target` gets
    `#rocdl.target<chip = "<chip>", O = <opt-level>>`; one that already has
    ROCDL targets must name `<chip>` in all of them, otherwise the pass
    fails with the two chip names. This lets a pipeline take its chip as an
    option and still compile sources that declare their own target, without
    duplicate targets.

    It also checks the launch sizes of the modules' kernels on `<chip>`, the
    first step of hk's pipelines and before any pass reads them: every
    dimension of `known_block_size` and `known_grid_size` at least 1, a
    workgroup of at most the chip's largest (1024 lanes), whole waves in a
    kernel holding hk ops, and a grid a dispatch can give.
  }];
  let options = [
    Option<"chip", "chip", "::mlir::hk::Chip", "::mlir::hk::Chip::gfx950",
           "the chip to compile for (required)",
           "::mlir::hk::chipOptionValues()">,
    Option<"optLevel", "O", "unsigned", "3",
           "LLVM optimization level of attached targets">,
  ];
  let dependentDialects = ["::mlir::ROCDL::ROCDLDialect"];
}

def MultiBuffer : Pass<"hk-multi-buffer", "gpu::GPUModuleOp"> {
  let summary = "Double-buffer the shared tiles of K loops on loop parity";
  let description = [{
    Rewrites each `scf.for` K loop of the form

    ```
    scf.for %k = %lb to %ub step %s {
      hk.copy_to_shared ..., %tile[%c0]      // one or more copies, slot 0
      <barrier>                              // amdgpu.lds_barrier or gpu.barrier
      ... hk.load_fragment %tile[%c0] ...    // compute from the tiles
      <barrier>
    }
    ```

    into the double-buffered form of docs/Hardware.md#pipelining: the copied
    tiles get two slots; a prologue fills tile 0 into slot 0 (when the loop
    runs at all) and waits at a barrier; each iteration first issues the
    fill of tile k+1 into slot (t+1) % 2, predicated off in the last iteration,
    then computes from slot t % 2 (t the iteration number), and ends with
    the loop's one barrier, which orders both the fill of k+1 before its
    reads and the reads of k before the fill of k+2. Correct for every trip
    count, odd or even, including 0 and 1.

    Before (body):

    ```mlir
    hk.copy_to_shared %A[%m, %k], %As[%c0] : ...
    amdgpu.lds_barrier
    %a = hk.load_fragment %As[%c0][...] : ...
    ...
    amdgpu.lds_barrier
    ```

    After:

    ```mlir
    // before the loop: copy tile %lb into slot 0, barrier
    %t = (%k - %lb) / %s;  %slot = %t % 2;  %other = %slot xor 1
    scf.if (%k + %s < %ub) { hk.copy_to_shared %A[%m, %k + %s], %As[%other] }
    %a = hk.load_fragment %As[%slot][...] : ...
    ...
    amdgpu.lds_barrier
    ```

    With `unroll=U` (U even) the loop is then unrolled by U K tiles with the
    upstream `scf` unroller, and the slot indices of the unrolled copies
    become the constants 0, 1, 0, 1, ...; the tiles left over run in a
    rolled epilogue loop with computed slots.

    With `defer-register-fills`, a fill whose copies all go through
    registers (none `direct`) is issued in every iteration instead, of tile
    min(k+1, last) (the last iteration reloads its own tile into the slot
    no one reads), and its copies are `deferred`: their loads issue at the
    top of the iteration, their LDS stores right before the iteration's
    next barrier, so the global latency runs under the iteration's
    compute instead of stalling the stores, at the cost of the data's
    registers through the iteration (hk-compile `--stages=2
    --defer-fill-stores`). The pipelines run hk-direct-lds-fill after this
    pass; it leaves deferred copies on the register path.

    ```mlir
    %next = arith.select (%k + %s < %ub), %k + %s, %k
    hk.copy_to_shared %A[%m, %next], %As[%other] deferred : ...
    ```

    A loop that does not have this form is left as it is, with a remark
    saying why. More than 2 stages are refused. Tiles that no longer fit
    the chip's LDS with two slots are refused with the byte counts.
  }];
  let options = [
    Option<"stages", "stages", "unsigned", "2",
           "number of LDS slots per tile (only 2 is implemented)">,
    Option<"deferRegisterFills", "defer-register-fills", "bool", "false",
           "fill through registers in every iteration with deferred LDS "
           "stores (the loads at the top, the stores before the next "
           "barrier)">,
    Option<"unroll", "unroll", "unsigned", "1",
           "unroll the double-buffered loop by this many K tiles (even, so "
           "every slot index is a constant; the remaining tiles run in a "
           "rolled loop)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def RaiseMmaPriority : Pass<"hk-raise-mma-priority", "gpu::GPUModuleOp"> {
  let summary = "Raise wave priority around the MMA phase of K loops";
  let description = [{
    In every outermost `scf.for` whose body loads fragments and runs
    `hk.mma`, puts the MMA phase (from the first op of the body that loads
    fragments or multiplies, directly or in a nested region, to the last)
    in `hk.cluster priority = <priority> interleaved`, as HipKittens raises
    `s_setprio`: waves in their MMA phase win the issue arbitration over
    waves that are filling LDS. Barriers, waits and priority changes split
    the phase into one cluster per piece (a cluster may not hold them); a
    loop of the phase that holds a barrier gets its own phase. The clusters
    are formed by the cluster mechanism the schedules share
    (`ClusterSchedule.h`); `interleaved` leaves the backend free to order
    the phase, as the raw `s_setprio` did. Priorities do not change
    results.

    ```mlir
    scf.for ... {
      scf.if ... { hk.copy_to_shared ... }     // prefetch
      %c = hk.cluster priority = 1 interleaved {
        %a = hk.load_fragment ...
        %m = hk.mma ...
        hk.yield %m
      }
      amdgpu.lds_barrier
    }
    ```
  }];
  let options = [
    Option<"priority", "priority", "int32_t", "1",
           "wave priority during the MMA phase (0 to 3, as hk.cluster takes "
           "it)">,
  ];
  let dependentDialects = ["::mlir::ROCDL::ROCDLDialect"];
}

def PeelPartialTiles : Pass<"hk-peel-partial-tiles", "gpu::GPUModuleOp"> {
  let summary = "Split K loops of partial copies into whole tiles and a "
                "remainder";
  let description = [{
    A K loop whose copies take `bounds partial` pays for column masks in
    every iteration, and its copies cannot be direct. This pass splits each
    such `scf.for` (constant step) at a bound computed at run time:

    - a main loop over the iterations whose copied columns all lie inside
      their matrices, where the copies become `partial_rows` (free: rows past
      the matrix fall out of the buffer range; they may become direct). It
      runs only when the rows of every such copy's matrix are whole 16-byte
      chunks (columns, and for a strided memref row stride and offset,
      multiples of 16 bytes), else it runs no iteration;
    - then a barrier if any iteration remains, and the original loop over
      the remaining iterations
      (at most one for the example kernels; all of them when the rows are
      not whole 16-byte chunks), marked `hk.remainder`: the multi-buffer and
      schedule passes leave it in program order.

    A copy takes part when its column is the loop's induction variable and
    its tile is at most one step wide, or when its row is the induction
    variable (or it plus a constant c >= 0: a tile read c rows ahead, which
    ends the main loop where that tile is still whole) and its tile at
    most one step tall: then its main-loop copies are `partial_chunks`
    (columns still masked), or `inside` when its columns lie inside the
    matrix by its static size (attention's K and V: the whole tile lies
    inside, and its buffer range does not depend on the row). Other partial
    copies stay partial in both loops. Sizes that are tile multiples run the
    main loop only: its instructions are those of a kernel without tails.

    A partial read of block scales (`hk.read_fragment` of a `scale`
    fragment at rows the loop does not change) whose column is the
    induction variable divided by a constant d (MXFP8: d = 32), with a step
    a multiple of 4 d, becomes `partial_rows` in the main loop, a word of 4
    scales per load: the split then also keeps its columns inside (iv +
    d * columns read <= d * the scales' columns) and runs the main loop only
    when its rows are whole words (columns, row stride and offset multiples
    of 4, lb a multiple of 4 d) that do not overlap (row stride at least the
    columns).
  }];
}

def SplitLoops : Pass<"hk-split-loops", "gpu::GPUModuleOp"> {
  let summary = "Split loops where a guarded branch starts being taken";
  let description = [{
    A loop whose body holds an `scf.if` on a guard `arith.cmpi uge|sge, %iv,
    %bound` (`%bound` defined outside the loop), alone or as one side of an
    `arith.andi`, becomes two loops over the same iterations:

    - the iterations below the first one at or past `%bound`, where the
      guard is false: each branch it decides is replaced by its `else` ops;
    - the rest, from the first loop's results, where the guard is true: a
      branch on the guard alone is replaced by its `then` ops, one on
      `guard and c` becomes a branch on `c`. When the body holds a
      workgroup barrier, a barrier runs between the two loops if the second
      runs (the first one's schedule may leave tiles in use).

    The kernel states where its special iterations start; the pass moves
    them out of the steady-state loop, so later passes schedule a loop
    without the branch. Attention's mask tiles are the use: the diagonal
    and tail tiles of a workgroup lie past a workgroup-uniform bound, and
    each wave's own mask condition stays in the second loop:

    ```mlir
    %in_mask_tiles = arith.cmpi uge, %k, %kv_masked : index
    %needs_mask = arith.andi %in_mask_tiles, %wave_needs_mask : i1
    %s2 = scf.if %needs_mask -> (...) { ... hk.mask ... } else { ... }
    ```

    One guard per loop is split (the first branch with one); an unsigned
    guard needs a constant non-negative lower bound (the induction variable
    then rises in unsigned order), a signed one a signed loop. Loops marked
    `hk.remainder` (hk-peel-partial-tiles) are left alone. The second loop
    is marked `hk.remainder` itself: it runs in program order (hk-multi-buffer
    and hk-schedule-ping-pong leave it as it is), so its mask work does not
    shape the steady-state schedule.
  }];
}

def DirectLdsFill : Pass<"hk-direct-lds-fill", "gpu::GPUModuleOp"> {
  let summary = "Fill shared tiles with direct-to-LDS loads where the chip can";
  let description = [{
    Marks every `hk.copy_to_shared` `direct` on chips with direct-to-LDS
    loads (gfx950): its lowering then writes LDS lane-linearly with
    `buffer_load_dwordx4 ... lds` (`rocdl.raw.ptr.buffer.load.lds`, 16 bytes
    per lane) and moves the swizzle to the global side
    (docs/Hardware.md#direct-lds-fill): the source is one raw buffer
    resource, each lane's offset inside the tile is
    in voffset and computed once outside the K loop, the tile's origin is in
    soffset, and the wave's LDS base is made uniform with `readfirstlane`
    and kept in M0, so a K tile's prefetch is scalar arithmetic. Because such
    loads complete asynchronously, the pass puts
    `amdgpu.memory_counter_wait load(0)` before the first barrier that
    follows each direct copy, so the tile is complete when the barrier
    publishes it; in a double-buffered loop that is the loop's barrier, after
    the MMAs, so the fill still overlaps them.

    Policy on chips without direct-to-LDS loads (gfx1201): the copies stay
    on the register path and the pass says so in a remark; with
    `require=true` it refuses instead. Copies whose tile layout does not
    keep 16-byte chunks row-contiguous (e.g. the gfx1201 block permutation)
    are likewise left alone with a remark, or refused. Copies with `bounds
    partial` (columns past the matrix, as in the remainder loop of
    hk-peel-partial-tiles) stay on the register path without a remark, even
    with `require`: its zeros past the matrix are certain, while sources
    disagree on what an out-of-range direct load writes.
  }];
  let options = [
    Option<"require", "require", "bool", "false",
           "fail instead of keeping a copy on the register path">,
  ];
  let dependentDialects = ["::mlir::amdgpu::AMDGPUDialect"];
}

def CheckBankConflicts : Pass<"hk-check-bank-conflicts", "gpu::GPUModuleOp"> {
  let summary = "Report, and optionally bound, the LDS bank conflicts of tile "
                "accesses";
  let description = [{
    For every `hk.load_fragment` and `hk.copy_to_shared` in a `gpu.func`,
    computes without running anything the conflict ways of each kind of LDS
    instruction its lowering issues, under the chip's bank and phase model
    (the simulator's, `HK/Target/LdsBanks.h`): each lane's address comes
    from the tile's swizzle and column permutation, the fragment lane layout
    of the chip's MMA (loads) or the thread-to-chunk order of the fill, and
    the access plan that splits a lane's elements into vector accesses. The
    figure is the worst over every lane and every position the access can
    take: every fragment-aligned position in the tile for a load (its row
    and column are runtime values), every iteration and wave for a fill.
    Direct fills (`direct`, gfx950) are checked on their LDS side, which is
    lane-linear. The result is a remark at the op, with how many such
    instructions one wave issues and, when positions differ, how many
    placements have each figure:

    ```mlir
    %a = hk.load_fragment %As[%c0][%wm, %c0]
        : !hk.shared_tile<128x64xbf16, #hk.swizzle<none>>
        -> !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
    // remark: 4-way on ds_read_b128 (8 per wave)
    ```

    With `max-ways=N` an access above N ways is an error instead
    (`4-way on ds_read_b128 (8 per wave) exceeds max-ways=1`) and the pass
    fails, so a pipeline can refuse a layout that loses LDS bandwidth. The
    figures are those `hk-run` counts on the compiled kernel (a test
    compares them); see docs/Verification.md for the model and its limits.
  }];
  let options = [
    Option<"maxWays", "max-ways", "unsigned", "0",
           "fail on an access with more conflict ways than this (0: report "
           "only)">,
  ];
}

def ScheduleInterleave : Pass<"hk-schedule-interleave", "gpu::GPUModuleOp"> {
  let summary = "Schedule K loops with one barrier per tile and the first "
                "MMA's operands read a tile ahead";
  let description = [{
    Policy: rewrites each synchronous K loop whose fills are direct-to-LDS
    (`hk-direct-lds-fill`) into a double-buffered loop with one barrier per
    K tile, in its middle, for kernels that hold one wave per SIMD and have
    no second wave to hide a barrier behind (the 4-wave fp8 GEMM: its MFMAs
    are 512 of 554 cycles per K tile in HipKittens' loop).

    The loop must have the form hk-multi-buffer takes (copies, barrier,
    fragment loads, MMAs and work without memory effects, barrier; the K/V
    loop analysis of `KVLoop.h`), its fragment loads at the top level of
    its body. The fragment loads before the first MMA whose indices do not
    change in the loop are read a tile ahead: the loop carries them. The
    barrier goes after the first MMA that follows the last other load:

    ```
    fill tile 0 -> slot 0; fill tile 1 -> slot 1; wait; barrier
    ahead = the first MMA's loads of slot 0 (zeros if the loop does not run)
    for tile t (slot s = t % 2):
      the compute part up to that MMA, from slot s (ahead for its operands)
      wait for the fills of tile t + 1; barrier
      fill tile min(t + 2, last) -> slot s
      the rest of the compute part; the loads ahead of tile t + 1, from
        slot 1 - s, after the last use of their tile-t values
    wait; barrier
    ```

    The barrier publishes tile t + 1 (every wave waited for its fills) and
    frees slot s (every wave's reads of it are done: the barrier waits for
    LDS reads), so each fill has a whole K tile to land. Fills past the
    last tile are clamped to it (the slot they write is not read again
    before the wait after the loop), so the loop has no branch. Each MMA
    forms an `hk.cluster interleaved alternating` with the memory ops issued
    just before it (its loads; after the barrier the fill; the loads ahead,
    which open the cluster after the last use of their values, or follow
    the fill when that use is before the barrier), so its MFMAs and their
    LDS reads and direct loads issue in turn and each later load stays
    after the MMAs before it (hoisted, its registers would be held beside
    theirs). The loop counts tiles on i32, so its exit is a scalar compare.

    The module gets `hk.backend_options =
    {"amdgpu-codegenprepare-break-large-phis" = "false"}` (a value it
    already has stays): LLVM's AMDGPUCodeGenPrepare would split the loop's
    accumulator phis into 32-bit phis, and the register allocator would then
    move values between VGPRs and AGPRs in the loop (docs/Fp8.md). hk's
    serialization sets the option while it compiles the module.

    A loop not of this form is refused with the reason (the schedule was
    asked for); loops without copies are left alone.
  }];
  let dependentDialects = [
    "::mlir::amdgpu::AMDGPUDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def SchedulePingPong : Pass<"hk-schedule-ping-pong", "gpu::GPUModuleOp"> {
  let summary = "Schedule K loops as HipKittens' 8-wave ping-pong";
  let description = [{
    Policy: rewrites each synchronous K loop whose fills are direct-to-LDS
    (`hk-direct-lds-fill`) into HipKittens' ping-pong schedule, written with
    the schedule ops (`hk.cluster`, `hk.barrier`, `hk.stagger`) and explicit
    `amdgpu.memory_counter_wait` counts.

    The loop must have the form hk-multi-buffer takes (copies, barrier,
    fragment loads, register reads, MMAs and work without memory effects,
    barrier; the K/V
    loop analysis of `KVLoop.h`) with one copied shared tile (a "region")
    per `hk.mma`: the gfx950 GEMM splits A and B into two 128-row halves
    each and the wave's 128x64 accumulator into four 64x32 blocks; the
    attention loop has two, K for S = K Q^T and V for O^T += V^T P^T. An
    MMA operand not read from a region (Q kept in registers, P computed in
    the loop) is a value; work after an MMA (the softmax, the lazy rescale
    with its `scf.if`) runs in that MMA's compute cluster, after it. Reads
    of global memory into registers (`hk.read_fragment`: MXFP8's block
    scales) are issued a K tile ahead, spread over the memory parts in the
    order of their first MMA; the loop carries them, the first tile's follow
    the prologue's fills, and the waits count their loads on vmcnt. Work
    before the first MMA that depends on the loop only through these reads
    (the scales' arrangement for the MFMA, `hk.to_operand`) runs in the
    tile before, in its last MMA's cluster, and the loop carries its
    results (the first tile's runs before the loop); the reads then go to
    the memory parts before the last, so that work never waits for a load
    issued just before it. Each MMA
    becomes a cluster: a memory part (the fragment reads its MMA needs
    first, in program order, then its share of the next tile's register
    reads), a barrier, the MMA at raised
    `priority`, a barrier; each cluster also issues one fill, after its MMA
    (`fills=compute`, the default: the fill's instructions issue in the
    MFMAs' shadow) or with its reads (`fills=memory`, HipKittens'
    placement). With `read-ahead` (the default) every cluster's reads are
    issued one cluster earlier, after the MMA of the cluster before (an
    `interleaved` cluster: the backend hides them among the MFMAs), a K
    tile's first reads in the last cluster of the tile before. Regions are
    double-buffered; the
    fill of a region for K tile t + 2 is issued in the cluster after the
    last read of its tile-t contents, so up to `lead` fills are in flight
    (7 for the example: HipKittens' prefetch depth). Waves of the second
    half of the workgroup (wave row 1 of the 2 x 4 grid) run one barrier
    behind (`hk.stagger`): on each SIMD one wave multiplies while the other
    loads.

    The waits are derived, not written: `computeScheduleWaits` models both
    wave groups for 1 to 12 K tiles and gives each wait before a barrier the
    largest counts under which every fill is complete before the barrier
    that publishes it and every read is complete before the barrier after
    which another wave overwrites its slot. The loop body covers two K
    tiles (constant slots); an odd tile count runs one more tile after it;
    fills past the last tile are clamped to it, so every count holds for
    every tile count, 0 and up.

    A loop not of this form is refused with the reason (the schedule was
    asked for); loops without copies are left alone.
  }];
  let options = [
    Option<"priority", "priority", "int32_t", "1",
           "wave priority of the MMA clusters (0 to 3, as hk.cluster takes "
           "it)">,
    Option<"fills", "fills", "::mlir::hk::FillInterval",
           "::mlir::hk::FillInterval::compute",
           "where a cluster issues its fill",
           [{::llvm::cl::values(
             clEnumValN(::mlir::hk::FillInterval::compute, "compute",
                        "after its MMA, in the MFMAs' shadow"),
             clEnumValN(::mlir::hk::FillInterval::memory, "memory",
                        "with its reads, as HipKittens issues them"))}]>,
    Option<"readAhead", "read-ahead", "bool", "true",
           "issue each cluster's reads in the cluster before, beside its MMA "
           "(needs fills=compute, whose waits count no LDS reads)">,
  ];
  let dependentDialects = [
    "::mlir::amdgpu::AMDGPUDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::ROCDL::ROCDLDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def RemapWorkgroups : Pass<"hk-remap-workgroups", "gpu::GPUModuleOp"> {
  let summary = "Order workgroups for L2 locality across XCDs";
  let description = [{
    Policy: gives the workgroups of every `gpu.func` kernel HipKittens'
    XCD order (its bf16 GEMM on MI355X) instead of the row-major one. The
    kernel is taken to compute the tile in column `gpu.block_id x` and row
    `gpu.block_id y` of a `gpu.grid_dim x` by `gpu.grid_dim y` grid, as the
    examples do. The pass replaces every use of those two block ids with the
    column and row of the XCD order, computed once at the kernel's entry
    from the linear id `y * grid_dim_x + x` (the hardware's dispatch order):

    1. chiplet chunking (`chiplet_transform_chunked`): the hardware deals
       workgroups round-robin to `xcds` dies, each with its own L2; in every
       full block of `xcds * chunk` ids, the workgroups one die receives are
       renumbered to `chunk` consecutive ids; ids past the last full block
       keep theirs;
    2. grouped order: ids walk down groups of `group` tile rows column by
       column (the last group may have fewer rows).

    With the defaults (8, 64, 8) the 64 workgroups of one die's chunk
    compute an 8 x 8 square of tiles. Both steps are permutations for every
    grid size, so every tile is still computed exactly once; only which
    workgroup computes it, and when, changes. The formulas, with tables,
    are in `HK/Dialect/HK/Utils/WorkgroupOrder.h`.

    Before:

    ```mlir
    %m0 = gpu.block_id y
    %n0 = gpu.block_id x
    %row0 = arith.muli %m0, %c256 : index
    ```

    After (abridged):

    ```mlir
    %x = gpu.block_id x
    %y = gpu.block_id y
    %gx = gpu.grid_dim x
    %gy = gpu.grid_dim y
    %t = arith.muli %y, %gx : index
    %lin = arith.addi %t, %x : index           // linear id
    %count = arith.muli %gx, %gy : index
    // ... chunked id %id = select(%lin < last full block, chunked, %lin)
    // ... grouped order: %row, %col of %id
    %row0 = arith.muli %row, %c256 : index
    ```

    `gpu.block_id z` is left unchanged: each x-y slice of a 3-D grid is
    remapped on its own (a permutation of the slice), and the pass says so
    in a remark. Such slices line up with the dies only when
    `grid_dim_x * grid_dim_y` is a multiple of `xcds`; otherwise the
    results are the same and only locality suffers. Reads of the workgroup
    id the pass cannot redirect are errors: `gpu.global_id x/y`,
    `rocdl.workgroup.id.x/y`, and `gpu.block_id x/y` outside a kernel
    (its callers' order would not match).

    The grid size is read with `gpu.grid_dim`; hk-lower-grid-dims turns it
    into arithmetic on the kernel's argument sizes when the kernel has an
    `hk.launch`.
  }];
  let options = [
    Option<"xcds", "xcds", "unsigned", "8",
           "XCDs the hardware deals workgroups to round-robin (8 on MI355X; "
           "1 leaves the chunking step out)">,
    Option<"chunk", "chunk", "unsigned", "64",
           "consecutive ids given to the workgroups of one XCD "
           "(HipKittens: 64)">,
    Option<"group", "group", "unsigned", "8",
           "tile rows of one group of the grouped order (HipKittens' WGM)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
  ];
}

def SetFp8Format : Pass<"hk-set-fp8-format", "gpu::GPUModuleOp"> {
  let summary = "Give every fp8 type of the module one fp8 format";
  let description = [{
    Rewrites every `f8E4M3FN` and `f8E5M2` in the module (argument and
    result types, shared tiles, fragments, attributes) to the format of
    `format`: one fp8 kernel source serves both OCP formats, e.g. the
    examples are written for e4m3 and `--dtype=e5m2` (hk-compile, hk-run)
    compiles them for e5m2. The matrix instructions follow the types
    (`v_mfma_f32_16x16x128_f8f6f4` takes the format from the operands;
    gfx1201 selects `v_wmma_f32_16x16x16_bf8_bf8`).

    ```mlir
    gpu.func @k(%A: memref<?x?xf8E4M3FN>) kernel { ... }
    // hk-set-fp8-format{format=e5m2}:
    gpu.func @k(%A: memref<?x?xf8E5M2>) kernel { ... }
    ```
  }];
  let options = [
    Option<"format", "format", "::mlir::hk::Fp8Format",
           "::mlir::hk::Fp8Format::e4m3", "the fp8 format",
           "::mlir::hk::fp8FormatOptionValues()">
  ];
}

def LowerGridDims : Pass<"hk-lower-grid-dims", "gpu::GPUModuleOp"> {
  let summary = "Compute gpu.grid_dim from the sizes in the kernel's hk.launch";
  let description = [{
    The upstream lowering of `gpu.grid_dim` calls `__ockl_get_num_groups`
    from the ROCm device library, which hk's code objects are not linked
    with. A kernel launched as its `hk.launch` says has grid dimension d
    equal to its grid term d (dimension D of argument N divided by the
    tile), and 1 past the terms; this pass replaces every `gpu.grid_dim` of
    such a kernel with that arithmetic on the argument (`memref.dim` of a
    memref argument; the value of an integer one, as after
    hk-lower-kernel-abi).

    ```mlir
    gpu.func @k(%A: memref<?x?xbf16>, %C: memref<?x?xbf16>) kernel
        attributes {hk.launch = #hk.launch<grid = [arg1[1] / 256, arg1[0] / 256]>} {
      %gx = gpu.grid_dim x
      %gz = gpu.grid_dim z
    ```

    becomes

    ```mlir
      %n = memref.dim %C, %c1 : memref<?x?xbf16>
      %gx = arith.divui %n, %c256 : index
      // %gz is the constant 1
    ```

    `gpu.grid_dim` in a function without `hk.launch` is kept, with a remark:
    it then needs the ROCm device library at code-object generation.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

def VerifyLds : Pass<"hk-verify-lds", "gpu::GPUModuleOp"> {
  let summary = "Check that no two waves race on a shared-tile slot";
  let description = [{
    An analysis: it changes nothing and fails on what it cannot show. For
    every kernel it checks, at the sizes and inputs below (enough for the
    loops hk builds: an argument about hk's kernels, not a proof for any
    loop), that no wave reads a slot of a shared tile while
    another wave may still be writing it (RAW) and that no fill overwrites
    a slot while another wave may still be reading the data it replaces
    (WAR), from the hk-level program as the schedule passes leave it:
    `hk.copy_to_shared` (direct fills complete on vmcnt, register-path
    fills on lgkmcnt), `hk.load_fragment` (lgkmcnt), `hk.mma` in a
    cluster (it waits for the loads it uses), `amdgpu.memory_counter_wait`
    counts, barriers (`amdgpu.lds_barrier` and `gpu.barrier` also complete
    the wave's LDS operations, never its direct fills; `hk.barrier` waits
    for nothing), loops, branches, slot parity and the phase offset of
    `hk.stagger`.

    The kernel is run abstractly, once per wave group (two with
    `hk.stagger`), for every dynamic size from 0 to `multiples` times the
    kernel's extent unit (the lcm of its constant loop steps, divisors and
    divisibility terms), also one element past and short of each multiple
    and 16 past it (rows of whole 16-byte chunks with a partial tile, where
    a peeled main loop and its remainder both run) where the kernel's
    `#hk.launch` allows. Workgroup-uniform inputs that
    loop bounds or branch conditions read are run at several values too:
    each `gpu.block_id` at 0 and at the grid's last block (from
    `#hk.launch`; 0 and 1 without it), each integer kernel argument (a
    runtime flag such as attention's `causal`) at 0 and 1, in every
    combination. Loop bounds, branch conditions and slot indices must
    follow from constants, those sizes and those inputs; a branch
    or loop that decides LDS work on anything else, an LDS access the model
    does not know, a read of a slot never filled or a barrier count that
    differs between wave groups is an error. A broken dependency is
    reported as `LDS race` at one operation, with notes at the other, the
    barrier that must order them and the sizes it was found with:

    ```
    error: LDS race: this read of slot 0 of a shared tile may run before
      another wave's fill of it has landed: the fill's direct-to-LDS loads
      (vmcnt) are not waited for before the barrier that must publish them;
      a wait before it such as amdgpu.memory_counter_wait load(0) covers it
    ```

    `hk-to-rocdl-pipeline` and `hk-to-binary-pipeline` run it after the
    schedule passes (option `verify-lds`, on by default). docs/Verification.md
    describes the model and its limits.
  }];
  let options = [
    Option<"multiples", "multiples", "unsigned", "17",
           "dynamic sizes tried: 0 to multiples - 1 times the extent unit">,
  ];
}

#endif // HK_DIALECT_HK_TRANSFORMS_PASSES_TD
