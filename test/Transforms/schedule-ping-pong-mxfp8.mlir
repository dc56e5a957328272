// hk-schedule-ping-pong on the MXFP8 GEMM: the block-scale reads
// (hk.read_fragment, global memory to registers) move into the memory
// clusters, a K tile ahead, one per cluster; the loop carries them; the
// first tile's are read after the prologue's fills; the odd last tile reads
// none. The waits count their loads on vmcnt, on top of the fills' (a lane
// loads 4 scales for a 64-row read, 2 for a 32-row one: 12 per tile).
// RUN: hk-opt %hk_src_root/examples/gemm_mxfp8_gfx950.mlir --pass-pipeline='builtin.module(gpu.module(hk-peel-partial-tiles,hk-direct-lds-fill{require=true},hk-schedule-ping-pong))' | FileCheck %s
// RUN: hk-opt %hk_src_root/examples/gemm_mxfp8_gfx950.mlir --pass-pipeline='builtin.module(gpu.module(hk-peel-partial-tiles,hk-direct-lds-fill{require=true},hk-schedule-ping-pong,hk-verify-lds))' -o /dev/null
// RUN: hk-opt %hk_src_root/examples/gemm_mxfp8_gfx950.mlir --pass-pipeline='builtin.module(gpu.module(hk-peel-partial-tiles,hk-direct-lds-fill{require=true},hk-schedule-ping-pong{fills=memory read-ahead=false},hk-verify-lds))' | FileCheck %s --check-prefix=HK

// CHECK-LABEL: gpu.func @gemm_mxfp8
// The prologue: the fills, then tile 0's four scale reads, then the wait
// that counts them (10 fill loads + 12 scale loads may stay in flight).
// CHECK: hk.copy_to_shared
// CHECK-NOT: hk.cluster
// CHECK: hk.read_fragment %arg3[{{.*}}] bounds partial {{.*}} -> <scale, 64x4xf8E8M0FNU
// CHECK: hk.read_fragment %arg3[{{.*}}] bounds partial {{.*}} -> <scale, 64x4xf8E8M0FNU
// CHECK: hk.read_fragment %arg4[{{.*}}] bounds partial {{.*}} -> <scale, 32x4xf8E8M0FNU
// CHECK: hk.read_fragment %arg4[{{.*}}] bounds partial {{.*}} -> <scale, 32x4xf8E8M0FNU
// CHECK-NEXT: amdgpu.memory_counter_wait load(22)
// CHECK: hk.stagger
// The loop carries the accumulators, the next tile's first fragments and
// its four scale fragments.
// CHECK: scf.for {{.*}} -> ({{.*}}, !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>, !hk.fragment<scale, 64x4xf8E8M0FNU, mma = 16x16x128>, !hk.fragment<scale, 32x4xf8E8M0FNU, mma = 16x16x128>, !hk.fragment<scale, 32x4xf8E8M0FNU, mma = 16x16x128>)
// Cluster 0's memory interval reads SA of the next tile (K index + 1 tile,
// clamped), its MMA uses the carried scales.
// CHECK: %[[NEXT:.*]] = arith.addi %{{.*}}, %c1{{.*}} : index
// CHECK: hk.cluster {
// CHECK: arith.minsi
// CHECK: hk.read_fragment %arg3
// CHECK: hk.yield
// CHECK: hk.barrier
// CHECK-NEXT: hk.cluster priority = 1 interleaved alternating {
// CHECK-NEXT: hk.mma {{.*}} scales(%arg{{[0-9]+}}, %arg{{[0-9]+}})
// CHECK: amdgpu.memory_counter_wait load(20)
// CHECK-COUNT-3: hk.read_fragment
// CHECK: hk.mma {{.*}} scales(
// The loop's second tile uses the scales its first tile read.
// CHECK-COUNT-4: hk.read_fragment
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
// HK: hk.read_fragment
// HK: hk.copy_to_shared
// HK: hk.yield
