// Every hk op, type and attribute survives print -> parse, in the custom and
// in the generic form.
// RUN: hk-opt %s | hk-opt | FileCheck %s
// RUN: hk-opt %s -mlir-print-op-generic | hk-opt | FileCheck %s

// CHECK-LABEL: func.func @attributes
// CHECK-SAME: c0 = #hk.chip<gfx950>
// CHECK-SAME: c1 = #hk.chip<gfx1201>
// CHECK-SAME: p0 = #hk.col_perm<identity>
// CHECK-SAME: p1 = #hk.col_perm<block4_0213>
// CHECK-SAME: s0 = #hk.swizzle<none>
// CHECK-SAME: s1 = #hk.swizzle<st_16x16>
// CHECK-SAME: s2 = #hk.swizzle<st_16x32>
// CHECK-SAME: s3 = #hk.swizzle<st_32x16>
// CHECK-SAME: s4 = #hk.swizzle<st_32x32>
func.func @attributes() attributes {
    c0 = #hk.chip<gfx950>, c1 = #hk.chip<gfx1201>,
    p0 = #hk.col_perm<identity>, p1 = #hk.col_perm<block4_0213>,
    s0 = #hk.swizzle<none>, s1 = #hk.swizzle<st_16x16>,
    s2 = #hk.swizzle<st_16x32>, s3 = #hk.swizzle<st_32x16>,
    s4 = #hk.swizzle<st_32x32>} {
  return
}

// CHECK-LABEL: func.func @types
// CHECK-SAME: !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
// CHECK-SAME: !hk.shared_tile<128x64xf16, #hk.swizzle<st_16x32>, #hk.col_perm<block4_0213>, slots = 2>
// CHECK-SAME: !hk.shared_tile<32x32xf32, #hk.swizzle<none>, slots = 3>
// CHECK-SAME: !hk.fragment<a, 128x32xbf16, mma = 16x16x32>
// CHECK-SAME: !hk.fragment<b, 16x16xf16, mma = 16x16x16>
// CHECK-SAME: !hk.fragment<acc, 32x16xf32, mma = 16x16x16>
func.func @types(
    %t0: !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>,
    %t1: !hk.shared_tile<128x64xf16, #hk.swizzle<st_16x32>, #hk.col_perm<block4_0213>, slots = 2>,
    // Default values are not printed.
    %t2: !hk.shared_tile<32x32xf32, #hk.swizzle<none>, #hk.col_perm<identity>, slots = 3>,
    %f0: !hk.fragment<a, 128x32xbf16, mma = 16x16x32>,
    %f1: !hk.fragment<b, 16x16xf16, mma = 16x16x16>,
    %f2: !hk.fragment<acc, 32x16xf32, mma = 16x16x16>) {
  return
}

