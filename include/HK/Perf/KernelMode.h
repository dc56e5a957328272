//===- KernelMode.h - hk-perf over a compiled hk kernel ---------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// hk-perf's kernel mode: from hk-compile's launch description to the loop
// body and the wave counts the model runs. The description names the code
// object and gives each kernel's block (the waves of a workgroup); the code
// object's metadata gives its registers and LDS, from which hk's occupancy
// estimate (HK/Target/Chip.h) gives the waves per SIMD; the ISA layer
// decodes the kernel, whose main loop is found by its branches (Loops.h).
//
// This is a library apart from HKPerf (library HKPerfKernel) because the
// launch description's reader (HKKernelAbi) and the occupancy estimate
// (HKTarget) name hk's enums, over MLIR's Support library (no MLIR IR), and
// HKPerf stays LLVM-only.
//
//===----------------------------------------------------------------------===//

#ifndef HK_PERF_KERNELMODE_H
#define HK_PERF_KERNELMODE_H

#include "HK/Isa/Isa.h"
#include "HK/Perf/Loops.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::hk::perf {

struct KernelModeConfig {
  /// The launch description (hk-compile --launch).
  std::string launchFile;
  /// The chip the caller expects, if it names one.
  std::optional<isa::Arch> chip;
  /// The kernel and the loop (StreamLoop::name); empty: the main loop of
  /// all the description's kernels.
  std::string kernel, loop;
  /// Overrides of what the block and the occupancy estimate give.
  std::optional<unsigned> workgroupWaves, wavesPerSimd;
};

/// What kernel mode found: the loop to time and how many waves run it.
struct KernelLoop {
  isa::Arch arch = isa::Arch::gfx950;
  std::string codeObjectFile, kernel;
  /// The kernel's loops and the one timed.
  std::vector<StreamLoop> loops;
  StreamLoop loop;
  isa::InstructionStream body;
  /// Registers (VGPR + AGPR) and LDS of the kernel, from its metadata.
  int64_t vgprs = 0, ldsBytes = 0;
  /// Waves per SIMD hk's occupancy estimate allows (registers, LDS,
  /// SGPRs), and the counts the model runs with.
  int64_t occupancy = 0;
  unsigned workgroupWaves = 0, wavesPerSimd = 0;
  /// Whether half the waves enter the loop one barrier ahead (the
  /// ping-pong's stagger, entersStaggered).
  bool staggered = false;
};

/// Reads the launch description, the code object it names and the kernel,
/// and picks the loop and the wave counts. Errors name the file and say
/// what is wrong (missing file, another chip, no such kernel, no loop, no
/// whole workgroups at the occupancy).
llvm::Expected<KernelLoop> loadKernelLoop(const KernelModeConfig &config);

/// The kernel, its loops and its waves, as text and as JSON (`kernel`).
void printKernelLoop(llvm::raw_ostream &os, const KernelLoop &loop);
llvm::json::Object kernelLoopToJson(const KernelLoop &loop);

} // namespace mlir::hk::perf

#endif // HK_PERF_KERNELMODE_H
