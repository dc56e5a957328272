// hk.store_shared: an accumulator into a shared tile (round trip, verifier).
// RUN: hk-opt %s -split-input-file -verify-diagnostics | FileCheck %s

gpu.module @ok [#rocdl.target<chip = "gfx950">] {
  // CHECK-LABEL: gpu.func @roundtrip
  gpu.func @roundtrip(%x: f32, %col: index) kernel {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>>
    %f = hk.fill_fragment %x : !hk.fragment<acc, 64x32xf32, mma = 32x32x16>
    // CHECK: hk.store_shared %{{.*}}, %{{.*}}[%{{.*}}] [%{{.*}}, %{{.*}}] : <acc, 64x32xf32, mma = 32x32x16>, <64x128xbf16, #hk.swizzle<st_16x64>>
    hk.store_shared %f, %t[%c0][%c0, %col]
        : !hk.fragment<acc, 64x32xf32, mma = 32x32x16>, !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>>
    gpu.return
  }
}

// -----

gpu.module @operand [#rocdl.target<chip = "gfx950">] {
  gpu.func @k(%t: !hk.shared_tile<64x64xbf16, #hk.swizzle<none>>, %a: !hk.fragment<a, 32x32xbf16, mma = 32x32x16>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @below {{writes 'acc' fragments, not 'a'}}
    hk.store_shared %a, %t[%c0][%c0, %c0]
        : !hk.fragment<a, 32x32xbf16, mma = 32x32x16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<none>>
    gpu.return
  }
}

// -----

gpu.module @types [#rocdl.target<chip = "gfx950">] {
  gpu.func @k(%t: !hk.shared_tile<64x64xf8E4M3FN, #hk.swizzle<none>>, %f: !hk.fragment<acc, 32x32xf32, mma = 32x32x16>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @below {{writes f32 accumulators (rounded to the tile's 16-bit type) or ones of the tile's type, got 'f32' into 'f8E4M3FN'}}
    hk.store_shared %f, %t[%c0][%c0, %c0]
        : !hk.fragment<acc, 32x32xf32, mma = 32x32x16>, !hk.shared_tile<64x64xf8E4M3FN, #hk.swizzle<none>>
    gpu.return
  }
}

// -----

gpu.module @outside [#rocdl.target<chip = "gfx950">] {
  gpu.func @k(%t: !hk.shared_tile<64x64xbf16, #hk.swizzle<none>>, %f: !hk.fragment<acc, 32x32xf32, mma = 32x32x16>) kernel {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    // expected-error @below {{region of 32 columns at column offset 64 exceeds the 64 columns of the tile}}
    hk.store_shared %f, %t[%c0][%c0, %c64]
        : !hk.fragment<acc, 32x32xf32, mma = 32x32x16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<none>>
    gpu.return
  }
}

// -----

gpu.module @misaligned [#rocdl.target<chip = "gfx950">] {
  gpu.func @k(%t: !hk.shared_tile<64x64xbf16, #hk.swizzle<none>>, %f: !hk.fragment<acc, 32x32xf32, mma = 32x32x16>) kernel {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    // expected-error @below {{row offset 16 is not a multiple of the fragment's 32 rows}}
    hk.store_shared %f, %t[%c0][%c16, %c0]
        : !hk.fragment<acc, 32x32xf32, mma = 32x32x16>, !hk.shared_tile<64x64xbf16, #hk.swizzle<none>>
    gpu.return
  }
}
