// hk-to-rocdl-pipeline lowers math.sqrt, math.rsqrt (upstream's expansion,
// 1 / sqrt) and arith.divf to llvm.intr.sqrt and llvm.fdiv, which the AMDGPU
// backend expands itself, never to ROCm's device libraries (ocml), which hk
// does not link. An op that would still call them is refused at the op,
// naming the function and the chip.
// RUN: hk-opt %s --split-input-file -verify-diagnostics --hk-to-rocdl-pipeline=chip=gfx950 | FileCheck %s --check-prefix=GFX950
// RUN: hk-opt %s --split-input-file -verify-diagnostics --hk-to-rocdl-pipeline=chip=gfx1201 | FileCheck %s --check-prefix=GFX1201

gpu.module @roots {
  gpu.func @roots(%x: memref<4xf32>, %v: memref<4xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %three = arith.constant 3.0 : f32
    %a = memref.load %x[%c0] : memref<4xf32>
    %s = math.sqrt %a : f32
    %r = math.rsqrt %a : f32
    %q = arith.divf %three, %a : f32
    %sum = arith.addf %s, %r : f32
    %all = arith.addf %sum, %q : f32
    memref.store %all, %x[%c0] : memref<4xf32>
    %b = vector.load %v[%c0] : memref<4xf32>, vector<4xf32>
    %rb = math.rsqrt %b : vector<4xf32>
    vector.store %rb, %v[%c0] : memref<4xf32>, vector<4xf32>
    gpu.return
  }
}
// GFX950-LABEL: llvm.func @roots
// GFX950-DAG: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
// GFX950-DAG: %[[THREE:.*]] = llvm.mlir.constant(3.000000e+00 : f32) : f32
// GFX950: %[[A:.*]] = llvm.load
// GFX950: %[[S:.*]] = llvm.intr.sqrt(%[[A]]) : (f32) -> f32
// GFX950: llvm.fdiv %[[ONE]], %[[S]] : f32
// GFX950: llvm.fdiv %[[THREE]], %[[A]] : f32
// GFX950: %[[SB:.*]] = llvm.intr.sqrt(%{{.*}}) : (vector<4xf32>) -> vector<4xf32>
// GFX950: llvm.fdiv %{{.*}}, %[[SB]] : vector<4xf32>
// GFX950-NOT: ocml
// GFX1201-LABEL: llvm.func @roots
// GFX1201: llvm.intr.sqrt
// GFX1201: llvm.fdiv
// GFX1201-NOT: ocml

// -----

// One error per op, though a vector op calls once per element.
gpu.module @libm {
  gpu.func @libm(%x: memref<4xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %a = vector.load %x[%c0] : memref<4xf32>, vector<2xf32>
    // expected-error-re @+1 {{'math.sin' op lowers to '__ocml_sin_f32' of ROCm's device libraries on gfx{{950|1201}}, which hk does not link}}
    %s = math.sin %a : vector<2xf32>
    // expected-error-re @+1 {{'arith.remf' op lowers to '__ocml_fmod_f32' of ROCm's device libraries on gfx{{950|1201}}, which hk does not link}}
    %m = arith.remf %s, %a : vector<2xf32>
    vector.store %m, %x[%c0] : memref<4xf32>, vector<2xf32>
    gpu.return
  }
}
