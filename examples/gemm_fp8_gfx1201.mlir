// The fp8 GEMM for gfx1201 (RX 9070), synchronous K loop.
//
//   C[M, N] (bf16) = scale_a * scale_b * A[M, K] @ B[N, K]^T,
//
// A and B f8E4M3FN (OCP e4m3; `--dtype=e5m2` gives the same kernel on
// f8E5M2), fp32 accumulation and per-tensor f32 scales, row-major. The
// structure is gemm_bf16_gfx1201.mlir's with a K tile of 128 bytes per row:
// one workgroup of 8 waves (wave32, 2 x 4) computes a 128x128 tile of C,
// each wave a 64x32 warp tile of 4 x 2 WMMA 16x16x16 fp8 accumulators, over
// eight k-chunks of 16 per K tile (v_wmma_f32_16x16x16_fp8_fp8, twice the
// bf16 rate). A lane's fp8 operand is 8 contiguous bytes
// (docs/hardware/Fp8Facts.md#f8-lanes-gfx1201),
// one ds_load_b64; the st_16x128_b64 swizzle (8-byte groups XORed with the
// row) keeps the fragment reads and the fills (8-byte stores) free of bank
// conflicts. RDNA4 has no scaled WMMA:
// MXFP8 is gfx950's only.
//
// Launch (recorded in hk.launch): grid (ceil(N / 128), ceil(M / 128)),
// block (256, 1, 1). Any M, N, K >= 1, as the bf16 kernel.
gpu.module @hk_gemm [#rocdl.target<chip = "gfx1201">] {
  gpu.func @gemm_fp8(%A: memref<?x?xf8E4M3FN>, %B: memref<?x?xf8E4M3FN>,
                     %C: memref<?x?xbf16>, %scale_a: f32, %scale_b: f32) kernel
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

    %As = hk.alloc_shared : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128_b64>>
    %Bs = hk.alloc_shared : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128_b64>>

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

    %K = memref.dim %A, %c1 : memref<?x?xf8E4M3FN>
    %init = hk.fill_fragment %zero : !hk.fragment<acc, 64x32xf32, mma = 16x16x16>
    %acc = scf.for %k = %c0 to %K step %c128 iter_args(%c_k = %init)
        -> (!hk.fragment<acc, 64x32xf32, mma = 16x16x16>) {
      hk.copy_to_shared %A[%row0, %k], %As[%c0] bounds partial
          : memref<?x?xf8E4M3FN>, !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128_b64>>
      hk.copy_to_shared %B[%col0, %k], %Bs[%c0] bounds partial
          : memref<?x?xf8E4M3FN>, !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128_b64>>
      amdgpu.lds_barrier

      // Eight k-chunks of 16.
      %c_next = scf.for %kk = %c0 to %c128 step %c16 iter_args(%c_kk = %c_k)
          -> (!hk.fragment<acc, 64x32xf32, mma = 16x16x16>) {
        %a = hk.load_fragment %As[%c0][%wm, %kk]
            : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128_b64>>
            -> !hk.fragment<a, 64x16xf8E4M3FN, mma = 16x16x16>
        %b = hk.load_fragment %Bs[%c0][%wn, %kk]
            : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128_b64>>
            -> !hk.fragment<b, 32x16xf8E4M3FN, mma = 16x16x16>
        %c_out = hk.mma %a, %b, %c_kk
            : !hk.fragment<a, 64x16xf8E4M3FN, mma = 16x16x16>,
              !hk.fragment<b, 32x16xf8E4M3FN, mma = 16x16x16>,
              !hk.fragment<acc, 64x32xf32, mma = 16x16x16>
        scf.yield %c_out : !hk.fragment<acc, 64x32xf32, mma = 16x16x16>
      }

      // Nobody refills LDS while another wave still reads it.
      amdgpu.lds_barrier
      scf.yield %c_next : !hk.fragment<acc, 64x32xf32, mma = 16x16x16>
    }

    // C = scale_a * scale_b * (A B^T), in f32, rounded once to bf16.
    %scale = arith.mulf %scale_a, %scale_b : f32
    %d = hk.map %acc : !hk.fragment<acc, 64x32xf32, mma = 16x16x16> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x16> {
    ^bb0(%x: f32):
      %y = arith.mulf %scale, %x : f32
      hk.yield %y : f32
    }
    %cm = arith.addi %row0, %wm : index
    %cn = arith.addi %col0, %wn : index
    hk.store_fragment %d, %C[%cm, %cn] bounds partial
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x16>, memref<?x?xbf16>
    gpu.return
  }
}
