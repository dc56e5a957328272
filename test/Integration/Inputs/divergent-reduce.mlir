// Test input: a reduction inside a branch only half the wave takes. The
// lane permutations read lanes that are not active; the simulator refuses
// to guess their values.
gpu.module @divergent [#rocdl.target<chip = "gfx950">] {
  gpu.func @divergent(%X: memref<16x16xf32>, %O: memref<16x16xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %lane = gpu.thread_id x
    %low = arith.cmpi ult, %lane, %c32 : index
    %x = hk.read_fragment %X[%c0, %c0]
        : memref<16x16xf32> -> !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
    scf.if %low {
      %m = hk.reduce max %x
          : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
          -> !hk.fragment<col, 1x16xf32, mma = 16x16x32>
      %o = hk.map %x, %m
          : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>,
            !hk.fragment<col, 1x16xf32, mma = 16x16x32>
          -> !hk.fragment<acc, 16x16xf32, mma = 16x16x32> {
      ^bb0(%e: f32, %v: f32):
        hk.yield %v : f32
      }
      hk.store_fragment %o, %O[%c0, %c0]
          : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>, memref<16x16xf32>
    }
    gpu.return
  }
}
