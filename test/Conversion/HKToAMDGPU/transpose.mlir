// The transposed forms' lowering: a transposed fragment read is two
// amdgpu.transpose_load (ds_read_b64_tr_b16) per 16x32 fragment, from tile
// row 8 * (lane / 16) + (lane % 16) / 4 (+ 4 for the second) and column
// 4 * (lane % 4); a transposing copy reads 4 source rows of one 16-byte
// chunk and writes 8 runs of 4 elements, at one offset plus constants when
// the swizzle moves the runs' rows together.
// RUN: hk-opt %s --convert-hk-to-amdgpu --canonicalize --cse | FileCheck %s

gpu.module @reads [#rocdl.target<chip = "gfx950">] {
  // CHECK-LABEL: gpu.func @reads
  gpu.func @reads(%row: index, %col: index) -> !hk.fragment<a, 16x64xbf16, mma = 16x16x32>
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x32>>
    // CHECK: %[[TID:.*]] = gpu.thread_id x
    // CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %c64
    // CHECK-DAG: arith.divui %[[LANE]], %c16
    // CHECK-DAG: arith.remui %[[LANE]], %c16
    // Two fragments (k 0-31 and 32-63), two reads each.
    // CHECK-COUNT-4: amdgpu.transpose_load %{{.*}}[%{{.*}}] : memref<8192xbf16, #gpu.address_space<workgroup>> -> vector<4xbf16>
    // CHECK-NOT: vector.load
    %a = hk.load_fragment %t[%c0][%row, %col] transpose
        : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x32>>
        -> !hk.fragment<a, 16x64xbf16, mma = 16x16x32>
    gpu.return %a : !hk.fragment<a, 16x64xbf16, mma = 16x16x32>
  }
}

gpu.module @copies [#rocdl.target<chip = "gfx1201">] {
  // CHECK-LABEL: gpu.func @copy
  gpu.func @copy(%B: memref<?x?xbf16>, %k: index, %n: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
    // 128 x 64 = 256 blocks of 8 x 4: one per thread.
    // CHECK-COUNT-4: rocdl.raw.ptr.buffer.load %{{.*}} : vector<4xi32>
    // CHECK-NOT: rocdl.raw.ptr.buffer.load
    // CHECK-COUNT-8: vector.store %{{.*}} {alignment = 8 : i64} : memref<8192xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
    // CHECK-NOT: vector.store
    hk.copy_to_shared %B[%k, %n], %t[%c0] transpose
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
    gpu.return
  }

  // Copies that follow each other are lowered together (attention's K and
  // V fills): both copies' loads, then each copy's stores behind a wait for
  // its own loads (the 4 of the second still in flight, then none).
  // CHECK-LABEL: gpu.func @grouped
  // CHECK-COUNT-8: rocdl.raw.ptr.buffer.load %{{.*}} : vector<4xi32>
  // CHECK-NOT: vector.store
  // CHECK: amdgpu.memory_counter_wait load(4)
  // CHECK-COUNT-4: vector.store %{{.*}} {alignment = 16 : i64}
  // CHECK-NEXT: amdgpu.memory_counter_wait load(0)
  // CHECK-COUNT-8: vector.store %{{.*}} {alignment = 8 : i64}
  // A copy whose loads are chosen at run time (partial) is lowered alone:
  // its stores wait for their loads one by one, as LLVM places the waits.
  // CHECK: scf.if
  // CHECK-NOT: amdgpu.memory_counter_wait
  // CHECK: gpu.return
  gpu.func @grouped(%K: memref<?x?xbf16>, %V: memref<?x?xbf16>, %k: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %tk = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>>
    %tv = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
    hk.copy_to_shared %K[%k, %c0], %tk[%c0] bounds inside
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>>
    hk.copy_to_shared %V[%k, %c0], %tv[%c0] transpose bounds inside
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
    hk.copy_to_shared %V[%k, %c0], %tv[%c0] transpose bounds partial
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
    gpu.return
  }

  // The same at the edges: masked chunks, or element-wise loads at run time.
  // CHECK-LABEL: gpu.func @partial
  gpu.func @partial(%B: memref<?x?xbf16>, %k: index, %n: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
    // CHECK: scf.if %{{.*}} -> (vector<8xbf16>, vector<8xbf16>, vector<8xbf16>, vector<8xbf16>)
    // CHECK-COUNT-4: rocdl.raw.ptr.buffer.load %{{.*}} : vector<4xi32>
    // CHECK: } else {
    // CHECK-COUNT-32: rocdl.raw.ptr.buffer.load %{{.*}} : i16
    // CHECK: }
    // CHECK-COUNT-8: vector.store
    hk.copy_to_shared %B[%k, %n], %t[%c0] transpose bounds partial
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
    gpu.return
  }

  // A swizzle that moves a run's 8 tile rows together (st_32x16 swaps the
  // two 16-byte chunks of rows 16-31 of each 32: a run starts at a row that
  // is a multiple of 8): the run's stores share its first row's offset,
  // the others it plus a row's 16 elements each, constants the backend
  // folds into the store instead of one address register a row.
  // CHECK-LABEL: gpu.func @copy_steps
  // CHECK: vector.store %{{.*}}, %{{.*}}[%[[FIRST:.*]]] {alignment = 8 : i64}
  // CHECK: arith.addi %[[FIRST]], %c16 : index
  // CHECK: arith.addi %[[FIRST]], %c32 : index
  // CHECK: arith.addi %[[FIRST]], %c48 : index
  // CHECK: arith.addi %[[FIRST]], %c64 : index
  // CHECK: arith.addi %[[FIRST]], %c80 : index
  // CHECK: arith.addi %[[FIRST]], %c96 : index
  // CHECK: arith.addi %[[FIRST]], %c112 : index
  // CHECK-NOT: arith.xori
  // CHECK: gpu.return
  gpu.func @copy_steps(%B: memref<?x?xbf16>, %k: index, %n: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x32xbf16, #hk.swizzle<st_32x16>>
    hk.copy_to_shared %B[%k, %n], %t[%c0] transpose
        : memref<?x?xbf16>, !hk.shared_tile<64x32xbf16, #hk.swizzle<st_32x16>>
    gpu.return
  }
}
