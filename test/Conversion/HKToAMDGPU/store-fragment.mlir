// hk.store_fragment: convert to the destination type (round to nearest
// even) and store each element where the chip's accumulator layout puts it.
// RUN: hk-opt %s --convert-hk-to-amdgpu --canonicalize | FileCheck %s --check-prefix=GFX950
// RUN: hk-opt %s --convert-hk-to-amdgpu --canonicalize | FileCheck %s --check-prefix=GFX1201

gpu.module @gfx950 [#rocdl.target<chip = "gfx950">] {
  // GFX950-LABEL: gpu.func @store
  // GFX950-SAME: (%[[ACC:.*]]: vector<8xf32>, %[[C:.*]]: memref<?x?xbf16>
  gpu.func @store(%acc: !hk.fragment<acc, 32x16xf32, mma = 16x16x32>,
                  %C: memref<?x?xbf16>, %m: index, %n: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    // Lane l holds rows (l / 16) * 4 + i of column l % 16.
    // GFX950: %[[LANE:.*]] = arith.remui %{{.*}}, %c64
    // GFX950: arith.divui %[[LANE]], %c16
    // GFX950: arith.remui %[[LANE]], %c16
    // GFX950: %[[H:.*]] = arith.truncf %[[ACC]] : vector<8xf32> to vector<8xbf16>
    // GFX950: vector.extract %[[H]][0]
    // GFX950-COUNT-8: memref.store %{{.*}}, %[[C]][%{{.*}}, %{{.*}}] : memref<?x?xbf16>
    // GFX950-NOT: memref.store
    // GFX950: gpu.return
    hk.store_fragment %acc, %C[%m, %n]
        : !hk.fragment<acc, 32x16xf32, mma = 16x16x32>, memref<?x?xbf16>
    gpu.return
  }
}

gpu.module @gfx1201 [#rocdl.target<chip = "gfx1201">] {
  // GFX1201-LABEL: gpu.func @store
  gpu.func @store(%acc: !hk.fragment<acc, 16x16xf32, mma = 16x16x16>,
                  %C: memref<?x?xf32>, %m: index, %n: index) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    // Lane l holds rows (l / 16) * 8 + i of column l % 16; f32 needs no
    // conversion.
    // GFX1201: arith.remui %{{.*}}, %c32
    // GFX1201-NOT: arith.truncf
    // GFX1201-COUNT-8: memref.store %{{.*}} : memref<?x?xf32>
    // GFX1201-NOT: memref.store
    hk.store_fragment %acc, %C[%m, %n]
        : !hk.fragment<acc, 16x16xf32, mma = 16x16x16>, memref<?x?xf32>
    gpu.return
  }
}
