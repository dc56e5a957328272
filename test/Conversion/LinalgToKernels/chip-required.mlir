// hk-linalg-to-kernels has no default chip: without one it builds nothing
// and says which chips it takes.
// RUN: not hk-opt --hk-linalg-to-kernels %s 2>&1 | FileCheck %s
// RUN: hk-opt --hk-linalg-to-kernels %s > /dev/null 2>&1; test $? -eq 2

// CHECK: error: hk-linalg-to-kernels needs its chip option: hk-linalg-to-kernels='chip=<chip>' (supported: gfx950, gfx1201)
// CHECK-NOT: gpu.module

func.func @gemm(%A: memref<256x64xbf16>, %B: memref<64x256xbf16>, %C: memref<256x256xf32>) {
  linalg.matmul ins(%A, %B : memref<256x64xbf16>, memref<64x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}
