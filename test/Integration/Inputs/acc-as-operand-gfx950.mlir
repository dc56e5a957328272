// Test input: an accumulator used as the next MMA's B operand in
// registers (attention's P V in the S^T orientation), gfx950.
//   S = A B^T                  (32 x 16, A 32 x 32, B 16 x 32)
//   O = V^T S                  (32 x 16, V 32 x 32 stored kv-major)
// S becomes a `b` operand with k = acc (hk.to_operand); V^T an `a` operand with k = acc read
// transposed from LDS in the same k order.
gpu.module @acc_as_operand [#rocdl.target<chip = "gfx950">] {
  gpu.func @acc_as_operand(%A: memref<32x32xbf16>, %B: memref<16x32xbf16>,
                           %V: memref<32x32xbf16>, %O: memref<32x16xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %As = hk.alloc_shared : !hk.shared_tile<32x32xbf16, #hk.swizzle<st_16x32>>
    %Bs = hk.alloc_shared : !hk.shared_tile<16x32xbf16, #hk.swizzle<st_16x32>>
    %Vs = hk.alloc_shared : !hk.shared_tile<32x32xbf16, #hk.swizzle<st_16x32>>
    hk.copy_to_shared %A[%c0, %c0], %As[%c0]
        : memref<32x32xbf16>, !hk.shared_tile<32x32xbf16, #hk.swizzle<st_16x32>>
    hk.copy_to_shared %B[%c0, %c0], %Bs[%c0]
        : memref<16x32xbf16>, !hk.shared_tile<16x32xbf16, #hk.swizzle<st_16x32>>
    hk.copy_to_shared %V[%c0, %c0], %Vs[%c0]
        : memref<32x32xbf16>, !hk.shared_tile<32x32xbf16, #hk.swizzle<st_16x32>>
    amdgpu.lds_barrier
    %a = hk.load_fragment %As[%c0][%c0, %c0]
        : !hk.shared_tile<32x32xbf16, #hk.swizzle<st_16x32>>
        -> !hk.fragment<a, 32x32xbf16, mma = 16x16x32>
    %b = hk.load_fragment %Bs[%c0][%c0, %c0]
        : !hk.shared_tile<16x32xbf16, #hk.swizzle<st_16x32>>
        -> !hk.fragment<b, 16x32xbf16, mma = 16x16x32>
    %init = hk.fill_fragment %zero : !hk.fragment<acc, 32x16xf32, mma = 16x16x32>
    %s = hk.mma %a, %b, %init
        : !hk.fragment<a, 32x32xbf16, mma = 16x16x32>,
          !hk.fragment<b, 16x32xbf16, mma = 16x16x32>,
          !hk.fragment<acc, 32x16xf32, mma = 16x16x32>
    %p = hk.to_operand %s
        : !hk.fragment<acc, 32x16xf32, mma = 16x16x32>
        -> !hk.fragment<b, 16x32xbf16, mma = 16x16x32, k = acc>
    %vt = hk.load_fragment %Vs[%c0][%c0, %c0] transpose
        : !hk.shared_tile<32x32xbf16, #hk.swizzle<st_16x32>>
        -> !hk.fragment<a, 32x32xbf16, mma = 16x16x32, k = acc>
    %o = hk.mma %vt, %p, %init
        : !hk.fragment<a, 32x32xbf16, mma = 16x16x32, k = acc>,
          !hk.fragment<b, 16x32xbf16, mma = 16x16x32, k = acc>,
          !hk.fragment<acc, 32x16xf32, mma = 16x16x32>
    hk.store_fragment %o, %O[%c0, %c0]
        : !hk.fragment<acc, 32x16xf32, mma = 16x16x32>, memref<32x16xf32>
    gpu.return
  }
}
