//===- Passes.h - hk transformation passes ----------------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_TRANSFORMS_PASSES_H
#define HK_DIALECT_HK_TRANSFORMS_PASSES_H

#include "HK/Dialect/HK/Utils/EnumOptions.h"
#include "HK/Dialect/HK/Utils/PingPong.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::hk {

#define GEN_PASS_DECL
#include "HK/Dialect/HK/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "HK/Dialect/HK/Transforms/Passes.h.inc"

} // namespace mlir::hk

#endif // HK_DIALECT_HK_TRANSFORMS_PASSES_H
