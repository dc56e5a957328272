// hk-direct-lds-fill: copies become direct-to-LDS fills on gfx950, with a
// wait for them before the barrier that publishes the tile; elsewhere they
// stay on the register path with a remark.
// RUN: hk-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(hk-direct-lds-fill))' -verify-diagnostics | FileCheck %s

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  // CHECK-LABEL: gpu.func @fill
  gpu.func @fill(%A: memref<?x?xbf16>, %n: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    // CHECK: scf.for
    // CHECK-NEXT: hk.copy_to_shared {{.*}} direct
    // CHECK-NEXT: hk.copy_to_shared {{.*}} direct
    // CHECK-NEXT: amdgpu.memory_counter_wait load(0)
    // CHECK-NEXT: amdgpu.lds_barrier
    // CHECK-NEXT: amdgpu.lds_barrier
    scf.for %k = %c0 to %n step %c64 {
      hk.copy_to_shared %A[%c0, %k], %t[%c0]
          : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
      hk.copy_to_shared %A[%c64, %k], %t[%c0]
          : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
      amdgpu.lds_barrier
      amdgpu.lds_barrier
    }
    gpu.return
  }
}

// -----

gpu.module @m [#rocdl.target<chip = "gfx1201">] {
  gpu.func @rdna(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    // CHECK-NOT: direct
    // expected-remark @+1 {{hk-direct-lds-fill: kept on the register path: gfx1201 has no direct-to-LDS loads}}
    hk.copy_to_shared %A[%c0, %c0], %t[%c0]
        : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    amdgpu.lds_barrier
    gpu.return
  }
}

// -----

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @permuted(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>, #hk.col_perm<block4_0213>>
    // expected-remark @+1 {{hk-direct-lds-fill: kept on the register path: the tile layout splits 16-byte chunks across rows or columns}}
    hk.copy_to_shared %A[%c0, %c0], %t[%c0]
        : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>, #hk.col_perm<block4_0213>>
    amdgpu.lds_barrier
    gpu.return
  }
}

// -----

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @deferred(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    // CHECK-LABEL: @deferred
    // CHECK: hk.copy_to_shared {{.*}} deferred :
    // CHECK-NOT: memory_counter_wait
    // expected-remark @+1 {{hk-direct-lds-fill: kept on the register path: its stores are deferred (hk-multi-buffer defer-register-fills), which asks for the register path}}
    hk.copy_to_shared %A[%c0, %c0], %t[%c0] deferred
        : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    amdgpu.lds_barrier
    gpu.return
  }
}

// -----

// A remainder loop's partial_rows copy reaches the rows past the matrix's
// end, which a direct load's out-of-range words may leave as anything:
// it stays on the register path (zeros certain), silently, as a copy that
// masks columns does. The same copy outside a remainder goes direct.
gpu.module @m [#rocdl.target<chip = "gfx950">] {
  // CHECK-LABEL: gpu.func @remainder
  gpu.func @remainder(%A: memref<?x128xbf16>, %n: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>>
    // CHECK: scf.for
    // CHECK-NEXT: hk.copy_to_shared {{.*}} direct bounds partial_rows
    scf.for %k = %c0 to %n step %c64 {
      hk.copy_to_shared %A[%k, %c0], %t[%c0] bounds partial_rows
          : memref<?x128xbf16>, !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>>
      amdgpu.lds_barrier
    }
    // CHECK: scf.for
    // CHECK-NEXT: hk.copy_to_shared {{.*}}] bounds partial_rows
    // CHECK: } {hk.remainder}
    scf.for %k = %c0 to %n step %c64 {
      hk.copy_to_shared %A[%k, %c0], %t[%c0] bounds partial_rows
          : memref<?x128xbf16>, !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>>
      amdgpu.lds_barrier
    } {hk.remainder}
    gpu.return
  }
}
