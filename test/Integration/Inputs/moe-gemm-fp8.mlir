// Test input for hk-run --moe: naive fp8 MoE GEMMs of the contiguous form
// (include/HK/Harness/MoeWorkload.h), as Inputs/moe-gemm-bf16.mlir, one
// lane per element of C. E4M3 codes are decoded with integer arithmetic
// (sign, 4-bit exponent of bias 7, 3-bit mantissa; subnormals m 2^-9):
//
//   moe_gemm_fp8_cf16_contiguous:   C = scale_a scale_b[e] A B[e]^T, f16 C
//   moe_gemm_mxfp8_cf32_contiguous: C = sum_k 2^(SA[r, k/32] - 127)
//       2^(SB[e, j, k/32] - 127) A[r, k] B[e, j, k], f32 C
gpu.module @moe {
  gpu.func @moe_gemm_fp8_cf16_contiguous(%A: memref<?x?xf8E4M3FN>,
      %B: memref<?x?x?xf8E4M3FN>, %C: memref<?x?xf16>, %offsets: memref<?xi32>,
      %scaleA: f32, %scaleB: memref<?xf32>, %workgroups: i32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  hk.launch = #hk.launch<grid = [arg6[0] / 1]>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %two_m9 = arith.constant 0.001953125 : f32
    %c0_i32 = arith.constant 0 : i32
    %c3_i32 = arith.constant 3 : i32
    %c7_i32 = arith.constant 7 : i32
    %c15_i32 = arith.constant 15 : i32
    %c20_i32 = arith.constant 20 : i32
    %c23_i32 = arith.constant 23 : i32
    %c24_i32 = arith.constant 24 : i32
    %c120_i32 = arith.constant 120 : i32
    %c128_i32 = arith.constant 128 : i32
    %K = memref.dim %A, %c1 : memref<?x?xf8E4M3FN>
    %E = memref.dim %B, %c0 : memref<?x?x?xf8E4M3FN>
    %N = memref.dim %C, %c1 : memref<?x?xf16>
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
        %a8 = memref.load %A[%r, %k] : memref<?x?xf8E4M3FN>
        %b8 = memref.load %B[%e, %j, %k] : memref<?x?x?xf8E4M3FN>
        %a_code = arith.bitcast %a8 : f8E4M3FN to i8
        %a_bits = arith.extui %a_code : i8 to i32
        %a_sign = arith.andi %a_bits, %c128_i32 : i32
        %a_sign32 = arith.shli %a_sign, %c24_i32 : i32
        %a_exp0 = arith.shrui %a_bits, %c3_i32 : i32
        %a_exp = arith.andi %a_exp0, %c15_i32 : i32
        %a_man = arith.andi %a_bits, %c7_i32 : i32
        %a_bias = arith.addi %a_exp, %c120_i32 : i32
        %a_e32 = arith.shli %a_bias, %c23_i32 : i32
        %a_m32 = arith.shli %a_man, %c20_i32 : i32
        %a_normal = arith.ori %a_e32, %a_m32 : i32
        %a_manf = arith.uitofp %a_man : i32 to f32
        %a_subf = arith.mulf %a_manf, %two_m9 : f32
        %a_sub = arith.bitcast %a_subf : f32 to i32
        %a_isSub = arith.cmpi eq, %a_exp, %c0_i32 : i32
        %a_mag = arith.select %a_isSub, %a_sub, %a_normal : i32
        %a_all = arith.ori %a_mag, %a_sign32 : i32
        %a = arith.bitcast %a_all : i32 to f32
        %b_code = arith.bitcast %b8 : f8E4M3FN to i8
        %b_bits = arith.extui %b_code : i8 to i32
        %b_sign = arith.andi %b_bits, %c128_i32 : i32
        %b_sign32 = arith.shli %b_sign, %c24_i32 : i32
        %b_exp0 = arith.shrui %b_bits, %c3_i32 : i32
        %b_exp = arith.andi %b_exp0, %c15_i32 : i32
        %b_man = arith.andi %b_bits, %c7_i32 : i32
        %b_bias = arith.addi %b_exp, %c120_i32 : i32
        %b_e32 = arith.shli %b_bias, %c23_i32 : i32
        %b_m32 = arith.shli %b_man, %c20_i32 : i32
        %b_normal = arith.ori %b_e32, %b_m32 : i32
        %b_manf = arith.uitofp %b_man : i32 to f32
        %b_subf = arith.mulf %b_manf, %two_m9 : f32
        %b_sub = arith.bitcast %b_subf : f32 to i32
        %b_isSub = arith.cmpi eq, %b_exp, %c0_i32 : i32
        %b_mag = arith.select %b_isSub, %b_sub, %b_normal : i32
        %b_all = arith.ori %b_mag, %b_sign32 : i32
        %b = arith.bitcast %b_all : i32 to f32
        %p = arith.mulf %a, %b : f32
        %t = arith.addf %s, %p : f32
        scf.yield %t : f32
      }
      %sb = memref.load %scaleB[%e] : memref<?xf32>
      %scale = arith.mulf %scaleA, %sb : f32
      %scaled = arith.mulf %acc, %scale : f32
      %out = arith.truncf %scaled : f32 to f16
      memref.store %out, %C[%r, %j] : memref<?x?xf16>
    }
    gpu.return
  }

  gpu.func @moe_gemm_mxfp8_cf32_contiguous(%A: memref<?x?xf8E4M3FN>,
      %B: memref<?x?x?xf8E4M3FN>, %C: memref<?x?xf32>, %offsets: memref<?xi32>,
      %SA: memref<?x?xf8E8M0FNU>, %SB: memref<?x?x?xf8E8M0FNU>,
      %workgroups: i32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  hk.launch = #hk.launch<grid = [arg6[0] / 1]>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %two_m9 = arith.constant 0.001953125 : f32
    %c0_i32 = arith.constant 0 : i32
    %c3_i32 = arith.constant 3 : i32
    %c7_i32 = arith.constant 7 : i32
    %c15_i32 = arith.constant 15 : i32
    %c20_i32 = arith.constant 20 : i32
    %c23_i32 = arith.constant 23 : i32
    %c24_i32 = arith.constant 24 : i32
    %c120_i32 = arith.constant 120 : i32
    %c128_i32 = arith.constant 128 : i32
    %K = memref.dim %A, %c1 : memref<?x?xf8E4M3FN>
    %E = memref.dim %B, %c0 : memref<?x?x?xf8E4M3FN>
    %N = memref.dim %C, %c1 : memref<?x?xf32>
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
        %a8 = memref.load %A[%r, %k] : memref<?x?xf8E4M3FN>
        %b8 = memref.load %B[%e, %j, %k] : memref<?x?x?xf8E4M3FN>
        %a_code = arith.bitcast %a8 : f8E4M3FN to i8
        %a_bits = arith.extui %a_code : i8 to i32
        %a_sign = arith.andi %a_bits, %c128_i32 : i32
        %a_sign32 = arith.shli %a_sign, %c24_i32 : i32
        %a_exp0 = arith.shrui %a_bits, %c3_i32 : i32
        %a_exp = arith.andi %a_exp0, %c15_i32 : i32
        %a_man = arith.andi %a_bits, %c7_i32 : i32
        %a_bias = arith.addi %a_exp, %c120_i32 : i32
        %a_e32 = arith.shli %a_bias, %c23_i32 : i32
        %a_m32 = arith.shli %a_man, %c20_i32 : i32
        %a_normal = arith.ori %a_e32, %a_m32 : i32
        %a_manf = arith.uitofp %a_man : i32 to f32
        %a_subf = arith.mulf %a_manf, %two_m9 : f32
        %a_sub = arith.bitcast %a_subf : f32 to i32
        %a_isSub = arith.cmpi eq, %a_exp, %c0_i32 : i32
        %a_mag = arith.select %a_isSub, %a_sub, %a_normal : i32
        %a_all = arith.ori %a_mag, %a_sign32 : i32
        %a = arith.bitcast %a_all : i32 to f32
        %b_code = arith.bitcast %b8 : f8E4M3FN to i8
        %b_bits = arith.extui %b_code : i8 to i32
        %b_sign = arith.andi %b_bits, %c128_i32 : i32
        %b_sign32 = arith.shli %b_sign, %c24_i32 : i32
        %b_exp0 = arith.shrui %b_bits, %c3_i32 : i32
        %b_exp = arith.andi %b_exp0, %c15_i32 : i32
        %b_man = arith.andi %b_bits, %c7_i32 : i32
        %b_bias = arith.addi %b_exp, %c120_i32 : i32
        %b_e32 = arith.shli %b_bias, %c23_i32 : i32
        %b_m32 = arith.shli %b_man, %c20_i32 : i32
        %b_normal = arith.ori %b_e32, %b_m32 : i32
        %b_manf = arith.uitofp %b_man : i32 to f32
        %b_subf = arith.mulf %b_manf, %two_m9 : f32
        %b_sub = arith.bitcast %b_subf : f32 to i32
        %b_isSub = arith.cmpi eq, %b_exp, %c0_i32 : i32
        %b_mag = arith.select %b_isSub, %b_sub, %b_normal : i32
        %b_all = arith.ori %b_mag, %b_sign32 : i32
        %b = arith.bitcast %b_all : i32 to f32
        %kb = arith.divui %k, %c32 : index
        %sa8 = memref.load %SA[%r, %kb] : memref<?x?xf8E8M0FNU>
        %sb8 = memref.load %SB[%e, %j, %kb] : memref<?x?x?xf8E8M0FNU>
        %sa_code = arith.bitcast %sa8 : f8E8M0FNU to i8
        %sa_bits = arith.extui %sa_code : i8 to i32
        %sa_e32 = arith.shli %sa_bits, %c23_i32 : i32
        %sa = arith.bitcast %sa_e32 : i32 to f32
        %sb_code = arith.bitcast %sb8 : f8E8M0FNU to i8
        %sb_bits = arith.extui %sb_code : i8 to i32
        %sb_e32 = arith.shli %sb_bits, %c23_i32 : i32
        %sb = arith.bitcast %sb_e32 : i32 to f32
        %ab = arith.mulf %a, %b : f32
        %sab = arith.mulf %sa, %sb : f32
        %p = arith.mulf %ab, %sab : f32
        %t = arith.addf %s, %p : f32
        scf.yield %t : f32
      }
      memref.store %acc, %C[%r, %j] : memref<?x?xf32>
    }
    gpu.return
  }
}
