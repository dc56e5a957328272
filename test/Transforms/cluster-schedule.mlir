// The cluster mechanism (ClusterSchedule.h) driven from attributes:
// which ops go in which cluster, priorities, interleaving, loop trips per
// body and the wave-group stagger.
// RUN: hk-opt %s --split-input-file --test-hk-cluster-schedule | FileCheck %s

!acc = !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
!fa = !hk.fragment<a, 16x32xbf16, mma = 16x16x32>
!fb = !hk.fragment<b, 16x32xbf16, mma = 16x16x32>
!tile = !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  // Clusters in the order of their indices: the MMA's cluster (0) runs
  // first although an op of cluster 1 comes before it; an op outside every
  // cluster (the barrier) keeps its place before the next cluster; one
  // between two ops of a cluster (the second addi) joins it; results used
  // after a cluster are yielded.
  // CHECK-LABEL: gpu.func @order
  // CHECK: scf.for {{.*}} iter_args(%[[ACC:[^ ]*]] = {{.*}}, %[[A:[^ ]*]] = {{.*}}, %[[B:[^ ]*]] =
  // CHECK: %[[M:.*]] = hk.cluster priority = 3 {
  // CHECK-NEXT: %[[X:.*]] = hk.mma %[[A]], %[[B]], %[[ACC]]
  // CHECK-NEXT: hk.yield %[[X]]
  // CHECK-NEXT: } : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
  // CHECK-NEXT: hk.barrier
  // CHECK-NEXT: %[[L:.*]]:2 = hk.cluster interleaved alternating {
  // CHECK-NEXT: arith.addi
  // CHECK-NEXT: hk.load_fragment
  // CHECK-NEXT: arith.addi
  // CHECK-NEXT: hk.load_fragment
  // CHECK-NEXT: hk.yield
  // CHECK-NEXT: } : !hk.fragment<a, 16x32xbf16, mma = 16x16x32>, !hk.fragment<b, 16x32xbf16, mma = 16x16x32>
  // CHECK-NEXT: scf.yield %[[M]], %[[L]]#0, %[[L]]#1
  // CHECK-NOT: __test
  gpu.func @order(%t: !tile, %n: index, %a0: !fa, %b0: !fb, %acc0: !acc) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %r:3 = scf.for %k = %c0 to %n step %c64 iter_args(%acc = %acc0, %a = %a0, %b = %b0) -> (!acc, !fa, !fb) {
      %row = arith.addi %c0, %c1 {__test_cluster__ = 1} : index
      %m = hk.mma %a, %b, %acc {__test_cluster__ = 0} : !fa, !fb, !acc
      hk.barrier
      %na = hk.load_fragment %t[%c0][%row, %c0] {__test_cluster__ = 1} : !tile -> !fa
      %col = arith.addi %row, %c1 : index
      %nb = hk.load_fragment %t[%c0][%c0, %col] {__test_cluster__ = 1} : !tile -> !fb
      scf.yield %m, %na, %nb : !acc, !fa, !fb
    } {__test_cluster_priorities__ = array<i32: 3, 0>, __test_cluster_interleaved__ = array<i32: 1>, __test_cluster_alternating__ = array<i32: 1>}
    gpu.return
  }
}

// -----

!acc = !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
!fa = !hk.fragment<a, 16x32xbf16, mma = 16x16x32>
!fb = !hk.fragment<b, 16x32xbf16, mma = 16x16x32>
!tile = !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  // Two K tiles per loop trip: each tile gets its own clusters; an odd
  // tile count ends with one more tile, in clusters too.
  // CHECK-LABEL: gpu.func @trips
  // CHECK: %[[TILES:.*]] = arith.ceildivsi
  // CHECK: %[[PAIRS:.*]] = arith.divsi %[[TILES]], %c2
  // CHECK: %[[MAIN:.*]] = scf.for %{{.*}} = %{{.*}} to %[[PAIRS]]
  // CHECK: %[[F0:.*]] = hk.cluster {
  // CHECK-NEXT: hk.load_fragment
  // CHECK: hk.barrier
  // CHECK-NEXT: %[[M0:.*]] = hk.cluster priority = 1 {
  // CHECK-NEXT: hk.mma %[[F0]]
  // CHECK: hk.barrier
  // CHECK: hk.cluster {
  // CHECK-NEXT: hk.load_fragment
  // CHECK: hk.barrier
  // CHECK-NEXT: %[[M1:.*]] = hk.cluster priority = 1 {
  // CHECK-NEXT: hk.mma %{{.*}}, %{{.*}}, %[[M0]]
  // CHECK: hk.barrier
  // CHECK-NEXT: scf.yield %[[M1]]
  // CHECK-NEXT: }
  // CHECK: arith.remsi %[[TILES]], %c2
  // CHECK: scf.if
  // CHECK: hk.cluster {
  // CHECK: hk.cluster priority = 1 {
  // CHECK-NEXT: hk.mma %{{.*}}, %{{.*}}, %[[MAIN]]
  // CHECK: } else {
  // CHECK-NEXT: scf.yield %[[MAIN]]
  gpu.func @trips(%t: !tile, %n: index, %b0: !fb, %acc0: !acc) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %r = scf.for %k = %c0 to %n step %c64 iter_args(%acc = %acc0) -> (!acc) {
      %a = hk.load_fragment %t[%c0][%c0, %c0] {__test_cluster__ = 0} : !tile -> !fa
      hk.barrier
      %m = hk.mma %a, %b0, %acc {__test_cluster__ = 1} : !fa, !fb, !acc
      hk.barrier
      scf.yield %m : !acc
    } {__test_cluster_priorities__ = array<i32: 0, 1>, __test_tiles_per_trip__ = 2}
    gpu.return
  }
}