// The ops of a gfx950 kernel.
module attributes {hk.chip = #hk.chip<gfx950>} {
  // CHECK-LABEL: func.func @gfx950_ops
  // CHECK-SAME: (%[[A:.*]]: memref<?x?xbf16>, %[[C:.*]]: memref<256x256xbf16>, %[[I:.*]]: index)
  func.func @gfx950_ops(%A: memref<?x?xbf16>, %C: memref<256x256xbf16>, %i: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    // CHECK: %[[T:.*]] = hk.alloc_shared : <256x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    %t = hk.alloc_shared : !hk.shared_tile<256x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    // CHECK: hk.copy_to_shared %[[A]][%[[I]], %{{.*}}], %[[T]][%{{.*}}] : memref<?x?xbf16>, <256x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    hk.copy_to_shared %A[%i, %c0], %t[%c1]
        : memref<?x?xbf16>, !hk.shared_tile<256x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    // CHECK: hk.copy_to_shared %[[A]][%{{.*}}, %{{.*}}], %[[T]][%{{.*}}] direct : memref<?x?xbf16>
    hk.copy_to_shared %A[%c0, %c0], %t[%c0] direct
        : memref<?x?xbf16>, !hk.shared_tile<256x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    // CHECK: %[[FA:.*]] = hk.load_fragment %[[T]][%{{.*}}] [%[[I]], %{{.*}}] : <256x64xbf16, #hk.swizzle<st_16x32>, slots = 2> -> <a, 128x32xbf16, mma = 16x16x32>
    %a = hk.load_fragment %t[%c1][%i, %c0]
        : !hk.shared_tile<256x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
        -> !hk.fragment<a, 128x32xbf16, mma = 16x16x32>
    // CHECK: %[[FB:.*]] = hk.load_fragment {{.*}} -> <b, 64x32xbf16, mma = 16x16x32>
    %b = hk.load_fragment %t[%c0][%c0, %c0]
        : !hk.shared_tile<256x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
        -> !hk.fragment<b, 64x32xbf16, mma = 16x16x32>
    // CHECK: %[[Z:.*]] = hk.fill_fragment %{{.*}} : <acc, 128x64xf32, mma = 16x16x32>
    %acc = hk.fill_fragment %zero : !hk.fragment<acc, 128x64xf32, mma = 16x16x32>
    // CHECK: %[[R:.*]] = hk.mma %[[FA]], %[[FB]], %[[Z]] : <a, 128x32xbf16, mma = 16x16x32>, <b, 64x32xbf16, mma = 16x16x32>, <acc, 128x64xf32, mma = 16x16x32>
    %r = hk.mma %a, %b, %acc
        : !hk.fragment<a, 128x32xbf16, mma = 16x16x32>,
          !hk.fragment<b, 64x32xbf16, mma = 16x16x32>,
          !hk.fragment<acc, 128x64xf32, mma = 16x16x32>
    // CHECK: hk.store_fragment %[[R]], %[[C]][%{{.*}}, %{{.*}}] : <acc, 128x64xf32, mma = 16x16x32>, memref<256x256xbf16>
    hk.store_fragment %r, %C[%c0, %c0]
        : !hk.fragment<acc, 128x64xf32, mma = 16x16x32>, memref<256x256xbf16>
    // CHECK: %[[P:.*]] = hk.to_operand %[[R]] : <acc, 128x64xf32, mma = 16x16x32> -> <b, 64x128xbf16, mma = 16x16x32, k = acc>
    %p = hk.to_operand %r
        : !hk.fragment<acc, 128x64xf32, mma = 16x16x32>
        -> !hk.fragment<b, 64x128xbf16, mma = 16x16x32, k = acc>
    return
  }
  // Block scales arranged two fragments at a time.
  // CHECK-LABEL: func.func @gfx950_scales
  func.func @gfx950_scales(%sa: !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>,
                           %sb: !hk.fragment<scale, 32x4xf8E8M0FNU, mma = 16x16x128>) {
    // CHECK: %{{.*}}:2 = hk.to_operand %{{.*}}, %{{.*}} : <scale, 64x4xf8E8M0FNU, mma = 16x16x128>, <scale, 32x4xf8E8M0FNU, mma = 16x16x128> -> <scale_mma, 64x4xf8E8M0FNU, mma = 16x16x128>, <scale_mma, 32x4xf8E8M0FNU, mma = 16x16x128>
    %ta, %tb = hk.to_operand %sa, %sb
        : !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>,
          !hk.fragment<scale, 32x4xf8E8M0FNU, mma = 16x16x128>
        -> !hk.fragment<scale_mma, 64x4xf8E8M0FNU, mma = 16x16x128>,
           !hk.fragment<scale_mma, 32x4xf8E8M0FNU, mma = 16x16x128>
    return
  }
}

