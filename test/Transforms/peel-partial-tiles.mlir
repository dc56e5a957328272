// hk-peel-partial-tiles: a K loop of partial copies becomes a main loop over
// the whole tiles (copies partial_rows, when every peeled matrix's rows are
// whole 16-byte chunks) and a remainder loop, marked hk.remainder, after a
// barrier when it runs.
// RUN: hk-opt %s --split-input-file --hk-peel-partial-tiles --canonicalize --cse --canonicalize | FileCheck %s

gpu.module @peel [#rocdl.target<chip = "gfx950">] {
  // CHECK-LABEL: gpu.func @k_loop
  // CHECK-SAME: (%[[A:.*]]: memref<?x?xbf16>, %[[B:.*]]: memref<?x?xbf16>, %[[ROW:.*]]: index)
  gpu.func @k_loop(%A: memref<?x?xbf16>, %B: memref<?x?xbf16>, %row: index) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %K = memref.dim %A, %c1 : memref<?x?xbf16>
    %ta = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    %tb = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    // The split: the whole tiles of min(K, K of A, K of B), or none unless
    // both row strides are multiples of 8 elements.
    // CHECK-DAG: %[[KA:.*]] = memref.dim %[[A]], %c1
    // CHECK-DAG: %[[KB:.*]] = memref.dim %[[B]], %c1
    // CHECK-DAG: %[[MIN:.*]] = arith.minsi %[[KA]], %[[KB]]
    // CHECK-DAG: arith.remui %[[KA]], %c8
    // CHECK-DAG: arith.remui %[[KB]], %c8
    // CHECK: %[[WHOLE:.*]] = arith.muli %{{.*}}, %c64
    // CHECK: %[[SPLIT:.*]] = arith.select %{{.*}}, %[[WHOLE]], %c0
    // CHECK: scf.for %[[K0:.*]] = %c0 to %[[SPLIT]] step %c64 {
    // CHECK-NEXT: hk.copy_to_shared %[[A]][%[[ROW]], %[[K0]]], %{{.*}} bounds partial_rows
    // CHECK-NEXT: hk.copy_to_shared %[[B]][%[[ROW]], %[[K0]]], %{{.*}} bounds partial_rows
    // CHECK-NEXT: hk.copy_to_shared %[[B]][%[[K0]], %[[ROW]]], %{{.*}} bounds partial :
    // CHECK-NEXT: amdgpu.lds_barrier
    // CHECK-NEXT: }
    // CHECK: %[[REMAINS:.*]] = arith.cmpi slt, %[[SPLIT]], %[[KA]]
    // CHECK-NEXT: scf.if %[[REMAINS]] {
    // CHECK-NEXT: amdgpu.lds_barrier
    // CHECK-NEXT: }
    // CHECK-NEXT: scf.for %[[K1:.*]] = %[[SPLIT]] to %[[KA]] step %c64 {
    // CHECK-NEXT: hk.copy_to_shared %[[A]][%[[ROW]], %[[K1]]], %{{.*}} bounds partial :
    // CHECK-NEXT: hk.copy_to_shared %[[B]][%[[ROW]], %[[K1]]], %{{.*}} bounds partial :
    // CHECK-NEXT: hk.copy_to_shared %[[B]][%[[K1]], %[[ROW]]], %{{.*}} bounds partial :
    // CHECK-NEXT: amdgpu.lds_barrier
    // CHECK-NEXT: } {hk.remainder}
    scf.for %k = %c0 to %K step %c64 {
      hk.copy_to_shared %A[%row, %k], %ta[%c0] bounds partial
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      hk.copy_to_shared %B[%row, %k], %tb[%c0] bounds partial
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      // Not at the induction variable: partial in both loops.
      hk.copy_to_shared %B[%k, %row], %tb[%c0] bounds partial
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      amdgpu.lds_barrier
    }
    gpu.return
  }
}

// -----

