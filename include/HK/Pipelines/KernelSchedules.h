//===- KernelSchedules.h - the schedules of hk's kernels --------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The pipeline knobs each kernel of the kernel library runs best with: the
// policy joining a kernel's description (HK/Kernels) to the pipelines'
// schedule knobs (Pipelines.h), above both, so that the kernel library
// builds programs without knowing the pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef HK_PIPELINES_KERNELSCHEDULES_H
#define HK_PIPELINES_KERNELSCHEDULES_H

#include "HK/Kernels/Gemm.h"
#include "HK/Pipelines/Pipelines.h"

namespace mlir::hk {

/// The fastest correct schedule of the kernel of `resolved` (the knobs of
/// hk's pipelines), as the main job measures them (docs/Kernels.md#schedules):
/// on gfx950, HipKittens' ping-pong for 8-wave kernels whose operands are
/// both K-contiguous (nt), the double-buffered loop with direct fills,
/// raised priority and unrolled by 2 for the other layouts (ping-pong
/// refuses their K-major operands' copies), double-buffered with direct
/// fills for MXFP8 and the other wave counts; on gfx1201, double-buffered
/// and unrolled by 2.
ScheduleSettings getFastestSchedule(const kernels::GemmDescription &resolved);

} // namespace mlir::hk

#endif // HK_PIPELINES_KERNELSCHEDULES_H