// The ops of a gfx1201 kernel, whose chip comes from the gpu.module target.
// CHECK-LABEL: gpu.module @gfx1201 [#rocdl.target<chip = "gfx1201">]
gpu.module @gfx1201 [#rocdl.target<chip = "gfx1201">] {
  // CHECK: gpu.func @gfx1201_ops
  gpu.func @gfx1201_ops(%A: memref<?x?xf16>, %C: memref<?x?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    // CHECK: hk.alloc_shared : <128x64xf16, #hk.swizzle<st_16x32>, #hk.col_perm<block4_0213>>
    %t = hk.alloc_shared : !hk.shared_tile<128x64xf16, #hk.swizzle<st_16x32>, #hk.col_perm<block4_0213>>
    // CHECK: hk.copy_to_shared
    hk.copy_to_shared %A[%c0, %c0], %t[%c0]
        : memref<?x?xf16>, !hk.shared_tile<128x64xf16, #hk.swizzle<st_16x32>, #hk.col_perm<block4_0213>>
    // CHECK: hk.load_fragment {{.*}} -> <a, 64x16xf16, mma = 16x16x16>
    %a = hk.load_fragment %t[%c0][%c0, %c0]
        : !hk.shared_tile<128x64xf16, #hk.swizzle<st_16x32>, #hk.col_perm<block4_0213>>
        -> !hk.fragment<a, 64x16xf16, mma = 16x16x16>
    // CHECK: hk.load_fragment {{.*}} -> <b, 32x16xf16, mma = 16x16x16>
    %b = hk.load_fragment %t[%c0][%c0, %c0]
        : !hk.shared_tile<128x64xf16, #hk.swizzle<st_16x32>, #hk.col_perm<block4_0213>>
        -> !hk.fragment<b, 32x16xf16, mma = 16x16x16>
    // CHECK: hk.fill_fragment {{.*}} : <acc, 64x32xf32, mma = 16x16x16>
    %acc = hk.fill_fragment %zero : !hk.fragment<acc, 64x32xf32, mma = 16x16x16>
    // CHECK: hk.mma
    %r = hk.mma %a, %b, %acc
        : !hk.fragment<a, 64x16xf16, mma = 16x16x16>,
          !hk.fragment<b, 32x16xf16, mma = 16x16x16>,
          !hk.fragment<acc, 64x32xf32, mma = 16x16x16>
    // CHECK: hk.store_fragment {{.*}} : <acc, 64x32xf32, mma = 16x16x16>, memref<?x?xf32>
    hk.store_fragment %r, %C[%c0, %c0]
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x16>, memref<?x?xf32>
    gpu.return
  }
}

// Without any chip, only the chip-independent rules apply.
// CHECK-LABEL: func.func @no_chip
func.func @no_chip(%A: memref<64x64xbf16>) {
  %c0 = arith.constant 0 : index
  // CHECK: hk.alloc_shared : <64x64xbf16, #hk.swizzle<st_32x32>>
  %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_32x32>>
  // CHECK: hk.copy_to_shared
  hk.copy_to_shared %A[%c0, %c0], %t[%c0]
      : memref<64x64xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_32x32>>
  return
}

// Run-k operands: k in the order of each lane's run, both operands alike.
// CHECK-LABEL: func.func @run_k
func.func @run_k(%t: !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>,
                 %acc: !hk.fragment<acc, 32x16xf32, mma = 16x16x16>)
    -> !hk.fragment<acc, 32x16xf32, mma = 16x16x16> {
  %c0 = arith.constant 0 : index
  // CHECK: hk.load_fragment {{.*}} -> <a, 32x64xbf16, mma = 16x16x16, k = run>
  %a = hk.load_fragment %t[%c0][%c0, %c0]
      : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
      -> !hk.fragment<a, 32x64xbf16, mma = 16x16x16, k = run>
  // CHECK: hk.load_fragment {{.*}} -> <b, 16x64xbf16, mma = 16x16x16, k = run>
  %b = hk.load_fragment %t[%c0][%c0, %c0]
      : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
      -> !hk.fragment<b, 16x64xbf16, mma = 16x16x16, k = run>
  // CHECK: hk.mma {{.*}} : <a, 32x64xbf16, mma = 16x16x16, k = run>, <b, 16x64xbf16, mma = 16x16x16, k = run>, <acc, 32x16xf32, mma = 16x16x16>
  %d = hk.mma %a, %b, %acc
      : !hk.fragment<a, 32x64xbf16, mma = 16x16x16, k = run>,
        !hk.fragment<b, 16x64xbf16, mma = 16x16x16, k = run>,
        !hk.fragment<acc, 32x16xf32, mma = 16x16x16>
  return %d : !hk.fragment<acc, 32x16xf32, mma = 16x16x16>
}

// The MMA's own k order is the default, and not printed.
// CHECK-LABEL: func.func private @default_k_order
// CHECK-SAME: (!hk.fragment<a, 16x32xbf16, mma = 16x16x32>, !hk.fragment<b, 16x32xbf16, mma = 16x16x32, k = acc>)
func.func private @default_k_order(!hk.fragment<a, 16x32xbf16, mma = 16x16x32, k = mma>,
                                   !hk.fragment<b, 16x32xbf16, mma = 16x16x32, k = acc>)
