// fp8 shared tiles and fragments (f8E4M3FN, f8E5M2) with the 8-bit
// swizzles round-trip; hk-set-fp8-format rewrites every fp8 type.
// RUN: hk-opt %s | hk-opt | FileCheck %s
// RUN: hk-opt %s --hk-set-fp8-format=format=e5m2 | FileCheck %s --check-prefix=E5M2
// RUN: hk-opt %s --hk-set-fp8-format=format=e4m3 | FileCheck %s --check-prefix=E4M3
// RUN: not hk-opt %s --hk-set-fp8-format=format=e3m4 2>&1 | FileCheck %s --check-prefix=BAD
// E4M3-NOT: f8E5M2
// BAD: for the --format option: Cannot find option named 'e3m4'!

// CHECK-LABEL: gpu.func @fp8
// CHECK-SAME: memref<?x?xf8E4M3FN>
// E5M2-LABEL: gpu.func @fp8
// E5M2-SAME: memref<?x?xf8E5M2>
// E5M2-NOT: f8E4M3FN
gpu.module @gfx950 [#rocdl.target<chip = "gfx950">] {
  gpu.func @fp8(%A: memref<?x?xf8E4M3FN>, %m: index) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    // CHECK: hk.alloc_shared : <128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
    // E5M2: hk.alloc_shared : <128x128xf8E5M2, #hk.swizzle<st_16x128>>
    %t = hk.alloc_shared : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
    hk.copy_to_shared %A[%m, %c0], %t[%c0] bounds partial
        : memref<?x?xf8E4M3FN>, !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
    amdgpu.lds_barrier
    // CHECK: -> <a, 64x128xf8E4M3FN, mma = 16x16x128>
    // E5M2: -> <a, 64x128xf8E5M2, mma = 16x16x128>
    %a = hk.load_fragment %t[%c0][%c0, %c0]
        : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
        -> !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>
    %b = hk.load_fragment %t[%c0][%c0, %c0]
        : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
        -> !hk.fragment<b, 32x128xf8E4M3FN, mma = 16x16x128>
    %acc = hk.fill_fragment %zero : !hk.fragment<acc, 64x32xf32, mma = 16x16x128>
    %d = hk.mma %a, %b, %acc
        : !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>,
          !hk.fragment<b, 32x128xf8E4M3FN, mma = 16x16x128>,
          !hk.fragment<acc, 64x32xf32, mma = 16x16x128>
    gpu.return
  }
}

// CHECK-LABEL: gpu.func @fp8_gfx1201
gpu.module @gfx1201 [#rocdl.target<chip = "gfx1201">] {
  gpu.func @fp8_gfx1201() kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    // CHECK: <128x128xf8E5M2, #hk.swizzle<st_16x128_b64>>
    %t = hk.alloc_shared : !hk.shared_tile<128x128xf8E5M2, #hk.swizzle<st_16x128_b64>>
    // CHECK: <a, 64x16xf8E5M2, mma = 16x16x16>
    %a = hk.load_fragment %t[%c0][%c0, %c0]
        : !hk.shared_tile<128x128xf8E5M2, #hk.swizzle<st_16x128_b64>>
        -> !hk.fragment<a, 64x16xf8E5M2, mma = 16x16x16>
    gpu.return
  }
}
