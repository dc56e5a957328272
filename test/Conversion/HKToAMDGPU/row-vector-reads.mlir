// A partial read of a `row` vector (an LSE per query): on gfx950, whose
// buffer loads are range-checked word by word, each lane's run of 4
// consecutive rows is one 16-byte load (8 for 64 rows at 32x32x16); on
// gfx1201, which checks the whole access, one load per row.
// RUN: hk-opt %s --convert-hk-to-amdgpu --canonicalize --cse | FileCheck %s

// CHECK-LABEL: gpu.func @rows_gfx950
// CHECK-COUNT-8: rocdl.raw.ptr.buffer.load {{.*}} : vector<4xf32>
// CHECK-NOT: rocdl.raw.ptr.buffer.load
// CHECK: gpu.return
gpu.module @gfx950 [#rocdl.target<chip = "gfx950">] {
  gpu.func @rows_gfx950(%v: memref<?xf32>, %r: index)
      -> !hk.fragment<row, 64x1xf32, mma = 32x32x16>
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %x = hk.read_fragment %v[%r] bounds partial
        : memref<?xf32> -> !hk.fragment<row, 64x1xf32, mma = 32x32x16>
    gpu.return %x : !hk.fragment<row, 64x1xf32, mma = 32x32x16>
  }
}

// CHECK-LABEL: gpu.func @rows_gfx1201
// CHECK-COUNT-8: rocdl.raw.ptr.buffer.load {{.*}} : f32
// CHECK-NOT: rocdl.raw.ptr.buffer.load
// CHECK: gpu.return
gpu.module @gfx1201 [#rocdl.target<chip = "gfx1201">] {
  gpu.func @rows_gfx1201(%v: memref<?xf32>, %r: index)
      -> !hk.fragment<row, 16x1xf32, mma = 16x16x16>
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %x = hk.read_fragment %v[%r] bounds partial
        : memref<?xf32> -> !hk.fragment<row, 16x1xf32, mma = 16x16x16>
    gpu.return %x : !hk.fragment<row, 16x1xf32, mma = 16x16x16>
  }
}
