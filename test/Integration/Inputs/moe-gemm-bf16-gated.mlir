// Test input for hk-run --moe: a naive gated MoE GEMM of the contiguous
// form (include/HK/Harness/MoeWorkload.h), as Inputs/moe-gemm-bf16.mlir
// but with B's rows [0, N/2) the gate and [N/2, N) the up projection:
//
//   C[r, j] = silu(g) u,  g = A[r] . B[e, j],  u = A[r] . B[e, N/2 + j]
//
// silu(g) = g / (1 + exp(-g)) in f32, exp as llvm.amdgcn.exp2 (one
// v_exp_f32; hk lowers math.exp2 so only in modules with hk ops).
gpu.module @moe {
  gpu.func @moe_gemm_bf16_contiguous_gated(%A: memref<?x?xbf16>,
      %B: memref<?x?x?xbf16>, %C: memref<?x?xbf16>, %offsets: memref<?xi32>,
      %workgroups: i32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  hk.launch = #hk.launch<grid = [arg4[0] / 1]>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %minusLog2e = arith.constant -1.44269504 : f32
    %K = memref.dim %A, %c1 : memref<?x?xbf16>
    %E = memref.dim %B, %c0 : memref<?x?x?xbf16>
    %half = memref.dim %C, %c1 : memref<?x?xbf16>
    %last = arith.subi %E, %c1 : index
    %rows32 = memref.load %offsets[%E] : memref<?xi32>
    %rows = arith.index_cast %rows32 : i32 to index
    %total = arith.muli %rows, %half : index
    %block = gpu.block_id x
    %lane = gpu.thread_id x
    %base = arith.muli %block, %c64 : index
    %first = arith.addi %base, %lane : index
    %wg = arith.index_cast %workgroups : i32 to index
    %step = arith.muli %wg, %c64 : index
    scf.for %i = %first to %total step %step {
      %r = arith.divui %i, %half : index
      %j = arith.remui %i, %half : index
      %ju = arith.addi %j, %half : index
      %e = scf.for %x = %c0 to %last step %c1 iter_args(%n = %c0) -> (index) {
        %x1 = arith.addi %x, %c1 : index
        %end32 = memref.load %offsets[%x1] : memref<?xi32>
        %end = arith.index_cast %end32 : i32 to index
        %before = arith.cmpi ule, %end, %r : index
        %n1 = arith.addi %n, %c1 : index
        %next = arith.select %before, %n1, %n : index
        scf.yield %next : index
      }
      %gu:2 = scf.for %k = %c0 to %K step %c1
          iter_args(%sg = %zero, %su = %zero) -> (f32, f32) {
        %a = memref.load %A[%r, %k] : memref<?x?xbf16>
        %bg = memref.load %B[%e, %j, %k] : memref<?x?x?xbf16>
        %bu = memref.load %B[%e, %ju, %k] : memref<?x?x?xbf16>
        %af = arith.extf %a : bf16 to f32
        %bgf = arith.extf %bg : bf16 to f32
        %buf = arith.extf %bu : bf16 to f32
        %pg = arith.mulf %af, %bgf : f32
        %pu = arith.mulf %af, %buf : f32
        %tg = arith.addf %sg, %pg : f32
        %tu = arith.addf %su, %pu : f32
        scf.yield %tg, %tu : f32, f32
      }
      %x = arith.mulf %gu#0, %minusLog2e : f32
      %ex = llvm.call_intrinsic "llvm.amdgcn.exp2"(%x) : (f32) -> f32
      %den = arith.addf %one, %ex : f32
      %silu = arith.divf %gu#0, %den : f32
      %c = arith.mulf %silu, %gu#1 : f32
      %out = arith.truncf %c : f32 to bf16
      memref.store %out, %C[%r, %j] : memref<?x?xbf16>
    }
    gpu.return
  }
}
