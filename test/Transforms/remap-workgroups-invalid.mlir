// hk-remap-workgroups refuses reads of the workgroup id it cannot redirect.
// RUN: hk-opt %s --split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(hk-remap-workgroups))'

gpu.module @m {
  gpu.func @global(%C: memref<?xf32>) kernel {
    // expected-error @+1 {{'gpu.global_id' op hk-remap-workgroups: global id x includes the workgroup id, which the remap cannot redirect; compute it from gpu.block_id}}
    %i = gpu.global_id x
    %f = arith.constant 1.0 : f32
    memref.store %f, %C[%i] : memref<?xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @hardware(%C: memref<?xf32>) kernel {
    // expected-error @+1 {{'rocdl.workgroup.id.y' op hk-remap-workgroups: reads the hardware workgroup id, which the remap cannot redirect; use gpu.block_id}}
    %y = rocdl.workgroup.id.y : i32
    %i = arith.index_cast %y : i32 to index
    %f = arith.constant 1.0 : f32
    memref.store %f, %C[%i] : memref<?xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @helper(%C: memref<?xf32>) {
    // expected-error @+1 {{'gpu.block_id' op hk-remap-workgroups: block id x outside a kernel cannot be remapped; pass it from the kernel}}
    %x = gpu.block_id x
    %f = arith.constant 1.0 : f32
    memref.store %f, %C[%x] : memref<?xf32>
    gpu.return
  }
}