// -----

!acc = !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
!fa = !hk.fragment<a, 16x32xbf16, mma = 16x16x32>
!fb = !hk.fragment<b, 16x32xbf16, mma = 16x16x32>
!tile = !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  // The wave-group offset: the waves of the second half (wave id >= 4 of
  // 8) run the loop one barrier behind. The wave's first thread id is read
  // from its first lane: a scalar, not a lane value kept through the loop.
  // CHECK-LABEL: gpu.func @stagger
  // CHECK: %[[TID:.*]] = gpu.thread_id{{ +}}x
  // CHECK-NEXT: %[[MASK:.*]] = arith.constant -64 : i32
  // CHECK-NEXT: %[[TID32:.*]] = arith.index_castui %[[TID]] : index to i32
  // CHECK-NEXT: %[[WAVE0:.*]] = arith.andi %[[TID32]], %[[MASK]] : i32
  // CHECK-NEXT: %[[FIRST:.*]] = rocdl.readfirstlane %[[WAVE0]] : i32
  // CHECK-NEXT: %[[C256:.*]] = arith.constant 256 : i32
  // CHECK-NEXT: %[[LATE:.*]] = arith.cmpi uge, %[[FIRST]], %[[C256]] : i32
  // CHECK-NEXT: %[[S:.*]] = hk.stagger %[[LATE]] {
  // CHECK: %[[R:.*]] = scf.for
  // CHECK: hk.cluster priority = 2
  // CHECK: hk.yield %[[R]]
  // CHECK-NEXT: } : !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
  // CHECK-NEXT: scf.yield %[[S]]
  gpu.func @stagger(%t: !tile, %n: index, %b0: !fb, %acc0: !acc, %C: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %r = scf.for %k = %c0 to %n step %c64 iter_args(%acc = %acc0) -> (!acc) {
      %a = hk.load_fragment %t[%c0][%c0, %c0] : !tile -> !fa
      hk.barrier
      %m = hk.mma %a, %b0, %acc {__test_cluster__ = 0} : !fa, !fb, !acc
      hk.barrier
      scf.yield %m : !acc
    } {__test_cluster_priorities__ = array<i32: 2>, __test_stagger_wave_groups__}
    hk.store_fragment %r, %C[%c0, %c0] : !acc, memref<?x?xf32>
    gpu.return
  }
}

// -----

!acc = !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
!fa = !hk.fragment<a, 16x32xbf16, mma = 16x16x32>
!fb = !hk.fragment<b, 16x32xbf16, mma = 16x16x32>
!tile = !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>

  // A ping-pong written by attributes alone: the fill issued one tile ahead
  // in the MMA's cluster, two tiles per trip (constant slots), the wave
  // groups staggered, an odd last tile without the fill, the prologue's fill
  // of tile 0 and its waits.
  // CHECK-LABEL: gpu.func @ping_pong
  // CHECK: %[[TILES:.*]] = arith.ceildivsi
  // CHECK: scf.if
  // CHECK: %[[LAST:.*]] = arith.subi %[[TILES]], %c1
  // CHECK: hk.copy_to_shared %arg0[%c0, %c0], %{{.*}}[%c0{{.*}}] direct
  // CHECK-NEXT: amdgpu.memory_counter_wait load(1)
  // CHECK: hk.stagger
  // CHECK-NEXT: amdgpu.memory_counter_wait load(0)
  // CHECK-NEXT: hk.barrier
  // CHECK: scf.for
  // CHECK: hk.load_fragment %{{.*}}[%c0{{.*}}]
  // CHECK: hk.cluster priority = 1 {
  // CHECK-NEXT: hk.mma
  // CHECK: %[[NEXT:.*]] = arith.addi %{{.*}}, %c1{{.*}} : index
  // CHECK: arith.minsi %{{.*}}, %{{.*}} : i32
  // CHECK: hk.copy_to_shared {{.*}}, %{{.*}}[%c1{{.*}}] direct
  // CHECK: hk.load_fragment %{{.*}}[%c1{{.*}}]
  // CHECK: hk.copy_to_shared {{.*}}, %{{.*}}[%c0{{.*}}] direct
  // CHECK: scf.yield
  // CHECK: arith.remsi %[[TILES]], %c2
  // CHECK: scf.if
  // CHECK-NOT: hk.copy_to_shared
  // CHECK: amdgpu.memory_counter_wait ds(0)
  // CHECK-NEXT: hk.yield
  // CHECK: amdgpu.memory_counter_wait load(0)
gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @ping_pong(%A: memref<?x?xbf16>, %n: index, %b0: !fb, %acc0: !acc, %C: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %t = hk.alloc_shared : !tile
    %r = scf.for %k = %c0 to %n step %c64 iter_args(%acc = %acc0) -> (!acc) {
      %a = hk.load_fragment %t[%c0][%c0, %c0] {__test_cluster__ = 0} : !tile -> !fa
      amdgpu.memory_counter_wait load(1)
      hk.barrier
      %m = hk.mma %a, %b0, %acc {__test_cluster__ = 1} : !fa, !fb, !acc
      hk.copy_to_shared %A[%c0, %k], %t[%c0] direct {__test_ahead__ = 1, __test_cluster__ = 1} : memref<?x?xbf16>, !tile
      amdgpu.memory_counter_wait load(1)
      hk.barrier
      scf.yield %m : !acc
    } {__test_cluster_priorities__ = array<i32: 0, 1>, __test_tiles_per_trip__ = 2, __test_stagger_wave_groups__, __test_prologue_wait__ = array<i32: 1, -1>, __test_publish_wait__ = array<i32: 0, -1>, __test_final_wait__ = array<i32: -1, 0>}
    hk.store_fragment %r, %C[%c0, %c0] : !acc, memref<?x?xf32>
    gpu.return
  }
}

// -----

!acc = !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
!fa = !hk.fragment<a, 16x32xbf16, mma = 16x16x32>
!fb = !hk.fragment<b, 16x32xbf16, mma = 16x16x32>
!tile = !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>

  // An interleave written by attributes alone: a tile per trip counted on
  // i32 (slots computed from the tile), the load for the next tile after the
  // fill two tiles ahead, both in the second cluster; only the prologue's
  // memory guarded (the load ahead is zero when the loop does not run).
  // CHECK-LABEL: gpu.func @interleave
  // CHECK: %[[TILES:.*]] = arith.ceildivsi
  // CHECK: %[[RUNS:.*]] = arith.cmpi slt, %{{.*}}, %[[TILES]]
  // CHECK: scf.if %[[RUNS]] {
  // CHECK: hk.copy_to_shared %arg0[%c0, %c0], {{.*}} direct
  // CHECK: arith.minsi
  // CHECK: hk.copy_to_shared {{.*}} direct
  // CHECK: amdgpu.memory_counter_wait load(0)
  // CHECK-NEXT: hk.barrier
  // CHECK: %[[AHEAD:.*]] = scf.if %[[RUNS]] -> (!hk.fragment<a
  // CHECK: hk.load_fragment
  // CHECK: } else {
  // CHECK: hk.fill_fragment
  // CHECK: scf.for %{{.*}} = %c0_i32 to %{{.*}} step %c1_i32 iter_args(%{{.*}} = %arg3, %[[A:.*]] = %[[AHEAD]])
  // CHECK: %[[TILE:.*]] = arith.index_cast %{{.*}} : i32 to index
  // CHECK: %[[SLOT:.*]] = arith.andi %[[TILE]], %c1
  // CHECK: %[[OTHER:.*]] = arith.xori %[[SLOT]], %c1
  // CHECK: hk.cluster interleaved alternating {
  // CHECK-NEXT: hk.mma %[[A]]
  // CHECK: amdgpu.memory_counter_wait load(0)
  // CHECK-NEXT: amdgpu.lds_barrier
  // CHECK-NEXT: hk.cluster interleaved alternating {
  // CHECK: arith.addi %[[TILE]], %c2
  // CHECK: hk.copy_to_shared {{.*}}[%[[SLOT]]] direct
  // CHECK-NEXT: hk.load_fragment %{{.*}}[%[[OTHER]]]
  // CHECK: amdgpu.memory_counter_wait load(0)
  // CHECK-NEXT: hk.barrier
gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @interleave(%A: memref<?x?xbf16>, %n: index, %b0: !fb, %acc0: !acc, %C: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %t = hk.alloc_shared : !tile
    %r = scf.for %k = %c0 to %n step %c64 iter_args(%acc = %acc0) -> (!acc) {
      %a = hk.load_fragment %t[%c0][%c0, %c0] {__test_ahead__ = 1, __test_cluster__ = 1, __test_position__ = 5} : !tile -> !fa
      %m = hk.mma %a, %b0, %acc {__test_cluster__ = 0} : !fa, !fb, !acc
      amdgpu.memory_counter_wait load(0)
      amdgpu.lds_barrier
      hk.copy_to_shared %A[%c0, %k], %t[%c0] direct {__test_ahead__ = 2, __test_cluster__ = 1} : memref<?x?xbf16>, !tile
      scf.yield %m : !acc
    } {__test_cluster_priorities__ = array<i32: 0, 0>, __test_cluster_interleaved__ = array<i32: 0, 1>, __test_cluster_alternating__ = array<i32: 0, 1>, __test_count_on_i32__, __test_keep_computed_tile__, __test_guard_prologue_only__, __test_drain_barrier__, __test_prologue_wait__ = array<i32: 0, -1>}
    hk.store_fragment %r, %C[%c0, %c0] : !acc, memref<?x?xf32>
    gpu.return
  }
}
