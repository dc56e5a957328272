// Host code with the matmuls hk-linalg-to-kernels serves (and some it
// leaves alone), for linalg-to-kernels-sim.test.
#a = affine_map<(m, n, k) -> (m, k)>
#at = affine_map<(m, n, k) -> (k, m)>
#b = affine_map<(m, n, k) -> (k, n)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
#ba = affine_map<(b, m, n, k) -> (b, m, k)>
#bat = affine_map<(b, m, n, k) -> (b, k, m)>
#bb = affine_map<(b, m, n, k) -> (b, k, n)>
#bbt = affine_map<(b, m, n, k) -> (b, n, k)>
#bc = affine_map<(b, m, n, k) -> (b, m, n)>
#row = affine_map<(m, n) -> (n)>
#id = affine_map<(m, n) -> (m, n)>
#brow = affine_map<(b, m, n) -> (n)>
#bid = affine_map<(b, m, n) -> (b, m, n)>

// C = A B^T into zeros: no epilogue.
func.func @nt_zero(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<?x?xbf16>)
  linalg.matmul indexing_maps = [#a, #bt, #c]
      ins(%A, %B : memref<?x?xbf16>, memref<?x?xbf16>) outs(%C : memref<?x?xbf16>)
  return
}

// C += A B: beta = 1.
func.func @nn_accumulate(%A: memref<200x100xbf16>, %B: memref<100x130xbf16>, %C: memref<200x130xbf16>) {
  linalg.matmul ins(%A, %B : memref<200x100xbf16>, memref<100x130xbf16>) outs(%C : memref<200x130xbf16>)
  return
}

// C = A^T B into zeros.
func.func @tn_zero(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<?x?xbf16>)
  linalg.matmul indexing_maps = [#at, #b, #c]
      ins(%A, %B : memref<?x?xbf16>, memref<?x?xbf16>) outs(%C : memref<?x?xbf16>)
  return
}

// C += A^T B^T in f32.
func.func @tt_accumulate(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xf32>) {
  linalg.matmul indexing_maps = [#at, #bt, #c]
      ins(%A, %B : memref<?x?xbf16>, memref<?x?xbf16>) outs(%C : memref<?x?xf32>)
  return
}

// C = A B^T + bias[n].
func.func @nt_bias(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xbf16>, %bias: memref<?xf32>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<?x?xbf16>)
  linalg.matmul indexing_maps = [#a, #bt, #c]
      ins(%A, %B : memref<?x?xbf16>, memref<?x?xbf16>) outs(%C : memref<?x?xbf16>)
  linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<?xf32>) outs(%C : memref<?x?xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %e = arith.extf %y : bf16 to f32
    %s = arith.addf %e, %x : f32
    %t = arith.truncf %s : f32 to bf16
    linalg.yield %t : bf16
  }
  return
}

// C = s (C + A B): the nn kernel with alpha = beta = s.
func.func @nn_scaled(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xbf16>, %s: f32) {
  linalg.matmul ins(%A, %B : memref<?x?xbf16>, memref<?x?xbf16>) outs(%C : memref<?x?xbf16>)
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%C : memref<?x?xbf16>) {
  ^bb0(%y: bf16):
    %e = arith.extf %y : bf16 to f32
    %m = arith.mulf %s, %e : f32
    %t = arith.truncf %m : f32 to bf16
    linalg.yield %t : bf16
  }
  return
}

// C = s A B^T + bias, f32 C: alpha = s, beta = 0, and the bias. (linalg
// cannot write a bf16 product to f16: its matmul body would add f16 to
// bf16.)
func.func @nt_scaled_bias(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xf32>, %bias: memref<?xf32>, %s: f32) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<?x?xf32>)
  linalg.matmul indexing_maps = [#a, #bt, #c]
      ins(%A, %B : memref<?x?xbf16>, memref<?x?xbf16>) outs(%C : memref<?x?xf32>)
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%C : memref<?x?xf32>) {
  ^bb0(%y: f32):
    %m = arith.mulf %y, %s : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<?xf32>) outs(%C : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32):
    %a = arith.addf %x, %y : f32
    linalg.yield %a : f32
  }
  return
}

// Batched: C[b] += A[b] B[b] in f32.
func.func @batch_nn_accumulate(%A: memref<?x?x?xbf16>, %B: memref<?x?x?xbf16>, %C: memref<?x?x?xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<?x?x?xbf16>, memref<?x?x?xbf16>) outs(%C : memref<?x?x?xf32>)
  return
}

// Batched, both transposed, into zeros.
func.func @batch_tt_zero(%A: memref<3x64x80xbf16>, %B: memref<3x48x64xbf16>, %C: memref<3x80x48xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<3x80x48xbf16>)
  linalg.batch_matmul indexing_maps = [#bat, #bbt, #bc]
      ins(%A, %B : memref<3x64x80xbf16>, memref<3x48x64xbf16>) outs(%C : memref<3x80x48xbf16>)
  return
}

// Batched A^T B with a bias.
func.func @batch_tn_bias(%A: memref<?x?x?xbf16>, %B: memref<?x?x?xbf16>, %C: memref<?x?x?xbf16>, %bias: memref<?xf32>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<?x?x?xbf16>)
  linalg.batch_matmul indexing_maps = [#bat, #bb, #bc]
      ins(%A, %B : memref<?x?x?xbf16>, memref<?x?x?xbf16>) outs(%C : memref<?x?x?xbf16>)
  linalg.generic {indexing_maps = [#brow, #bid], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bias : memref<?xf32>) outs(%C : memref<?x?x?xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %e = arith.extf %y : bf16 to f32
    %s = arith.addf %e, %x : f32
    %t = arith.truncf %s : f32 to bf16
    linalg.yield %t : bf16
  }
  return
}

// fp8, both formats, into zeros.
func.func @fp8_e4m3(%A: memref<?x?xf8E4M3FN>, %B: memref<?x?xf8E4M3FN>, %C: memref<?x?xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<?x?xbf16>)
  linalg.matmul indexing_maps = [#a, #bt, #c]
      ins(%A, %B : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%C : memref<?x?xbf16>)
  return
}
func.func @fp8_e5m2(%A: memref<?x?xf8E5M2>, %B: memref<?x?xf8E5M2>, %C: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<?x?xf32>)
  linalg.matmul indexing_maps = [#a, #bt, #c]
      ins(%A, %B : memref<?x?xf8E5M2>, memref<?x?xf8E5M2>) outs(%C : memref<?x?xf32>)
  return
}
