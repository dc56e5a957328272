// hk.alloc_shared and hk.copy_to_shared, for each chip (the copy is the same
// register path on both).
// RUN: hk-opt %s --hk-attach-target=chip=gfx950 --convert-hk-to-amdgpu --canonicalize | FileCheck %s
// RUN: hk-opt %s --hk-attach-target=chip=gfx1201 --convert-hk-to-amdgpu --canonicalize | FileCheck %s

gpu.module @shared {
  // Both slots of a tile live in one 16-byte-aligned LDS global.
  // CHECK-DAG: memref.global "private" @__hk_shared_swizzled_0 : memref<8192xbf16, #gpu.address_space<workgroup>> {alignment = 16 : i64}
  // CHECK-DAG: memref.global "private" @__hk_shared_permuted_0 : memref<2048xbf16, #gpu.address_space<workgroup>> {alignment = 16 : i64}

  // CHECK-LABEL: gpu.func @swizzled
  // CHECK-SAME: (%[[SRC:.*]]: memref<?x?xbf16>, %[[ROW:.*]]: index, %[[COL:.*]]: index, %[[SLOT:.*]]: index)
  gpu.func @swizzled(%src: memref<?x?xbf16>, %row: index, %col: index, %slot: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    // CHECK: %[[LDS:.*]] = memref.get_global @__hk_shared_swizzled_0
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    // A 64x64 tile is 512 chunks of 16 bytes: 2 per thread of 256, each one
    // 16-byte raw buffer load (a resource from the region's first row, the
    // lane's offset in voffset, the region's column in soffset) and one
    // 16-byte LDS store at the swizzled offset (bit 9 of the byte offset into
    // bit 5), in the slot's half of the global.
    // CHECK: %[[TID:.*]] = gpu.thread_id x
    // CHECK: %[[BASE:.*]] = arith.muli %[[SLOT]], %c4096
    // CHECK: %[[RSRC:.*]] = rocdl.make.buffer.rsrc
    // Both loads, then both stores.
    // CHECK: arith.addi %[[TID]], %c256
    // CHECK: %[[WORDS:.*]] = rocdl.raw.ptr.buffer.load %[[RSRC]], %{{.*}}, %[[SOFF:.*]], %{{.*}} : vector<4xi32>
    // CHECK: vector.bitcast %[[WORDS]] : vector<4xi32> to vector<8xbf16>
    // CHECK: rocdl.raw.ptr.buffer.load %[[RSRC]], %{{.*}}, %[[SOFF]], %{{.*}} : vector<4xi32>
    // CHECK-NOT: vector.store
    // CHECK: arith.shrui %{{.*}}, %c9
    // CHECK: arith.shli %{{.*}}, %c5
    // CHECK: arith.xori
    // CHECK: vector.store {{.*}}, %[[LDS]][{{.*}}] {alignment = 16 : i64} : memref<8192xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    // CHECK: vector.store {{.*}}, %[[LDS]][{{.*}}] {alignment = 16 : i64} : memref<8192xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    // CHECK-NOT: vector.load
    // CHECK-NOT: hk.
    hk.copy_to_shared %src[%row, %col], %t[%slot]
        : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    // CHECK: gpu.return
    gpu.return
  }

  // CHECK-LABEL: gpu.func @permuted
  gpu.func @permuted(%src: memref<?x?xbf16>, %row: index, %col: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %u = hk.alloc_shared : !hk.shared_tile<32x64xbf16, #hk.swizzle<st_16x32>, #hk.col_perm<block4_0213>>
    // With the block permutation a 16-byte chunk lands in two 8-byte runs;
    // bits 2 and 3 of the column trade places.
    // CHECK: %[[CHUNK:.*]] = vector.bitcast {{.*}} : vector<4xi32> to vector<8xbf16>
    // CHECK: vector.shuffle %[[CHUNK]], %[[CHUNK]] [0, 1, 2, 3] : vector<8xbf16>, vector<8xbf16>
    // CHECK: arith.shrui %{{.*}}, %c3
    // CHECK: vector.store {{.*}} {alignment = 8 : i64} : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
    // CHECK: vector.shuffle %[[CHUNK]], %[[CHUNK]] [4, 5, 6, 7] : vector<8xbf16>, vector<8xbf16>
    // CHECK: vector.store {{.*}} {alignment = 8 : i64} : memref<2048xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
    // CHECK-NOT: vector.store
    hk.copy_to_shared %src[%row, %col], %u[%c0]
        : memref<?x?xbf16>, !hk.shared_tile<32x64xbf16, #hk.swizzle<st_16x32>, #hk.col_perm<block4_0213>>
    // CHECK: gpu.return
    gpu.return
  }
}
