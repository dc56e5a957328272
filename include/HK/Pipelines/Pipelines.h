//===- Pipelines.h - hk compilation pipelines -------------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The pipelines from hk source to ROCDL/LLVM and to code objects, with their
// typed options, as registered in hk-opt:
//
//   hk-opt --hk-to-rocdl-pipeline='chip=gfx950' in.mlir
//   hk-opt --hk-to-binary-pipeline='chip=gfx1201' in.mlir
//
//===----------------------------------------------------------------------===//

#ifndef HK_PIPELINES_PIPELINES_H
#define HK_PIPELINES_PIPELINES_H

#include "HK/Dialect/HK/Utils/EnumOptions.h"
#include "HK/Dialect/HK/Utils/Enums.h"
#include "HK/Dialect/HK/Utils/ScheduleSettings.h"

#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
class ModuleOp;
class OpPassManager;
namespace hk {

/// Options shared by the hk pipelines. `chip` is required.
struct HKPipelineOptions : public PassPipelineOptions<HKPipelineOptions> {
  PassOptions::Option<Chip> chip{
      *this, "chip", llvm::cl::desc("the chip to compile for (required)"),
      chipOptionValues()};
#define HK_SCHEDULE_OPTION(TYPE, FIELD, NAME, FLAG, DEFAULT, ...)              \
  PassOptions::Option<TYPE> FIELD{*this, NAME, llvm::cl::init(DEFAULT),        \
                                  __VA_ARGS__};
#include "HK/Dialect/HK/Utils/ScheduleOptions.def"
  PassOptions::Option<bool> tidyLlvm{
      *this, "tidy-llvm",
      llvm::cl::desc("canonicalize and CSE the LLVM dialect at the end, for "
                     "reading it; code objects are the same without (LLVM's "
                     "own pipeline does that work), so hk-compile and "
                     "hk-to-binary-pipeline skip it"),
      llvm::cl::init(true)};
  PassOptions::Option<unsigned> optLevel{
      *this, "O", llvm::cl::desc("LLVM optimization level of the backend"),
      llvm::cl::init(3)};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("what gpu.binary holds: bin (code object), isa "
                     "(assembly), llvm (bitcode)"),
      llvm::cl::init("bin")};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("directory with llvm/bin/ld.lld for linking code objects "
                     "(default: hk's link to LLVM's own ld.lld)"),
      llvm::cl::init("")};
};

/// Fails with why `options` cannot be built into a pipeline (a knob its
/// schedule contradicts or does not use, a schedule the chip cannot run).
/// Before the IR is seen, a knob only a schedule uses may be given without
/// one (a gpu.module's hk.schedule may ask for it); `forModule` checks the
/// options a gpu.module is compiled with in full.
llvm::Error checkPipelineOptions(const HKPipelineOptions &options,
                                 bool forModule = false);

/// Copies `settings` (#hk.schedule's knobs, a program's) into `options`;
/// those at their defaults are left unset there (Option::hasValue) unless
/// `options` holds another value.
void applyScheduleSettings(const ScheduleSettings &settings,
                           HKPipelineOptions &options);

/// The schedule knobs of HKPipelineOptions as a tool's command-line options
/// (--stages, --unroll, --direct-lds, --mma-priority, --ping-pong-priority,
/// --schedule, --workgroup-order, --dtype, --verify-lds), declared with them in
/// ScheduleOptions.def, so that hk-opt, hk-compile and hk-run spell and
/// document them alike.
struct ScheduleCLOptions {
  explicit ScheduleCLOptions(llvm::cl::OptionCategory &category)
      : category(category) {}
  /// The knobs' values.
  ScheduleSettings settings() const;
  /// Which knobs the command line gave, defaults included.
  ScheduleKnobsGiven given() const;
  /// Copies the knobs given on the command line into `options`, where they
  /// count as set (Option::hasValue), defaults included.
  void applyTo(HKPipelineOptions &options) const;

  llvm::cl::OptionCategory &category;
#define HK_SCHEDULE_OPTION(TYPE, FIELD, NAME, FLAG, DEFAULT, ...)              \
  llvm::cl::opt<TYPE> FIELD{FLAG, llvm::cl::cat(category),                     \
                            llvm::cl::init(DEFAULT), __VA_ARGS__};
#include "HK/Dialect/HK/Utils/ScheduleOptions.def"
};

/// hk source -> LLVM dialect with ROCDL intrinsics: hk-attach-target, then
/// inside each gpu.module hk-set-fp8-format (fp8-format), hk-remap-workgroups
/// (workgroup-order=xcd, over the chip's XCDs), hk-lower-grid-dims,
/// hk-peel-partial-tiles, hk-split-loops, then hk-multi-buffer (stages),
/// hk-direct-lds-fill (direct-lds) and hk-raise-mma-priority (mma-priority)
/// or, with a schedule, hk-direct-lds-fill and hk-schedule-ping-pong or
/// hk-schedule-interleave; hk-verify-lds (unless verify-lds=false),
/// convert-hk-to-amdgpu, canonicalize/cse, hk-rematerialize-after-loops,
/// hk-exact-loop-exits (chips that want it), convert-scf-to-cf,
/// hk-lower-kernel-abi, convert-gpu-to-rocdl, reconcile-unrealized-casts,
/// canonicalize/cse. test/Docs/pass-lists.test checks that this list and
/// README.md's name every pass the pipeline can run.
void buildHKToROCDLPipeline(OpPassManager &pm,
                            const HKPipelineOptions &options);

/// buildHKToROCDLPipeline, then gpu-module-to-binary: each gpu.module becomes
/// a gpu.binary holding the code object (or assembly/bitcode, see `format`).
void buildHKToBinaryPipeline(OpPassManager &pm,
                             const HKPipelineOptions &options);

/// The directory holding `llvm/bin/ld.lld` that gpu-module-to-binary uses
/// when `toolkit` is empty: next to the running hk tool (installed or in the
/// build tree), else where the build put it.
std::string getDefaultToolkitPath();

/// Serializes the (single) gpu.module of `module`, already lowered by
/// buildHKToROCDLPipeline, to `format`: "bin" (code object), "isa"
/// (assembly), "llvm" (the LLVM bitcode handed to the AMDGPU backend) or
/// "llvm-text" (the same as text, what the simulator runs).
/// `module` is left unchanged.
FailureOr<std::string> serializeGpuModule(ModuleOp module, StringRef format);

/// Lowers `module` in place through hk-to-rocdl-pipeline with `options`,
/// then serializes its gpu.module as serializeGpuModule does. The reasons
/// of a failure are emitted as diagnostics on the module's context.
FailureOr<std::string> compileGpuModule(ModuleOp module,
                                        const HKPipelineOptions &options,
                                        StringRef format);

/// Registers hk-to-rocdl-pipeline and hk-to-binary-pipeline.
void registerHKPipelines();

} // namespace hk
} // namespace mlir

#endif // HK_PIPELINES_PIPELINES_H
