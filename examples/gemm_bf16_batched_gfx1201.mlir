// The HipKittens bf16 GEMM for gfx1201 (RX 9070), batched, with
// leading-dimension strides and a BLAS epilogue:
//
//   C[b] = alpha * A[b] @ B[b]^T + beta * C[b] + bias   for b < batch,
//
// A[b] M x K, B[b] N x K, C[b] M x N (bf16, row-major with any row stride
// that is at least the row length: padded rows), bias (f32) N, one per
// column of C, alpha and beta f32 at run time. As BLAS does, beta = 0 reads
// no C (C may then hold anything, NaN included).
//
// The main loop is gemm_bf16_gfx1201.mlir's: each workgroup takes one batch
// (block z) and one 128x128 tile of its C; memref.subview gives the batch's
// matrices, whose offset and strides the copies and stores follow. The
// epilogue reads each wave's block of C and of the bias in the accumulator
// layout (hk.read_fragment), combines them elementwise (hk.map) and stores.
//
// Launch (recorded in hk.launch): grid (ceil(N / 128), ceil(M / 128),
// batch), block (256, 1, 1). Any M, N, K >= 1, as in the unbatched kernel.
gpu.module @hk_gemm [#rocdl.target<chip = "gfx1201">] {
  gpu.func @gemm_bf16_batched(%A: memref<?x?x?xbf16, strided<[?, ?, 1]>>,
                              %B: memref<?x?x?xbf16, strided<[?, ?, 1]>>,
                              %C: memref<?x?x?xbf16, strided<[?, ?, 1]>>,
                              %bias: memref<?xf32>, %alpha: f32, %beta: f32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  hk.launch = #hk.launch<grid = [arg2[2] ceildiv 128, arg2[1] ceildiv 128, arg2[0] / 1]>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32

    // This workgroup's batch: 2-D views of its A, B and C.
    %batch = gpu.block_id z
    %M = memref.dim %A, %c1 : memref<?x?x?xbf16, strided<[?, ?, 1]>>
    %K = memref.dim %A, %c2 : memref<?x?x?xbf16, strided<[?, ?, 1]>>
    %N = memref.dim %B, %c1 : memref<?x?x?xbf16, strided<[?, ?, 1]>>
    %Ab = memref.subview %A[%batch, 0, 0] [1, %M, %K] [1, 1, 1]
        : memref<?x?x?xbf16, strided<[?, ?, 1]>> to memref<?x?xbf16, strided<[?, 1], offset: ?>>
    %Bb = memref.subview %B[%batch, 0, 0] [1, %N, %K] [1, 1, 1]
        : memref<?x?x?xbf16, strided<[?, ?, 1]>> to memref<?x?xbf16, strided<[?, 1], offset: ?>>
    %Cb = memref.subview %C[%batch, 0, 0] [1, %M, %N] [1, 1, 1]
        : memref<?x?x?xbf16, strided<[?, ?, 1]>> to memref<?x?xbf16, strided<[?, 1], offset: ?>>

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

    %init = hk.fill_fragment %zero : !hk.fragment<acc, 64x32xf32, mma = 16x16x16>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c_k = %init)
        -> (!hk.fragment<acc, 64x32xf32, mma = 16x16x16>) {
      hk.copy_to_shared %Ab[%row0, %k], %As[%c0] bounds partial
          : memref<?x?xbf16, strided<[?, 1], offset: ?>>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
      hk.copy_to_shared %Bb[%col0, %k], %Bs[%c0] bounds partial
          : memref<?x?xbf16, strided<[?, 1], offset: ?>>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
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

    // The epilogue: alpha * acc + beta * C + bias.
    %cm = arith.addi %row0, %wm : index
    %cn = arith.addi %col0, %wn : index
    // beta = 0 reads no C (BLAS). Each block is read, combined and stored
    // in its own branch, so at most one block of C is live at a time.
    %read_c = arith.cmpf une, %beta, %zero : f32
    %bias0 = hk.read_fragment %bias[%cn] bounds partial
        : memref<?xf32> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x16>
    scf.if %read_c {
      %old = hk.read_fragment %Cb[%cm, %cn] bounds partial
          : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x16>
      %d = hk.map %acc, %old, %bias0
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x16>, !hk.fragment<acc, 64x32xf32, mma = 16x16x16>, !hk.fragment<acc, 64x32xf32, mma = 16x16x16> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x16> {
      ^bb0(%x: f32, %y: f32, %z: f32):
        %ax = arith.mulf %alpha, %x : f32
        %by = arith.mulf %beta, %y : f32
        %sum = arith.addf %ax, %by : f32
        %out = arith.addf %sum, %z : f32
        hk.yield %out : f32
      }
      hk.store_fragment %d, %Cb[%cm, %cn] bounds partial
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x16>, memref<?x?xbf16, strided<[?, 1], offset: ?>>
    } else {
      %d = hk.map %acc, %bias0
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x16>, !hk.fragment<acc, 64x32xf32, mma = 16x16x16> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x16> {
      ^bb0(%x: f32, %z: f32):
        %ax = arith.mulf %alpha, %x : f32
        %out = arith.addf %ax, %z : f32
        hk.yield %out : f32
      }
      hk.store_fragment %d, %Cb[%cm, %cn] bounds partial
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x16>, memref<?x?xbf16, strided<[?, 1], offset: ?>>
    }
    gpu.return
  }
}
