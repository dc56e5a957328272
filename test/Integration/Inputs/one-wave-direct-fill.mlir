// A one-wave GEMM (16x64 block tile) from scripts/random-programs.py. With one
// wave the direct fill's LDS destination is a constant expression
// (inttoptr of an add), which the simulator once did not model.
gpu.module @hk_gemm [#rocdl.target<chip = "gfx950">] {
  gpu.func @gemm_bf16(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                      %C: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  hk.launch = #hk.launch<grid = [arg2[1] / 64, arg2[0] / 16],
                                         divisible = [arg0[1] by 128]>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %As = hk.alloc_shared : !hk.shared_tile<16x128xbf16, #hk.swizzle<none>>
    %Bs = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x32>>
    %m0 = gpu.block_id y
    %n0 = gpu.block_id x
    %row0 = arith.muli %m0, %c16 : index
    %col0 = arith.muli %n0, %c64 : index
    %tid = gpu.thread_id x
    %wave = arith.divui %tid, %c64 : index
    %wave_row = arith.divui %wave, %c1 : index
    %wave_col = arith.remui %wave, %c1 : index
    %wm = arith.muli %wave_row, %c16 : index
    %wn = arith.muli %wave_col, %c64 : index
    %K = memref.dim %A, %c1 : memref<?x?xbf16>
    %init = hk.fill_fragment %zero : !hk.fragment<acc, 16x64xf32, mma = 16x16x32>
    %acc = scf.for %k = %c0 to %K step %c128 iter_args(%c_k = %init) -> (!hk.fragment<acc, 16x64xf32, mma = 16x16x32>) {
      hk.copy_to_shared %A[%row0, %k], %As[%c0] : memref<?x?xbf16>, !hk.shared_tile<16x128xbf16, #hk.swizzle<none>>
      hk.copy_to_shared %B[%col0, %k], %Bs[%c0] : memref<?x?xbf16>, !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x32>>
      amdgpu.lds_barrier
      %c_next = scf.for %kk = %c0 to %c128 step %c32 iter_args(%c_kk = %c_k) -> (!hk.fragment<acc, 16x64xf32, mma = 16x16x32>) {
        %a = hk.load_fragment %As[%c0][%wm, %kk] : !hk.shared_tile<16x128xbf16, #hk.swizzle<none>> -> !hk.fragment<a, 16x32xbf16, mma = 16x16x32>
        %b = hk.load_fragment %Bs[%c0][%wn, %kk] : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x32>> -> !hk.fragment<b, 64x32xbf16, mma = 16x16x32>
        %c_out = hk.mma %a, %b, %c_kk : !hk.fragment<a, 16x32xbf16, mma = 16x16x32>, !hk.fragment<b, 64x32xbf16, mma = 16x16x32>, !hk.fragment<acc, 16x64xf32, mma = 16x16x32>
        scf.yield %c_out : !hk.fragment<acc, 16x64xf32, mma = 16x16x32>
      }
      amdgpu.lds_barrier
      scf.yield %c_next : !hk.fragment<acc, 16x64xf32, mma = 16x16x32>
    }
    %cm = arith.addi %row0, %wm : index
    %cn = arith.addi %col0, %wn : index
    hk.store_fragment %acc, %C[%cm, %cn] : !hk.fragment<acc, 16x64xf32, mma = 16x16x32>, memref<?x?xbf16>
    gpu.return
  }
}
