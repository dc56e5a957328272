//===- GenericRun.cpp - hk-run on any kernel ------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HK/Harness/GenericRun.h"

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Runtime/BFloat16.h"
#include "HK/Runtime/Npy.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstring>
#include <random>

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

/// A kernel's arguments as the configuration gives them: the memory
/// buffers, and each argument's buffer, shape and element type.
struct GenericArguments {
  std::vector<std::vector<uint8_t>> buffers;
  std::vector<int> bufferOf;
  std::vector<std::vector<int64_t>> shapes;
  std::vector<Type> elements;
  /// The bits of scalar argument `i`.
  std::vector<std::optional<uint64_t>> scalars;
  /// The buffer of memory argument `i`, or -1.
  int bufferArg(unsigned i) const {
    return i < bufferOf.size() ? bufferOf[i] : -1;
  }
};

/// A memref argument's bytes from `spec` ("random:SHAPE", ..., or a .npy),
/// its shape into `shape`.
static llvm::Expected<std::vector<uint8_t>>
readMemrefArgument(unsigned i, StringRef spec, MemRefType memref,
                   std::vector<int64_t> &shape, std::mt19937 &rng,
                   std::normal_distribution<float> &normal) {
  Type element = memref.getElementType();
  std::optional<StringRef> npyType = npyTypeOf(element);
  if (!npyType)
    return badInput(llvm::formatv("argument #{0}: hk-run handles bf16, f16, "
                                  "f32 and i32 elements, not {1}",
                                  i, element));
  unsigned elementBytes = element.getIntOrFloatBitWidth() / 8;
  std::vector<uint8_t> bytes;
  auto [init, dims] = spec.split(':');
  if (init.ends_with(".npy")) {
    llvm::Expected<NpyArray> array = readNpy(init);
    if (!array)
      return array.takeError();
    bool asFloat = element.isBF16() && array->dtype == "<f4";
    if (array->dtype != *npyType && !asFloat)
      return badInput(llvm::formatv("'{0}' holds {1}; argument #{2} needs {3}",
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
        return badInput(llvm::formatv("argument #{0}: bad shape '{1}' "
                                      "(expected e.g. 64x64)",
                                      i, dims));
      shape.push_back(n);
    }
    int64_t count = 1;
    for (int64_t n : shape)
      count *= n;
    if (count > (int64_t(1) << 28))
      return badInput(llvm::formatv("argument #{0} is too large", i));
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
        return badInput(llvm::formatv("argument #{0}: '{1}' is not random, "
                                      "zeros, range, out or a .npy file",
                                      i, init));
    }
  }
  if (static_cast<int64_t>(shape.size()) != memref.getRank())
    return badInput(llvm::formatv("argument #{0} has rank {1}, got {2} "
                                  "dimensions",
                                  i, memref.getRank(), shape.size()));
  for (int64_t d = 0; d < memref.getRank(); ++d)
    if (!memref.isDynamicDim(d) && memref.getDimSize(d) != shape[d])
      return badInput(llvm::formatv("argument #{0} has {1} in dimension {2}, "
                                    "got {3}",
                                    i, memref.getDimSize(d), d, shape[d]));
  return std::move(bytes);
}

/// The bits of scalar argument `i` of type `type` from `spec`: an integer,
/// or for f32 a number (rounded to nearest).
static llvm::Expected<uint64_t> readScalarArgument(unsigned i, StringRef spec,
                                                   Type type) {
  if (type.isF32()) {
    double v;
    if (spec.getAsDouble(v))
      return badInput(
          llvm::formatv("argument #{0} is an f32, got '{1}'", i, spec));
    float f = static_cast<float>(v);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return bits;
  }
  if (!type.isIntOrIndex())
    return badInput(llvm::formatv("argument #{0} has type {1}; hk-run passes "
                                  "memrefs, integers and f32",
                                  i, type));
  int64_t v;
  if (spec.getAsInteger(10, v))
    return badInput(
        llvm::formatv("argument #{0} is an integer, got '{1}'", i, spec));
  return static_cast<uint64_t>(v);
}

