// hk-multi-buffer with defer-register-fills: a fill through registers runs in
// every iteration (the last one reloads its own tile into the slot no one
// reads) with deferred stores; a direct fill keeps its branch.
// RUN: hk-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(hk-multi-buffer{defer-register-fills=true}))' | FileCheck %s
// The stores issue before the loop's barrier, after the compute.
// RUN: hk-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(hk-multi-buffer{defer-register-fills=true},convert-hk-to-amdgpu))' | FileCheck %s --check-prefix=LOWERED

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  // CHECK-LABEL: gpu.func @k_loop
  // CHECK-SAME: (%[[A:.*]]: memref<?x?xbf16>, %[[LB:.*]]: index, %[[UB:.*]]: index)
  // LOWERED-LABEL: gpu.func @k_loop
  gpu.func @k_loop(%A: memref<?x?xbf16>, %lb: index, %ub: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    // CHECK: %[[T:.*]] = hk.alloc_shared : <64x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    %init = hk.fill_fragment %zero : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
    // The prologue's fill is not deferred: its barrier follows it.
    // CHECK: scf.if
    // CHECK-NEXT: hk.copy_to_shared %[[A]][%{{.*}}, %[[LB]]], %[[T]][%{{.*}}] :
    // CHECK: scf.for %[[K:.*]] = %[[LB]] to %[[UB]] step %[[STEP:.*]] iter_args
    // CHECK: %[[OTHER:.*]] = arith.xori
    // CHECK: %[[NEXT:.*]] = arith.addi %[[K]], %[[STEP]]
    // CHECK: %[[HAS:.*]] = arith.cmpi slt, %[[NEXT]], %[[UB]]
    // CHECK: %[[TILE:.*]] = arith.select %[[HAS]], %[[NEXT]], %[[K]]
    // CHECK-NOT: scf.if
    // CHECK: hk.copy_to_shared %[[A]][%{{.*}}, %[[TILE]]], %[[T]][%[[OTHER]]] deferred :
    // CHECK: hk.mma
    // CHECK: amdgpu.lds_barrier
    // LOWERED: scf.for
    // LOWERED: rocdl.raw.ptr.buffer.load
    // LOWERED: rocdl.raw.ptr.buffer.load
    // LOWERED-NOT: vector.store
    // LOWERED: amdgpu.mfma
    // LOWERED: vector.store
    // LOWERED: vector.store
    // LOWERED-NEXT: amdgpu.lds_barrier
    %acc = scf.for %k = %lb to %ub step %c64 iter_args(%c = %init)
        -> (!hk.fragment<acc, 16x16xf32, mma = 16x16x32>) {
      hk.copy_to_shared %A[%c0, %k], %t[%c0]
          : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
      amdgpu.lds_barrier
      %a = hk.load_fragment %t[%c0][%c0, %c0]
          : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<a, 16x32xbf16, mma = 16x16x32>
      %b = hk.load_fragment %t[%c0][%c0, %c0]
          : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<b, 16x32xbf16, mma = 16x16x32>
      %r = hk.mma %a, %b, %c
          : !hk.fragment<a, 16x32xbf16, mma = 16x16x32>,
            !hk.fragment<b, 16x32xbf16, mma = 16x16x32>,
            !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
      amdgpu.lds_barrier
      scf.yield %r : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
    }
    gpu.return
  }
}

// -----

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  // CHECK-LABEL: gpu.func @direct
  gpu.func @direct(%A: memref<?x?xbf16>, %lb: index, %ub: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    %init = hk.fill_fragment %zero : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
    // CHECK: scf.for
    // CHECK: scf.if
    // CHECK-NEXT: hk.copy_to_shared {{.*}} direct :
    // CHECK-NOT: deferred
    %acc = scf.for %k = %lb to %ub step %c64 iter_args(%c = %init)
        -> (!hk.fragment<acc, 16x16xf32, mma = 16x16x32>) {
      hk.copy_to_shared %A[%c0, %k], %t[%c0] direct
          : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
      amdgpu.lds_barrier
      %a = hk.load_fragment %t[%c0][%c0, %c0]
          : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<a, 16x32xbf16, mma = 16x16x32>
      %b = hk.load_fragment %t[%c0][%c0, %c0]
          : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<b, 16x32xbf16, mma = 16x16x32>
      %r = hk.mma %a, %b, %c
          : !hk.fragment<a, 16x32xbf16, mma = 16x16x32>,
            !hk.fragment<b, 16x32xbf16, mma = 16x16x32>,
            !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
      amdgpu.lds_barrier
      scf.yield %r : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
    }
    gpu.return
  }
}
