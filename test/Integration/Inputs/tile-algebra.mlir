// Test input: the register-tile algebra on one wave's 64x32 accumulator X
// (gfx950 layout; the test retargets it to gfx1201 with sed).
//   colmax[j] = max_i X[i][j], rowsum[i] = sum_j X[i][j]   (hk.reduce)
//   O1[i][j] = colmax[j], O2[i][j] = rowsum[i]              (broadcasts)
//   O3[i][j] = i <= j ? exp2(X[i][j] - colmax[j]) : -1      (hk.mask)
//   O4[i][j] = f32(bf16(1.1 * X[i][j]))                     (conversions)
//   O5[i][j] = rowmax[i] + colsum[j]                        (the other pair)
gpu.module @tile_algebra [#rocdl.target<chip = "gfx950">] {
  gpu.func @tile_algebra(%X: memref<64x32xf32>, %O1: memref<64x32xf32>,
                         %O2: memref<64x32xf32>, %O3: memref<64x32xf32>,
                         %O4: memref<64x32xf32>, %O5: memref<64x32xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %minus_one = arith.constant -1.0 : f32
    %scale = arith.constant 1.1 : f32
    %x = hk.read_fragment %X[%c0, %c0]
        : memref<64x32xf32> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
    %colmax = hk.reduce max %x
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        -> !hk.fragment<col, 1x32xf32, mma = 16x16x32>
    %rowsum = hk.reduce sum %x
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        -> !hk.fragment<row, 64x1xf32, mma = 16x16x32>
    %rowmax = hk.reduce max %x
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        -> !hk.fragment<row, 64x1xf32, mma = 16x16x32>
    %colsum = hk.reduce sum %x
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        -> !hk.fragment<col, 1x32xf32, mma = 16x16x32>

    %o1 = hk.map %x, %colmax
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>,
          !hk.fragment<col, 1x32xf32, mma = 16x16x32>
        -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32> {
    ^bb0(%e: f32, %m: f32):
      hk.yield %m : f32
    }
    hk.store_fragment %o1, %O1[%c0, %c0]
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<64x32xf32>
    %o2 = hk.map %rowsum, %x
        : !hk.fragment<row, 64x1xf32, mma = 16x16x32>,
          !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32> {
    ^bb0(%s: f32, %e: f32):
      hk.yield %s : f32
    }
    hk.store_fragment %o2, %O2[%c0, %c0]
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<64x32xf32>

    %p = hk.map %x, %colmax
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>,
          !hk.fragment<col, 1x32xf32, mma = 16x16x32>
        -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32> {
    ^bb0(%e: f32, %m: f32):
      %d = arith.subf %e, %m : f32
      %y = math.exp2 %d : f32
      hk.yield %y : f32
    }
    %o3 = hk.mask %p, %minus_one at [%c0, %c0]
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32> {
    ^bb0(%i: index, %j: index):
      %keep = arith.cmpi ule, %i, %j : index
      hk.yield %keep : i1
    }
    hk.store_fragment %o3, %O3[%c0, %c0]
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<64x32xf32>

    %h = hk.map %x : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        -> !hk.fragment<acc, 64x32xbf16, mma = 16x16x32> {
    ^bb0(%e: f32):
      %s = arith.mulf %e, %scale : f32
      %t = arith.truncf %s : f32 to bf16
      hk.yield %t : bf16
    }
    %o4 = hk.map %h : !hk.fragment<acc, 64x32xbf16, mma = 16x16x32>
        -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32> {
    ^bb0(%e: bf16):
      %w = arith.extf %e : bf16 to f32
      hk.yield %w : f32
    }
    hk.store_fragment %o4, %O4[%c0, %c0]
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<64x32xf32>

    %o5 = hk.map %rowmax, %colsum
        : !hk.fragment<row, 64x1xf32, mma = 16x16x32>,
          !hk.fragment<col, 1x32xf32, mma = 16x16x32>
        -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32> {
    ^bb0(%r: f32, %c: f32):
      %s = arith.addf %r, %c : f32
      hk.yield %s : f32
    }
    hk.store_fragment %o5, %O5[%c0, %c0]
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<64x32xf32>
    gpu.return
  }
}