/// The arguments of `config` for a kernel of argument types `argTypes`,
/// and the kernel's argument list over them into `prepared.abi`.
static llvm::Expected<GenericArguments>
readArguments(const GenericConfig &config, ArrayRef<Type> argTypes,
              PreparedKernel &prepared) {
  if (config.arguments.size() != argTypes.size())
    return badInput(llvm::formatv("'{0}' takes {1} arguments, --arg gives "
                                  "{2}",
                                  prepared.name, argTypes.size(),
                                  config.arguments.size()));
  GenericArguments args;
  args.bufferOf.assign(argTypes.size(), -1);
  args.shapes.resize(argTypes.size());
  args.elements.resize(argTypes.size());
  args.scalars.resize(argTypes.size());
  // One stream for all arguments (the distribution caches a draw).
  std::mt19937 rng(config.run.seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (auto [i, type] : llvm::enumerate(argTypes)) {
    StringRef spec = config.arguments[i];
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref) {
      llvm::Expected<uint64_t> bits = readScalarArgument(i, spec, type);
      if (!bits)
        return bits.takeError();
      prepared.abi.push_back({-1, *bits});
      args.scalars[i] = *bits;
      continue;
    }
    std::vector<int64_t> &shape = args.shapes[i];
    llvm::Expected<std::vector<uint8_t>> bytes =
        readMemrefArgument(i, spec, memref, shape, rng, normal);
    if (!bytes)
      return bytes.takeError();
    args.elements[i] = memref.getElementType();
    args.bufferOf[i] = args.buffers.size();
    prepared.abi.push_back({static_cast<int>(args.buffers.size()), 0});
    for (int64_t d = 0; d < memref.getRank(); ++d)
      if (memref.isDynamicDim(d))
        prepared.abi.push_back({-1, static_cast<uint64_t>(shape[d])});
    args.buffers.push_back(std::move(*bytes));
  }
  return std::move(args);
}

/// The arguments of a generic run as a launch description's kernel reads
/// them: dense row-major memrefs, scalars as their bits.
class GenericProblem : public KernelArguments {
public:
  explicit GenericProblem(const GenericArguments &args) : args(args) {}
  std::optional<int64_t> extent(unsigned arg, int64_t dim) const override {
    if (arg >= args.shapes.size() || dim < 0 ||
        dim >= int64_t(args.shapes[arg].size()))
      return std::nullopt;
    return args.shapes[arg][dim];
  }
  std::optional<int64_t> stride(unsigned arg, int64_t dim) const override {
    if (!extent(arg, dim))
      return std::nullopt;
    int64_t stride = 1;
    for (size_t d = dim + 1; d < args.shapes[arg].size(); ++d)
      stride *= args.shapes[arg][d];
    return stride;
  }
  std::optional<uint64_t> scalarBits(unsigned arg) const override {
    return arg < args.scalars.size() ? args.scalars[arg] : std::nullopt;
  }
  bool isBuffer(unsigned arg) const override {
    return args.bufferArg(arg) >= 0;
  }

private:
  const GenericArguments &args;
};

/// The kernel of hk-compile's launch description `path` for the run's
/// arguments (read into `args`): its code object, argument list and launch
/// shape (--grid, else the description's grid terms).
static llvm::Expected<PreparedKernel>
prepareFromDescription(MLIRContext &context, const GenericConfig &config,
                       const RunConfig &rc, StringRef path,
                       GenericArguments &args) {
  std::unique_ptr<GenericProblem> problem;
  bool hasGrid = false;
  auto readProblem = [&](StringRef name, ArrayRef<Type> types,
                         const KernelArguments *&arguments) -> llvm::Error {
    PreparedKernel read;
    read.name = name.str();
    llvm::Expected<GenericArguments> parsed =
        readArguments(config, types, read);
    if (!parsed)
      return parsed.takeError();
    args = std::move(*parsed);
    problem = std::make_unique<GenericProblem>(args);
    arguments = problem.get();
    return llvm::Error::success();
  };
  auto readDescription = [&](const LaunchDescription::Kernel &kernel) {
    hasGrid = kernel.launch.has_value();
  };
  llvm::Expected<PreparedKernel> prepared =
      prepareFromLaunch(context, rc, path, readProblem, readDescription);
  if (!prepared)
    return prepared.takeError();
  // buildAbi names buffers by argument; the run's buffers skip scalars.
  for (AbiArgument &a : prepared->abi)
    if (a.buffer >= 0)
      a.buffer = args.bufferArg(a.buffer);
  if (!config.grid.empty()) {
    if (config.grid.size() > 3)
      return badInput("--grid takes up to 3 sizes");
    prepared->grid = {1, 1, 1};
    for (auto [d, n] : llvm::enumerate(config.grid))
      prepared->grid[d] = n;
  } else if (!hasGrid) {
    return badInput("'" + path + "' gives no grid for '" + prepared->name +
                    "' (its kernel has no hk.launch): give --grid");
  }
  return prepared;
}

