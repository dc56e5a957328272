// hk-schedule-ping-pong on the attention loop (the gfx950 d64 example,
// scores one tile ahead): two clusters per KV tile, one per MMA, as the
// kernel's phases have them: the next tile's S = K Q^T, this tile's exp2,
// the sum and the cast of P to an operand, then V's read, in the first
// compute cluster; O's MMA, the next tile's maximum, the lazy rescale
// (hk.any and its scf.if) and K's read in the second; the kernel's own
// waits and scheduler fences are dropped (the schedule derives its own);
// the mask tiles hk-split-loops peeled stay in program order in the
// remainder loop.
// RUN: hk-opt %hk_src_root/examples/attention_fwd_bf16_d64_gfx950.mlir --pass-pipeline='builtin.module(gpu.module(hk-peel-partial-tiles,hk-split-loops,hk-direct-lds-fill{require=true},hk-schedule-ping-pong))' | FileCheck %s

// CHECK-LABEL: gpu.func @attention_fwd_bf16_d64
// CHECK: hk.stagger
// CHECK: scf.for
// CHECK: hk.barrier
// CHECK-NEXT: %[[S:.*]]:4 = hk.cluster priority = 1 interleaved {
// CHECK-NEXT: hk.mma {{.*}} : <a, 64x64xbf16
// CHECK: hk.reduce sum
// CHECK: hk.to_operand
// CHECK: hk.load_fragment {{.*}} transpose
// CHECK: hk.yield
// CHECK-NOT: amdgpu.memory_counter_wait ds
// CHECK-NOT: amdgpu.sched_barrier
// CHECK: hk.barrier
// CHECK-NEXT: hk.barrier
// CHECK-NEXT: hk.cluster priority = 1 interleaved {
// CHECK-NEXT: hk.mma %[[S]]#3, %[[S]]#2, %{{.*}} : <a, 64x64xbf16, mma = {{[0-9x]+}}, k = acc>
// CHECK: hk.reduce max %[[S]]#0
// CHECK: hk.any
// CHECK: scf.if
// CHECK: hk.load_fragment {{.*}} : <64x64xbf16, #hk.swizzle<st_16x64>
// CHECK: } {hk.remainder}
