// hk-split-loops: a loop branching on `iv >= bound` becomes a loop below
// the bound, without the branch, and a loop over the rest, where the guard
// is true (a barrier between them when the body has one).
// RUN: hk-opt %s --split-input-file --hk-split-loops | FileCheck %s

// The guard and-ed with a per-iteration condition: below the split the
// branch's else ops, past it a branch on the other condition.
// CHECK-LABEL: func.func @and_guard
// CHECK-SAME: (%[[N:.*]]: index, %[[BOUND:.*]]: index, %[[X:.*]]: f32, %[[C:.*]]: i1)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[END:.*]] = arith.maxsi %[[N]], %[[C0]]
// CHECK: %[[IN:.*]] = arith.minui %[[BOUND]], %[[END]]
// CHECK: %[[STEPS:.*]] = arith.ceildivui %[[IN]], %[[C64]]
// CHECK: %[[ROUND:.*]] = arith.muli %[[STEPS]], %[[C64]]
// CHECK: %[[SPLIT:.*]] = arith.minui %[[ROUND]], %[[END]]
// CHECK: %[[FIRST:.*]] = scf.for %{{.*}} = %[[C0]] to %[[SPLIT]] step %[[C64]] iter_args(%[[A:.*]] = %[[X]]) -> (f32) {
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[A]], %[[X]]
// CHECK-NEXT: scf.yield %[[SUM]]
// CHECK-NEXT: }
// CHECK-NOT: lds_barrier
// CHECK: %[[REST:.*]] = scf.for %{{.*}} = %[[SPLIT]] to %[[N]] step %[[C64]] iter_args(%[[B:.*]] = %[[FIRST]]) -> (f32) {
// CHECK: scf.if %[[C]] -> (f32) {
// CHECK: arith.mulf
// CHECK: } else {
// CHECK: arith.addf
// CHECK: return %[[REST]]
gpu.module @m {
  func.func @and_guard(%n: index, %bound: index, %x: f32, %c: i1) -> f32 {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %r = scf.for %k = %c0 to %n step %c64 iter_args(%a = %x) -> (f32) {
      %late = arith.cmpi uge, %k, %bound : index
      %both = arith.andi %late, %c : i1
      %y = scf.if %both -> (f32) {
        %m = arith.mulf %a, %x : f32
        scf.yield %m : f32
      } else {
        %s = arith.addf %a, %x : f32
        scf.yield %s : f32
      }
      scf.yield %y : f32
    }
    return %r : f32
  }
}

// -----

// The guard alone, in a loop that synchronises the workgroup: the second
// loop runs the then ops, after a barrier when it runs.
// CHECK-LABEL: func.func @guard_alone
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[SPLIT:[^ ]*]] step
// CHECK-NEXT: amdgpu.lds_barrier
// CHECK-NEXT: }
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %[[SPLIT]], %[[N:.*]] : index
// CHECK-NEXT: scf.if %[[RUNS]] {
// CHECK-NEXT: amdgpu.lds_barrier
// CHECK-NEXT: }
// CHECK-NEXT: scf.for %{{.*}} = %[[SPLIT]] to %[[N]] step
// CHECK-NEXT: amdgpu.lds_barrier
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: } {hk.remainder}
gpu.module @m {
  func.func @guard_alone(%n: index, %bound: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %k = %c0 to %n step %c1 {
      amdgpu.lds_barrier
      %late = arith.cmpi uge, %k, %bound : index
      scf.if %late {
        gpu.barrier
      }
    }
    return
  }
}

// -----

// A signed guard in a signed loop with a lower bound known only at run
// time; the split rounds up to an iteration.
// CHECK-LABEL: func.func @signed_guard
// CHECK: arith.maxsi %{{.*}}, %[[LB:[^ ]*]] :
// CHECK: arith.ceildivsi
// CHECK: scf.for %{{.*}} = %[[LB]] to %[[SPLIT:.*]] step
// CHECK-NOT: scf.if
// CHECK: scf.for %{{.*}} = %[[SPLIT]] to
// CHECK-NEXT: arith.muli
// CHECK-NEXT: }
gpu.module @m {
  func.func @signed_guard(%lb: index, %n: index, %bound: index) {
    %c3 = arith.constant 3 : index
    scf.for %k = %lb to %n step %c3 {
      %late = arith.cmpi sge, %k, %bound : index
      scf.if %late {
        %x = arith.muli %k, %k : index
      }
    }
    return
  }
}

// -----

// Left alone: an unsigned guard with a lower bound not known to be
// non-negative, a guard on a value defined in the loop, another predicate,
// and a remainder loop.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-4: scf.for
// CHECK-NOT: scf.for
gpu.module @m {
  func.func @left_alone(%lb: index, %n: index, %bound: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %k = %lb to %n step %c1 {
      %late = arith.cmpi uge, %k, %bound : index
      scf.if %late {
        gpu.barrier
      }
    }
    scf.for %k = %c0 to %n step %c1 {
      %inner = arith.addi %bound, %k : index
      %late = arith.cmpi uge, %k, %inner : index
      scf.if %late {
        gpu.barrier
      }
    }
    scf.for %k = %c0 to %n step %c1 {
      %early = arith.cmpi ult, %k, %bound : index
      scf.if %early {
        gpu.barrier
      }
    }
    scf.for %k = %c0 to %n step %c1 {
      %late = arith.cmpi uge, %k, %bound : index
      scf.if %late {
        gpu.barrier
      }
    } {hk.remainder}
    return
  }
}
