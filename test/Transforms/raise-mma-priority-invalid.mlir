// Priorities are 1 to 3.
// RUN: hk-opt %s --pass-pipeline='builtin.module(gpu.module(hk-raise-mma-priority{priority=7}))' -verify-diagnostics

// expected-error @+1 {{hk-raise-mma-priority: priority must be 1 to 3, got 7}}
gpu.module @m {
}
