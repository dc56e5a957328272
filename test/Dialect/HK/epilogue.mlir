// hk.read_fragment and hk.map, the ops of a GEMM epilogue: custom and
// generic forms round-trip.
// RUN: hk-opt %s | hk-opt | FileCheck %s
// RUN: hk-opt %s -mlir-print-op-generic | hk-opt | FileCheck %s

// CHECK-LABEL: gpu.func @epilogue
gpu.module @epilogue [#rocdl.target<chip = "gfx950">] {
  gpu.func @epilogue(%C: memref<?x?xbf16, strided<[?, 1], offset: ?>>,
                     %bias: memref<?xf32>, %alpha: f32, %beta: f32,
                     %m: index, %n: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %zero = arith.constant 0.0 : f32
    %acc = hk.fill_fragment %zero : !hk.fragment<acc, 32x32xf32, mma = 16x16x32>
    // CHECK: hk.read_fragment %{{.*}}[%{{.*}}, %{{.*}}] bounds partial : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> <acc, 32x32xf32, mma = 16x16x32>
    %c = hk.read_fragment %C[%m, %n] bounds partial
        : memref<?x?xbf16, strided<[?, 1], offset: ?>>
        -> !hk.fragment<acc, 32x32xf32, mma = 16x16x32>
    // CHECK: hk.read_fragment %{{.*}}[%{{.*}}] : memref<?xf32> -> <acc, 32x32xf32, mma = 16x16x32>
    %b = hk.read_fragment %bias[%n]
        : memref<?xf32> -> !hk.fragment<acc, 32x32xf32, mma = 16x16x32>
    // CHECK: hk.map %{{.*}}, %{{.*}}, %{{.*}} : !hk.fragment<acc, 32x32xf32, mma = 16x16x32>, !hk.fragment<acc, 32x32xf32, mma = 16x16x32>, !hk.fragment<acc, 32x32xf32, mma = 16x16x32> -> <acc, 32x32xf32, mma = 16x16x32> {
    // CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
    // CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
    // CHECK: hk.yield %{{.*}} : f32
    %d = hk.map %acc, %c, %b
        : !hk.fragment<acc, 32x32xf32, mma = 16x16x32>,
          !hk.fragment<acc, 32x32xf32, mma = 16x16x32>,
          !hk.fragment<acc, 32x32xf32, mma = 16x16x32>
        -> !hk.fragment<acc, 32x32xf32, mma = 16x16x32> {
    ^bb0(%x: f32, %y: f32, %z: f32):
      %ax = arith.mulf %alpha, %x : f32
      %by = arith.mulf %beta, %y : f32
      %s = arith.addf %ax, %by : f32
      %r = arith.addf %s, %z : f32
      hk.yield %r : f32
    }
    hk.store_fragment %d, %C[%m, %n] bounds partial
        : !hk.fragment<acc, 32x32xf32, mma = 16x16x32>, memref<?x?xbf16, strided<[?, 1], offset: ?>>
    gpu.return
  }
}
