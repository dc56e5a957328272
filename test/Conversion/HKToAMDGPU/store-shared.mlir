// hk.store_shared: each lane rounds its accumulator elements once and writes
// each to its place in the swizzled tile; the accumulator layouts keep a
// lane's elements in one column, so a row-major tile takes one 2-byte write
// per element. Writes whose every lane's address is an earlier write's plus
// a constant, at every origin the op may take (multiples of the fragment
// shape inside the tile), share its address (behind an llvm.freeze), so
// that the backend folds the constants into the writes' offset field.
// RUN: hk-opt %s --convert-hk-to-amdgpu --canonicalize --cse | FileCheck %s
// RUN: hk-opt %s --convert-hk-to-amdgpu --canonicalize --cse \
// RUN:   | FileCheck %s --check-prefix=SHARE

gpu.module @gfx950 [#rocdl.target<chip = "gfx950">] {
  // CHECK-LABEL: gpu.func @mfma32
  gpu.func @mfma32(%f: !hk.fragment<acc, 32x32xf32, mma = 32x32x16>, %col: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>>
    // CHECK: arith.truncf %{{.*}} : vector<16xf32> to vector<16xbf16>
    // Four lane patterns under st_16x64, each with a write 64 elements on
    // and two in the next 16 rows (2048, 2112).
    // SHARE-LABEL: gpu.func @mfma32
    // SHARE-COUNT-4: llvm.freeze
    // SHARE-NOT: llvm.freeze
    // SHARE: arith.addi %{{.*}}, %c2112 : index
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
    // Two fragments of 8 elements a lane; a lane's 8 rows are 32 elements
    // apart in each, the second fragment's columns no constant away at
    // this origin (block4_0213).
    // SHARE-LABEL: gpu.func @wmma
    // SHARE: llvm.freeze
    // SHARE: vector.store %{{.*}}, %{{.*}}[%[[B:.*]]] {{.*}}vector<1xbf16>
    // SHARE: arith.addi %[[B]], %c224 : index
    // SHARE: llvm.freeze
    // SHARE-NOT: llvm.freeze
    // CHECK: arith.truncf %{{.*}} : vector<16xf32> to vector<16xbf16>
    // CHECK-COUNT-16: vector.store %{{.*}} : memref<512xbf16, #gpu.address_space<workgroup>>, vector<1xbf16>
    // CHECK-NOT: vector.store
    hk.store_shared %f, %t[%c0][%c0, %c0]
        : !hk.fragment<acc, 16x32xf32, mma = 16x16x16>, !hk.shared_tile<16x32xbf16, #hk.swizzle<st_16x32>, #hk.col_perm<block4_0213>>
    gpu.return
  }

  // An attention backward's dS columns: the wave's column is dynamic, a
  // multiple of the fragment's 16 columns. At every such origin the rows of
  // both fragments lie a constant from the first write: one address for all
  // 16 writes.
  // CHECK-LABEL: gpu.func @wmma_columns
  gpu.func @wmma_columns(%f: !hk.fragment<acc, 32x16xf32, mma = 16x16x16>, %col: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<32x32xbf16, #hk.swizzle<st_16x32>, #hk.col_perm<block4_0213>>
    // SHARE-LABEL: gpu.func @wmma_columns
    // SHARE: llvm.freeze
    // SHARE-NOT: llvm.freeze
    // CHECK: vector.store %{{.*}}, %{{.*}}[%[[B:.*]]] {{.*}}vector<1xbf16>
    // CHECK: arith.addi %[[B]], %c32 : index
    // CHECK: arith.addi %[[B]], %c224 : index
    // CHECK: arith.addi %[[B]], %c512 : index
    // CHECK: %[[LAST:.*]] = arith.addi %[[B]], %c736 : index
    // CHECK: vector.store %{{.*}}, %{{.*}}[%[[LAST]]]
    // CHECK-NOT: vector.store
    hk.store_shared %f, %t[%c0][%c0, %col]
        : !hk.fragment<acc, 32x16xf32, mma = 16x16x16>, !hk.shared_tile<32x32xbf16, #hk.swizzle<st_16x32>, #hk.col_perm<block4_0213>>
    gpu.return
  }
}
