// RUN: hk-opt %s --split-input-file --hk-verify-lds -verify-diagnostics

// A prefetch into the slot the loop is reading: the read of slot s follows
// this wave's own refill of it with no barrier in between.
gpu.module @prefetch_into_read_slot [#rocdl.target<chip = "gfx950">] {
  // expected-note @below {{found with the kernel's sizes arg0[1] = 65}}
  gpu.func @k(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    // expected-note @below {{the shared tile}}
    %T = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    %K = memref.dim %A, %c1 : memref<?x?xbf16>
    hk.copy_to_shared %A[%c0, %c0], %T[%c0] direct
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    amdgpu.memory_counter_wait load(0)
    // expected-note @below {{the last barrier before it}}
    amdgpu.lds_barrier
    scf.for %k = %c0 to %K step %c64 {
      %t = arith.divui %k, %c64 : index
      %s = arith.remui %t, %c2 : index
      %n = arith.addi %k, %c64 : index
      %more = arith.cmpi slt, %n, %K : index
      scf.if %more {
        // expected-note @below {{the fill of slot 0 it races with}}
        hk.copy_to_shared %A[%c0, %n], %T[%s] direct
            : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
      }
      // expected-error @below {{LDS race: this read of slot 0 of a shared tile may run before other waves' fill of it has landed: no barrier orders the fill before this read}}
      %b = hk.load_fragment %T[%s][%c0, %c0]
          : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
          -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
      amdgpu.memory_counter_wait load(0)
      amdgpu.lds_barrier
    }
    gpu.return
  }
}

// -----

// The same loop prefetching into the other slot is race-free.
gpu.module @prefetch_into_other_slot [#rocdl.target<chip = "gfx950">] {
  gpu.func @k(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %T = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    %K = memref.dim %A, %c1 : memref<?x?xbf16>
    hk.copy_to_shared %A[%c0, %c0], %T[%c0] direct
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    amdgpu.memory_counter_wait load(0)
    amdgpu.lds_barrier
    scf.for %k = %c0 to %K step %c64 {
      %t = arith.divui %k, %c64 : index
      %s = arith.remui %t, %c2 : index
      %o = arith.xori %s, %c1 : index
      %n = arith.addi %k, %c64 : index
      %more = arith.cmpi slt, %n, %K : index
      scf.if %more {
        hk.copy_to_shared %A[%c0, %n], %T[%o] direct
            : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
      }
      %b = hk.load_fragment %T[%s][%c0, %c0]
          : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
          -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
      amdgpu.memory_counter_wait load(0)
      amdgpu.lds_barrier
    }
    gpu.return
  }
}

// -----

// A register-path fill before hk.barrier, which waits for nothing: its LDS
// stores must be waited for (lgkmcnt).
gpu.module @register_fill_hk_barrier [#rocdl.target<chip = "gfx1201">] {
  // expected-note @below {{found with the kernel's sizes (none dynamic)}}
  gpu.func @k(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    // expected-note @below {{the shared tile}}
    %T = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
    // expected-note @below {{the fill of slot 0 it races with}}
    hk.copy_to_shared %A[%c0, %c0], %T[%c0]
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
    // expected-note @below {{the barrier the wait must precede}}
    hk.barrier
    // expected-error @below {{LDS race: this read of slot 0 of a shared tile may run before other waves' fill of it has landed: the fill's LDS stores (lgkmcnt) are not waited for before the barrier that must publish them; a wait before it such as amdgpu.memory_counter_wait ds(0) covers it}}
    %a = hk.load_fragment %T[%c0][%c0, %c0]
        : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
        -> !hk.fragment<a, 64x16xbf16, mma = 16x16x16>
    gpu.return
  }
}

// -----

// With the wait, it is proven.
gpu.module @register_fill_waited [#rocdl.target<chip = "gfx1201">] {
  gpu.func @k(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %T = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
    hk.copy_to_shared %A[%c0, %c0], %T[%c0]
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
    amdgpu.memory_counter_wait ds(0)
    hk.barrier
    %a = hk.load_fragment %T[%c0][%c0, %c0]
        : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_8x64>, #hk.col_perm<block4_0213>>
        -> !hk.fragment<a, 64x16xbf16, mma = 16x16x16>
    gpu.return
  }
}

// -----

