// A direct hk.copy_to_shared (gfx950 only; gfx1201 refuses `direct`, see
// Dialect/HK/invalid.mlir): lane-linear LDS writes from a wave-uniform base,
// each lane fetching the element the swizzle stores at its chunk through a
// raw buffer resource (buffer_load ... lds in the backend): lane offsets in
// voffset, the tile's origin in soffset, the wave's LDS slice in M0.
// RUN: hk-opt %s --convert-hk-to-amdgpu --canonicalize | FileCheck %s

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  // CHECK-LABEL: gpu.func @direct
  // CHECK-SAME: (%[[SRC:.*]]: memref<?x?xbf16>, %[[ROW:.*]]: index, %[[COL:.*]]: index)
  gpu.func @direct(%src: memref<?x?xbf16>, %row: index, %col: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    // 512 chunks of 16 bytes, 2 per thread. The source is one raw buffer
    // resource (flags 0x27000 = 159744), the tile origin goes in soffset,
    // and the wave's LDS slice is (wave * 512) elements = wave * 1024 bytes,
    // made uniform with readfirstlane.
    // CHECK: %[[TID:.*]] = gpu.thread_id x
    // CHECK: %{{.*}}, %{{.*}}, %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[SRC]]
    // CHECK: %[[RSRC:.*]] = rocdl.make.buffer.rsrc %{{.*}}, %c0_i16, %{{.*}}, %c159744_i32 : <1> to <8>
    // CHECK: %[[ORIGIN:.*]] = arith.muli %[[ROW]], %[[STRIDES]]#0
    // CHECK: %[[ORIGIN1:.*]] = arith.addi %[[ORIGIN]], %[[COL]]
    // CHECK: %[[ORIGIN2:.*]] = arith.muli %[[ORIGIN1]], %c2
    // CHECK: %[[SOFF:.*]] = arith.index_castui %[[ORIGIN2]] : index to i32
    // CHECK: %[[WAVE:.*]] = arith.divui %[[TID]], %c64
    // CHECK: %[[WAVEB:.*]] = arith.muli %[[WAVE]], %c1024
    // CHECK: %[[WAVEB32:.*]] = arith.index_castui %[[WAVEB]] : index to i32
    // CHECK: %[[UNIFORM:.*]] = rocdl.readfirstlane %[[WAVEB32]] : i32
    // CHECK: %[[SLICE:.*]] = arith.addi %{{.*}}, %[[UNIFORM]] : i32
    // CHECK: %[[VOFF:.*]] = arith.index_castui %{{.*}} : index to i32
    // CHECK: %[[LDS0:.*]] = llvm.inttoptr %[[SLICE]] : i32 to !llvm.ptr<3>
    // CHECK: rocdl.raw.ptr.buffer.load.lds %[[RSRC]], %[[LDS0]], %c16_i32, %[[VOFF]], %[[SOFF]], %c0_i32, %c0_i32
    // The second iteration is the first moved down 32 rows: same lane
    // offsets, 32 * stride * 2 bytes more in soffset, 4096 bytes on in LDS.
    // CHECK: %[[DOWN:.*]] = arith.muli %[[STRIDES]]#0, %c64
    // CHECK: %[[DOWN32:.*]] = arith.index_castui %[[DOWN]] : index to i32
    // CHECK: %[[SOFF1:.*]] = arith.addi %[[SOFF]], %[[DOWN32]] : i32
    // CHECK: %[[SLICE1:.*]] = arith.addi %[[SLICE]], %c4096_i32 : i32
    // CHECK: %[[LDS1:.*]] = llvm.inttoptr %[[SLICE1]] : i32 to !llvm.ptr<3>
    // CHECK: rocdl.raw.ptr.buffer.load.lds %[[RSRC]], %[[LDS1]], %c16_i32, %[[VOFF]], %[[SOFF1]], %c0_i32, %c0_i32
    // CHECK-NOT: rocdl.raw.ptr.buffer.load.lds
    // CHECK-NOT: rocdl.make.buffer.rsrc
    // CHECK-NOT: vector.store
    hk.copy_to_shared %src[%row, %col], %t[%c0] direct
        : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    // CHECK: gpu.return
    gpu.return
  }
}
