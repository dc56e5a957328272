//===- hk-perf.cpp - time a loop on a cycle-level model of one CU ---------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Runs hk-perf's model (HKPerf) over one trip of a loop, like llvm-mca but
// with every wave of a CU:
//
//   hk-perf LOOP.s --chip=gfx950 --workgroup-waves=8 --waves-per-simd=2
//           [--iterations=N] [--json]
//   hk-perf X.json [--kernel=NAME] [--loop=LABEL]     (kernel mode)
//   hk-perf --parameters --chip=gfx950
//
// Kernel mode (HKPerfKernel) takes hk-compile's launch description: the
// main loop of the code object it names, waves per workgroup from the
// block, waves per SIMD from hk's occupancy estimate, unless given.
//
// Exit status: 0 on success, 2 when the input or the options are refused
// (the message says why; in kernel mode also a missing file), 1 when a
// loop body cannot be read.
//
//===----------------------------------------------------------------------===//

#include "HK/Isa/Isa.h"
#include "HK/Perf/KernelMode.h"
#include "HK/Perf/Perf.h"
#include "HK/Perf/Report.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mlir::hk;

static cl::OptionCategory toolOptions("hk-perf options");

static cl::opt<std::string>
    inputFile(cl::Positional, cl::cat(toolOptions),
              cl::desc("<loop body (.s) or launch description (.json)>"));
static cl::opt<std::string> chipName("chip", cl::cat(toolOptions),
                                     cl::desc("gfx950 or gfx1201"),
                                     cl::init("gfx950"));
static cl::opt<unsigned>
    workgroupWaves("workgroup-waves", cl::cat(toolOptions), cl::init(4),
                   cl::desc("waves per workgroup (default 4)"));
static cl::opt<unsigned> wavesPerSimd("waves-per-simd", cl::cat(toolOptions),
                                      cl::init(1),
                                      cl::desc("waves per SIMD (default 1)"));
static cl::opt<unsigned> iterations("iterations", cl::cat(toolOptions),
                                    cl::init(100),
                                    cl::desc("loop trips (default 100)"));
static cl::opt<unsigned>
    warmup("warmup", cl::cat(toolOptions), cl::init(0),
           cl::desc("trips left out of the figures (default: a fifth)"));
static cl::opt<cl::boolOrDefault> pingPong(
    "ping-pong", cl::cat(toolOptions),
    cl::desc("the second half of a workgroup's waves runs one barrier ahead "
             "(default: when a workgroup has two waves per SIMD; in kernel "
             "mode, when the kernel staggers its waves before the loop)"));
static cl::list<std::string> overrides(
    "set", cl::cat(toolOptions), cl::value_desc("name=value"),
    cl::desc("override a parameter of the chip's table (what-if runs and "
             "benchmarks/timing-model.py --fit)"));
static cl::opt<std::string>
    kernelName("kernel", cl::cat(toolOptions), cl::value_desc("name"),
               cl::desc("kernel mode: the kernel to time (default: the one "
                        "whose loop has the most matrix instructions)"));
static cl::opt<std::string> loopName(
    "loop", cl::cat(toolOptions), cl::value_desc("label"),
    cl::desc("kernel mode: the loop to time, by its header's offset in .text "
             "as the output lists the loops (default: the main loop, the "
             "one with the most matrix instructions)"));
static cl::opt<bool> emitJson("json", cl::cat(toolOptions),
                              cl::desc("print JSON"));
static cl::opt<unsigned> topInstructions(
    "top", cl::cat(toolOptions), cl::init(0), cl::value_desc("N"),
    cl::desc("also list the N instructions waves stalled longest before"));
static cl::opt<bool> showParameters(
    "parameters", cl::cat(toolOptions),
    cl::desc("print the chip's parameter table with its sources"));

static int refuse(const Twine &message) {
  WithColor::error(errs(), "hk-perf") << message << "\n";
  return 2;
}

