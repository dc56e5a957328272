// hk-lower-kernel-abi: memref arguments become a global pointer plus one i32
// per dynamic size and (strided layouts) per dynamic stride; the body sees
// the same memref, rebuilt.
// RUN: hk-opt %s --split-input-file --hk-lower-kernel-abi -verify-diagnostics | FileCheck %s

gpu.module @abi {
  // CHECK-LABEL: gpu.func @kernel
  // CHECK-SAME: (%[[A:.*]]: !llvm.ptr<1>, %[[M:.*]]: i32, %[[K:.*]]: i32, %[[S:.*]]: !llvm.ptr<1>, %[[N:.*]]: i32, %[[X:.*]]: index) kernel
  // CHECK-SAME: hk.launch = #hk.launch<grid = [arg4[0] / 64, arg1[0] / 32], divisible = [arg2[0] by 8]>
  gpu.func @kernel(%A: memref<?x?xbf16>, %S: memref<16x?xf32>, %x: index) kernel
      attributes {hk.launch = #hk.launch<grid = [arg1[1] / 64, arg0[0] / 32], divisible = [arg0[1] by 8]>} {
    // The descriptor of A: pointer (made flat for the default memory space),
    // offset 0, sizes M x K, strides K x 1.
    // CHECK: %[[DESC:.*]] = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    // CHECK: %[[FLAT:.*]] = llvm.addrspacecast %[[A]] : !llvm.ptr<1> to !llvm.ptr
    // CHECK: llvm.insertvalue %[[FLAT]], %[[DESC]][0]
    // CHECK: %[[M64:.*]] = llvm.zext %[[M]] : i32 to i64
    // CHECK: %[[K64:.*]] = llvm.zext %[[K]] : i32 to i64
    // CHECK: llvm.insertvalue %[[K64]], %{{.*}}[3, 1]
    // CHECK: %[[STRIDE:.*]] = llvm.mul %{{.*}}, %[[K64]] : i64
    // CHECK: llvm.insertvalue %[[M64]], %{{.*}}[3, 0]
    // CHECK: llvm.insertvalue %[[STRIDE]], %{{.*}}[4, 0]
    // CHECK: %[[AREF:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> to memref<?x?xbf16>
    // A static size is a constant.
    // CHECK: llvm.mlir.constant(16 : i64) : i64
    // CHECK: %[[SREF:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<16x?xf32>
    // CHECK: memref.dim %[[AREF]]
    // CHECK: memref.dim %[[SREF]]
    // CHECK: arith.addi %{{.*}}, %[[X]]
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %d0 = memref.dim %A, %c0 : memref<?x?xbf16>
    %d1 = memref.dim %S, %c1 : memref<16x?xf32>
    %sum = arith.addi %d0, %d1 : index
    %sum2 = arith.addi %sum, %x : index
    gpu.return
  }

  // Device functions keep their signature.
  // CHECK-LABEL: gpu.func @device
  // CHECK-SAME: (%{{.*}}: memref<?xf32>)
  gpu.func @device(%p: memref<?xf32>) {
    gpu.return
  }
}

// -----

gpu.module @strided {
  // A strided memref passes its dynamic sizes, then its dynamic strides; a
  // static stride is a constant.
  // CHECK-LABEL: gpu.func @kernel
  // CHECK-SAME: (%[[P:.*]]: !llvm.ptr<1>, %[[B:.*]]: i32, %[[R:.*]]: i32, %[[C:.*]]: i32, %[[BS:.*]]: i32, %[[RS:.*]]: i32) kernel
  // CHECK-DAG: %[[BS64:.*]] = llvm.zext %[[BS]] : i32 to i64
  // CHECK-DAG: %[[RS64:.*]] = llvm.zext %[[RS]] : i32 to i64
  // CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
  // CHECK-DAG: llvm.insertvalue %[[BS64]], %{{.*}}[4, 0]
  // CHECK-DAG: llvm.insertvalue %[[RS64]], %{{.*}}[4, 1]
  // CHECK-DAG: llvm.insertvalue %[[ONE]], %{{.*}}[4, 2]
  // CHECK: builtin.unrealized_conversion_cast %{{.*}} to memref<?x?x?xf32, strided<[?, ?, 1]>>
  gpu.func @kernel(%A: memref<?x?x?xf32, strided<[?, ?, 1]>>) kernel {
    gpu.return
  }
}

// -----

gpu.module @dynamic_offset {
  // expected-error @+1 {{'gpu.func' op argument #0 of type 'memref<?x?xf32, strided<[?, 1], offset: ?>>' is neither row-major nor strided with a static offset; hk-lower-kernel-abi passes a memref as a pointer, its dynamic sizes and its dynamic strides}}
  gpu.func @kernel(%A: memref<?x?xf32, strided<[?, 1], offset: ?>>) kernel {
    gpu.return
  }
}

// -----

gpu.module @static_grid {
  // expected-error @+1 {{'gpu.func' op 'hk.launch' refers to dimension 0 of argument #0, which is not a dynamic size the kernel receives}}
  gpu.func @kernel(%A: memref<256x?xf32>) kernel
      attributes {hk.launch = #hk.launch<grid = [arg0[0] / 256]>} {
    gpu.return
  }
}

// -----

// An integer argument's value is a grid term (a persistent kernel's
// workgroup count), renumbered with the argument.
// CHECK-LABEL: gpu.module @value_grid
gpu.module @value_grid {
  // CHECK: gpu.func @kernel(%{{.*}}: !llvm.ptr<1>, %{{.*}}: i32, %{{.*}}: i32)
  // CHECK-SAME: hk.launch = #hk.launch<grid = [arg2[0] / 1, arg1[0] ceildiv 64]>
  gpu.func @kernel(%A: memref<?xf32>, %workgroups: i32) kernel
      attributes {hk.launch = #hk.launch<grid = [arg1[0] / 1, arg0[0] ceildiv 64]>} {
    gpu.return
  }
}
