// The register-tile algebra lowered: reductions across lanes in registers
// (gfx950: v_permlane32_swap then v_permlane16_swap for a column, DPP
// within 16 lanes for a row; gfx1201: v_permlanex16 for a column), no LDS;
// math.exp2 as llvm.amdgcn.exp2 (v_exp_f32), not a device-library call;
// hk.mask a select per element on its lane's (row, col).
// RUN: hk-opt %s --convert-hk-to-amdgpu --canonicalize --cse | FileCheck %s --implicit-check-not=math.exp2 --implicit-check-not=memref.load

// A lane's maxima in threes, max(max(a, b), c) (v_maximum3_f32), not in
// pairs: 4 values are max(max(max(e0, e1), e2), e3).
// CHECK-LABEL: gpu.func @column_max
// CHECK: %[[M01:.*]] = arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK: %[[M012:.*]] = arith.maximumf %[[M01]], %{{.*}} : f32
// CHECK: arith.maximumf %[[M012]], %{{.*}} : f32
// CHECK: rocdl.permlane32.swap %{{.*}}, %{{.*}}, false, false : (i32, i32) -> <(i32, i32)>
// CHECK: arith.maximumf
// CHECK: rocdl.permlane16.swap
// CHECK: arith.maximumf
// CHECK-NOT: rocdl.permlane
// CHECK: gpu.return

// CHECK-LABEL: gpu.func @row_sum
// CHECK: amdgpu.dpp %{{.*}} %{{.*}} quad_perm([1 : i32, 0 : i32, 3 : i32, 2 : i32])
// CHECK: amdgpu.dpp %{{.*}} %{{.*}} quad_perm([2 : i32, 3 : i32, 0 : i32, 1 : i32])
// CHECK: amdgpu.dpp %{{.*}} %{{.*}} row_half_mirror
// CHECK: amdgpu.dpp %{{.*}} %{{.*}} row_mirror
// CHECK-NOT: rocdl.permlane

// CHECK-LABEL: gpu.func @softmax_step
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.amdgcn.exp2"(%{{.*}}) : (f32) -> f32
// CHECK-NOT: llvm.call_intrinsic "llvm.amdgcn.exp2"
// The mask's key rows: the lane's first element's once, the others it plus
// a constant (not a lane offset per element, which LLVM would hoist out of
// a loop into a register each).
// CHECK: %[[ROW:.*]] = arith.muli %{{.*}}, %c4 : index
// CHECK: %[[QUERY:.*]] = arith.addi %arg2, %{{.*}} : index
// CHECK: arith.cmpi ule, %[[ROW]], %[[QUERY]] : index
// CHECK: arith.select
// CHECK: %[[ROW1:.*]] = arith.addi %[[ROW]], %c1 : index
// CHECK: arith.cmpi ule, %[[ROW1]], %[[QUERY]] : index
// CHECK: %[[ROW3:.*]] = arith.addi %[[ROW]], %c3 : index
// CHECK: arith.cmpi ule, %[[ROW3]], %[[QUERY]] : index

// CHECK-LABEL: gpu.func @p_as_operand
// Two 16-row accumulator fragments of a column block make one B fragment.
// CHECK: %[[P:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15] : vector<16xf32>, vector<16xf32>
// CHECK: arith.truncf %[[P]] : vector<16xf32> to vector<16xbf16>
// CHECK-NOT: memref
// CHECK: gpu.return

// hk.any: the lane's two elements or-ed, one ballot over the 64 lanes.
// CHECK-LABEL: gpu.func @vote
// CHECK-COUNT-2: arith.cmpf ugt
// CHECK: %[[EITHER:.*]] = arith.ori
// CHECK: %[[LANES:.*]] = rocdl.ballot %[[EITHER]] : i64
// CHECK: %[[ANY:.*]] = arith.cmpi ne, %[[LANES]], %c0_i64 : i64
// CHECK-NOT: rocdl.permlane
// CHECK: gpu.return %[[ANY]]

