// hk-verify-lds follows hk.store_shared as a fill from registers: every
// wave's writes must be waited for and published by a barrier before any
// wave reads the tile, and reads must be released before the next writes.
// RUN: hk-opt %s --split-input-file --hk-verify-lds -verify-diagnostics

// Each wave writes its columns of dS, then reads rows of every wave's.
gpu.module @published [#rocdl.target<chip = "gfx950">] {
  gpu.func @k(%x: f32, %n: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>>
    %tid = gpu.thread_id x
    %wave = arith.divui %tid, %c64 : index
    %col = arith.muli %wave, %c32 : index
    %f = hk.fill_fragment %x : !hk.fragment<acc, 64x32xf32, mma = 32x32x16>
    scf.for %i = %c0 to %c64 step %c32 {
      hk.store_shared %f, %t[%c0][%c0, %col]
          : !hk.fragment<acc, 64x32xf32, mma = 32x32x16>, !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>>
      amdgpu.lds_barrier
      %a = hk.load_fragment %t[%c0][%c0, %c0]
          : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>> -> !hk.fragment<a, 32x128xbf16, mma = 32x32x16>
      amdgpu.lds_barrier
    }
    gpu.return
  }
}

// -----

// No barrier between the writes and the reads.
gpu.module @unpublished [#rocdl.target<chip = "gfx950">] {
  // expected-note @below {{found with the kernel's sizes (none dynamic)}}
  gpu.func @k(%x: f32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    // expected-note @below {{the shared tile}}
    %t = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>>
    %tid = gpu.thread_id x
    %wave = arith.divui %tid, %c64 : index
    %col = arith.muli %wave, %c32 : index
    %f = hk.fill_fragment %x : !hk.fragment<acc, 64x32xf32, mma = 32x32x16>
    // expected-note @below {{the fill of slot 0 it races with}}
    hk.store_shared %f, %t[%c0][%c0, %col]
        : !hk.fragment<acc, 64x32xf32, mma = 32x32x16>, !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>>
    // expected-error @below {{LDS race: this read of slot 0 of a shared tile may run before other waves' fill of it has landed: no barrier orders the fill before this read}}
    %a = hk.load_fragment %t[%c0][%c0, %c0]
        : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>> -> !hk.fragment<a, 32x128xbf16, mma = 32x32x16>
    gpu.return
  }
}

// -----

// The next writes do not wait for the other waves' reads.
gpu.module @unreleased [#rocdl.target<chip = "gfx950">] {
  // expected-note @below {{found with the kernel's sizes (none dynamic)}}
  gpu.func @k(%x: f32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    // expected-note @below {{the shared tile}}
    %t = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>>
    %tid = gpu.thread_id x
    %wave = arith.divui %tid, %c64 : index
    %col = arith.muli %wave, %c32 : index
    %f = hk.fill_fragment %x : !hk.fragment<acc, 64x32xf32, mma = 32x32x16>
    hk.store_shared %f, %t[%c0][%c0, %col]
        : !hk.fragment<acc, 64x32xf32, mma = 32x32x16>, !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>>
    // expected-note @below {{the last barrier before it}}
    amdgpu.lds_barrier
    // expected-note @below {{the read of slot 0 it races with}}
    %a = hk.load_fragment %t[%c0][%c0, %c0]
        : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>> -> !hk.fragment<a, 32x128xbf16, mma = 32x32x16>
    // expected-error @below {{LDS race: this fill of slot 0 of a shared tile may overwrite it while other waves' read of the data it replaces is still running}}
    hk.store_shared %f, %t[%c0][%c0, %col]
        : !hk.fragment<acc, 64x32xf32, mma = 32x32x16>, !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>>
    gpu.return
  }
}
