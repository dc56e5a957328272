//===- Launch.cpp - compile and launch kernels ----------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HK/Harness/Launch.h"

#include "HK/Dialect/HK/Analysis/KernelLaunch.h"
#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/InitAllDialects.h"
#include "HK/Pipelines/Pipelines.h"
#include "HK/Runtime/Hip.h"
#include "HK/Runtime/Simulator.h"
#include "HK/Tools/InputLimits.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <chrono>
#include <cstring>

using namespace mlir;
using namespace mlir::hk;

namespace mlir::hk::run {

int64_t RowMajorArguments::elements(unsigned arg) const {
  int64_t n = 1;
  for (int64_t s : shape(arg))
    n *= s;
  return n;
}

std::optional<int64_t> RowMajorArguments::extent(unsigned arg,
                                                 int64_t dim) const {
  std::vector<int64_t> sizes = shape(arg);
  if (dim < 0 || dim >= int64_t(sizes.size()))
    return std::nullopt;
  return sizes[dim];
}

std::optional<int64_t> RowMajorArguments::stride(unsigned arg,
                                                 int64_t dim) const {
  std::vector<int64_t> sizes = shape(arg);
  if (dim < 0 || dim >= int64_t(sizes.size()))
    return std::nullopt;
  int64_t stride = 1;
  for (int64_t d = sizes.size() - 1; d > dim; --d)
    stride *= sizes[d];
  return stride;
}

/// Checks the problem's argument sizes against the kernel's launch terms
/// and computes the grid.
static llvm::Error applyLaunchTerms(StringRef kernel, ArrayRef<SizeTerm> grid,
                                    ArrayRef<SizeTerm> divisible,
                                    const KernelArguments &problem,
                                    std::array<int64_t, 3> &out) {
  for (ArrayRef<SizeTerm> terms : {grid, divisible})
    for (const SizeTerm &t : terms) {
      std::optional<int64_t> size =
          t.arg < 0 ? std::nullopt : problem.extent(t.arg, t.dim);
      if (!size || t.factor < 1)
        return badInput(
            llvm::formatv("'{0}' has a launch term arg{1}[{2}] that "
                          "is not a size of its arguments",
                          kernel, t.arg, t.dim));
      if (!t.accepts(*size))
        return badInput(llvm::formatv(
            "size {0} (dimension {1} of argument #{2}) is not a multiple of "
            "{3}, which '{4}' requires",
            *size, t.dim, t.arg, t.factor, kernel));
    }
  if (grid.size() > 3)
    return badInput("'" + kernel + "' has more than 3 grid terms");
  out = {1, 1, 1};
  for (auto [i, t] : llvm::enumerate(grid))
    out[i] = t.divide(*problem.extent(t.arg, t.dim));
  return llvm::Error::success();
}

llvm::Error checkStaticExtents(StringRef kernel, ArrayRef<Type> types,
                               const KernelArguments &arguments) {
  for (auto [i, type] : llvm::enumerate(types)) {
    auto memref = dyn_cast<MemRefType>(type);
    for (int64_t d = 0; memref && d < memref.getRank(); ++d) {
      int64_t fixed = memref.getDimSize(d);
      std::optional<int64_t> size = arguments.extent(i, d);
      if (!ShapedType::isDynamic(fixed) && size && fixed != *size)
        return badInput(llvm::formatv("argument #{0} of '{1}' has {2} in "
                                      "dimension {3}, the sizes give {4}",
                                      i, kernel, fixed, d, *size));
    }
  }
  return llvm::Error::success();
}

/// The kernel's argument values for the problem: buffers by index, sizes,
/// strides and scalars as bits.
static llvm::Error buildAbi(StringRef kernel, ArrayRef<KernelAbiEntry> entries,
                            const KernelArguments &problem,
                            std::vector<AbiArgument> &abi) {
  using Kind = KernelAbiEntry::Kind;
  for (const KernelAbiEntry &e : entries) {
    std::optional<int64_t> value;
    switch (e.kind) {
    case Kind::pointer:
      if (!problem.isBuffer(e.arg))
        break;
      abi.push_back({static_cast<int>(e.arg), 0});
      continue;
    case Kind::size:
      value = problem.extent(e.arg, e.dim);
      break;
    case Kind::stride:
      value = problem.stride(e.arg, e.dim);
      break;
    case Kind::value:
      if (std::optional<uint64_t> bits = problem.scalarBits(e.arg))
        value = *bits;
      break;
    }
    if (!value)
      return badInput(llvm::formatv("'{0}' takes an argument (#{1}) the "
                                    "workload does not know",
                                    kernel, e.arg));
    abi.push_back({-1, static_cast<uint64_t>(*value)});
  }
  return llvm::Error::success();
}

/// Whether kernel `kernel` is the one `config` selects: the one named
/// RunConfig::kernelName, or without a name any but the companions.
static bool isSelected(const RunConfig &config, StringRef kernel) {
  return config.kernelName.empty()
             ? !llvm::is_contained(config.companionKernels, kernel)
             : kernel == config.kernelName;
}

/// " besides <companions>" when `config` has companion kernels, for the
/// messages that count a source's kernels.
static std::string besidesCompanions(const RunConfig &config) {
  if (config.companionKernels.empty())
    return "";
  return " besides " + llvm::join(config.companionKernels, ", ");
}

/// The kernel of `module` RunConfig::kernelName names, or its only kernel
/// (besides the companions) when it names none.
static llvm::Expected<gpu::GPUFuncOp>
selectKernel(ModuleOp module, StringRef path, const RunConfig &config) {
  SmallVector<gpu::GPUFuncOp> kernels;
  module.walk([&](gpu::GPUFuncOp f) {
    if (f.isKernel() && isSelected(config, f.getName()))
      kernels.push_back(f);
  });
  if (kernels.size() == 1)
    return kernels.front();
  if (config.kernelName.empty())
    return badInput(llvm::formatv("'{0}' must hold exactly one kernel{1}, "
                                  "found {2}; choose one with --kernel",
                                  path, besidesCompanions(config),
                                  kernels.size()));
  return badInput(llvm::formatv("'{0}' has no kernel named '{1}' (its "
                                "kernels: {2})",
                                path, config.kernelName,
                                listKernelNames(module)));
}

llvm::Error ParsedKernel::diagnosedError() const {
  // Without a capture the diagnostics went to RunConfig::diagnostics.
  return llvm::make_error<RunError>(RunError::Kind::badInput,
                                    captured ? *captured : std::string(),
                                    /*reported=*/!captured);
}

/// Parses the hk source `path` into `parsed` (no kernel selected), its
/// diagnostics going where `config` says.
static llvm::Error parseSource(MLIRContext &context, const RunConfig &config,
                               StringRef path, ParsedKernel &parsed) {
  parsed.sourceMgr = std::make_unique<llvm::SourceMgr>();
  if (!config.diagnostics) {
    parsed.captured = std::make_unique<std::string>();
    parsed.capturedStream =
        std::make_unique<llvm::raw_string_ostream>(*parsed.captured);
  }
  llvm::raw_ostream &os =
      config.diagnostics ? *config.diagnostics : *parsed.capturedStream;
  parsed.diagnostics = std::make_unique<SourceMgrDiagnosticHandler>(
      *parsed.sourceMgr, &context, os);
  parsed.module = parseCheckedSourceFile(path, *parsed.sourceMgr, &context, os);
  if (!parsed.module)
    return parsed.diagnosedError();
  return llvm::Error::success();
}

llvm::Expected<std::vector<std::string>>
listKernels(MLIRContext &context, const RunConfig &config, StringRef path) {
  std::vector<std::string> names;
  if (path.ends_with(".json")) {
    auto text = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
    if (!text)
      return badInput("cannot read '" + path +
                      "': " + text.getError().message());
    llvm::Expected<LaunchDescription> parsed =
        parseLaunchDescription((*text)->getBuffer());
    if (!parsed)
      return badInput("'" + path + "' is not a launch description: " +
                      llvm::toString(parsed.takeError()));
    for (const LaunchDescription::Kernel &k : parsed->kernels)
      names.push_back(k.name);
    return std::move(names);
  }
  ParsedKernel parsed;
  if (llvm::Error e = parseSource(context, config, path, parsed))
    return std::move(e);
  parsed.module->walk([&](gpu::GPUFuncOp f) {
    if (f.isKernel())
      names.push_back(f.getName().str());
  });
  return std::move(names);
}

llvm::Expected<ParsedKernel>
parseKernel(MLIRContext &context, const RunConfig &config, StringRef path) {
  ParsedKernel parsed;
  if (llvm::Error e = parseSource(context, config, path, parsed))
    return std::move(e);
  llvm::Expected<gpu::GPUFuncOp> kernel =
      selectKernel(*parsed.module, path, config);
  if (!kernel)
    return kernel.takeError();
  parsed.kernel = *kernel;
  // A host program (hk-linalg-to-kernels' output) holds more than the
  // kernel, a module may hold several kernels: only the kernel (and what it
  // calls) is compiled and run.
  eraseOtherKernels(*kernel);
  eraseAllButGpuModule((*kernel)->getParentOfType<gpu::GPUModuleOp>());
  return std::move(parsed);
}

llvm::Error compileModule(MLIRContext &context, const RunConfig &config,
                          ParsedKernel &parsed, PreparedKernel &run,
                          Version version) {
  auto compileStart = std::chrono::steady_clock::now();
  HKPipelineOptions options;
  options.chip = config.chip;
  ModuleOp module = *parsed.module;
  if (version == Version::compared && config.compareStages) {
    // The program compiled as asked, not with the schedule its gpu.module
    // records (hk-linalg-to-kernels' hk.schedule). The fp8 format is kept:
    // it changes what is computed, not how.
    options.stages = *config.compareStages;
    options.fp8Format = config.schedule.fp8Format;
    module.walk([](gpu::GPUModuleOp m) {
      m->removeAttr(HKDialect::getScheduleAttrName());
    });
  } else {
    applyScheduleSettings(config.schedule, options);
  }
  options.tidyLlvm = false; // LLVM's pipeline does it for the code object
  std::string knobs = version == Version::compared && config.compareStages
                          ? "stages=" + std::to_string(*config.compareStages)
                          : config.schedule.str();
  std::string recorded;
  module.walk([&](gpu::GPUModuleOp m) {
    if (auto attr =
            m->getAttrOfType<ScheduleAttr>(HKDialect::getScheduleAttrName()))
      recorded = attr.getSettings().str();
  });
  run.variant = recorded.empty() ? (knobs.empty() ? "synchronous" : knobs)
                : knobs.empty()  ? "the module's hk.schedule '" + recorded + "'"
                                 : knobs + " over the module's hk.schedule '" +
                                      recorded + "'";
  if (llvm::Error invalid = checkPipelineOptions(options))
    return badInput(llvm::toString(std::move(invalid)));
  FailureOr<std::string> compiled = compileGpuModule(
      module, options, config.backend == Backend::sim ? "llvm" : "bin");
  if (failed(compiled))
    return parsed.diagnosedError();
  run.image = std::move(*compiled);
  run.compileSeconds = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - compileStart)
                           .count();
  return llvm::Error::success();
}

