// What convert-hk-to-amdgpu refuses, with an op error.
// RUN: hk-opt %s --split-input-file --convert-hk-to-amdgpu -verify-diagnostics

gpu.module @no_chip {
  gpu.func @f() kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @+1 {{'hk.alloc_shared' op has no chip to be lowered for: give the gpu.module a #rocdl.target<chip = ...> (rocdl-attach-target) or an hk.chip attribute}}
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    gpu.return
  }
}

// -----

gpu.module @no_block_size [#rocdl.target<chip = "gfx950">] {
  gpu.func @f(%A: memref<?x?xbf16>) kernel {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    // expected-error @+1 {{'hk.copy_to_shared' op needs the workgroup size: put it in a gpu.func with known_block_size = array<i32: x, y, z>}}
    hk.copy_to_shared %A[%c0, %c0], %t[%c0] : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    gpu.return
  }
}

// -----

gpu.module @empty_workgroup [#rocdl.target<chip = "gfx950">] {
  gpu.func @f(%A: memref<?x?xbf16>) kernel attributes {known_block_size = array<i32: 0, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    // expected-error @+1 {{'hk.copy_to_shared' op needs a workgroup of 1 to 1024 lanes with every dimension at least 1, got known_block_size = [0, 1, 1]}}
    hk.copy_to_shared %A[%c0, %c0], %t[%c0] : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    gpu.return
  }
}

// -----

gpu.module @negative_workgroup [#rocdl.target<chip = "gfx950">] {
  gpu.func @f(%A: memref<?x?xbf16>) kernel attributes {known_block_size = array<i32: -256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    // expected-error @+1 {{'hk.copy_to_shared' op needs a workgroup of 1 to 1024 lanes with every dimension at least 1, got known_block_size = [-256, 1, 1]}}
    hk.copy_to_shared %A[%c0, %c0], %t[%c0] : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    gpu.return
  }
}

// -----

gpu.module @uneven_copy [#rocdl.target<chip = "gfx950">] {
  gpu.func @f(%A: memref<?x?xbf16>) kernel attributes {known_block_size = array<i32: 384, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    // expected-error @+1 {{'hk.copy_to_shared' op the 64x64 tile is 512 chunks of 16 bytes, not a multiple of the 384 threads of the workgroup}}
    hk.copy_to_shared %A[%c0, %c0], %t[%c0] : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    gpu.return
  }
}

// -----

gpu.module @narrow_rows [#rocdl.target<chip = "gfx950">] {
  gpu.func @f(%A: memref<?x?xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x2xf32, #hk.swizzle<none>>
    // expected-error @+1 {{'hk.copy_to_shared' op tile rows of 2 elements are not a whole number of 16-byte chunks of 4 elements}}
    hk.copy_to_shared %A[%c0, %c0], %t[%c0] : memref<?x?xf32>, !hk.shared_tile<64x2xf32, #hk.swizzle<none>>
    gpu.return
  }
}

// -----

// An MMA shape the chip lacks is refused before any lowering.
gpu.module @wrong_mma [#rocdl.target<chip = "gfx1201">] {
  gpu.func @f(%x: f32) kernel {
    // expected-error @+1 {{'hk.fill_fragment' op gfx1201 has no 16x16x32 MMA accumulating f32 (its MMA shapes: 16x16x16)}}
    %f = hk.fill_fragment %x : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
    gpu.return
  }
}

// -----

gpu.module @two_chips {
  gpu.func @f(%x: f32) kernel attributes {hk.chip = #hk.chip<gfx950>} {
    %f = hk.fill_fragment %x : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
    gpu.return
  }
  gpu.func @g(%x: f32) kernel attributes {hk.chip = #hk.chip<gfx1201>} {
    // expected-error @+1 {{'hk.fill_fragment' op is compiled for gfx1201 but other hk ops of the gpu.module for gfx950}}
    %f = hk.fill_fragment %x : !hk.fragment<acc, 16x16xf32, mma = 16x16x16>
    gpu.return
  }
}

// -----

// The AMDGPU backend aborts on a truncation with a rounding mode; hk rounds
// f32 -> bf16 itself and refuses the others.
gpu.module @rounding_mode [#rocdl.target<chip = "gfx950">] {
  gpu.func @f(%x: f32) -> f16 {
    // expected-error @+1 {{'arith.truncf' op has rounding mode 'upward', which hk lowers only from f32 to bf16 (the AMDGPU backend has no lowering for a rounding mode)}}
    %t = arith.truncf %x upward : f32 to f16
    gpu.return %t : f16
  }
}
