// hk-schedule-interleave on a K loop whose values read a tile ahead (A0,
// B0) are last used by the MMA the barrier follows: the next tile's A0 and
// B0 are read after the barrier, behind the fill, in the cluster of the
// other MMA (A1 x B1), whose loads move before the first MMA.
// RUN: hk-opt %s --pass-pipeline='builtin.module(gpu.module(hk-direct-lds-fill{require=true},hk-schedule-interleave))' | FileCheck %s

!frag_a = !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>
!frag_b = !hk.fragment<b, 64x128xf8E4M3FN, mma = 16x16x128>
!acc = !hk.fragment<acc, 64x64xf32, mma = 16x16x128>
!tile = !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @two_products(%A: memref<?x?xf8E4M3FN>, %B: memref<?x?xf8E4M3FN>, %K: index, %out: memref<?x?xf32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.000000e+00 : f32
    %As0 = hk.alloc_shared : !tile
    %As1 = hk.alloc_shared : !tile
    %Bs0 = hk.alloc_shared : !tile
    %Bs1 = hk.alloc_shared : !tile
    %init = hk.fill_fragment %zero : !acc
    %acc:2 = scf.for %k = %c0 to %K step %c128 iter_args(%p = %init, %q = %init) -> (!acc, !acc) {
      hk.copy_to_shared %A[%c0, %k], %As0[%c0] : memref<?x?xf8E4M3FN>, !tile
      hk.copy_to_shared %A[%c128, %k], %As1[%c0] : memref<?x?xf8E4M3FN>, !tile
      hk.copy_to_shared %B[%c0, %k], %Bs0[%c0] : memref<?x?xf8E4M3FN>, !tile
      hk.copy_to_shared %B[%c128, %k], %Bs1[%c0] : memref<?x?xf8E4M3FN>, !tile
      amdgpu.lds_barrier
      %a0 = hk.load_fragment %As0[%c0] [%c0, %c0] : !tile -> !frag_a
      %b0 = hk.load_fragment %Bs0[%c0] [%c0, %c0] : !tile -> !frag_b
      %p1 = hk.mma %a0, %b0, %p : !frag_a, !frag_b, !acc
      %a1 = hk.load_fragment %As1[%c0] [%c0, %c0] : !tile -> !frag_a
      %b1 = hk.load_fragment %Bs1[%c0] [%c0, %c0] : !tile -> !frag_b
      %q1 = hk.mma %a1, %b1, %q : !frag_a, !frag_b, !acc
      amdgpu.lds_barrier
      scf.yield %p1, %q1 : !acc, !acc
    }
    hk.store_fragment %acc#0, %out[%c0, %c0] : !acc, memref<?x?xf32>
    hk.store_fragment %acc#1, %out[%c0, %c128] : !acc, memref<?x?xf32>
    gpu.return
  }
}

// CHECK-LABEL: gpu.func @two_products
// CHECK: scf.for %{{.*}} = %c0_i32 to %{{.*}} step %c1_i32 iter_args(%[[P:.*]] = %{{.*}}, %[[Q:.*]] = %{{.*}}, %[[A0:.*]] = %{{.*}}#0, %[[B0:.*]] = %{{.*}}#1)
// CHECK: %[[SLOT:.*]] = arith.andi
// CHECK: %[[OTHER:.*]] = arith.xori %[[SLOT]]
// CHECK-NEXT: %[[C0:.*]]:3 = hk.cluster interleaved alternating {
// CHECK-NEXT: hk.load_fragment %1[%[[SLOT]]]
// CHECK-NEXT: hk.load_fragment %3[%[[SLOT]]]
// CHECK-NEXT: %[[P1:.*]] = hk.mma %[[A0]], %[[B0]], %[[P]]
// CHECK: amdgpu.memory_counter_wait load(0)
// CHECK-NEXT: amdgpu.lds_barrier
// CHECK-NEXT: %[[C1:.*]]:3 = hk.cluster interleaved alternating {
// CHECK-COUNT-4: hk.copy_to_shared {{.*}}[%[[SLOT]]] direct
// CHECK-NEXT: %[[A0N:.*]] = hk.load_fragment %0[%[[OTHER]]]
// CHECK-NEXT: %[[B0N:.*]] = hk.load_fragment %2[%[[OTHER]]]
// CHECK-NEXT: %[[Q1:.*]] = hk.mma %[[C0]]#0, %[[C0]]#1, %[[Q]]
// CHECK-NEXT: hk.yield %[[A0N]], %[[B0N]], %[[Q1]]
// CHECK: scf.yield %[[C0]]#2, %[[C1]]#2, %[[C1]]#0, %[[C1]]#1
