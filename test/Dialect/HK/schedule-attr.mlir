// #hk.schedule round-trips: the knobs of ScheduleOptions.def, spelled as
// the pipeline options, in any order; those off their defaults print, in
// the options' order.
// RUN: hk-opt %s | FileCheck %s
// RUN: hk-opt %s | hk-opt | FileCheck %s

// CHECK: gpu.module @all attributes {hk.schedule = #hk.schedule<stages = 2, unroll = 2, direct-lds = true, mma-priority = 3, workgroup-order = xcd, fp8-format = e5m2, verify-lds = false>}
gpu.module @all attributes {hk.schedule = #hk.schedule<verify-lds = false, fp8-format = e5m2, workgroup-order = xcd, mma-priority = 3, direct-lds = true, unroll = 2, stages = 2>} {}

// CHECK: gpu.module @hk attributes {hk.schedule = #hk.schedule<schedule = ping-pong-hk>}
gpu.module @hk attributes {hk.schedule = #hk.schedule<schedule = ping-pong-hk>} {}

// Knobs at their defaults are the same attribute as knobs left out.
// CHECK: gpu.module @defaults attributes {hk.schedule = #hk.schedule<ping-pong-priority = 2, schedule = ping-pong>}
gpu.module @defaults attributes {hk.schedule = #hk.schedule<stages = 1, ping-pong-priority = 2, schedule = ping-pong, workgroup-order = row-major, fp8-format = source>} {}

// CHECK: gpu.module @none attributes {hk.schedule = #hk.schedule<>}
gpu.module @none attributes {hk.schedule = #hk.schedule<>} {}

// CHECK: gpu.module @deferred attributes {hk.schedule = #hk.schedule<stages = 2, unroll = 2, defer-fill-stores = true>}
gpu.module @deferred attributes {hk.schedule = #hk.schedule<defer-fill-stores = true, unroll = 2, stages = 2>} {}