// The loop's results flow from the main loop into the remainder.
gpu.module @carried [#rocdl.target<chip = "gfx950">] {
  // CHECK-LABEL: gpu.func @carried
  gpu.func @carried(%A: memref<?x?xbf16>, %out: memref<index>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %K = memref.dim %A, %c1 : memref<?x?xbf16>
    %t = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    // CHECK: %[[MAIN:.*]] = scf.for %{{.*}} = %c0 to %{{.*}} step %c64 iter_args(%{{.*}} = %c0) -> (index) {
    // CHECK: %[[REST:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c64 iter_args(%{{.*}} = %[[MAIN]]) -> (index) {
    // CHECK: } {hk.remainder}
    // CHECK: memref.store %[[REST]]
    %n = scf.for %k = %c0 to %K step %c64 iter_args(%i = %c0) -> (index) {
      hk.copy_to_shared %A[%c0, %k], %t[%c0] bounds partial
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      amdgpu.lds_barrier
      %j = arith.addi %i, %c1 : index
      scf.yield %j : index
    }
    memref.store %n, %out[] : memref<index>
    gpu.return
  }
}

// -----

// Nothing to peel: inside copies, a copy wider than the step, a step that
// is not a whole number of 16-byte chunks (its columns would not start
// one).
gpu.module @kept [#rocdl.target<chip = "gfx950">] {
  // CHECK-LABEL: gpu.func @kept
  // CHECK-NOT: hk.remainder
  // CHECK-NOT: partial_rows
  gpu.func @kept(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %K = memref.dim %A, %c1 : memref<?x?xbf16>
    %t = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    scf.for %k = %c0 to %K step %c64 {
      hk.copy_to_shared %A[%c0, %k], %t[%c0]
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      amdgpu.lds_barrier
    }
    scf.for %k = %c0 to %K step %c32 {
      hk.copy_to_shared %A[%c0, %k], %t[%c0] bounds partial
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      amdgpu.lds_barrier
    }
    %c68 = arith.constant 68 : index
    scf.for %k = %c0 to %K step %c68 {
      hk.copy_to_shared %A[%c0, %k], %t[%c0] bounds partial
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      amdgpu.lds_barrier
    }
    gpu.return
  }
}

// -----

// A strided source (a padded or batched matrix): its row stride and offset
// must also be whole chunks for the main loop to run.
gpu.module @strided [#rocdl.target<chip = "gfx950">] {
  // CHECK-LABEL: gpu.func @strided
  // CHECK-SAME: (%[[S:.*]]: memref<?x?xbf16, strided<[?, 1], offset: ?>>)
  // CHECK-DAG: %[[K:.*]] = memref.dim %[[S]], %c1
  // CHECK-DAG: %{{.*}}, %[[OFF:.*]], %{{.*}}:2, %[[STR:.*]]:2 = memref.extract_strided_metadata %[[S]]
  // CHECK-DAG: arith.remui %[[K]], %c8
  // CHECK-DAG: arith.remui %[[STR]]#0, %c8
  // CHECK-DAG: arith.remui %[[OFF]], %c8
  // CHECK: scf.for
  // CHECK: bounds partial_rows
  // CHECK: scf.for
  // CHECK: bounds partial :
  // CHECK: hk.remainder
  gpu.func @strided(%S: memref<?x?xbf16, strided<[?, 1], offset: ?>>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %K = memref.dim %S, %c1 : memref<?x?xbf16, strided<[?, 1], offset: ?>>
    %t = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    scf.for %k = %c0 to %K step %c64 {
      hk.copy_to_shared %S[%c0, %k], %t[%c0] bounds partial
          : memref<?x?xbf16, strided<[?, 1], offset: ?>>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      amdgpu.lds_barrier
    }
    gpu.return
  }
}

// -----

