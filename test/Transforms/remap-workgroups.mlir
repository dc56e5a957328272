// hk-remap-workgroups: the uses of block ids x and y become the column and
// row of the XCD order, computed from the linear id and the grid size.
// RUN: hk-opt %s --split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(hk-remap-workgroups))' | FileCheck %s
// RUN: hk-opt %s --split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(hk-remap-workgroups{xcds=1 group=4}))' | FileCheck %s --check-prefix=ONE

gpu.module @m {
  // CHECK-LABEL: gpu.func @tile
  // ONE-LABEL: gpu.func @tile
  gpu.func @tile(%C: memref<?x?xf32>) kernel {
    // CHECK-DAG: %[[X:.*]] = gpu.block_id x
    // CHECK-DAG: %[[Y:.*]] = gpu.block_id y
    // CHECK-DAG: %[[GX:.*]] = gpu.grid_dim x
    // CHECK-DAG: %[[GY:.*]] = gpu.grid_dim y
    // Linear id and workgroup count.
    // CHECK: %[[YGX:.*]] = arith.muli %[[Y]], %[[GX]] : index
    // CHECK: %[[LIN:.*]] = arith.addi %[[YGX]], %[[X]] : index
    // CHECK: %[[COUNT:.*]] = arith.muli %[[GX]], %[[GY]] : index
    // CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
    // CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
    // CHECK-DAG: %[[C512:.*]] = arith.constant 512 : index
    // Chiplet chunking: (local / 64) * 512 + xcd * 64 + local % 64.
    // CHECK: %[[XCD:.*]] = arith.remui %[[LIN]], %[[C8]] : index
    // CHECK: %[[LOCAL:.*]] = arith.divui %[[LIN]], %[[C8]] : index
    // CHECK: %[[CIDX:.*]] = arith.divui %[[LOCAL]], %[[C64]] : index
    // CHECK: %[[BSTART:.*]] = arith.muli %[[CIDX]], %[[C512]] : index
    // CHECK: %[[XOFF:.*]] = arith.muli %[[XCD]], %[[C64]] : index
    // CHECK: %[[CSTART:.*]] = arith.addi %[[BSTART]], %[[XOFF]] : index
    // CHECK: %[[POS:.*]] = arith.remui %[[LOCAL]], %[[C64]] : index
    // CHECK: %[[CHUNKED:.*]] = arith.addi %[[CSTART]], %[[POS]] : index
    // Ids from the last full block on keep theirs.
    // CHECK: %[[NBLOCKS:.*]] = arith.divui %[[COUNT]], %[[C512]] : index
    // CHECK: %[[LIMIT:.*]] = arith.muli %[[NBLOCKS]], %[[C512]] : index
    // CHECK: %[[IN:.*]] = arith.cmpi ult, %[[LIN]], %[[LIMIT]] : index
    // CHECK: %[[ID:.*]] = arith.select %[[IN]], %[[CHUNKED]], %[[LIN]] : index
    // Grouped order over 8 rows.
    // CHECK: %[[PERGROUP:.*]] = arith.muli %[[GX]], %[[C8]] : index
    // CHECK: %[[GROUP:.*]] = arith.divui %[[ID]], %[[PERGROUP]] : index
    // CHECK: %[[FIRST:.*]] = arith.muli %[[GROUP]], %[[C8]] : index
    // CHECK: %[[LEFT:.*]] = arith.subi %[[GY]], %[[FIRST]] : index
    // CHECK: %[[SIZE:.*]] = arith.minui %[[LEFT]], %[[C8]] : index
    // CHECK: %[[K:.*]] = arith.remui %[[ID]], %[[PERGROUP]] : index
    // CHECK: %[[KROW:.*]] = arith.remui %[[K]], %[[SIZE]] : index
    // CHECK: %[[ROW:.*]] = arith.addi %[[FIRST]], %[[KROW]] : index
    // CHECK: %[[COL:.*]] = arith.divui %[[K]], %[[SIZE]] : index
    // The old block ids are gone; their uses read the row and column.
    // CHECK-NOT: gpu.block_id
    // CHECK: %[[R0:.*]] = arith.muli %[[ROW]], %{{.*}} : index
    // CHECK: %[[C0:.*]] = arith.muli %[[COL]], %{{.*}} : index
    // CHECK: memref.store %{{.*}}, %{{.*}}[%[[R0]], %[[C0]]]

    // One XCD: no chunking, groups of 4 rows over the linear id.
    // ONE-DAG: %[[X:.*]] = gpu.block_id x
    // ONE-DAG: %[[Y:.*]] = gpu.block_id y
    // ONE-DAG: %[[GX:.*]] = gpu.grid_dim x
    // ONE-DAG: %[[GY:.*]] = gpu.grid_dim y
    // ONE: %[[YGX:.*]] = arith.muli %[[Y]], %[[GX]] : index
    // ONE: %[[LIN:.*]] = arith.addi %[[YGX]], %[[X]] : index
    // ONE: %[[C4:.*]] = arith.constant 4 : index
    // ONE-NOT: arith.select
    // ONE: %[[PERGROUP:.*]] = arith.muli %[[GX]], %[[C4]] : index
    // ONE: %[[GROUP:.*]] = arith.divui %[[LIN]], %[[PERGROUP]] : index
    // ONE: %[[FIRST:.*]] = arith.muli %[[GROUP]], %[[C4]] : index
    // ONE: %[[LEFT:.*]] = arith.subi %[[GY]], %[[FIRST]] : index
    // ONE: %[[SIZE:.*]] = arith.minui %[[LEFT]], %[[C4]] : index
    // ONE: %[[K:.*]] = arith.remui %[[LIN]], %[[PERGROUP]] : index
    // ONE: %[[KROW:.*]] = arith.remui %[[K]], %[[SIZE]] : index
    // ONE: %[[ROW:.*]] = arith.addi %[[FIRST]], %[[KROW]] : index
    // ONE: %[[COL:.*]] = arith.divui %[[K]], %[[SIZE]] : index
    // ONE-NOT: gpu.block_id
    // ONE: %[[R0:.*]] = arith.muli %[[ROW]], %{{.*}} : index
    // ONE: %[[C0:.*]] = arith.muli %[[COL]], %{{.*}} : index
    // ONE: memref.store %{{.*}}, %{{.*}}[%[[R0]], %[[C0]]]
    %m0 = gpu.block_id y
    %n0 = gpu.block_id x
    %c256 = arith.constant 256 : index
    %row0 = arith.muli %m0, %c256 : index
    %col0 = arith.muli %n0, %c256 : index
    %f = arith.constant 1.0 : f32
    memref.store %f, %C[%row0, %col0] : memref<?x?xf32>
    gpu.return
  }
}

