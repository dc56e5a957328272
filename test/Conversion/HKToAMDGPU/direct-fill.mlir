// A direct hk.copy_to_shared (gfx950 only; gfx1201 refuses `direct`, see
// Dialect/HK/invalid.mlir): lane-linear LDS writes from a wave-uniform base,
// each lane fetching the element the swizzle stores at its chunk through a
// raw buffer view of the source (buffer_load ... lds in the backend).
// RUN: hk-opt %s --convert-hk-to-amdgpu --canonicalize | FileCheck %s

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  // CHECK-LABEL: gpu.func @direct
  // CHECK-SAME: (%[[SRC:.*]]: memref<?x?xbf16>, %[[ROW:.*]]: index, %[[COL:.*]]: index)
  gpu.func @direct(%src: memref<?x?xbf16>, %row: index, %col: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    // 512 chunks of 16 bytes, 2 per thread: the wave's base is
    // (it * 256 + wave * 64) * 8 elements, i.e. wave * 512 (+ 2048).
    // CHECK: %[[TID:.*]] = gpu.thread_id x
    // CHECK: %[[WAVE:.*]] = arith.divui %[[TID]], %c64
    // CHECK: %[[BUF:.*]] = amdgpu.fat_raw_buffer_cast %[[SRC]] : memref<?x?xbf16> to memref<?x?xbf16, #amdgpu.address_space<fat_raw_buffer>>
    // CHECK: %[[DST0:.*]] = arith.muli %[[WAVE]], %c512
    // CHECK: amdgpu.gather_to_lds %[[BUF]][%{{.*}}, %{{.*}}], %{{.*}}[%[[DST0]]] : vector<8xbf16>, memref<?x?xbf16, #amdgpu.address_space<fat_raw_buffer>>, memref<4096xbf16, #gpu.address_space<workgroup>>
    // CHECK: amdgpu.gather_to_lds %[[BUF]][%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}] : vector<8xbf16>
    // CHECK-NOT: amdgpu.gather_to_lds
    // CHECK-NOT: amdgpu.fat_raw_buffer_cast
    // CHECK-NOT: vector.store
    hk.copy_to_shared %src[%row, %col], %t[%c0] direct
        : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    // CHECK: gpu.return
    gpu.return
  }
}
