// hk-schedule-ping-pong turns the synchronous gfx950 GEMM (direct fills) into
// HipKittens' ping-pong: the first 7 fills before the loop, the late wave
// group (waves 4-7) one barrier behind, a loop over pairs of K tiles with 8
// clusters (memory, wait, barrier, MMA at priority 1, barrier) and one fill
// each, an odd last tile without fills, and derived partial waits.
// RUN: hk-opt %hk_src_root/examples/gemm_bf16_gfx950.mlir --pass-pipeline='builtin.module(gpu.module(hk-peel-partial-tiles,hk-direct-lds-fill{require=true},hk-schedule-ping-pong))' | FileCheck %s
// RUN: hk-opt %hk_src_root/examples/gemm_bf16_gfx950.mlir --pass-pipeline='builtin.module(gpu.module(hk-peel-partial-tiles,hk-direct-lds-fill{require=true},hk-schedule-ping-pong{fills=memory read-ahead=false}))' | FileCheck %s --check-prefix=HK
// RUN: hk-opt %hk_src_root/examples/gemm_bf16_gfx950.mlir --pass-pipeline='builtin.module(gpu.module(hk-peel-partial-tiles,hk-direct-lds-fill{require=true},hk-schedule-ping-pong{priority=3}))' | FileCheck %s --check-prefix=PRIO
// RUN: not hk-opt %hk_src_root/examples/gemm_bf16_gfx950.mlir --pass-pipeline='builtin.module(gpu.module(hk-peel-partial-tiles,hk-direct-lds-fill{require=true},hk-schedule-ping-pong{fills=later}))' 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-LABEL: gpu.func @gemm_bf16
// CHECK-COUNT-4: hk.alloc_shared : {{.*}}128x64xbf16, #hk.swizzle<st_16x32>, slots = 2>
// CHECK: scf.if
// The prologue: 7 fills (tile 0, and 3 regions of tile 1, in slot 1).
// CHECK-COUNT-4: hk.copy_to_shared {{.*}}[%c0{{.*}}] direct
// CHECK-COUNT-3: hk.copy_to_shared {{.*}}[%c1{{.*}}] direct
// CHECK-NOT: hk.copy_to_shared
// CHECK: amdgpu.memory_counter_wait load(10)
// CHECK: %[[FIRST:.*]] = rocdl.readfirstlane
// CHECK: %[[LATE:.*]] = arith.cmpi uge, %[[FIRST]], %c256{{.*}} : i32
// CHECK: hk.stagger %[[LATE]] {
// CHECK-NEXT: amdgpu.memory_counter_wait load(8)
// CHECK-NEXT: hk.barrier
// Reading ahead: tile 0's first reads (B0 then A0) after the publishing
// barrier; the loop carries each next tile's.
// CHECK-NEXT: hk.cluster {
// CHECK: hk.load_fragment %{{.*}}[%[[S0:[a-z0-9_]+]]] {{.*}} -> <b, 32x64xbf16
// CHECK-NEXT: hk.load_fragment %{{.*}}[%[[S0]]] {{.*}} -> <a, 64x64xbf16
// CHECK-NEXT: hk.yield
// CHECK: scf.for {{.*}} -> (!hk.fragment<acc, {{.*}}>, !hk.fragment<acc, {{.*}}>, !hk.fragment<acc, {{.*}}>, !hk.fragment<acc, {{.*}}>, !hk.fragment<b, 32x64xbf16, mma = 16x16x32>, !hk.fragment<a, 64x64xbf16, mma = 16x16x32>)
// Cluster 0 of tile 2i: its MMA, after it the fill of A1 for tile 2i + 1
// and cluster 1's read (B1), interleaved and alternating with the MFMAs
// (hk.cluster alternating). Fills come after the MMAs that
// used the reads: the waits count only DMA loads.
// CHECK: hk.barrier
// CHECK-NEXT: hk.cluster priority = 1 interleaved alternating {
// CHECK-NEXT: hk.mma
// CHECK: hk.copy_to_shared {{.*}} direct
// CHECK: hk.load_fragment {{.*}} -> <b, 32x64xbf16
// CHECK: hk.yield
// CHECK: amdgpu.memory_counter_wait load(8)
// CHECK-NEXT: hk.barrier
// The last cluster of tile 2i + 1 reads tile 2i + 2's B0 and A0 (slot 0).
// CHECK-COUNT-6: hk.cluster priority = 1
// CHECK: hk.load_fragment %{{.*}}[%c0{{[_0-9]*}}] {{.*}} -> <b, 32x64xbf16
// CHECK: hk.load_fragment %{{.*}}[%c0{{[_0-9]*}}] {{.*}} -> <a, 64x64xbf16
// CHECK-NEXT: hk.yield
// CHECK-NOT: ds(
// CHECK: scf.yield
// An odd tile count: the last tile, no fills.
// CHECK: scf.if
// CHECK-NOT: hk.copy_to_shared
// CHECK-COUNT-4: hk.cluster priority = 1
// CHECK: hk.yield
// CHECK: amdgpu.memory_counter_wait load(0)
// CHECK-COUNT-4: hk.store_fragment

// HipKittens' placement: the fill with the reads, and an LDS wait for the
// reads another wave's next fill overwrites (B0 read first, A0's 8 reads
// may stay in flight).
// HK: scf.for
// HK: hk.cluster {
// HK-NEXT: hk.load_fragment {{.*}} -> <b, 32x64xbf16
// HK-NEXT: hk.load_fragment {{.*}} -> <a, 64x64xbf16
// HK: hk.copy_to_shared {{.*}} direct
// HK: amdgpu.memory_counter_wait load(10) ds(8)
// HK-NEXT: hk.barrier
// HK-NEXT: hk.cluster priority = 1 {
// HK-NEXT: hk.mma
// HK-NEXT: hk.yield

// PRIO-COUNT-12: hk.cluster priority = 3
// PRIO-NOT: priority = 1

// BAD: for the --fills option: Cannot find option named 'later'!
