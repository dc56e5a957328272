// hk-schedule-ping-pong on the MXFP8 GEMM: the block-scale reads
// (hk.read_fragment, global memory to registers) move into the memory
// clusters, a K tile ahead, one per cluster; the loop carries them; the
// first tile's are read after the prologue's fills; the odd last tile reads
// none. The waits count their loads on vmcnt, on top of the fills' (in the
// whole-tile loop hk-peel-partial-tiles leaves, the reads are partial_rows:
// a lane loads one word of 4 row scales per read, 4 per tile).
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
// The loop carries the accumulators, the next tile's first fragments and
// its four scale fragments.
// CHECK: scf.for {{.*}} iter_args({{.*}}, %[[SA0:[a-z0-9_]+]] = %{{.*}}, %[[SA1:[a-z0-9_]+]] = %{{.*}}, %[[SB0:[a-z0-9_]+]] = %{{.*}}, %[[SB1:[a-z0-9_]+]] = %{{.*}}) -> ({{.*}}, !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>, !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>, !hk.fragment<scale, 32x4xf8E8M0FNU, mma = 16x16x128>, !hk.fragment<scale, 32x4xf8E8M0FNU, mma = 16x16x128>)
// Cluster 0's memory interval reads SA0 of the next tile (K tile + 1,
// clamped to the last); its MMA uses the carried SA0 and SB0.
// CHECK: %[[NEXT:.*]] = arith.addi %{{.*}}, %c1{{.*}} : index
// CHECK-NEXT: %[[NSA0:[0-9]+]] = hk.cluster {
// CHECK-NEXT: arith.index_cast
// CHECK-NEXT: arith.index_cast %[[NEXT]]
// CHECK-NEXT: arith.minsi
// CHECK: hk.read_fragment %arg3
// CHECK-NEXT: hk.yield
// CHECK: hk.barrier
// CHECK-NEXT: hk.cluster priority = 1 interleaved alternating {
// CHECK-NEXT: hk.mma {{.*}} scales(%[[SA0]], %[[SB0]])
// CHECK: amdgpu.memory_counter_wait load(12)
// CHECK-NEXT: hk.barrier
// CHECK: hk.read_fragment %arg3
// CHECK: hk.mma {{.*}} scales(%[[SA0]], %[[SB1]])
// CHECK: %[[NSB0:[0-9]+]] = hk.cluster {
// CHECK-NEXT: arith.index_cast
// CHECK-NEXT: arith.index_cast %[[NEXT]]
// CHECK: hk.read_fragment %arg4
// CHECK: hk.mma {{.*}} scales(%[[SA1]], %[[SB0]])
// CHECK: hk.read_fragment %arg4
// CHECK: hk.mma {{.*}} scales(%[[SA1]], %[[SB1]])
// The loop's second tile uses the scales its first tile read.
// CHECK: hk.mma {{.*}} scales(%[[NSA0]], %[[NSB0]])
// CHECK: scf.yield
// The odd last tile: the carried scales, no reads.
// CHECK: scf.if
// CHECK-NOT: hk.read_fragment
// CHECK: hk.mma {{.*}} scales(%{{[0-9]+}}#6, %{{[0-9]+}}#8)
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
