//===- KernelMode.cpp - hk-perf over a compiled hk kernel -----------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements hk-perf's kernel mode: reading the launch
// description and its code object, choosing the kernel and loop, and the
// waves per workgroup and per SIMD the model runs.
//
//===----------------------------------------------------------------------===//

#include "HK/Perf/KernelMode.h"

#include "HK/KernelAbi/LaunchDescription.h"
#include "HK/Perf/ChipTiming.h"
#include "HK/Report/CodeObject.h"
#include "HK/Target/Chip.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace mlir::hk::perf {

static Expected<std::unique_ptr<MemoryBuffer>> readFile(StringRef path,
                                                        bool text) {
  auto buffer = MemoryBuffer::getFile(path, text);
  if (!buffer)
    return createStringError("cannot read '" + path +
                             "': " + buffer.getError().message());
  return std::move(*buffer);
}

/// The code object a description names, relative to the description's
/// directory as hk-compile writes it.
static Expected<std::string>
getCodeObjectPath(const LaunchDescription &description, StringRef launchFile) {
  if (!description.codeObject)
    return createStringError("'" + launchFile +
                             "' names no code object (hk-compile -o X.hsaco "
                             "--launch=X.json writes one that does)");
  if (sys::path::is_absolute(*description.codeObject))
    return *description.codeObject;
  SmallString<256> path = sys::path::parent_path(launchFile);
  sys::path::append(path, *description.codeObject);
  return std::string(path);
}

/// A kernel's code and its timed loop.
struct Candidate {
  const isa::KernelCode *code;
  const LaunchDescription::Kernel *launch;
  std::vector<StreamLoop> loops;
  StreamLoop loop;
};

/// The loop of `kernel` the config asks for: --loop's, else the main one.
static Expected<Candidate>
findCandidate(const isa::KernelCode &kernel,
              const LaunchDescription::Kernel &launch,
              const KernelModeConfig &config) {
  Candidate candidate{&kernel, &launch, findStreamLoops(kernel.code), {}};
  Expected<StreamLoop> loop =
      config.loop.empty() ? findMainStreamLoop(candidate.loops)
                          : findStreamLoop(candidate.loops, config.loop);
  // Without an MMA loop, say how to pick one of the loops found.
  if (!loop)
    return createStringError("kernel " + kernel.name + ": " +
                             toString(loop.takeError()) +
                             (config.loop.empty() && !candidate.loops.empty()
                                  ? "; choose one with --loop=LABEL"
                                  : ""));
  candidate.loop = std::move(*loop);
  return candidate;
}

/// The kernel --kernel names, else the one whose loop has the most matrix
/// instructions (the main loop of the whole code object, as hk-report).
static Expected<Candidate> chooseKernel(const LaunchDescription &description,
                                        ArrayRef<isa::KernelCode> kernels,
                                        const KernelModeConfig &config,
                                        StringRef codeObjectFile) {
  std::optional<Candidate> best;
  std::string errors;
  for (const LaunchDescription::Kernel &launch : description.kernels) {
    if (!config.kernel.empty() && launch.name != config.kernel)
      continue;
    auto code = find_if(kernels, [&](const isa::KernelCode &k) {
      return k.name == launch.name;
    });
    if (code == kernels.end())
      return createStringError("'" + codeObjectFile + "' has no kernel " +
                               launch.name);
    Expected<Candidate> candidate = findCandidate(*code, launch, config);
    if (!candidate) {
      errors += (errors.empty() ? "" : "; ") + toString(candidate.takeError());
      continue;
    }
    if (!best ||
        candidate->loop.matrixInstructions > best->loop.matrixInstructions)
      best = std::move(*candidate);
  }
  if (best)
    return std::move(*best);
  if (!errors.empty())
    return createStringError(errors);
  std::string names =
      join(map_range(description.kernels, [](const auto &k) { return k.name; }),
           ", ");
  return createStringError("no kernel '" + config.kernel +
                           "' in the launch description (kernels: " + names +
                           ")");
}

/// The most waves per SIMD, at most `occupancy`, that whole workgroups of
/// `workgroupWaves` fill on `simds` SIMDs (the model's CU holds whole
/// workgroups; so does the hardware).
static std::optional<unsigned>
fillWithWorkgroups(int64_t occupancy, unsigned workgroupWaves, unsigned simds) {
  for (int64_t w = occupancy; w >= 1; --w)
    if ((simds * w) % workgroupWaves == 0)
      return unsigned(w);
  return std::nullopt;
}

/// Sets the wave counts of `out` from the kernel's block and resources.
static Error chooseWaves(const KernelModeConfig &config,
                         const LaunchDescription &description,
                         const KernelResources &resources,
                         const LaunchDescription::Kernel &launch,
                         KernelLoop &out) {
  int64_t lanes = (*launch.block)[0] * (*launch.block)[1] * (*launch.block)[2];
  unsigned waveSize = isa::getWaveSize(out.arch);
  out.workgroupWaves =
      config.workgroupWaves.value_or(unsigned(divideCeil(lanes, waveSize)));
  out.vgprs = resources.vgprs;
  out.ldsBytes = resources.ldsBytes;
  out.occupancy =
      estimateOccupancy(getChipInfo(description.chip), resources.vgprs,
                        resources.sgprs, resources.ldsBytes, lanes)
          .wavesPerSimd;
  if (config.wavesPerSimd) {
    out.wavesPerSimd = *config.wavesPerSimd;
    return Error::success();
  }
  const ChipTiming &timing = getChipTiming(out.arch);
  std::optional<unsigned> waves = fillWithWorkgroups(
      std::min<int64_t>(out.occupancy, timing.maxWavesPerSimd),
      out.workgroupWaves, timing.simds);
  if (!waves)
    return createStringError(formatv(
        "kernel {0}: workgroups of {1} waves do not fill {2} SIMDs at the {3} "
        "wave(s) per SIMD its registers and LDS allow; give "
        "--waves-per-simd",
        out.kernel, out.workgroupWaves, timing.simds, out.occupancy));
  out.wavesPerSimd = *waves;
  return Error::success();
}

