// Test input: f32 -> bf16 -> f32 of a 16 x 16 tile on gfx1201, the
// truncation said to be free of NaNs (`fastmath<nnan>`), which hk rounds
// with integer arithmetic (test/Conversion/HKToAMDGPU/bf16-rounding.mlir).
gpu.module @bf16_rounding [#rocdl.target<chip = "gfx1201">] {
  gpu.func @bf16_rounding(%X: memref<16x16xf32>, %Y: memref<16x16xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %x = hk.read_fragment %X[%c0, %c0]
        : memref<16x16xf32> -> !hk.fragment<acc, 16x16xf32, mma = 16x16x16>
    %h = hk.map %x : !hk.fragment<acc, 16x16xf32, mma = 16x16x16>
        -> !hk.fragment<acc, 16x16xbf16, mma = 16x16x16> {
    ^bb0(%e: f32):
      %t = arith.truncf %e fastmath<nnan> : f32 to bf16
      hk.yield %t : bf16
    }
    %y = hk.map %h : !hk.fragment<acc, 16x16xbf16, mma = 16x16x16>
        -> !hk.fragment<acc, 16x16xf32, mma = 16x16x16> {
    ^bb0(%e: bf16):
      %w = arith.extf %e : bf16 to f32
      hk.yield %w : f32
    }
    hk.store_fragment %y, %Y[%c0, %c0]
        : !hk.fragment<acc, 16x16xf32, mma = 16x16x16>, memref<16x16xf32>
    gpu.return
  }
}
