//===- hk-report.cpp - resource report of compiled kernels ----------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Prints what each kernel of a code object uses (registers, spills, scratch,
// LDS) and the waves per SIMD that allows, as text or JSON; given the
// kernel's assembly, also the instruction mix of its main (K) loop:
//
//   hk-report gemm.hsaco [--asm=gemm.s [--loop-body=loop.s]] [--json]
//
//===----------------------------------------------------------------------===//

#include "HK/Report/AssemblyLoop.h"
#include "HK/Report/CodeObject.h"
#include "HK/Target/Chip.h"

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
static cl::opt<std::string>
    asmFile("asm", cl::cat(toolOptions), cl::value_desc("file"),
            cl::desc("the code object's assembly (hk-compile --asm): also "
                     "report the instruction mix of its main loop, the "
                     "loop with the most MMA instructions"));
static cl::opt<std::string>
    loopBodyFile("loop-body", cl::cat(toolOptions), cl::value_desc("file"),
                 cl::desc("with --asm: write the loop's instructions (the main "
                          "loop, or --loop's), one per line "
                          "with its class in a comment (input for llvm-mca)"));

static cl::opt<std::string> loopHeader(
    "loop", cl::cat(toolOptions), cl::value_desc("label"),
    cl::desc("with --asm: report (and write with --loop-body) the loop with "
             "this header label, e.g. a peeled loop beside the main one "
             "(--json lists every loop's header)"));

static cl::opt<std::string> kernelName(
    "kernel", cl::cat(toolOptions), cl::value_desc("name"),
    cl::desc("with --asm: the main loop of this kernel (a module with "
             "several, e.g. the attention backward's)"));

/// The order classes are printed in: the loop's work first.
static const char *const kClassOrder[] = {"mma",
                                          "lds_read",
                                          "lds_write",
                                          "global_load",
                                          "direct_lds_load",
                                          "global_store",
                                          "barrier",
                                          "wait",
                                          "setprio",
                                          "cross_lane",
                                          "transcendental",
                                          "salu",
                                          "valu",
                                          "other"};

/// A loop's header, lines and instruction mix (class -> total and
/// per-mnemonic counts) as JSON.
static json::Object loopJson(const AssemblyLoop &loop) {
  json::Object mix;
  for (const auto &[instrClass, mnemonics] : loop.mix) {
    json::Object byMnemonic;
    for (const auto &[mnemonic, n] : mnemonics)
      byMnemonic[mnemonic] = n;
    mix[instrClass] = json::Object{{"total", loop.count(instrClass)},
                                   {"by_mnemonic", std::move(byMnemonic)}};
  }
  return json::Object{{"header", loop.header},
                      {"first_line", loop.firstLine},
                      {"last_line", loop.lastLine},
                      {"instructions", (int64_t)loop.instructions.size()},
                      {"mix", std::move(mix)}};
}

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

  std::optional<AssemblyLoop> loop;
  std::vector<AssemblyLoop> allLoops;
  if (!asmFile.empty()) {
    auto text = MemoryBuffer::getFile(asmFile, /*IsText=*/true);
    if (!text)
      return fail("cannot read '" + asmFile +
                  "': " + text.getError().message());
    std::string kept = (*text)->getBuffer().str();
    if (!kernelName.empty()) {
      Expected<std::string> only = keepKernel(kept, kernelName);
      if (!only)
        return fail("'" + asmFile + "': " + toString(only.takeError()));
      kept = std::move(*only);
    }
    allLoops = findLoops(kept);
    Expected<AssemblyLoop> found = loopHeader.empty()
                                       ? findMainLoop(allLoops)
                                       : findLoop(allLoops, loopHeader);
    // Without an MMA loop, say how to pick one of the loops found.
    if (!found)
      return fail("'" + asmFile + "': " + toString(found.takeError()) +
                  (loopHeader.empty() && !allLoops.empty()
                       ? "; choose one with --loop=LABEL"
                       : ""));
    loop = std::move(*found);
  } else if (!loopBodyFile.empty() || !kernelName.empty() ||
             !loopHeader.empty()) {
    return fail(Twine(!loopBodyFile.empty() ? "--loop-body"
                      : !kernelName.empty() ? "--kernel"
                                            : "--loop") +
                " needs --asm");
  }
  // "main loop", or the loop --loop names.
  std::string loopRole = loopHeader.empty() ? "main loop" : "loop";
  if (loop && !loopBodyFile.empty()) {
    std::error_code ec;
    raw_fd_ostream os(loopBodyFile, ec);
    if (ec)
      return fail("cannot write '" + loopBodyFile + "': " + ec.message());
    for (const LoopInstruction &instruction : loop->instructions)
      os << "\t" << instruction.text << "\t; " << instruction.instrClass
         << "\n";
  }

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
  if (!emitJson) {
    if (loop) {
      outs() << formatv("{0} {1} (lines {2}-{3}), per iteration:\n", loopRole,
                        loop->header, loop->firstLine, loop->lastLine);
      for (const char *instrClass : kClassOrder) {
        auto it = loop->mix.find(instrClass);
        if (it == loop->mix.end())
          continue;
        std::string detail;
        for (const auto &[mnemonic, n] : it->second)
          detail +=
              formatv("{0}{1} {2}", detail.empty() ? "" : ", ", n, mnemonic);
        outs() << formatv("  {0,-16} {1,4}   {2}\n", instrClass,
                          loop->count(instrClass), detail);
      }
    }
    return 0;
  }
  json::Object report{{"target", info->target},
                      {"chip", info->chip},
                      {"kernels", std::move(kernels)}};
  if (loop) {
    report[loopHeader.empty() ? "main_loop" : "loop"] = loopJson(*loop);
    json::Array loops;
    for (const AssemblyLoop &l : allLoops)
      loops.push_back(loopJson(l));
    report["loops"] = std::move(loops);
  }
  outs() << formatv("{0:2}\n", json::Value(std::move(report)));
  return 0;
}
