// The schedule ops lower to upstream ops: hk.barrier to a barrier between
// wavefront-scope fences (no memory wait), hk.cluster to its body fenced by
// sched_barriers (one between consecutive memory ops) at its priority, an
// alternating one with a sched_group_barrier per MFMA and memory instruction
// (LDS reads, and global stores and atomics as VMEM),
// hk.stagger to a barrier before the body for the late waves and one after
// it for the others.
// RUN: hk-opt %s --convert-hk-to-amdgpu | FileCheck %s

!a = !hk.fragment<a, 64x64xbf16, mma = 16x16x32>
!b = !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
!acc = !hk.fragment<acc, 64x32xf32, mma = 16x16x32>
!tile = !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  // CHECK-LABEL: gpu.func @schedule
  gpu.func @schedule(%late: i1, %zero: f32) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !tile
    %acc = hk.fill_fragment %zero : !acc
    // CHECK: scf.if %{{.*}} {
    // CHECK-NEXT: llvm.fence syncscope("wavefront") release
    // CHECK-NEXT: rocdl.s.barrier
    // CHECK-NEXT: llvm.fence syncscope("wavefront") acquire
    // CHECK-NEXT: }
    %r = hk.stagger %late {
      // The memory cluster: fenced, reads in program order, no priority.
      // CHECK: amdgpu.sched_barrier allow = <none>
      // CHECK-NOT: rocdl.s.setprio
      // CHECK-COUNT-8: vector.load
      // CHECK-NOT: vector.load
      // CHECK: amdgpu.sched_barrier allow = <none>
      // CHECK-COUNT-4: vector.load
      // CHECK-NOT: vector.load
      // CHECK: amdgpu.sched_barrier allow = <none>
      %ab:2 = hk.cluster {
        %x = hk.load_fragment %t[%c0][%c0, %c0] : !tile -> !a
        %y = hk.load_fragment %t[%c0][%c0, %c0] : !tile -> !b
        hk.yield %x, %y : !a, !b
      } : !a, !b
      // CHECK: amdgpu.memory_counter_wait load(6) ds(8)
      // CHECK-NEXT: llvm.fence syncscope("wavefront") release
      // CHECK-NEXT: rocdl.s.barrier
      // CHECK-NEXT: llvm.fence syncscope("wavefront") acquire
      amdgpu.memory_counter_wait load(6) ds(8)
      hk.barrier
      // The MMA cluster at priority 2.
      // CHECK-NEXT: amdgpu.sched_barrier allow = <none>
      // CHECK-NEXT: rocdl.s.setprio 2
      // CHECK-COUNT-16: amdgpu.mfma
      // CHECK: rocdl.s.setprio 0
      // CHECK-NEXT: amdgpu.sched_barrier allow = <none>
      %m = hk.cluster priority = 2 {
        %d = hk.mma %ab#0, %ab#1, %acc : !a, !b, !acc
        hk.yield %d : !acc
      } : !acc
      // An interleaved cluster: no fence between its loads, so the backend
      // may move them among the MFMAs.
      // CHECK: amdgpu.sched_barrier allow = <none>
      // CHECK-NEXT: rocdl.s.setprio 1
      // CHECK-NOT: amdgpu.sched_barrier
      // CHECK: rocdl.s.setprio 0
      // CHECK-NEXT: amdgpu.sched_barrier allow = <none>
      %n:3 = hk.cluster priority = 1 interleaved {
        %d = hk.mma %ab#0, %ab#1, %acc : !a, !b, !acc
        %x = hk.load_fragment %t[%c0][%c0, %c0] : !tile -> !a
        %y = hk.load_fragment %t[%c0][%c0, %c0] : !tile -> !b
        hk.yield %d, %x, %y : !acc, !a, !b
      } : !acc, !a, !b
      // An alternating cluster: after its priority, one group per MFMA,
      // each but the last 12 followed by one of its 4 LDS reads, in program
      // order, so each read issues in an MFMA's shadow.
      // CHECK: amdgpu.sched_barrier allow = <none>
      // CHECK-NEXT: rocdl.s.setprio 1
      // CHECK-NEXT: rocdl.sched.group.barrier 8, 1, 0
      // CHECK-NEXT: rocdl.sched.group.barrier 256, 1, 0
      // CHECK-NEXT: rocdl.sched.group.barrier 8, 1, 0
      // CHECK-NEXT: rocdl.sched.group.barrier 256, 1, 0
      // CHECK-NEXT: rocdl.sched.group.barrier 8, 1, 0
      // CHECK-NEXT: rocdl.sched.group.barrier 256, 1, 0
      // CHECK-NEXT: rocdl.sched.group.barrier 8, 1, 0
      // CHECK-NEXT: rocdl.sched.group.barrier 256, 1, 0
      // CHECK-COUNT-12: rocdl.sched.group.barrier 8, 1, 0
      // CHECK-NOT: rocdl.sched.group.barrier
      // CHECK: rocdl.s.setprio 0
      %o:2 = hk.cluster priority = 1 interleaved alternating {
        %d = hk.mma %ab#0, %ab#1, %acc : !a, !b, !acc
        %y = hk.load_fragment %t[%c0][%c0, %c0] : !tile -> !b
        hk.yield %d, %y : !acc, !b
      } : !acc, !b
      // Without memory instructions there is nothing to alternate.
      // CHECK: rocdl.s.setprio 1
      // CHECK-NOT: rocdl.sched.group.barrier
      // CHECK: rocdl.s.setprio 0
      %q = hk.cluster priority = 1 alternating {
        %d = hk.mma %ab#0, %ab#1, %acc : !a, !b, !acc
        hk.yield %d : !acc
      } : !acc
      hk.yield %m : !acc
    } : !acc
    // CHECK: %[[EARLY:.*]] = arith.xori %{{.*}}, %true
    // CHECK-NEXT: scf.if %[[EARLY]] {
    // CHECK-NEXT: llvm.fence syncscope("wavefront") release
    // CHECK-NEXT: rocdl.s.barrier
    // CHECK-NOT: hk.
    gpu.return
  }

  // An alternating cluster's global atomics (as its stores) are VMEM
  // groups: each of the 16 MFMAs is followed by one atomic (an f32 add per
  // element, 32 per lane), the other 16 atomics after them.
  // CHECK-LABEL: gpu.func @alternating_atomics
  gpu.func @alternating_atomics(%out: memref<64x32xf32>, %zero: f32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = hk.alloc_shared : !tile
    %acc = hk.fill_fragment %zero : !acc
    %a = hk.load_fragment %t[%c0][%c0, %c0] : !tile -> !a
    %b = hk.load_fragment %t[%c0][%c0, %c0] : !tile -> !b
    // CHECK: amdgpu.sched_barrier allow = <none>
    // CHECK-NEXT: rocdl.sched.group.barrier 8, 1, 0
    // CHECK-COUNT-15: rocdl.sched.group.barrier 16, 1, 0{{[[:space:]]+}}rocdl.sched.group.barrier 8, 1, 0
    // CHECK-COUNT-17: rocdl.sched.group.barrier 16, 1, 0
    // CHECK-NOT: rocdl.sched.group.barrier
    // CHECK: rocdl.raw.ptr.buffer.atomic.fadd
    %d = hk.cluster interleaved alternating {
      %m = hk.mma %a, %b, %acc : !a, !b, !acc
      hk.store_fragment %m, %out[%c0, %c0] atomic bounds partial
          : !acc, memref<64x32xf32>
      hk.yield %m : !acc
    } : !acc
    gpu.return
  }
}
