/*===- HK-c/Dialects.h - hk's dialect for the MLIR C API ----------*- C -*-===*\
|*                                                                            *|
|* Part of the hk project, under the Apache License v2.0 with LLVM            *|
|* Exceptions.                                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

/* The hk dialect's handle (mlirGetDialectHandle__hk__, as every upstream
 * dialect has one), and the registration of everything an hk program uses:
 * hk, the upstream dialects its kernels are written with and lowered
 * through, and their translations to LLVM IR. */

#ifndef HK_C_DIALECTS_H
#define HK_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(HK, hk);

/* Inserts into `registry` the dialects hk programs use (hk, gpu, amdgpu,
 * rocdl, llvm, arith, scf, memref, vector, func, ...) and the interfaces
 * that translate them to LLVM IR, as hk's tools register them. */
MLIR_CAPI_EXPORTED void hkRegisterAllDialects(MlirDialectRegistry registry);

#ifdef __cplusplus
}
#endif

#endif /* HK_C_DIALECTS_H */
