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
//   hk-perf --parameters --chip=gfx950
//
// Exit status: 0 on success, 2 when the input or the options are refused
// (the message says why), 1 when a file cannot be read.
//
//===----------------------------------------------------------------------===//

#include "HK/Isa/Isa.h"
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

static cl::opt<std::string> inputFile(cl::Positional, cl::cat(toolOptions),
                                      cl::desc("<loop body (.s)>"));
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
             "(default: when a workgroup has two waves per SIMD)"));
static cl::list<std::string> overrides(
    "set", cl::cat(toolOptions), cl::value_desc("name=value"),
    cl::desc("override a parameter of the chip's table (what-if runs and "
             "benchmarks/timing-model.py --fit)"));
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
  perf::ChipTiming timing = perf::getChipTiming(*arch);
  for (StringRef entry : overrides) {
    auto [name, text] = entry.split('=');
    double value;
    if (text.getAsDouble(value))
      return refuse("--set=" + entry + ": expected name=number");
    if (Error error = perf::setParameter(timing, name, value))
      return refuse(toString(std::move(error)));
  }
  if (showParameters) {
    if (emitJson)
      outs() << formatv("{0:2}\n", json::Value(perf::parametersToJson(timing)));
    else
      perf::printParameters(outs(), timing);
    return 0;
  }
  if (inputFile.empty())
    return refuse("no input: give a loop body (.s)");

  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFileOrSTDIN(inputFile);
  if (!buffer) {
    WithColor::error(errs(), "hk-perf") << "cannot read " << inputFile << ": "
                                        << buffer.getError().message() << "\n";
    return 1;
  }
  Expected<isa::InstructionStream> stream =
      isa::parseAssembly((*buffer)->getBuffer(), *arch, inputFile);
  if (!stream)
    return refuse(toString(stream.takeError()));

  perf::PerfConfig config;
  config.workgroupWaves = workgroupWaves;
  config.wavesPerSimd = wavesPerSimd;
  config.iterations = iterations;
  config.warmupIterations = warmup;
  config.timing = &timing;
  if (pingPong != cl::BOU_UNSET)
    config.pingPong = pingPong == cl::BOU_TRUE;
  Expected<perf::PerfResult> result = perf::simulateLoop(*stream, config);
  if (!result)
    return refuse(inputFile + ": " + toString(result.takeError()));
  if (emitJson)
    outs() << formatv("{0:2}\n", json::Value(perf::toJson(*result)));
  else
    perf::printResult(outs(), *result);
  if (topInstructions && !emitJson)
    perf::printTopStalls(outs(), *result, *stream, topInstructions);
  return 0;
}
