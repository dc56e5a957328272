// fp8 fragments and MMAs: on gfx950 a 16x128 operand is two 16-byte LDS
// reads (k 16g..16g+15 and 64+16g..) into one vector<32xf8E4M3FN> for
// amdgpu.mfma 16x16x128 (v_mfma_f32_16x16x128_f8f6f4); on gfx1201 a lane's
// 8 contiguous bytes feed amdgpu.wmma 16x16x16 on fp8.
// RUN: hk-opt %s --convert-hk-to-amdgpu --canonicalize --cse | FileCheck %s

// CHECK-LABEL: gpu.module @gfx950
// Each read is widened to the operand's length by a shuffle of itself, then
// merged by a shuffle of two operands of one type (a shuffle of two types
// lowers to LLVM as an extract and an insert per element).
// CHECK: vector.load %{{.*}} : memref<2048xf8E4M3FN, #gpu.address_space<workgroup>>, vector<16xf8E4M3FN>
// CHECK: %[[HI:.*]] = vector.load %{{.*}} : memref<2048xf8E4M3FN, #gpu.address_space<workgroup>>, vector<16xf8E4M3FN>
// CHECK: %[[WIDE:.*]] = vector.shuffle %[[HI]], %[[HI]] [-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] : vector<16xf8E4M3FN>, vector<16xf8E4M3FN>
// CHECK: %[[A:.*]] = vector.shuffle %{{.*}}, %[[WIDE]] [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63] : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>
// CHECK: amdgpu.mfma 16x16x128 %[[A]] * %[[A]] + %{{.*}} blgp = none : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>, vector<4xf32>
// CHECK-LABEL: gpu.module @gfx1201
// CHECK: vector.load %{{.*}} : memref<2048xf8E5M2, #gpu.address_space<workgroup>>, vector<8xf8E5M2>
// CHECK: amdgpu.wmma 16x16x16 %{{.*}} * %{{.*}} + %{{.*}} : vector<8xf8E5M2>, vector<8xf8E5M2>, vector<8xf32>
gpu.module @gfx950 [#rocdl.target<chip = "gfx950">] {
  gpu.func @mma(%t: !hk.shared_tile<16x128xf8E4M3FN, #hk.swizzle<st_16x128>>,
                %acc: !hk.fragment<acc, 16x16xf32, mma = 16x16x128>,
                %out: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %a = hk.load_fragment %t[%c0][%c0, %c0]
        : !hk.shared_tile<16x128xf8E4M3FN, #hk.swizzle<st_16x128>>
        -> !hk.fragment<a, 16x128xf8E4M3FN, mma = 16x16x128>
    %b = hk.load_fragment %t[%c0][%c0, %c0]
        : !hk.shared_tile<16x128xf8E4M3FN, #hk.swizzle<st_16x128>>
        -> !hk.fragment<b, 16x128xf8E4M3FN, mma = 16x16x128>
    %d = hk.mma %a, %b, %acc
        : !hk.fragment<a, 16x128xf8E4M3FN, mma = 16x16x128>,
          !hk.fragment<b, 16x128xf8E4M3FN, mma = 16x16x128>,
          !hk.fragment<acc, 16x16xf32, mma = 16x16x128>
    hk.store_fragment %d, %out[%c0, %c0]
        : !hk.fragment<acc, 16x16xf32, mma = 16x16x128>, memref<?x?xf32>
    gpu.return
  }
}
gpu.module @gfx1201 [#rocdl.target<chip = "gfx1201">] {
  gpu.func @mma(%t: !hk.shared_tile<16x128xf8E5M2, #hk.swizzle<st_16x128_b64>>,
                %acc: !hk.fragment<acc, 16x16xf32, mma = 16x16x16>,
                %out: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %a = hk.load_fragment %t[%c0][%c0, %c0]
        : !hk.shared_tile<16x128xf8E5M2, #hk.swizzle<st_16x128_b64>>
        -> !hk.fragment<a, 16x16xf8E5M2, mma = 16x16x16>
    %b = hk.load_fragment %t[%c0][%c0, %c0]
        : !hk.shared_tile<16x128xf8E5M2, #hk.swizzle<st_16x128_b64>>
        -> !hk.fragment<b, 16x16xf8E5M2, mma = 16x16x16>
    %d = hk.mma %a, %b, %acc
        : !hk.fragment<a, 16x16xf8E5M2, mma = 16x16x16>,
          !hk.fragment<b, 16x16xf8E5M2, mma = 16x16x16>,
          !hk.fragment<acc, 16x16xf32, mma = 16x16x16>
    hk.store_fragment %d, %out[%c0, %c0]
        : !hk.fragment<acc, 16x16xf32, mma = 16x16x16>, memref<?x?xf32>
    gpu.return
  }
}