llvm::Expected<PreparedKernel>
prepareFromSource(MLIRContext &context, const RunConfig &config, StringRef path,
                  ProblemReader readProblem, Version version,
                  SourceReader readSource) {
  llvm::Expected<ParsedKernel> parsed = parseKernel(context, config, path);
  if (!parsed)
    return parsed.takeError();
  gpu::GPUFuncOp kernel = parsed->kernel;
  if (readSource)
    readSource(kernel);
  PreparedKernel run;
  run.name = kernel.getName().str();
  auto argTypes = llvm::to_vector(kernel.getArgumentTypes());
  const KernelArguments *problem = nullptr;
  if (llvm::Error e = readProblem(run.name, argTypes, problem))
    return std::move(e);
  if (llvm::Error e = checkStaticExtents(run.name, argTypes, *problem))
    return std::move(e);
  auto block = kernel.getKnownBlockSizeAttr();
  auto launch =
      kernel->getAttrOfType<LaunchAttr>(HKDialect::getLaunchAttrName());
  if (!block || !launch)
    return badInput("'" + run.name +
                    "' needs known_block_size and hk.launch to be launched");
  if (llvm::Error e =
          applyLaunchTerms(run.name, launch.getGrid(), launch.getDivisible(),
                           *problem, run.grid))
    return std::move(e);
  run.block = {block[0], block[1], block[2]};

  // Compile to the LLVM IR the backend would get (sim), or the code object.
  if (llvm::Error e = compileModule(context, config, *parsed, run, version))
    return std::move(e);
  if (llvm::Error e =
          buildAbi(run.name, getKernelAbi(argTypes), *problem, run.abi))
    return std::move(e);
  return std::move(run);
}