// -----

// Uses in nested regions read the values computed at the entry; a kernel
// reading only block id x is remapped over the whole grid all the same.
gpu.module @m {
  // CHECK-LABEL: gpu.func @nested
  gpu.func @nested(%C: memref<?xf32>, %n: index) kernel {
    // CHECK: arith.select
    // CHECK: %[[ROW:.*]] = arith.addi
    // CHECK-NEXT: %[[COL:.*]] = arith.divui
    // CHECK: scf.for
    // CHECK-NOT: gpu.block_id
    // CHECK: memref.store %{{.*}}, %{{.*}}[%[[COL]]]
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %f = arith.constant 1.0 : f32
    scf.for %i = %c0 to %n step %c1 {
      %x = gpu.block_id x
      memref.store %f, %C[%x] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// Block id z is left alone: each x-y slice is remapped on its own.
gpu.module @m {
  // CHECK-LABEL: gpu.func @batched
  // expected-remark @+1 {{hk-remap-workgroups: block id z is left as it is; each x-y slice of the grid is remapped on its own}}
  gpu.func @batched(%C: memref<?x?x?xf32>) kernel {
    // CHECK: arith.select
    // CHECK: %[[ROW:.*]] = arith.addi
    // CHECK-NEXT: %[[COL:.*]] = arith.divui
    // CHECK: %[[Z:.*]] = gpu.block_id z
    // CHECK: memref.store %{{.*}}, %{{.*}}[%[[Z]], %[[ROW]], %[[COL]]]
    %z = gpu.block_id z
    %y = gpu.block_id y
    %x = gpu.block_id x
    %f = arith.constant 1.0 : f32
    memref.store %f, %C[%z, %y, %x] : memref<?x?x?xf32>
    gpu.return
  }
}

// -----

// Kernels without block ids x and y, and functions reading only block id
// z, are unchanged.
gpu.module @m {
  // CHECK-LABEL: gpu.func @no_ids
  // CHECK-NOT: gpu.grid_dim
  // CHECK: gpu.return
  gpu.func @no_ids(%C: memref<?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    memref.store %f, %C[%c0] : memref<?xf32>
    gpu.return
  }
  // CHECK-LABEL: gpu.func @helper
  // CHECK-NEXT: gpu.block_id z
  // CHECK-NEXT: gpu.return
  gpu.func @helper() {
    %z = gpu.block_id z
    gpu.return
  }
}
