//===- Pipelines.cpp - hk compilation pipelines ---------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the hk pipelines: hk's own steps followed by the
// upstream conversions to ROCDL and the upstream code-object generation.
//
//===----------------------------------------------------------------------===//

#include "HK/Pipelines/Pipelines.h"

#include "LoopAnnotations.h"
#include "MathLowering.h"

#include "HK/Conversion/Passes.h"
#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Dialect/HK/Transforms/Passes.h"
#include "HK/Pipelines/BackendOptions.h"
#include "HK/Target/Chip.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/GPUToROCDL/GPUToROCDLPass.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::hk;

void mlir::hk::applyScheduleSettings(const ScheduleSettings &settings,
                                     HKPipelineOptions &options) {
  // A plain value does not say whether its default was asked for: only
  // knobs off their defaults are set, so a module's hk.schedule may differ.
  ScheduleSettings defaults;
#define HK_SCHEDULE_OPTION(TYPE, FIELD, NAME, FLAG, ...)                       \
  if (settings.FIELD != defaults.FIELD ||                                      \
      options.FIELD.getValue() != settings.FIELD)                              \
    options.FIELD = settings.FIELD;
#include "HK/Dialect/HK/Utils/ScheduleOptions.def"
}

void mlir::hk::ScheduleCLOptions::applyTo(HKPipelineOptions &options) const {
#define HK_SCHEDULE_OPTION(TYPE, FIELD, NAME, FLAG, ...)                       \
  if (FIELD.getNumOccurrences())                                               \
    options.FIELD = FIELD.getValue();
#include "HK/Dialect/HK/Utils/ScheduleOptions.def"
}

ScheduleSettings mlir::hk::ScheduleCLOptions::settings() const {
  ScheduleSettings settings;
#define HK_SCHEDULE_OPTION(TYPE, FIELD, NAME, FLAG, ...)                       \
  settings.FIELD = FIELD.getValue();
#include "HK/Dialect/HK/Utils/ScheduleOptions.def"
  return settings;
}

ScheduleKnobsGiven mlir::hk::ScheduleCLOptions::given() const {
  ScheduleKnobsGiven given;
#define HK_SCHEDULE_OPTION(TYPE, FIELD, NAME, FLAG, ...)                       \
  given.FIELD = FIELD.getNumOccurrences() != 0;
#include "HK/Dialect/HK/Utils/ScheduleOptions.def"
  return given;
}

/// The knobs `options` holds as values, and which of them were given.
static ScheduleSettings getScheduleSettings(const HKPipelineOptions &options,
                                            ScheduleKnobsGiven *given) {
  ScheduleSettings settings;
#define HK_SCHEDULE_OPTION(TYPE, FIELD, ...)                                   \
  settings.FIELD = options.FIELD.getValue();                                   \
  if (given)                                                                   \
    given->FIELD = options.FIELD.hasValue();
#include "HK/Dialect/HK/Utils/ScheduleOptions.def"
  return settings;
}

llvm::Error mlir::hk::checkPipelineOptions(const HKPipelineOptions &options,
                                           bool forModule) {
  auto invalid = [](const llvm::Twine &why) {
    return llvm::createStringError(why);
  };
  if (options.optLevel > 3)
    return invalid("the optimization level (O) must be 0 to 3, got " +
                   std::to_string(options.optLevel));
  ScheduleKnobsGiven given;
  ScheduleSettings settings = getScheduleSettings(options, &given);
  // A gpu.module's hk.schedule may ask for the schedule that uses it.
  if (!forModule && !options.schedule.hasValue())
    given.pingPongPriority = false;
  if (llvm::Error why = checkScheduleSettings(settings, given))
    return why;
  const ChipInfo &chip = getChipInfo(options.chip);
  if (options.schedule != Schedule::none && !chip.hasDirectToLds())
    return invalid("schedule=" + formatScheduleKnob(options.schedule) +
                   " counts direct-to-LDS loads in its waits, and " +
                   std::string(chip.name) + " has none (gfx950 has)");
  return llvm::Error::success();
}

