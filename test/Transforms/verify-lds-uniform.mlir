// RUN: hk-opt %s --split-input-file --hk-verify-lds -verify-diagnostics

// Workgroup-uniform inputs of the LDS control flow (an integer argument, a
// block id) are run at 0 and 1, and at 0 and the grid's last block: a
// refill that only a runtime flag turns on is found with the flag set.
gpu.module @flag_guarded_refill [#rocdl.target<chip = "gfx950">] {
  // expected-note @below {{found with the kernel's sizes arg1 = 1}}
  gpu.func @k(%A: memref<?x?xbf16>, %flag: i32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0 : i32
    // expected-note @below {{the shared tile}}
    %T = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    hk.copy_to_shared %A[%c0, %c0], %T[%c0] bounds partial
        : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    // expected-note @below {{the last barrier before it}}
    amdgpu.lds_barrier
    // expected-note @below {{the read of slot 0 it races with}}
    %b = hk.load_fragment %T[%c0][%c0, %c0]
        : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
        -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
    %on = arith.cmpi ne, %flag, %zero : i32
    scf.if %on {
      // expected-error @below {{LDS race: this fill of slot 0 of a shared tile may overwrite it while other waves' read of the data it replaces is still running: no barrier orders the read before this fill}}
      hk.copy_to_shared %A[%c0, %c0], %T[%c0] bounds partial
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    }
    gpu.return
  }
}

// -----

// A K loop whose trip count depends on the block id and a flag (attention's
// causal bound): proved for every run.
gpu.module @block_bounded_loop [#rocdl.target<chip = "gfx950">] {
  gpu.func @k(%A: memref<?x?xbf16>, %flag: i32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  hk.launch = #hk.launch<grid = [arg0[0] ceildiv 128]>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0 : i32
    %T = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    %K = memref.dim %A, %c1 : memref<?x?xbf16>
    %block = gpu.block_id x
    %row = arith.muli %block, %c128 : index
    %end = arith.addi %row, %c128 : index
    %short = arith.minui %K, %end : index
    %on = arith.cmpi ne, %flag, %zero : i32
    %ub = arith.select %on, %short, %K : index
    scf.for %k = %c0 to %ub step %c64 {
      hk.copy_to_shared %A[%row, %k], %T[%c0] bounds partial
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      amdgpu.lds_barrier
      %b = hk.load_fragment %T[%c0][%c0, %c0]
          : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
          -> !hk.fragment<b, 32x64xbf16, mma = 16x16x32>
      amdgpu.lds_barrier
    }
    gpu.return
  }
}

// -----

// A bound that differs between the waves of a workgroup is still refused.
gpu.module @thread_bounded_loop [#rocdl.target<chip = "gfx950">] {
  gpu.func @k(%A: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %T = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    %tid = gpu.thread_id x
    // expected-error @below {{the upper bound of this loop is not determined by constants and the sizes of the kernel's arguments}}
    scf.for %k = %c0 to %tid step %c64 {
      hk.copy_to_shared %A[%c0, %k], %T[%c0] bounds partial
          : memref<?x?xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
      amdgpu.lds_barrier
    }
    gpu.return
  }
}

// -----

// A slot filled by direct-to-LDS loads, then by LDS stores (a peeled
// remainder loop after a direct main loop): the loads' writes land in no
// order with the stores', so they must be complete before the barrier.
gpu.module @direct_then_stores [#rocdl.target<chip = "gfx950">] {
  // expected-note @below {{found with the kernel's sizes (none dynamic)}}
  gpu.func @k(%A: memref<256x64xbf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    // expected-note @below {{the shared tile}}
    %T = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    // expected-note @below {{the fill of slot 0 it races with}}
    hk.copy_to_shared %A[%c0, %c0], %T[%c0] direct
        : memref<256x64xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    // expected-note @below {{the barrier the wait must precede}}
    amdgpu.lds_barrier
    // expected-error @below {{LDS race: this fill of slot 0 of a shared tile may land before other waves' earlier fill of it, made by direct-to-LDS loads, whose writes are not ordered with this one's: the fill's direct-to-LDS loads (vmcnt) are not waited for before the barrier that must release the slot; a wait before it such as amdgpu.memory_counter_wait load(0) covers it}}
    hk.copy_to_shared %A[%c0, %c0], %T[%c0]
        : memref<256x64xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    gpu.return
  }
}

// -----

// The same with the loads waited for: proved.
gpu.module @direct_then_stores_waited [#rocdl.target<chip = "gfx950">] {
  gpu.func @k(%A: memref<256x64xbf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %T = hk.alloc_shared : !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    hk.copy_to_shared %A[%c0, %c0], %T[%c0] direct
        : memref<256x64xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    amdgpu.memory_counter_wait load(0)
    amdgpu.lds_barrier
    hk.copy_to_shared %A[%c0, %c0], %T[%c0]
        : memref<256x64xbf16>, !hk.shared_tile<128x64xbf16, #hk.swizzle<st_16x32>>
    gpu.return
  }
}
