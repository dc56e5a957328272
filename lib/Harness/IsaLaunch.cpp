//===- IsaLaunch.cpp - launching a code object on the ISA executor --------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The `isa` backend of launchKernel: the harness's buffers become the
// executor's global memory, the prepared argument list its kernarg values
// (laid out by the code object's own metadata), and its errors RunErrors.
//
//===----------------------------------------------------------------------===//

#include "HK/Harness/Launch.h"

#include "HK/Exec/Exec.h"
#include "HK/Target/Chip.h"

#include "llvm/Support/FormatVariadic.h"

namespace mlir::hk::run {

llvm::Error launchOnIsa(const RunConfig &config, const PreparedKernel &kernel,
                        std::vector<std::vector<uint8_t>> &buffers,
                        LaunchStats &stats) {
  const ChipInfo &chip = getChipInfo(config.chip);
  std::optional<isa::Arch> arch = isa::parseArch(chip.name);
  if (!arch)
    return badInput("the isa backend does not support " + chip.name);
  llvm::Expected<exec::LoadedKernel> loaded =
      exec::loadKernel(kernel.image, kernel.name, *arch);
  if (!loaded)
    return badInput(llvm::toString(loaded.takeError()));
  sim::GlobalMemory memory;
  std::vector<uint64_t> addresses = placeBuffers(memory, buffers);
  std::vector<uint64_t> bits;
  for (const AbiArgument &arg : kernel.abi)
    bits.push_back(arg.buffer >= 0 ? addresses[arg.buffer] : arg.value);
  for (size_t i = bits.size(); i < loaded->arguments.size(); ++i)
    return badInput(llvm::formatv("kernel '{0}' takes a {1} argument the "
                                  "isa backend does not model",
                                  kernel.name, loaded->arguments[i].valueKind));
  exec::ExecConfig exec;
  exec.grid = kernel.grid;
  exec.block = kernel.block;
  exec.completion = exec::Completion(unsigned(config.isaCompletion));
  exec.seed = config.seed;
  exec.stepLimit = config.stepLimit;
  exec.perWordRangeCheck = chip.perWordBufferRangeCheck;
  llvm::Expected<exec::ExecStats> ran = exec::run(*loaded, exec, memory, bits);
  if (!ran) {
    std::string message;
    bool failed = false;
    llvm::handleAllErrors(
        ran.takeError(),
        [&](const exec::ExecError &e) {
          failed = e.kind == exec::ExecError::Kind::failed;
          message = e.message();
        },
        [&](const llvm::ErrorInfoBase &e) { message = e.message(); });
    if (failed)
      return llvm::make_error<RunError>(RunError::Kind::failed,
                                        "isa: " + message);
    return badInput("isa: " + message);
  }
  for (auto [i, buffer] : llvm::enumerate(buffers))
    buffer = memory.bytes(addresses[i]);
  stats.counters.waveInstructions = ran->waveInstructions;
  stats.counters.laneInstructions = ran->laneInstructions;
  stats.counters.mmas = ran->mmas;
  stats.counters.barriers = ran->barriers;
  static constexpr const char *completions[] = {"eager", "latest", "random"};
  stats.counters.isaCompletion = completions[unsigned(config.isaCompletion)];
  return llvm::Error::success();
}

} // namespace mlir::hk::run
