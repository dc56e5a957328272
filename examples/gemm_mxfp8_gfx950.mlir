// The MXFP8 GEMM for gfx950 (MI350/MI355X), synchronous K loop.
//
//   C[M, N] (bf16) = sum over k of A[m, k] 2^(SA[m, k / 32] - 127)
//                                * B[n, k] 2^(SB[n, k / 32] - 127),
//
// A and B f8E4M3FN (OCP e4m3; `--dtype=e5m2` gives the same kernel on
// f8E5M2), with E8M0 block scales (f8E8M0FNU): SA is M x ceil(K / 32), SB
// N x ceil(K / 32), one per 32 consecutive k of each row of A and of B (OCP
// MX). The structure is gemm_fp8_gfx950.mlir's; each wave also reads its
// rows' scales for the K tile (4 per row, hk.read_fragment in the scales'
// lane layout: lane l holds row l % 16's scale of block l / 16) and each MFMA
// is v_mfma_scale_f32_16x16x128_f8f6f4 (amdgpu.scaled_mfma), the 4 scales
// of a 64-row fragment in one register picked by op_sel. gfx1201 has no
// scaled WMMA: this kernel is gfx950's only.
//
// Launch (recorded in hk.launch): grid (ceil(N / 256), ceil(M / 256)),
// block (512, 1, 1). Any M, N, K >= 1: scales past the matrices read as 0
// and multiply the zeros read past A and B.
gpu.module @hk_gemm [#rocdl.target<chip = "gfx950">] {
  gpu.func @gemm_mxfp8(%A: memref<?x?xf8E4M3FN>, %B: memref<?x?xf8E4M3FN>,
                       %C: memref<?x?xbf16>, %SA: memref<?x?xf8E8M0FNU>,
                       %SB: memref<?x?xf8E8M0FNU>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>,
                  hk.launch = #hk.launch<grid = [arg2[1] ceildiv 256, arg2[0] ceildiv 256]>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32

    // A rows 0-127 and 128-255, B rows (columns of C) likewise.
    %As0 = hk.alloc_shared : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
    %As1 = hk.alloc_shared : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
    %Bs0 = hk.alloc_shared : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
    %Bs1 = hk.alloc_shared : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>

    // This workgroup's tile of C, and this wave's place in the 2 x 4 grid.
    %m0 = gpu.block_id y
    %n0 = gpu.block_id x
    %row0 = arith.muli %m0, %c256 : index
    %col0 = arith.muli %n0, %c256 : index
    %row1 = arith.addi %row0, %c128 : index
    %col1 = arith.addi %col0, %c128 : index
    %tid = gpu.thread_id x
    %wave = arith.divui %tid, %c64 : index
    %wave_row = arith.divui %wave, %c4 : index
    %wave_col = arith.remui %wave, %c4 : index
    %wm = arith.muli %wave_row, %c64 : index
    %wn = arith.muli %wave_col, %c32 : index

    // This wave's rows of A and of B (columns of C).
    %r0 = arith.addi %row0, %wm : index
    %r1 = arith.addi %row1, %wm : index
    %n0w = arith.addi %col0, %wn : index
    %n1w = arith.addi %col1, %wn : index
    %K = memref.dim %A, %c1 : memref<?x?xf8E4M3FN>
    %init = hk.fill_fragment %zero : !hk.fragment<acc, 64x32xf32, mma = 16x16x128>
    %acc:4 = scf.for %k = %c0 to %K step %c128
        iter_args(%c00 = %init, %c01 = %init, %c10 = %init, %c11 = %init)
        -> (!hk.fragment<acc, 64x32xf32, mma = 16x16x128>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x128>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x128>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x128>) {
      hk.copy_to_shared %A[%row0, %k], %As0[%c0] bounds partial
          : memref<?x?xf8E4M3FN>, !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
      hk.copy_to_shared %A[%row1, %k], %As1[%c0] bounds partial
          : memref<?x?xf8E4M3FN>, !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
      hk.copy_to_shared %B[%col0, %k], %Bs0[%c0] bounds partial
          : memref<?x?xf8E4M3FN>, !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
      hk.copy_to_shared %B[%col1, %k], %Bs1[%c0] bounds partial
          : memref<?x?xf8E4M3FN>, !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
      amdgpu.lds_barrier

      // This wave's block scales for the K tile: 4 blocks of 32 per row.
      %kb = arith.divui %k, %c32 : index
      %sa0 = hk.read_fragment %SA[%r0, %kb] bounds partial : memref<?x?xf8E8M0FNU> -> !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>
      %sa1 = hk.read_fragment %SA[%r1, %kb] bounds partial : memref<?x?xf8E8M0FNU> -> !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>
      %sb0 = hk.read_fragment %SB[%n0w, %kb] bounds partial : memref<?x?xf8E8M0FNU> -> !hk.fragment<scale, 32x4xf8E8M0FNU, mma = 16x16x128>
      %sb1 = hk.read_fragment %SB[%n1w, %kb] bounds partial : memref<?x?xf8E8M0FNU> -> !hk.fragment<scale, 32x4xf8E8M0FNU, mma = 16x16x128>

      %b0 = hk.load_fragment %Bs0[%c0][%wn, %c0]
          : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
          -> !hk.fragment<b, 32x128xf8E4M3FN, mma = 16x16x128>
      %a0 = hk.load_fragment %As0[%c0][%wm, %c0]
          : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
          -> !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>
      %d00 = hk.mma %a0, %b0, %c00 scales(%sa0, %sb0)
          : !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<b, 32x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x128>,
            !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>, !hk.fragment<scale, 32x4xf8E8M0FNU, mma = 16x16x128>
      %b1 = hk.load_fragment %Bs1[%c0][%wn, %c0]
          : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
          -> !hk.fragment<b, 32x128xf8E4M3FN, mma = 16x16x128>
      %d01 = hk.mma %a0, %b1, %c01 scales(%sa0, %sb1)
          : !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<b, 32x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x128>,
            !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>, !hk.fragment<scale, 32x4xf8E8M0FNU, mma = 16x16x128>
      %a1 = hk.load_fragment %As1[%c0][%wm, %c0]
          : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
          -> !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>
      %d10 = hk.mma %a1, %b0, %c10 scales(%sa1, %sb0)
          : !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<b, 32x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x128>,
            !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>, !hk.fragment<scale, 32x4xf8E8M0FNU, mma = 16x16x128>
      %d11 = hk.mma %a1, %b1, %c11 scales(%sa1, %sb1)
          : !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<b, 32x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x128>,
            !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>, !hk.fragment<scale, 32x4xf8E8M0FNU, mma = 16x16x128>

      // Nobody refills LDS while another wave still reads it.
      amdgpu.lds_barrier
      scf.yield %d00, %d01, %d10, %d11
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x128>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x128>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x128>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x128>
    }

    hk.store_fragment %acc#0, %C[%r0, %n0w] bounds partial
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x128>, memref<?x?xbf16>
    hk.store_fragment %acc#1, %C[%r0, %n1w] bounds partial
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x128>, memref<?x?xbf16>
    hk.store_fragment %acc#2, %C[%r1, %n0w] bounds partial
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x128>, memref<?x?xbf16>
    hk.store_fragment %acc#3, %C[%r1, %n1w] bounds partial
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x128>, memref<?x?xbf16>
    gpu.return
  }
}
