// HipKittens' 8-wave ping-pong bf16 GEMM for gfx950 (256_256_64_32_with16x32),
// transcribed into hk IR exactly as docs/hardware/SchedulesTailsLayouts.md
// (#pingpong) describes it: the same fills, reads, waits, barriers, clusters
// and phase offset (hk.stagger for the row-1-only barrier of the prologue and
// the row-0-only barrier of the epilogue). Needs an even K tile count >= 2.
// Cluster 4 reads Bs[1][0] before any wait covers its fill: the
// marker line in cluster 3 (GAP) is where the covering `vmcnt(10)` goes.
gpu.module @hipkittens [#rocdl.target<chip = "gfx950">] {
  gpu.func @gemm_8wave(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>,
                  hk.launch = #hk.launch<grid = [arg2[1] / 256, arg2[0] / 256], divisible = [arg0[1] by 128]>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %As0 = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    %As1 = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    %Bs0 = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    %Bs1 = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    %by = gpu.block_id y
    %bx = gpu.block_id x
    %row0 = arith.muli %by, %c256 : index
    %col0 = arith.muli %bx, %c256 : index
    %row1 = arith.addi %row0, %c128 : index
    %col1 = arith.addi %col0, %c128 : index
    %tid = gpu.thread_id x
    %wave = arith.divui %tid, %c64 : index
    %wave_row = arith.divui %wave, %c4 : index
    %wave_col = arith.remui %wave, %c4 : index
    %wm = arith.muli %wave_row, %c64 : index
    %c32 = arith.constant 32 : index
    %wn = arith.muli %wave_col, %c32 : index
    %late = arith.cmpi eq, %wave_row, %c1 : index
    %K = memref.dim %A, %c1 : memref<?x?xbf16>
    %T = arith.divui %K, %c64 : index
    %Tm1 = arith.subi %T, %c1 : index
    %Tm2 = arith.subi %T, %c2 : index
    %pairs = arith.divsi %Tm2, %c2 : index
    %init = hk.fill_fragment %zero : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
    // Prologue: G(B00,0) G(A00,0) G(B01,0) G(A01,0).
    %k1 = arith.muli %c0, %c64 : index
    hk.copy_to_shared %B[%col0, %k1], %Bs0[%c0] direct : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    %k2 = arith.muli %c0, %c64 : index
    hk.copy_to_shared %A[%row0, %k2], %As0[%c0] direct : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    %k3 = arith.muli %c0, %c64 : index
    hk.copy_to_shared %B[%col1, %k3], %Bs1[%c0] direct : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    %k4 = arith.muli %c0, %c64 : index
    hk.copy_to_shared %A[%row1, %k4], %As1[%c0] direct : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    %acc:4 = hk.stagger %late {
      // (row 1's extra barrier) vmcnt(4), barrier, G(B10,1) G(A10,1) G(B11,1), vmcnt(6), barrier.
      amdgpu.memory_counter_wait load(4)
      hk.barrier
      %k5 = arith.muli %c1, %c64 : index
      hk.copy_to_shared %B[%col0, %k5], %Bs0[%c1] direct : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
      %k6 = arith.muli %c1, %c64 : index
      hk.copy_to_shared %A[%row0, %k6], %As0[%c1] direct : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
      %k7 = arith.muli %c1, %c64 : index
      hk.copy_to_shared %B[%col1, %k7], %Bs1[%c1] direct : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
      amdgpu.memory_counter_wait load(6)
      hk.barrier
      %loop:4 = scf.for %p = %c0 to %pairs step %c1 iter_args(%c00 = %init, %c01 = %init, %c10 = %init, %c11 = %init) -> (!hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>) {
        %t = arith.muli %p, %c2 : index
        %t1 = arith.addi %t, %c1 : index
        %t2 = arith.addi %t, %c2 : index
        %t3 = arith.addi %t, %c3 : index
        // Cluster 1.
        %m8, %m9 = hk.cluster {
          %r10 = hk.load_fragment %Bs0[%c0][%wn, %c0] : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2> -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
          %r11 = hk.load_fragment %As0[%c0][%wm, %c0] : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2> -> !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
          %k12 = arith.muli %t1, %c64 : index
          hk.copy_to_shared %A[%row1, %k12], %As1[%c1] direct : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
          hk.yield %r10, %r11 : !hk.fragment<b, 32x64xbf16, mma = 16x16x32>, !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
        } : !hk.fragment<b, 32x64xbf16, mma = 16x16x32>, !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
        amdgpu.memory_counter_wait ds(8)
        hk.barrier
        amdgpu.memory_counter_wait ds(0)
        %c13 = hk.cluster priority = 1 {
          %d14 = hk.mma %m9, %m8, %c00 : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>, !hk.fragment<b, 32x64xbf16, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
          hk.yield %d14 : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        } : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        hk.barrier
        // Cluster 2.
        %m15 = hk.cluster {
          %r16 = hk.load_fragment %Bs1[%c0][%wn, %c0] : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2> -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
          %k17 = arith.muli %t2, %c64 : index
          hk.copy_to_shared %B[%col0, %k17], %Bs0[%c0] direct : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
          hk.yield %r16 : !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
        } : !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
        hk.barrier
        amdgpu.memory_counter_wait ds(0)
        %c18 = hk.cluster priority = 1 {
          %d19 = hk.mma %m9, %m15, %c01 : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>, !hk.fragment<b, 32x64xbf16, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
          hk.yield %d19 : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        } : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        hk.barrier
        // Cluster 3.
        %m20 = hk.cluster {
          %r21 = hk.load_fragment %As1[%c0][%wm, %c0] : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2> -> !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
          %k22 = arith.muli %t2, %c64 : index
          hk.copy_to_shared %A[%row0, %k22], %As0[%c0] direct : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
          hk.yield %r21 : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
        } : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
        // GAP
        hk.barrier
        amdgpu.memory_counter_wait ds(0)
        %c23 = hk.cluster priority = 1 {
          %d24 = hk.mma %m20, %m8, %c10 : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>, !hk.fragment<b, 32x64xbf16, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
          hk.yield %d24 : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        } : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        hk.barrier
        // Cluster 4.
        %m25 = hk.cluster {
          %r26 = hk.load_fragment %Bs0[%c1][%wn, %c0] : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2> -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
          %k27 = arith.muli %t2, %c64 : index
          hk.copy_to_shared %B[%col1, %k27], %Bs1[%c0] direct : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
          hk.yield %r26 : !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
        } : !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
        amdgpu.memory_counter_wait load(6)
        hk.barrier
        %c28 = hk.cluster priority = 1 {
          %d29 = hk.mma %m20, %m15, %c11 : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>, !hk.fragment<b, 32x64xbf16, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
          hk.yield %d29 : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        } : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        hk.barrier
        // Cluster 5.
        %m30 = hk.cluster {
          %r31 = hk.load_fragment %As0[%c1][%wm, %c0] : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2> -> !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
          %k32 = arith.muli %t2, %c64 : index
          hk.copy_to_shared %A[%row1, %k32], %As1[%c0] direct : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
          hk.yield %r31 : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
        } : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
        amdgpu.memory_counter_wait ds(8)
        hk.barrier
        amdgpu.memory_counter_wait ds(0)
        %c33 = hk.cluster priority = 1 {
          %d34 = hk.mma %m30, %m25, %c13 : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>, !hk.fragment<b, 32x64xbf16, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
          hk.yield %d34 : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        } : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        hk.barrier
        // Cluster 6.
        %m35 = hk.cluster {
          %r36 = hk.load_fragment %Bs1[%c1][%wn, %c0] : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2> -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
          %k37 = arith.muli %t3, %c64 : index
          hk.copy_to_shared %B[%col0, %k37], %Bs0[%c1] direct : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
          hk.yield %r36 : !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
        } : !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
        hk.barrier
        amdgpu.memory_counter_wait ds(0)
        %c38 = hk.cluster priority = 1 {
          %d39 = hk.mma %m30, %m35, %c18 : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>, !hk.fragment<b, 32x64xbf16, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
          hk.yield %d39 : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        } : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        hk.barrier
        // Cluster 7.
        %m40 = hk.cluster {
          %r41 = hk.load_fragment %As1[%c1][%wm, %c0] : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2> -> !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
          %k42 = arith.muli %t3, %c64 : index
          hk.copy_to_shared %A[%row0, %k42], %As0[%c1] direct : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
          hk.yield %r41 : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
        } : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
        hk.barrier
        amdgpu.memory_counter_wait ds(0)
        %c43 = hk.cluster priority = 1 {
          %d44 = hk.mma %m40, %m25, %c23 : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>, !hk.fragment<b, 32x64xbf16, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
          hk.yield %d44 : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        } : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        hk.barrier
        // Cluster 8.
        hk.cluster {
          %k45 = arith.muli %t3, %c64 : index
          hk.copy_to_shared %B[%col1, %k45], %Bs1[%c1] direct : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
          hk.yield
        }
        amdgpu.memory_counter_wait load(6)
        hk.barrier
        %c46 = hk.cluster priority = 1 {
          %d47 = hk.mma %m40, %m35, %c28 : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>, !hk.fragment<b, 32x64xbf16, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
          hk.yield %d47 : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        } : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        hk.barrier
        scf.yield %c33, %c38, %c43, %c46 : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      }
      // Epilogue: tiles T-2 (buffer 0) and T-1 (buffer 1).
      %m48, %m49 = hk.cluster {
        %r50 = hk.load_fragment %Bs0[%c0][%wn, %c0] : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2> -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
        %r51 = hk.load_fragment %As0[%c0][%wm, %c0] : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2> -> !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
        %k52 = arith.muli %Tm1, %c64 : index
        hk.copy_to_shared %A[%row1, %k52], %As1[%c1] direct : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
        hk.yield %r50, %r51 : !hk.fragment<b, 32x64xbf16, mma = 16x16x32>, !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
      } : !hk.fragment<b, 32x64xbf16, mma = 16x16x32>, !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
      hk.barrier
      %c53 = hk.cluster priority = 1 {
        %d54 = hk.mma %m49, %m48, %loop#0 : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>, !hk.fragment<b, 32x64xbf16, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        hk.yield %d54 : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      } : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      hk.barrier
      %m55 = hk.cluster {
        %r56 = hk.load_fragment %Bs1[%c0][%wn, %c0] : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2> -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
        hk.yield %r56 : !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
      } : !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
      hk.barrier
      %c57 = hk.cluster priority = 1 {
        %d58 = hk.mma %m49, %m55, %loop#1 : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>, !hk.fragment<b, 32x64xbf16, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        hk.yield %d58 : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      } : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      hk.barrier
      %m59 = hk.cluster {
        %r60 = hk.load_fragment %As1[%c0][%wm, %c0] : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2> -> !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
        hk.yield %r60 : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
      } : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
      amdgpu.memory_counter_wait load(4)
      hk.barrier
      %c61, %c62 = hk.cluster priority = 1 {
        %d63 = hk.mma %m59, %m48, %loop#2 : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>, !hk.fragment<b, 32x64xbf16, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        %d64 = hk.mma %m59, %m55, %loop#3 : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>, !hk.fragment<b, 32x64xbf16, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        hk.yield %d63, %d64 : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      } : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      hk.barrier
      %m65, %m66 = hk.cluster {
        %r67 = hk.load_fragment %Bs0[%c1][%wn, %c0] : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2> -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
        %r68 = hk.load_fragment %As0[%c1][%wm, %c0] : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2> -> !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
        hk.yield %r67, %r68 : !hk.fragment<b, 32x64xbf16, mma = 16x16x32>, !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
      } : !hk.fragment<b, 32x64xbf16, mma = 16x16x32>, !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
      amdgpu.memory_counter_wait load(2)
      hk.barrier
      %c69 = hk.cluster priority = 1 {
        %d70 = hk.mma %m66, %m65, %c53 : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>, !hk.fragment<b, 32x64xbf16, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        hk.yield %d70 : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      } : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      hk.barrier
      %m71 = hk.cluster {
        %r72 = hk.load_fragment %Bs1[%c1][%wn, %c0] : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2> -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
        hk.yield %r72 : !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
      } : !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
      amdgpu.memory_counter_wait load(0)
      hk.barrier
      %c73 = hk.cluster priority = 1 {
        %d74 = hk.mma %m66, %m71, %c57 : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>, !hk.fragment<b, 32x64xbf16, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        hk.yield %d74 : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      } : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      hk.barrier
      %m75 = hk.cluster {
        %r76 = hk.load_fragment %As1[%c1][%wm, %c0] : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2> -> !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
        hk.yield %r76 : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
      } : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
      hk.barrier
      %c77, %c78 = hk.cluster priority = 1 {
        %d79 = hk.mma %m75, %m65, %c61 : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>, !hk.fragment<b, 32x64xbf16, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        %d80 = hk.mma %m75, %m71, %c62 : !hk.fragment<a, 64x64xbf16, mma = 16x16x32>, !hk.fragment<b, 32x64xbf16, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
        hk.yield %d79, %d80 : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      } : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
      hk.barrier
      hk.yield %c69, %c73, %c77, %c78 : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
    } : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
    // (row 0's balancing barrier is the stagger's.) Stores.
    %r0 = arith.addi %row0, %wm : index
    %r1 = arith.addi %row1, %wm : index
    %n0 = arith.addi %col0, %wn : index
    %n1 = arith.addi %col1, %wn : index
    hk.store_fragment %acc#0, %C[%r0, %n0] : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<?x?xbf16>
    hk.store_fragment %acc#1, %C[%r0, %n1] : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<?x?xbf16>
    hk.store_fragment %acc#2, %C[%r1, %n0] : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<?x?xbf16>
    hk.store_fragment %acc#3, %C[%r1, %n1] : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<?x?xbf16>
    gpu.return
  }
}
