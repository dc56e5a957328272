// RUN: hk-opt --hk-linalg-to-kernels=chip=gfx950 %s | FileCheck %s
// RUN: hk-opt --hk-linalg-to-kernels=chip=gfx950 --verify-diagnostics --split-input-file %S/Inputs/views.mlir

// Which views a kernel serves: those whose type fixes every offset and
// stride the kernel's argument type fixes (the rest are in Inputs/views.mlir,
// left alone with a remark), and the generic and contraction forms of a
// matmul.

#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
#row = affine_map<(m, n) -> (n)>
#id = affine_map<(m, n) -> (m, n)>

// A strided layout that is row-major and contiguous by its type is cast.
// CHECK-LABEL: func.func @static_contiguous
// CHECK: %[[A:.*]] = memref.cast %arg0 : memref<128x64xbf16, strided<[64, 1]>> to memref<?x?xbf16>
// CHECK: gpu.launch_func @{{.*}}::@gemm_bf16_cf32_nt_alpha_beta {{.*}} args(%[[A]] : memref<?x?xbf16>
func.func @static_contiguous(%A: memref<128x64xbf16, strided<[64, 1]>>, %B: memref<256x64xbf16>, %C: memref<128x256xf32>) {
  linalg.matmul indexing_maps = [#a, #bt, #c]
      ins(%A, %B : memref<128x64xbf16, strided<[64, 1]>>, memref<256x64xbf16>) outs(%C : memref<128x256xf32>)
  return
}

// A batched view with batch and row strides known only at run time: the
// batched kernel takes both.
// CHECK-LABEL: func.func @batched_strided
// CHECK: gpu.launch_func @{{.*}}::@gemm_bf16_cf32_batched_nn_alpha_beta {{.*}} args(%arg0 : memref<?x?x?xbf16, strided<[?, ?, 1]>>
func.func @batched_strided(%A: memref<?x?x?xbf16, strided<[?, ?, 1]>>, %B: memref<?x?x?xbf16>, %C: memref<?x?x?xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<?x?x?xbf16, strided<[?, ?, 1]>>, memref<?x?x?xbf16>) outs(%C : memref<?x?x?xf32>)
  return
}

// A bias read through a view at a dynamic offset is not folded into the
// kernel: its generic stays, after the launch.
// CHECK-LABEL: func.func @bias_view
// CHECK: gpu.launch_func @{{.*}}::@gemm_bf16_cf32_nt blocks
// CHECK-NEXT: linalg.generic
func.func @bias_view(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xf32>, %biases: memref<4x256xf32>, %l: index) {
  %bias = memref.subview %biases[%l, 0] [1, 256] [1, 1] : memref<4x256xf32> to memref<256xf32, strided<[1], offset: ?>>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<?x?xf32>)
  linalg.matmul indexing_maps = [#a, #bt, #c]
      ins(%A, %B : memref<?x?xbf16>, memref<?x?xbf16>) outs(%C : memref<?x?xf32>)
  linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<256xf32, strided<[1], offset: ?>>) outs(%C : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %y, %x : f32
    linalg.yield %s : f32
  }
  return
}

// A matmul written as linalg.generic is read by its maps and body and
// served: here B is transposed, which upstream's
// linalg-specialize-generic-ops (LLVM 22) drops.
// CHECK-LABEL: func.func @generic_matmul
// CHECK-NOT: linalg.generic
// CHECK: gpu.launch_func @{{.*}}::@gemm_bf16_cf32_nt_alpha_beta
func.func @generic_matmul(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<?x?xbf16>, memref<?x?xbf16>) outs(%C : memref<?x?xf32>) {
  ^bb0(%x: bf16, %y: bf16, %z: f32):
    %xe = arith.extf %x : bf16 to f32
    %ye = arith.extf %y : bf16 to f32
    %m = arith.mulf %xe, %ye : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  return
}

// linalg.contract with a matmul's maps is served like linalg.matmul.
// CHECK-LABEL: func.func @contract
// CHECK-NOT: linalg.contract
// CHECK: gpu.launch_func @{{.*}}::@gemm_bf16_cf32_tn_alpha_beta
func.func @contract(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xf32>) {
  linalg.contract indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, #c]
      ins(%A, %B : memref<?x?xbf16>, memref<?x?xbf16>) outs(%C : memref<?x?xf32>)
  return
}
