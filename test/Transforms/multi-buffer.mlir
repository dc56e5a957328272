// hk-multi-buffer: the K loop prefetches tile k+1 into the other slot while
// computing tile k, with one barrier per K tile.
// RUN: hk-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(hk-multi-buffer))' -verify-diagnostics | FileCheck %s

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  // CHECK-LABEL: gpu.func @k_loop
  // CHECK-SAME: (%[[A:.*]]: memref<?x?xbf16>, %[[LB:.*]]: index, %[[UB:.*]]: index)
  gpu.func @k_loop(%A: memref<?x?xbf16>, %lb: index, %ub: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    // CHECK: %[[T:.*]] = hk.alloc_shared : <64x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    %init = hk.fill_fragment %zero : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
    // Prologue: tile lb into slot 0 if the loop runs, then one barrier.
    // CHECK: %[[RUNS:.*]] = arith.cmpi slt, %[[LB]], %[[UB]]
    // CHECK: scf.if %[[RUNS]] {
    // CHECK-NEXT: hk.copy_to_shared %[[A]][%{{.*}}, %[[LB]]], %[[T]][%[[ZERO:.*]]]
    // CHECK-NEXT: }
    // CHECK-NEXT: amdgpu.lds_barrier
    // CHECK: scf.for %[[K:.*]] = %[[LB]] to %[[UB]] step %[[STEP:.*]] iter_args
    // The slot is the iteration's parity; the prefetch goes to the other one
    // and is off in the last iteration.
    // CHECK: %[[ITER:.*]] = arith.divsi %{{.*}}, %[[STEP]]
    // CHECK: %[[SLOT:.*]] = arith.andi %[[ITER]], %{{.*}}
    // CHECK: %[[OTHER:.*]] = arith.xori %[[SLOT]], %{{.*}}
    // CHECK: %[[NEXT:.*]] = arith.addi %[[K]], %[[STEP]]
    // CHECK: %[[HAS:.*]] = arith.cmpi slt, %[[NEXT]], %[[UB]]
    // CHECK: scf.if %[[HAS]] {
    // CHECK-NEXT: hk.copy_to_shared %[[A]][%{{.*}}, %[[NEXT]]], %[[T]][%[[OTHER]]]
    // CHECK-NEXT: }
    // CHECK-NOT: amdgpu.lds_barrier
    // CHECK: hk.load_fragment %[[T]][%[[SLOT]]]
    // CHECK: hk.mma
    // CHECK: amdgpu.lds_barrier
    // CHECK-NOT: amdgpu.lds_barrier
    // CHECK: scf.yield
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

// A loop of another form is left alone, with a remark saying why.
gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @no_barrier(%A: memref<?x?xbf16>, %n: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    // CHECK: hk.alloc_shared : <64x64xbf16, #hk.swizzle<st_16x32>>
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    // expected-remark @+1 {{hk-multi-buffer: loop left single-buffered: the loop body does not end with a barrier}}
    scf.for %k = %c0 to %n step %c64 {
      hk.copy_to_shared %A[%c0, %k], %t[%c0]
          : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    }
    gpu.return
  }
}

// -----

// Two slots of 256x64 for A and B do not fit gfx1201's 64 KiB.
gpu.module @m [#rocdl.target<chip = "gfx1201">] {
  gpu.func @too_big(%A: memref<?x?xbf16>, %n: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %a = hk.alloc_shared : !hk.shared_tile<256x64xbf16, #hk.swizzle<st_16x32>>
    %b = hk.alloc_shared : !hk.shared_tile<256x64xbf16, #hk.swizzle<st_16x32>>
    // expected-error @+1 {{hk-multi-buffer: double-buffering needs 131072 bytes of LDS (65536 now, 65536 more for the second slots), but gfx1201 has 65536 bytes; use smaller tiles or stages=1}}
    scf.for %k = %c0 to %n step %c64 {
      hk.copy_to_shared %A[%c0, %k], %a[%c0]
          : memref<?x?xbf16>, !hk.shared_tile<256x64xbf16, #hk.swizzle<st_16x32>>
      hk.copy_to_shared %A[%c0, %k], %b[%c0]
          : memref<?x?xbf16>, !hk.shared_tile<256x64xbf16, #hk.swizzle<st_16x32>>
      amdgpu.lds_barrier
      amdgpu.lds_barrier
    }
    gpu.return
  }
}
