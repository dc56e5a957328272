// What hk-linalg-to-kernels leaves alone, with a remark saying why
// (linalg-to-kernels.mlir runs this file with --verify-diagnostics).
func.func @f32_operands(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  // expected-remark @below {{hk-linalg-to-kernels: left alone: A and B must both hold bf16, f8E4M3FN or f8E5M2}}
  linalg.matmul ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) outs(%C : memref<?x?xf32>)
  return
}

// -----

func.func @tensors(%A: tensor<64x64xbf16>, %B: tensor<64x64xbf16>, %C: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-remark @below {{hk-linalg-to-kernels: left alone: it works on tensors; hk-linalg-to-kernels takes memrefs (bufferize first: hk-opt --one-shot-bufferize='bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map')}}
  %r = linalg.matmul ins(%A, %B : tensor<64x64xbf16>, tensor<64x64xbf16>) outs(%C : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @fp8_nn(%A: memref<?x?xf8E4M3FN>, %B: memref<?x?xf8E4M3FN>, %C: memref<?x?xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<?x?xbf16>)
  // expected-remark @below {{hk-linalg-to-kernels: left alone: no GEMM kernel: fp8 operands need layout nt (both K-minor): hk has no transposed 8-bit LDS read or copy}}
  linalg.matmul indexing_maps = [#a, #b, #c]
      ins(%A, %B : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%C : memref<?x?xbf16>)
  return
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @fp8_accumulate(%A: memref<?x?xf8E4M3FN>, %B: memref<?x?xf8E4M3FN>, %C: memref<?x?xbf16>) {
  // expected-remark @below {{hk-linalg-to-kernels: left alone: an fp8 kernel overwrites C, and this matmul accumulates into a C that is not filled with zeros first}}
  linalg.matmul indexing_maps = [#a, #bt, #c]
      ins(%A, %B : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%C : memref<?x?xbf16>)
  return
}

// -----

func.func @strided_view(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xf32>, %n: index) {
  %As = memref.subview %A[0, 0] [%n, %n] [1, 2] : memref<?x?xbf16> to memref<?x?xbf16, strided<[?, 2]>>
  // expected-remark @below {{hk-linalg-to-kernels: left alone: A is a view the kernel cannot read: 'memref<?x?xbf16, strided<[?, 2]>>' is not contiguous row-major by its type (a dynamic or padded stride); the kernel takes 'memref<?x?xbf16>'}}
  linalg.matmul ins(%As, %B : memref<?x?xbf16, strided<[?, 2]>>, memref<?x?xbf16>) outs(%C : memref<?x?xf32>)
  return
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#bcast = affine_map<(m, n, k) -> (k)>
#c = affine_map<(m, n, k) -> (m, n)>
// B broadcast along n.
func.func @other_maps(%A: memref<?x?xbf16>, %B: memref<?xbf16>, %C: memref<?x?xf32>) {
  // expected-remark @below {{hk-linalg-to-kernels: left alone: its indexing maps are not a (batched) matmul with A and B plain or transposed}}
  linalg.matmul indexing_maps = [#a, #bcast, #c]
      ins(%A, %B : memref<?x?xbf16>, memref<?xbf16>) outs(%C : memref<?x?xf32>)
  return
}
