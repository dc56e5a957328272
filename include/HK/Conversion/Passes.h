//===- Passes.h - hk conversion passes --------------------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef HK_CONVERSION_PASSES_H
#define HK_CONVERSION_PASSES_H

#include "HK/Dialect/HK/Utils/EnumOptions.h"
#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::hk {

/// What hk-linalg-to-kernels records on each gpu.module it outlines.
enum class KernelScheduleChoice {
  /// The schedule the kernel library finds fastest (hk.schedule).
  fastest,
  /// Nothing: the pipeline's options decide.
  none
};

inline auto kernelScheduleChoiceValues() {
  return llvm::cl::values(
      clEnumValN(KernelScheduleChoice::fastest, "fastest",
                 "record each kernel's fastest schedule (hk.schedule) for "
                 "the pipelines"),
      clEnumValN(KernelScheduleChoice::none, "none",
                 "leave it to the pipeline's options"));
}

#define GEN_PASS_DECL
#include "HK/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "HK/Conversion/Passes.h.inc"

} // namespace mlir::hk

#endif // HK_CONVERSION_PASSES_H
