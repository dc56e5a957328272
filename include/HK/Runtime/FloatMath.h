//===- FloatMath.h - the models of the hardware's approximate functions ---===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// v_exp_f32, v_log_f32, v_rcp_f32, v_rsq_f32 and v_sqrt_f32 are accurate to
// about 1 ulp on the hardware (CDNA4 ISA and RDNA4 ISA, VOP1 opcode
// descriptions); hk models each as its exact value computed in double and
// rounded once to the result type by the caller. The LLVM-IR simulator
// (SimCrossLane.cpp, for the intrinsics) and the ISA executor (lib/Exec, for
// the instructions) both compute them here, so the two agree bit for bit.
//
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_FLOATMATH_H
#define HK_RUNTIME_FLOATMATH_H

#include <cmath>

namespace mlir::hk::sim {

/// 2^x (v_exp_f32, llvm.exp2, llvm.amdgcn.exp2).
inline double modelExp2(double x) { return std::exp2(x); }
/// log2 x (v_log_f32, llvm.log2, llvm.amdgcn.log).
inline double modelLog2(double x) { return std::log2(x); }
/// 1 / x (v_rcp_f32, llvm.amdgcn.rcp).
inline double modelRcp(double x) { return 1 / x; }
/// 1 / sqrt x (v_rsq_f32, llvm.amdgcn.rsq).
inline double modelRsq(double x) { return 1 / std::sqrt(x); }
/// sqrt x (v_sqrt_f32, llvm.sqrt, llvm.amdgcn.sqrt): correctly rounded, as
/// the backend's corrected sequence for llvm.sqrt is.
inline double modelSqrt(double x) { return std::sqrt(x); }

} // namespace mlir::hk::sim

#endif // HK_RUNTIME_FLOATMATH_H
