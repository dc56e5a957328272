// Test input for hk-run --moe: a naive MoE GEMM of the gathered form with
// the weighted combine epilogue (include/HK/Harness/MoeWorkload.h), one lane
// per element of C [T, N] (f32), a grid-stride loop over C for the
// persistent grid of `workgroups` workgroups (its launch term). Lane (t, j)
// walks all of sorted_token_ids (tiles of 4 entries: its launch's divisible
// term) and, for each entry holding one of token t's slots (slot s is
// token s / topk's; padding entries hold T topk, no token's), adds that
// entry's weight times A[t, :] . B[e, j, :] into C[t, j], e the entry's
// tile's expert:
//
//   C[t, j] += sum_c w(t, c) sum_k A[t, k] B[e(t, c), j, k]
//
// It computes each element in one lane: no atomics. hk-run-moe-combine.test
// breaks it on purpose with sed (the weight, %topk).
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
    %total = arith.muli %T, %N : index
    %block = gpu.block_id x
    %lane = gpu.thread_id x
    %base = arith.muli %block, %c64 : index
    %first = arith.addi %base, %lane : index
    %wg = arith.index_cast %workgroups : i32 to index
    %step = arith.muli %wg, %c64 : index
    scf.for %i = %first to %total step %step {
      %t = arith.divui %i, %N : index
      %j = arith.remui %i, %N : index
      %c_in = memref.load %C[%t, %j] : memref<?x?xf32>
      %c_out = scf.for %x = %c0 to %P step %c1 iter_args(%c = %c_in) -> (f32) {
        %slot32 = memref.load %sorted[%x] : memref<?xi32>
        %slot = arith.index_cast %slot32 : i32 to index
        %token = arith.divui %slot, %top_k : index
        %mine = arith.cmpi eq, %token, %t : index
        %next = scf.if %mine -> (f32) {
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
          %added = arith.addf %c, %weighted : f32
          scf.yield %added : f32
        } else {
          scf.yield %c : f32
        }
        scf.yield %next : f32
      }
      memref.store %c_out, %C[%t, %j] : memref<?x?xf32>
    }
    gpu.return
  }
}
