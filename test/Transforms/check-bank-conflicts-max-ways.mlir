// hk-check-bank-conflicts=max-ways=N: an access above N ways is an error,
// the others stay remarks; accesses the check cannot describe are errors.
// RUN: hk-opt %s --split-input-file --hk-check-bank-conflicts=max-ways=2 -verify-diagnostics -o /dev/null

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @over(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<none>>
    // expected-remark @+1 {{1-way on ds_write_b128 (2 per wave)}}
    hk.copy_to_shared %A[%c0, %c0], %t[%c0]
        : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<none>>
    // expected-error @+1 {{'hk.load_fragment' op 4-way on ds_read_b128 (4 per wave) exceeds max-ways=2}}
    %a = hk.load_fragment %t[%c0][%c0, %c0]
        : !hk.shared_tile<64x64xbf16, #hk.swizzle<none>>
        -> !hk.fragment<a, 32x64xbf16, mma = 16x16x32>
    gpu.return
  }
}

// -----

gpu.module @m [#rocdl.target<chip = "gfx1201">] {
  gpu.func @writes_within(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<none>, #hk.col_perm<block4_0213>>
    // expected-remark @+1 {{2-way on ds_write_b64 (4 per wave)}}
    hk.copy_to_shared %A[%c0, %c0], %t[%c0]
        : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<none>, #hk.col_perm<block4_0213>>
    // expected-error @+1 {{'hk.load_fragment' op 8-way on ds_read_b128 (4 per wave) exceeds max-ways=2}}
    %a = hk.load_fragment %t[%c0][%c0, %c0]
        : !hk.shared_tile<64x64xbf16, #hk.swizzle<none>, #hk.col_perm<block4_0213>>
        -> !hk.fragment<a, 64x16xbf16, mma = 16x16x16>
    gpu.return
  }
}

// -----

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @no_block_size(%A: memref<?x?xbf16>) kernel {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<none>>
    // expected-error @+1 {{'hk.copy_to_shared' op needs the workgroup size (known_block_size of the gpu.func) to check bank conflicts}}
    hk.copy_to_shared %A[%c0, %c0], %t[%c0]
        : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<none>>
    gpu.return
  }
}

// -----

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @uneven(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 384, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<none>>
    // expected-error @+1 {{'hk.copy_to_shared' op cannot be checked for bank conflicts: the 64x64 tile does not split into 16-byte chunks over the 384 threads of the workgroup}}
    hk.copy_to_shared %A[%c0, %c0], %t[%c0]
        : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<none>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @no_chip(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<none>>
    // expected-error @+1 {{'hk.copy_to_shared' op has no chip to check bank conflicts for: give the gpu.module a #rocdl.target<chip = ...> or an hk.chip attribute}}
    hk.copy_to_shared %A[%c0, %c0], %t[%c0]
        : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<none>>
    gpu.return
  }
}
