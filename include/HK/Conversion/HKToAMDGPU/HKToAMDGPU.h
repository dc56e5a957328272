//===- HKToAMDGPU.h - lowering hk to amdgpu ---------------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Entry points of the hk -> amdgpu/gpu/vector/memref/arith conversion, for
// passes and for compilers embedding hk.
//
//===----------------------------------------------------------------------===//

#ifndef HK_CONVERSION_HKTOAMDGPU_HKTOAMDGPU_H
#define HK_CONVERSION_HKTOAMDGPU_HKTOAMDGPU_H

#include "HK/Target/Chip.h"

namespace mlir {
class ConversionTarget;
class Operation;
class RewritePatternSet;
class TypeConverter;
namespace hk {

/// Converts `!hk.fragment` to the per-lane vector of `chip` and
/// `!hk.shared_tile` to a 1-D LDS memref of all its slots.
void populateHKTypeConversions(TypeConverter &converter, const ChipInfo &chip);

/// The patterns lowering every hk op for `chip`. `converter` must hold the
/// conversions of populateHKTypeConversions for the same chip.
void populateHKToAMDGPUConversionPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns,
                                          const ChipInfo &chip);

/// The patterns lowering the schedule ops (hk.barrier, hk.cluster,
/// hk.stagger); part of populateHKToAMDGPUConversionPatterns.
void populateHKScheduleLoweringPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns);

/// After the conversion: in each cluster lowered from an `alternating`
/// hk.cluster, asks the backend to issue its MFMAs and memory instructions
/// in turn (one rocdl.sched.group.barrier per instruction, after the
/// cluster's opening fence and priority).
void emitAlternatingClusterGroups(Operation *root);

/// Marks hk illegal and every op whose types still mention hk types
/// (including scf and function ops, whose structural conversions the
/// patterns include) as needing conversion, and on a chip without a bf16
/// conversion instruction the f32 -> bf16 truncations known free of NaNs
/// (`arith.truncf ... fastmath<nnan>`), which the patterns round with
/// integer arithmetic.
void configureHKToAMDGPUTarget(ConversionTarget &target,
                               const TypeConverter &converter,
                               const ChipInfo &chip);

} // namespace hk
} // namespace mlir

#endif // HK_CONVERSION_HKTOAMDGPU_HKTOAMDGPU_H
