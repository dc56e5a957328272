// The reads of a fragment from a swizzled tile at a constant origin share
// one offset per distinct lane pattern, the others that plus a constant
// (which the backend can fold into the read's offset field): two for the
// transposed reads of a V^T fragment in st_16x32 (its rows 8..15 swap the
// row halves), four for a K fragment in st_16x64 (one per 16-column step
// of the 64-column sub-tile). Each shared offset passes through an
// llvm.freeze, so that LLVM does not relate the two patterns (the second is
// the first xor a constant) and turn the constants added to the second
// into `or`s the backend cannot fold into the offset field.
// RUN: hk-opt %s --convert-hk-to-amdgpu --canonicalize --cse | FileCheck %s

// CHECK-LABEL: gpu.func @v
// CHECK: arith.xori
// CHECK: %[[F1:.*]] = llvm.freeze %{{.*}} : i64
// CHECK-NEXT: %[[FIRST:.*]] = arith.index_castui %[[F1]] : i64 to index
// CHECK-NEXT: amdgpu.transpose_load %{{.*}}[%[[FIRST]]]
// CHECK: arith.xori
// CHECK: %[[F2:.*]] = llvm.freeze %{{.*}} : i64
// CHECK-NEXT: %[[SECOND:.*]] = arith.index_castui %[[F2]] : i64 to index
// CHECK-NEXT: amdgpu.transpose_load %{{.*}}[%[[SECOND]]]
// CHECK-NOT: arith.xori
// CHECK: %[[D:.*]] = arith.addi %[[FIRST]], %c2048 : index
// CHECK-NEXT: amdgpu.transpose_load %{{.*}}[%[[D]]]
// CHECK-NOT: arith.xori
// CHECK: %[[E:.*]] = arith.addi %[[SECOND]], %c6144 : index
// CHECK-NEXT: amdgpu.transpose_load %{{.*}}[%[[E]]]
// CHECK-NOT: arith.xori
// CHECK: gpu.return

// CHECK-LABEL: gpu.func @k
// CHECK-COUNT-4: llvm.freeze
// CHECK-NOT: llvm.freeze
// CHECK: gpu.return

// At an origin only known at run time, each read is computed in full, and
// not frozen: LLVM relates the reads itself.
// CHECK-LABEL: gpu.func @k_dynamic
// CHECK-COUNT-8: arith.xori
// CHECK-NOT: arith.xori
// CHECK-NOT: llvm.freeze
// CHECK: gpu.return
gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @v() -> !hk.fragment<a, 128x64xbf16, mma = 32x32x16, k = acc>
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %vs = hk.alloc_shared : <64x128xbf16, #hk.swizzle<st_16x32>>
    %vt = hk.load_fragment %vs[%c0] [%c0, %c0] transpose : <64x128xbf16, #hk.swizzle<st_16x32>> -> <a, 128x64xbf16, mma = 32x32x16, k = acc>
    gpu.return %vt : !hk.fragment<a, 128x64xbf16, mma = 32x32x16, k = acc>
  }
  gpu.func @k() -> !hk.fragment<a, 64x128xbf16, mma = 32x32x16>
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %ks = hk.alloc_shared : <64x128xbf16, #hk.swizzle<st_16x64>>
    %kf = hk.load_fragment %ks[%c0] [%c0, %c0] : <64x128xbf16, #hk.swizzle<st_16x64>> -> <a, 64x128xbf16, mma = 32x32x16>
    gpu.return %kf : !hk.fragment<a, 64x128xbf16, mma = 32x32x16>
  }
  gpu.func @k_dynamic(%row: index) -> !hk.fragment<a, 32x128xbf16, mma = 32x32x16>
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %ks = hk.alloc_shared : <64x128xbf16, #hk.swizzle<st_16x64>>
    %kf = hk.load_fragment %ks[%c0] [%row, %c0] : <64x128xbf16, #hk.swizzle<st_16x64>> -> <a, 32x128xbf16, mma = 32x32x16>
    gpu.return %kf : !hk.fragment<a, 32x128xbf16, mma = 32x32x16>
  }
}
