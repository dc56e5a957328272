// hk-verify-lds places a deferred copy's stores where they issue: right
// before the next barrier, after the waits in between.
// RUN: hk-opt %s --split-input-file --hk-verify-lds -verify-diagnostics

// The wait that covers a copy issued in place comes before a deferred copy's
// stores: the barrier publishes stores nothing waited for.
gpu.module @deferred_after_wait [#rocdl.target<chip = "gfx1201">] {
  // expected-note @below {{found with the kernel's sizes (none dynamic)}}
  gpu.func @k(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    // expected-note @below {{the shared tile}}
    %T = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
    // expected-note @below {{the fill of slot 0 it races with}}
    hk.copy_to_shared %A[%c0, %c0], %T[%c0] deferred
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
    amdgpu.memory_counter_wait ds(0)
    // expected-note @below {{the barrier the wait must precede}}
    hk.barrier
    // expected-error @below {{LDS race: this read of slot 0 of a shared tile may run before other waves' fill of it has landed: the fill's LDS stores (lgkmcnt) are not waited for before the barrier that must publish them}}
    %a = hk.load_fragment %T[%c0][%c0, %c0]
        : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
        -> !hk.fragment<a, 64x16xbf16, mma = 16x16x16>
    gpu.return
  }
}

// -----

// A fencing barrier (amdgpu.lds_barrier waits for LDS operations) publishes
// them: proven.
gpu.module @deferred_fenced [#rocdl.target<chip = "gfx1201">] {
  gpu.func @k(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %T = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
    hk.copy_to_shared %A[%c0, %c0], %T[%c0] deferred
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
    amdgpu.memory_counter_wait ds(0)
    amdgpu.lds_barrier
    %a = hk.load_fragment %T[%c0][%c0, %c0]
        : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
        -> !hk.fragment<a, 64x16xbf16, mma = 16x16x16>
    gpu.return
  }
}
