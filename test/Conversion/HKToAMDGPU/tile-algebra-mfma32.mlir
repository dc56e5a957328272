// The register-tile algebra on v_mfma_f32_32x32x16_bf16 fragments (gfx950):
// a column is held by 2 lanes, one v_permlane32_swap; a row by 32, the 4
// DPP steps then one v_permlane16_swap; the accumulator as the B operand
// moves no data (elements 0-7 for k 0-15, 8-15 for k 16-31); the MMA is
// amdgpu.mfma 32x32x16.
// RUN: hk-opt %s --convert-hk-to-amdgpu --canonicalize --cse | FileCheck %s

// CHECK-LABEL: gpu.func @column_max
// 64 rows: 2 fragments of 16 elements, a tree of 31 in-lane maxima.
// CHECK-COUNT-31: arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK: rocdl.permlane32.swap
// CHECK: arith.maximumf
// CHECK-NOT: rocdl.permlane
// CHECK: gpu.return

// CHECK-LABEL: gpu.func @row_sum
// CHECK: amdgpu.dpp %{{.*}} %{{.*}} quad_perm([1 : i32, 0 : i32, 3 : i32, 2 : i32])
// CHECK: amdgpu.dpp %{{.*}} %{{.*}} quad_perm([2 : i32, 3 : i32, 0 : i32, 1 : i32])
// CHECK: amdgpu.dpp %{{.*}} %{{.*}} row_half_mirror
// CHECK: amdgpu.dpp %{{.*}} %{{.*}} row_mirror
// CHECK: rocdl.permlane16.swap
// CHECK-NOT: rocdl.permlane32

// CHECK-LABEL: gpu.func @p_times_v
// The accumulator rounded in place, no lane moved.
// CHECK: %[[P:.*]] = arith.truncf %{{.*}} : vector<16xf32> to vector<16xbf16>
// CHECK-COUNT-4: amdgpu.transpose_load
// CHECK: %[[P0:.*]] = vector.shuffle %[[P]], %[[P]] [0, 1, 2, 3, 4, 5, 6, 7]
// CHECK: amdgpu.mfma 32x32x16 %{{.*}} * %[[P0]]
// CHECK: %[[P1:.*]] = vector.shuffle %[[P]], %[[P]] [8, 9, 10, 11, 12, 13, 14, 15]
// CHECK: amdgpu.mfma 32x32x16 %{{.*}} * %[[P1]]
// CHECK-NOT: amdgpu.mfma
// CHECK: gpu.return

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @column_max(%s: !hk.fragment<acc, 64x32xf32, mma = 32x32x16>)
      -> !hk.fragment<col, 1x32xf32, mma = 32x32x16> {
    %m = hk.reduce max %s : !hk.fragment<acc, 64x32xf32, mma = 32x32x16>
        -> !hk.fragment<col, 1x32xf32, mma = 32x32x16>
    gpu.return %m : !hk.fragment<col, 1x32xf32, mma = 32x32x16>
  }
  gpu.func @row_sum(%s: !hk.fragment<acc, 32x32xf32, mma = 32x32x16>)
      -> !hk.fragment<row, 32x1xf32, mma = 32x32x16> {
    %r = hk.reduce sum %s : !hk.fragment<acc, 32x32xf32, mma = 32x32x16>
        -> !hk.fragment<row, 32x1xf32, mma = 32x32x16>
    gpu.return %r : !hk.fragment<row, 32x1xf32, mma = 32x32x16>
  }
  gpu.func @p_times_v(%s: !hk.fragment<acc, 32x32xf32, mma = 32x32x16>,
                      %o: !hk.fragment<acc, 32x32xf32, mma = 32x32x16>)
      -> !hk.fragment<acc, 32x32xf32, mma = 32x32x16>
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %v = hk.alloc_shared : !hk.shared_tile<32x64xbf16, #hk.swizzle<st_8x64>>
    %p = hk.to_operand %s : !hk.fragment<acc, 32x32xf32, mma = 32x32x16>
        -> !hk.fragment<b, 32x32xbf16, mma = 32x32x16, k = acc>
    %vt = hk.load_fragment %v[%c0][%c0, %c0] transpose
        : !hk.shared_tile<32x64xbf16, #hk.swizzle<st_8x64>>
        -> !hk.fragment<a, 32x32xbf16, mma = 32x32x16, k = acc>
    %r = hk.mma %vt, %p, %o : !hk.fragment<a, 32x32xbf16, mma = 32x32x16, k = acc>,
        !hk.fragment<b, 32x32xbf16, mma = 32x32x16, k = acc>,
        !hk.fragment<acc, 32x32xf32, mma = 32x32x16>
    gpu.return %r : !hk.fragment<acc, 32x32xf32, mma = 32x32x16>
  }
}