/// The passes of schedule=none: the program's order, double-buffered,
/// with direct fills and priorities when asked.
static void addProgramOrderPasses(OpPassManager &gpu,
                                  const HKPipelineOptions &options) {
  if (options.stages != 1) {
    MultiBufferOptions multiBuffer;
    multiBuffer.stages = options.stages;
    multiBuffer.unroll = options.unroll;
    multiBuffer.deferRegisterFills = options.deferFillStores;
    gpu.addPass(createMultiBuffer(multiBuffer));
  }
  if (options.directLds)
    gpu.addPass(createDirectLdsFill());
  if (options.mmaPriority != 0) {
    RaiseMmaPriorityOptions priority;
    priority.priority = options.mmaPriority;
    gpu.addPass(createRaiseMmaPriority(priority));
  }
}

/// The schedule knobs' passes, on one gpu.module: fp8 format, workgroup
/// order, the K loops' schedule, the LDS proof.
static void addSchedulePasses(OpPassManager &gpu,
                              const HKPipelineOptions &options) {
  if (options.fp8Format != Fp8Format::source) {
    SetFp8FormatOptions fp8;
    fp8.format = options.fp8Format;
    gpu.addPass(createSetFp8Format(fp8));
  }
  if (options.workgroupOrder == WorkgroupOrder::xcd) {
    RemapWorkgroupsOptions remap;
    remap.xcds = getChipInfo(options.chip).xcds;
    gpu.addPass(createRemapWorkgroups(remap));
  }
  gpu.addPass(createLowerGridDims());
  gpu.addPass(createPeelPartialTiles());
  gpu.addPass(createSplitLoops());
  if (options.schedule == Schedule::none) {
    addProgramOrderPasses(gpu, options);
  } else {
    // Every schedule double-buffers its tiles itself and counts
    // direct-to-LDS loads in its waits (stages=2 direct-lds=true, which
    // checkPipelineOptions lets the options only agree with).
    DirectLdsFillOptions direct;
    direct.require = true;
    gpu.addPass(createDirectLdsFill(direct));
    if (options.schedule == Schedule::interleave) {
      gpu.addPass(createScheduleInterleave());
    } else {
      SchedulePingPongOptions pingPong;
      pingPong.priority = options.pingPongPriority;
      bool hipKittens = options.schedule == Schedule::pingPongHK;
      pingPong.fills =
          hipKittens ? FillInterval::memory : FillInterval::compute;
      pingPong.readAhead = !hipKittens;
      gpu.addPass(createSchedulePingPong(pingPong));
    }
  }
  if (options.verifyLds)
    gpu.addPass(createVerifyLds());
}

namespace {
/// Runs the schedule passes on a gpu.module with the pipeline's knobs, or
/// with the knobs its hk.schedule attribute names: the pipeline is built
/// before the IR is seen, so the choice is made here, per module, as a
/// dynamic pipeline.
class ScheduleKernelModule
    : public PassWrapper<ScheduleKernelModule,
                         OperationPass<gpu::GPUModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ScheduleKernelModule)

  explicit ScheduleKernelModule(const HKPipelineOptions &pipeline) {
    options.copyOptionValuesFrom(pipeline);
  }
  ScheduleKernelModule(const ScheduleKernelModule &other) : PassWrapper(other) {
    options.copyOptionValuesFrom(other.options);
  }

  StringRef getArgument() const final { return "hk-schedule-kernel-module"; }
  StringRef getDescription() const final {
    return "The schedule passes of hk's pipelines, with a gpu.module's "
           "hk.schedule knobs over the pipeline's";
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    // Every pass any schedule may run.
    for (Schedule schedule : {Schedule::none, Schedule::pingPong,
                              Schedule::pingPongHK, Schedule::interleave}) {
      HKPipelineOptions variant;
      variant.copyOptionValuesFrom(options);
      variant.schedule = schedule;
      variant.stages = 2;
      variant.directLds = true;
      variant.mmaPriority = 1;
      variant.fp8Format = Fp8Format::e4m3;
      variant.workgroupOrder = WorkgroupOrder::xcd;
      OpPassManager pm(gpu::GPUModuleOp::getOperationName());
      addSchedulePasses(pm, variant);
      pm.getDependentDialects(registry);
    }
  }

  void runOnOperation() override {
    HKPipelineOptions chosen;
    if (failed(chooseOptions(chosen)))
      return signalPassFailure();
    OpPassManager pm(gpu::GPUModuleOp::getOperationName());
    addSchedulePasses(pm, chosen);
    if (failed(runPipeline(pm, getOperation())))
      signalPassFailure();
  }

