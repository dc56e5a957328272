// The linalg program the consumer compiles (test/Embedding/find-package.test):
// a GEMM with a bias, a batched GEMM that accumulates, an fp8 GEMM, and a
// matmul on f32 that hk has no kernel for.
#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
#row = affine_map<(m, n) -> (n)>
#id = affine_map<(m, n) -> (m, n)>

func.func @layer(%x: memref<?x?xbf16>, %w: memref<?x?xbf16>, %y: memref<?x?xbf16>, %bias: memref<?xf32>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%y : memref<?x?xbf16>)
  linalg.matmul indexing_maps = [#a, #bt, #c]
      ins(%x, %w : memref<?x?xbf16>, memref<?x?xbf16>) outs(%y : memref<?x?xbf16>)
  linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<?xf32>) outs(%y : memref<?x?xbf16>) {
  ^bb0(%b: f32, %v: bf16):
    %e = arith.extf %v : bf16 to f32
    %s = arith.addf %e, %b : f32
    %t = arith.truncf %s : f32 to bf16
    linalg.yield %t : bf16
  }
  return
}

func.func @heads(%q: memref<8x128x64xbf16>, %k: memref<8x64x96xbf16>, %s: memref<8x128x96xf32>) {
  linalg.batch_matmul ins(%q, %k : memref<8x128x64xbf16>, memref<8x64x96xbf16>) outs(%s : memref<8x128x96xf32>)
  return
}

func.func @quantized(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul indexing_maps = [#a, #bt, #c]
      ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf32>)
  return
}

func.func @reference(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}
