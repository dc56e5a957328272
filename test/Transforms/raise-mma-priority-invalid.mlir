// Priorities are 0 to 3, as the hk.cluster verifier checks them (the only
// place that does).
// RUN: not hk-opt %s --pass-pipeline='builtin.module(gpu.module(hk-raise-mma-priority{priority=7}))' 2>&1 | FileCheck %s
// CHECK: error: 'hk.cluster' op priority must be 0 to 3 (s_setprio), got 7

!acc = !hk.fragment<acc, 16x16xf32, mma = 16x16x16>
!fa = !hk.fragment<a, 16x16xbf16, mma = 16x16x16>
!fb = !hk.fragment<b, 16x16xbf16, mma = 16x16x16>
!tile = !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>

gpu.module @m {
  gpu.func @k_loop(%t: !tile, %n: index) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %init = hk.fill_fragment %zero : !acc
    %r = scf.for %k = %c0 to %n step %c64 iter_args(%c = %init) -> (!acc) {
      amdgpu.lds_barrier
      %a = hk.load_fragment %t[%c0][%c0, %c0] : !tile -> !fa
      %b = hk.load_fragment %t[%c0][%c0, %c0] : !tile -> !fb
      %o = hk.mma %a, %b, %c : !fa, !fb, !acc
      amdgpu.lds_barrier
      scf.yield %o : !acc
    }
    gpu.return
  }
}