/// The launch shape: the configured grid, else hk.launch evaluated on the
/// arguments' shapes.
static llvm::Error readLaunchShape(const GenericConfig &config,
                                   gpu::GPUFuncOp kernel,
                                   const GenericArguments &args,
                                   PreparedKernel &prepared) {
  auto block = kernel.getKnownBlockSizeAttr();
  if (!block)
    return badInput("'" + prepared.name + "' needs known_block_size");
  prepared.block = {block[0], block[1], block[2]};
  auto launch =
      kernel->getAttrOfType<LaunchAttr>(HKDialect::getLaunchAttrName());
  const std::vector<std::vector<int64_t>> &shapes = args.shapes;
  if (!config.grid.empty()) {
    if (config.grid.size() > 3)
      return badInput("--grid takes up to 3 sizes");
    for (auto [d, n] : llvm::enumerate(config.grid))
      prepared.grid[d] = n;
    return llvm::Error::success();
  }
  if (!launch)
    return badInput("'" + prepared.name + "' has no hk.launch: give --grid");
  for (ArrayRef<SizeTerm> terms : {launch.getGrid(), launch.getDivisible()})
    for (const SizeTerm &t : terms) {
      if (t.arg >= static_cast<int64_t>(shapes.size()) ||
          t.dim >= static_cast<int64_t>(shapes[t.arg].size()))
        return badInput("'" + prepared.name +
                        "' has a launch term hk-run cannot evaluate");
      if (!t.accepts(shapes[t.arg][t.dim]))
        return badInput(llvm::formatv(
            "size {0} (dimension {1} of argument #{2}) is not a multiple "
            "of {3}, which '{4}' requires",
            shapes[t.arg][t.dim], t.dim, t.arg, t.factor, prepared.name));
    }
  for (auto [d, t] : llvm::enumerate(launch.getGrid()))
    prepared.grid[d] = t.divide(shapes[t.arg][t.dim]);
  return llvm::Error::success();
}

/// Checks of the run's options against its arguments, before compiling.
using OptionCheck = llvm::function_ref<llvm::Error(const GenericArguments &)>;

/// The kernel of `rc.inputFile` (hk source, or hk-compile's launch
/// description) ready to launch on the run's arguments, read into `args`
/// and given to `check` before anything is compiled.
static llvm::Expected<PreparedKernel>
prepareGeneric(MLIRContext &context, const GenericConfig &config,
               const RunConfig &rc, Version version, GenericArguments &args,
               OptionCheck check) {
  if (StringRef(rc.inputFile).ends_with(".json")) {
    llvm::Expected<PreparedKernel> prepared =
        prepareFromDescription(context, config, rc, rc.inputFile, args);
    if (!prepared)
      return prepared.takeError();
    if (llvm::Error e = check(args))
      return std::move(e);
    return prepared;
  }
  llvm::Expected<ParsedKernel> parsed = parseKernel(context, rc, rc.inputFile);
  if (!parsed)
    return parsed.takeError();
  PreparedKernel prepared;
  prepared.name = parsed->kernel.getName().str();
  auto argTypes = llvm::to_vector(parsed->kernel.getArgumentTypes());
  llvm::Expected<GenericArguments> read =
      readArguments(config, argTypes, prepared);
  if (!read)
    return read.takeError();
  args = std::move(*read);
  if (llvm::Error e = readLaunchShape(config, parsed->kernel, args, prepared))
    return std::move(e);
  if (llvm::Error e = check(args))
    return std::move(e);
  if (llvm::Error e = compileModule(context, rc, *parsed, prepared, version))
    return std::move(e);
  return std::move(prepared);
}

