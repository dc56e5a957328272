// Test input for hk-run --moe: a naive MoE GEMM of the gathered form with
// the deterministic combine (include/HK/Harness/MoeWorkload.h): two
// kernels, run one after the other.
//
// moe_gemm_bf16_cf32_gathered_combine_deterministic takes the atomic
// combine's arguments, but its C is Y [T topk, N] f32, one row per slot:
// one lane per (entry x of sorted_token_ids, column j), over the persistent
// grid of `workgroups` workgroups (its launch term), tiles of 4 entries (its
// divisible term). A lane whose entry holds slot s (padding entries hold T
// topk, past Y's rows) stores
//
//   Y[s, j] = w(x) sum_k A[s / topk, k] B[e, j, k],   e the tile's expert
//
// once, with a plain store. moe_combine_sum_f32 (Y, C [T, N], topk) then
// writes C[t, j] = Y[t topk, j] + Y[t topk + 1, j] + ..., in that order,
// one lane per element of C on a grid from its own launch terms (N / 64
// rounded up by T). hk-run-moe-deterministic.test breaks both on purpose
// with sed (%slots, %end).
gpu.module @moe {
  gpu.func @moe_gemm_bf16_cf32_gathered_combine_deterministic(
      %A: memref<?x?xbf16>, %B: memref<?x?x?xbf16>, %Y: memref<?x?xf32>,
      %sorted: memref<?xi32>, %experts: memref<?xi32>,
      %weights: memref<?xf32>, %topk: i32, %workgroups: i32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  hk.launch = #hk.launch<grid = [arg7[0] / 1],
                                         divisible = [arg3[0] by 4]>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %K = memref.dim %A, %c1 : memref<?x?xbf16>
    %slots = memref.dim %Y, %c0 : memref<?x?xf32>
    %N = memref.dim %Y, %c1 : memref<?x?xf32>
    %P = memref.dim %sorted, %c0 : memref<?xi32>
    %top_k = arith.index_cast %topk : i32 to index
    %total = arith.muli %P, %N : index
    %block = gpu.block_id x
    %lane = gpu.thread_id x
    %base = arith.muli %block, %c64 : index
    %first = arith.addi %base, %lane : index
    %wg = arith.index_cast %workgroups : i32 to index
    %step = arith.muli %wg, %c64 : index
    scf.for %i = %first to %total step %step {
      %x = arith.divui %i, %N : index
      %j = arith.remui %i, %N : index
      %slot32 = memref.load %sorted[%x] : memref<?xi32>
      %slot = arith.index_cast %slot32 : i32 to index
      %real = arith.cmpi ult, %slot, %slots : index
      scf.if %real {
        %t = arith.divui %slot, %top_k : index
        %tile = arith.divui %x, %c4 : index
        %e32 = memref.load %experts[%tile] : memref<?xi32>
        %e = arith.index_cast %e32 : i32 to index
        %w = memref.load %weights[%x] : memref<?xf32>
        %dot = scf.for %k = %c0 to %K step %c1 iter_args(%s = %zero) -> (f32) {
          %a = memref.load %A[%t, %k] : memref<?x?xbf16>
          %b = memref.load %B[%e, %j, %k] : memref<?x?x?xbf16>
          %af = arith.extf %a : bf16 to f32
          %bf = arith.extf %b : bf16 to f32
          %p = arith.mulf %af, %bf : f32
          %sum = arith.addf %s, %p : f32
          scf.yield %sum : f32
        }
        %weighted = arith.mulf %w, %dot : f32
        memref.store %weighted, %Y[%slot, %j] : memref<?x?xf32>
      }
    }
    gpu.return
  }

  gpu.func @moe_combine_sum_f32(%Y: memref<?x?xf32>, %C: memref<?x?xf32>,
                                %topk: i32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  hk.launch = #hk.launch<grid = [arg1[1] ceildiv 64,
                                                 arg1[0] / 1]>} {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %N = memref.dim %C, %c1 : memref<?x?xf32>
    %top_k = arith.index_cast %topk : i32 to index
    %t = gpu.block_id y
    %column_block = gpu.block_id x
    %lane = gpu.thread_id x
    %base = arith.muli %column_block, %c64 : index
    %j = arith.addi %base, %lane : index
    %inside = arith.cmpi ult, %j, %N : index
    scf.if %inside {
      %first = arith.muli %t, %top_k : index
      %second = arith.addi %first, %c1 : index
      %end = arith.addi %first, %top_k : index
      %y0 = memref.load %Y[%first, %j] : memref<?x?xf32>
      %sum = scf.for %r = %second to %end step %c1 iter_args(%s = %y0) -> (f32) {
        %y = memref.load %Y[%r, %j] : memref<?x?xf32>
        %next = arith.addf %s, %y : f32
        scf.yield %next : f32
      }
      memref.store %sum, %C[%t, %j] : memref<?x?xf32>
    }
    gpu.return
  }
}
