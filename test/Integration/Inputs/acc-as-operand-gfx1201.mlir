// Test input: an accumulator used as the next MMA's B operand in
// registers (attention's P V in the S^T orientation), gfx1201.
//   S = A B^T                  (32 x 16, A 32 x 32, B 16 x 32)
//   O = V^T S                  (32 x 16, V 32 x 32 stored kv-major)
// S becomes a `b` operand with k = acc (hk.to_operand); gfx1201 has no
// transposed LDS read, so V is written transposed into LDS (V^T, d x kv) and
// read as an `a` operand with k = acc: a lane's 8 k (kv) are contiguous
// there.
gpu.module @acc_as_operand [#rocdl.target<chip = "gfx1201">] {
  gpu.func @acc_as_operand(%A: memref<32x32xbf16>, %B: memref<16x32xbf16>,
                           %V: memref<32x32xbf16>, %O: memref<32x16xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %As = hk.alloc_shared : !hk.shared_tile<32x32xbf16, #hk.swizzle<none>, #hk.col_perm<block4_0213>>
    %Bs = hk.alloc_shared : !hk.shared_tile<16x32xbf16, #hk.swizzle<none>, #hk.col_perm<block4_0213>>
    %Vs = hk.alloc_shared : !hk.shared_tile<32x32xbf16, #hk.swizzle<none>>
    hk.copy_to_shared %A[%c0, %c0], %As[%c0]
        : memref<32x32xbf16>, !hk.shared_tile<32x32xbf16, #hk.swizzle<none>, #hk.col_perm<block4_0213>>
    hk.copy_to_shared %B[%c0, %c0], %Bs[%c0]
        : memref<16x32xbf16>, !hk.shared_tile<16x32xbf16, #hk.swizzle<none>, #hk.col_perm<block4_0213>>
    hk.copy_to_shared %V[%c0, %c0], %Vs[%c0] transpose
        : memref<32x32xbf16>, !hk.shared_tile<32x32xbf16, #hk.swizzle<none>>
    amdgpu.lds_barrier
    %a = hk.load_fragment %As[%c0][%c0, %c0]
        : !hk.shared_tile<32x32xbf16, #hk.swizzle<none>, #hk.col_perm<block4_0213>>
        -> !hk.fragment<a, 32x32xbf16, mma = 16x16x16>
    %b = hk.load_fragment %Bs[%c0][%c0, %c0]
        : !hk.shared_tile<16x32xbf16, #hk.swizzle<none>, #hk.col_perm<block4_0213>>
        -> !hk.fragment<b, 16x32xbf16, mma = 16x16x16>
    %init = hk.fill_fragment %zero : !hk.fragment<acc, 32x16xf32, mma = 16x16x16>
    %s = hk.mma %a, %b, %init
        : !hk.fragment<a, 32x32xbf16, mma = 16x16x16>,
          !hk.fragment<b, 16x32xbf16, mma = 16x16x16>,
          !hk.fragment<acc, 32x16xf32, mma = 16x16x16>
    %p = hk.to_operand %s
        : !hk.fragment<acc, 32x16xf32, mma = 16x16x16>
        -> !hk.fragment<b, 16x32xbf16, mma = 16x16x16, k = acc>
    %vt = hk.load_fragment %Vs[%c0][%c0, %c0]
        : !hk.shared_tile<32x32xbf16, #hk.swizzle<none>>
        -> !hk.fragment<a, 32x32xbf16, mma = 16x16x16, k = acc>
    %o = hk.mma %vt, %p, %init
        : !hk.fragment<a, 32x32xbf16, mma = 16x16x16, k = acc>,
          !hk.fragment<b, 16x32xbf16, mma = 16x16x16, k = acc>,
          !hk.fragment<acc, 32x16xf32, mma = 16x16x16>
    hk.store_fragment %o, %O[%c0, %c0]
        : !hk.fragment<acc, 32x16xf32, mma = 16x16x16>, memref<32x16xf32>
    gpu.return
  }
}
