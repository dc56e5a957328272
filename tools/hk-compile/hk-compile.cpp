//===- hk-compile.cpp - hk source to code object --------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Compiles the gpu.module of an hk program for a chip and writes the code
// object, and on request the assembly, the LLVM IR handed to the AMDGPU
// backend and the launch description of its kernels:
//
//   hk-compile gemm.mlir --chip=gfx950 -o gemm.hsaco --asm=gemm.s \
//       --llvm-ir=gemm.ll --launch=gemm.json
//
// A kernel that spills or uses scratch is warned about (--max-spills=N makes
// it an error).
//
// --kernel=NAME compiles one kernel of a module of several, or the gpu.module
// holding it of a host program with several (hk-linalg-to-kernels' output).
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Analysis/KernelLaunch.h"
#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/InitAllDialects.h"
#include "HK/KernelAbi/LaunchDescription.h"
#include "HK/Pipelines/Pipelines.h"
#include "HK/Report/CodeObject.h"
#include "HK/Tools/DiagnosticOptions.h"
#include "HK/Tools/InputLimits.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::hk;

/// The tool's own options; --help lists only these, not LLVM's.
static llvm::cl::OptionCategory toolOptions("hk-compile options");

static llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                            llvm::cl::Required,
                                            llvm::cl::cat(toolOptions),
                                            llvm::cl::desc("<hk source>"));
static llvm::cl::opt<Chip> chipOption("chip", llvm::cl::Required,
                                      llvm::cl::cat(toolOptions),
                                      llvm::cl::desc("the chip to compile for"),
                                      chipOptionValues());
static llvm::cl::opt<std::string>
    outputFile("o", llvm::cl::Required, llvm::cl::cat(toolOptions),
               llvm::cl::desc("code object to write (.hsaco)"),
               llvm::cl::value_desc("file"));
static llvm::cl::opt<std::string>
    asmFile("asm", llvm::cl::cat(toolOptions),
            llvm::cl::desc("also write the assembly"),
            llvm::cl::value_desc("file"));
static llvm::cl::opt<std::string>
    llvmIrFile("llvm-ir", llvm::cl::cat(toolOptions),
               llvm::cl::desc("also write the optimized LLVM IR the AMDGPU "
                              "backend compiles"),
               llvm::cl::value_desc("file"));
static llvm::cl::opt<std::string>
    launchFile("launch", llvm::cl::cat(toolOptions),
               llvm::cl::desc("also write the kernels' launch description "
                              "(JSON)"),
               llvm::cl::value_desc("file"));
static llvm::cl::opt<std::string>
    kernelName("kernel", llvm::cl::cat(toolOptions),
               llvm::cl::desc("compile only this kernel of the module (the "
                              "others are dropped)"),
               llvm::cl::value_desc("name"));
static llvm::cl::opt<int>
    maxSpills("max-spills", llvm::cl::init(-1), llvm::cl::cat(toolOptions),
              llvm::cl::desc("fail when a kernel spills more than this many "
                             "registers, or uses scratch at all with 0 "
                             "(default: warn only)"),
              llvm::cl::value_desc("n"));
static ScheduleCLOptions schedule(toolOptions);
// -O2 as in every compiler driver (and -O=2).
static llvm::cl::opt<unsigned>
    optLevel("O", llvm::cl::init(3), llvm::cl::Prefix,
             llvm::cl::cat(toolOptions),
             llvm::cl::desc("LLVM optimization level of the device code, 0-3"));

/// Exit status of input hk-compile refuses or cannot compile, as for every
/// hk tool.
static constexpr int kRefused = 2;

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "hk-compile") << message << "\n";
  return kRefused;
}

/// Warns about each kernel of `codeObject` that spills or uses scratch;
/// false (an error) when one exceeds --max-spills.
static bool checkScratchUse(StringRef codeObject) {
  llvm::Expected<CodeObjectInfo> info = readCodeObject(codeObject);
  if (!info) {
    fail("cannot read the code object's resources: " +
         llvm::toString(info.takeError()));
    return false;
  }
  bool withinLimit = true;
  for (const KernelResources &kernel : info->kernels) {
    std::string use = describeScratchUse(kernel);
    if (use.empty())
      continue;
    bool over = maxSpills >= 0 && (getSpilledRegisters(kernel) > maxSpills ||
                                   (maxSpills == 0 && kernel.scratchBytes));
    if (over) {
      fail(use + ", more than --max-spills=" + llvm::Twine(maxSpills));
      withinLimit = false;
    } else {
      llvm::WithColor::warning(llvm::errs(), "hk-compile") << use << "\n";
    }
  }
  return withinLimit;
}

static bool writeFile(StringRef path, StringRef contents) {
  std::string error;
  auto file = openOutputFile(path, &error);
  if (!file) {
    fail(error);
    return false;
  }
  file->os() << contents;
  file->os().close();
  if (file->os().has_error()) {
    fail("cannot write '" + path + "': " + file->os().error().message());
    file->os().clear_error();
    return false;
  }
  file->keep();
  return true;
}