private:
  /// The pipeline's knobs with the module's hk.schedule over them. A knob
  /// the pipeline sets (Option::hasValue: given, even at its default) to
  /// another value than the module asks for (one off its default) is an
  /// error: one of the two would be ignored.
  LogicalResult chooseOptions(HKPipelineOptions &chosen) {
    chosen.copyOptionValuesFrom(options);
    gpu::GPUModuleOp module = getOperation();
    auto attr =
        module->getAttrOfType<ScheduleAttr>(HKDialect::getScheduleAttrName());
    if (!attr) {
      if (llvm::Error why = checkPipelineOptions(chosen, /*forModule=*/true))
        return module.emitError() << "gpu.module '" << module.getName()
                                  << "': " << llvm::toString(std::move(why));
      return success();
    }
    const ScheduleSettings &asked = attr.getSettings();
    ScheduleSettings defaults;
    std::string conflicts, given;
#define HK_SCHEDULE_OPTION(TYPE, FIELD, NAME, ...)                             \
  if (asked.FIELD != defaults.FIELD) {                                         \
    if (options.FIELD.hasValue() && options.FIELD.getValue() != asked.FIELD) { \
      conflicts += std::string(conflicts.empty() ? "" : ", ") + NAME;          \
      given += std::string(given.empty() ? "" : " ") + NAME + "=" +            \
               formatScheduleKnob(options.FIELD.getValue());                   \
    }                                                                          \
    chosen.FIELD = asked.FIELD;                                                \
  }
#include "HK/Dialect/HK/Utils/ScheduleOptions.def"
    if (!conflicts.empty())
      return module.emitError()
             << "gpu.module '" << module.getName() << "' asks for " << attr
             << " ('" << HKDialect::getScheduleAttrName()
             << "') and the pipeline for other values of " << conflicts << " ("
             << given << "): drop the attribute or those options";
    if (llvm::Error why = checkPipelineOptions(chosen, /*forModule=*/true))
      return module.emitError()
             << "gpu.module '" << module.getName() << "' asks for " << attr
             << " ('" << HKDialect::getScheduleAttrName()
             << "'), which the pipeline's other options make impossible: "
             << llvm::toString(std::move(why));
    return success();
  }

  HKPipelineOptions options;
};
} // namespace

