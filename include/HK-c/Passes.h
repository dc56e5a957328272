/*===- HK-c/Passes.h - hk's passes and pipelines for the C API ----*- C -*-===*\
|*                                                                            *|
|* Part of the hk project, under the Apache License v2.0 with LLVM            *|
|* Exceptions.                                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

/* hk's passes and pipelines, registered by name so that
 * mlirParsePassPipeline finds them ("hk-multi-buffer",
 * "hk-to-rocdl-pipeline{chip=gfx950}", ...), and one call that compiles an
 * hk module to a code object. */

#ifndef HK_C_PASSES_H
#define HK_C_PASSES_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Registers every hk pass and the pipelines hk-to-rocdl-pipeline and
 * hk-to-binary-pipeline (with the upstream passes they name) in the global
 * registry. Idempotent. */
MLIR_CAPI_EXPORTED void hkRegisterAllPasses(void);

/* Compiles the hk module `module` in place through hk-to-rocdl-pipeline
 * with `options`, written as the pipeline's options are on hk-opt's command
 * line ("chip=gfx950 stages=2 direct-lds=true"; chip is required: without
 * it the call fails), then serializes its one gpu.module as `format`: "bin" (a
 * code object), "isa" (assembly) or "llvm" (the LLVM bitcode handed to the
 * AMDGPU backend). The bytes go to `callback`, in one or more pieces, with
 * `userData`. On failure (bad options, a module the pipeline refuses) the
 * reasons are emitted as diagnostics on the module's context and nothing is
 * passed to `callback`. */
MLIR_CAPI_EXPORTED MlirLogicalResult
hkCompileModule(MlirModule module, MlirStringRef options, MlirStringRef format,
                MlirStringCallback callback, void *userData);

/* Receives one compiled gpu.module: its symbol name and its whole
 * serialized form. */
typedef void (*HkGpuModuleCallback)(MlirStringRef gpuModuleName,
                                    MlirStringRef bytes, void *userData);

/* Compiles each gpu.module of `module` (a host program with several
 * kernels, as hk-linalg-to-kernels writes it) apart, with the host code and
 * the other gpu.modules left out, exactly as `hk-compile --kernel=<name>`
 * compiles one: the same options and formats as hkCompileModule. `module`
 * is not changed. When every gpu.module compiles, `callback` is called once
 * per gpu.module, in order; otherwise the reasons are emitted as
 * diagnostics and `callback` is not called. */
MLIR_CAPI_EXPORTED MlirLogicalResult hkCompileGpuModules(
    MlirModule module, MlirStringRef options, MlirStringRef format,
    HkGpuModuleCallback callback, void *userData);

#ifdef __cplusplus
}
#endif

#endif /* HK_C_PASSES_H */
