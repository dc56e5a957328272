//===- Passes.td - hk transformation passes ----------------*- tablegen -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_TRANSFORMS_PASSES_TD
#define HK_DIALECT_HK_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerKernelAbi : Pass<"hk-lower-kernel-abi", "gpu::GPUModuleOp"> {
  let summary = "Give kernels a bare-pointer-plus-sizes argument list";
  let description = [{
    Rewrites the signature of every `gpu.func` kernel of the module so that
    a HIP program can launch it with `hipModuleLaunchKernel` and a plain
    argument struct: each memref argument becomes a global pointer
    (`!llvm.ptr<1>`) followed by one `i32` per dynamic dimension, in
    dimension order; other arguments are kept. Inside the kernel the memref
    is rebuilt as a row-major descriptor (offset 0, strides from the sizes),
    so the body is unchanged.

    Before:

    ```mlir
    gpu.func @k(%A: memref<?x?xbf16>, %n: index) kernel { ... }
    ```

    After (C view: `void k(bf16 *A, int A_rows, int A_cols, long n)`):

    ```mlir
    gpu.func @k(%A: !llvm.ptr<1>, %rows: i32, %cols: i32, %n: index) kernel {
      // llvm.insertvalue ... into the descriptor,
      // builtin.unrealized_conversion_cast to memref<?x?xbf16>
      ...
    }
    ```

    Run it right before `convert-gpu-to-rocdl`, with the same index bitwidth.
    Only row-major memrefs (identity layout) can be passed this way.
  }];
  let options = [
    Option<"indexBitwidth", "index-bitwidth", "unsigned", "64",
           "bitwidth of index in the memref descriptors (as given to "
           "convert-gpu-to-rocdl)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def AttachTarget : Pass<"hk-attach-target", "ModuleOp"> {
  let summary = "Give gpu.modules the #rocdl.target of a chip, or check theirs";
  let description = [{
    Every `gpu.module` without a `#rocdl.target` gets
    `#rocdl.target<chip = "<chip>", O = <opt-level>>`; one that already has
    ROCDL targets must name `<chip>` in all of them, otherwise the pass
    fails with the two chip names. This lets a pipeline take its chip as an
    option and still compile sources that declare their own target, without
    duplicate targets.
  }];
  let options = [
    Option<"chip", "chip", "std::string", "\"\"",
           "the chip to compile for: gfx950 or gfx1201">,
    Option<"optLevel", "O", "unsigned", "3",
           "LLVM optimization level of attached targets">,
  ];
  let dependentDialects = ["::mlir::ROCDL::ROCDLDialect"];
}

#endif // HK_DIALECT_HK_TRANSFORMS_PASSES_TD
