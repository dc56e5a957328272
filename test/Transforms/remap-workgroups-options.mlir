// The parameters of the XCD order are at least 1.
// RUN: hk-opt %s --pass-pipeline='builtin.module(gpu.module(hk-remap-workgroups{chunk=0}))' -verify-diagnostics

// expected-error @+1 {{hk-remap-workgroups: xcds, chunk and group must be at least 1, got xcds=8, chunk=0, group=8}}
gpu.module @m {
}
