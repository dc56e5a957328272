// The bounds modes' lowering (rules R1-R3 of
// docs/hardware/SchedulesTailsLayouts.md#tail-rules): a
// resource from the region's first row to the matrix's end, clamped to
// 2^31 bytes when accesses are masked (an `inside` region's: to its own
// rows); row offsets in voffset; masked columns at an offset of 0x80000000
// or more: on gfx950 (wave64) the offset with the sign bit of the columns
// left ORed in, on gfx1201 (wave32) a compare selecting 0x80000000.
// RUN: hk-opt %s --convert-hk-to-amdgpu --canonicalize --cse | FileCheck %s

gpu.module @bounds [#rocdl.target<chip = "gfx950">] {
  // partial: 16-byte chunks whose columns run past the matrix are masked;
  // when the rows are not whole 16-byte chunks (row stride, columns or the
  // region's column not multiples of 8 elements), a run-time branch loads
  // element by element, each element masked on its own.
  // CHECK-LABEL: gpu.func @partial
  // CHECK-SAME: (%[[A:.*]]: memref<?x?xbf16>, %[[ROW:.*]]: index, %[[COL:.*]]: index)
  gpu.func @partial(%A: memref<?x?xbf16>, %row: index, %col: index) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    // CHECK-DAG: %[[MASKED:.*]] = arith.constant -2147483648 : i32
    // CHECK-DAG: %[[LIMIT:.*]] = arith.constant 2147483648 : i64
    // CHECK: %{{.*}}, %{{.*}}, %[[SIZES:.*]]:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[A]]
    // CHECK: %[[LEFT:.*]] = arith.subi %[[SIZES]]#1, %[[COL]] : index
    // CHECK: %[[RECORDS:.*]] = arith.minui %{{.*}}, %[[LIMIT]] : i64
    // CHECK: %[[RSRC:.*]] = rocdl.make.buffer.rsrc %{{.*}}, %{{.*}}, %[[RECORDS]], %{{.*}} : <1> to <8>
    // CHECK: arith.remui %[[STRIDES]]#0, %c8
    // CHECK: arith.remui %[[SIZES]]#1, %c8
    // CHECK: arith.remui %[[COL]], %c8
    // CHECK: %[[CHUNK:.*]] = scf.if %{{.*}} -> (vector<8xbf16>) {
    // CHECK:   %[[END:.*]] = arith.addi %{{.*}}, %c8 : index
    // CHECK:   %[[END32:.*]] = arith.index_cast %[[END]] : index to i32
    // CHECK:   %[[LEFT32:.*]] = arith.index_cast %[[LEFT]] : index to i32
    // CHECK:   %[[AFTER:.*]] = arith.subi %[[LEFT32]], %[[END32]] : i32
    // CHECK:   %[[SIGN:.*]] = arith.andi %[[AFTER]], %[[MASKED]] : i32
    // CHECK:   %[[OFF:.*]] = arith.ori %{{.*}}, %[[SIGN]] : i32
    // CHECK:   rocdl.raw.ptr.buffer.load %[[RSRC]], %[[OFF]], %{{.*}}, %{{.*}} : vector<4xi32>
    // CHECK: } else {
    // CHECK-COUNT-8: rocdl.raw.ptr.buffer.load %[[RSRC]], %{{.*}}, %{{.*}}, %{{.*}} : i16
    // CHECK:   vector.from_elements
    // CHECK: }
    // CHECK: vector.store %[[CHUNK]]
    hk.copy_to_shared %A[%row, %col], %t[%c0] bounds partial
        : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    gpu.return
  }

  // partial_chunks: the same masks, for rows known to be whole chunks: no
  // run-time branch, no element-wise loads.
  // CHECK-LABEL: gpu.func @chunks
  gpu.func @chunks(%A: memref<?x?xbf16>, %row: index, %col: index) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    // CHECK-NOT: scf.if
    // CHECK: %[[SIGN:.*]] = arith.andi %{{.*}}, %c-2147483648_i32 : i32
    // CHECK: %[[OFF:.*]] = arith.ori %{{.*}}, %[[SIGN]] : i32
    // CHECK: rocdl.raw.ptr.buffer.load %{{.*}}, %[[OFF]], %{{.*}}, %{{.*}} : vector<4xi32>
    // CHECK-NOT: : i16
    // CHECK: gpu.return
    hk.copy_to_shared %A[%row, %col], %t[%c0] bounds partial_chunks
        : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    gpu.return
  }

  // partial_rows on a direct fill: the range is the region's rows that lie
  // in the matrix, clamped to [0, 128] with signed min and max (no 64-bit
  // literal compare), then to 2^32 - 1 as the row stride is not known. The
  // second iteration's 64-row displacement is added to voffset; soffset is
  // the region's column for both (rule R2).
  // CHECK-LABEL: gpu.func @rows
  // CHECK-SAME: (%[[A:.*]]: memref<?x?xbf16>, %[[ROW:.*]]: index, %[[COL:.*]]: index)
  gpu.func @rows(%A: memref<?x?xbf16>, %row: index, %col: index) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    // CHECK: %{{.*}}, %{{.*}}, %[[SIZES:.*]]:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[A]]
    // CHECK: %[[LEFT:.*]] = arith.subi %[[SIZES]]#0, %[[ROW]] : index
    // CHECK: %[[POS:.*]] = arith.maxsi %[[LEFT]], %c0 : index
    // CHECK: %[[IN:.*]] = arith.minsi %[[POS]], %c128 : index
    // CHECK: %[[BYTES:.*]] = arith.muli %[[IN]], %c2 : index
    // CHECK: %[[SPAN:.*]] = arith.muli %[[BYTES]], %[[STRIDES]]#0 : index
    // CHECK: %[[SPAN64:.*]] = arith.index_castui %[[SPAN]] : index to i64
    // CHECK: %[[RECORDS:.*]] = arith.minui %[[SPAN64]], %c4294967295_i64 : i64
    // CHECK: %[[RSRC:.*]] = rocdl.make.buffer.rsrc %{{.*}}, %{{.*}}, %[[RECORDS]], %{{.*}}
    // CHECK: rocdl.raw.ptr.buffer.load.lds %[[RSRC]], %{{.*}}, %{{.*}}, %[[V0:.*]], %[[SOFF:.*]], %{{.*}}, %{{.*}}
    // CHECK: %[[V1:.*]] = arith.addi %[[V0]], %{{.*}} : i32
    // CHECK: rocdl.raw.ptr.buffer.load.lds %[[RSRC]], %{{.*}}, %{{.*}}, %[[V1]], %[[SOFF]], %{{.*}}, %{{.*}}
    hk.copy_to_shared %A[%row, %col], %t[%c0] direct bounds partial_rows
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    gpu.return
  }

  // partial_rows with a static row stride: the range is at most 128 rows
  // of 256 bytes, so it needs no clamp (no 64-bit compare).
  // CHECK-LABEL: gpu.func @rows_static
  gpu.func @rows_static(%A: memref<?x128xbf16>, %row: index) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    // CHECK: %[[IN:.*]] = arith.minsi %{{.*}}, %c128 : index
    // CHECK: %[[SPAN:.*]] = arith.muli %[[IN]], %c256 : index
    // CHECK: %[[RECORDS:.*]] = arith.index_castui %[[SPAN]] : index to i64
    // CHECK-NOT: arith.minui
    // CHECK: rocdl.make.buffer.rsrc %{{.*}}, %{{.*}}, %[[RECORDS]], %{{.*}}
    hk.copy_to_shared %A[%row, %c0], %t[%c0] direct bounds partial_rows
        : memref<?x128xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    gpu.return
  }

  // inside: the displacement joins soffset; the range is the region's own
  // 128 rows (128 x 2 bytes x row stride, up to 2^32 - 1), which does not
  // depend on the region's row: in a loop over the rows it is computed
  // once and only the base moves.
  // CHECK-LABEL: gpu.func @inside
  // CHECK-SAME: (%[[A:.*]]: memref<?x?xbf16>, %[[ROW:.*]]: index, %[[COL:.*]]: index)
  gpu.func @inside(%A: memref<?x?xbf16>, %row: index, %col: index) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    // CHECK: %{{.*}}, %{{.*}}, %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[A]]
    // CHECK: arith.muli %[[ROW]], %[[STRIDES]]#0
    // CHECK: %[[SPAN:.*]] = arith.muli %[[STRIDES]]#0, %c256 : index
    // CHECK: %[[SPAN64:.*]] = arith.index_castui %[[SPAN]] : index to i64
    // CHECK: %[[RECORDS:.*]] = arith.minui %[[SPAN64]], %c4294967295_i64 : i64
    // CHECK: rocdl.make.buffer.rsrc %{{.*}}, %{{.*}}, %[[RECORDS]], %{{.*}}
    // CHECK: rocdl.raw.ptr.buffer.load.lds %{{.*}}, %{{.*}}, %{{.*}}, %[[V0:.*]], %[[SOFF:.*]], %{{.*}}, %{{.*}}
    // CHECK: %[[SOFF1:.*]] = arith.addi %[[SOFF]], %{{.*}} : i32
    // CHECK: rocdl.raw.ptr.buffer.load.lds %{{.*}}, %{{.*}}, %{{.*}}, %[[V0]], %[[SOFF1]], %{{.*}}, %{{.*}}
    hk.copy_to_shared %A[%row, %col], %t[%c0] direct
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    gpu.return
  }

  // A partial store: buffer stores through a resource at the wave's
  // (scalar) origin, each element's column masked, rows past the matrix out
  // of the resource's range.
  // CHECK-LABEL: gpu.func @store
  gpu.func @store(%C: memref<?x?xbf16>, %row: index, %col: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %zero = arith.constant 0.0 : f32
    %acc = hk.fill_fragment %zero : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
    // CHECK: rocdl.readfirstlane
    // CHECK: rocdl.readfirstlane
    // CHECK: %[[RSRC:.*]] = rocdl.make.buffer.rsrc
    // CHECK-COUNT-4: rocdl.raw.ptr.buffer.store %{{.*}}, %[[RSRC]], %{{.*}}, %{{.*}}, %{{.*}} : bf16
    // CHECK-NOT: memref.store
    hk.store_fragment %acc, %C[%row, %col] bounds partial
        : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>, memref<?x?xbf16>
    gpu.return
  }

  // A destination with a static row stride: a lane's offsets are its first
  // element's, masked once per column it writes (one here), plus constants
  // (512 bytes a row), which the backend folds into the instruction's offset
  // field instead of holding an offset register per element.
  // CHECK-LABEL: gpu.func @store_static_stride
  // CHECK: %[[SIGN:.*]] = arith.andi %{{.*}}, %c-2147483648_i32 : i32
  // CHECK: %[[BASE:.*]] = arith.ori %{{.*}}, %[[SIGN]] : i32
  // CHECK-NOT: arith.andi %{{.*}}, %c-2147483648_i32
  // CHECK: %[[ROW1:.*]] = arith.addi %[[BASE]], %c512_i32 : i32
  // CHECK-COUNT-30: arith.addi %[[BASE]], %c{{[0-9]+}}_i32 : i32
  // CHECK-NOT: arith.andi %{{.*}}, %c-2147483648_i32
  // CHECK: rocdl.raw.ptr.buffer.atomic.fadd %{{.*}}, %{{.*}}, %[[BASE]], %{{.*}}, %{{.*}} : f32
  // CHECK-NEXT: rocdl.raw.ptr.buffer.atomic.fadd %{{.*}}, %{{.*}}, %[[ROW1]], %{{.*}}, %{{.*}} : f32
  // CHECK-COUNT-30: rocdl.raw.ptr.buffer.atomic.fadd
  gpu.func @store_static_stride(%C: memref<?x128xf32>, %row: index,
      %col: index, %x: f32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %acc = hk.fill_fragment %x : !hk.fragment<acc, 64x32xf32, mma = 32x32x16>
    hk.store_fragment %acc, %C[%row, %col] atomic bounds partial
        : !hk.fragment<acc, 64x32xf32, mma = 32x32x16>, memref<?x128xf32>
    gpu.return
  }

  // Rows so far apart that a masked offset plus a row's constant could pass
  // 2^32 (and wrap into range): every element's offset computed on its own,
  // the column's sign bit (one column here) ORed into each.
  // CHECK-LABEL: gpu.func @store_wide_stride
  // CHECK: %[[SIGN:.*]] = arith.andi %{{.*}}, %c-2147483648_i32 : i32
  // CHECK-COUNT-4: arith.ori %{{.*}}, %[[SIGN]] : i32
  // CHECK-NOT: arith.addi %{{.*}}, %c{{[0-9]+}}_i32 : i32
  gpu.func @store_wide_stride(%C: memref<?x268435456xf32>, %row: index,
      %col: index, %x: f32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %acc = hk.fill_fragment %x : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
    hk.store_fragment %acc, %C[%row, %col] atomic bounds partial
        : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>, memref<?x268435456xf32>
    gpu.return
  }

  // A masked offset is the region's offset with bit 31 set, so the bound is
  // the region's largest offset, not a row's constant: rows 2^26 floats
  // apart pass the latter (3 rows of a lane's elements) but not the former
  // (16 rows), and every element is computed on its own.
  // CHECK-LABEL: gpu.func @store_region_wrap
  // CHECK: %[[SIGN:.*]] = arith.andi %{{.*}}, %c-2147483648_i32 : i32
  // CHECK-COUNT-4: arith.ori %{{.*}}, %[[SIGN]] : i32
  // CHECK-NOT: arith.addi %{{.*}}, %c{{[0-9]+}}_i32 : i32
  gpu.func @store_region_wrap(%C: memref<?x67108864xf32>, %row: index,
      %col: index, %x: f32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %acc = hk.fill_fragment %x : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
    hk.store_fragment %acc, %C[%row, %col] atomic bounds partial
        : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>, memref<?x67108864xf32>
    gpu.return
  }
}

// gfx1201 (wave32, one SGPR per compare's mask) keeps the compare and the
// select of 0x80000000.
gpu.module @bounds_gfx1201 [#rocdl.target<chip = "gfx1201">] {
  // CHECK-LABEL: gpu.func @chunks_gfx1201
  // CHECK: %[[IN:.*]] = arith.cmpi sle, %{{.*}}, %{{.*}} : i32
  // CHECK: %[[OFF:.*]] = arith.select %[[IN]], %{{.*}}, %c-2147483648_i32 : i32
  // CHECK: rocdl.raw.ptr.buffer.load %{{.*}}, %[[OFF]], %{{.*}}, %{{.*}} : vector<4xi32>
  // CHECK-NOT: arith.ori
  // CHECK: gpu.return
  gpu.func @chunks_gfx1201(%A: memref<?x?xbf16>, %row: index, %col: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    hk.copy_to_shared %A[%row, %col], %t[%c0] bounds partial_chunks
        : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    gpu.return
  }
}
