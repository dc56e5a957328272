// Test input for hk-run --moe: a naive MoE GEMM of the contiguous form
// (include/HK/Harness/MoeWorkload.h), one lane per element of C, a
// grid-stride loop over C for the persistent grid of `workgroups`
// workgroups (its launch term). Row r of A (a routed slot) belongs to the
// expert whose group [offsets[e], offsets[e + 1]) holds it:
//
//   C[r, j] = sum_k A[r, k] B[e, j, k]
//
// The rows are offsets[E]; the expert of row r is the count of experts
// before the last that end at or before r. hk-run-moe.test breaks both on
// purpose with sed (%offsets[%E], cmpi ule).
gpu.module @moe {
  gpu.func @moe_gemm_bf16_contiguous(%A: memref<?x?xbf16>,
      %B: memref<?x?x?xbf16>, %C: memref<?x?xbf16>, %offsets: memref<?xi32>,
      %workgroups: i32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  hk.launch = #hk.launch<grid = [arg4[0] / 1]>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %K = memref.dim %A, %c1 : memref<?x?xbf16>
    %E = memref.dim %B, %c0 : memref<?x?x?xbf16>
    %N = memref.dim %C, %c1 : memref<?x?xbf16>
    %last = arith.subi %E, %c1 : index
    %rows32 = memref.load %offsets[%E] : memref<?xi32>
    %rows = arith.index_cast %rows32 : i32 to index
    %total = arith.muli %rows, %N : index
    %block = gpu.block_id x
    %lane = gpu.thread_id x
    %base = arith.muli %block, %c64 : index
    %first = arith.addi %base, %lane : index
    %wg = arith.index_cast %workgroups : i32 to index
    %step = arith.muli %wg, %c64 : index
    scf.for %i = %first to %total step %step {
      %r = arith.divui %i, %N : index
      %j = arith.remui %i, %N : index
      %e = scf.for %x = %c0 to %last step %c1 iter_args(%n = %c0) -> (index) {
        %x1 = arith.addi %x, %c1 : index
        %end32 = memref.load %offsets[%x1] : memref<?xi32>
        %end = arith.index_cast %end32 : i32 to index
        %before = arith.cmpi ule, %end, %r : index
        %n1 = arith.addi %n, %c1 : index
        %next = arith.select %before, %n1, %n : index
        scf.yield %next : index
      }
      %acc = scf.for %k = %c0 to %K step %c1 iter_args(%s = %zero) -> (f32) {
        %a = memref.load %A[%r, %k] : memref<?x?xbf16>
        %b = memref.load %B[%e, %j, %k] : memref<?x?x?xbf16>
        %af = arith.extf %a : bf16 to f32
        %bf = arith.extf %b : bf16 to f32
        %p = arith.mulf %af, %bf : f32
        %t = arith.addf %s, %p : f32
        scf.yield %t : f32
      }
      %out = arith.truncf %acc : f32 to bf16
      memref.store %out, %C[%r, %j] : memref<?x?xbf16>
    }
    gpu.return
  }
}