void mlir::hk::buildHKToROCDLPipeline(OpPassManager &pm,
                                      const HKPipelineOptions &options) {
  StringRef chip = stringifyChip(options.chip);
  AttachTargetOptions attach;
  attach.chip = options.chip;
  attach.optLevel = options.optLevel;
  pm.addPass(createAttachTarget(attach));

  OpPassManager &gpu = pm.nest<gpu::GPUModuleOp>();
  gpu.addPass(std::make_unique<ScheduleKernelModule>(options));
  gpu.addPass(createConvertHKToAMDGPU());
  // Subviews (a batch's matrix) and reshapes become descriptor arithmetic.
  gpu.addPass(memref::createExpandStridedMetadataPass());
  gpu.addPass(createLowerAffinePass());
  gpu.addPass(createCanonicalizerPass());
  gpu.addPass(createCSEPass());
  // Index arithmetic whose range analysis fits 32 bits (lane and wave
  // coordinates, from known_block_size) is done in i32: in i64 LLVM keeps
  // such values in VGPR pairs, and values live across a kernel's loops
  // spilled the 8-wave d = 128 attention kernel (docs/Attention.md).
  arith::ArithIntRangeNarrowingOptions narrow;
  narrow.bitwidthsSupported = {32};
  gpu.addPass(arith::createArithIntRangeNarrowing(narrow));
  gpu.addPass(createRematerializeAfterLoops());
  if (getChipInfo(options.chip).exactLoopExits)
    gpu.addPass(createExactLoopExits());
  gpu.addPass(createSCFToControlFlowPass());
  gpu.addPass(createLowerKernelAbi());
  // Math without ROCm's device libraries, which hk does not link:
  // rsqrt expanded, anything still needing them refused at its op.
  gpu.addPass(createPrepareMathLowering());
  ConvertGpuOpsToROCDLOpsOptions rocdl;
  rocdl.chipset = chip.str();
  gpu.addPass(createConvertGpuOpsToROCDLOps(rocdl));
  gpu.addPass(createCheckDeviceLibraryCalls(chip.str()));
  gpu.addPass(createReconcileUnrealizedCastsPass());
  gpu.addPass(createApplyLoopAnnotations());
  if (options.tidyLlvm) {
    gpu.addPass(createCanonicalizerPass());
    gpu.addPass(createCSEPass());
  }
}

/// The serialization formats gpu.binary can hold, by hk's names.
static std::optional<gpu::CompilationTarget> parseFormat(StringRef format) {
  return llvm::StringSwitch<std::optional<gpu::CompilationTarget>>(format)
      .Case("bin", gpu::CompilationTarget::Binary)
      .Case("isa", gpu::CompilationTarget::Assembly)
      .Case("llvm", gpu::CompilationTarget::Offload)
      .Default(std::nullopt);
}

/// gpu-module-to-binary's work on `root`, each gpu.module compiled apart
/// with its hk.backend_options.
static LogicalResult compileModules(Operation *root,
                                    const gpu::TargetOptions &options) {
  return compileEachModuleApart(root, [&](ModuleOp alone) {
    return gpu::transformGpuModulesToBinaries(alone, nullptr, options);
  });
}

namespace {
/// The last step of hk-to-binary-pipeline: compileModules.
struct CompileModules : PassWrapper<CompileModules, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CompileModules)

  CompileModules(std::string toolkit, std::string format)
      : toolkit(std::move(toolkit)), format(std::move(format)) {}

  StringRef getArgument() const override { return "hk-compile-modules"; }
  StringRef getDescription() const override {
    return "gpu-module-to-binary, each gpu.module apart with its "
           "hk.backend_options";
  }

  void runOnOperation() override {
    std::optional<gpu::CompilationTarget> target = parseFormat(format);
    if (!target) {
      getOperation()->emitError() << "hk-to-binary-pipeline: unknown format '"
                                  << format << "' (bin, isa or llvm)";
      return signalPassFailure();
    }
    if (failed(compileModules(
            getOperation(), gpu::TargetOptions(toolkit, {}, "", "", *target))))
      signalPassFailure();
  }

  std::string toolkit;
  std::string format;
};
} // namespace

void mlir::hk::buildHKToBinaryPipeline(OpPassManager &pm,
                                       const HKPipelineOptions &options) {
  HKPipelineOptions toLlvm;
  toLlvm.copyOptionValuesFrom(options);
  toLlvm.tidyLlvm = false;
  buildHKToROCDLPipeline(pm, toLlvm);
  pm.addPass(std::make_unique<CompileModules>(options.toolkit.empty()
                                                  ? getDefaultToolkitPath()
                                                  : options.toolkit.getValue(),
                                              options.format.getValue()));
}

