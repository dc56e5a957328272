//===- HKScheduleOps.td - hk schedule operations -----------*- tablegen -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file defines the ops a schedule is written with: clusters of memory
// or MMA work at a wave priority, barriers that synchronize execution only
// (the schedule places every memory wait itself), and a phase offset
// between two groups of waves.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_IR_HKSCHEDULEOPS_TD
#define HK_DIALECT_HK_IR_HKSCHEDULEOPS_TD

include "HK/Dialect/HK/IR/HKOps.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// barrier
//===----------------------------------------------------------------------===//

def HK_BarrierOp : HK_Op<"barrier",
    [MemoryEffects<[MemRead<HK_SharedMemory>, MemWrite<HK_SharedMemory>]>]> {
  let summary = "workgroup execution barrier that waits for no memory counter";
  let description = [{
    Every wave of the workgroup waits here until all have arrived. Unlike
    `amdgpu.lds_barrier`, the barrier neither waits for outstanding memory
    operations nor fences the workgroup: an LDS write (including a
    direct-to-LDS load still in flight) is visible to other waves after the
    barrier only if an explicit `amdgpu.memory_counter_wait` before it
    covered the write, and an LDS read is finished before the barrier only
    if such a wait covered the read. That is what lets a schedule keep
    loads in flight across barriers (partial waits, `vmcnt(6)` instead of
    `vmcnt(0)`); the counts come from the schedule (`hk-schedule-ping-pong`
    derives them with `computeScheduleWaits`).

    Every wave must execute the same barriers: the verifier refuses a
    barrier under `scf.if` or in an `scf.for` whose condition or bounds are
    not provably uniform across the workgroup (computed only from
    constants, kernel arguments, workgroup ids and sizes and `memref.dim`,
    `memref.load` of a kernel argument the kernel only reads, and values an
    `scf.for` with such bounds carries from such values), under any other
    region op but `hk.stagger`, and inside `hk.cluster`.

    Lowers to `llvm.fence syncscope("wavefront") release`, `rocdl.s.barrier`
    and `llvm.fence syncscope("wavefront") acquire`: the fences cost no wait
    but keep LLVM from moving memory operations across the barrier
    (`s_barrier` on gfx950, `s_barrier_signal -1` / `s_barrier_wait -1` on
    gfx1201).

    Example:

    ```mlir
    amdgpu.memory_counter_wait load(6)
    hk.barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// cluster
//===----------------------------------------------------------------------===//

def HK_ClusterOp : HK_Op<"cluster",
    [RecursiveMemoryEffects, SingleBlock, NoRegionArguments]> {
  let summary = "a group of memory or MMA work kept together at a priority";
  let description = [{
    A cluster is one step of a schedule: fragment loads, copies to shared
    tiles, MMAs and the elementwise work around them (softmax, masks, a
    rescale under `scf.if`), which the backend must not mix with the work of
    neighbouring clusters. The body runs at wave priority `priority` (0 to
    3, `s_setprio`; 0 leaves it unchanged) and its memory operations issue
    in program order, op by op, so that a wait counting them after the
    cluster means what the schedule computed. With `interleaved`, the
    backend may instead interleave the body's operations freely (its loads
    among its MMAs): for clusters whose memory operations no wait counts in
    order, such as one fill beside reads when only the fill is waited for,
    or a whole MMA phase raised in priority (`hk-raise-mma-priority`). With
    `alternating` (which needs `interleaved` when the body holds more than
    one memory op), the backend is asked to issue them in turn: one
    MFMA, then one memory instruction (the LDS reads first, then the other
    memory instructions), and so on, the rest of the MFMAs after; each
    memory instruction then issues in the shadow of an MFMA instead of in a
    run of its own. The results are the values the body yields.

    Barriers, waits and priority changes do not belong inside a cluster, at
    any depth: clusters are separated by them. Clusters do not nest, and
    hold no `hk.stagger`. Schedules form clusters with the mechanism of
    `ClusterSchedule.h` (`-test-hk-cluster-schedule` drives it from
    attributes).

    Lowers to `amdgpu.sched_barrier allow = <none>` (a full fence for the
    machine scheduler, no instruction), `rocdl.s.setprio <priority>` when
    the priority is not 0, the body with a `sched_barrier` between
    consecutive memory ops (none with `interleaved`), `rocdl.s.setprio 0`
    and a closing `sched_barrier`; with `alternating`, one
    `rocdl.sched.group.barrier` per MFMA and per memory instruction of the
    body, in the order above, after the opening `s_setprio`.

    Example:

    ```mlir
    %acc1 = hk.cluster priority = 1 {
      %r = hk.mma %a, %b, %acc0
          : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>,
            !hk.fragment<b, 32x64xbf16, mma = 16x16x32>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      hk.yield %r : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
    } : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
    ```
  }];
  let arguments = (ins DefaultValuedAttr<I32Attr, "0">:$priority,
                       UnitAttr:$interleaved, UnitAttr:$alternating);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`priority` `=` $priority^)? (`interleaved` $interleaved^)?
    (`alternating` $alternating^)? attr-dict-with-keyword $body (`:` type($results)^)?
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// stagger
//===----------------------------------------------------------------------===//

def HK_StaggerOp : HK_Op<"stagger", [SingleBlock, NoRegionArguments]> {
  let summary = "run one group of waves one barrier behind the other";
  let description = [{
    Waves for which `late` is true execute one extra barrier before the
    body; waves for which it is false execute one after it. Every wave
    therefore executes exactly one barrier more than the body holds, and
    inside the body the late waves run one barrier interval behind the
    others: between two barriers of the workgroup, one group is in the
    interval before the one the other group is in. HipKittens' 8-wave
    ping-pong uses this so that on each SIMD one wave multiplies while the
    other loads (`late` = the wave's row of the 2 x 4 wave grid is 1).

    `late` must be uniform within each wave (for example derived from the
    wave id). The body may not hold another `hk.stagger`, and its barriers
    follow the rule of `hk.barrier` (uniform control flow only). Like the
    body's barriers, the extra barriers wait for no memory counter.

    Lowers to `scf.if %late { barrier }`, the body, and
    `scf.if !%late { barrier }`, each barrier as `hk.barrier` lowers.

    Example:

    ```mlir
    %acc = hk.stagger %late {
      %r = scf.for %k = %c0 to %K step %c64 iter_args(%c = %init) -> (f32) {
        ...
      }
      hk.yield %r : f32
    } : f32
    ```
  }];
  let arguments = (ins I1:$late);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $late attr-dict-with-keyword $body (`:` type($results)^)?
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// yield
//===----------------------------------------------------------------------===//

def HK_YieldOp : HK_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["ClusterOp", "StaggerOp", "MapOp", "MaskOp", "AnyOp"]>]> {
  let summary = "the results of an hk.cluster, hk.stagger, hk.map, hk.mask or "
                "hk.any body";
  let description = [{
    Terminates the body of `hk.cluster` and `hk.stagger`, whose operands
    become the results of the enclosing op, of `hk.map`, whose one operand
    is the element it computes, of `hk.mask`, whose one `i1` operand keeps
    the element, and of `hk.any`, whose one `i1` operand is the element's
    predicate.

    Example:

    ```mlir
    hk.yield %r : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

#endif // HK_DIALECT_HK_IR_HKSCHEDULEOPS_TD
