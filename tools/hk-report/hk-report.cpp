//===- hk-report.cpp - resource report of compiled kernels ----------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Prints what each kernel of a code object uses (registers, spills, scratch,
// LDS) and the waves per SIMD that allows, as text or JSON:
//
//   hk-report gemm.hsaco [--json]
//
//===----------------------------------------------------------------------===//

#include "HK/Target/Chip.h"
#include "HK/Target/CodeObject.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mlir::hk;

/// The tool's own options; --help lists only these, not LLVM's.
static cl::OptionCategory toolOptions("hk-report options");

static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::cat(toolOptions),
                                      cl::desc("<code object (.hsaco)>"));
static cl::opt<bool> emitJson("json", cl::cat(toolOptions),
                              cl::desc("print JSON"));

static int fail(const Twine &message) {
  WithColor::error(errs(), "hk-report") << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(toolOptions);
  cl::ParseCommandLineOptions(argc, argv,
                              "hk-report: resources of compiled kernels\n");

  auto buffer = MemoryBuffer::getFile(inputFile, /*IsText=*/false);
  if (!buffer)
    return fail("cannot read '" + inputFile +
                "': " + buffer.getError().message());
  Expected<CodeObjectInfo> info = readCodeObject((*buffer)->getBuffer());
  if (!info)
    return fail("'" + inputFile + "': " + toString(info.takeError()));
  std::optional<Chip> chip = symbolizeChip(info->chip);

  json::Array kernels;
  for (const KernelResources &k : info->kernels) {
    std::optional<Occupancy> occupancy;
    if (chip)
      occupancy = estimateOccupancy(getChipInfo(*chip), k.vgprs, k.sgprs,
                                    k.ldsBytes, k.maxWorkgroupSize);
    if (emitJson) {
      json::Object o{{"name", k.name},
                     {"vgprs", k.vgprs},
                     {"agprs", k.agprs},
                     {"sgprs", k.sgprs},
                     {"vgpr_spills", k.vgprSpills},
                     {"sgpr_spills", k.sgprSpills},
                     {"scratch_bytes", k.scratchBytes},
                     {"lds_bytes", k.ldsBytes},
                     {"wave_size", k.waveSize},
                     {"max_workgroup_size", k.maxWorkgroupSize},
                     {"kernarg_bytes", k.kernargBytes}};
      if (occupancy) {
        o["waves_per_simd"] = occupancy->wavesPerSimd;
        o["waves_per_simd_limits"] =
            json::Object{{"registers", occupancy->byRegisters},
                         {"lds", occupancy->byLds},
                         {"sgprs", occupancy->bySgprs}};
      }
      kernels.push_back(std::move(o));
      continue;
    }
    outs() << formatv("kernel {0} ({1}, wave{2}, up to {3} lanes)\n", k.name,
                      info->chip, k.waveSize, k.maxWorkgroupSize);
    outs() << formatv("  VGPRs    {0,5}   (of which AGPRs {1})\n", k.vgprs,
                      k.agprs);
    outs() << formatv("  SGPRs    {0,5}\n", k.sgprs);
    outs() << formatv("  spills   {0,5} VGPR, {1} SGPR\n", k.vgprSpills,
                      k.sgprSpills);
    outs() << formatv("  scratch  {0,5} bytes per lane\n", k.scratchBytes);
    outs() << formatv("  LDS      {0,5} bytes per workgroup\n", k.ldsBytes);
    if (occupancy)
      outs() << formatv("  waves/SIMD {0}   (registers allow {1}, LDS {2}, "
                        "SGPRs {3})\n",
                        occupancy->wavesPerSimd, occupancy->byRegisters,
                        occupancy->byLds, occupancy->bySgprs);
    else
      outs() << "  waves/SIMD unknown: hk has no occupancy model for "
             << info->chip << "\n";
  }
  if (emitJson)
    outs() << formatv(
        "{0:2}\n", json::Value(json::Object{{"target", info->target},
                                            {"chip", info->chip},
                                            {"kernels", std::move(kernels)}}));
  return 0;
}
