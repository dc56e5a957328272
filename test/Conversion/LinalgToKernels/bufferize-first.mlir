// Host code on tensors reaches the kernels in one tool: hk-opt bufferizes
// it (one-shot-bufferize, registered with hk's dialects) and outlines its
// matmuls. With identity layouts at function boundaries the operands are
// dense and served; with upstream's default (fully dynamic layouts) their
// offset and strides are only known at run time, and the matmul is left
// alone with a remark naming the view.
// RUN: hk-opt --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --hk-linalg-to-kernels=chip=gfx950 %s | FileCheck %s
// RUN: hk-opt --one-shot-bufferize="bufferize-function-boundaries" --hk-linalg-to-kernels=chip=gfx950 %s 2>&1 | FileCheck %s --check-prefix=DYNAMIC

#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>

// CHECK-LABEL: func.func @on_tensors(%arg0: memref<?x?xbf16>, %arg1: memref<?x?xbf16>, %arg2: memref<?x?xf32>)
// CHECK: gpu.launch_func @hk_gemm::@gemm_bf16_cf32_nt_alpha_beta
// DYNAMIC: remark: hk-linalg-to-kernels: left alone: A is a view the kernel cannot read: 'memref<?x?xbf16, strided<[?, ?], offset: ?>>' has a dynamic offset
func.func @on_tensors(%A: tensor<?x?xbf16>, %B: tensor<?x?xbf16>, %C: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.matmul indexing_maps = [#a, #bt, #c]
      ins(%A, %B : tensor<?x?xbf16>, tensor<?x?xbf16>) outs(%C : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
