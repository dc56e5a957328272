// Transposed fragment reads and transposing copies round-trip; the custom
// form prints `transpose` after `direct` and before `bounds`.
// RUN: hk-opt %s | hk-opt | FileCheck %s
// RUN: hk-opt %s -mlir-print-op-generic | hk-opt | FileCheck %s

// CHECK-LABEL: gpu.module @gfx950
gpu.module @gfx950 [#rocdl.target<chip = "gfx950">] {
  gpu.func @reads(%At: memref<?x?xbf16>, %k: index, %m: index) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x32>>
    // CHECK: hk.copy_to_shared %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}] bounds partial : memref<?x?xbf16>, <64x128xbf16
    hk.copy_to_shared %At[%k, %m], %t[%c0] bounds partial
        : memref<?x?xbf16>, !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x32>>
    // A 64 (m) x 64 (k) operand from tile rows 0-63, columns 64-127.
    // CHECK: hk.load_fragment %{{.*}}[%{{.*}}] [%{{.*}}, %{{.*}}] transpose : <64x128xbf16, #hk.swizzle<st_16x32>> -> <a, 64x64xbf16, mma = 16x16x32>
    %c64 = arith.constant 64 : index
    %a = hk.load_fragment %t[%c0][%c0, %c64] transpose
        : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x32>>
        -> !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
    gpu.return
  }
}

// CHECK-LABEL: gpu.module @gfx1201
gpu.module @gfx1201 [#rocdl.target<chip = "gfx1201">] {
  gpu.func @copies(%Bt: memref<?x?xbf16>, %k: index, %n: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
    // CHECK: hk.copy_to_shared %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}] transpose bounds partial : memref<?x?xbf16>
    hk.copy_to_shared %Bt[%k, %n], %t[%c0] transpose bounds partial
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
    // CHECK: hk.copy_to_shared %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}] transpose : memref<64x128xbf16>
    %S = memref.alloc() : memref<64x128xbf16>
    hk.copy_to_shared %S[%c0, %c0], %t[%c0] transpose
        : memref<64x128xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
    gpu.return
  }
}
