// Test input: the gfx950 reference GEMM with the K tile's fragments loaded
// and multiplied at once (same summation order as examples/).
// The HipKittens bf16 GEMM for gfx950 (MI350/MI355X), synchronous K loop.
//
//   C[M, N] (bf16) = A[M, K] @ B[N, K]^T, fp32 accumulation, row-major.
//
// One workgroup of 8 waves (512 lanes) computes a 256x256 tile of C. The
// waves form a 2 x 4 grid; each owns a 128x64 warp tile, i.e. 8 x 4 MFMA
// 16x16x32 accumulators. K advances 64 at a time: the workgroup copies a
// 256x64 tile of A and of B into LDS (st_16x32 swizzle), then every wave
// runs two k-chunks of 32, 32 MFMAs each.
//
// Launch (recorded in hk.launch): grid (N / 256, M / 256), block (512, 1, 1);
// needs M % 256 == 0, N % 256 == 0 and K % 64 == 0.
gpu.module @hk_gemm [#rocdl.target<chip = "gfx950">] {
  gpu.func @gemm_bf16(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                      %C: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>,
                  hk.launch = #hk.launch<grid = [arg2[1] / 256, arg2[0] / 256],
                                         divisible = [arg0[1] by 64]>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32

    %As = hk.alloc_shared : !hk.shared_tile<256x64xbf16, #hk.swizzle<st_16x32>>
    %Bs = hk.alloc_shared : !hk.shared_tile<256x64xbf16, #hk.swizzle<st_16x32>>

    // This workgroup's tile of C, and this wave's place in the 2 x 4 grid.
    %m0 = gpu.block_id y
    %n0 = gpu.block_id x
    %row0 = arith.muli %m0, %c256 : index
    %col0 = arith.muli %n0, %c256 : index
    %tid = gpu.thread_id x
    %wave = arith.divui %tid, %c64 : index
    %wave_row = arith.divui %wave, %c4 : index
    %wave_col = arith.remui %wave, %c4 : index
    %wm = arith.muli %wave_row, %c128 : index
    %wn = arith.muli %wave_col, %c64 : index

    %K = memref.dim %A, %c1 : memref<?x?xbf16>
    %init = hk.fill_fragment %zero : !hk.fragment<acc, 128x64xf32, mma = 16x16x32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c_k = %init)
        -> (!hk.fragment<acc, 128x64xf32, mma = 16x16x32>) {
      hk.copy_to_shared %A[%row0, %k], %As[%c0]
          : memref<?x?xbf16>, !hk.shared_tile<256x64xbf16, #hk.swizzle<st_16x32>>
      hk.copy_to_shared %B[%col0, %k], %Bs[%c0]
          : memref<?x?xbf16>, !hk.shared_tile<256x64xbf16, #hk.swizzle<st_16x32>>
      amdgpu.lds_barrier

      // The whole K tile at once: hk.mma runs the two k chunks in order.
      %a = hk.load_fragment %As[%c0][%wm, %c0]
          : !hk.shared_tile<256x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<a, 128x64xbf16, mma = 16x16x32>
      %b = hk.load_fragment %Bs[%c0][%wn, %c0]
          : !hk.shared_tile<256x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<b, 64x64xbf16, mma = 16x16x32>
      %c_next = hk.mma %a, %b, %c_k
          : !hk.fragment<a, 128x64xbf16, mma = 16x16x32>,
            !hk.fragment<b, 64x64xbf16, mma = 16x16x32>,
            !hk.fragment<acc, 128x64xf32, mma = 16x16x32>

      // Nobody refills LDS while another wave still reads it.
      amdgpu.lds_barrier
      scf.yield %c_next : !hk.fragment<acc, 128x64xf32, mma = 16x16x32>
    }

    %cm = arith.addi %row0, %wm : index
    %cn = arith.addi %col0, %wn : index
    hk.store_fragment %acc, %C[%cm, %cn]
        : !hk.fragment<acc, 128x64xf32, mma = 16x16x32>, memref<?x?xbf16>
    gpu.return
  }
}
