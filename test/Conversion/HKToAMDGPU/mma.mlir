// hk.mma: one MFMA (gfx950) or WMMA (gfx1201) per accumulator fragment and K
// chunk, K chunks in ascending order; hk.fill_fragment is a splat.
// RUN: hk-opt %s --convert-hk-to-amdgpu | FileCheck %s --check-prefix=GFX950
// RUN: hk-opt %s --convert-hk-to-amdgpu | FileCheck %s --check-prefix=GFX1201

gpu.module @gfx950 [#rocdl.target<chip = "gfx950">] {
  // GFX950-LABEL: gpu.func @mma
  // GFX950-SAME: (%[[A:.*]]: vector<16xbf16>, %[[B:.*]]: vector<32xbf16>) -> vector<8xf32>
  gpu.func @mma(%a: !hk.fragment<a, 16x64xbf16, mma = 16x16x32>,
                %b: !hk.fragment<b, 32x64xbf16, mma = 16x16x32>)
      -> !hk.fragment<acc, 16x32xf32, mma = 16x16x32> {
    // GFX950: %[[ZERO:.*]] = vector.broadcast %{{.*}} : f32 to vector<8xf32>
    %z = arith.constant 0.0 : f32
    %c = hk.fill_fragment %z : !hk.fragment<acc, 16x32xf32, mma = 16x16x32>
    // 1 x 2 accumulator fragments, 2 K chunks: 4 MFMAs, chunk 0 first.
    // GFX950: %[[A0:.*]] = vector.shuffle %[[A]], %[[A]] [0, 1, 2, 3, 4, 5, 6, 7]
    // GFX950: %[[B0:.*]] = vector.shuffle %[[B]], %[[B]] [0, 1, 2, 3, 4, 5, 6, 7]
    // GFX950: amdgpu.mfma 16x16x32 %[[A0]] * %[[B0]] + %{{.*}} blgp = none : vector<8xbf16>, vector<8xbf16>, vector<4xf32>
    // GFX950-COUNT-3: amdgpu.mfma 16x16x32
    // GFX950-NOT: amdgpu.mfma
    %r = hk.mma %a, %b, %c
        : !hk.fragment<a, 16x64xbf16, mma = 16x16x32>,
          !hk.fragment<b, 32x64xbf16, mma = 16x16x32>,
          !hk.fragment<acc, 16x32xf32, mma = 16x16x32>
    // GFX950: gpu.return %{{.*}} : vector<8xf32>
    gpu.return %r : !hk.fragment<acc, 16x32xf32, mma = 16x16x32>
  }
}

gpu.module @gfx1201 [#rocdl.target<chip = "gfx1201">] {
  // GFX1201-LABEL: gpu.func @wmma
  // GFX1201-SAME: (%[[A:.*]]: vector<32xbf16>, %[[B:.*]]: vector<16xbf16>, %[[C:.*]]: vector<16xf32>) -> vector<16xf32>
  gpu.func @wmma(%a: !hk.fragment<a, 32x32xbf16, mma = 16x16x16>,
                 %b: !hk.fragment<b, 16x32xbf16, mma = 16x16x16>,
                 %c: !hk.fragment<acc, 32x16xf32, mma = 16x16x16>)
      -> !hk.fragment<acc, 32x16xf32, mma = 16x16x16> {
    // 2 x 1 accumulator fragments of 8 f32 per lane, 2 K chunks: 4 WMMAs.
    // GFX1201: %[[C0:.*]] = vector.shuffle %[[C]], %[[C]] [0, 1, 2, 3, 4, 5, 6, 7]
    // GFX1201: %[[A0:.*]] = vector.shuffle %[[A]], %[[A]] [0, 1, 2, 3, 4, 5, 6, 7]
    // GFX1201: %[[B0:.*]] = vector.shuffle %[[B]], %[[B]] [0, 1, 2, 3, 4, 5, 6, 7]
    // GFX1201: amdgpu.wmma 16x16x16 %[[A0]] * %[[B0]] + %[[C0]] : vector<8xbf16>, vector<8xbf16>, vector<8xf32>
    // GFX1201-COUNT-3: amdgpu.wmma 16x16x16
    // GFX1201-NOT: amdgpu.wmma
    %r = hk.mma %a, %b, %c
        : !hk.fragment<a, 32x32xbf16, mma = 16x16x16>,
          !hk.fragment<b, 16x32xbf16, mma = 16x16x16>,
          !hk.fragment<acc, 32x16xf32, mma = 16x16x16>
    // GFX1201: gpu.return %{{.*}} : vector<16xf32>
    gpu.return %r : !hk.fragment<acc, 32x16xf32, mma = 16x16x16>
  }
}
