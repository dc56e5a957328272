// A direct hk.copy_to_shared (gfx950 only; gfx1201 refuses `direct`, see
// Dialect/HK/invalid.mlir): lane-linear LDS writes from a wave-uniform base,
// each lane fetching the element the swizzle stores at its chunk through a
// raw buffer resource from the tile's first row (buffer_load ... lds in the
// backend): lane offsets in voffset, the tile's column offset in soffset,
// the wave's LDS slice in M0.
// RUN: hk-opt %s --convert-hk-to-amdgpu --canonicalize | FileCheck %s

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  // CHECK-LABEL: gpu.func @direct
  // CHECK-SAME: (%[[SRC:.*]]: memref<?x?xbf16>, %[[ROW:.*]]: index, %[[COL:.*]]: index)
  gpu.func @direct(%src: memref<?x?xbf16>, %row: index, %col: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    // 512 chunks of 16 bytes, 2 per thread. The source is a raw buffer
    // resource (flags 0x27000 = 159744) based at the tile's first row
    // (row * stride * 2 bytes on), the tile's column offset goes in soffset,
    // and the wave's LDS slice is (wave * 512) elements = wave * 1024 bytes,
    // made uniform with readfirstlane once, at the kernel's entry.
    // CHECK: %[[ETID:.*]] = gpu.thread_id x
    // CHECK: %[[WAVE:.*]] = arith.divui %[[ETID]], %c64
    // CHECK: %[[WAVEB:.*]] = arith.muli %[[WAVE]], %c1024
    // CHECK: %[[WAVEB32:.*]] = arith.index_castui %[[WAVEB]] : index to i32
    // CHECK: %[[UNIFORM:.*]] = rocdl.readfirstlane %[[WAVEB32]] : i32
    // CHECK: %{{.*}}, %{{.*}}, %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[SRC]]
    // CHECK: %[[FIRST:.*]] = arith.muli %[[ROW]], %[[STRIDES]]#0
    // CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[SRC]]
    // CHECK: %[[FIRSTB:.*]] = arith.muli %[[FIRST]], %c2
    // CHECK: %[[BASE:.*]] = arith.addi %[[PTR]], %[[FIRSTB]]
    // CHECK: %[[BASE64:.*]] = arith.index_castui %[[BASE]] : index to i64
    // CHECK: %[[BASEP:.*]] = llvm.inttoptr %[[BASE64]] : i64 to !llvm.ptr<1>
    // CHECK: %[[RSRC:.*]] = rocdl.make.buffer.rsrc %[[BASEP]], %c0_i16, %{{.*}}, %c159744_i32 : <1> to <8>
    // CHECK: %[[COLB:.*]] = arith.muli %[[COL]], %c2
    // CHECK: %[[SOFF:.*]] = arith.index_castui %[[COLB]] : index to i32
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
    // CHECK-NOT: rocdl.readfirstlane
    // CHECK-NOT: vector.store
    hk.copy_to_shared %src[%row, %col], %t[%c0] direct
        : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    // CHECK: gpu.return
    gpu.return
  }

  // A strided view (a subview, say): its offset joins the resource's base,
  // added to the pointer before the rows (a loop over the rows computes
  // the sum once).
  // CHECK-LABEL: gpu.func @direct_view
  // CHECK-SAME: (%[[VIEW:[^:]*]]: memref<?x?xbf16, strided<[?, 1], offset: ?>>, %[[VROW:[^:]*]]: index
  gpu.func @direct_view(%src: memref<?x?xbf16, strided<[?, 1], offset: ?>>,
                        %row: index, %col: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    // CHECK: %{{.*}}, %[[OFFSET:.*]], %{{.*}}:2, %[[VSTRIDES:.*]]:2 = memref.extract_strided_metadata %[[VIEW]]
    // CHECK: %[[ROWS:.*]] = arith.muli %[[VROW]], %[[VSTRIDES]]#0
    // CHECK: %[[OFFB:.*]] = arith.muli %[[OFFSET]], %c2
    // CHECK: %[[VPTR:.*]] = memref.extract_aligned_pointer_as_index %[[VIEW]]
    // CHECK: %[[VSTART:.*]] = arith.addi %[[VPTR]], %[[OFFB]]
    // CHECK: %[[ROWSB:.*]] = arith.muli %[[ROWS]], %c2
    // CHECK: arith.addi %[[VSTART]], %[[ROWSB]]
    // CHECK-COUNT-2: rocdl.raw.ptr.buffer.load.lds
    hk.copy_to_shared %src[%row, %col], %t[%c0] direct
        : memref<?x?xbf16, strided<[?, 1], offset: ?>>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    gpu.return
  }
}
