// hk-check-bank-conflicts: the conflict ways of each fragment load and fill,
// as remarks. Unswizzled tiles conflict on both chips; the HipKittens
// swizzles of each chip make the same accesses conflict-free.
// RUN: hk-opt %s --split-input-file --hk-check-bank-conflicts -verify-diagnostics -o /dev/null

// gfx950: 128-byte rows put lanes 0-3 of a ds_read_b128 phase (rows 0-3)
// on two bank groups, rows r and r + 2 on the same words of one: 4 ways.
gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @unswizzled(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<none>>
    // expected-remark @+1 {{1-way on ds_write_b128 (2 per wave)}}
    hk.copy_to_shared %A[%c0, %c0], %t[%c0]
        : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<none>>
    // expected-remark @+1 {{4-way on ds_read_b128 (4 per wave)}}
    %a = hk.load_fragment %t[%c0][%c0, %c0]
        : !hk.shared_tile<64x64xbf16, #hk.swizzle<none>>
        -> !hk.fragment<a, 32x64xbf16, mma = 16x16x32>
    // expected-remark @+1 {{4-way on ds_read_b128 (2 per wave)}}
    %b = hk.load_fragment %t[%c0][%c0, %c0]
        : !hk.shared_tile<64x64xbf16, #hk.swizzle<none>>
        -> !hk.fragment<b, 16x64xbf16, mma = 16x16x32>
    gpu.return
  }
}

// -----

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @st_16x32(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    // expected-remark @+1 {{1-way on ds_write_b128 (2 per wave)}}
    hk.copy_to_shared %A[%c0, %c0], %t[%c0]
        : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    // The LDS side of a direct fill is lane-linear whatever the swizzle.
    // expected-remark @+1 {{1-way on buffer_load_dwordx4 ... lds (2 per wave)}}
    hk.copy_to_shared %A[%c0, %c0], %t[%c0] direct
        : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    // expected-remark @+1 {{1-way on ds_read_b128 (4 per wave)}}
    %a = hk.load_fragment %t[%c0][%c0, %c0]
        : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
        -> !hk.fragment<a, 32x64xbf16, mma = 16x16x32>
    gpu.return
  }
}

// -----

// gfx1201: a ds_read_b128 phase is 8 lanes, rows 0-7 of a fragment at one
// k; 128-byte rows put them all on the same 4 banks: 8 ways. The column
// permutation makes each lane's 8 elements one run (one ds_read_b128) and
// splits each fill chunk into two ds_write_b64.
gpu.module @m [#rocdl.target<chip = "gfx1201">] {
  gpu.func @unswizzled(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<none>, #hk.col_perm<block4_0213>>
    // expected-remark @+1 {{2-way on ds_write_b64 (4 per wave)}}
    hk.copy_to_shared %A[%c0, %c0], %t[%c0]
        : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<none>, #hk.col_perm<block4_0213>>
    // expected-remark @+1 {{8-way on ds_read_b128 (4 per wave)}}
    %a = hk.load_fragment %t[%c0][%c0, %c0]
        : !hk.shared_tile<64x64xbf16, #hk.swizzle<none>, #hk.col_perm<block4_0213>>
        -> !hk.fragment<a, 64x16xbf16, mma = 16x16x16>
    gpu.return
  }
}

// -----

// Without the permutation a lane's elements are two runs of 4, 8 columns
// apart: two ds_read_b64 per fragment.
gpu.module @m [#rocdl.target<chip = "gfx1201">] {
  gpu.func @halves(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<none>>
    // expected-remark @+1 {{on ds_read_b64 (4 per wave)}}
    %b = hk.load_fragment %t[%c0][%c0, %c0]
        : !hk.shared_tile<64x64xbf16, #hk.swizzle<none>>
        -> !hk.fragment<b, 32x16xbf16, mma = 16x16x16>
    gpu.return
  }
}

// -----

gpu.module @m [#rocdl.target<chip = "gfx1201">] {
  gpu.func @st_8x64(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
    // expected-remark @+1 {{1-way on ds_write_b64 (4 per wave)}}
    hk.copy_to_shared %A[%c0, %c0], %t[%c0]
        : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
    // expected-remark @+1 {{1-way on ds_read_b128 (2 per wave)}}
    %b = hk.load_fragment %t[%c0][%c0, %c0]
        : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
        -> !hk.fragment<b, 32x16xbf16, mma = 16x16x16>
    gpu.return
  }
}