/// Reads a kernel compiled by `hk-compile --launch=<path>` (with
/// `--llvm-ir` for sim): the launch description, and the code object or the
/// LLVM IR it names (relative to the description's directory).
llvm::Expected<PreparedKernel>
prepareFromLaunch(MLIRContext &context, const RunConfig &config, StringRef path,
                  ProblemReader readProblem,
                  DescriptionReader readDescription) {
  PreparedKernel run;
  const Backend backend = config.backend;
  StringRef kernelName = config.kernelName;
  auto text = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!text)
    return badInput("cannot read '" + path + "': " + text.getError().message());
  llvm::Expected<LaunchDescription> parsed =
      parseLaunchDescription((*text)->getBuffer());
  auto bad = [&](const llvm::Twine &what) {
    return badInput("'" + path + "' is not a launch description: " + what);
  };
  if (!parsed)
    return bad(llvm::toString(parsed.takeError()));
  const LaunchDescription &description = *parsed;
  if (description.chip != config.chip)
    return badInput(llvm::formatv("'{0}' was compiled for {1}, not {2}", path,
                                  stringifyChip(description.chip),
                                  stringifyChip(config.chip)));
  StringRef fileKey = backend == Backend::sim ? "llvm_ir" : "code_object";
  const std::optional<std::string> &file =
      backend == Backend::sim ? description.llvmIr : description.codeObject;
  if (!file)
    return bad("no '" + fileKey + "'" +
               (backend == Backend::sim
                    ? " (compile with hk-compile --llvm-ir for sim)"
                    : ""));
  llvm::SmallString<256> imagePath(llvm::sys::path::parent_path(path));
  llvm::sys::path::append(imagePath, *file);
  auto image = llvm::MemoryBuffer::getFile(imagePath, /*IsText=*/false);
  if (!image)
    return badInput("cannot read '" + imagePath +
                    "': " + image.getError().message());
  run.image = (*image)->getBuffer().str();
  run.imageIsBitcode = false; // sim reads the LLVM IR as text

  const LaunchDescription::Kernel *kernel = nullptr;
  std::string names;
  size_t selected = 0;
  for (const LaunchDescription::Kernel &k : description.kernels) {
    names += (names.empty() ? "" : ", ") + k.name;
    if (isSelected(config, k.name)) {
      kernel = &k;
      ++selected;
    }
  }
  if (kernelName.empty() && selected != 1)
    return badInput(llvm::formatv("'{0}' describes {1} kernels{2}; choose "
                                  "one with --kernel",
                                  path, selected, besidesCompanions(config)));
  if (!kernel)
    return badInput(llvm::formatv("'{0}' has no kernel named '{1}' (its "
                                  "kernels: {2})",
                                  path, kernelName, names));
  if (readDescription)
    readDescription(*kernel);
  run.name = kernel->name;
  run.block = *kernel->block;
  SmallVector<Type> argTypes;
  for (const std::string &text : kernel->argTypes) {
    Type type = parseType(text, &context);
    if (!type)
      return bad("'" + run.name +
                 "' has an argument type that does not "
                 "parse: " +
                 text);
    argTypes.push_back(type);
  }
  if (argTypes.empty())
    return bad("no argument types for '" + run.name +
               "' (compile it again with this hk-compile)");
  const KernelArguments *problem = nullptr;
  if (llvm::Error e = readProblem(run.name, argTypes, problem))
    return std::move(e);
  if (llvm::Error e = checkStaticExtents(run.name, argTypes, *problem))
    return std::move(e);
  // Without grid terms (no hk.launch) the grid is the caller's to set.
  if (kernel->launch)
    if (llvm::Error e =
            applyLaunchTerms(run.name, kernel->launch->grid,
                             kernel->launch->divisible, *problem, run.grid))
      return std::move(e);

  // The argument list, as the description spells it out.
  SmallVector<KernelAbiEntry> entries;
  for (const LaunchDescription::Kernarg &a : kernel->kernargs)
    entries.push_back(a.entry);
  if (llvm::Error e = buildAbi(run.name, entries, *problem, run.abi))
    return std::move(e);
  return std::move(run);
}