/// Parses --set overrides into `timing`; the refusal, if any.
static std::optional<std::string> applyOverrides(perf::ChipTiming &timing) {
  for (StringRef entry : overrides) {
    auto [name, text] = entry.split('=');
    double value;
    if (text.getAsDouble(value))
      return "--set=" + entry.str() + ": expected name=number";
    if (Error error = perf::setParameter(timing, name, value))
      return toString(std::move(error));
  }
  return std::nullopt;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(toolOptions);
  cl::ParseCommandLineOptions(argc, argv,
                              "hk-perf: time a loop on a model "
                              "of one CU\n");
  std::optional<isa::Arch> arch = isa::parseArch(chipName);
  if (!arch)
    return refuse("unknown chip '" + chipName +
                  "' (expected gfx950 or gfx1201)");
  bool kernelMode = StringRef(inputFile).ends_with(".json");
  if (!kernelMode && (!kernelName.empty() || !loopName.empty()))
    return refuse("--kernel and --loop need a launch description (.json)");

  // Kernel mode: the chip, loop and waves come from the kernel.
  std::optional<perf::KernelLoop> kernel;
  if (kernelMode) {
    perf::KernelModeConfig kernelConfig;
    kernelConfig.launchFile = inputFile;
    if (chipName.getNumOccurrences())
      kernelConfig.chip = *arch;
    kernelConfig.kernel = kernelName;
    kernelConfig.loop = loopName;
    if (workgroupWaves.getNumOccurrences())
      kernelConfig.workgroupWaves = workgroupWaves;
    if (wavesPerSimd.getNumOccurrences())
      kernelConfig.wavesPerSimd = wavesPerSimd;
    Expected<perf::KernelLoop> loaded = perf::loadKernelLoop(kernelConfig);
    if (!loaded)
      return refuse(toString(loaded.takeError()));
    kernel = std::move(*loaded);
    arch = kernel->arch;
  }

  perf::ChipTiming timing = perf::getChipTiming(*arch);
  if (std::optional<std::string> refusal = applyOverrides(timing))
    return refuse(*refusal);
  if (showParameters) {
    if (emitJson)
      outs() << formatv("{0:2}\n", json::Value(perf::parametersToJson(timing)));
    else
      perf::printParameters(outs(), timing);
    return 0;
  }
  if (inputFile.empty())
    return refuse("no input: give a loop body (.s) or a launch description "
                  "(.json)");

  std::optional<isa::InstructionStream> stream;
  if (kernel) {
    stream = std::move(kernel->body);
  } else {
    ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
        MemoryBuffer::getFileOrSTDIN(inputFile);
    if (!buffer) {
      WithColor::error(errs(), "hk-perf")
          << "cannot read " << inputFile << ": " << buffer.getError().message()
          << "\n";
      return 1;
    }
    Expected<isa::InstructionStream> parsed =
        isa::parseAssembly((*buffer)->getBuffer(), *arch, inputFile);
    if (!parsed)
      return refuse(toString(parsed.takeError()));
    stream = std::move(*parsed);
  }

  perf::PerfConfig config;
  config.workgroupWaves = kernel ? kernel->workgroupWaves : workgroupWaves;
  config.wavesPerSimd = kernel ? kernel->wavesPerSimd : wavesPerSimd;
  config.iterations = iterations;
  config.warmupIterations = warmup;
  config.timing = &timing;
  if (pingPong != cl::BOU_UNSET)
    config.pingPong = pingPong == cl::BOU_TRUE;
  else if (kernel)
    config.pingPong = kernel->staggered;
  Expected<perf::PerfResult> result = perf::simulateLoop(*stream, config);
  if (!result)
    return refuse(inputFile + ": " + toString(result.takeError()));
  if (emitJson) {
    json::Object out = perf::toJson(*result);
    if (kernel)
      out["kernel"] = perf::kernelLoopToJson(*kernel);
    outs() << formatv("{0:2}\n", json::Value(std::move(out)));
    return 0;
  }
  if (kernel)
    perf::printKernelLoop(outs(), *kernel);
  perf::printResult(outs(), *result);
  if (topInstructions)
    perf::printTopStalls(outs(), *result, *stream, topInstructions);
  return 0;
}
