//===- LaunchDescriptionTest.cpp - the launch description format ----------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// hk-compile writes launch descriptions with writeLaunchDescription and
// hk-run reads them with parseLaunchDescription: what one writes the other
// reads back unchanged, and the reader names what is malformed.
//
//===----------------------------------------------------------------------===//

#include "HK/KernelAbi/LaunchDescription.h"

#include "gtest/gtest.h"

using namespace mlir::hk;
using Kind = KernelAbiEntry::Kind;

namespace {

LaunchDescription gemmDescription() {
  LaunchDescription d;
  d.chip = Chip::gfx1201;
  d.codeObject = "gemm.hsaco";
  d.llvmIr = "gemm.ll";
  LaunchDescription::Kernel k;
  k.name = "gemm";
  k.argTypes = {"memref<?x?xbf16>", "memref<?x?xbf16, strided<[?, 1]>>", "f32"};
  k.kernargs = {{{Kind::pointer, 0}, "bf16"}, {{Kind::size, 0, 0}, ""},
                {{Kind::size, 0, 1}, ""},     {{Kind::pointer, 1}, "bf16"},
                {{Kind::stride, 1, 0}, ""},   {{Kind::value, 2}, "f32"}};
  k.block = {{256, 1, 1}};
  k.launch = LaunchDescription::Launch{{{0, 0, 256, true}, {1, 0, 128, false}},
                                       {{0, 1, 64, false}}};
  d.kernels.push_back(k);
  return d;
}

void expectSame(const LaunchDescription &a, const LaunchDescription &b) {
  EXPECT_EQ(a.chip, b.chip);
  EXPECT_EQ(a.codeObject, b.codeObject);
  EXPECT_EQ(a.llvmIr, b.llvmIr);
  ASSERT_EQ(a.kernels.size(), b.kernels.size());
  for (size_t i = 0; i < a.kernels.size(); ++i) {
    const LaunchDescription::Kernel &x = a.kernels[i], &y = b.kernels[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.argTypes, y.argTypes);
    ASSERT_EQ(x.kernargs.size(), y.kernargs.size());
    for (size_t j = 0; j < x.kernargs.size(); ++j) {
      EXPECT_EQ(x.kernargs[j].entry, y.kernargs[j].entry) << "kernarg " << j;
      EXPECT_EQ(x.kernargs[j].type, y.kernargs[j].type) << "kernarg " << j;
    }
    EXPECT_EQ(x.block, y.block);
    ASSERT_EQ(x.launch.has_value(), y.launch.has_value());
    EXPECT_EQ(x.launch->grid, y.launch->grid);
    EXPECT_EQ(x.launch->divisible, y.launch->divisible);
  }
}

TEST(LaunchDescriptionTest, WrittenIsReadBack) {
  LaunchDescription d = gemmDescription();
  std::string text = writeLaunchDescription(d);
  llvm::Expected<LaunchDescription> back = parseLaunchDescription(text);
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  expectSame(d, *back);
  // Writing what was read gives the same text.
  EXPECT_EQ(writeLaunchDescription(*back), text);
}

std::string errorOf(llvm::StringRef json) {
  llvm::Expected<LaunchDescription> d = parseLaunchDescription(json);
  if (d)
    return "(read)";
  return llvm::toString(d.takeError());
}

TEST(LaunchDescriptionTest, MalformedIsNamed) {
  EXPECT_EQ(errorOf("[]"), "not a JSON object");
  EXPECT_EQ(errorOf(R"({"kernels": []})"), "no chip");
  EXPECT_EQ(errorOf(R"({"chip": "gfx90a", "kernels": []})"),
            "an unknown chip 'gfx90a'");
  EXPECT_EQ(errorOf(R"({"chip": "gfx950"})"), "no kernels");
  const char *kernel = R"({"chip": "gfx950", "kernels": [{"name": "k",
      "grid": [], "block": [64, 1, 1], "args": [{"index": 0, "type": "i32"}],
      "kernargs": [%s]}]})";
  auto withKernarg = [&](const char *kernarg) {
    std::string json(kernel);
    json.replace(json.find("%s"), 2, kernarg);
    return errorOf(json);
  };
  EXPECT_EQ(withKernarg(R"({"kind": "value", "arg": 0, "type": "i32"})"),
            "(read)");
  EXPECT_EQ(withKernarg(R"({"kind": "handle", "arg": 0})"),
            "a kernarg of 'k' of unknown kind 'handle'");
  EXPECT_EQ(withKernarg(R"({"kind": "value", "arg": 1})"),
            "a kernarg of 'k' names argument 1 of 1");
  EXPECT_EQ(withKernarg(R"({"kind": "size", "arg": 0})"),
            "a size of 'k' without a dim");
  EXPECT_EQ(withKernarg(R"({"arg": 0})"),
            "a kernarg of 'k' without a kind and an arg");
}

} // namespace
