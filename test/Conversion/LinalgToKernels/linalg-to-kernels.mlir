// RUN: hk-opt --hk-linalg-to-kernels=chip=gfx950 %s | FileCheck %s
// RUN: hk-opt --hk-linalg-to-kernels=chip=gfx1201 %s | FileCheck %s --check-prefix=GFX1201
// RUN: hk-opt --hk-linalg-to-kernels=chip=gfx950 --verify-diagnostics --split-input-file %S/Inputs/left-alone.mlir
// RUN: not hk-opt --hk-linalg-to-kernels=chip=gfx90a %s 2>&1 | FileCheck %s --check-prefix=CHIP

// CHIP: for the --chip option: Cannot find option named 'gfx90a'!

#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
#row = affine_map<(m, n) -> (n)>
#id = affine_map<(m, n) -> (m, n)>

// CHECK: module attributes {gpu.container_module}

// The matmul into zeros: the grid from hk.launch (C's columns and rows by
// the 256x256 tile, rounded up), the block from known_block_size, the
// static memrefs cast to the kernel's dynamic ones. The fill stays.
// CHECK-LABEL: func.func @static_nt
// CHECK: linalg.fill
// CHECK-NOT: linalg.matmul
// CHECK-DAG: %[[A:.*]] = memref.cast %arg0 : memref<300x64xbf16> to memref<?x?xbf16>
// CHECK-DAG: %[[B:.*]] = memref.cast %arg1 : memref<200x64xbf16> to memref<?x?xbf16>
// CHECK-DAG: %[[C:.*]] = memref.cast %arg2 : memref<300x200xbf16> to memref<?x?xbf16>
// CHECK-DAG: %[[N:.*]] = memref.dim %[[C]], %c1
// CHECK-DAG: %[[GX:.*]] = arith.ceildivui %[[N]], %c256
// CHECK-DAG: %[[M:.*]] = memref.dim %[[C]], %c0
// CHECK-DAG: %[[GY:.*]] = arith.ceildivui %[[M]], %c256
// CHECK: gpu.launch_func @[[MOD:hk_gemm]]::@gemm_bf16_nt blocks in (%[[GX]], %[[GY]], %{{.*}}) threads in (%c512, %{{.*}}, %{{.*}}) args(%[[A]] : memref<?x?xbf16>, %[[B]] : memref<?x?xbf16>, %[[C]] : memref<?x?xbf16>)
// CHECK-NEXT: return
// GFX1201-LABEL: func.func @static_nt
// GFX1201: arith.ceildivui %{{.*}}, %c128
// GFX1201: gpu.launch_func @hk_gemm::@gemm_bf16_nt {{.*}} threads in (%c256,
func.func @static_nt(%A: memref<300x64xbf16>, %B: memref<200x64xbf16>, %C: memref<300x200xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<300x200xbf16>)
  linalg.matmul indexing_maps = [#a, #bt, #c]
      ins(%A, %B : memref<300x64xbf16>, memref<200x64xbf16>) outs(%C : memref<300x200xbf16>)
  return
}

// The same description again: the same kernel, launched twice.
// CHECK-LABEL: func.func @again
// CHECK: gpu.launch_func @hk_gemm::@gemm_bf16_nt
func.func @again(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<?x?xbf16>)
  linalg.matmul indexing_maps = [#a, #bt, #c]
      ins(%A, %B : memref<?x?xbf16>, memref<?x?xbf16>) outs(%C : memref<?x?xbf16>)
  return
}

// Accumulating (no zero fill) with the default maps (B K x N): nn, alpha = 1
// and beta = 1.
// CHECK-LABEL: func.func @accumulate
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: gpu.launch_func @{{.*}}::@gemm_bf16_nn_alpha_beta {{.*}} args(%arg0 : memref<?x?xbf16>, %arg1 : memref<?x?xbf16>, %arg2 : memref<?x?xbf16>, %[[ONE]] : f32, %[[ONE]] : f32)
func.func @accumulate(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xbf16>) {
  linalg.matmul ins(%A, %B : memref<?x?xbf16>, memref<?x?xbf16>) outs(%C : memref<?x?xbf16>)
  return
}

// A scale and a bias after a zero fill: alpha = s, beta = 0, and the bias;
// both generics are folded into the kernel.
// CHECK-LABEL: func.func @scaled_bias
// CHECK: linalg.fill
// CHECK-DAG: %[[BIAS:.*]] = memref.cast %arg3 : memref<200xf32> to memref<?xf32>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: gpu.launch_func @{{.*}}::@gemm_bf16_cf32_nt_alpha_beta_bias {{.*}} args({{.*}}, %[[BIAS]] : memref<?xf32>, %arg4 : f32, %[[ZERO]] : f32)
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @scaled_bias(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x200xf32>, %bias: memref<200xf32>, %s: f32) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<?x200xf32>)
  linalg.matmul indexing_maps = [#a, #bt, #c]
      ins(%A, %B : memref<?x?xbf16>, memref<?x?xbf16>) outs(%C : memref<?x200xf32>)
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%C : memref<?x200xf32>) {
  ^bb0(%y: f32):
    %m = arith.mulf %y, %s : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<200xf32>) outs(%C : memref<?x200xf32>) {
  ^bb0(%x: f32, %y: f32):
    %a = arith.addf %y, %x : f32
    linalg.yield %a : f32
  }
  return
}

// A generic the pass does not recognise (a product with the bias) stays,
// after the launch.
// CHECK-LABEL: func.func @other_generic
// CHECK: gpu.launch_func @{{.*}}::@gemm_bf16_nt
// CHECK-NEXT: linalg.generic
func.func @other_generic(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xbf16>, %bias: memref<?xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<?x?xbf16>)
  linalg.matmul indexing_maps = [#a, #bt, #c]
      ins(%A, %B : memref<?x?xbf16>, memref<?x?xbf16>) outs(%C : memref<?x?xbf16>)
  linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<?xbf16>) outs(%C : memref<?x?xbf16>) {
  ^bb0(%x: bf16, %y: bf16):
    %a = arith.mulf %y, %x : bf16
    linalg.yield %a : bf16
  }
  return
}

// The outlined kernels: one gpu.module each, built for the chip.
// CHECK: gpu.module @hk_gemm [#rocdl.target<chip = "gfx950">]
// CHECK-NEXT: gpu.func @gemm_bf16_nt(
// CHECK-SAME: known_block_size = array<i32: 512, 1, 1>
// CHECK: gpu.module @hk_gemm_0
// CHECK-NEXT: gpu.func @gemm_bf16_nn_alpha_beta(
// CHECK: gpu.module @hk_gemm_1
// CHECK-NEXT: gpu.func @gemm_bf16_cf32_nt_alpha_beta_bias(
// CHECK-NOT: gpu.module
