// Loops hk-schedule-interleave cannot schedule are refused with the reason.
// RUN: hk-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(hk-schedule-interleave))' -verify-diagnostics

// A copy on the register path: the waits count direct-to-LDS loads.
gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @register_path(%A: memref<?x?xbf16>, %K: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %t = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    %init = hk.fill_fragment %zero : !hk.fragment<acc, 64x64xf32, mma = 16x16x32>
    // expected-error @+1 {{hk-schedule-interleave: its fills must be direct-to-LDS loads (hk-direct-lds-fill) so that its waits count them}}
    %r = scf.for %k = %c0 to %K step %c64 iter_args(%c = %init)
        -> (!hk.fragment<acc, 64x64xf32, mma = 16x16x32>) {
      hk.copy_to_shared %A[%c0, %k], %t[%c0]
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      amdgpu.lds_barrier
      %a = hk.load_fragment %t[%c0][%c0, %c0]
          : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
      %b = hk.load_fragment %t[%c0][%c0, %c0]
          : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<b, 64x64xbf16, mma = 16x16x32>
      %d = hk.mma %a, %b, %c : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>,
          !hk.fragment<b, 64x64xbf16, mma = 16x16x32>,
          !hk.fragment<acc, 64x64xf32, mma = 16x16x32>
      amdgpu.lds_barrier
      scf.yield %d : !hk.fragment<acc, 64x64xf32, mma = 16x16x32>
    }
    gpu.return
  }
}

// -----

// The first MMA's loads move with the loop: they cannot be read a tile
// ahead.
gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @moving_reads(%A: memref<?x?xbf16>, %K: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %t = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    %init = hk.fill_fragment %zero : !hk.fragment<acc, 64x64xf32, mma = 16x16x32>
    // expected-error @+1 {{hk-schedule-interleave: no fragment load with loop-invariant indices comes before its first MMA: nothing to read a tile ahead}}
    %r = scf.for %k = %c0 to %K step %c64 iter_args(%c = %init)
        -> (!hk.fragment<acc, 64x64xf32, mma = 16x16x32>) {
      hk.copy_to_shared %A[%c0, %k], %t[%c0] direct
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      amdgpu.memory_counter_wait load(0)
      amdgpu.lds_barrier
      %row = arith.remui %k, %c128 : index
      %a = hk.load_fragment %t[%c0][%row, %c0]
          : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
      %b = hk.load_fragment %t[%c0][%row, %c0]
          : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<b, 64x64xbf16, mma = 16x16x32>
      %d = hk.mma %a, %b, %c : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>,
          !hk.fragment<b, 64x64xbf16, mma = 16x16x32>,
          !hk.fragment<acc, 64x64xf32, mma = 16x16x32>
      amdgpu.lds_barrier
      scf.yield %d : !hk.fragment<acc, 64x64xf32, mma = 16x16x32>
    }
    gpu.return
  }
}

// -----

// A load after the last MMA and the work after it (a load right after an
// MMA is issued before it): no MMA hides the wait of the barrier after it.
gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @load_last(%A: memref<?x?xbf16>, %K: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %t = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    %init = hk.fill_fragment %zero : !hk.fragment<acc, 64x64xf32, mma = 16x16x32>
    // expected-error @+1 {{hk-schedule-interleave: no MMA follows its last fragment load to hide the wait of the barrier after it}}
    %r:2 = scf.for %k = %c0 to %K step %c64 iter_args(%c = %init, %c2 = %init)
        -> (!hk.fragment<acc, 64x64xf32, mma = 16x16x32>, !hk.fragment<acc, 64x64xf32, mma = 16x16x32>) {
      hk.copy_to_shared %A[%c0, %k], %t[%c0] direct
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      amdgpu.memory_counter_wait load(0)
      amdgpu.lds_barrier
      %a = hk.load_fragment %t[%c0][%c0, %c0]
          : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
      %b = hk.load_fragment %t[%c0][%c0, %c0]
          : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<b, 64x64xbf16, mma = 16x16x32>
      %d = hk.mma %a, %b, %c : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>,
          !hk.fragment<b, 64x64xbf16, mma = 16x16x32>,
          !hk.fragment<acc, 64x64xf32, mma = 16x16x32>
      %row = arith.remui %k, %c64 : index
      %b2 = hk.load_fragment %t[%c0][%row, %c0]
          : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<b, 64x64xbf16, mma = 16x16x32>
      amdgpu.lds_barrier
      scf.yield %d, %c2 : !hk.fragment<acc, 64x64xf32, mma = 16x16x32>, !hk.fragment<acc, 64x64xf32, mma = 16x16x32>
    }
    gpu.return
  }
}
