// More than two stages are refused.
// RUN: hk-opt %s --pass-pipeline='builtin.module(gpu.module(hk-multi-buffer{stages=3}))' -verify-diagnostics

// expected-error @+1 {{hk-multi-buffer: stages = 3 is not implemented (1 and 2 are)}}
gpu.module @m {
}
