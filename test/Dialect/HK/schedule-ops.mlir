// The schedule ops (hk.barrier, hk.cluster, hk.stagger, hk.yield) survive
// print -> parse, in the custom and in the generic form.
// RUN: hk-opt %s | hk-opt | FileCheck %s
// RUN: hk-opt %s -mlir-print-op-generic | hk-opt | FileCheck %s

!a = !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
!b = !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
!acc = !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
!tile = !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>

// CHECK-LABEL: func.func @schedule
// CHECK: %[[R:.*]]:2 = hk.cluster {
// CHECK:   %[[A:.*]] = hk.load_fragment
// CHECK:   %[[B:.*]] = hk.load_fragment
// CHECK:   hk.copy_to_shared
// CHECK:   hk.yield %[[A]], %[[B]] : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>, !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
// CHECK: } : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>, !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
// CHECK: amdgpu.memory_counter_wait load(6) ds(8)
// CHECK-NEXT: hk.barrier
// CHECK: hk.cluster priority = 2 {
// CHECK:   hk.mma %[[R]]#0, %[[R]]#1
// CHECK: hk.cluster priority = 1 interleaved {
// CHECK: hk.stagger %{{.*}} {
// CHECK:   hk.barrier
// CHECK:   hk.yield
// CHECK: }
// CHECK-NOT: hk.stagger
// CHECK: hk.cluster {
// CHECK-NEXT: hk.yield
// CHECK-NEXT: }
func.func @schedule(%t: !tile, %A: memref<?x?xbf16>, %acc0: !acc, %late: i1,
                    %i: index) -> !acc attributes {hk.chip = #hk.chip<gfx950>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = hk.cluster {
    %a = hk.load_fragment %t[%c0][%c0, %c0] : !tile -> !a
    %b = hk.load_fragment %t[%c0][%c0, %c0] : !tile -> !b
    hk.copy_to_shared %A[%c0, %c0], %t[%c1] : memref<?x?xbf16>, !tile
    hk.yield %a, %b : !a, !b
  } : !a, !b
  amdgpu.memory_counter_wait load(6) ds(8)
  hk.barrier
  %acc1 = hk.cluster priority = 2 {
    %m = hk.mma %r#0, %r#1, %acc0 : !a, !b, !acc
    hk.yield %m : !acc
  } : !acc
  %acc3:2 = hk.cluster priority = 1 interleaved {
    %m = hk.mma %r#0, %r#1, %acc1 : !a, !b, !acc
    %a = hk.load_fragment %t[%c1][%c0, %c0] : !tile -> !a
    hk.yield %m, %a : !acc, !a
  } : !acc, !a
  %acc2 = hk.stagger %late {
    hk.barrier
    hk.yield %acc1 : !acc
  } : !acc
  hk.cluster {
    hk.yield
  }
  return %acc2 : !acc
}

// Barriers in uniform control flow: a loop over kernel-argument bounds and a
// branch on a value computed from them.
// CHECK-LABEL: func.func @uniform
// CHECK: scf.for
// CHECK:   scf.if
// CHECK:     hk.barrier
func.func @uniform(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %n step %c1 {
    %r = arith.remui %i, %c2 : index
    %odd = arith.cmpi ne, %r, %c0 : index
    scf.if %odd {
      hk.barrier
    }
  }
  return
}
