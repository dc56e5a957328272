// The HipKittens bf16 GEMM for gfx950 (MI350/MI355X), batched, with
// leading-dimension strides and a BLAS epilogue:
//
//   C[b] = alpha * A[b] @ B[b]^T + beta * C[b] + bias   for b < batch,
//
// A[b] M x K, B[b] N x K, C[b] M x N (bf16, row-major with any row stride
// that is at least the row length: padded rows), bias (f32) N, one per
// column of C, alpha and beta f32 at run time. As BLAS does, beta = 0 reads
// no C (C may then hold anything, NaN included).
//
// The main loop is gemm_bf16_gfx950.mlir's: each workgroup takes one batch
// (block z) and one 256x256 tile of its C; memref.subview gives the batch's
// matrices, whose offset and strides the copies and stores follow. The
// epilogue reads each wave's block of C and of the bias in the accumulator
// layout (hk.read_fragment), combines them elementwise (hk.map) and stores.
//
// Launch (recorded in hk.launch): grid (ceil(N / 256), ceil(M / 256),
// batch), block (512, 1, 1). Any M, N, K >= 1, as in the unbatched kernel.
gpu.module @hk_gemm [#rocdl.target<chip = "gfx950">] {
  gpu.func @gemm_bf16_batched(%A: memref<?x?x?xbf16, strided<[?, ?, 1]>>,
                              %B: memref<?x?x?xbf16, strided<[?, ?, 1]>>,
                              %C: memref<?x?x?xbf16, strided<[?, ?, 1]>>,
                              %bias: memref<?xf32>, %alpha: f32, %beta: f32) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>,
                  hk.launch = #hk.launch<grid = [arg2[2] ceildiv 256, arg2[1] ceildiv 256, arg2[0] / 1]>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
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

    // A rows 0-127 and 128-255, B rows (columns of C) likewise.
    %As0 = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    %As1 = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    %Bs0 = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    %Bs1 = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>

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

    %init = hk.fill_fragment %zero : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
    %acc:4 = scf.for %k = %c0 to %K step %c64
        iter_args(%c00 = %init, %c01 = %init, %c10 = %init, %c11 = %init)
        -> (!hk.fragment<acc, 64x32xf32, mma = 16x16x32>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x32>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x32>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x32>) {
      hk.copy_to_shared %Ab[%row0, %k], %As0[%c0] bounds partial
          : memref<?x?xbf16, strided<[?, 1], offset: ?>>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      hk.copy_to_shared %Ab[%row1, %k], %As1[%c0] bounds partial
          : memref<?x?xbf16, strided<[?, 1], offset: ?>>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      hk.copy_to_shared %Bb[%col0, %k], %Bs0[%c0] bounds partial
          : memref<?x?xbf16, strided<[?, 1], offset: ?>>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      hk.copy_to_shared %Bb[%col1, %k], %Bs1[%c0] bounds partial
          : memref<?x?xbf16, strided<[?, 1], offset: ?>>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      amdgpu.lds_barrier

      %b0 = hk.load_fragment %Bs0[%c0][%wn, %c0]
          : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
      %a0 = hk.load_fragment %As0[%c0][%wm, %c0]
          : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
      %d00 = hk.mma %a0, %b0, %c00
          : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>,
            !hk.fragment<b, 32x64xbf16, mma = 16x16x32>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      %b1 = hk.load_fragment %Bs1[%c0][%wn, %c0]
          : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
      %d01 = hk.mma %a0, %b1, %c01
          : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>,
            !hk.fragment<b, 32x64xbf16, mma = 16x16x32>,
            !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      %a1 = hk.load_fragment %As1[%c0][%wm, %c0]
          : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
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

    // The epilogue, per wave block: alpha * acc + beta * C + bias.
    %r0 = arith.addi %row0, %wm : index
    %r1 = arith.addi %row1, %wm : index
    %n0w = arith.addi %col0, %wn : index
    %n1w = arith.addi %col1, %wn : index
    // beta = 0 reads no C (BLAS). Each block is read, combined and stored
    // in its own branch, so at most one block of C is live at a time.
    %read_c = arith.cmpf une, %beta, %zero : f32
    %bias0 = hk.read_fragment %bias[%n0w] bounds partial
        : memref<?xf32> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
    scf.if %read_c {
      %old = hk.read_fragment %Cb[%r0, %n0w] bounds partial
          : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      %d = hk.map %acc#0, %old, %bias0
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32> {
      ^bb0(%x: f32, %y: f32, %z: f32):
        %ax = arith.mulf %alpha, %x : f32
        %by = arith.mulf %beta, %y : f32
        %sum = arith.addf %ax, %by : f32
        %out = arith.addf %sum, %z : f32
        hk.yield %out : f32
      }
      hk.store_fragment %d, %Cb[%r0, %n0w] bounds partial
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<?x?xbf16, strided<[?, 1], offset: ?>>
    } else {
      %d = hk.map %acc#0, %bias0
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32> {
      ^bb0(%x: f32, %z: f32):
        %ax = arith.mulf %alpha, %x : f32
        %out = arith.addf %ax, %z : f32
        hk.yield %out : f32
      }
      hk.store_fragment %d, %Cb[%r0, %n0w] bounds partial
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<?x?xbf16, strided<[?, 1], offset: ?>>
    }
    %bias1 = hk.read_fragment %bias[%n1w] bounds partial
        : memref<?xf32> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
    scf.if %read_c {
      %old = hk.read_fragment %Cb[%r0, %n1w] bounds partial
          : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      %d = hk.map %acc#1, %old, %bias1
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32> {
      ^bb0(%x: f32, %y: f32, %z: f32):
        %ax = arith.mulf %alpha, %x : f32
        %by = arith.mulf %beta, %y : f32
        %sum = arith.addf %ax, %by : f32
        %out = arith.addf %sum, %z : f32
        hk.yield %out : f32
      }
      hk.store_fragment %d, %Cb[%r0, %n1w] bounds partial
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<?x?xbf16, strided<[?, 1], offset: ?>>
    } else {
      %d = hk.map %acc#1, %bias1
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32> {
      ^bb0(%x: f32, %z: f32):
        %ax = arith.mulf %alpha, %x : f32
        %out = arith.addf %ax, %z : f32
        hk.yield %out : f32
      }
      hk.store_fragment %d, %Cb[%r0, %n1w] bounds partial
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<?x?xbf16, strided<[?, 1], offset: ?>>
    }
    %bias2 = hk.read_fragment %bias[%n0w] bounds partial
        : memref<?xf32> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
    scf.if %read_c {
      %old = hk.read_fragment %Cb[%r1, %n0w] bounds partial
          : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      %d = hk.map %acc#2, %old, %bias2
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32> {
      ^bb0(%x: f32, %y: f32, %z: f32):
        %ax = arith.mulf %alpha, %x : f32
        %by = arith.mulf %beta, %y : f32
        %sum = arith.addf %ax, %by : f32
        %out = arith.addf %sum, %z : f32
        hk.yield %out : f32
      }
      hk.store_fragment %d, %Cb[%r1, %n0w] bounds partial
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<?x?xbf16, strided<[?, 1], offset: ?>>
    } else {
      %d = hk.map %acc#2, %bias2
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32> {
      ^bb0(%x: f32, %z: f32):
        %ax = arith.mulf %alpha, %x : f32
        %out = arith.addf %ax, %z : f32
        hk.yield %out : f32
      }
      hk.store_fragment %d, %Cb[%r1, %n0w] bounds partial
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<?x?xbf16, strided<[?, 1], offset: ?>>
    }
    %bias3 = hk.read_fragment %bias[%n1w] bounds partial
        : memref<?xf32> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
    scf.if %read_c {
      %old = hk.read_fragment %Cb[%r1, %n1w] bounds partial
          : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      %d = hk.map %acc#3, %old, %bias3
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32> {
      ^bb0(%x: f32, %y: f32, %z: f32):
        %ax = arith.mulf %alpha, %x : f32
        %by = arith.mulf %beta, %y : f32
        %sum = arith.addf %ax, %by : f32
        %out = arith.addf %sum, %z : f32
        hk.yield %out : f32
      }
      hk.store_fragment %d, %Cb[%r1, %n1w] bounds partial
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<?x?xbf16, strided<[?, 1], offset: ?>>
    } else {
      %d = hk.map %acc#3, %bias3
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32> -> !hk.fragment<acc, 64x32xf32, mma = 16x16x32> {
      ^bb0(%x: f32, %z: f32):
        %ax = arith.mulf %alpha, %x : f32
        %out = arith.addf %ax, %z : f32
        hk.yield %out : f32
      }
      hk.store_fragment %d, %Cb[%r1, %n1w] bounds partial
          : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<?x?xbf16, strided<[?, 1], offset: ?>>
    }
    gpu.return
  }
}
