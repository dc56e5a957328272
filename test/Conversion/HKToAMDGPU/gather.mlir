// Gathering copies and scattering stores (an MoE GEMM's routed rows): each
// lane loads its rows' ids and divides them; the resource runs to the
// matrix's end, so rows past it (padding) read zero or are not written.
// RUN: hk-opt %s --convert-hk-to-amdgpu --canonicalize --cse | FileCheck %s

gpu.module @gather [#rocdl.target<chip = "gfx950">] {
  // CHECK-LABEL: gpu.func @copy
  // CHECK-SAME: (%[[A:.*]]: memref<?x?xbf16>, %[[IDS:.*]]: memref<?xi32>, %[[AT:.*]]: index, %[[TOPK:.*]]: index)
  gpu.func @copy(%A: memref<?x?xbf16>, %ids: memref<?xi32>, %at: index, %topk: index) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    // Two chunks per lane: two ids, each divided by the top-k.
    // CHECK: %[[ID0:.*]] = memref.load %[[IDS]]
    // CHECK: arith.index_castui %[[ID0]]
    // CHECK: arith.divui %{{.*}}, %[[TOPK]]
    // CHECK: %[[ID1:.*]] = memref.load %[[IDS]]
    // CHECK: arith.divui %{{.*}}, %[[TOPK]]
    // CHECK-COUNT-2: rocdl.raw.ptr.buffer.load
    // CHECK-NOT: memref.load
    hk.copy_to_shared %A[%c0, %c0], %t[%c0] gather %ids[%at] div %topk bounds partial_rows
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>, memref<?xi32>
    gpu.return
  }

  // A direct fill: each lane's voffset from its gathered row.
  // CHECK-LABEL: gpu.func @direct
  gpu.func @direct(%A: memref<?x?xbf16>, %ids: memref<?xi32>, %at: index, %topk: index) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    // CHECK-COUNT-2: memref.load %{{.*}} : memref<?xi32>
    // CHECK-COUNT-2: rocdl.raw.ptr.buffer.load.lds
    hk.copy_to_shared %A[%c0, %c0], %t[%c0] gather %ids[%at] div %topk direct bounds partial_rows
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>, memref<?xi32>
    gpu.return
  }

  // In a K loop, ids that do not depend on it are loaded before it: LLVM
  // would not hoist the loads past the loop's LDS fills.
  // CHECK-LABEL: gpu.func @hoisted
  gpu.func @hoisted(%A: memref<?x?xbf16>, %ids: memref<?xi32>, %at: index, %topk: index, %K: index) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %t = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    // CHECK-COUNT-2: memref.load %{{.*}} : memref<?xi32>
    // CHECK: scf.for
    // CHECK-NOT: memref.load
    // CHECK: rocdl.raw.ptr.buffer.load.lds
    scf.for %k = %c0 to %K step %c64 {
      hk.copy_to_shared %A[%c0, %k], %t[%c0] gather %ids[%at] div %topk direct bounds partial_rows
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>, memref<?xi32>
      amdgpu.lds_barrier
    }
    gpu.return
  }

  // A 64x32 accumulator of 16x16x32 MFMAs: a lane holds 16 rows, each id
  // loaded once for its two columns' elements.
  // CHECK-LABEL: gpu.func @store
  gpu.func @store(%C: memref<?x?xbf16>, %ids: memref<?xi32>, %at: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %acc = hk.fill_fragment %zero : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
    // CHECK-COUNT-16: memref.load
    // CHECK-NOT: memref.load
    // CHECK-COUNT-32: rocdl.raw.ptr.buffer.store
    hk.store_fragment %acc, %C[%c0, %c0] scatter %ids[%at] div %c1 bounds partial
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<?x?xbf16>, memref<?xi32>
    gpu.return
  }

  // An atomic scattering store: fp32 atomic adds into the rows, the ids
  // divided by the top-k (an MoE combine's token rows).
  // CHECK-LABEL: gpu.func @atomic
  gpu.func @atomic(%C: memref<?x?xf32>, %ids: memref<?xi32>, %at: index, %topk: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %acc = hk.fill_fragment %zero : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
    // CHECK-COUNT-16: arith.divui
    // CHECK-NOT: rocdl.raw.ptr.buffer.store
    // CHECK-COUNT-32: rocdl.raw.ptr.buffer.atomic.fadd
    hk.store_fragment %acc, %C[%c0, %c0] scatter %ids[%at] div %topk atomic bounds partial
        : !hk.fragment<acc, 64x32xf32, mma = 16x16x32>, memref<?x?xf32>, memref<?xi32>
    gpu.return
  }

  // Gathered block scales (an MoE GEMM's per-token SA): a lane's rows l and
  // 64 + l of a 128-row fragment take their ids before the K loop. With
  // `partial_rows` a word per row, rows past SA's (padding) masked.
  // CHECK-LABEL: gpu.func @scales_whole_words
  // CHECK-SAME: (%[[SA:[^:]*]]: memref<?x?xf8E8M0FNU>, %[[IDS:[^:]*]]: memref<?xi32>, %[[AT:[^:]*]]: index, %[[TOPK:[^:]*]]: index
  gpu.func @scales_whole_words(%SA: memref<?x?xf8E8M0FNU>, %ids: memref<?xi32>, %at: index, %topk: index,
                               %K: index, %a: !hk.fragment<a, 128x128xf8E4M3FN, mma = 16x16x128>,
                               %b: !hk.fragment<b, 16x128xf8E4M3FN, mma = 16x16x128>,
                               %acc: !hk.fragment<acc, 128x16xf32, mma = 16x16x128>,
                               %sb: !hk.fragment<scale, 16x4xf8E8M0FNU, mma = 16x16x128>,
                               %out: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    // CHECK: memref.load %[[IDS]]
    // CHECK: arith.divui %{{.*}}, %[[TOPK]]
    // CHECK: memref.load %[[IDS]]
    // CHECK: arith.divui %{{.*}}, %[[TOPK]]
    // CHECK: scf.for
    // CHECK-NOT: memref.load %[[IDS]]
    // CHECK: arith.select
    // CHECK-NEXT: rocdl.raw.ptr.buffer.load %{{.*}} : i32
    // CHECK: arith.select
    // CHECK-NEXT: rocdl.raw.ptr.buffer.load %{{.*}} : i32
    // CHECK-NOT: rocdl.raw.ptr.buffer.load
    // CHECK: scf.yield
    %d = scf.for %k = %c0 to %K step %c128 iter_args(%c = %acc) -> (!hk.fragment<acc, 128x16xf32, mma = 16x16x128>) {
      %kb = arith.divui %k, %c128 : index
      %sa = hk.read_fragment %SA[%c0, %kb] gather %ids[%at] div %topk bounds partial_rows
          : memref<?x?xf8E8M0FNU>, memref<?xi32> -> !hk.fragment<scale, 128x4xf8E8M0FNU, mma = 16x16x128>
      %n = hk.mma %a, %b, %c scales(%sa, %sb)
          : !hk.fragment<a, 128x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<b, 16x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<acc, 128x16xf32, mma = 16x16x128>,
            !hk.fragment<scale, 128x4xf8E8M0FNU, mma = 16x16x128>,
            !hk.fragment<scale, 16x4xf8E8M0FNU, mma = 16x16x128>
      scf.yield %n : !hk.fragment<acc, 128x16xf32, mma = 16x16x128>
    }
    hk.store_fragment %d, %out[%c0, %c0]
        : !hk.fragment<acc, 128x16xf32, mma = 16x16x128>, memref<?x?xf32>
    gpu.return
  }

  // With `partial` 4 byte loads per row, each masked past SA's rows (the
  // gathered row against the rows left) and columns.
  // CHECK-LABEL: gpu.func @scales_bytes
  gpu.func @scales_bytes(%SA: memref<?x?xf8E8M0FNU>, %ids: memref<?xi32>, %at: index, %topk: index, %kb: index,
                         %a: !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>,
                         %b: !hk.fragment<b, 16x128xf8E4M3FN, mma = 16x16x128>,
                         %acc: !hk.fragment<acc, 64x16xf32, mma = 16x16x128>,
                         %sb: !hk.fragment<scale, 16x4xf8E8M0FNU, mma = 16x16x128>,
                         %out: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    // CHECK: memref.load
    // CHECK: %[[ROW:.*]] = arith.divui
    // CHECK-NOT: memref.load
    // CHECK: arith.cmpi slt, %[[ROW]]
    // CHECK-COUNT-4: rocdl.raw.ptr.buffer.load %{{.*}} : i8
    %sa = hk.read_fragment %SA[%c0, %kb] gather %ids[%at] div %topk bounds partial
        : memref<?x?xf8E8M0FNU>, memref<?xi32> -> !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>
    %d = hk.mma %a, %b, %acc scales(%sa, %sb)
        : !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>,
          !hk.fragment<b, 16x128xf8E4M3FN, mma = 16x16x128>,
          !hk.fragment<acc, 64x16xf32, mma = 16x16x128>,
          !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>,
          !hk.fragment<scale, 16x4xf8E8M0FNU, mma = 16x16x128>
    hk.store_fragment %d, %out[%c0, %c0]
        : !hk.fragment<acc, 64x16xf32, mma = 16x16x128>, memref<?x?xf32>
    gpu.return
  }
}
