// Test input for hk-run --moe: a naive MoE GEMM of the gathered form with
// the weighted combine epilogue (include/HK/Harness/MoeWorkload.h) that,
// like hk-gen's, adds with atomics: one lane per (entry x of
// sorted_token_ids, column j) over the persistent grid of `workgroups`
// workgroups (its launch term), tiles of 4 entries (its divisible term).
// A lane whose entry holds slot s (padding entries hold T topk, no slot)
// adds w(x) A[s / topk, :] . B[e, j, :] into C[s / topk, j] with an f32
// buffer atomic add, e the entry's tile's expert:
//
//   C[t, j] += w(t, c) sum_k A[t, k] B[e(t, c), j, k]   (atomically)
//
// A token's topk adds come from different lanes, usually of different
// workgroups, so the order of the adds follows the workgroups' (hk-run
// --shuffle-workgroups: hk-run-shuffle-workgroups.test).
gpu.module @moe {
  gpu.func @moe_gemm_bf16_cf32_gathered_combine(%A: memref<?x?xbf16>,
      %B: memref<?x?x?xbf16>, %C: memref<?x?xf32>, %sorted: memref<?xi32>,
      %experts: memref<?xi32>, %weights: memref<?xf32>, %topk: i32,
      %workgroups: i32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  hk.launch = #hk.launch<grid = [arg7[0] / 1],
                                         divisible = [arg3[0] by 4]>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %K = memref.dim %A, %c1 : memref<?x?xbf16>
    %T = memref.dim %C, %c0 : memref<?x?xf32>
    %N = memref.dim %C, %c1 : memref<?x?xf32>
    %P = memref.dim %sorted, %c0 : memref<?xi32>
    %top_k = arith.index_cast %topk : i32 to index
    %slots = arith.muli %T, %top_k : index
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
        %t32 = arith.index_cast %t : index to i32
        %j32 = arith.index_cast %j : index to i32
        amdgpu.raw_buffer_atomic_fadd %weighted -> %C[%t32, %j32] : f32 -> memref<?x?xf32>, i32, i32
      }
    }
    gpu.return
  }
}
