//===- ReplayMain.cpp - run a fuzz target over files, without libFuzzer ---===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The main of a fuzz target in a build without libFuzzer (any compiler):
// runs LLVMFuzzerTestOneInput once on each file named, or on each file of a
// directory named, so that every build compiles the targets and the test
// suite replays their seeds and past findings. scripts/fuzz.sh builds the
// same targets with libFuzzer instead.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/// Appends `path`, or the regular files under it when it is a directory,
/// to `files`; false if it does not exist.
static bool collect(const std::string &path, std::vector<std::string> &files) {
  if (!llvm::sys::fs::is_directory(path)) {
    if (!llvm::sys::fs::exists(path))
      return false;
    files.push_back(path);
    return true;
  }
  std::error_code ec;
  std::vector<std::string> found;
  for (llvm::sys::fs::recursive_directory_iterator it(path, ec), end;
       it != end && !ec; it.increment(ec))
    if (llvm::sys::fs::is_regular_file(it->path()))
      found.push_back(it->path());
  std::sort(found.begin(), found.end());
  files.insert(files.end(), found.begin(), found.end());
  return !ec;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    llvm::errs() << "usage: " << argv[0] << " FILE|DIR...\n"
                 << "runs the fuzz target once on each input (this build "
                    "has no libFuzzer; scripts/fuzz.sh builds one)\n";
    return 2;
  }
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i)
    if (!collect(argv[i], files)) {
      llvm::errs() << argv[0] << ": cannot read '" << argv[i] << "'\n";
      return 2;
    }
  for (const std::string &file : files) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        llvm::MemoryBuffer::getFile(file, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
    if (!buffer) {
      llvm::errs() << argv[0] << ": cannot read '" << file
                   << "': " << buffer.getError().message() << "\n";
      return 2;
    }
    LLVMFuzzerTestOneInput(
        reinterpret_cast<const uint8_t *>((*buffer)->getBufferStart()),
        (*buffer)->getBufferSize());
  }
  llvm::outs() << argv[0] << ": " << files.size() << " inputs run\n";
  return 0;
}