Expected<KernelLoop> loadKernelLoop(const KernelModeConfig &config) {
  StringRef launchFile = config.launchFile;
  auto launchText = readFile(launchFile, /*text=*/true);
  if (!launchText)
    return launchText.takeError();
  Expected<LaunchDescription> description =
      parseLaunchDescription((*launchText)->getBuffer());
  if (!description)
    return createStringError(
        "'" + launchFile +
        "' is not a launch description: " + toString(description.takeError()));
  KernelLoop out;
  StringRef chipName = stringifyChip(description->chip);
  std::optional<isa::Arch> arch = isa::parseArch(chipName);
  if (!arch)
    return createStringError("'" + launchFile + "' is for " + chipName +
                             ", which hk-perf does not model");
  out.arch = *arch;
  if (config.chip && *config.chip != out.arch)
    return createStringError("'" + launchFile + "' describes a " + chipName +
                             " kernel, not " + isa::getArchName(*config.chip));

  Expected<std::string> codeObjectFile =
      getCodeObjectPath(*description, launchFile);
  if (!codeObjectFile)
    return codeObjectFile.takeError();
  out.codeObjectFile = *codeObjectFile;
  auto bytes = readFile(out.codeObjectFile, /*text=*/false);
  if (!bytes)
    return bytes.takeError();
  StringRef elf = (*bytes)->getBuffer();
  Expected<isa::Arch> elfArch = isa::getCodeObjectArch(elf);
  if (!elfArch)
    return createStringError("'" + out.codeObjectFile +
                             "': " + toString(elfArch.takeError()));
  if (*elfArch != out.arch)
    return createStringError(
        "'" + out.codeObjectFile + "' is for " + isa::getArchName(*elfArch) +
        ", but '" + launchFile + "' describes a " + chipName + " kernel");
  Expected<CodeObjectInfo> info = readCodeObject(elf);
  Expected<std::vector<isa::KernelCode>> kernels = isa::decodeCodeObject(elf);
  if (!info || !kernels) {
    Error error = joinErrors(info ? Error::success() : info.takeError(),
                             kernels ? Error::success() : kernels.takeError());
    return createStringError("'" + out.codeObjectFile +
                             "': " + toString(std::move(error)));
  }

  Expected<Candidate> chosen =
      chooseKernel(*description, *kernels, config, out.codeObjectFile);
  if (!chosen)
    return createStringError("'" + out.codeObjectFile +
                             "': " + toString(chosen.takeError()));
  out.kernel = chosen->code->name;
  out.loops = std::move(chosen->loops);
  out.loop = chosen->loop;
  out.body = extractLoop(chosen->code->code, out.loop);
  out.staggered = entersStaggered(chosen->code->code, out.loop);
  auto resources = find_if(info->kernels, [&](const KernelResources &k) {
    return k.name == out.kernel;
  });
  if (resources == info->kernels.end())
    return createStringError("'" + out.codeObjectFile +
                             "' has no metadata for kernel " + out.kernel);
  if (Error error =
          chooseWaves(config, *description, *resources, *chosen->launch, out))
    return std::move(error);
  return out;
}

void printKernelLoop(raw_ostream &os, const KernelLoop &loop) {
  os << formatv("kernel {0} of {1} ({2}): {3} VGPRs, {4} bytes of LDS, "
                "{5} wave(s) per SIMD by hk's occupancy estimate\n",
                loop.kernel, loop.codeObjectFile, isa::getArchName(loop.arch),
                loop.vgprs, loop.ldsBytes, loop.occupancy);
  os << "loops: " << describeStreamLoops(loop.loops) << "\n";
  os << formatv("timed: loop {0}, {1} instructions, {2} matrix{3}\n",
                loop.loop.name, loop.loop.size(), loop.loop.matrixInstructions,
                loop.staggered ? ", entered staggered by one barrier" : "");
}

json::Object kernelLoopToJson(const KernelLoop &loop) {
  json::Array loops;
  for (const StreamLoop &l : loop.loops)
    loops.push_back(
        json::Object{{"name", l.name},
                     {"instructions", l.size()},
                     {"matrix_instructions", l.matrixInstructions}});
  return json::Object{
      {"name", loop.kernel},
      {"code_object", loop.codeObjectFile},
      {"vgprs", loop.vgprs},
      {"lds_bytes", loop.ldsBytes},
      {"occupancy_waves_per_simd", loop.occupancy},
      {"loop", loop.loop.name},
      {"loop_instructions", loop.loop.size()},
      {"loop_matrix_instructions", loop.loop.matrixInstructions},
      {"staggered", loop.staggered},
      {"loops", std::move(loops)}};
}

} // namespace mlir::hk::perf
