// hk-lower-grid-dims: gpu.grid_dim becomes the argument size hk.launch
// derives the grid from.
// RUN: hk-opt %s --split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(hk-lower-grid-dims))' | FileCheck %s

gpu.module @m {
  // CHECK-LABEL: gpu.func @sizes
  // CHECK-SAME: (%{{[a-z0-9_]+}}: memref<?x?xbf16>, %[[C:[a-z0-9_]+]]: memref<?x?xbf16>, %[[OX:[a-z0-9_]+]]: memref<index>, %[[OY:[a-z0-9_]+]]: memref<index>, %[[OZ:[a-z0-9_]+]]: memref<index>)
  gpu.func @sizes(%A: memref<?x?xbf16>, %C: memref<?x?xbf16>,
                  %outx: memref<index>, %outy: memref<index>,
                  %outz: memref<index>) kernel
      attributes {hk.launch = #hk.launch<grid = [arg1[1] / 256, arg1[0] / 128]>} {
    // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
    // CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
    // CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
    // CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
    // CHECK-DAG: %[[N:.*]] = memref.dim %[[C]], %[[C1]] : memref<?x?xbf16>
    // CHECK-DAG: %[[GX:.*]] = arith.divui %[[N]], %[[C256]] : index
    // CHECK-DAG: %[[M:.*]] = memref.dim %[[C]], %[[C0]] : memref<?x?xbf16>
    // CHECK-DAG: %[[GY:.*]] = arith.divui %[[M]], %[[C128]] : index
    // CHECK-NOT: gpu.grid_dim
    // CHECK: memref.store %[[GX]], %[[OX]][]
    // CHECK: memref.store %[[GY]], %[[OY]][]
    // Past the grid terms the grid is 1.
    // CHECK: memref.store %[[C1]], %[[OZ]][]
    %gx = gpu.grid_dim x
    %gy = gpu.grid_dim y
    %gz = gpu.grid_dim z
    memref.store %gx, %outx[] : memref<index>
    memref.store %gy, %outy[] : memref<index>
    memref.store %gz, %outz[] : memref<index>
    gpu.return
  }
}

// -----

// After hk-lower-kernel-abi the terms name the i32 arguments carrying the
// sizes.
gpu.module @m {
  // CHECK-LABEL: gpu.func @abi
  // CHECK-SAME: (%{{[a-z0-9_]+}}: !llvm.ptr<1>, %{{[a-z0-9_]+}}: i32, %[[COLS:[a-z0-9_]+]]: i32,
  gpu.func @abi(%C: !llvm.ptr<1>, %rows: i32, %cols: i32, %out: memref<1xindex>) kernel
      attributes {hk.launch = #hk.launch<grid = [arg2[0] / 256, arg1[0] / 256]>} {
    // CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
    // CHECK-DAG: %[[N:.*]] = arith.index_castui %[[COLS]] : i32 to index
    // CHECK: %[[GX:.*]] = arith.divui %[[N]], %[[C256]] : index
    // CHECK: memref.store %[[GX]]
    %c0 = arith.constant 0 : index
    %gx = gpu.grid_dim x
    memref.store %gx, %out[%c0] : memref<1xindex>
    gpu.return
  }
}

// -----

// Without hk.launch the grid size is unknown to hk: gpu.grid_dim stays.
gpu.module @m {
  // CHECK-LABEL: gpu.func @unknown
  // CHECK: gpu.grid_dim x
  // expected-remark @+1 {{hk-lower-grid-dims: gpu.grid_dim kept in @unknown, which is not a kernel with 'hk.launch'; its lowering calls __ockl_get_num_groups of the ROCm device library}}
  gpu.func @unknown(%out: memref<1xindex>) kernel {
    %c0 = arith.constant 0 : index
    %gx = gpu.grid_dim x
    memref.store %gx, %out[%c0] : memref<1xindex>
    gpu.return
  }
}
