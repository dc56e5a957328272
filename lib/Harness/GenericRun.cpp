//===- GenericRun.cpp - hk-run on any kernel ------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HK/Harness/GenericRun.h"
#include "HK/Harness/Launch.h"

//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/InitAllDialects.h"
#include "HK/Pipelines/Pipelines.h"
#include "HK/Runtime/BFloat16.h"
#include "HK/Runtime/Hip.h"
#include "HK/Runtime/Npy.h"
#include "HK/Runtime/Simulator.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <random>
#include <unordered_set>

using namespace mlir;
using namespace mlir::hk;

namespace mlir::hk::run {

//===----------------------------------------------------------------------===//
// Any kernel: arguments from the command line
//===----------------------------------------------------------------------===//

/// Element kinds generic arguments may have, with their .npy types.
static std::optional<StringRef> npyTypeOf(Type element) {
  if (element.isBF16())
    return StringRef("<u2");
  if (element.isF16())
    return StringRef("<f2");
  if (element.isF32())
    return StringRef("<f4");
  if (element.isInteger(32))
    return StringRef("<i4");
  return std::nullopt;
}

/// Element `i` of a buffer of `element` as a double.
static double elementValue(const std::vector<uint8_t> &bytes, Type element,
                           int64_t i) {
  if (element.isBF16() || element.isF16()) {
    uint16_t h;
    std::memcpy(&h, bytes.data() + 2 * i, 2);
    if (element.isBF16())
      return bf16ToFloat(h);
    return llvm::APFloat(llvm::APFloat::IEEEhalf(), llvm::APInt(16, h))
        .convertToFloat();
  }
  if (element.isF32()) {
    float f;
    std::memcpy(&f, bytes.data() + 4 * i, 4);
    return f;
  }
  int32_t v;
  std::memcpy(&v, bytes.data() + 4 * i, 4);
  return v;
}

/// Stores `value` as element `i` (rounded to nearest even).
static void setElement(std::vector<uint8_t> &bytes, Type element, int64_t i,
                       double value) {
  if (element.isBF16()) {
    uint16_t h = floatToBf16(static_cast<float>(value));
    std::memcpy(bytes.data() + 2 * i, &h, 2);
  } else if (element.isF16()) {
    llvm::APFloat f(static_cast<float>(value));
    bool lost;
    f.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven,
              &lost);
    uint16_t h = f.bitcastToAPInt().getZExtValue();
    std::memcpy(bytes.data() + 2 * i, &h, 2);
  } else if (element.isF32()) {
    float f = static_cast<float>(value);
    std::memcpy(bytes.data() + 4 * i, &f, 4);
  } else {
    int32_t v = static_cast<int32_t>(value);
    std::memcpy(bytes.data() + 4 * i, &v, 4);
  }
}

/// Splits "I:text" (I an argument number).
static std::optional<std::pair<unsigned, StringRef>>
splitIndexed(StringRef spec) {
  auto [index, rest] = spec.split(':');
  unsigned i;
  if (rest.empty() || index.getAsInteger(10, i))
    return std::nullopt;
  return std::make_pair(i, rest);
}

