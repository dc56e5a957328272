// hk-multi-buffer{unroll=2}: the double-buffered loop unrolled by two K
// tiles with constant slots, and a rolled loop for the remaining tile.
// RUN: hk-opt %s --pass-pipeline='builtin.module(gpu.module(hk-multi-buffer{unroll=2},canonicalize))' | FileCheck %s
// RUN: not hk-opt %s --pass-pipeline='builtin.module(gpu.module(hk-multi-buffer{unroll=3}))' 2>&1 | FileCheck %s --check-prefix=ODD
// ODD: error: hk-multi-buffer: unroll must be even so that every slot index is a constant, got 3

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  // CHECK-LABEL: gpu.func @k_loop
  gpu.func @k_loop(%A: memref<?x?xbf16>, %n: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
    // CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
    // CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
    // CHECK: %[[T:.*]] = hk.alloc_shared : <64x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    %init = hk.fill_fragment %zero : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
    // The unrolled loop: tile k from slot 0 (prefetch into 1), tile k+1
    // from slot 1 (prefetch into 0).
    // CHECK: scf.for %{{.*}} step %[[C128]]
    // CHECK: hk.copy_to_shared {{.*}}, %[[T]][%[[C1]]]
    // CHECK: hk.load_fragment %[[T]][%[[C0]]]
    // CHECK: amdgpu.lds_barrier
    // CHECK: hk.copy_to_shared {{.*}}, %[[T]][%[[C0]]]
    // CHECK: hk.load_fragment %[[T]][%[[C1]]]
    // CHECK: amdgpu.lds_barrier
    // CHECK: scf.yield
    // The remainder: one loop with computed slots.
    // CHECK: scf.for %{{.*}} step %{{.*}}
    // CHECK: %[[SLOT:.*]] = arith.andi
    // CHECK: hk.load_fragment %[[T]][%[[SLOT]]]
    %acc = scf.for %k = %c0 to %n step %c64 iter_args(%c = %init)
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