// A partial LDS wait: ds(4) leaves the second read (4 ds_read_b128) in
// flight, so the first is complete and its slot may be refilled...
gpu.module @partial_wait_in_order [#rocdl.target<chip = "gfx950">] {
  gpu.func @k(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %T = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    %U = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    hk.copy_to_shared %A[%c0, %c0], %T[%c0] direct
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    hk.copy_to_shared %A[%c0, %c0], %U[%c0] direct
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    amdgpu.memory_counter_wait load(0)
    hk.barrier
    %x, %y = hk.cluster {
      %x0 = hk.load_fragment %T[%c0][%c0, %c0]
          : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
      %y0 = hk.load_fragment %U[%c0][%c0, %c0]
          : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
      hk.yield %x0, %y0 : !hk.fragment<b, 32x64xbf16, mma = 16x16x32>,
                          !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
    } : !hk.fragment<b, 32x64xbf16, mma = 16x16x32>,
        !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
    amdgpu.memory_counter_wait ds(4)
    hk.barrier
    hk.copy_to_shared %A[%c0, %c0], %T[%c0] direct
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    gpu.return
  }
}

// -----

// ...but not when the reads are in an interleaved cluster, which may issue
// them in either order.
gpu.module @partial_wait_interleaved [#rocdl.target<chip = "gfx950">] {
  // expected-note @below {{found with the kernel's sizes (none dynamic)}}
  gpu.func @k(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    // expected-note @below {{the shared tile}}
    %T = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    %U = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    hk.copy_to_shared %A[%c0, %c0], %T[%c0] direct
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    hk.copy_to_shared %A[%c0, %c0], %U[%c0] direct
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    amdgpu.memory_counter_wait load(0)
    hk.barrier
    %x, %y = hk.cluster interleaved {
      // expected-note @below {{the read of slot 0 it races with}}
      %x0 = hk.load_fragment %T[%c0][%c0, %c0]
          : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
      %y0 = hk.load_fragment %U[%c0][%c0, %c0]
          : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
      hk.yield %x0, %y0 : !hk.fragment<b, 32x64xbf16, mma = 16x16x32>,
                          !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
    } : !hk.fragment<b, 32x64xbf16, mma = 16x16x32>,
        !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
    amdgpu.memory_counter_wait ds(4)
    // expected-note @below {{the barrier the wait must precede}}
    hk.barrier
    // expected-error @below {{LDS race: this fill of slot 0 of a shared tile may overwrite it while other waves' read of the data it replaces is still running: the read's LDS loads (lgkmcnt) are not waited for before the barrier that must release the slot; a wait before it such as amdgpu.memory_counter_wait ds(0) covers it}}
    hk.copy_to_shared %A[%c0, %c0], %T[%c0] direct
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    gpu.return
  }
}

// -----

// HipKittens' unconditional-looking balance done wrong: the late waves of
// a stagger execute one more barrier than the early ones.
gpu.module @unbalanced_stagger [#rocdl.target<chip = "gfx950">] {
  // expected-error @below {{LDS race: wave group 1 executes 4 barriers but wave group 0 executes 3, so barriers pair up wrongly across the workgroup}}
  // expected-note @below {{wave group 0 is the early waves of the hk.stagger, wave group 1 the late ones}}
  // expected-note @below {{found with the kernel's sizes (none dynamic)}}
  gpu.func @k(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %T = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    %tid = gpu.thread_id x
    %wave = arith.divui %tid, %c64 : index
    %late = arith.cmpi uge, %wave, %c4 : index
    hk.copy_to_shared %A[%c0, %c0], %T[%c0] direct
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    amdgpu.memory_counter_wait load(0)
    hk.stagger %late {
      hk.barrier
      %b = hk.load_fragment %T[%c0][%c0, %c0]
          : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
      hk.barrier
      hk.yield
    }
    scf.if %late {
      amdgpu.lds_barrier
    }
    gpu.return
  }
}

// -----

// What the model cannot follow is refused, not passed.
gpu.module @thread_dependent_branch [#rocdl.target<chip = "gfx950">] {
  gpu.func @k(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c256 = arith.constant 256 : index
    %T = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    %tid = gpu.thread_id x
    %low = arith.cmpi ult, %tid, %c256 : index
    // expected-error @below {{hk-verify-lds cannot prove this kernel's LDS synchronisation: the condition of this scf.if, which guards LDS work or barriers, is not determined by constants and the sizes of the kernel's arguments}}
    scf.if %low {
      hk.copy_to_shared %A[%c0, %c0], %T[%c0] direct
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    }
    gpu.return
  }
}

