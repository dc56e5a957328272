//===- Passes.td - hk conversion passes --------------------*- tablegen -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef HK_CONVERSION_PASSES_TD
#define HK_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertHKToAMDGPU : Pass<"convert-hk-to-amdgpu", "gpu::GPUModuleOp"> {
  let summary = "Lower hk tile ops to amdgpu, gpu, vector, memref, arith";
  let description = [{
    Rewrites the hk ops of a `gpu.module` for the module's chip (its
    `#rocdl.target`, or an `hk.chip` attribute):

    - `!hk.shared_tile` becomes a 1-D LDS memref
      (`#gpu.address_space<workgroup>`) holding all slots; `hk.alloc_shared`
      becomes a `memref.global` in the module (16-byte aligned) and a
      `memref.get_global`.
    - `!hk.fragment` becomes the per-lane vector the chip's lane layout gives
      (`vector<(F * E) x T>`, fragment after fragment).
    - `hk.copy_to_shared`: each thread loads 16-byte chunks of the global
      tile (`chunk = it * threads + tid`, thread-major) with one vector load
      and stores them at their swizzled/permuted LDS positions, split into
      the largest runs that stay contiguous under the tile layout (one
      16-byte store for `st_16x32`, two 8-byte stores with `block4_0213`).
    - `hk.load_fragment`: per fragment and lane, one vector LDS load per run
      of contiguous elements (one 16-byte `ds_read_b128` on both chips for
      the reference layouts).
    - `hk.mma`: one `amdgpu.mfma` (gfx950) or `amdgpu.wmma` (gfx1201) per
      accumulator fragment and K chunk, K chunks in ascending order.
    - `hk.fill_fragment`: `vector.broadcast`.
    - `hk.store_fragment`: `arith.truncf` (round to nearest even) and one
      scalar store per element, following the accumulator lane layout.

    Example, on gfx950:

    ```mlir
    %f = hk.load_fragment %t[%c0][%r, %c]
        : !hk.shared_tile<64x64xbf16, #hk.swizzle<st_16x32>>
        -> !hk.fragment<a, 16x32xbf16, mma = 16x16x32>
    ```

    becomes (index arithmetic elided)

    ```mlir
    %lane = gpu.lane_id
    ...
    %v = vector.load %lds[%off] {alignment = 16 : i64}
        : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
    ```

    Copies need the workgroup size: the enclosing `gpu.func` must have
    `known_block_size`. Input the lowering cannot handle (no chip, a tile
    that does not divide into the workgroup's 16-byte chunks) is an op error.
  }];
  let dependentDialects = [
    "::mlir::amdgpu::AMDGPUDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::ROCDL::ROCDLDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def HKLinalgToKernels : Pass<"hk-linalg-to-kernels", "::mlir::ModuleOp"> {
  let summary = "Replace linalg matmuls on memrefs with launches of hk kernels";
  let description = [{
    Host code in, host code out: each `linalg.matmul`,
    `linalg.batch_matmul`, `linalg.contract` and matmul `linalg.generic`
    (body C + A * B with casts to C's type) on memrefs whose element types,
    layout and surroundings an hk kernel serves is replaced by a
    `gpu.launch_func` of a
    GEMM built by the kernel library (include/HK/Kernels/Gemm.h) for
    `chip` (required), outlined into a `gpu.module` of the module (one per distinct
    kernel; the module becomes a `gpu.container_module`). The grid comes
    from the kernel's `hk.launch`, the block from its `known_block_size`.

    - Operands: A and B bf16, f8E4M3FN or f8E5M2 (the same), C bf16, f16 or
      f32, static or dynamic sizes, contiguous row-major by their type with
      offset 0 (batched: any batch and row strides, unit inner stride, offset
      0). A view whose offset or row stride is only known at run time is
      never cast to the kernel's type: it is left alone with a remark
      naming it.
    - Layouts: the default indexing maps and their forms with A and/or B
      transposed (`indexing_maps`), nn, nt, tn and tt.
    - Accumulation: linalg adds into C. When C was last written by a
      `linalg.fill` of zero in the same block, the kernel overwrites C;
      otherwise it takes the alpha/beta epilogue with beta = 1. Products
      accumulate in f32 and round once to C's type.
    - Epilogue: a `linalg.generic` right after the matmul that adds a
      broadcast f32 bias (one per column) to C in place becomes the
      kernel's bias; one that multiplies C by an f32 scalar becomes alpha
      (and beta).

    What it cannot serve it leaves alone, with a remark saying why (the
    kernel library's reason when a description is refused).

    With `schedule=fastest` (the default) each outlined `gpu.module`
    records the schedule the kernel library finds fastest for its kernel
    (`getFastestSchedule`, the one the main job measures fastest) in an
    `hk.schedule` attribute (`#hk.schedule`, the knobs of the pipelines'
    schedule options):

    ```mlir
    gpu.module @gemm_bf16_nt attributes {
        hk.schedule = #hk.schedule<stages = 2, direct-lds = true, schedule = ping-pong>} {
    ```

    `hk-to-rocdl-pipeline` and `hk-to-binary-pipeline` compile a module
    with the knobs its `hk.schedule` sets; a pipeline that sets one of
    them to another value is refused. `schedule=none` records nothing: the
    pipeline's options decide.
  }];
  let options = [
    Option<"chip", "chip", "::mlir::hk::Chip", "::mlir::hk::Chip::gfx950",
           "the chip the kernels are built for (required): gfx950 or "
           "gfx1201",
           "::mlir::hk::chipOptionValues()">,
    Option<"schedule", "schedule", "::mlir::hk::KernelScheduleChoice",
           "::mlir::hk::KernelScheduleChoice::fastest",
           "fastest: record each kernel's fastest schedule (hk.schedule) "
           "for the pipelines; none: leave it to the pipeline's options",
           "::mlir::hk::kernelScheduleChoiceValues()">,
  ];
  let dependentDialects = [
    "::mlir::hk::HKDialect",
    "::mlir::amdgpu::AMDGPUDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::ROCDL::ROCDLDialect",
    "::mlir::scf::SCFDialect",
  ];
}

#endif // HK_CONVERSION_PASSES_TD
