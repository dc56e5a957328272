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

#include "HK/Dialect/HK/Utils/Enums.h"

#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
class ModuleOp;
class OpPassManager;
namespace hk {

/// The values of every `chip` option of hk's pipelines and tools: one
/// spelling everywhere.
inline auto chipOptionValues() {
  return llvm::cl::values(
      clEnumValN(Chip::gfx950, "gfx950", "CDNA4, MI350/MI355X"),
      clEnumValN(Chip::gfx1201, "gfx1201", "RDNA4, RX 9070"));
}

/// The schedules of K loops a pipeline can apply.
enum class Schedule {
  /// The program's own order (with hk-multi-buffer for stages=2).
  none,
  /// HipKittens' 8-wave ping-pong (hk-schedule-ping-pong), each cluster's
  /// fill issued after its MMA and the next cluster's reads beside it.
  pingPong,
  /// The same with HipKittens' placement of reads and fills, between
  /// clusters.
  pingPongHK,
  /// One barrier per K tile, the first MMA's operands read a tile ahead
  /// (hk-schedule-interleave): for one wave per SIMD.
  interleave,
};

inline auto scheduleOptionValues() {
  return llvm::cl::values(
      clEnumValN(Schedule::none, "none",
                 "the program's order (double-buffered with stages=2)"),
      clEnumValN(Schedule::pingPong, "ping-pong",
                 "HipKittens' 8-wave ping-pong clusters with derived partial "
                 "waits, fills and the next cluster's reads issued beside the "
                 "MMAs (needs stages=2 and direct-lds: gfx950)"),
      clEnumValN(Schedule::pingPongHK, "ping-pong-hk",
                 "the same with reads and fills between clusters, as "
                 "HipKittens places them"),
      clEnumValN(Schedule::interleave, "interleave",
                 "one barrier per K tile, in its middle, fills two tiles "
                 "ahead and the first MMA's operands read a tile ahead "
                 "(hk-schedule-interleave; needs stages=2 and direct-lds: "
                 "gfx950)"));
}

/// The orders in which the workgroups of a kernel take the tiles of its
/// grid.
enum class WorkgroupOrder {
  /// Workgroup (x, y) computes tile row y, column x (the program's own).
  rowMajor,
  /// HipKittens' chiplet-chunked grouped order (hk-remap-workgroups).
  xcd,
};

inline auto workgroupOrderOptionValues() {
  return llvm::cl::values(
      clEnumValN(WorkgroupOrder::rowMajor, "row-major",
                 "workgroup (x, y) computes tile row y, column x"),
      clEnumValN(WorkgroupOrder::xcd, "xcd",
                 "HipKittens' order for L2 locality: ids chunked over the "
                 "chip's XCDs, then groups of 8 tile rows "
                 "(hk-remap-workgroups)"));
}

/// Options shared by the hk pipelines. `chip` is required.
struct HKPipelineOptions : public PassPipelineOptions<HKPipelineOptions> {
  PassOptions::Option<Chip> chip{
      *this, "chip", llvm::cl::desc("the chip to compile for (required)"),
      chipOptionValues()};
#define HK_SCHEDULE_OPTION(TYPE, FIELD, NAME, FLAG, DEFAULT, ...)              \
  PassOptions::Option<TYPE> FIELD{*this, NAME, llvm::cl::init(DEFAULT),        \
                                  __VA_ARGS__};
#include "HK/Pipelines/ScheduleOptions.def"
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

/// Fails with why `options` cannot be built into a pipeline (a schedule
/// without what it needs).
llvm::Error checkPipelineOptions(const HKPipelineOptions &options);

/// The schedule knobs of HKPipelineOptions as plain values, with the same
/// defaults, for a program that sets them without a command line.
struct ScheduleSettings {
#define HK_SCHEDULE_OPTION(TYPE, FIELD, NAME, FLAG, DEFAULT, ...)              \
  TYPE FIELD = DEFAULT;
#include "HK/Pipelines/ScheduleOptions.def"
  /// Copies the knobs into `options`; those at their defaults are left
  /// unset there (Option::hasValue) unless `options` holds another value.
  void applyTo(HKPipelineOptions &options) const;
  /// The knobs that differ from their defaults, in pipeline-option syntax,
  /// as a gpu.module's hk.schedule holds them ("stages=2 direct-lds=true
  /// schedule=ping-pong"); empty when none does.
  std::string str() const;
};

/// The schedule knobs of HKPipelineOptions as a tool's command-line options
/// (--stages, --unroll, --direct-lds, --mma-priority, --schedule,
/// --workgroup-order, --dtype, --verify-lds), declared with them in
/// ScheduleOptions.def, so that hk-opt, hk-compile and hk-run spell and
/// document them alike.
struct ScheduleCLOptions {
  explicit ScheduleCLOptions(llvm::cl::OptionCategory &category)
      : category(category) {}
  /// The knobs' values.
  ScheduleSettings settings() const;
  /// Copies the knobs given on the command line into `options`, where they
  /// count as set (Option::hasValue), defaults included.
  void applyTo(HKPipelineOptions &options) const;

  llvm::cl::OptionCategory &category;
#define HK_SCHEDULE_OPTION(TYPE, FIELD, NAME, FLAG, DEFAULT, ...)              \
  llvm::cl::opt<TYPE> FIELD{FLAG, llvm::cl::cat(category),                     \
                            llvm::cl::init(DEFAULT), __VA_ARGS__};
#include "HK/Pipelines/ScheduleOptions.def"
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