// -----

gpu.module @thread_dependent_slot [#rocdl.target<chip = "gfx950">] {
  gpu.func @k(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %T = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    %tid = gpu.thread_id x
    %s = arith.remui %tid, %c2 : index
    // expected-error @below {{hk-verify-lds cannot prove this kernel's LDS synchronisation: its slot index is not determined by constants and the sizes of the kernel's arguments}}
    hk.copy_to_shared %A[%c0, %c0], %T[%s] direct
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
    gpu.return
  }
}

// -----

gpu.module @read_before_fill [#rocdl.target<chip = "gfx950">] {
  // expected-note @below {{found with the kernel's sizes (none dynamic)}}
  gpu.func @k() kernel attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    // expected-note @below {{the shared tile}}
    %T = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    // expected-error @below {{LDS race: this read of slot 0 of a shared tile comes before any fill of that slot: it reads what no wave wrote}}
    %b = hk.load_fragment %T[%c0][%c0, %c0]
        : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
        -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
    gpu.return
  }
}

// -----

gpu.module @raw_waitcnt [#rocdl.target<chip = "gfx950">] {
  gpu.func @k() kernel attributes {known_block_size = array<i32: 512, 1, 1>} {
    // expected-error @below {{hk-verify-lds cannot prove this kernel's LDS synchronisation: 'rocdl.s.waitcnt' touches LDS, waits or synchronises in a way the model does not follow}}
    rocdl.s.waitcnt 0
    gpu.return
  }
}

// -----

gpu.module @stagger_not_wave_uniform [#rocdl.target<chip = "gfx950">] {
  gpu.func @k() kernel attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c100 = arith.constant 100 : index
    %tid = gpu.thread_id x
    %late = arith.cmpi uge, %tid, %c100 : index
    // expected-error @below {{hk-verify-lds cannot prove this kernel's LDS synchronisation: the condition of hk.stagger must be the same in every lane of a wave (derive it from the wave id, thread_id x / 64 in a one-dimensional workgroup)}}
    hk.stagger %late {
      hk.barrier
      hk.yield
    }
    gpu.return
  }
}

// -----

gpu.module @no_block_size [#rocdl.target<chip = "gfx950">] {
  // expected-error @below {{hk-verify-lds needs the workgroup size (known_block_size = array<i32: x, y, z>) to count each wave's LDS operations}}
  gpu.func @k() kernel {
    gpu.return
  }
}

// -----

gpu.module @copy_in_while [#rocdl.target<chip = "gfx950">] {
  gpu.func @k(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %false = arith.constant false
    %T = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    // expected-error @below {{hk-verify-lds cannot prove this kernel's LDS synchronisation: LDS work inside 'scf.while', whose control flow the model does not follow}}
    scf.while : () -> () {
      hk.copy_to_shared %A[%c0, %c0], %T[%c0] direct
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      scf.condition(%false)
    } do {
      scf.yield
    }
    gpu.return
  }
}

// -----

gpu.module @too_many_events [#rocdl.target<chip = "gfx950">] {
  gpu.func @k(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %big = arith.constant 1000000 : index
    %T = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    hk.copy_to_shared %A[%c0, %c0], %T[%c0] direct
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    amdgpu.memory_counter_wait load(0)
    hk.barrier
    scf.for %i = %c0 to %big step %c1 {
      // expected-error @below {{hk-verify-lds cannot prove this kernel's LDS synchronisation: more than 20000 LDS operations, waits and barriers to check for one wave group}}
      %b = hk.load_fragment %T[%c0][%c0, %c0]
          : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
    }
    gpu.return
  }
}

// -----

// rocdl.s.barrier is a barrier that waits for nothing; scheduling fences and
// priorities are not synchronisation.
gpu.module @raw_barrier [#rocdl.target<chip = "gfx950">] {
  gpu.func @k(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    %c0 = arith.constant 0 : index
    %T = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    hk.copy_to_shared %A[%c0, %c0], %T[%c0] direct
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    amdgpu.memory_counter_wait load(0)
    rocdl.sched.barrier 0
    amdgpu.sched_barrier allow = <none>
    rocdl.s.setprio 1
    rocdl.s.barrier
    %b = hk.load_fragment %T[%c0][%c0, %c0]
        : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
        -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
    gpu.return
  }
}
