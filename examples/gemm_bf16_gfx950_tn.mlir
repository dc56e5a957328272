// The HipKittens bf16 GEMM for gfx950 (MI350/MI355X), synchronous K loop,
// operand layout "tn".
//
//   C[M, N] (bf16) = A[K, M]^T @ B[K, N], fp32 accumulation, row-major:
//   A is stored K x M and B K x N (BLAS "tn").
//   Run it with hk-run --layout=tn.
//
// The K-major operand's tiles keep its global orientation (64 k rows x 128
// m or n columns, st_16x32): the copies fill them as any copy does, and the
// fragment loads read them with `transpose` (amdgpu.transpose_load,
// ds_read_b64_tr_b16: two 8-byte transposed reads per 16x32 fragment
// instead of one 16-byte read). Those copies stay `bounds partial` in every
// K tile (the M or N edge is in their columns), so they take the register
// path; hk-schedule-ping-pong, which counts direct loads, refuses them.
//
// One workgroup of 8 waves (512 lanes) computes a 256x256 tile of C. The
// waves form a 2 x 4 grid. As in HipKittens, the workgroup's 256x64 K tiles
// of A and B are each held as two 128-row halves (four 16 KiB shared tiles,
// st_16x32 swizzle), and wave (r, c) owns four 64x32 blocks of C: rows
// h * 128 + r * 64 of A half h, columns h' * 128 + c * 32 of B half h'. Per
// K tile each block takes one hk.mma of two k-chunks of 32 (16 MFMAs), in
// the order C00, C01, C10, C11, each reading the operands it is the first to
// need: the shape hk-schedule-ping-pong turns into HipKittens' clusters.
//
// Launch (recorded in hk.launch): grid (ceil(N / 256), ceil(M / 256)),
// block (512, 1, 1). Any M, N, K >= 1: the copies and stores take
// `bounds partial` (zeros read past the matrices, nothing written past C),
// and hk-peel-partial-tiles gives the whole K tiles a loop without masks.
gpu.module @hk_gemm [#rocdl.target<chip = "gfx950">] {
  gpu.func @gemm_bf16(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                      %C: memref<?x?xbf16>) kernel
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
    %As0 = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x32>>
    %As1 = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x32>>
    %Bs0 = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x32>>
    %Bs1 = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x32>>

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

    %K = memref.dim %A, %c0 : memref<?x?xbf16>
    %init = hk.fill_fragment %zero : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
    %acc:4 = scf.for %k = %c0 to %K step %c64
        iter_args(%c00 = %init, %c01 = %init, %c10 = %init, %c11 = %init)
        -> (!hk.fragment<acc, 64x32xf32, mma = 16x16x32>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x32>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x32>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x32>) {
      hk.copy_to_shared %A[%k, %row0], %As0[%c0] bounds partial
          : memref<?x?xbf16>, !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x32>>
      hk.copy_to_shared %A[%k, %row1], %As1[%c0] bounds partial
          : memref<?x?xbf16>, !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x32>>
      hk.copy_to_shared %B[%k, %col0], %Bs0[%c0] bounds partial
          : memref<?x?xbf16>, !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x32>>
      hk.copy_to_shared %B[%k, %col1], %Bs1[%c0] bounds partial
          : memref<?x?xbf16>, !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x32>>
      amdgpu.lds_barrier

      %b0 = hk.load_fragment %Bs0[%c0][%c0, %wn] transpose
          : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
      %a0 = hk.load_fragment %As0[%c0][%c0, %wm] transpose
          : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
      %d00 = hk.mma %a0, %b0, %c00
          : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>,
            !hk.fragment<b, 32x64xbf16, mma = 16x16x32>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      %b1 = hk.load_fragment %Bs1[%c0][%c0, %wn] transpose
          : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
      %d01 = hk.mma %a0, %b1, %c01
          : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>,
            !hk.fragment<b, 32x64xbf16, mma = 16x16x32>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      %a1 = hk.load_fragment %As1[%c0][%c0, %wm] transpose
          : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
      %d10 = hk.mma %a1, %b0, %c10
          : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>,
            !hk.fragment<b, 32x64xbf16, mma = 16x16x32>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      %d11 = hk.mma %a1, %b1, %c11
          : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>,
            !hk.fragment<b, 32x64xbf16, mma = 16x16x32>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x32>

      // Nobody refills LDS while another wave still reads it.
      amdgpu.lds_barrier
      scf.yield %d00, %d01, %d10, %d11
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x32>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x32>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
    }

    %r0 = arith.addi %row0, %wm : index
    %r1 = arith.addi %row1, %wm : index
    %n0w = arith.addi %col0, %wn : index
    %n1w = arith.addi %col1, %wn : index
    hk.store_fragment %acc#0, %C[%r0, %n0w] bounds partial
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<?x?xbf16>
    hk.store_fragment %acc#1, %C[%r0, %n1w] bounds partial
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<?x?xbf16>
    hk.store_fragment %acc#2, %C[%r1, %n0w] bounds partial
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<?x?xbf16>
    hk.store_fragment %acc#3, %C[%r1, %n1w] bounds partial
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<?x?xbf16>
    gpu.return
  }
}