/// Keeps kernel `name` of `module` alone, or says which kernels it has.
static LogicalResult keepOnlyKernel(gpu::GPUModuleOp module, StringRef name) {
  for (auto func : module.getOps<gpu::GPUFuncOp>()) {
    if (func.isKernel() && func.getName() == name) {
      eraseOtherKernels(func);
      return success();
    }
  }
  return module.emitError()
         << "no kernel named '" << name
         << "' (its kernels: " << listKernelNames(module) << ")";
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerDiagnosticCLOptions(toolOptions);
  llvm::cl::HideUnrelatedOptions(toolOptions);
  // Bad usage (no --chip, an unknown flag) is refused input too.
  if (!llvm::cl::ParseCommandLineOptions(
          argc, argv, "hk-compile: hk source to an AMDGPU code object\n",
          &llvm::errs()))
    return kRefused;

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  applyDiagnosticCLOptions(context);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseCheckedSourceFile(inputFile, sourceMgr, &context);
  if (!module)
    return kRefused;

  auto gpuModules = llvm::to_vector(module->getOps<gpu::GPUModuleOp>());
  if (gpuModules.size() > 1 && !kernelName.empty()) {
    // A host program: the gpu.module of the kernel asked for, alone.
    gpu::GPUModuleOp chosen;
    for (gpu::GPUModuleOp candidate : gpuModules)
      if (auto func = candidate.lookupSymbol<gpu::GPUFuncOp>(kernelName);
          func && func.isKernel())
        chosen = candidate;
    if (!chosen)
      return fail("'" + inputFile + "' has no kernel named '" + kernelName +
                  "' (its kernels: " + listKernelNames(*module) + ")");
    eraseAllButGpuModule(chosen);
    gpuModules = {chosen};
  }
  if (gpuModules.size() != 1)
    return fail("'" + inputFile + "' must hold exactly one gpu.module, found " +
                llvm::Twine(gpuModules.size()) +
                (gpuModules.empty() ? ""
                                    : "; --kernel=<name> compiles the one "
                                      "holding that kernel"));
  if (!kernelName.empty() &&
      failed(keepOnlyKernel(gpuModules.front(), kernelName)))
    return kRefused;
  LaunchDescription description;
  description.chip = chipOption;
  for (auto func : gpuModules.front().getOps<gpu::GPUFuncOp>())
    if (func.isKernel())
      description.kernels.push_back(describeKernel(func));

  PassManager pm(&context);
  HKPipelineOptions options;
  options.chip = chipOption;
  options.optLevel = optLevel;
  options.tidyLlvm = false; // LLVM's pipeline does it for the code object
  schedule.applyTo(options);
  if (llvm::Error invalid = checkPipelineOptions(options))
    return fail(llvm::toString(std::move(invalid)));
  buildHKToROCDLPipeline(pm, options);
  if (failed(pm.run(*module)))
    return kRefused;

  // One serialization per requested form: the ROCDL serializer of LLVM 22
  // does not report its intermediate forms through callbacks.
  FailureOr<std::string> codeObject = serializeGpuModule(*module, "bin");
  if (failed(codeObject) || !checkScratchUse(*codeObject) ||
      !writeFile(outputFile, *codeObject))
    return kRefused;
  if (!asmFile.empty()) {
    FailureOr<std::string> isa = serializeGpuModule(*module, "isa");
    if (failed(isa) || !writeFile(asmFile, *isa))
      return kRefused;
  }
  if (!llvmIrFile.empty()) {
    FailureOr<std::string> text = serializeGpuModule(*module, "llvm-text");
    if (failed(text) || !writeFile(llvmIrFile, *text))
      return kRefused;
  }
  if (!launchFile.empty()) {
    // Files are named relative to the description when they sit beside it,
    // so the set can be moved together.
    auto relative = [](StringRef file) {
      llvm::SmallString<256> dir(llvm::sys::path::parent_path(launchFile));
      llvm::SmallString<256> absolute(file);
      llvm::sys::fs::make_absolute(absolute);
      llvm::sys::fs::make_absolute(dir);
      llvm::sys::path::remove_dots(absolute, /*remove_dot_dot=*/true);
      llvm::sys::path::remove_dots(dir, /*remove_dot_dot=*/true);
      if (llvm::sys::path::parent_path(absolute) == dir)
        return llvm::sys::path::filename(absolute).str();
      return std::string(absolute);
    };
    description.codeObject = relative(outputFile);
    if (!llvmIrFile.empty())
      description.llvmIr = relative(llvmIrFile);
    if (!writeFile(launchFile, writeLaunchDescription(description)))
      return kRefused;
  }
  return 0;
}
