// Test input: the mirror of stores.mlir: an accumulator read transposed,
// inside and partly outside its source, and row and column vectors read
// from 1-D memrefs (a log-sum-exp per query), inside and partial (gfx950;
// the test retargets it to gfx1201 and to 32x32x16 with sed).
//   R1[i][j] = T[j][i]                                (transpose, inside)
//   R2[i][j] = P[8 + j][16 + i] where inside P, else 0 (transpose, partial)
//   R3[i][j] = T[j][i] + RS[10 + i] (0 past RS) + CM[j]  (vectors)
gpu.module @reads [#rocdl.target<chip = "gfx950">] {
  gpu.func @reads(%T: memref<32x64xf32>, %P: memref<?x?xf32>,
                  %CM: memref<32xf32>, %RS: memref<?xf32>,
                  %R1: memref<64x32xf32>, %R2: memref<64x32xf32>,
                  %R3: memref<64x32xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c10 = arith.constant 10 : index
    %c16 = arith.constant 16 : index
    %x = hk.read_fragment %T[%c0, %c0] transpose
        : memref<32x64xf32> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
    hk.store_fragment %x, %R1[%c0, %c0]
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<64x32xf32>
    %p = hk.read_fragment %P[%c8, %c16] transpose bounds partial
        : memref<?x?xf32> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
    hk.store_fragment %p, %R2[%c0, %c0]
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<64x32xf32>
    %cm = hk.read_fragment %CM[%c0]
        : memref<32xf32> -> !hk.fragment<col, 1x32xf32, mma = 16x16x32>
    %rs = hk.read_fragment %RS[%c10] bounds partial
        : memref<?xf32> -> !hk.fragment<row, 64x1xf32, mma = 16x16x32>
    %sum = hk.map %x, %rs, %cm
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>,
          !hk.fragment<row, 64x1xf32, mma = 16x16x32>,
          !hk.fragment<col, 1x32xf32, mma = 16x16x32>
        -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32> {
    ^bb0(%a: f32, %r: f32, %c: f32):
      %ar = arith.addf %a, %r : f32
      %s = arith.addf %ar, %c : f32
      hk.yield %s : f32
    }
    hk.store_fragment %sum, %R3[%c0, %c0]
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<64x32xf32>
    gpu.return
  }
}
