// RUN: hk-opt %s --split-input-file --hk-verify-lds -verify-diagnostics

// A persistent kernel: the work count is read from memory, so the sizes do
// not fix the trip count; the loop is followed for three trips. Its items
// fill the tile again with no barrier after the last trip's reads: a race
// between trips.
gpu.module @persistent_without_closing_barrier [#rocdl.target<chip = "gfx950">] {
  // expected-note @below {{found with the kernel's sizes}}
  gpu.func @k(%A: memref<?x?xbf16>, %work: memref<?xi32>, %workgroups: i32) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>,
                  hk.launch = #hk.launch<grid = [arg2[0] / 1]>} {
    %c0 = arith.constant 0 : index
    // expected-note @below {{the shared tile}}
    %T = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    %count_i32 = memref.load %work[%c0] : memref<?xi32>
    %count = arith.index_cast %count_i32 : i32 to index
    %first = gpu.block_id x
    %step = arith.index_cast %workgroups : i32 to index
    scf.for %w = %first to %count step %step {
      // expected-error @below {{LDS race: this fill of slot 0 of a shared tile may overwrite it while other waves' read of the data it replaces is still running: no barrier orders the read before this fill}}
      hk.copy_to_shared %A[%c0, %c0], %T[%c0]
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      // expected-note @below {{the last barrier before it}}
      amdgpu.lds_barrier
      // expected-note @below {{the read of slot 0 it races with}}
      %b = hk.load_fragment %T[%c0][%c0, %c0]
          : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
    }
    gpu.return
  }
}

// -----

// The same with a barrier closing each item: proved.
gpu.module @persistent [#rocdl.target<chip = "gfx950">] {
  gpu.func @k(%A: memref<?x?xbf16>, %work: memref<?xi32>, %workgroups: i32) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>,
                  hk.launch = #hk.launch<grid = [arg2[0] / 1]>} {
    %c0 = arith.constant 0 : index
    %T = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    %count_i32 = memref.load %work[%c0] : memref<?xi32>
    %count = arith.index_cast %count_i32 : i32 to index
    %first = gpu.block_id x
    %step = arith.index_cast %workgroups : i32 to index
    scf.for %w = %first to %count step %step {
      hk.copy_to_shared %A[%c0, %c0], %T[%c0]
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      amdgpu.lds_barrier
      %b = hk.load_fragment %T[%c0][%c0, %c0]
          : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
      amdgpu.lds_barrier
    }
    gpu.return
  }
}

// -----

// A bound the sizes do not fix and that is not read from memory is still
// refused.
gpu.module @thread_bound [#rocdl.target<chip = "gfx950">] {
  gpu.func @k(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %T = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    %tid = gpu.thread_id x
    // expected-error @below {{the upper bound of this loop is not determined by constants and the sizes of the kernel's arguments}}
    scf.for %w = %c0 to %tid step %c1 {
      hk.copy_to_shared %A[%c0, %c0], %T[%c0]
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      amdgpu.lds_barrier
    }
    gpu.return
  }
}

// -----

// A loop bound read through a memref.collapse_shape of an argument: its
// dimension is the product of the argument's sizes it groups (an MoE
// MXFP8 kernel's SB as (E N) x K / 32 rows), which the verifier chooses;
// the loop is followed and its race found.
gpu.module @collapsed_size [#rocdl.target<chip = "gfx950">] {
  // expected-note @below {{found with the kernel's sizes}}
  gpu.func @k(%A: memref<?x?xbf16>, %S: memref<?x?x?xi8>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>,
                  hk.launch = #hk.launch<grid = [arg0[0] / 128]>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-note @below {{the shared tile}}
    %T = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    %rows = memref.collapse_shape %S [[0, 1], [2]] : memref<?x?x?xi8> into memref<?x?xi8>
    %n = memref.dim %rows, %c0 : memref<?x?xi8>
    scf.for %k = %c0 to %n step %c1 {
      // expected-error @below {{LDS race: this fill of slot 0 of a shared tile may overwrite it while other waves' read of the data it replaces is still running: no barrier orders the read before this fill}}
      hk.copy_to_shared %A[%c0, %c0], %T[%c0]
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      // expected-note @below {{the last barrier before it}}
      amdgpu.lds_barrier
      // expected-note @below {{the read of slot 0 it races with}}
      %b = hk.load_fragment %T[%c0][%c0, %c0]
          : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
    }
    gpu.return
  }
}
