// The register-tile algebra: row and column vectors, hk.reduce, hk.map
// with broadcasts and conversions, hk.mask. Round trip.
// RUN: hk-opt %s | hk-opt | FileCheck %s

// CHECK-LABEL: func.func @algebra
// CHECK: hk.reduce max %{{.*}} : <acc, 64x32xf32, mma = 16x16x32> -> <col, 1x32xf32, mma = 16x16x32>
// CHECK: hk.reduce sum %{{.*}} : <acc, 64x32xf32, mma = 16x16x32> -> <row, 64x1xf32, mma = 16x16x32>
// CHECK: hk.map %{{.*}}, %{{.*}}, %{{.*}} : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<col, 1x32xf32, mma = 16x16x32>, !hk.fragment<row, 64x1xf32, mma = 16x16x32> -> <acc, 64x32xf32, mma = 16x16x32>
// CHECK: math.exp2
// CHECK: hk.mask %{{.*}}, %{{.*}} at[%{{.*}}, %{{.*}}] : <acc, 64x32xf32, mma = 16x16x32> {
// CHECK: arith.cmpi ule
// CHECK: hk.yield %{{.*}} : i1
// CHECK: -> <acc, 64x32xbf16, mma = 16x16x32>
func.func @algebra(%s: !hk.fragment<acc, 64x32xf32, mma = 16x16x32>,
                   %r: index, %c: index, %fill: f32)
    -> !hk.fragment<acc, 64x32xbf16, mma = 16x16x32> {
  %m = hk.reduce max %s
      : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      -> !hk.fragment<col, 1x32xf32, mma = 16x16x32>
  %l = hk.reduce sum %s
      : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      -> !hk.fragment<row, 64x1xf32, mma = 16x16x32>
  %p = hk.map %s, %m, %l
      : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>,
        !hk.fragment<col, 1x32xf32, mma = 16x16x32>,
        !hk.fragment<row, 64x1xf32, mma = 16x16x32>
      -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32> {
  ^bb0(%x: f32, %mx: f32, %sum: f32):
    %d = arith.subf %x, %mx : f32
    %e = math.exp2 %d : f32
    %y = arith.mulf %e, %sum : f32
    hk.yield %y : f32
  }
  %q = hk.mask %p, %fill at [%r, %c] : !hk.fragment<acc, 64x32xf32, mma = 16x16x32> {
  ^bb0(%i: index, %j: index):
    %keep = arith.cmpi ule, %i, %j : index
    hk.yield %keep : i1
  }
  %h = hk.map %q : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      -> !hk.fragment<acc, 64x32xbf16, mma = 16x16x32> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    hk.yield %t : bf16
  }
  return %h : !hk.fragment<acc, 64x32xbf16, mma = 16x16x32>
}

// A per-row vector on its own: rows of 16, one value per row.
// CHECK-LABEL: func.func private @vectors
// CHECK-SAME: !hk.fragment<row, 32x1xf32, mma = 16x16x16>
// CHECK-SAME: !hk.fragment<col, 1x48xf32, mma = 16x16x16>
func.func private @vectors(!hk.fragment<row, 32x1xf32, mma = 16x16x16>,
                           !hk.fragment<col, 1x48xf32, mma = 16x16x16>)

// A wave-wide vote over two column vectors.
// CHECK-LABEL: func.func @vote
// CHECK: %[[ANY:.*]] = hk.any %{{.*}}, %{{.*}} : !hk.fragment<col, 1x32xf32, mma = 16x16x32>, !hk.fragment<col, 1x32xf32, mma = 16x16x32> {
// CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK: hk.yield %{{.*}} : i1
// CHECK: return %[[ANY]] : i1
func.func @vote(%t: !hk.fragment<col, 1x32xf32, mma = 16x16x32>,
                %m: !hk.fragment<col, 1x32xf32, mma = 16x16x32>,
                %limit: f32) -> i1 {
  %any = hk.any %t, %m
      : !hk.fragment<col, 1x32xf32, mma = 16x16x32>,
        !hk.fragment<col, 1x32xf32, mma = 16x16x32> {
  ^bb0(%a: f32, %b: f32):
    %d = arith.subf %a, %b : f32
    %big = arith.cmpf ugt, %d, %limit : f32
    hk.yield %big : i1
  }
  return %any : i1
}
