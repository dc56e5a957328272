// The cluster mechanism refuses schedules it cannot apply, saying why.
// RUN: hk-opt %s --split-input-file --test-hk-cluster-schedule -verify-diagnostics

!tile = !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
!fa = !hk.fragment<a, 16x32xbf16, mma = 16x16x32>

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @use_before_def(%t: !tile, %n: index) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %n step %c64 {
      // expected-note @+1 {{defined here}}
      %col = arith.addi %k, %c64 {__test_cluster__ = 1} : index
      // expected-error @+1 {{cluster schedule: 'hk.load_fragment' would run before the 'arith.addi' that defines a value it uses; put them in one cluster or in clusters in that order}}
      %a = hk.load_fragment %t[%c0][%c0, %col] {__test_cluster__ = 0} : !tile -> !fa
    } {__test_cluster_priorities__ = array<i32: 0, 0>}
    gpu.return
  }
}

// -----

!tile = !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
!fa = !hk.fragment<a, 16x32xbf16, mma = 16x16x32>

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @memory_order(%t: !tile, %n: index) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %n step %c64 {
      // expected-note @+1 {{the other op}}
      %a = hk.load_fragment %t[%c0][%c0, %c0] {__test_cluster__ = 1} : !tile -> !fa
      // expected-error @+1 {{cluster schedule: 'hk.barrier' would move across 'hk.load_fragment'; ops with memory effects keep their program order}}
      hk.barrier
      %b = hk.load_fragment %t[%c0][%c0, %c0] {__test_cluster__ = 0} : !tile -> !fa
    } {__test_cluster_priorities__ = array<i32: 0, 0>}
    gpu.return
  }
}

// -----

!tile = !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
!fa = !hk.fragment<a, 16x32xbf16, mma = 16x16x32>

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @no_such_cluster(%t: !tile, %n: index) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %n step %c64 {
      // expected-error @+1 {{cluster schedule: the op is put in cluster 2 but the schedule has 1 clusters}}
      %a = hk.load_fragment %t[%c0][%c0, %c0] {__test_cluster__ = 2} : !tile -> !fa
    } {__test_cluster_priorities__ = array<i32: 0>}
    gpu.return
  }
}

// -----

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @barrier_in_cluster(%n: index) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %n step %c64 {
      // expected-error @+1 {{'hk.cluster' op cannot hold a barrier: clusters are separated by barriers}}
      %x = arith.addi %k, %c64 {__test_cluster__ = 0} : index
      // expected-note @+1 {{barrier here}}
      hk.barrier {__test_cluster__ = 0}
    } {__test_cluster_priorities__ = array<i32: 0>}
    gpu.return
  }
}

// -----

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @stagger_unknown_block(%n: index) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    // expected-error @+1 {{cluster schedule: cannot stagger the wave groups: needs a 1-D workgroup (known_block_size = array<i32: x, 1, 1>)}}
    scf.for %k = %c0 to %n step %c64 {
      %x = arith.addi %k, %c64 {__test_cluster__ = 0} : index
    } {__test_cluster_priorities__ = array<i32: 0>, __test_stagger_wave_groups__}
    gpu.return
  }
}

// -----

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @odd_waves(%n: index) kernel attributes {known_block_size = array<i32: 192, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    // expected-error @+1 {{cluster schedule: cannot stagger the wave groups: needs an even number of whole waves to pair, got 192 threads of wave64}}
    scf.for %k = %c0 to %n step %c64 {
      %x = arith.addi %k, %c64 {__test_cluster__ = 0} : index
    } {__test_cluster_priorities__ = array<i32: 0>, __test_stagger_wave_groups__}
    gpu.return
  }
}

// -----

!tile = !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
!fa = !hk.fragment<a, 16x32xbf16, mma = 16x16x32>

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @two_ahead(%t: !tile, %n: index, %acc0: !hk.fragment<acc, 16x16xf32, mma = 16x16x32>, %b0: !hk.fragment<b, 16x32xbf16, mma = 16x16x32>) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %n step %c64 {
      // expected-error @+1 {{cluster schedule: the op is issued 2 tiles ahead, but only values issued one tile ahead are carried to their tile}}
      %a = hk.load_fragment %t[%c0][%c0, %c0] {__test_ahead__ = 2} : !tile -> !fa
      %m = hk.mma %a, %b0, %acc0 : !fa, !hk.fragment<b, 16x32xbf16, mma = 16x16x32>, !hk.fragment<acc, 16x16xf32, mma = 16x16x32>
    } {__test_cluster_priorities__ = array<i32: 0>}
    gpu.return
  }
}

// -----

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @three_per_trip(%n: index) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    // expected-error @+1 {{cluster schedule: a loop trip holds 1 or 2 K tiles, got 3}}
    scf.for %k = %c0 to %n step %c64 {
      %x = arith.addi %k, %c64 : index
    } {__test_cluster_priorities__ = array<i32: 0>, __test_tiles_per_trip__ = 3}
    gpu.return
  }
}
