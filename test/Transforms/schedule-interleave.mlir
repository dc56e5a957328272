// hk-schedule-interleave turns the synchronous 4-wave fp8 GEMM (direct
// fills) into a double-buffered loop with one barrier per K tile, in its
// middle: tiles 0 and 1 (clamped) filled before the loop, the first MMA's
// operands (B0, A0) read before it and carried, each later read issued one
// MMA early, the barrier after the MMA that follows the last read, then the
// fill of tile t + 2 (clamped, no branch) and the next tile's B0 and A0,
// after the last use of their values for this tile; each MMA in an
// alternating cluster with the memory ops issued before it.
// RUN: hk-opt %hk_src_root/examples/gemm_fp8_4wave_gfx950.mlir --pass-pipeline='builtin.module(gpu.module(hk-peel-partial-tiles,hk-direct-lds-fill{require=true},hk-schedule-interleave))' | FileCheck %s

// CHECK-LABEL: gpu.func @gemm_fp8_4wave
// CHECK-COUNT-4: hk.alloc_shared : <128x128xf8E4M3FN, #hk.swizzle<st_16x128>, slots = 2>
// CHECK: %[[TILES:.*]] = arith.ceildivsi
// CHECK: %[[LAST:.*]] = arith.subi %[[TILES]], %c1
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %c0{{.*}}, %[[TILES]]
// CHECK: scf.if %[[RUNS]] {
// CHECK-COUNT-4: hk.copy_to_shared {{.*}}[%c0{{.*}}] direct
// CHECK: arith.minsi %{{.*}}, %{{.*}} : i32
// CHECK-COUNT-4: hk.copy_to_shared {{.*}}[%c1{{.*}}] direct
// CHECK-NEXT: }
// CHECK-NEXT: amdgpu.memory_counter_wait load(0)
// CHECK-NEXT: amdgpu.lds_barrier
// CHECK-NEXT: %[[FIRST:.*]]:2 = scf.if %[[RUNS]] -> (!hk.fragment<b, 64x128xf8E4M3FN, mma = 16x16x128>, !hk.fragment<a, 64x128xf8E4M3FN, mma = 16x16x128>)
// CHECK: hk.load_fragment %2[{{.*}}] {{.*}} -> <b, 64x128xf8E4M3FN
// CHECK-NEXT: hk.load_fragment %0[{{.*}}] {{.*}} -> <a, 64x128xf8E4M3FN
// CHECK: } else {
// CHECK: hk.fill_fragment %{{.*}} : <b, 64x128xf8E4M3FN
// CHECK: hk.fill_fragment %{{.*}} : <a, 64x128xf8E4M3FN
// The loop counts tiles on i32 (a scalar exit compare).
// CHECK: %[[TILES32:.*]] = arith.index_cast %[[TILES]] : index to i32
// CHECK: scf.for %[[T:.*]] = %c0_i32 to %[[TILES32]] step %c1_i32 iter_args({{.*}}, %[[B0:.*]] = %[[FIRST]]#0, %[[A0:.*]] = %[[FIRST]]#1)
// CHECK-NEXT: %[[TILE:.*]] = arith.index_cast %[[T]] : i32 to index
// CHECK: %[[SLOT:.*]] = arith.andi %[[TILE]]
// CHECK: %[[OTHER:.*]] = arith.xori %[[SLOT]]
// Each MMA is an alternating cluster with the memory ops issued before it:
// B1 is read before the first MMA, A1 before the second (in the next
// cluster: it stays after the first).
// CHECK-NEXT: %[[C00:.*]]:2 = hk.cluster interleaved alternating {
// CHECK-NEXT: %[[B1:.*]] = hk.load_fragment %3[%[[SLOT]]]
// CHECK-NEXT: %[[D00:.*]] = hk.mma %[[A0]], %[[B0]]
// CHECK-NEXT: hk.yield %[[B1]], %[[D00]]
// CHECK: %[[C01:.*]]:2 = hk.cluster interleaved alternating {
// CHECK-NEXT: %[[A1:.*]] = hk.load_fragment %1[%[[SLOT]]]
// CHECK-NEXT: %[[D01:.*]] = hk.mma %[[A0]], %[[C00]]#0
// CHECK-NEXT: hk.yield %[[A1]], %[[D01]]
// CHECK-NEXT: }
// CHECK-NEXT: amdgpu.memory_counter_wait load(0)
// CHECK-NEXT: amdgpu.lds_barrier
// The fill of tile t + 2 clamped to the last, into this tile's slot.
// CHECK-NEXT: %[[C10:.*]] = hk.cluster interleaved alternating {
// CHECK: %[[AHEAD:.*]] = arith.addi %[[TILE]], %c2
// CHECK: arith.minsi %{{.*}}, %{{.*}} : i32
// CHECK-COUNT-4: hk.copy_to_shared {{.*}}[%[[SLOT]]] direct
// CHECK-NEXT: %[[D10:.*]] = hk.mma %[[C01]]#0, %[[B0]]
// CHECK-NEXT: hk.yield %[[D10]]
// The next tile's B0 and A0 open the cluster after the last use of B0.
// CHECK: %[[C11:.*]]:3 = hk.cluster interleaved alternating {
// CHECK-NEXT: %[[B0N:.*]] = hk.load_fragment %2[%[[OTHER]]]
// CHECK-NEXT: %[[A0N:.*]] = hk.load_fragment %0[%[[OTHER]]]
// CHECK-NEXT: %[[D11:.*]] = hk.mma %[[C01]]#0, %[[C00]]#0
// CHECK-NEXT: hk.yield %[[B0N]], %[[A0N]], %[[D11]]
// CHECK-NEXT: } :
// CHECK-NEXT: scf.yield %[[C00]]#1, %[[C01]]#1, %[[C10]], %[[C11]]#2, %[[C11]]#0, %[[C11]]#1
// CHECK-NEXT: }
// The clamped fills still in flight and the last reads ahead are drained
// before the remainder tile's fill.
// CHECK-NEXT: amdgpu.memory_counter_wait load(0)
// CHECK-NEXT: amdgpu.lds_barrier
// CHECK: scf.for
// CHECK: } {hk.remainder}