llvm::Expected<PreparedKernel>
prepareKernel(MLIRContext &context, const RunConfig &config, StringRef path,
              ProblemReader readProblem, Version version,
              SourceReader readSource, DescriptionReader readDescription) {
  return path.ends_with(".json")
             ? prepareFromLaunch(context, config, path, readProblem,
                                 readDescription)
             : prepareFromSource(context, config, path, readProblem, version,
                                 readSource);
}

std::vector<uint64_t>
placeBuffers(sim::GlobalMemory &memory,
             const std::vector<std::vector<uint8_t>> &buffers) {
  std::vector<uint64_t> addresses;
  for (auto [i, buffer] : llvm::enumerate(buffers)) {
    addresses.push_back(
        memory.allocate("argument #" + std::to_string(i), buffer.size()));
    memory.bytes(addresses.back()) = buffer;
  }
  return addresses;
}

llvm::Expected<LaunchStats>
launchKernel(const RunConfig &config, const PreparedKernel &kernel,
             std::vector<std::vector<uint8_t>> &buffers,
             const std::vector<bool> &outputs) {
  LaunchStats stats;
  if (llvm::Error e = checkShuffleSettings(config))
    return std::move(e);
  auto runStart = std::chrono::steady_clock::now();
  if (config.backend == Backend::isa) {
    if (llvm::Error e = launchOnIsa(config, kernel, buffers, stats))
      return std::move(e);
  } else if (config.backend == Backend::sim) {
    llvm::LLVMContext llvmContext;
    llvm::SMDiagnostic diag;
    std::unique_ptr<llvm::Module> module;
    if (kernel.imageIsBitcode) {
      auto parsed = llvm::parseBitcodeFile(
          llvm::MemoryBufferRef(kernel.image, "kernel"), llvmContext);
      if (!parsed)
        return badInput(llvm::toString(parsed.takeError()));
      module = std::move(*parsed);
    } else {
      module = llvm::parseAssemblyString(kernel.image, diag, llvmContext);
      if (!module)
        return badInput("the kernel's LLVM IR does not parse: " +
                        diag.getMessage());
    }
    sim::GlobalMemory memory;
    std::vector<uint64_t> addresses = placeBuffers(memory, buffers);
    sim::LaunchConfig launch;
    launch.grid = kernel.grid;
    launch.block = kernel.block;
    launch.stepLimit = config.stepLimit;
    launch.shuffleSeed = config.shuffleWorkgroups;
    for (const AbiArgument &arg : kernel.abi)
      launch.arguments.push_back(arg.buffer >= 0 ? addresses[arg.buffer]
                                                 : arg.value);
    if (llvm::Error e = sim::run(*module, kernel.name, getChipInfo(config.chip),
                                 launch, memory, stats.counters)) {
      std::string race;
      llvm::Error other = llvm::handleErrors(
          std::move(e), [&](const sim::RaceError &r) { race = r.message(); });
      if (!race.empty())
        return llvm::make_error<RunError>(RunError::Kind::failed, race);
      return badInput("simulation failed: " + llvm::toString(std::move(other)));
    }
    for (auto [i, buffer] : llvm::enumerate(buffers))
      buffer = memory.bytes(addresses[i]);
  } else {
    std::vector<hip::Argument> arguments;
    for (const AbiArgument &arg : kernel.abi) {
      if (arg.buffer >= 0) {
        arguments.push_back(
            {&buffers[arg.buffer], static_cast<bool>(outputs[arg.buffer]), 0});
        continue;
      }
      if (arg.value > UINT32_MAX)
        return badInput(llvm::formatv("argument value {0} does not fit the 32 "
                                      "bits the hip backend passes",
                                      arg.value));
      arguments.push_back({nullptr, false, static_cast<uint32_t>(arg.value)});
    }
    llvm::Expected<hip::Timing> timed =
        hip::run(kernel.image, kernel.name, kernel.grid, kernel.block,
                 arguments, config.warmup, config.iterations);
    if (!timed) {
      std::string message;
      bool unavailable = false;
      llvm::handleAllErrors(
          timed.takeError(),
          [&](const hip::UnavailableError &e) {
            unavailable = true;
            message = e.message();
          },
          [&](const llvm::ErrorInfoBase &e) { message = e.message(); });
      if (unavailable)
        return llvm::make_error<RunError>(RunError::Kind::unavailable,
                                          message +
                                              "; --backend=sim runs anywhere");
      return badInput(message);
    }
    stats.timing = *timed;
  }
  stats.runSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - runStart)
          .count();
  return std::move(stats);
}

} // namespace mlir::hk::run
