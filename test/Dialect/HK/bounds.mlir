// Bounds modes of hk.copy_to_shared and hk.store_fragment, and grid terms
// that round up: custom and generic forms round-trip; the default mode is
// not printed.
// RUN: hk-opt %s | hk-opt | FileCheck %s
// RUN: hk-opt %s -mlir-print-op-generic | hk-opt | FileCheck %s
// RUN: hk-opt %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: gpu.module @bounds
gpu.module @bounds [#rocdl.target<chip = "gfx950">] {
  // CHECK: hk.launch = #hk.launch<grid = [arg2[1] ceildiv 256, arg2[0] / 256], divisible = [arg0[1] by 8]>
  gpu.func @modes(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>,
                  %C: memref<?x?xbf16>, %i: index) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>,
                  hk.launch = #hk.launch<grid = [arg2[1] ceildiv 256, arg2[0] / 256],
                                         divisible = [arg0[1] by 8]>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %t = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    // CHECK: hk.copy_to_shared %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}] : memref<?x?xbf16>
    // GENERIC: "hk.copy_to_shared"(%{{.*}}) <{bounds = 0 : i32, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0>}>
    hk.copy_to_shared %A[%i, %c0], %t[%c0] bounds inside
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    // CHECK: hk.copy_to_shared %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}] bounds partial_rows : memref<?x?xbf16>
    // GENERIC: "hk.copy_to_shared"(%{{.*}}) <{bounds = 1 : i32, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0>}>
    hk.copy_to_shared %A[%i, %c0], %t[%c0] bounds partial_rows
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    // CHECK: hk.copy_to_shared %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}] direct bounds partial_rows : memref<?x?xbf16>
    // GENERIC: "hk.copy_to_shared"(%{{.*}}) <{bounds = 1 : i32, direct, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0>}>
    hk.copy_to_shared %A[%i, %c0], %t[%c0] direct bounds partial_rows
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    // CHECK: hk.copy_to_shared %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}] bounds partial : memref<?x?xbf16>
    // GENERIC: "hk.copy_to_shared"(%{{.*}}) <{bounds = 2 : i32, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0>}>
    hk.copy_to_shared %B[%i, %i], %t[%c0] bounds partial
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    %acc = hk.fill_fragment %zero : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
    // CHECK: hk.store_fragment %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] bounds partial : <acc, 64x32xf32, mma = 16x16x32>, memref<?x?xbf16>
    // GENERIC: "hk.store_fragment"(%{{.*}}) <{bounds = 2 : i32, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0>}>
    hk.store_fragment %acc, %C[%i, %i] bounds partial
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<?x?xbf16>
    gpu.return
  }

  // A partial region may run past a static matrix, and start past it.
  // CHECK-LABEL: gpu.func @static_edges
  gpu.func @static_edges(%A: memref<100x60xbf16>, %C: memref<100x60xf32>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c200 = arith.constant 200 : index
    %zero = arith.constant 0.0 : f32
    %t = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    hk.copy_to_shared %A[%c200, %c0], %t[%c0] bounds partial
        : memref<100x60xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    %acc = hk.fill_fragment %zero : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
    hk.store_fragment %acc, %C[%c0, %c200] bounds partial
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<100x60xf32>
    gpu.return
  }

  // Gathered rows and scattered rows (an MoE GEMM's routed slots).
  // CHECK-LABEL: gpu.func @routed
  gpu.func @routed(%A: memref<?x?xbf16>, %C: memref<?x?xbf16>,
                   %ids: memref<?xi32>, %m: index, %topk: index) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %t = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    // CHECK: hk.copy_to_shared %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}] gather %{{.*}}[%{{.*}}] div %{{.*}} direct bounds partial_rows : memref<?x?xbf16>, <128x64xbf16, #hk.swizzle<st_16x32>>, memref<?xi32>
    // GENERIC: "hk.copy_to_shared"(%{{.*}}) <{bounds = 1 : i32, direct, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1>}>
    hk.copy_to_shared %A[%c0, %c0], %t[%c0] gather %ids[%m] div %topk direct bounds partial_rows
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>, memref<?xi32>
    %acc = hk.fill_fragment %zero : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
    // CHECK: hk.store_fragment %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] scatter %{{.*}}[%{{.*}}] div %{{.*}} bounds partial : <acc, 64x32xf32, mma = 16x16x32>, memref<?x?xbf16>, memref<?xi32>
    hk.store_fragment %acc, %C[%c0, %c0] scatter %ids[%m] div %c1 bounds partial
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<?x?xbf16>, memref<?xi32>
    gpu.return
  }

  // Gathered block scales (an MoE GEMM's per-token SA), in both modes.
  // CHECK-LABEL: gpu.func @gathered_scales
  gpu.func @gathered_scales(%SA: memref<?x?xf8E8M0FNU>, %ids: memref<?xi32>,
                            %m: index, %kb: index, %topk: index) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    // CHECK: hk.read_fragment %{{.*}}[%{{.*}}, %{{.*}}] gather %{{.*}}[%{{.*}}] div %{{.*}} bounds partial : memref<?x?xf8E8M0FNU>, memref<?xi32> -> <scale, 64x4xf8E8M0FNU, mma = 16x16x128>
    // GENERIC: "hk.read_fragment"(%{{.*}}) <{bounds = 2 : i32, operandSegmentSizes = array<i32: 1, 2, 1, 1, 1>}>
    %s = hk.read_fragment %SA[%c0, %kb] gather %ids[%m] div %topk bounds partial
        : memref<?x?xf8E8M0FNU>, memref<?xi32> -> !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>
    // CHECK: hk.read_fragment %{{.*}}[%{{.*}}, %{{.*}}] gather %{{.*}}[%{{.*}}] div %{{.*}} bounds partial_rows : memref<?x?xf8E8M0FNU>, memref<?xi32> -> <scale, 64x4xf8E8M0FNU, mma = 16x16x128>
    %w = hk.read_fragment %SA[%c0, %kb] gather %ids[%m] div %topk bounds partial_rows
        : memref<?x?xf8E8M0FNU>, memref<?xi32> -> !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>
    // An ungathered read keeps its segments empty.
    // GENERIC: "hk.read_fragment"(%{{.*}}) <{bounds = 2 : i32, operandSegmentSizes = array<i32: 1, 2, 0, 0, 0>}>
    %u = hk.read_fragment %SA[%m, %kb] bounds partial
        : memref<?x?xf8E8M0FNU> -> !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>
    gpu.return
  }
}
