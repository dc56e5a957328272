// The HipKittens bf16 GEMM for gfx1201 (RX 9070), synchronous K loop,
// operand layout "nn".
//
//   C[M, N] (bf16) = A[M, K] @ B[K, N], fp32 accumulation, row-major:
//   B is stored K x N (BLAS "nn").
//   Run it with hk-run --layout=nn.
//
// gfx1201 has no transposed LDS reads: the K-major operand's copies take
// `transpose` (each thread reads 4 rows of 8 elements, transposes them in
// registers and writes 8-byte runs), so its tiles and fragment loads are
// the "nt" example's.
//
// One workgroup of 8 waves (256 lanes, wave32) computes a 128x128 tile of C.
// The waves form a 2 x 4 grid; each owns a 64x32 warp tile, i.e. 4 x 2 WMMA
// 16x16x16 accumulators (8 f32 per lane each). K advances 64 at a time in
// four k-chunks of 16. The LDS tiles use st_8x64 plus the block4_0213
// column permutation, so each lane's WMMA operand (k 0-3 and 8-11, or 4-7
// and 12-15) is 8 contiguous bf16: one 16-byte LDS read. st_8x64 gives the
// 8 rows an RDNA4 phase of such reads touches 8 different bank groups, so
// fragment reads and fills are free of bank conflicts.
//
// Launch (recorded in hk.launch): grid (ceil(N / 128), ceil(M / 128)),
// block (256, 1, 1). Any M, N, K >= 1: the copies and stores take
// `bounds partial` (zeros read past the matrices, nothing written past C),
// and hk-peel-partial-tiles gives the whole K tiles a loop without masks.
gpu.module @hk_gemm [#rocdl.target<chip = "gfx1201">] {
  gpu.func @gemm_bf16(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                      %C: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  hk.launch = #hk.launch<grid = [arg2[1] ceildiv 128, arg2[0] ceildiv 128]>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32

    %As = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
    %Bs = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>

    // This workgroup's tile of C, and this wave's place in the 2 x 4 grid.
    %m0 = gpu.block_id y
    %n0 = gpu.block_id x
    %row0 = arith.muli %m0, %c128 : index
    %col0 = arith.muli %n0, %c128 : index
    %tid = gpu.thread_id x
    %wave = arith.divui %tid, %c32 : index
    %wave_row = arith.divui %wave, %c4 : index
    %wave_col = arith.remui %wave, %c4 : index
    %wm = arith.muli %wave_row, %c64 : index
    %wn = arith.muli %wave_col, %c32 : index

    %K = memref.dim %A, %c1 : memref<?x?xbf16>
    %init = hk.fill_fragment %zero : !hk.fragment<acc, 64x32xf32, mma = 16x16x16>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c_k = %init)
        -> (!hk.fragment<acc, 64x32xf32, mma = 16x16x16>) {
      hk.copy_to_shared %A[%row0, %k], %As[%c0] bounds partial
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
      hk.copy_to_shared %B[%k, %col0], %Bs[%c0] transpose bounds partial
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
      amdgpu.lds_barrier

      // Four k-chunks of 16.
      %c_next = scf.for %kk = %c0 to %c64 step %c16 iter_args(%c_kk = %c_k)
          -> (!hk.fragment<acc, 64x32xf32, mma = 16x16x16>) {
        %a = hk.load_fragment %As[%c0][%wm, %kk]
            : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
            -> !hk.fragment<a, 64x16xbf16, mma = 16x16x16>
        %b = hk.load_fragment %Bs[%c0][%wn, %kk]
            : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
            -> !hk.fragment<b, 32x16xbf16, mma = 16x16x16>
        %c_out = hk.mma %a, %b, %c_kk
            : !hk.fragment<a, 64x16xbf16, mma = 16x16x16>,
              !hk.fragment<b, 32x16xbf16, mma = 16x16x16>,
              !hk.fragment<acc, 64x32xf32, mma = 16x16x16>
        scf.yield %c_out : !hk.fragment<acc, 64x32xf32, mma = 16x16x16>
      }

      // Nobody refills LDS while another wave still reads it.
      amdgpu.lds_barrier
      scf.yield %c_next : !hk.fragment<acc, 64x32xf32, mma = 16x16x16>
    }

    %cm = arith.addi %row0, %wm : index
    %cn = arith.addi %col0, %wn : index
    hk.store_fragment %acc, %C[%cm, %cn] bounds partial
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x16>, memref<?x?xbf16>
    gpu.return
  }
}
