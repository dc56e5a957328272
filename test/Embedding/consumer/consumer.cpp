//===- consumer.cpp - a small compiler embedding the hk package -----------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// What a compiler with linalg does to get hk kernels, built against the
// installed package only:
//
//   hk-consumer <program.mlir> <gfx950|gfx1201> <out-dir>
//
// reads a linalg program, replaces its matmuls with launches of hk kernels
// (hk-linalg-to-kernels), lowers each outlined kernel with the hk pipeline
// at the fastest schedule the pass recorded on it (hk.schedule) and writes, per
// kernel, its code object, its LLVM IR and its launch description
// (<out-dir>/<kernel>.{hsaco,ll,json}, what `hk-run` runs), and the host
// program with the launches (<out-dir>/host.mlir).
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/Analysis/KernelLaunch.h"
#include "HK/InitAllDialects.h"
#include "HK/InitAllPasses.h"
#include "HK/Pipelines/Pipelines.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static bool writeFile(const llvm::Twine &path, llvm::StringRef contents) {
  std::error_code error;
  llvm::raw_fd_ostream os(path.str(), error);
  if (error) {
    llvm::errs() << "hk-consumer: cannot write " << path << ": "
                 << error.message() << "\n";
    return false;
  }
  os << contents;
  return true;
}

/// Lowers one outlined kernel module and writes its three files.
static bool compileKernel(MLIRContext &context, gpu::GPUModuleOp kernels,
                          hk::Chip chip, llvm::StringRef outDir) {
  OwningOpRef<ModuleOp> module = ModuleOp::create(kernels.getLoc());
  module->getBody()->push_back(kernels->clone());
  hk::LaunchDescription description;
  description.chip = chip;
  std::string name;
  gpu::GPUModuleOp copy = *module->getOps<gpu::GPUModuleOp>().begin();
  for (auto func : copy.getOps<gpu::GPUFuncOp>()) {
    description.kernels.push_back(hk::describeKernel(func));
    name = func.getName().str();
  }

  PassManager pm(&context);
  hk::HKPipelineOptions options;
  options.chip = chip;
  options.tidyLlvm = false; // LLVM's pipeline does it for the code object
  hk::buildHKToROCDLPipeline(pm, options);
  if (failed(pm.run(*module)))
    return false;
  FailureOr<std::string> codeObject = hk::serializeGpuModule(*module, "bin");
  FailureOr<std::string> llvmIr = hk::serializeGpuModule(*module, "llvm-text");
  if (failed(codeObject) || failed(llvmIr))
    return false;
  description.codeObject = name + ".hsaco";
  description.llvmIr = name + ".ll";
  std::string base = (outDir + "/" + name).str();
  if (!writeFile(base + ".hsaco", *codeObject) ||
      !writeFile(base + ".ll", *llvmIr) ||
      !writeFile(base + ".json", hk::writeLaunchDescription(description)))
    return false;
  llvm::outs() << "kernel " << name << ": " << codeObject->size()
               << "-byte code object, " << base << ".json\n";
  return true;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    llvm::errs() << "usage: hk-consumer <program.mlir> <gfx950|gfx1201> "
                    "<out-dir>\n";
    return 2;
  }
  std::optional<hk::Chip> chip = hk::symbolizeChip(argv[2]);
  if (!chip) {
    llvm::errs() << "hk-consumer: unknown chip '" << argv[2] << "'\n";
    return 2;
  }
  hk::registerAllPasses();
  DialectRegistry registry;
  hk::registerAllDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(argv[1], sourceMgr, &context);
  if (!module)
    return 1;

  // The front door: matmuls to launches of outlined hk kernels. What it
  // leaves alone comes with a remark.
  // The pipeline text names no anchor: it is added to the module's own
  // pass manager (with "builtin.module(...)" it would nest, and run on
  // modules inside this one).
  auto pm = PassManager::on<ModuleOp>(&context);
  std::string pipeline =
      std::string("hk-linalg-to-kernels{chip=") + argv[2] + "}";
  if (failed(parsePassPipeline(pipeline, pm)) || failed(pm.run(*module)))
    return 1;

  if (std::error_code error = llvm::sys::fs::create_directories(argv[3])) {
    llvm::errs() << "hk-consumer: cannot create " << argv[3] << ": "
                 << error.message() << "\n";
    return 1;
  }
  auto kernels = llvm::to_vector(module->getOps<gpu::GPUModuleOp>());
  for (gpu::GPUModuleOp k : kernels)
    if (!compileKernel(context, k, *chip, argv[3]))
      return 1;
  std::string host;
  llvm::raw_string_ostream os(host);
  module->print(os);
  if (!writeFile(llvm::Twine(argv[3]) + "/host.mlir", host))
    return 1;
  llvm::outs() << kernels.size() << " kernels\n";
  return 0;
}