// CHECK-LABEL: gpu.module @gfx1201
// permlanex16 reads inactive lanes too (fi), so its `old` is poison.
// CHECK: %[[OLD:.*]] = llvm.mlir.poison : f32
// CHECK: rocdl.permlanex16 %[[OLD]], %{{.*}}, %{{.*}}, %{{.*}}, true, false : f32, i32
// CHECK-NOT: rocdl.permlane
// On wave32 the ballot is 32 bits wide.
// CHECK-LABEL: gpu.func @vote32
// CHECK: rocdl.ballot %{{.*}} : i32
gpu.module @gfx950 [#rocdl.target<chip = "gfx950">] {
  gpu.func @column_max(%s: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>) -> !hk.fragment<col, 1x16xf32, mma = 16x16x32>
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %m = hk.reduce max %s : !hk.fragment<acc, 16x16xf32, mma = 16x16x32> -> !hk.fragment<col, 1x16xf32, mma = 16x16x32>
    gpu.return %m : !hk.fragment<col, 1x16xf32, mma = 16x16x32>
  }
  gpu.func @row_sum(%s: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>) -> !hk.fragment<row, 16x1xf32, mma = 16x16x32>
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %m = hk.reduce sum %s : !hk.fragment<acc, 16x16xf32, mma = 16x16x32> -> !hk.fragment<row, 16x1xf32, mma = 16x16x32>
    gpu.return %m : !hk.fragment<row, 16x1xf32, mma = 16x16x32>
  }
  gpu.func @softmax_step(%s: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>,
                         %m: !hk.fragment<col, 1x16xf32, mma = 16x16x32>,
                         %q0: index, %ninf: f32) -> !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %p = hk.map %s, %m : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>, !hk.fragment<col, 1x16xf32, mma = 16x16x32> -> !hk.fragment<acc, 16x16xf32, mma = 16x16x32> {
    ^bb0(%x: f32, %mx: f32):
      %d = arith.subf %x, %mx : f32
      %e = math.exp2 %d : f32
      hk.yield %e : f32
    }
    %q = hk.mask %p, %ninf at [%c0, %q0] : !hk.fragment<acc, 16x16xf32, mma = 16x16x32> {
    ^bb0(%kv: index, %qq: index):
      %keep = arith.cmpi ule, %kv, %qq : index
      hk.yield %keep : i1
    }
    gpu.return %q : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
  }
  gpu.func @p_as_operand(%s: !hk.fragment<acc, 32x32xf32, mma = 16x16x32>) -> !hk.fragment<b, 32x32xbf16, mma = 16x16x32, k = acc>
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %p = hk.to_operand %s : !hk.fragment<acc, 32x32xf32, mma = 16x16x32> -> !hk.fragment<b, 32x32xbf16, mma = 16x16x32, k = acc>
    gpu.return %p : !hk.fragment<b, 32x32xbf16, mma = 16x16x32, k = acc>
  }
  gpu.func @vote(%t: !hk.fragment<col, 1x32xf32, mma = 16x16x32>,
                 %m: !hk.fragment<col, 1x32xf32, mma = 16x16x32>,
                 %limit: f32) -> i1
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %any = hk.any %t, %m : !hk.fragment<col, 1x32xf32, mma = 16x16x32>, !hk.fragment<col, 1x32xf32, mma = 16x16x32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      %big = arith.cmpf ugt, %d, %limit : f32
      hk.yield %big : i1
    }
    gpu.return %any : i1
  }
}
gpu.module @gfx1201 [#rocdl.target<chip = "gfx1201">] {
  gpu.func @column_sum(%s: !hk.fragment<acc, 16x16xf32, mma = 16x16x16>) -> !hk.fragment<col, 1x16xf32, mma = 16x16x16>
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %m = hk.reduce sum %s : !hk.fragment<acc, 16x16xf32, mma = 16x16x16> -> !hk.fragment<col, 1x16xf32, mma = 16x16x16>
    gpu.return %m : !hk.fragment<col, 1x16xf32, mma = 16x16x16>
  }
  gpu.func @vote32(%t: !hk.fragment<col, 1x16xf32, mma = 16x16x16>) -> i1
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %zero = arith.constant 0.0 : f32
    %any = hk.any %t : !hk.fragment<col, 1x16xf32, mma = 16x16x16> {
    ^bb0(%a: f32):
      %big = arith.cmpf ogt, %a, %zero : f32
      hk.yield %big : i1
    }
    gpu.return %any : i1
  }
}
