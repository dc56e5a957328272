//===- KernelSchedules.cpp - the schedules of hk's kernels ----------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the choice of pipeline knobs for the kernels of the
// kernel library (docs/Kernels.md#schedules).
//
//===----------------------------------------------------------------------===//

#include "HK/Pipelines/KernelSchedules.h"

using namespace mlir;
using namespace mlir::hk;
using namespace mlir::hk::kernels;

ScheduleSettings
mlir::hk::getFastestSchedule(const kernels::GemmDescription &d) {
  ScheduleSettings s;
  s.stages = 2;
  if (d.chip == Chip::gfx1201) {
    // No direct-to-LDS loads: the fills' stores wait for the K tile's
    // barrier (hk-perf: the bf16 loop 4571 -> 3655 cycles a trip).
    s.unroll = 2;
    s.deferFillStores = true;
    return s;
  }
  s.directLds = true;
  if (d.blockScales || *d.waveRows * *d.waveCols != 8)
    return s;
  if (d.layout == GemmLayout::nt) {
    s.schedule = Schedule::pingPong;
    return s;
  }
  s.mmaPriority = 1;
  s.unroll = 2;
  return s;
}
