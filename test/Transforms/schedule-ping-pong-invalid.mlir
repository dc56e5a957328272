// Loops hk-schedule-ping-pong cannot schedule are refused with the reason.
// RUN: hk-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(hk-schedule-ping-pong))' -verify-diagnostics

// A copy on the register path: the waits count direct-to-LDS loads.
gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @register_path(%A: memref<?x?xbf16>, %K: index) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %t = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    %init = hk.fill_fragment %zero : !hk.fragment<acc, 64x64xf32, mma = 16x16x32>
    // expected-error @+1 {{hk-schedule-ping-pong: its waits count direct-to-LDS loads, but a copy is on the register path: fill with direct-to-LDS loads (direct-lds, gfx950)}}
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

// Two tiles filled, one MMA: a ping-pong K tile has one region per cluster.
gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @regions(%A: memref<?x?xbf16>, %K: index) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %ta = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    %tb = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    %init = hk.fill_fragment %zero : !hk.fragment<acc, 64x64xf32, mma = 16x16x32>
    // expected-error @+1 {{hk-schedule-ping-pong: a ping-pong K tile fills one shared-tile region per cluster, but the loop fills 2 regions and has 1 MMAs}}
    %r = scf.for %k = %c0 to %K step %c64 iter_args(%c = %init)
        -> (!hk.fragment<acc, 64x64xf32, mma = 16x16x32>) {
      hk.copy_to_shared %A[%c0, %k], %ta[%c0] direct
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      hk.copy_to_shared %A[%c0, %k], %tb[%c0] direct
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      amdgpu.memory_counter_wait load(0)
      amdgpu.lds_barrier
      %a = hk.load_fragment %ta[%c0][%c0, %c0]
          : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
      %b = hk.load_fragment %tb[%c0][%c0, %c0]
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

// One barrier only: none separates the fills from the compute part.
gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @one_barrier(%A: memref<?x?xbf16>, %K: index) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %t = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    // expected-error @+1 {{hk-schedule-ping-pong: no barrier separates the fills from the compute part}}
    scf.for %k = %c0 to %K step %c64 {
      hk.copy_to_shared %A[%c0, %k], %t[%c0] direct
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      amdgpu.lds_barrier
    }
    gpu.return
  }
}

// -----

// An odd number of waves cannot be paired.
gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @waves(%A: memref<?x?xbf16>, %K: index) kernel
      attributes {known_block_size = array<i32: 192, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %t = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    // expected-error @+1 {{hk-schedule-ping-pong: needs an even number of whole waves to pair, got 192 threads of wave64}}
    scf.for %k = %c0 to %K step %c64 {
      hk.copy_to_shared %A[%c0, %k], %t[%c0] direct
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      amdgpu.lds_barrier
      amdgpu.lds_barrier
    }
    gpu.return
  }
}

// -----

// No barrier closes the body.
gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @no_end_barrier(%A: memref<?x?xbf16>, %K: index) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %t = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    // expected-error @+1 {{hk-schedule-ping-pong: the loop body does not end with a barrier}}
    scf.for %k = %c0 to %K step %c64 {
      amdgpu.lds_barrier
      hk.copy_to_shared %A[%c0, %k], %t[%c0] direct
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    }
    gpu.return
  }
}

// -----

// A block-scale read whose column the loop carries (not the K index): it
// cannot be issued a K tile ahead.
gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @carried_scale(%A: memref<?x?xf8E4M3FN>, %SA: memref<?x?xf8E8M0FNU>,
                          %SB: memref<?x?xf8E8M0FNU>, %K: index) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %t = hk.alloc_shared : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
    %init = hk.fill_fragment %zero : !hk.fragment<acc, 64x32xf32, mma = 16x16x128>
    // expected-error @+1 {{hk-schedule-ping-pong: a register read (hk.read_fragment) depends on a value the loop carries, but it is issued a K tile ahead: it may depend on the loop only through the K index}}
    %r:2 = scf.for %k = %c0 to %K step %c128 iter_args(%c = %init, %j = %c0)
        -> (!hk.fragment<acc, 64x32xf32, mma = 16x16x128>, index) {
      hk.copy_to_shared %A[%c0, %k], %t[%c0] direct bounds partial_rows
          : memref<?x?xf8E4M3FN>, !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
      amdgpu.lds_barrier
      %sa = hk.read_fragment %SA[%c0, %j] bounds partial
          : memref<?x?xf8E8M0FNU> -> !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>
      %sb = hk.read_fragment %SB[%c0, %j] bounds partial
          : memref<?x?xf8E8M0FNU> -> !hk.fragment<scale, 32x4xf8E8M0FNU, mma = 16x16x128>
      %a = hk.load_fragment %t[%c0][%c0, %c0]
          : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
          -> !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>
      %b = hk.load_fragment %t[%c0][%c0, %c0]
          : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
          -> !hk.fragment<b, 32x128xf8E4M3FN, mma = 16x16x128>
      %d = hk.mma %a, %b, %c scales(%sa, %sb)
          : !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<b, 32x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x128>,
            !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>,
            !hk.fragment<scale, 32x4xf8E8M0FNU, mma = 16x16x128>
      %jn = arith.addi %j, %c4 : index
      amdgpu.lds_barrier
      scf.yield %d, %jn : !hk.fragment<acc, 64x32xf32, mma = 16x16x128>, index
    }
    gpu.return
  }
}
