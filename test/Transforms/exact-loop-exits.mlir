// hk-exact-loop-exits: a loop with a constant step and a bound that is not
// constant becomes a while loop that exits when its induction variable
// equals the first value its steps reach at or past the bound (a 64-bit
// scalar compare on AMDGPU, where less-than is a vector one).
// RUN: hk-opt %s --hk-exact-loop-exits | FileCheck %s
// The kernels' tests run the rewritten loops (gfx1201, remainder shapes).

// CHECK-LABEL: gpu.func @sum
// CHECK-SAME: (%[[LB:.*]]: index, %[[UB:.*]]: index)
// CHECK: %[[SPAN:.*]] = arith.subi %[[UB]], %[[LB]] : index
// CHECK-NEXT: %[[CEIL:.*]] = arith.ceildivsi %[[SPAN]], %[[C32:.*]] : index
// CHECK-NEXT: %[[TRIPS:.*]] = arith.maxsi %[[CEIL]], %{{.*}} : index
// CHECK-NEXT: %[[LEN:.*]] = arith.muli %[[TRIPS]], %[[C32]] : index
// CHECK-NEXT: %[[END:.*]] = arith.addi %[[LB]], %[[LEN]] : index
// CHECK-NEXT: %[[W:.*]]:2 = scf.while (%[[K:.*]] = %[[LB]], %[[A:.*]] = %{{.*}}) : (index, index) -> (index, index) {
// CHECK-NEXT: %[[RUNS:.*]] = arith.cmpi ne, %[[K]], %[[END]] : index
// CHECK-NEXT: scf.condition(%[[RUNS]]) %[[K]], %[[A]] : index, index
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%[[K2:.*]]: index, %[[A2:.*]]: index):
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[A2]], %[[K2]] : index
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[K2]], %[[C32]] : index
// CHECK-NEXT: scf.yield %[[NEXT]], %[[S]] : index, index
// CHECK: gpu.return %[[W]]#1 : index
gpu.module @m {
  gpu.func @sum(%lb: index, %ub: index) -> index {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %r = scf.for %k = %lb to %ub step %c32 iter_args(%a = %c0) -> index {
      %s = arith.addi %a, %k : index
      scf.yield %s : index
    }
    gpu.return %r : index
  }

  // Constant bounds, a step that is not constant, unsigned compares: left
  // alone.
  // CHECK-LABEL: gpu.func @kept
  // CHECK-COUNT-3: scf.for
  // CHECK-NOT: scf.while
  gpu.func @kept(%lb: index, %ub: index, %step: index) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    scf.for %k = %c0 to %c128 step %c4 {
    }
    scf.for %k = %lb to %ub step %step {
    }
    scf.for unsigned %k = %lb to %ub step %c4 {
    }
    gpu.return
  }
}
