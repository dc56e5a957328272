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

#endif // HK_CONVERSION_PASSES_TD
