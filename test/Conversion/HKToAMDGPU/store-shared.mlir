// hk.store_shared: each lane rounds its accumulator elements once and writes
// each to its place in the swizzled tile; the accumulator layouts keep a
// lane's elements in one column, so a row-major tile takes one 2-byte write
// per element.
// RUN: hk-opt %s --convert-hk-to-amdgpu --canonicalize --cse | FileCheck %s

gpu.module @gfx950 [#rocdl.target<chip = "gfx950">] {
  // CHECK-LABEL: gpu.func @mfma32
  gpu.func @mfma32(%f: !hk.fragment<acc, 32x32xf32, mma = 32x32x16>, %col: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>>
    // CHECK: arith.truncf %{{.*}} : vector<16xf32> to vector<16xbf16>
    // CHECK-COUNT-16: vector.store %{{.*}} : memref<8192xbf16, #gpu.address_space<workgroup>>, vector<1xbf16>
    // CHECK-NOT: vector.store
    hk.store_shared %f, %t[%c0][%c0, %col]
        : !hk.fragment<acc, 32x32xf32, mma = 32x32x16>, !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>>
    gpu.return
  }
}

gpu.module @gfx1201 [#rocdl.target<chip = "gfx1201">] {
  // CHECK-LABEL: gpu.func @wmma
  gpu.func @wmma(%f: !hk.fragment<acc, 16x32xf32, mma = 16x16x16>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<16x32xbf16, #hk.swizzle<st_16x32>, #hk.col_perm<block4_0213>>
    // Two fragments of 8 elements a lane.
    // CHECK: arith.truncf %{{.*}} : vector<16xf32> to vector<16xbf16>
    // CHECK-COUNT-16: vector.store %{{.*}} : memref<512xbf16, #gpu.address_space<workgroup>>, vector<1xbf16>
    // CHECK-NOT: vector.store
    hk.store_shared %f, %t[%c0][%c0, %c0]
        : !hk.fragment<acc, 16x32xf32, mma = 16x16x16>, !hk.shared_tile<16x32xbf16, #hk.swizzle<st_16x32>, #hk.col_perm<block4_0213>>
    gpu.return
  }
}
