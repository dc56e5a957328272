//===- MathLowering.h - math without ROCm's device libraries ----*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The two steps around convert-gpu-to-rocdl that keep hk's kernels free of
// ROCm's device libraries (ocml, ockl), which hk does not link: what can be
// lowered without them is, and what still needs them is refused at its op.
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_PIPELINES_MATHLOWERING_H
#define HK_LIB_PIPELINES_MATHLOWERING_H

#include "mlir/Pass/Pass.h"

namespace mlir::hk {

/// Before convert-gpu-to-rocdl: `math.rsqrt` becomes 1 / `math.sqrt`
/// (upstream's expansion; the LLVM intrinsic and `fdiv` the AMDGPU backend
/// expands itself, where upstream would call `__ocml_rsqrt_*`), and every op
/// upstream may lower to a device-library call is tagged with its name.
std::unique_ptr<Pass> createPrepareMathLowering();

/// After convert-gpu-to-rocdl: a call of a device-library function is an
/// error at the op it came from, naming the op, the function and `chip`;
/// the tags of createPrepareMathLowering are removed.
std::unique_ptr<Pass> createCheckDeviceLibraryCalls(std::string chip);

} // namespace mlir::hk

#endif // HK_LIB_PIPELINES_MATHLOWERING_H
