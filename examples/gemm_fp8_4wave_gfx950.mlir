// The HipKittens 4-wave fp8 GEMM for gfx950 (MI350/MI355X): 64 MFMAs per
// wave per K tile.
//
//   C[M, N] (bf16) = scale_a * scale_b * A[M, K] @ B[N, K]^T,
//
// gemm_fp8_gfx950.mlir with the workgroup's 256x256 tile of C split among
// 4 waves (2 x 2) instead of 8: each wave owns a 128x128 warp tile, four
// 64x64 blocks, and issues 64 v_mfma_f32_16x16x128_f8f6f4 per K tile of 128
// (the 8-wave kernel issues 32). Its 256 accumulator registers do not fit
// beside the operands in 256 VGPRs: at one wave per SIMD (256 lanes per
// workgroup) the wave has 512 registers, and LLVM keeps the accumulators in
// AGPRs, which the MFMA reads and writes directly. HipKittens' FP8_4wave
// has the same tiling. --schedule=ping-pong compiles and computes the same C
// but gains nothing: it alternates two waves on a SIMD, and here each SIMD
// has one.
//
// Launch (recorded in hk.launch): grid (ceil(N / 256), ceil(M / 256)),
// block (256, 1, 1). Any M, N, K >= 1, as gemm_fp8_gfx950.mlir.
gpu.module @hk_gemm [#rocdl.target<chip = "gfx950">] {
  gpu.func @gemm_fp8_4wave(%A: memref<?x?xf8E4M3FN>, %B: memref<?x?xf8E4M3FN>,
                     %C: memref<?x?xbf16>, %scale_a: f32, %scale_b: f32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  hk.launch = #hk.launch<grid = [arg2[1] ceildiv 256, arg2[0] ceildiv 256]>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32

    // A rows 0-127 and 128-255, B rows (columns of C) likewise.
    %As0 = hk.alloc_shared : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
    %As1 = hk.alloc_shared : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
    %Bs0 = hk.alloc_shared : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
    %Bs1 = hk.alloc_shared : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>

    // This workgroup's tile of C, and this wave's place in the 2 x 2 grid.
    %m0 = gpu.block_id y
    %n0 = gpu.block_id x
    %row0 = arith.muli %m0, %c256 : index
    %col0 = arith.muli %n0, %c256 : index
    %row1 = arith.addi %row0, %c128 : index
    %col1 = arith.addi %col0, %c128 : index
    %tid = gpu.thread_id x
    %wave = arith.divui %tid, %c64 : index
    %wave_row = arith.divui %wave, %c2 : index
    %wave_col = arith.remui %wave, %c2 : index
    %wm = arith.muli %wave_row, %c64 : index
    %wn = arith.muli %wave_col, %c64 : index

    %K = memref.dim %A, %c1 : memref<?x?xf8E4M3FN>
    %init = hk.fill_fragment %zero : !hk.fragment<acc, 64x64xf32, mma = 16x16x128>
    %acc:4 = scf.for %k = %c0 to %K step %c128
        iter_args(%c00 = %init, %c01 = %init, %c10 = %init, %c11 = %init)
        -> (!hk.fragment<acc, 64x64xf32, mma = 16x16x128>,
            !hk.fragment<acc, 64x64xf32, mma = 16x16x128>,
            !hk.fragment<acc, 64x64xf32, mma = 16x16x128>,
            !hk.fragment<acc, 64x64xf32, mma = 16x16x128>) {
      hk.copy_to_shared %A[%row0, %k], %As0[%c0] bounds partial
          : memref<?x?xf8E4M3FN>, !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
      hk.copy_to_shared %A[%row1, %k], %As1[%c0] bounds partial
          : memref<?x?xf8E4M3FN>, !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
      hk.copy_to_shared %B[%col0, %k], %Bs0[%c0] bounds partial
          : memref<?x?xf8E4M3FN>, !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
      hk.copy_to_shared %B[%col1, %k], %Bs1[%c0] bounds partial
          : memref<?x?xf8E4M3FN>, !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
      amdgpu.lds_barrier

      %b0 = hk.load_fragment %Bs0[%c0][%wn, %c0]
          : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
          -> !hk.fragment<b, 64x128xf8E4M3FN, mma = 16x16x128>
      %a0 = hk.load_fragment %As0[%c0][%wm, %c0]
          : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
          -> !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>
      %d00 = hk.mma %a0, %b0, %c00
          : !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<b, 64x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<acc, 64x64xf32, mma = 16x16x128>
      %b1 = hk.load_fragment %Bs1[%c0][%wn, %c0]
          : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
          -> !hk.fragment<b, 64x128xf8E4M3FN, mma = 16x16x128>
      %d01 = hk.mma %a0, %b1, %c01
          : !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<b, 64x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<acc, 64x64xf32, mma = 16x16x128>
      %a1 = hk.load_fragment %As1[%c0][%wm, %c0]
          : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
          -> !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>
      %d10 = hk.mma %a1, %b0, %c10
          : !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<b, 64x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<acc, 64x64xf32, mma = 16x16x128>
      %d11 = hk.mma %a1, %b1, %c11
          : !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<b, 64x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<acc, 64x64xf32, mma = 16x16x128>

      // Nobody refills LDS while another wave still reads it.
      amdgpu.lds_barrier
      scf.yield %d00, %d01, %d10, %d11
          : !hk.fragment<acc, 64x64xf32, mma = 16x16x128>,
            !hk.fragment<acc, 64x64xf32, mma = 16x16x128>,
            !hk.fragment<acc, 64x64xf32, mma = 16x16x128>,
            !hk.fragment<acc, 64x64xf32, mma = 16x16x128>
    }

    // C = scale_a * scale_b * (A B^T), in f32, rounded once to bf16.
    %scale = arith.mulf %scale_a, %scale_b : f32
    %r0 = arith.addi %row0, %wm : index
    %r1 = arith.addi %row1, %wm : index
    %n0w = arith.addi %col0, %wn : index
    %n1w = arith.addi %col1, %wn : index
    %d0 = hk.map %acc#0 : !hk.fragment<acc, 64x64xf32, mma = 16x16x128> -> !hk.fragment<acc, 64x64xf32, mma = 16x16x128> {
    ^bb0(%x: f32):
      %y = arith.mulf %scale, %x : f32
      hk.yield %y : f32
    }
    hk.store_fragment %d0, %C[%r0, %n0w] bounds partial
        : !hk.fragment<acc, 64x64xf32, mma = 16x16x128>, memref<?x?xbf16>
    %d1 = hk.map %acc#1 : !hk.fragment<acc, 64x64xf32, mma = 16x16x128> -> !hk.fragment<acc, 64x64xf32, mma = 16x16x128> {
    ^bb0(%x: f32):
      %y = arith.mulf %scale, %x : f32
      hk.yield %y : f32
    }
    hk.store_fragment %d1, %C[%r0, %n1w] bounds partial
        : !hk.fragment<acc, 64x64xf32, mma = 16x16x128>, memref<?x?xbf16>
    %d2 = hk.map %acc#2 : !hk.fragment<acc, 64x64xf32, mma = 16x16x128> -> !hk.fragment<acc, 64x64xf32, mma = 16x16x128> {
    ^bb0(%x: f32):
      %y = arith.mulf %scale, %x : f32
      hk.yield %y : f32
    }
    hk.store_fragment %d2, %C[%r1, %n0w] bounds partial
        : !hk.fragment<acc, 64x64xf32, mma = 16x16x128>, memref<?x?xbf16>
    %d3 = hk.map %acc#3 : !hk.fragment<acc, 64x64xf32, mma = 16x16x128> -> !hk.fragment<acc, 64x64xf32, mma = 16x16x128> {
    ^bb0(%x: f32):
      %y = arith.mulf %scale, %x : f32
      hk.yield %y : f32
    }
    hk.store_fragment %d3, %C[%r1, %n1w] bounds partial
        : !hk.fragment<acc, 64x64xf32, mma = 16x16x128>, memref<?x?xbf16>
    gpu.return
  }
}