// A K-major operand (K along the copy's rows, its fixed column a known
// multiple of 8): partial_chunks in the main loop, whose bound also keeps
// its rows inside; its column edge stays masked.
gpu.module @kmajor [#rocdl.target<chip = "gfx950">] {
  // CHECK-LABEL: gpu.func @kmajor
  // CHECK-SAME: (%[[AT:.*]]: memref<?x?xbf16>)
  gpu.func @kmajor(%At: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %K = memref.dim %At, %c0 : memref<?x?xbf16>
    %b = gpu.block_id x
    %m0 = arith.muli %b, %c256 : index
    %t = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x32>>
    // CHECK-DAG: %[[K:.*]] = memref.dim %[[AT]], %c0
    // CHECK-DAG: %[[M:.*]] = memref.dim %[[AT]], %c1
    // CHECK-DAG: arith.remui %[[M]], %c8
    // CHECK-NOT: arith.remui %{{.*}}, %c8
    // CHECK: scf.for %[[K0:.*]] = %c0 to %[[SPLIT:.*]] step %c64 {
    // CHECK-NEXT: hk.copy_to_shared %[[AT]][%[[K0]], %{{.*}}], %{{.*}} bounds partial_chunks
    // CHECK: scf.for %[[K1:.*]] = %[[SPLIT]] to %[[K]] step %c64 {
    // CHECK-NEXT: hk.copy_to_shared %[[AT]][%[[K1]], %{{.*}}], %{{.*}} bounds partial :
    // CHECK: } {hk.remainder}
    scf.for %k = %c0 to %K step %c64 {
      hk.copy_to_shared %At[%k, %m0], %t[%c0] bounds partial
          : memref<?x?xbf16>, !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x32>>
      amdgpu.lds_barrier
    }
    gpu.return
  }
}

// -----

// A tile read a trip ahead (rows k + 64, as attention's K when its scores
// run one tile ahead): the main loop ends where that tile is still whole,
// a tile earlier than the copy at k alone would. K along the rows with all
// columns inside: the main loop's copies lie inside (bounds `inside`, the
// default, printed as nothing), and the remainder's only mask their rows
// (`partial_rows`: the rows are whole 16-byte chunks, known here).
gpu.module @ahead [#rocdl.target<chip = "gfx950">] {
  // CHECK-LABEL: gpu.func @ahead
  // CHECK-SAME: (%[[K:.*]]: memref<?x128xbf16>, %[[V:.*]]: memref<?x128xbf16>)
  gpu.func @ahead(%K: memref<?x128xbf16>, %V: memref<?x128xbf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %n = memref.dim %V, %c0 : memref<?x128xbf16>
    %tk = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>>
    %tv = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>>
    // CHECK-DAG: %[[NK:.*]] = memref.dim %[[K]], %c0
    // CHECK-DAG: %[[NV:.*]] = memref.dim %[[V]], %c0
    // CHECK-DAG: %[[LAST:.*]] = arith.addi %[[NK]], %c-64
    // CHECK-DAG: %[[END:.*]] = arith.minsi %{{.*}}, %[[LAST]]
    // CHECK: scf.for %[[K0:.*]] = %c0 to %[[SPLIT:.*]] step %c64 {
    // CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[K0]], %c64
    // CHECK-NEXT: hk.copy_to_shared %[[K]][%[[NEXT]], %c0], %[[TK:.*]][%c0] :
    // CHECK-NEXT: hk.copy_to_shared %[[V]][%[[K0]], %c0], %[[TV:.*]][%c0] :
    // CHECK: scf.for %{{.*}} = %[[SPLIT]] to %[[NV]] step %c64 {
    // CHECK: hk.copy_to_shared %[[K]]{{.*}} bounds partial_rows :
    // CHECK: hk.copy_to_shared %[[V]]{{.*}} bounds partial_rows :
    // CHECK: } {hk.remainder}
    scf.for %k = %c0 to %n step %c64 {
      %next = arith.addi %k, %c64 : index
      hk.copy_to_shared %K[%next, %c0], %tk[%c0] bounds partial
          : memref<?x128xbf16>, !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>>
      hk.copy_to_shared %V[%k, %c0], %tv[%c0] bounds partial
          : memref<?x128xbf16>, !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>>
      amdgpu.lds_barrier
    }
    gpu.return
  }
}

// -----

