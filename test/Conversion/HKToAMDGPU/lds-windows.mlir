// LDS windows (docs/Kernels.md#lds-windows). The four 32 KiB tiles sit at
// 0, 32, 64 and 96 KiB (the backend's layout: sorted by name, all of one
// size and alignment); the two above 64 KiB share a window based at the
// third. A multi-slot tile there whose fragment reads and writes all name
// constant slots is read and written through the window's register (the
// base behind llvm.strip.invariant.group) plus a byte offset, with one
// alias scope per slot; a tile below 64 KiB, and one read at a slot known
// only at run time, keep their memref accesses.
// RUN: hk-opt %s --convert-hk-to-amdgpu --canonicalize --cse | FileCheck %s

// CHECK-DAG: #[[DOMAIN:.*]] = #llvm.alias_scope_domain<{{.*}}description = "hk LDS tiles of pipelined">
// CHECK-DAG: #[[T2S1:.*]] = #llvm.alias_scope<{{.*}}description = "__hk_shared_pipelined_2 slot 1">
// CHECK-DAG: #[[T2S0:.*]] = #llvm.alias_scope<{{.*}}description = "__hk_shared_pipelined_2 slot 0">

// CHECK-LABEL: gpu.func @pipelined
// CHECK-DAG: %[[T1:.*]] = memref.get_global @__hk_shared_pipelined_1
// CHECK-DAG: %[[T2:.*]] = memref.get_global @__hk_shared_pipelined_2
// CHECK-DAG: %[[T3:.*]] = memref.get_global @__hk_shared_pipelined_3
// Below 64 KiB: the tile's memref, slot 1 at element 8192.
// CHECK: vector.load %[[T1]]
// The window's register: the third tile's address, opaque to LLVM.
// CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[T2]]
// CHECK: %[[PTR:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK: %[[WINDOW:.*]] = llvm.intr.strip.invariant.group %[[PTR]]
// CHECK: %[[AT:.*]] = llvm.getelementptr %[[WINDOW]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: %[[BITS:.*]] = llvm.load %[[AT]] {alias_scopes = [#[[T2S1]]], alignment = 16 : i64, noalias_scopes = [{{.*}}]} : !llvm.ptr<3> -> vector<8xi16>
// CHECK: arith.bitcast %[[BITS]] : vector<8xi16> to vector<8xbf16>
// CHECK-COUNT-7: llvm.load {{.*}}alias_scopes = [#[[T2S1]]]
// CHECK-NOT: llvm.load
// A slot known at run time: the memref.
// CHECK-COUNT-8: vector.load %[[T3]]
// The write of slot 0 of the windowed tile.
// CHECK: llvm.store {{.*}}alias_scopes = [#[[T2S0]]]
// CHECK-NOT: vector.store
// CHECK: gpu.return
gpu.module @m [#rocdl.target<chip = "gfx950">] {
  gpu.func @pipelined(%f: !hk.fragment<acc, 32x32xf32, mma = 32x32x16>, %slot: index)
      -> (!hk.fragment<a, 32x128xbf16, mma = 32x32x16>, !hk.fragment<a, 32x128xbf16, mma = 32x32x16>,
          !hk.fragment<a, 32x128xbf16, mma = 32x32x16>, !hk.fragment<a, 32x128xbf16, mma = 32x32x16>)
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t0 = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>, slots = 2>
    %t1 = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>, slots = 2>
    %t2 = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>, slots = 2>
    %t3 = hk.alloc_shared : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>, slots = 2>
    %a = hk.load_fragment %t1[%c1] [%c0, %c0] : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>, slots = 2> -> !hk.fragment<a, 32x128xbf16, mma = 32x32x16>
    %b = hk.load_fragment %t2[%c1] [%c0, %c0] : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>, slots = 2> -> !hk.fragment<a, 32x128xbf16, mma = 32x32x16>
    %c = hk.load_fragment %t3[%slot] [%c0, %c0] : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>, slots = 2> -> !hk.fragment<a, 32x128xbf16, mma = 32x32x16>
    hk.store_shared %f, %t2[%c0][%c0, %c0]
        : !hk.fragment<acc, 32x32xf32, mma = 32x32x16>, !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>, slots = 2>
    %d = hk.load_fragment %t0[%c0] [%c0, %c0] : !hk.shared_tile<64x128xbf16, #hk.swizzle<st_16x64>, slots = 2> -> !hk.fragment<a, 32x128xbf16, mma = 32x32x16>
    gpu.return %a, %b, %c, %d : !hk.fragment<a, 32x128xbf16, mma = 32x32x16>, !hk.fragment<a, 32x128xbf16, mma = 32x32x16>,
        !hk.fragment<a, 32x128xbf16, mma = 32x32x16>, !hk.fragment<a, 32x128xbf16, mma = 32x32x16>
  }
}
