// hk-raise-mma-priority: the MMA phase of the outermost K loop that has one
// goes in hk.cluster priority = p interleaved (the cluster mechanism),
// split where barriers and waits separate it.
// RUN: hk-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(hk-raise-mma-priority{priority=2}))' | FileCheck %s

!acc = !hk.fragment<acc, 16x16xf32, mma = 16x16x16>
!fa = !hk.fragment<a, 16x16xbf16, mma = 16x16x16>
!fb = !hk.fragment<b, 16x16xbf16, mma = 16x16x16>
!tile = !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>

gpu.module @m {
  // A loop inside the phase is part of it.
  // CHECK-LABEL: gpu.func @k_loop
  gpu.func @k_loop(%t: !tile, %n: index) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %init = hk.fill_fragment %zero : !acc
    // CHECK: scf.for
    // CHECK-NEXT: amdgpu.lds_barrier
    // CHECK-NEXT: %[[C:.*]] = hk.cluster priority = 2 interleaved {
    // CHECK-NEXT: %[[I:.*]] = scf.for
    // CHECK: hk.mma
    // CHECK: scf.yield
    // CHECK-NEXT: }
    // CHECK-NEXT: hk.yield %[[I]]
    // CHECK-NEXT: } : !hk.fragment<acc, 16x16xf32, mma = 16x16x16>
    // CHECK-NEXT: amdgpu.lds_barrier
    // CHECK-NEXT: scf.yield %[[C]]
    // CHECK-NOT: rocdl.s.setprio
    %r = scf.for %k = %c0 to %n step %c64 iter_args(%c = %init) -> (!acc) {
      amdgpu.lds_barrier
      %inner = scf.for %kk = %c0 to %c64 step %c16 iter_args(%ci = %c) -> (!acc) {
        %a = hk.load_fragment %t[%c0][%c0, %kk] : !tile -> !fa
        %b = hk.load_fragment %t[%c0][%c0, %kk] : !tile -> !fb
        %o = hk.mma %a, %b, %ci : !fa, !fb, !acc
        scf.yield %o : !acc
      }
      amdgpu.lds_barrier
      scf.yield %inner : !acc
    }
    gpu.return
  }
}

// -----

!acc = !hk.fragment<acc, 16x16xf32, mma = 16x16x16>
!fa = !hk.fragment<a, 16x16xbf16, mma = 16x16x16>
!fb = !hk.fragment<b, 16x16xbf16, mma = 16x16x16>
!tile = !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>

gpu.module @m {
  // Two trips in one body (an unrolled double-buffered loop): the barrier
  // and the wait between them split the phase into two clusters; the
  // elementwise work between the MMAs (a branch, hk.map) is in the phase.
  // CHECK-LABEL: gpu.func @two_trips
  // CHECK: scf.for
  // CHECK-NEXT: %[[C0:.*]] = hk.cluster priority = 2 interleaved {
  // CHECK: hk.load_fragment
  // CHECK: hk.mma
  // CHECK: scf.if
  // CHECK: hk.map
  // CHECK: hk.yield %{{.*}} : !hk.fragment<acc
  // CHECK-NEXT: } : !hk.fragment<acc, 16x16xf32, mma = 16x16x16>
  // CHECK-NEXT: amdgpu.memory_counter_wait load(0)
  // CHECK-NEXT: amdgpu.lds_barrier
  // CHECK-NEXT: %[[C1:.*]] = hk.cluster priority = 2 interleaved {
  // CHECK: hk.mma %{{.*}}, %{{.*}}, %[[C0]]
  // CHECK: } : !hk.fragment<acc, 16x16xf32, mma = 16x16x16>
  // CHECK-NEXT: amdgpu.lds_barrier
  // CHECK-NEXT: scf.yield %[[C1]]
  gpu.func @two_trips(%t: !tile, %n: index, %flag: i1) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %two = arith.constant 2.0 : f32
    %init = hk.fill_fragment %zero : !acc
    %r = scf.for %k = %c0 to %n step %c64 iter_args(%c = %init) -> (!acc) {
      %a = hk.load_fragment %t[%c0][%c0, %c0] : !tile -> !fa
      %b = hk.load_fragment %t[%c0][%c0, %c0] : !tile -> !fb
      %o = hk.mma %a, %b, %c : !fa, !fb, !acc
      %s = scf.if %flag -> (!acc) {
        %d = hk.map %o : !acc -> !acc {
        ^bb0(%x: f32):
          %y = arith.mulf %x, %two : f32
          hk.yield %y : f32
        }
        scf.yield %d : !acc
      } else {
        scf.yield %o : !acc
      }
      amdgpu.memory_counter_wait load(0)
      amdgpu.lds_barrier
      %a2 = hk.load_fragment %t[%c0][%c0, %c0] : !tile -> !fa
      %b2 = hk.load_fragment %t[%c0][%c0, %c0] : !tile -> !fb
      %o2 = hk.mma %a2, %b2, %s : !fa, !fb, !acc
      amdgpu.lds_barrier
      scf.yield %o2 : !acc
    }
    gpu.return
  }
}

// -----

!acc = !hk.fragment<acc, 16x16xf32, mma = 16x16x16>
!fa = !hk.fragment<a, 16x16xbf16, mma = 16x16x16>
!fb = !hk.fragment<b, 16x16xbf16, mma = 16x16x16>
!tile = !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>

gpu.module @m {
  // A loop of the phase that holds a barrier (a batch loop around a K
  // loop) is not one cluster: its own phase is.
  // CHECK-LABEL: gpu.func @batch_loop
  // CHECK: scf.for
  // CHECK-NEXT: scf.for
  // CHECK-NEXT: amdgpu.lds_barrier
  // CHECK-NEXT: hk.cluster priority = 2 interleaved {
  // CHECK-NEXT: hk.load_fragment
  // CHECK-NEXT: hk.load_fragment
  // CHECK-NEXT: hk.mma
  // CHECK-NEXT: hk.yield
  // CHECK-NEXT: }
  // CHECK-NEXT: amdgpu.lds_barrier
  // CHECK-NOT: hk.cluster
  gpu.func @batch_loop(%t: !tile, %n: index, %batches: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %init = hk.fill_fragment %zero : !acc
    scf.for %bi = %c0 to %batches step %c1 {
      %r = scf.for %k = %c0 to %n step %c64 iter_args(%c = %init) -> (!acc) {
        amdgpu.lds_barrier
        %a = hk.load_fragment %t[%c0][%c0, %c0] : !tile -> !fa
        %b = hk.load_fragment %t[%c0][%c0, %c0] : !tile -> !fb
        %o = hk.mma %a, %b, %c : !fa, !fb, !acc
        amdgpu.lds_barrier
        scf.yield %o : !acc
      }
    }
    gpu.return
  }
}
