// hk-schedule-ping-pong on the MXFP8 GEMM: the block-scale reads
// (hk.read_fragment, global memory to registers) move into the memory
// clusters, a K tile ahead, in the order of their first MMA, spread over
// the clusters before the last; the first tile's are read after the
// prologue's fills; the odd last tile reads none. Their arrangements for
// the MFMA (hk.to_operand, A's pair and B's pair, all before the first MMA)
// are a tile's early work: they run in the tile before, beside its last
// MMA, and the loop carries their results. The waits count the loads on
// vmcnt, on top of the fills' (in the whole-tile loop hk-peel-partial-tiles
// leaves, the reads are partial_rows: a lane loads one word of 4 row scales
// per read, 4 per tile).
// RUN: hk-opt %hk_src_root/examples/gemm_mxfp8_gfx950.mlir --pass-pipeline='builtin.module(gpu.module(hk-peel-partial-tiles,hk-direct-lds-fill{require=true},hk-schedule-ping-pong))' | FileCheck %s
// RUN: hk-opt %hk_src_root/examples/gemm_mxfp8_gfx950.mlir --pass-pipeline='builtin.module(gpu.module(hk-peel-partial-tiles,hk-direct-lds-fill{require=true},hk-schedule-ping-pong,hk-verify-lds))' -o /dev/null
// RUN: hk-opt %hk_src_root/examples/gemm_mxfp8_gfx950.mlir --pass-pipeline='builtin.module(gpu.module(hk-peel-partial-tiles,hk-direct-lds-fill{require=true},hk-schedule-ping-pong{fills=memory read-ahead=false},hk-verify-lds))' | FileCheck %s --check-prefix=HK
// RUN: hk-opt %hk_src_root/examples/gemm_mxfp8_gfx950.mlir --pass-pipeline='builtin.module(gpu.module(hk-peel-partial-tiles,hk-direct-lds-fill{require=true},hk-schedule-ping-pong))' -o %t.mlir
// RUN: awk '!done && /memory_counter_wait load\(12\)/ { sub(/load\(12\)/, "load(13)"); done = 1 } 1' %t.mlir > %t.loose.mlir
// RUN: not hk-opt %t.loose.mlir --hk-verify-lds -o /dev/null 2>&1 | FileCheck %s --check-prefix=RACE

