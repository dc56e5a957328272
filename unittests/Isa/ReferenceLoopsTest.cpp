//===- ReferenceLoopsTest.cpp - the ISA layer on real gfx950 loops --------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Parses every reference loop (HipKittens', aiter's and Gluon's gfx950 main
// loops, docs/Hardware.md#reference-loops) from $HK_REFERENCE_DIR and its
// timing/ subdirectory, and checks that each instruction gets a class and
// that the calibration loop's instruction mix is the one its README
// counts. Skipped when the directory is absent.
//
//===----------------------------------------------------------------------===//

#include "HK/Isa/Isa.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <cstdlib>

using namespace mlir::hk::isa;
using llvm::StringRef;

namespace {

std::string getReferenceDir() {
  if (const char *dir = std::getenv("HK_REFERENCE_DIR"))
    return dir;
  return HK_ISA_DEFAULT_REFERENCE_DIR;
}

/// The `.s` files of `dir`, sorted.
std::vector<std::string> listLoops(const std::string &dir) {
  std::vector<std::string> files;
  std::error_code error;
  for (llvm::sys::fs::directory_iterator it(dir, error), end;
       !error && it != end; it.increment(error))
    if (llvm::sys::path::extension(it->path()) == ".s")
      files.push_back(it->path());
  llvm::sort(files);
  return files;
}

llvm::Expected<InstructionStream> parseFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError("cannot read " + path);
  return parseAssembly((*buffer)->getBuffer(), Arch::gfx950,
                       llvm::sys::path::filename(path));
}

TEST(ReferenceLoopsTest, EveryInstructionHasAClass) {
  std::string dir = getReferenceDir();
  std::vector<std::string> files = listLoops(dir);
  for (const std::string &file : listLoops(dir + "/timing"))
    files.push_back(file);
  if (files.empty())
    GTEST_SKIP() << "no reference loops in " << dir
                 << " (set HK_REFERENCE_DIR)";
  llvm::StringMap<unsigned> others;
  size_t instructions = 0;
  for (const std::string &file : files) {
    llvm::Expected<InstructionStream> stream = parseFile(file);
    if (!stream) {
      ADD_FAILURE() << llvm::toString(stream.takeError());
      continue;
    }
    EXPECT_FALSE(stream->instructions.empty()) << file;
    for (const Instruction &instr : stream->instructions) {
      ++instructions;
      if (instr.cls == InstrClass::Other)
        ++others[instr.mnemonic];
      EXPECT_GE(instr.sched.latency, 0) << instr.text;
    }
  }
  std::string report;
  for (const auto &entry : others)
    report += " " + entry.getKey().str() + "(" +
              std::to_string(entry.getValue()) + ")";
  EXPECT_TRUE(others.empty()) << "classed as other:" << report;
  std::cout << "[ isa      ] " << files.size() << " loops, " << instructions
            << " instructions, classed as other:"
            << (report.empty() ? " none" : report) << "\n";
}

// The calibration loop's mix as its README gives it: per trip 128
// v_mfma_f32_16x16x32_bf16, 48 ds_read_b128, 16 buffer_load_dwordx4 ...
// lds, 16 s_barrier and 16 s_setprio.
TEST(ReferenceLoopsTest, HipKittensTimingLoopMix) {
  std::string path =
      getReferenceDir() + "/timing/hipkittens-bf16-gemm-256x256x64-loop.s";
  if (!llvm::sys::fs::exists(path))
    GTEST_SKIP() << "no " << path << " (set HK_REFERENCE_DIR)";
  llvm::Expected<InstructionStream> stream = parseFile(path);
  ASSERT_TRUE(bool(stream)) << llvm::toString(stream.takeError());
  std::map<InstrClass, unsigned> counts;
  for (const Instruction &instr : stream->instructions)
    ++counts[instr.cls];
  EXPECT_EQ(counts[InstrClass::Matrix], 128u);
  EXPECT_EQ(counts[InstrClass::Lds], 48u);
  EXPECT_EQ(counts[InstrClass::DirectToLdsLoad], 16u);
  EXPECT_EQ(counts[InstrClass::Barrier], 16u);
  EXPECT_EQ(counts[InstrClass::SetPrio], 16u);
  for (const Instruction &instr : stream->instructions) {
    if (instr.cls == InstrClass::DirectToLdsLoad) {
      EXPECT_TRUE(instr.counters.contains(Counter::Vm)) << instr.text;
      EXPECT_FALSE(instr.counters.contains(Counter::Lgkm)) << instr.text;
    }
    if (instr.cls == InstrClass::Matrix) {
      EXPECT_EQ(instr.writes.front().count, 4u) << instr.text;
    }
  }
}

} // namespace
