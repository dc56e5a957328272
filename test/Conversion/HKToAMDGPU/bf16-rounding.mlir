// f32 -> bf16 truncations said to be free of NaNs (`fastmath<nnan>`) are
// rounded to nearest even with integer arithmetic on gfx1201, which has no
// bf16 conversion instruction (LLVM's own expansion adds a NaN check per
// element); without the flag, and on gfx950 (v_cvt_pk_bf16_f32), they stay
// arith.truncf. A truncation with a rounding mode, for which the AMDGPU
// backend has no lowering, is rounded with integer arithmetic on every chip
// and in modules without hk ops, with a NaN check unless `nnan`.
// RUN: hk-opt %s --split-input-file --convert-hk-to-amdgpu --canonicalize --cse | FileCheck %s

// CHECK-LABEL: gpu.module @gfx1201
// CHECK-LABEL: gpu.func @nan_free
// CHECK-NOT: arith.truncf
// CHECK: %[[BITS:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK: %[[HALF:.*]] = arith.shrui %[[BITS]], %c16_i32 : i32
// CHECK: %[[LSB:.*]] = arith.andi %[[HALF]], %c1_i32 : i32
// CHECK: %[[SUM:.*]] = arith.addi %[[BITS]], %[[LSB]] : i32
// CHECK: %[[ROUNDED:.*]] = arith.addi %[[SUM]], %c32767_i32 : i32
// CHECK: %[[HIGH:.*]] = arith.shrui %[[ROUNDED]], %c16_i32 : i32
// CHECK: %[[NARROW:.*]] = arith.trunci %[[HIGH]] : i32 to i16
// CHECK: arith.bitcast %[[NARROW]] : i16 to bf16
// CHECK-NOT: arith.truncf
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @may_be_nan
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK-LABEL: gpu.module @gfx950
// CHECK-LABEL: gpu.func @nan_free
// CHECK: arith.truncf %{{.*}} fastmath<nnan> : f32 to bf16
// CHECK-NOT: arith.shrui
// CHECK-LABEL: gpu.func @nearest_away
// CHECK-NOT: arith.truncf
// CHECK: %[[BITS:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK: %[[ROUNDED:.*]] = arith.addi %[[BITS]], %c32768_i32 : i32
// CHECK: %[[HIGH:.*]] = arith.shrui %[[ROUNDED]], %c16_i32 : i32
// CHECK: %[[NARROW:.*]] = arith.trunci %[[HIGH]] : i32 to i16
// CHECK: arith.bitcast %[[NARROW]] : i16 to bf16
// CHECK-NOT: arith.cmpf
// CHECK: gpu.return

gpu.module @gfx1201 [#rocdl.target<chip = "gfx1201">] {
  gpu.func @nan_free(%x: !hk.fragment<acc, 16x16xf32, mma = 16x16x16>)
      -> !hk.fragment<acc, 16x16xbf16, mma = 16x16x16> {
    %h = hk.map %x : !hk.fragment<acc, 16x16xf32, mma = 16x16x16>
        -> !hk.fragment<acc, 16x16xbf16, mma = 16x16x16> {
    ^bb0(%e: f32):
      %t = arith.truncf %e fastmath<nnan> : f32 to bf16
      hk.yield %t : bf16
    }
    gpu.return %h : !hk.fragment<acc, 16x16xbf16, mma = 16x16x16>
  }
  gpu.func @may_be_nan(%x: !hk.fragment<acc, 16x16xf32, mma = 16x16x16>)
      -> !hk.fragment<acc, 16x16xbf16, mma = 16x16x16> {
    %h = hk.map %x : !hk.fragment<acc, 16x16xf32, mma = 16x16x16>
        -> !hk.fragment<acc, 16x16xbf16, mma = 16x16x16> {
    ^bb0(%e: f32):
      %t = arith.truncf %e : f32 to bf16
      hk.yield %t : bf16
    }
    gpu.return %h : !hk.fragment<acc, 16x16xbf16, mma = 16x16x16>
  }
}

gpu.module @gfx950 [#rocdl.target<chip = "gfx950">] {
  gpu.func @nan_free(%x: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>)
      -> !hk.fragment<acc, 16x16xbf16, mma = 16x16x32> {
    %h = hk.map %x : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
        -> !hk.fragment<acc, 16x16xbf16, mma = 16x16x32> {
    ^bb0(%e: f32):
      %t = arith.truncf %e fastmath<nnan> : f32 to bf16
      hk.yield %t : bf16
    }
    gpu.return %h : !hk.fragment<acc, 16x16xbf16, mma = 16x16x32>
  }
  gpu.func @nearest_away(%x: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>)
      -> !hk.fragment<acc, 16x16xbf16, mma = 16x16x32> {
    %h = hk.map %x : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
        -> !hk.fragment<acc, 16x16xbf16, mma = 16x16x32> {
    ^bb0(%e: f32):
      %t = arith.truncf %e to_nearest_away fastmath<nnan> : f32 to bf16
      hk.yield %t : bf16
    }
    gpu.return %h : !hk.fragment<acc, 16x16xbf16, mma = 16x16x32>
  }
}

// -----

// No hk op: no chip is needed. Toward zero is the high half; the NaN check
// keeps a NaN's high half with the quiet bit set.
// CHECK-LABEL: gpu.module @no_hk
// CHECK: %[[BITS:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK: %[[HIGH:.*]] = arith.shrui %[[BITS]], %c16_i32 : i32
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %{{.*}}, %{{.*}} : f32
// CHECK: %[[QUIET:.*]] = arith.ori %[[HIGH]], %c64_i32 : i32
// CHECK: %[[PICK:.*]] = arith.select %[[NAN]], %[[QUIET]], %[[HIGH]] : i32
// CHECK: %[[NARROW:.*]] = arith.trunci %[[PICK]] : i32 to i16
// CHECK: arith.bitcast %[[NARROW]] : i16 to bf16
gpu.module @no_hk {
  gpu.func @toward_zero(%x: f32) -> bf16 {
    %t = arith.truncf %x toward_zero : f32 to bf16
    gpu.return %t : bf16
  }
}
