// hk-rematerialize-after-loops: lane values computed before a loop and used
// after it (not in it) are computed again after it, from a thread id
// rebuilt there (the lane id or'ed to the wave's first thread id, read
// where the thread id is), so they hold no register through the loop; in
// kernels whose waves have at most 256 registers (here 8 waves, 2 per
// SIMD).
// RUN: hk-opt %s --hk-rematerialize-after-loops | FileCheck %s

gpu.module @m [#rocdl.target<chip = "gfx950">] {
  // CHECK-LABEL: gpu.func @after
  // CHECK: %[[TID:.*]] = gpu.thread_id x
  // CHECK: %[[TID32:.*]] = arith.index_castui %[[TID]] : index to i32
  // CHECK-NEXT: %[[WAVE:.*]] = arith.andi %[[TID32]], %c-64_i32
  // CHECK-NEXT: %[[FIRST:.*]] = rocdl.readfirstlane %[[WAVE]]
  // CHECK: %[[OFF:.*]] = arith.muli %{{.*}}, %c4
  // CHECK-NEXT: arith.divui
  // CHECK-NEXT: %[[USED:.*]] = arith.addi %{{.*}}, %c1 : index
  // The loop reads %used: it stays.
  // CHECK: scf.for
  // CHECK: arith.addi %{{.*}}, %[[USED]] : index
  // CHECK: scf.yield
  // CHECK-NEXT: }
  // CHECK-NEXT: %[[LANE:.*]] = gpu.lane_id
  // CHECK-NEXT: %[[LANE32:.*]] = arith.index_castui %[[LANE]] : index to i32
  // CHECK-NEXT: %[[NEW32:.*]] = arith.ori %[[FIRST]], %[[LANE32]] : i32
  // CHECK-NEXT: %[[NEW:.*]] = arith.index_castui %[[NEW32]] : i32 to index
  // CHECK-NEXT: %[[LANEB:.*]] = arith.remui %[[NEW]], %c64
  // CHECK-NEXT: %[[OFFB:.*]] = arith.muli %[[LANEB]], %c4
  // CHECK-NEXT: %[[ROWB:.*]] = arith.divui %[[NEW]], %c64
  // CHECK-NEXT: %[[A:.*]] = arith.addi %{{.*}}, %[[OFFB]]
  // CHECK-NEXT: %[[B:.*]] = arith.addi %[[A]], %[[ROWB]]
  // CHECK-NEXT: %[[C:.*]] = arith.addi %[[B]], %[[USED]]
  // CHECK-NOT: gpu.lane_id
  // CHECK: gpu.return
  gpu.func @after(%out: memref<?xindex>, %n: index) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    %lane = arith.remui %tid, %c64 : index
    %off = arith.muli %lane, %c4 : index
    %row = arith.divui %tid, %c64 : index
    %used = arith.addi %row, %c1 : index
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> index {
      // Loop-invariant: LLVM moves it out, so %off is not kept for it...
      %inv = arith.addi %off, %c1 : index
      // ...but %used is read in every trip.
      %s = arith.addi %acc, %used : index
      %t = arith.addi %s, %i : index
      memref.store %inv, %out[%i] : memref<?xindex>
      scf.yield %t : index
    }
    %a = arith.addi %r, %off : index
    %b = arith.addi %a, %row : index
    %c = arith.addi %b, %used : index
    memref.store %c, %out[%c0] : memref<?xindex>
    gpu.return
  }

  // A wave's first thread id already read before the loop (hk.stagger's
  // condition reads one) is the one the rebuilt thread id takes: one SGPR
  // through the loop, not two.
  // CHECK-LABEL: gpu.func @first_lane_read
  // CHECK: %[[FIRST:.*]] = rocdl.readfirstlane
  // CHECK-NOT: rocdl.readfirstlane
  // CHECK: scf.for
  // CHECK: gpu.lane_id
  // CHECK-NEXT: arith.index_castui
  // CHECK-NEXT: arith.ori %[[FIRST]], %{{.*}} : i32
  // CHECK-NOT: rocdl.readfirstlane
  // CHECK: gpu.return
  gpu.func @first_lane_read(%out: memref<?xindex>, %n: index, %flag: memref<?xi1>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %mask = arith.constant -64 : i32
    %c256 = arith.constant 256 : i32
    %tid = gpu.thread_id x
    %tid32 = arith.index_castui %tid : index to i32
    %wave0 = arith.andi %tid32, %mask : i32
    %first = rocdl.readfirstlane %wave0 : i32
    %late = arith.cmpi uge, %first, %c256 : i32
    memref.store %late, %flag[%c0] : memref<?xi1>
    %lane = arith.remui %tid, %c64 : index
    %off = arith.muli %lane, %c4 : index
    %row = arith.divui %tid, %c64 : index
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> index {
      %t = arith.addi %acc, %i : index
      scf.yield %t : index
    }
    %a = arith.addi %r, %off : index
    %b = arith.addi %a, %row : index
    memref.store %b, %out[%c0] : memref<?xindex>
    gpu.return
  }

  // A loop inside one whose annotation disables LICM (a persistent
  // kernel's K loop in its walk over work): the thread id is rebuilt after
  // it from a readfirstlane made there, so that nothing computed from it is
  // invariant in the outer loop (MachineLICM, which does not read the
  // annotation, would take it out and keep it through every inner loop).
  // CHECK-LABEL: gpu.func @nested
  // CHECK: %[[TID:.*]] = gpu.thread_id x
  // CHECK: scf.for
  // CHECK: scf.for
  // CHECK: scf.yield
  // CHECK-NEXT: }
  // CHECK-NEXT: %[[MASK:.*]] = arith.constant -64 : i32
  // CHECK-NEXT: %[[T32:.*]] = arith.index_castui %[[TID]] : index to i32
  // CHECK-NEXT: %[[READ:.*]] = rocdl.readfirstlane %[[T32]] : i32
  // CHECK-NEXT: %[[FIRST:.*]] = arith.andi %[[READ]], %[[MASK]]
  // CHECK-NEXT: %[[NEW32:.*]] = arith.ori %[[T32]], %[[FIRST]] : i32
  // CHECK-NEXT: %[[NEW:.*]] = arith.index_castui %[[NEW32]] : i32 to index
  // CHECK-NEXT: arith.remui %[[NEW]], %c64
  // CHECK: scf.for
  // CHECK: scf.yield
  // CHECK-NEXT: }
  // CHECK-NEXT: arith.constant -64 : i32
  // CHECK-NEXT: %[[T32B:.*]] = arith.index_castui %[[TID]] : index to i32
  // CHECK-NEXT: rocdl.readfirstlane %[[T32B]] : i32
  // CHECK-NOT: gpu.lane_id
  // CHECK: gpu.return
  gpu.func @nested(%out: memref<?xindex>, %n: index) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    %lane = arith.remui %tid, %c64 : index
    %off = arith.muli %lane, %c4 : index
    %row = arith.divui %tid, %c64 : index
    scf.for %item = %c0 to %n step %c1 {
      %w = scf.for %i = %c0 to %item step %c1 iter_args(%acc = %c0) -> index {
        %t = arith.addi %acc, %i : index
        scf.yield %t : index
      }
      %a = arith.addi %w, %off : index
      %b = arith.addi %a, %row : index
      memref.store %b, %out[%item] : memref<?xindex>
      %k = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> index {
        %t = arith.addi %acc, %i : index
        scf.yield %t : index
      }
      %c = arith.addi %k, %off : index
      %d = arith.addi %c, %row : index
      memref.store %d, %out[%c0] : memref<?xindex>
    } {llvm.loop_annotation = #llvm.loop_annotation<licm = <disable = true>>}
    gpu.return
  }

  // Without the annotation the outer loop's invariant code may leave it:
  // the thread id is rebuilt from the lane id, as after any loop.
  // CHECK-LABEL: gpu.func @nested_unannotated
  // CHECK: scf.for
  // CHECK: scf.for
  // CHECK: scf.yield
  // CHECK-NEXT: }
  // CHECK-NEXT: gpu.lane_id
  // CHECK: gpu.return
  gpu.func @nested_unannotated(%out: memref<?xindex>, %n: index) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    %lane = arith.remui %tid, %c64 : index
    %off = arith.muli %lane, %c4 : index
    %row = arith.divui %tid, %c64 : index
    scf.for %item = %c0 to %n step %c1 {
      %k = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> index {
        %t = arith.addi %acc, %i : index
        scf.yield %t : index
      }
      %c = arith.addi %k, %off : index
      %d = arith.addi %c, %row : index
      memref.store %d, %out[%item] : memref<?xindex>
    }
    gpu.return
  }

  // A loop inside an ordinary loop (a K loop) inside the annotated one:
  // LICM takes what is computed after it out of the K loop, so the thread id
  // is rebuilt from the lane id, not from a readfirstlane made in the K
  // loop (which would recompute it all in every K trip).
  // CHECK-LABEL: gpu.func @inner_of_inner
  // CHECK: scf.for
  // CHECK: scf.for
  // CHECK: scf.for
  // CHECK: scf.yield
  // CHECK-NEXT: }
  // CHECK-NEXT: gpu.lane_id
  // CHECK-NOT: rocdl.readfirstlane
  // CHECK: gpu.return
  gpu.func @inner_of_inner(%out: memref<?xindex>, %n: index) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    %lane = arith.remui %tid, %c64 : index
    %off = arith.muli %lane, %c4 : index
    %row = arith.divui %tid, %c64 : index
    scf.for %item = %c0 to %n step %c1 {
      scf.for %k = %c0 to %n step %c1 {
        %w = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %c0) -> index {
          %t = arith.addi %acc, %i : index
          scf.yield %t : index
        }
        %a = arith.addi %w, %off : index
        %b = arith.addi %a, %row : index
        memref.store %b, %out[%k] : memref<?xindex>
      }
    } {llvm.loop_annotation = #llvm.loop_annotation<licm = <disable = true>>}
    gpu.return
  }

  // A thread id rebuilt after a loop outside (outer blocks come first) is
  // the thread id to the loops inside the next one: what they take from it
  // is computed again from the thread id itself.
  // CHECK-LABEL: gpu.func @rebuilt_then_nested
  // CHECK: %[[TID:.*]] = gpu.thread_id x
  // CHECK: scf.for
  // CHECK: gpu.lane_id
  // CHECK: scf.for
  // CHECK: scf.for
  // CHECK: scf.yield
  // CHECK-NEXT: }
  // CHECK-NEXT: arith.constant -64 : i32
  // CHECK-NEXT: %[[T32:.*]] = arith.index_castui %[[TID]] : index to i32
  // CHECK-NEXT: rocdl.readfirstlane %[[T32]] : i32
  // CHECK: %[[NEW:.*]] = arith.index_castui %{{.*}} : i32 to index
  // CHECK-NEXT: %[[LANE:.*]] = arith.remui %[[NEW]], %c64
  // CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[LANE]], %c4
  // CHECK-NEXT: %[[ROW:.*]] = arith.divui %[[NEW]], %c64
  // CHECK-NEXT: %[[A:.*]] = arith.addi %{{.*}}, %[[OFF]]
  // CHECK-NEXT: arith.addi %[[A]], %[[ROW]]
  // CHECK: gpu.return
  gpu.func @rebuilt_then_nested(%out: memref<?xindex>, %n: index) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    %lane = arith.remui %tid, %c64 : index
    %off = arith.muli %lane, %c4 : index
    %row = arith.divui %tid, %c64 : index
    %count = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> index {
      %t = arith.addi %acc, %i : index
      scf.yield %t : index
    }
    scf.for %item = %c0 to %count step %c1 {
      %w = scf.for %i = %c0 to %item step %c1 iter_args(%acc = %c0) -> index {
        %t = arith.addi %acc, %i : index
        scf.yield %t : index
      }
      %a = arith.addi %w, %off : index
      %b = arith.addi %a, %row : index
      memref.store %b, %out[%item] : memref<?xindex>
    } {llvm.loop_annotation = #llvm.loop_annotation<licm = <disable = true>>}
    gpu.return
  }

  // One value used after the loop: recomputing it would keep the thread id
  // through the loop instead, for nothing.
  // CHECK-LABEL: gpu.func @single
  // CHECK-NOT: gpu.lane_id
  // CHECK: gpu.return
  gpu.func @single(%out: memref<?xindex>, %n: index) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    %lane = arith.remui %tid, %c64 : index
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> index {
      %t = arith.addi %acc, %i : index
      scf.yield %t : index
    }
    %a = arith.addi %r, %lane : index
    memref.store %a, %out[%c0] : memref<?xindex>
    gpu.return
  }

  // 4 waves: one per SIMD, 512 registers (AGPRs hold such values): left
  // alone.
  // CHECK-LABEL: gpu.func @roomy
  // CHECK-NOT: gpu.lane_id
  // CHECK: gpu.return
  gpu.func @roomy(%out: memref<?xindex>, %n: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    %lane = arith.remui %tid, %c64 : index
    %off = arith.muli %lane, %c4 : index
    %row = arith.divui %tid, %c64 : index
    %used = arith.addi %row, %c1 : index
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> index {
      // Loop-invariant: LLVM moves it out, so %off is not kept for it...
      %inv = arith.addi %off, %c1 : index
      // ...but %used is read in every trip.
      %s = arith.addi %acc, %used : index
      %t = arith.addi %s, %i : index
      memref.store %inv, %out[%i] : memref<?xindex>
      scf.yield %t : index
    }
    %a = arith.addi %r, %off : index
    %b = arith.addi %a, %row : index
    %c = arith.addi %b, %used : index
    memref.store %c, %out[%c0] : memref<?xindex>
    gpu.return
  }
}
