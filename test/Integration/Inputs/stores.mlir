// Test input: transposed stores of an accumulator and stores of row and
// column vectors, inside and partly outside their destinations (gfx950;
// the test retargets it to gfx1201 with sed).
//   T[j][i] = X[i][j]                       (transpose, inside)
//   P[8 + j][16 + i] = X[i][j] where inside P (40 x 50)
//   CM[j] = max_i X[i][j]                   (col vector, inside)
//   RS[10 + i] = sum_j X[i][j] where inside RS (50)
gpu.module @stores [#rocdl.target<chip = "gfx950">] {
  gpu.func @stores(%X: memref<64x32xf32>, %T: memref<32x64xf32>,
                   %P: memref<?x?xf32>, %CM: memref<32xf32>,
                   %RS: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c10 = arith.constant 10 : index
    %c16 = arith.constant 16 : index
    %x = hk.read_fragment %X[%c0, %c0]
        : memref<64x32xf32> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
    hk.store_fragment %x, %T[%c0, %c0] transpose
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<32x64xf32>
    hk.store_fragment %x, %P[%c8, %c16] transpose bounds partial
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<?x?xf32>
    %cm = hk.reduce max %x
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        -> !hk.fragment<col, 1x32xf32, mma = 16x16x32>
    hk.store_fragment %cm, %CM[%c0, %c0]
        : !hk.fragment<col, 1x32xf32, mma = 16x16x32>, memref<32xf32>
    %rs = hk.reduce sum %x
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        -> !hk.fragment<row, 64x1xf32, mma = 16x16x32>
    hk.store_fragment %rs, %RS[%c10, %c0] bounds partial
        : !hk.fragment<row, 64x1xf32, mma = 16x16x32>, memref<?xf32>
    gpu.return
  }
}