/// Runs the kernel with the arguments of --arg, then checks --expect and
/// --test=compare and writes --save.
int runGeneric(MLIRContext &context) {
  ParsedKernel parsed = parseKernel(context, inputFile);
  gpu::GPUFuncOp kernel = parsed.kernel;
  if (!kernel)
    return 2;
  PreparedKernel prepared;
  prepared.name = kernel.getName().str();
  auto argTypes = llvm::to_vector(kernel.getArgumentTypes());
  if (genericArgs.size() != argTypes.size())
    return fail(llvm::formatv("'{0}' takes {1} arguments, --arg gives {2}",
                              prepared.name, argTypes.size(),
                              genericArgs.size()));

  // The arguments, in order.
  std::vector<std::vector<uint8_t>> buffers;
  std::vector<int> bufferOf(argTypes.size(), -1);
  std::vector<std::vector<int64_t>> shapes(argTypes.size());
  std::vector<Type> elements(argTypes.size());
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (auto [i, type] : llvm::enumerate(argTypes)) {
    StringRef spec = genericArgs[i];
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref) {
      if (!type.isIntOrIndex())
        return fail(llvm::formatv("argument #{0} has type {1}; hk-run passes "
                                  "memrefs and integers",
                                  i, type));
      int64_t v;
      if (spec.getAsInteger(10, v))
        return fail(
            llvm::formatv("argument #{0} is an integer, got '{1}'", i, spec));
      prepared.abi.push_back({-1, static_cast<uint64_t>(v)});
      continue;
    }
    Type element = memref.getElementType();
    std::optional<StringRef> npyType = npyTypeOf(element);
    if (!npyType)
      return fail(llvm::formatv("argument #{0}: hk-run handles bf16, f16, f32 "
                                "and i32 elements, not {1}",
                                i, element));
    elements[i] = element;
    unsigned elementBytes = element.getIntOrFloatBitWidth() / 8;
    std::vector<uint8_t> bytes;
    std::vector<int64_t> &shape = shapes[i];
    auto [init, dims] = spec.split(':');
    if (init.ends_with(".npy")) {
      llvm::Expected<NpyArray> array = readNpy(init);
      if (!array)
        return fail(llvm::toString(array.takeError()));
      bool asFloat = element.isBF16() && array->dtype == "<f4";
      if (array->dtype != *npyType && !asFloat)
        return fail(llvm::formatv("'{0}' holds {1}; argument #{2} needs {3}",
                                  init, array->dtype, i, *npyType));
      shape = array->shape;
      bytes.assign(array->data.size() / (asFloat ? 2 : 1), 0);
      if (asFloat) {
        for (size_t e = 0; e < bytes.size() / 2; ++e) {
          float f;
          std::memcpy(&f, array->data.data() + 4 * e, 4);
          setElement(bytes, element, e, f);
        }
      } else {
        bytes = std::move(array->data);
      }
    } else {
      for (StringRef d : llvm::split(dims, 'x')) {
        int64_t n;
        if (d.getAsInteger(10, n) || n < 1 || n > (int64_t(1) << 24))
          return fail(llvm::formatv("argument #{0}: bad shape '{1}' (expected "
                                    "e.g. 64x64)",
                                    i, dims));
        shape.push_back(n);
      }
      int64_t count = 1;
      for (int64_t n : shape)
        count *= n;
      if (count > (int64_t(1) << 28))
        return fail(llvm::formatv("argument #{0} is too large", i));
      if (init == "out")
        bytes.assign(count * elementBytes, 0xff); // NaN / -1 until written
      else
        bytes.assign(count * elementBytes, 0);
      for (int64_t e = 0; e < count; ++e) {
        if (init == "random")
          setElement(bytes, element, e,
                     element.isInteger(32) ? std::round(normal(rng) * 4)
                                           : normal(rng));
        else if (init == "range")
          setElement(bytes, element, e, double(e % 256));
        else if (init != "zeros" && init != "out")
          return fail(llvm::formatv("argument #{0}: '{1}' is not random, "
                                    "zeros, range, out or a .npy file",
                                    i, init));
      }
    }
    if (static_cast<int64_t>(shape.size()) != memref.getRank())
      return fail(llvm::formatv("argument #{0} has rank {1}, got {2} "
                                "dimensions",
                                i, memref.getRank(), shape.size()));
    for (int64_t d = 0; d < memref.getRank(); ++d)
      if (!memref.isDynamicDim(d) && memref.getDimSize(d) != shape[d])
        return fail(llvm::formatv("argument #{0} has {1} in dimension {2}, "
                                  "got {3}",
                                  i, memref.getDimSize(d), d, shape[d]));
    bufferOf[i] = buffers.size();
    prepared.abi.push_back({static_cast<int>(buffers.size()), 0});
    for (int64_t d = 0; d < memref.getRank(); ++d)
      if (memref.isDynamicDim(d))
        prepared.abi.push_back({-1, static_cast<uint64_t>(shape[d])});
    buffers.push_back(std::move(bytes));
  }

  // Launch shape: --grid, else hk.launch evaluated on the shapes.
  auto block = kernel.getKnownBlockSizeAttr();
  if (!block)
    return fail("'" + prepared.name + "' needs known_block_size");
  prepared.block = {block[0], block[1], block[2]};
  auto launch =
      kernel->getAttrOfType<LaunchAttr>(HKDialect::getLaunchAttrName());
  if (!gridOption.empty()) {
    if (gridOption.size() > 3)
      return fail("--grid takes up to 3 sizes");
    for (auto [d, n] : llvm::enumerate(gridOption))
      prepared.grid[d] = n;
  } else if (launch) {
    for (ArrayRef<SizeTerm> terms : {launch.getGrid(), launch.getDivisible()})
      for (const SizeTerm &t : terms) {
        if (t.arg >= static_cast<int64_t>(shapes.size()) ||
            t.dim >= static_cast<int64_t>(shapes[t.arg].size()))
          return fail("'" + prepared.name +
                      "' has a launch term hk-run cannot evaluate");
        if (!t.accepts(shapes[t.arg][t.dim]))
          return fail(llvm::formatv(
              "size {0} (dimension {1} of argument #{2}) is not a multiple "
              "of {3}, which '{4}' requires",
              shapes[t.arg][t.dim], t.dim, t.arg, t.factor, prepared.name));
      }
    for (auto [d, t] : llvm::enumerate(launch.getGrid()))
      prepared.grid[d] = t.divide(shapes[t.arg][t.dim]);
  } else {
    return fail("'" + prepared.name + "' has no hk.launch: give --grid");
  }

  // Expected results, checked before the run.
  auto bufferArg = [&](unsigned i) -> int {
    return i < bufferOf.size() ? bufferOf[i] : -1;
  };
  std::vector<std::pair<unsigned, std::vector<uint8_t>>> references;
  for (StringRef spec : expectations) {
    auto indexed = splitIndexed(spec);
    if (!indexed || bufferArg(indexed->first) < 0)
      return fail("--expect takes I:file.npy with I a memref argument, got '" +
                  spec + "'");
    auto [i, path] = *indexed;
    llvm::Expected<NpyArray> expected = readNpy(path);
    if (!expected)
      return fail(llvm::toString(expected.takeError()));
    Type element = elements[i];
    bool asFloat = element.isBF16() && expected->dtype == "<f4";
    if (expected->shape != shapes[i] ||
        (expected->dtype != *npyTypeOf(element) && !asFloat))
      return fail(llvm::formatv("'{0}' does not match argument #{1} (shape "
                                "and element type)",
                                path, i));
    std::vector<uint8_t> reference = expected->data;
    if (asFloat) {
      reference.assign(expected->data.size() / 2, 0);
      for (size_t e = 0; e < reference.size() / 2; ++e) {
        float f;
        std::memcpy(&f, expected->data.data() + 4 * e, 4);
        setElement(reference, element, e, f);
      }
    }
    references.push_back({i, std::move(reference)});
  }

  if (expectations.empty() && testKind != TestKind::compare)
    return fail("nothing to check: give --expect=I:file.npy or "
                "--test=compare");
  if (int status =
          compileModule(context, *parsed.module, prepared, Version::tested))
    return status;
  std::vector<bool> outputs(buffers.size(), true);
  std::vector<std::vector<uint8_t>> inputs = buffers;
  LaunchStats stats;
  if (int status = launchKernel(prepared, buffers, outputs, stats))
    return status;

  // Checks.
  int64_t wrong = 0;
  for (auto &[i, reference] : references) {
    Type element = elements[i];
    // One rounding of the element type; integers exactly.
    double rtol = element.isBF16()  ? std::ldexp(1.0, -8)
                  : element.isF16() ? std::ldexp(1.0, -11)
                  : element.isF32() ? std::ldexp(1.0, -20)
                                    : 0;
    const std::vector<uint8_t> &got = buffers[bufferOf[i]];
    int64_t count = reference.size() / (element.getIntOrFloatBitWidth() / 8);
    int64_t bad = 0;
    double maxAbs = 0;
    for (int64_t e = 0; e < count; ++e) {
      double x = elementValue(got, element, e);
      double y = elementValue(reference, element, e);
      double err = std::isnan(x) ? INFINITY : std::fabs(x - y);
      maxAbs = std::max(maxAbs, err);
      if (!(err <= rtol * std::fabs(y)))
        ++bad;
    }
    llvm::outs() << llvm::formatv("  argument #{0}: max abs error {1:E3}, {2} "
                                  "of {3} elements wrong\n",
                                  i, maxAbs, bad, count);
    wrong += bad;
  }
  if (testKind == TestKind::compare) {
    if (compareWith.empty())
      return fail("--test=compare needs --compare=<file.mlir>");
    ParsedKernel other = parseKernel(context, compareWith);
    if (!other.kernel)
      return 2;
    PreparedKernel second = prepared;
    second.name = other.kernel.getName().str();
    if (int status =
            compileModule(context, *other.module, second, Version::compared))
      return status;
    std::vector<std::vector<uint8_t>> theirs = inputs;
    LaunchStats otherStats;
    if (int status = launchKernel(second, theirs, outputs, otherStats))
      return status;
    for (auto [b, mine] : llvm::enumerate(buffers)) {
      int64_t differ = 0;
      for (size_t byte = 0; byte < mine.size(); ++byte)
        differ += mine[byte] != theirs[b][byte];
      llvm::outs() << llvm::formatv("  memory argument {0}: {1} bytes differ "
                                    "from '{2}'\n",
                                    b, differ, compareWith);
      wrong += differ;
    }
  }
  for (StringRef spec : saves) {
    auto indexed = splitIndexed(spec);
    if (!indexed || bufferArg(indexed->first) < 0)
      return fail("--save takes I:file.npy with I a memref argument, got '" +
                  spec + "'");
    auto [i, path] = *indexed;
    NpyArray array{npyTypeOf(elements[i])->str(), shapes[i],
                   buffers[bufferOf[i]]};
    if (llvm::Error e = writeNpy(path, array))
      return fail(llvm::toString(std::move(e)));
  }
  llvm::outs() << llvm::formatv(
      "hk-run: {0} on {1} ({2}), grid {3}x{4}x{5}: {6} wave instructions, "
      "{7:F2} s\n",
      prepared.name, stringifyChip(chipOption),
      backend == Backend::sim ? "sim" : "hip", prepared.grid[0],
      prepared.grid[1], prepared.grid[2], stats.counters.waveInstructions,
      stats.runSeconds);
  llvm::outs() << (wrong == 0 ? "PASS\n" : "FAIL\n");
  return wrong == 0 ? 0 : 1;
}

} // namespace mlir::hk::run
