// Each outlined gpu.module records its kernel's fastest schedule
// (getFastestSchedule) in hk.schedule, for the pipelines to apply:
// gfx950 8-wave nt kernels take HipKittens' ping-pong, the K-major layouts
// the double-buffered loop with direct fills, priority 1 and unrolled by 2;
// gfx1201 kernels double-buffered, unrolled by 2, their fills' stores
// deferred (defer-fill-stores). schedule=none records
// nothing, and an unknown schedule is refused.
// RUN: hk-opt --hk-linalg-to-kernels=chip=gfx950 %s | FileCheck %s
// RUN: hk-opt --hk-linalg-to-kernels='chip=gfx950 schedule=fastest' %s | FileCheck %s
// RUN: hk-opt --hk-linalg-to-kernels=chip=gfx1201 %s | FileCheck %s --check-prefix=GFX1201
// RUN: hk-opt --hk-linalg-to-kernels='chip=gfx950 schedule=none' %s | FileCheck %s --check-prefix=NONE
// RUN: not hk-opt --hk-linalg-to-kernels='chip=gfx950 schedule=fast' %s 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: gpu.module @hk_gemm [#rocdl.target<chip = "gfx950">] attributes {hk.schedule = #hk.schedule<stages = 2, direct-lds = true, schedule = ping-pong>}
// CHECK: func @gemm_bf16_nt_alpha_beta(
// CHECK: gpu.module @hk_gemm_0 [#rocdl.target<chip = "gfx950">] attributes {hk.schedule = #hk.schedule<stages = 2, unroll = 2, direct-lds = true, mma-priority = 1>}
// CHECK: func @gemm_bf16_nn_alpha_beta(
// CHECK: gpu.module @hk_gemm_1 [#rocdl.target<chip = "gfx950">] attributes {hk.schedule = #hk.schedule<stages = 2, direct-lds = true, schedule = ping-pong>}
// CHECK: func @gemm_fp8_nt(

// GFX1201-COUNT-3: attributes {hk.schedule = #hk.schedule<stages = 2, unroll = 2, defer-fill-stores = true>}
// GFX1201-NOT: hk.schedule

// NONE: gpu.module @hk_gemm
// NONE-NOT: hk.schedule

// BAD: for the --schedule option: Cannot find option named 'fast'!

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>

func.func @nt(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xbf16>) {
  linalg.matmul indexing_maps = [#a, #bt, #c]
      ins(%A, %B : memref<?x?xbf16>, memref<?x?xbf16>) outs(%C : memref<?x?xbf16>)
  return
}

func.func @nn(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %C: memref<?x?xbf16>) {
  linalg.matmul ins(%A, %B : memref<?x?xbf16>, memref<?x?xbf16>) outs(%C : memref<?x?xbf16>)
  return
}

func.func @fp8(%A: memref<?x?xf8E4M3FN>, %B: memref<?x?xf8E4M3FN>, %C: memref<?x?xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<?x?xbf16>)
  linalg.matmul indexing_maps = [#a, #bt, #c]
      ins(%A, %B : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%C : memref<?x?xbf16>)
  return
}
