// With require=true, a copy that cannot be a direct fill is an error.
// RUN: hk-opt %s --pass-pipeline='builtin.module(gpu.module(hk-direct-lds-fill{require=true}))' -verify-diagnostics

gpu.module @m [#rocdl.target<chip = "gfx1201">] {
  gpu.func @rdna(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    // expected-error @+1 {{'hk.copy_to_shared' op hk-direct-lds-fill: gfx1201 has no direct-to-LDS loads}}
    hk.copy_to_shared %A[%c0, %c0], %t[%c0]
        : memref<?x?xbf16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
    amdgpu.lds_barrier
    gpu.return
  }
}