std::string mlir::hk::getDefaultToolkitPath() {
  SmallVector<std::string, 2> candidates;
  // <prefix>/bin/<tool> -> <prefix>/lib/hk/toolkit, in the build tree and
  // in an installation alike.
  std::string exe = llvm::sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&getDefaultToolkitPath));
  if (!exe.empty()) {
    SmallString<256> path(
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe)));
    llvm::sys::path::append(path, "lib", "hk", "toolkit");
    candidates.push_back(std::string(path));
  }
  candidates.push_back(HK_INSTALL_TOOLKIT_DIR);
  candidates.push_back(HK_BUILD_TOOLKIT_DIR);
  for (const std::string &dir : candidates) {
    SmallString<256> lld(dir);
    llvm::sys::path::append(lld, "llvm", "bin", "ld.lld");
    if (llvm::sys::fs::exists(lld))
      return dir;
  }
  return HK_BUILD_TOOLKIT_DIR;
}

FailureOr<std::string> mlir::hk::serializeGpuModule(ModuleOp module,
                                                    StringRef format) {
  std::optional<gpu::CompilationTarget> target =
      format == "llvm-text" ? gpu::CompilationTarget::Offload
                            : parseFormat(format);
  if (!target)
    return module.emitError() << "unknown serialization format '" << format
                              << "' (bin, isa, llvm or llvm-text)";
  if (format == "llvm-text") {
    FailureOr<std::string> bitcode = serializeGpuModule(module, "llvm");
    if (failed(bitcode))
      return failure();
    llvm::LLVMContext llvmContext;
    auto parsed = llvm::parseBitcodeFile(
        llvm::MemoryBufferRef(*bitcode, "llvm-ir"), llvmContext);
    if (!parsed)
      return module.emitError() << "cannot read back the LLVM IR: "
                                << llvm::toString(parsed.takeError());
    std::string text;
    llvm::raw_string_ostream os(text);
    (*parsed)->print(os, nullptr);
    return text;
  }
  OwningOpRef<ModuleOp> copy = module.clone();
  gpu::TargetOptions options(getDefaultToolkitPath(), {}, "", "", *target);
  if (failed(compileModules(*copy, options)))
    return failure();
  auto binaries = llvm::to_vector(copy->getOps<gpu::BinaryOp>());
  if (binaries.size() != 1)
    return module.emitError()
           << "expected one gpu.module to serialize, found " << binaries.size();
  return cast<gpu::ObjectAttr>(binaries.front().getObjects()[0])
      .getObject()
      .getValue()
      .str();
}

FailureOr<std::string>
mlir::hk::compileGpuModule(ModuleOp module, const HKPipelineOptions &options,
                           StringRef format) {
  PassManager pm(module.getContext());
  // As hk-compile and hk-to-binary-pipeline: LLVM's pipeline tidies the
  // code object's IR. Tidied here too, some modules (the fused attention
  // backward's) came out as other bytes than hk-compile's.
  HKPipelineOptions toLlvm;
  toLlvm.copyOptionValuesFrom(options);
  toLlvm.tidyLlvm = false;
  buildHKToROCDLPipeline(pm, toLlvm);
  if (failed(pm.run(module)))
    return failure();
  return serializeGpuModule(module, format);
}

/// Registers `name` with a builder that refuses a missing chip.
static void registerPipeline(StringRef name, StringRef description,
                             void (*build)(OpPassManager &,
                                           const HKPipelineOptions &)) {
  registerPassPipeline(
      name, description,
      [build, name](OpPassManager &pm, StringRef text,
                    function_ref<LogicalResult(const Twine &)> errorHandler) {
        HKPipelineOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        if (!options.chip.hasValue())
          return errorHandler(name + " needs a chip: " + name +
                              "='chip=gfx950' or 'chip=gfx1201'");
        if (llvm::Error why = checkPipelineOptions(options))
          return errorHandler(name + ": " + llvm::toString(std::move(why)));
        build(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> handler) {
        handler(HKPipelineOptions());
      });
}

void mlir::hk::registerHKPipelines() {
  registerPipeline("hk-to-rocdl-pipeline",
                   "Lower hk programs to LLVM/ROCDL for a chip",
                   buildHKToROCDLPipeline);
  registerPipeline("hk-to-binary-pipeline",
                   "Compile hk programs to AMDGPU code objects (gpu.binary)",
                   buildHKToBinaryPipeline);
}
