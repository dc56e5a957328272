//===- ArgsFuzzer.cpp - libFuzzer target: hk-run's command line -----------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Any text is an hk-run command line, one argument per line: parsed into
// hk-run's options and, when that succeeds, built into the workload's
// configuration and checked (Options.h), as hk-run does before it runs. Options
// that print and exit (--help and its -h alias, --version, ...) and
// response files (@file) are left out: they do what they should, outside a
// fuzzer.
//
//===----------------------------------------------------------------------===//

#include "HK/Harness/Options.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  std::vector<std::string> args = {"hk-run"};
  for (llvm::StringRef line : llvm::split(text, '\n')) {
    // -h... reaches LLVM's -h (help) alias; no hk-run option starts with h.
    if (line.ltrim('-').starts_with("h") || line.contains("help") ||
        line.contains("version") || line.contains("print") ||
        line.starts_with("@") || line.contains('\0'))
      return 0;
    args.push_back(line.str());
  }
  std::vector<const char *> argv;
  for (const std::string &a : args)
    argv.push_back(a.c_str());
  llvm::cl::ResetAllOptionOccurrences();
  llvm::raw_null_ostream quiet;
  llvm::Expected<mlir::hk::run::RunCommand> command =
      mlir::hk::run::parseCommandLine(argv.size(), argv.data(), quiet);
  llvm::consumeError(command.takeError());
  return 0;
}
