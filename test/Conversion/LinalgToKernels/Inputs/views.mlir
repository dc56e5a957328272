// Views of the kinds other compilers hand over. A kernel receives a data
// pointer with the sizes and strides its type leaves dynamic, so a view
// whose offset or stride is only known at run time is never cast to it:
// it is left alone with a remark naming the view (views.mlir runs this
// file with --verify-diagnostics; the served ones are in views.mlir).
#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
// A per-layer weight: a subview of a stacked tensor in a loop.
func.func @per_layer_weight(%A: memref<128x64xbf16>, %W: memref<4x256x64xbf16>, %C: memref<128x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %l = %c0 to %c4 step %c1 {
    %w = memref.subview %W[%l, 0, 0] [1, 256, 64] [1, 1, 1] : memref<4x256x64xbf16> to memref<256x64xbf16, strided<[64, 1], offset: ?>>
    // expected-remark @below {{hk-linalg-to-kernels: left alone: B is a view the kernel cannot read: 'memref<256x64xbf16, strided<[64, 1], offset: ?>>' has a dynamic offset; the kernel takes 'memref<?x?xbf16>'}}
    linalg.matmul indexing_maps = [#a, #bt, #c]
        ins(%A, %w : memref<128x64xbf16>, memref<256x64xbf16, strided<[64, 1], offset: ?>>) outs(%C : memref<128x256xf32>)
  }
  return
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
// A split-K slice of A: rows of 256 elements, 64 of them read.
func.func @split_k(%A: memref<128x256xbf16>, %B: memref<256x64xbf16>, %C: memref<128x256xf32>, %k: index) {
  %a = memref.subview %A[0, %k] [128, 64] [1, 1] : memref<128x256xbf16> to memref<128x64xbf16, strided<[256, 1], offset: ?>>
  // expected-remark @below {{hk-linalg-to-kernels: left alone: A is a view the kernel cannot read: 'memref<128x64xbf16, strided<[256, 1], offset: ?>>' has a dynamic offset; the kernel takes 'memref<?x?xbf16>'}}
  linalg.matmul indexing_maps = [#a, #bt, #c]
      ins(%a, %B : memref<128x64xbf16, strided<[256, 1], offset: ?>>, memref<256x64xbf16>) outs(%C : memref<128x256xf32>)
  return
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
// The same slice at a constant column: a static offset, still not 0.
func.func @static_offset(%A: memref<128x256xbf16>, %B: memref<256x64xbf16>, %C: memref<128x256xf32>) {
  %a = memref.subview %A[0, 64] [128, 64] [1, 1] : memref<128x256xbf16> to memref<128x64xbf16, strided<[256, 1], offset: 64>>
  // expected-remark @below {{hk-linalg-to-kernels: left alone: A is a view the kernel cannot read: 'memref<128x64xbf16, strided<[256, 1], offset: 64>>' has an offset other than 0; the kernel takes 'memref<?x?xbf16>'}}
  linalg.matmul indexing_maps = [#a, #bt, #c]
      ins(%a, %B : memref<128x64xbf16, strided<[256, 1], offset: 64>>, memref<256x64xbf16>) outs(%C : memref<128x256xf32>)
  return
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
// A padded leading dimension: rows apart by a stride known at run time.
func.func @padded_rows(%A: memref<?x?xbf16, strided<[?, 1]>>, %B: memref<?x?xbf16>, %C: memref<?x?xf32>) {
  // expected-remark @below {{hk-linalg-to-kernels: left alone: A is a view the kernel cannot read: 'memref<?x?xbf16, strided<[?, 1]>>' is not contiguous row-major by its type (a dynamic or padded stride); the kernel takes 'memref<?x?xbf16>'}}
  linalg.matmul indexing_maps = [#a, #bt, #c]
      ins(%A, %B : memref<?x?xbf16, strided<[?, 1]>>, memref<?x?xbf16>) outs(%C : memref<?x?xf32>)
  return
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
// Rows padded by a static stride: 72 elements apart, 64 read.
func.func @padded_static(%A: memref<128x64xbf16, strided<[72, 1]>>, %B: memref<256x64xbf16>, %C: memref<128x256xf32>) {
  // expected-remark @below {{hk-linalg-to-kernels: left alone: A is a view the kernel cannot read: 'memref<128x64xbf16, strided<[72, 1]>>' is not contiguous row-major by its type (a dynamic or padded stride); the kernel takes 'memref<?x?xbf16>'}}
  linalg.matmul indexing_maps = [#a, #bt, #c]
      ins(%A, %B : memref<128x64xbf16, strided<[72, 1]>>, memref<256x64xbf16>) outs(%C : memref<128x256xf32>)
  return
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
// A column-major A: its elements along m are adjacent.
func.func @column_major(%A: memref<?x?xbf16, strided<[1, ?]>>, %B: memref<?x?xbf16>, %C: memref<?x?xf32>) {
  // expected-remark @below {{hk-linalg-to-kernels: left alone: A is a view the kernel cannot read: 'memref<?x?xbf16, strided<[1, ?]>>' is not contiguous row-major by its type (a dynamic or padded stride); the kernel takes 'memref<?x?xbf16>'}}
  linalg.matmul indexing_maps = [#a, #bt, #c]
      ins(%A, %B : memref<?x?xbf16, strided<[1, ?]>>, memref<?x?xbf16>) outs(%C : memref<?x?xf32>)
  return
}

// -----

// A batched view at a dynamic offset: the batched kernel takes the batch
// and row strides at run time, but no offset.
func.func @batched_offset(%A: memref<?x?x?xbf16, strided<[?, ?, 1], offset: ?>>, %B: memref<?x?x?xbf16>, %C: memref<?x?x?xf32>) {
  // expected-remark @below {{hk-linalg-to-kernels: left alone: A is a view the kernel cannot read: 'memref<?x?x?xbf16, strided<[?, ?, 1], offset: ?>>' has a dynamic offset; the kernel takes 'memref<?x?x?xbf16, strided<[?, ?, 1]>>'}}
  linalg.batch_matmul ins(%A, %B : memref<?x?x?xbf16, strided<[?, ?, 1], offset: ?>>, memref<?x?x?xbf16>) outs(%C : memref<?x?x?xf32>)
  return
}

// -----

// A batched view whose elements are not adjacent along its rows.
func.func @batched_inner_stride(%A: memref<?x?x?xbf16, strided<[?, ?, ?]>>, %B: memref<?x?x?xbf16>, %C: memref<?x?x?xf32>) {
  // expected-remark @below {{hk-linalg-to-kernels: left alone: A is a view the kernel cannot read: 'memref<?x?x?xbf16, strided<[?, ?, ?]>>' has a dynamic stride in dimension 2; the kernel takes 'memref<?x?x?xbf16, strided<[?, ?, 1]>>'}}
  linalg.batch_matmul ins(%A, %B : memref<?x?x?xbf16, strided<[?, ?, ?]>>, memref<?x?x?xbf16>) outs(%C : memref<?x?x?xf32>)
  return
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
// C as a tile of a larger output.
func.func @c_tile(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<512x512xf32>, %i: index) {
  %c = memref.subview %C[%i, 0] [128, 256] [1, 1] : memref<512x512xf32> to memref<128x256xf32, strided<[512, 1], offset: ?>>
  // expected-remark @below {{hk-linalg-to-kernels: left alone: C is a view the kernel cannot read: 'memref<128x256xf32, strided<[512, 1], offset: ?>>' has a dynamic offset; the kernel takes 'memref<?x?xf32>'}}
  linalg.matmul indexing_maps = [#a, #bt, #c]
      ins(%A, %B : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<128x256xf32, strided<[512, 1], offset: ?>>)
  return
}

// -----

#map0 = affine_map<(m, n, k) -> (m, k)>
#map1 = affine_map<(m, n, k) -> (k)>
#map2 = affine_map<(m, n, k) -> (m, n)>
// A generic matmul whose maps are not a matmul's (B a vector broadcast
// along n).
func.func @generic_other_maps(%A: memref<?x?xbf16>, %B: memref<?xbf16>, %C: memref<?x?xf32>) {
  // expected-remark @below {{hk-linalg-to-kernels: left alone: its indexing maps are not a (batched) matmul with A and B plain or transposed}}
  linalg.generic {indexing_maps = [#map0, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<?x?xbf16>, memref<?xbf16>) outs(%C : memref<?x?xf32>) {
  ^bb0(%x: bf16, %y: bf16, %z: f32):
    %xe = arith.extf %x : bf16 to f32
    %ye = arith.extf %y : bf16 to f32
    %m = arith.mulf %xe, %ye : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
// A contraction whose product is rounded to bf16 before the sum: not what
// a matmul into f32 computes.
func.func @generic_bf16_product(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xf32>) {
  // expected-remark @below {{hk-linalg-to-kernels: left alone: a contraction whose body is not C + A * B (with casts to C's type)}}
  linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<?x?xbf16>, memref<?x?xbf16>) outs(%C : memref<?x?xf32>) {
  ^bb0(%x: bf16, %y: bf16, %z: f32):
    %m = arith.mulf %x, %y : bf16
    %me = arith.extf %m : bf16 to f32
    %s = arith.addf %z, %me : f32
    linalg.yield %s : f32
  }
  return
}