/// The expected contents of memory arguments, read before the run.
using Expectations = std::vector<std::pair<unsigned, std::vector<uint8_t>>>;
static llvm::Expected<Expectations>
readExpectations(const GenericConfig &config, const GenericArguments &args) {
  Expectations references;
  for (StringRef spec : config.expectations) {
    auto indexed = splitIndexed(spec);
    if (!indexed || args.bufferArg(indexed->first) < 0)
      return badInput("--expect takes I:file.npy with I a memref argument, "
                      "got '" +
                      spec + "'");
    auto [i, path] = *indexed;
    llvm::Expected<NpyArray> expected = readNpy(path);
    if (!expected)
      return expected.takeError();
    Type element = args.elements[i];
    bool asFloat = element.isBF16() && expected->dtype == "<f4";
    if (expected->shape != args.shapes[i] ||
        (expected->dtype != *npyTypeOf(element) && !asFloat))
      return badInput(llvm::formatv("'{0}' does not match argument #{1} "
                                    "(shape and element type)",
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
  return std::move(references);
}

/// The spacing of `element`'s values at `y`, subnormals included (1 for
/// integers).
static double ulpAt(Type element, double y) {
  auto type = dyn_cast<FloatType>(element);
  if (!type)
    return 1;
  const llvm::fltSemantics &semantics = type.getFloatSemantics();
  int precision = llvm::APFloat::semanticsPrecision(semantics);
  int minExponent = llvm::APFloat::semanticsMinExponent(semantics);
  int exponent = y == 0 ? minExponent : std::max(std::ilogb(y), minExponent);
  return std::ldexp(1.0, exponent - (precision - 1));
}

/// Argument `i` after the run against its expected contents, within
/// `tolerance` (by default one rounding of its element type, integers
/// exactly; a NaN matches a NaN and an infinity the same infinity).
static ArgumentCheck checkArgument(unsigned i, Type element,
                                   const std::vector<uint8_t> &got,
                                   const std::vector<uint8_t> &reference,
                                   const ExpectTolerance &tolerance) {
  double rtol = element.isBF16()  ? std::ldexp(1.0, -8)
                : element.isF16() ? std::ldexp(1.0, -11)
                : element.isF32() ? std::ldexp(1.0, -20)
                                  : 0;
  auto allowed = [&](double y) {
    switch (tolerance.kind) {
    case ExpectTolerance::Kind::rounding:
      return rtol * std::fabs(y);
    case ExpectTolerance::Kind::ulps:
      return tolerance.value * ulpAt(element, y);
    case ExpectTolerance::Kind::absolute:
      return tolerance.value;
    }
    return 0.0;
  };
  ArgumentCheck check;
  check.argument = i;
  check.elements = reference.size() / (element.getIntOrFloatBitWidth() / 8);
  for (int64_t e = 0; e < check.elements; ++e) {
    double x = elementValue(got, element, e);
    double y = elementValue(reference, element, e);
    bool same = x == y || (std::isnan(x) && std::isnan(y));
    double err = same                                   ? 0
                 : std::isfinite(x) && std::isfinite(y) ? std::fabs(x - y)
                                                        : INFINITY;
    check.maxAbs = std::max(check.maxAbs, err);
    if (!same && !(std::isfinite(err) && err <= allowed(y)))
      ++check.bad;
  }
  return check;
}

/// TestKind::compare: the bytes of each memory argument that differ from
/// those of the compared kernel run on the same inputs, on its backend.
static llvm::Expected<std::vector<int64_t>>
compareMemory(MLIRContext &context, const GenericConfig &config,
              const PreparedKernel &prepared,
              const std::vector<std::vector<uint8_t>> &inputs,
              const std::vector<std::vector<uint8_t>> &buffers) {
  RunConfig compared = getComparedRunConfig(config.run);
  // The same arguments, drawn again from the same seed; launched on the
  // inputs the tested kernel saw.
  GenericArguments again;
  llvm::Expected<PreparedKernel> second = prepareGeneric(
      context, config, compared, Version::compared, again,
      [](const GenericArguments &) { return llvm::Error::success(); });
  if (!second)
    return second.takeError();
  if (second->grid != prepared.grid)
    return badInput(llvm::formatv(
        "'{0}' launches {1}x{2}x{3} workgroups and "
        "the compared version {4}x{5}x{6}",
        prepared.name, prepared.grid[0], prepared.grid[1], prepared.grid[2],
        second->grid[0], second->grid[1], second->grid[2]));
  std::vector<std::vector<uint8_t>> theirs = inputs;
  std::vector<bool> outputs(theirs.size(), true);
  llvm::Expected<LaunchStats> stats =
      launchKernel(compared, *second, theirs, outputs);
  if (!stats)
    return stats.takeError();
  std::vector<int64_t> differing;
  for (auto [b, mine] : llvm::enumerate(buffers)) {
    int64_t differ = 0;
    for (size_t byte = 0; byte < mine.size(); ++byte)
      differ += mine[byte] != theirs[b][byte];
    differing.push_back(differ);
  }
  return std::move(differing);
}

/// The memory arguments to save after the run, and where ("I:file.npy"),
/// checked before it.
using Saves = std::vector<std::pair<unsigned, std::string>>;
static llvm::Expected<Saves> readSaves(const GenericConfig &config,
                                       const GenericArguments &args) {
  Saves saves;
  for (StringRef spec : config.saves) {
    auto indexed = splitIndexed(spec);
    if (!indexed || args.bufferArg(indexed->first) < 0)
      return badInput("--save takes I:file.npy with I a memref argument, got "
                      "'" +
                      spec + "'");
    saves.push_back({indexed->first, indexed->second.str()});
  }
  return std::move(saves);
}

static llvm::Error writeSaves(const Saves &saves, const GenericArguments &args,
                              std::vector<std::string> &saved) {
  for (const auto &[i, path] : saves) {
    NpyArray array{npyTypeOf(args.elements[i])->str(), args.shapes[i],
                   args.buffers[args.bufferOf[i]]};
    if (llvm::Error e = writeNpy(path, array))
      return e;
    saved.push_back(llvm::formatv(
        "wrote argument #{0} ({1} {2}) to {3}", i,
        llvm::join(llvm::map_range(args.shapes[i],
                                   [](int64_t n) { return std::to_string(n); }),
                   "x"),
        args.elements[i], path));
  }
  return llvm::Error::success();
}

int64_t GenericResult::wrong() const {
  int64_t wrong = 0;
  for (const ArgumentCheck &c : checks)
    wrong += c.bad;
  for (int64_t differ : differingBytes)
    wrong += differ;
  return wrong;
}

llvm::Expected<GenericResult> runGeneric(MLIRContext &context,
                                         const GenericConfig &config) {
  const RunConfig &rc = config.run;
  if (llvm::Error e = checkCompareSettings(rc))
    return std::move(e);
  Expectations references;
  Saves saves;
  auto check = [&](const GenericArguments &args) -> llvm::Error {
    llvm::Expected<Expectations> expected = readExpectations(config, args);
    if (!expected)
      return expected.takeError();
    references = std::move(*expected);
    llvm::Expected<Saves> saved = readSaves(config, args);
    if (!saved)
      return saved.takeError();
    saves = std::move(*saved);
    if (config.expectations.empty() && rc.test != TestKind::compare &&
        config.saves.empty())
      return badInput("nothing to check or save: give --expect=I:file.npy, "
                      "--test=compare or --save=I:file.npy");
    if (config.expectations.empty() &&
        config.tolerance.kind != ExpectTolerance::Kind::rounding)
      return badInput("--expect-tolerance is the tolerance of --expect "
                      "checks: give --expect=I:file.npy");
    return llvm::Error::success();
  };
  GenericArguments args;
  llvm::Expected<PreparedKernel> prepared =
      prepareGeneric(context, config, rc, Version::tested, args, check);
  if (!prepared)
    return prepared.takeError();
  std::vector<bool> outputs(args.buffers.size(), true);
  std::vector<std::vector<uint8_t>> inputs = args.buffers;
  llvm::Expected<LaunchStats> stats =
      launchKernel(rc, *prepared, args.buffers, outputs);
  if (!stats)
    return stats.takeError();

  GenericResult result;
  result.kernel = prepared->name;
  result.grid = prepared->grid;
  result.stats = std::move(*stats);
  for (auto &[i, reference] : references)
    result.checks.push_back(checkArgument(i, args.elements[i],
                                          args.buffers[args.bufferOf[i]],
                                          reference, config.tolerance));
  if (rc.test == TestKind::compare) {
    llvm::Expected<std::vector<int64_t>> differing =
        compareMemory(context, config, *prepared, inputs, args.buffers);
    if (!differing)
      return differing.takeError();
    result.differingBytes = std::move(*differing);
  }
  if (llvm::Error e = writeSaves(saves, args, result.saved))
    return std::move(e);
  return std::move(result);
}

} // namespace mlir::hk::run