// As @ahead, but a view whose row stride is dynamic: whether its rows are
// whole 16-byte chunks is known only at run time, the remainder may be
// the whole loop (element by element), and its copies keep `partial`.
gpu.module @strided_rows [#rocdl.target<chip = "gfx950">] {
  // CHECK-LABEL: gpu.func @strided_rows
  gpu.func @strided_rows(%K: memref<?x128xbf16, strided<[?, 1]>>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %n = memref.dim %K, %c0 : memref<?x128xbf16, strided<[?, 1]>>
    %tk = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>>
    // CHECK: scf.for
    // CHECK: hk.copy_to_shared {{.*}} :
    // CHECK: scf.for
    // CHECK: hk.copy_to_shared {{.*}} bounds partial :
    // CHECK: } {hk.remainder}
    scf.for %k = %c0 to %n step %c64 {
      hk.copy_to_shared %K[%k, %c0], %tk[%c0] bounds partial
          : memref<?x128xbf16, strided<[?, 1]>>, !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>>
      amdgpu.lds_barrier
    }
    gpu.return
  }
}

// -----

// MXFP8 block scales read at the K index / 32: partial_rows in the main
// loop (a word of 4 scales per load), whose split also keeps the reads'
// blocks inside (k + 128 <= 32 x the scale columns) and requires the scale
// rows whole words (columns a multiple of 4); the remainder keeps partial.
gpu.module @scales [#rocdl.target<chip = "gfx950">] {
  // CHECK-LABEL: gpu.func @scales
  // CHECK-SAME: (%[[A:.*]]: memref<?x?xf8E4M3FN>, %[[S:.*]]: memref<?x?xf8E8M0FNU>, %[[ROW:[a-z0-9]+]]: index
  gpu.func @scales(%A: memref<?x?xf8E4M3FN>, %S: memref<?x?xf8E8M0FNU>, %row: index,
                   %a: !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>,
                   %b: !hk.fragment<b, 16x128xf8E4M3FN, mma = 16x16x128>,
                   %sb: !hk.fragment<scale, 16x4xf8E8M0FNU, mma = 16x16x128>,
                   %init: !hk.fragment<acc, 64x16xf32, mma = 16x16x128>,
                   %out: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %K = memref.dim %A, %c1 : memref<?x?xf8E4M3FN>
    %ta = hk.alloc_shared : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
    // CHECK-DAG: %[[KA:.*]] = memref.dim %[[A]], %c1
    // CHECK-DAG: %[[KS:.*]] = memref.dim %[[S]], %c1
    // CHECK-DAG: %[[KSB:.*]] = arith.muli %[[KS]], %c32
    // CHECK-DAG: arith.minsi %[[KA]], %[[KSB]]
    // CHECK-DAG: arith.remui %[[KS]], %c4
    // CHECK: %[[SPLIT:.*]] = arith.select
    // CHECK: scf.for %[[K0:.*]] = %c0 to %[[SPLIT]] step %c128
    // CHECK-NEXT: hk.copy_to_shared %[[A]][%[[ROW]], %[[K0]]], %{{.*}} bounds partial_rows
    // CHECK-NEXT: %[[KB:.*]] = arith.divui %[[K0]], %c32
    // CHECK-NEXT: hk.read_fragment %[[S]][%[[ROW]], %[[KB]]] bounds partial_rows
    // CHECK: scf.for %[[K1:.*]] = %[[SPLIT]] to %[[KA]] step %c128
    // CHECK: hk.read_fragment %[[S]][%[[ROW]], %{{.*}}] bounds partial :
    // CHECK: } {hk.remainder}
    %acc = scf.for %k = %c0 to %K step %c128 iter_args(%c = %init)
        -> (!hk.fragment<acc, 64x16xf32, mma = 16x16x128>) {
      hk.copy_to_shared %A[%row, %k], %ta[%c0] bounds partial
          : memref<?x?xf8E4M3FN>, !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
      %kb = arith.divui %k, %c32 : index
      %sa = hk.read_fragment %S[%row, %kb] bounds partial
          : memref<?x?xf8E8M0FNU> -> !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>
      %d = hk.mma %a, %b, %c scales(%sa, %sb)
          : !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<b, 16x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<acc, 64x16xf32, mma = 16x16x128>,
            !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>,
            !hk.fragment<scale, 16x4xf8E8M0FNU, mma = 16x16x128>
      amdgpu.lds_barrier
      scf.yield %d : !hk.fragment<acc, 64x16xf32, mma = 16x16x128>
    }
    hk.store_fragment %acc, %out[%c0, %c0]
        : !hk.fragment<acc, 64x16xf32, mma = 16x16x128>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// Gathered scales (an MoE GEMM's per-token SA): the ids, first row and
// divisor do not change in the loop, so the read is peeled as any other;
// one whose first id moves with k keeps partial in the loop it stays in.
gpu.module @gathered_scales [#rocdl.target<chip = "gfx950">] {
  // CHECK-LABEL: gpu.func @gathered_scales
  gpu.func @gathered_scales(%A: memref<?x?xf8E4M3FN>, %S: memref<?x?xf8E8M0FNU>,
                            %ids: memref<?xi32>, %at: index, %topk: index,
                            %a: !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>,
                            %b: !hk.fragment<b, 16x128xf8E4M3FN, mma = 16x16x128>,
                            %sb: !hk.fragment<scale, 16x4xf8E8M0FNU, mma = 16x16x128>,
                            %init: !hk.fragment<acc, 64x16xf32, mma = 16x16x128>,
                            %out: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %K = memref.dim %A, %c1 : memref<?x?xf8E4M3FN>
    %ta = hk.alloc_shared : !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>
    // CHECK: scf.for
    // CHECK: hk.read_fragment %{{.*}} gather %{{.*}} bounds partial_rows
    // CHECK: scf.for
    // CHECK: hk.read_fragment %{{.*}} gather %{{.*}} bounds partial :
    // CHECK: } {hk.remainder}
    %acc = scf.for %k = %c0 to %K step %c128 iter_args(%c = %init)
        -> (!hk.fragment<acc, 64x16xf32, mma = 16x16x128>) {
      hk.copy_to_shared %A[%c0, %k], %ta[%c0] gather %ids[%at] div %topk bounds partial
          : memref<?x?xf8E4M3FN>, !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>, memref<?xi32>
      %kb = arith.divui %k, %c32 : index
      %sa = hk.read_fragment %S[%c0, %kb] gather %ids[%at] div %topk bounds partial
          : memref<?x?xf8E8M0FNU>, memref<?xi32> -> !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>
      %d = hk.mma %a, %b, %c scales(%sa, %sb)
          : !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<b, 16x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<acc, 64x16xf32, mma = 16x16x128>,
            !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>,
            !hk.fragment<scale, 16x4xf8E8M0FNU, mma = 16x16x128>
      amdgpu.lds_barrier
      scf.yield %d : !hk.fragment<acc, 64x16xf32, mma = 16x16x128>
    }
    // CHECK: scf.for
    // CHECK-NOT: read_fragment{{.*}}partial_rows
    // CHECK: hk.read_fragment %{{.*}} gather %{{.*}} bounds partial :
    // CHECK-NOT: read_fragment{{.*}}partial_rows
    // CHECK: gpu.return
    %acc2 = scf.for %k = %c0 to %K step %c128 iter_args(%c = %acc)
        -> (!hk.fragment<acc, 64x16xf32, mma = 16x16x128>) {
      hk.copy_to_shared %A[%c0, %k], %ta[%c0] gather %ids[%at] div %topk bounds partial
          : memref<?x?xf8E4M3FN>, !hk.shared_tile<128x128xf8E4M3FN, #hk.swizzle<st_16x128>>, memref<?xi32>
      %kb = arith.divui %k, %c32 : index
      %first = arith.addi %at, %kb : index
      %sa = hk.read_fragment %S[%c0, %kb] gather %ids[%first] div %topk bounds partial
          : memref<?x?xf8E8M0FNU>, memref<?xi32> -> !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>
      %d = hk.mma %a, %b, %c scales(%sa, %sb)
          : !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<b, 16x128xf8E4M3FN, mma = 16x16x128>,
            !hk.fragment<acc, 64x16xf32, mma = 16x16x128>,
            !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>,
            !hk.fragment<scale, 16x4xf8E8M0FNU, mma = 16x16x128>
      amdgpu.lds_barrier
      scf.yield %d : !hk.fragment<acc, 64x16xf32, mma = 16x16x128>
    }
    hk.store_fragment %acc2, %out[%c0, %c0]
        : !hk.fragment<acc, 64x16xf32, mma = 16x16x128>, memref<?x?xf32>
    gpu.return
  }
}
