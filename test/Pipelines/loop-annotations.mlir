// An scf.for's llvm.loop_annotation reaches LLVM IR: hk-to-rocdl-pipeline
// gives the loop's back edge (llvm.br) the annotation that scf-to-cf leaves
// there as a discardable attribute, which translation would drop; the code
// object's LLVM IR carries !llvm.licm.disable. The MoE GEMMs' persistent
// loop takes it (docs/Kernels.md#moe-gemm).
// RUN: hk-opt %s --hk-to-rocdl-pipeline=chip=gfx950 | FileCheck %s
// RUN: hk-compile %s --chip=gfx950 -o %t.hsaco --llvm-ir=%t.ll
// RUN: FileCheck %s --check-prefix=LLVM < %t.ll

// CHECK-LABEL: llvm.func @annotated
// CHECK: llvm.br ^{{.*}} {loop_annotation = #{{.*}}}
// CHECK-NOT: llvm.loop_annotation
// LLVM: !{!"llvm.licm.disable"}
gpu.module @loops {
  gpu.func @annotated(%x: memref<?xf32>, %n: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %lane = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %v = memref.load %x[%lane] : memref<?xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %x[%lane] : memref<?xf32>
    } {llvm.loop_annotation = #llvm.loop_annotation<licm = #llvm.loop_licm<disable = true>>}
    gpu.return
  }
}
