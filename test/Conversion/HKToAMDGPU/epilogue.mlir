// hk.read_fragment and hk.map: a partial read is a masked buffer load per
// element (columns and rows masked, so any strides serve), converted to
// f32; a 1-D source is a row read by every row; hk.map clones its body
// once per element of the lane vectors.
// RUN: hk-opt %s --convert-hk-to-amdgpu --canonicalize --cse | FileCheck %s

// CHECK-LABEL: gpu.func @read
// CHECK-SAME: (%[[C:.*]]: memref<?x?xbf16, strided<[?, 1], offset: ?>>, %[[BIAS:.*]]: memref<?xf32>, %{{.*}}: index, %{{.*}}: index, %[[ALPHA:.*]]: f32)
// The region's origin is made scalar, the resource based at its row.
// CHECK: rocdl.readfirstlane
// CHECK: rocdl.readfirstlane
// CHECK: %[[RSRC:.*]] = rocdl.make.buffer.rsrc
// CHECK: %[[ROWS:.*]] = memref.dim %[[C]], %c0
// Each element: the column mask, then the row mask, then the load.
// CHECK: %[[COLSIGN:.*]] = arith.andi %{{.*}}, %c-2147483648_i32
// CHECK: %[[COLMASKED:.*]] = arith.ori %{{.*}}, %[[COLSIGN]]
// CHECK: %[[ROWOK:.*]] = arith.cmpi slt
// CHECK: %[[OFF:.*]] = arith.select %[[ROWOK]], %[[COLMASKED]], %c-2147483648_i32
// CHECK: rocdl.raw.ptr.buffer.load %[[RSRC]], %[[OFF]], %{{.*}}, %c0_i32 : bf16
// CHECK-COUNT-3: rocdl.raw.ptr.buffer.load %[[RSRC]]
// CHECK: %[[BF:.*]] = vector.from_elements %{{.*}} : vector<4xbf16>
// CHECK: %[[F:.*]] = arith.extf %[[BF]] : vector<4xbf16> to vector<4xf32>
// The bias, a row read by every row: the lane's 4 elements share a column.
// CHECK: %[[ROW:.*]] = memref.expand_shape %[[BIAS]] {{\[\[}}0, 1]] output_shape [1, %{{.*}}] : memref<?xf32> into memref<1x?xf32>
// CHECK: %[[B:.*]] = memref.load %[[ROW]][%c0, %{{.*}}] : memref<1x?xf32>
// CHECK-NOT: memref.load
// The map's body, once per element.
// CHECK: %[[X0:.*]] = vector.extract %[[F]][0]
// CHECK: %[[AX0:.*]] = arith.mulf %[[ALPHA]], %[[X0]] : f32
// CHECK: arith.addf %[[AX0]], %[[B]] : f32
// CHECK-COUNT-3: arith.mulf %[[ALPHA]]
// CHECK-NOT: arith.mulf
// CHECK: vector.from_elements %{{.*}} : vector<4xf32>
// CHECK-COUNT-4: rocdl.raw.ptr.buffer.store
gpu.module @gfx950 [#rocdl.target<chip = "gfx950">] {
  gpu.func @read(%C: memref<?x?xbf16, strided<[?, 1], offset: ?>>, %bias: memref<?xf32>,
                 %m: index, %n: index, %alpha: f32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c = hk.read_fragment %C[%m, %n] bounds partial
        : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
    %b = hk.read_fragment %bias[%n]
        : memref<?xf32> -> !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
    %d = hk.map %c, %b : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>, !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
        -> !hk.fragment<acc, 16x16xf32, mma = 16x16x32> {
    ^bb0(%x: f32, %y: f32):
      %ax = arith.mulf %alpha, %x : f32
      %r = arith.addf %ax, %y : f32
      hk.yield %r : f32
    }
    hk.store_fragment %d, %C[%m, %n] bounds partial
        : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>, memref<?x?xbf16, strided<[?, 1], offset: ?>>
    gpu.return
  }
}
