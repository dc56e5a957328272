// hk-raise-mma-priority: s_setprio around the fragment loads and MMAs of
// the outermost K loop that has them.
// RUN: hk-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(hk-raise-mma-priority{priority=2}))' | FileCheck %s

gpu.module @m {
  // CHECK-LABEL: gpu.func @k_loop
  gpu.func @k_loop(%t: !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>, %n: index) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %init = hk.fill_fragment %zero : !hk.fragment<acc, 16x16xf32, mma = 16x16x16>
    // CHECK: scf.for
    // CHECK-NEXT: amdgpu.lds_barrier
    // CHECK-NEXT: rocdl.s.setprio 2
    // CHECK-NEXT: scf.for
    // CHECK-NOT: rocdl.s.setprio
    // CHECK: hk.mma
    // CHECK: scf.yield
    // CHECK-NEXT: }
    // CHECK-NEXT: rocdl.s.setprio 0
    // CHECK-NEXT: amdgpu.lds_barrier
    %r = scf.for %k = %c0 to %n step %c64 iter_args(%c = %init)
        -> (!hk.fragment<acc, 16x16xf32, mma = 16x16x16>) {
      amdgpu.lds_barrier
      %inner = scf.for %kk = %c0 to %c64 step %c16 iter_args(%ci = %c)
          -> (!hk.fragment<acc, 16x16xf32, mma = 16x16x16>) {
        %a = hk.load_fragment %t[%c0][%c0, %kk]
            : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
            -> !hk.fragment<a, 16x16xbf16, mma = 16x16x16>
        %b = hk.load_fragment %t[%c0][%c0, %kk]
            : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
            -> !hk.fragment<b, 16x16xbf16, mma = 16x16x16>
        %o = hk.mma %a, %b, %ci
            : !hk.fragment<a, 16x16xbf16, mma = 16x16x16>,
              !hk.fragment<b, 16x16xbf16, mma = 16x16x16>,
              !hk.fragment<acc, 16x16xf32, mma = 16x16x16>
        scf.yield %o : !hk.fragment<acc, 16x16xf32, mma = 16x16x16>
      }
      amdgpu.lds_barrier
      scf.yield %inner : !hk.fragment<acc, 16x16xf32, mma = 16x16x16>
    }
    gpu.return
  }
}