// CHECK-LABEL: gpu.func @gemm_mxfp8
// The prologue: the fills, then tile 0's four scale reads in a cluster
// (its fence keeps them after the fills), then the wait that counts them
// (10 fill loads + 4 scale loads may stay in flight).
// CHECK: hk.copy_to_shared
// CHECK: hk.cluster {
// CHECK-NOT: hk.copy_to_shared
// CHECK: hk.read_fragment %arg3[{{.*}}] bounds partial_rows {{.*}} -> <scale, 64x4xf8E8M0FNU
// CHECK: hk.read_fragment %arg3[{{.*}}] bounds partial_rows {{.*}} -> <scale, 64x4xf8E8M0FNU
// CHECK: hk.read_fragment %arg4[{{.*}}] bounds partial_rows {{.*}} -> <scale, 32x4xf8E8M0FNU
// CHECK: hk.read_fragment %arg4[{{.*}}] bounds partial_rows {{.*}} -> <scale, 32x4xf8E8M0FNU
// CHECK-NEXT: hk.yield
// CHECK-NEXT: }
// CHECK-NEXT: amdgpu.memory_counter_wait load(14)
// CHECK: hk.stagger
// Tile 0's scales arranged before the loop (the early work), by pairs.
// CHECK: %[[TA:[0-9]+]]:2 = hk.to_operand %{{[0-9]+}}#0, %{{[0-9]+}}#1 : <scale, 64x4xf8E8M0FNU, mma = 16x16x128>, <scale, 64x4xf8E8M0FNU, mma = 16x16x128> -> <scale_mma, 64x4xf8E8M0FNU
// CHECK: %[[TB:[0-9]+]]:2 = hk.to_operand %{{[0-9]+}}#2, %{{[0-9]+}}#3 : <scale, 32x4xf8E8M0FNU, mma = 16x16x128>, <scale, 32x4xf8E8M0FNU, mma = 16x16x128> -> <scale_mma, 32x4xf8E8M0FNU
// The loop carries the accumulators, the next tile's first fragments, its
// four scale fragments as read and their arranged ones.
// CHECK: scf.for {{.*}} iter_args({{.*}}, %[[CTA0:[a-z0-9_]+]] = %[[TA]]#0, %[[CTA1:[a-z0-9_]+]] = %[[TA]]#1, %[[CTB0:[a-z0-9_]+]] = %[[TB]]#0, %[[CTB1:[a-z0-9_]+]] = %[[TB]]#1) -> ({{.*}}, !hk.fragment<scale_mma, 64x4xf8E8M0FNU, mma = 16x16x128>, !hk.fragment<scale_mma, 64x4xf8E8M0FNU, mma = 16x16x128>, !hk.fragment<scale_mma, 32x4xf8E8M0FNU, mma = 16x16x128>, !hk.fragment<scale_mma, 32x4xf8E8M0FNU, mma = 16x16x128>)
// The reads, each for the next tile (K tile + 1, clamped to the last): A's
// two in cluster 0, B's two in cluster 1 (two clusters or more before the
// last, which arranges them), none after; every MMA takes carried arranged
// scales.
// CHECK: %[[NSA:[0-9]+]]:2 = hk.cluster {
// CHECK: %[[NEXT:.*]] = arith.addi %{{.*}}, %c1{{.*}} : index
// CHECK-NEXT: arith.index_cast
// CHECK-NEXT: arith.index_cast %[[NEXT]]
// CHECK-NEXT: arith.minsi
// CHECK: hk.read_fragment %arg3[%[[AROW0:[0-9]+]],
// CHECK: hk.read_fragment %arg3[%[[AROW1:[0-9]+]],
// CHECK-NEXT: hk.yield
// CHECK: hk.barrier
// CHECK-NEXT: hk.cluster priority = 1 interleaved {{.*}}{
// CHECK-NEXT: hk.mma {{.*}} scales(%[[CTA0]], %[[CTB0]])
// CHECK-NOT: hk.to_operand
// CHECK: amdgpu.memory_counter_wait load(12)
// CHECK-NEXT: hk.barrier
// CHECK: %[[NSB:[0-9]+]]:2 = hk.cluster {
// CHECK: hk.read_fragment %arg4[%[[BROW0:[0-9]+]],
// CHECK: hk.read_fragment %arg4[%[[BROW1:[0-9]+]],
// CHECK: hk.mma {{.*}} scales(%[[CTA0]], %[[CTB1]])
// CHECK-NOT: hk.read_fragment
// CHECK: hk.mma {{.*}} scales(%[[CTA1]], %[[CTB0]])
// The last cluster arranges the next tile's scales beside its MFMAs.
// CHECK: hk.cluster priority = 1 interleaved alternating {
// CHECK-NEXT: hk.mma {{.*}} scales(%[[CTA1]], %[[CTB1]])
// CHECK-NOT: hk.read_fragment
// CHECK: hk.to_operand %[[NSA]]#0, %[[NSA]]#1 : <scale, 64x4xf8E8M0FNU
// CHECK-NEXT: hk.to_operand %[[NSB]]#0, %[[NSB]]#1 : <scale, 32x4xf8E8M0FNU
// CHECK: scf.yield
// The odd last tile: the carried scales, no reads.
// CHECK: scf.if
// CHECK-NOT: hk.read_fragment
// CHECK: hk.mma {{.*}} scales(%{{[0-9]+}}#10, %{{[0-9]+}}#12)
// CHECK-NOT: hk.read_fragment
// CHECK: amdgpu.memory_counter_wait load(0)

// HipKittens' placement: each memory cluster holds its fragment reads, its
// scale read and its fill, in that order.
// HK: scf.for
// HK: hk.cluster {
// HK: hk.load_fragment
// HK-NOT: hk.yield
// HK: hk.read_fragment
// HK-NOT: hk.yield
// HK: hk.copy_to_shared
// HK-NEXT: hk.yield

// One wait looser than derived is a race hk-verify-lds finds: the scale
// loads are counted, not ignored.
// RACE: error: LDS race
