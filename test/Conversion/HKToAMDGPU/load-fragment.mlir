// hk.load_fragment: one 16-byte LDS read per fragment and lane when the
// tile layout keeps a lane's elements contiguous, in the chip's lane layout.
// RUN: hk-opt %s --convert-hk-to-amdgpu --canonicalize | FileCheck %s --check-prefix=GFX950
// RUN: hk-opt %s --convert-hk-to-amdgpu --canonicalize | FileCheck %s --check-prefix=GFX1201

// GFX950-LABEL: gpu.module @gfx950
gpu.module @gfx950 [#rocdl.target<chip = "gfx950">] {
  // GFX950-LABEL: gpu.func @load_a
  gpu.func @load_a(%r: index) -> !hk.fragment<a, 32x32xbf16, mma = 16x16x32>
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    // Lane = thread id % 64; row l % 16, k = (l / 16) * 8.
    // GFX950: %[[TID:.*]] = gpu.thread_id x
    // GFX950: %[[LANE:.*]] = arith.remui %[[TID]], %c64
    // GFX950: arith.remui %[[LANE]], %c16
    // GFX950: arith.divui %[[LANE]], %c16
    // GFX950: vector.load %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    // GFX950: vector.load %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    // GFX950-NOT: vector.load
    %a = hk.load_fragment %t[%c0][%r, %c32]
        : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
        -> !hk.fragment<a, 32x32xbf16, mma = 16x16x32>
    // GFX950: gpu.return %{{.*}} : vector<16xbf16>
    gpu.return %a : !hk.fragment<a, 32x32xbf16, mma = 16x16x32>
  }
}

// GFX1201-LABEL: gpu.module @gfx1201
gpu.module @gfx1201 [#rocdl.target<chip = "gfx1201">] {
  // GFX1201-LABEL: gpu.func @permuted
  gpu.func @permuted(%r: index) -> !hk.fragment<a, 32x16xbf16, mma = 16x16x16>
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>, #hk.col_perm<block4_0213>>
    // Lane = thread id % 32; with block4_0213 a lane's k 0-3 and 8-11 (or
    // 4-7 and 12-15) are one 16-byte read.
    // GFX1201: %[[TID:.*]] = gpu.thread_id x
    // GFX1201: arith.remui %[[TID]], %c32
    // GFX1201-COUNT-2: vector.load %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    // GFX1201-NOT: vector.load
    %a = hk.load_fragment %t[%c0][%r, %c0]
        : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>, #hk.col_perm<block4_0213>>
        -> !hk.fragment<a, 32x16xbf16, mma = 16x16x16>
    // GFX1201: gpu.return %{{.*}} : vector<16xbf16>
    gpu.return %a : !hk.fragment<a, 32x16xbf16, mma = 16x16x16>
  }

  // GFX1201-LABEL: gpu.func @unpermuted
  gpu.func @unpermuted(%r: index) -> !hk.fragment<a, 16x16xbf16, mma = 16x16x16>
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    // Without the permutation the two halves of a lane's k set are apart:
    // two 8-byte reads per fragment.
    // GFX1201-COUNT-2: vector.load %{{.*}}[%{{.*}}] {alignment = 8 : i64} : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
    // GFX1201-NOT: vector.load
    %a = hk.load_fragment %t[%c0][%r, %c0]
        : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
        -> !hk.fragment<a, 16x16xbf16, mma = 16x16x16>
    // GFX1201: gpu.return %{{.*}} : vector<8xbf16>
    gpu.return %a : !hk.fragment<a, 16x16xbf16, mma = 16x16x16>
  }

  // GFX1201-LABEL: gpu.func @run_k
  gpu.func @run_k(%r: index) -> !hk.fragment<a, 16x16xbf16, mma = 16x16x16, k = run>
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    // An `a` fragment with k = run takes k in the order of a lane's run
    // (k 0-7 or 8-15): one 16-byte read from the unpermuted tile.
    // GFX1201: vector.load %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    // GFX1201-NOT: vector.load
    %a = hk.load_fragment %t[%c0][%r, %c0]
        : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
        -> !hk.fragment<a, 16x16xbf16, mma = 16x16x16, k = run>
    // GFX1201: gpu.return %{{.*}} : vector<8xbf16>
    gpu.return %a : !hk.fragment<a, 16x16xbf16, mma = 16x16x16, k = run>
  }
}
