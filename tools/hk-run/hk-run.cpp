//===- hk-run.cpp - run an hk GEMM kernel and check its results -----------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Compiles an hk GEMM kernel (C[M,N] = A[M,K] @ B[N,K]^T, bf16 in and out),
// runs it on the CPU simulator from the LLVM IR the AMDGPU backend would
// compile, and checks C against an fp64 reference (SPEC section 9):
//
//   hk-run examples/gemm_bf16_gfx950.mlir --chip=gfx950 --size=256,256,128 \
//       --test=random
//
// Exit status: 0 PASS, 1 FAIL, 2 bad input or a simulation error.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/InitAllDialects.h"
#include "HK/Pipelines/Pipelines.h"
#include "HK/Tools/InputLimits.h"
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

/// The tool's own options; --help lists only these, not LLVM's.
static llvm::cl::OptionCategory toolOptions("hk-run options");

static llvm::cl::opt<std::string> inputFile(
    llvm::cl::Positional, llvm::cl::Required, llvm::cl::cat(toolOptions),
    llvm::cl::desc("<hk GEMM source (.mlir), or the launch description "
                   "(.json) of a kernel compiled by hk-compile>"));
static llvm::cl::opt<Chip> chipOption("chip", llvm::cl::Required,
                                      llvm::cl::cat(toolOptions),
                                      llvm::cl::desc("the chip to compile for"),
                                      chipOptionValues());
static llvm::cl::list<int64_t>
    sizes("size", llvm::cl::CommaSeparated, llvm::cl::cat(toolOptions),
          llvm::cl::desc("GEMM: M,N,K of C[M,N] = A[M,K] @ B[N,K]^T"));
static llvm::cl::list<std::string> genericArgs(
    "arg", llvm::cl::cat(toolOptions),
    llvm::cl::desc("any kernel: one per argument, in order: an integer, or "
                   "for a memref random:SHAPE, zeros:SHAPE, range:SHAPE (the "
                   "flat index mod 256), out:SHAPE (unset) or a .npy file; "
                   "SHAPE like 64x64"),
    llvm::cl::value_desc("spec"));
static llvm::cl::list<int64_t>
    gridOption("grid", llvm::cl::CommaSeparated, llvm::cl::cat(toolOptions),
               llvm::cl::desc("any kernel: the grid, when it has no "
                              "hk.launch"));
static llvm::cl::list<std::string> expectations(
    "expect", llvm::cl::cat(toolOptions),
    llvm::cl::desc("any kernel: memref argument I must match the .npy after "
                   "the run (within one rounding of its element type)"),
    llvm::cl::value_desc("I:file.npy"));
static llvm::cl::list<std::string>
    saves("save", llvm::cl::cat(toolOptions),
          llvm::cl::desc("any kernel: write memref argument I"),
          llvm::cl::value_desc("I:file.npy"));
enum class TestKind { identity, random, expected, compare };
static llvm::cl::opt<TestKind> testKind(
    "test", llvm::cl::init(TestKind::random), llvm::cl::cat(toolOptions),
    llvm::cl::desc("the inputs and the check"),
    llvm::cl::values(
        clEnumValN(TestKind::identity, "identity",
                   "B = identity (N = K); C must equal A bit for bit"),
        clEnumValN(TestKind::random, "random",
                   "A, B ~ N(0, 1) in bf16 (or --a/--b); C within one bf16 "
                   "rounding of the fp64 product"),
        clEnumValN(TestKind::expected, "expected",
                   "C within one bf16 rounding of --expected"),
        clEnumValN(TestKind::compare, "compare",
                   "C equal bit for bit to that of --compare")));
static llvm::cl::opt<std::string>
    inputA("a", llvm::cl::cat(toolOptions),
           llvm::cl::desc("A: random (N(0, 1), the default), zeros, range "
                          "((row + col) % 16 - 8) or a .npy (M x K, float32 "
                          "rounded to bf16, or uint16 bf16 bits)"),
           llvm::cl::value_desc("random|zeros|range|file.npy"));
static llvm::cl::opt<std::string>
    inputB("b", llvm::cl::cat(toolOptions),
           llvm::cl::desc("B (N x K), like --a"),
           llvm::cl::value_desc("random|zeros|range|file.npy"));
static llvm::cl::opt<std::string>
    expectedFile("expected", llvm::cl::cat(toolOptions),
                 llvm::cl::desc("expected C (M x N, float32 .npy) for "
                                "--test=expected"),
                 llvm::cl::value_desc("file.npy"));
enum class Backend { sim, hip };
static llvm::cl::opt<Backend> backend(
    "backend", llvm::cl::init(Backend::sim), llvm::cl::cat(toolOptions),
    llvm::cl::desc("where the kernel runs"),
    llvm::cl::values(
        clEnumValN(Backend::sim, "sim",
                   "the CPU simulator, from the kernel's LLVM IR"),
        clEnumValN(Backend::hip, "hip",
                   "an AMD GPU through libamdhip64.so (exit status 3 when "
                   "there is no HIP runtime or no GPU)")));
static llvm::cl::opt<int> warmup("warmup", llvm::cl::init(3),
                                 llvm::cl::cat(toolOptions),
                                 llvm::cl::desc("hip: untimed launches"));
static llvm::cl::opt<int>
    iterations("iterations", llvm::cl::init(10), llvm::cl::cat(toolOptions),
               llvm::cl::desc("hip: timed launches (the median is reported)"));
static llvm::cl::opt<uint64_t> checkSample(
    "check-sample", llvm::cl::init(0), llvm::cl::cat(toolOptions),
    llvm::cl::desc("GEMM: check this many distinct elements of C, drawn at "
                   "random (0, the default, or more than half of C: all of "
                   "them); for sizes where the fp64 reference of every "
                   "element would take minutes"));
enum class Baseline { none, rocblas };
static llvm::cl::opt<Baseline> baseline(
    "baseline", llvm::cl::init(Baseline::none), llvm::cl::cat(toolOptions),
    llvm::cl::desc("hip, GEMM: also run, check and time the same product "
                   "through a vendor library, side by side"),
    llvm::cl::values(clEnumValN(Baseline::none, "none", "no baseline"),
                     clEnumValN(Baseline::rocblas, "rocblas",
                                "rocblas_gemm_ex from librocblas.so (skipped "
                                "with a note when it is not installed)")));
static llvm::cl::opt<bool>
    emitJson("json", llvm::cl::cat(toolOptions),
             llvm::cl::desc("print the summary as one JSON object"));
static llvm::cl::opt<std::string>
    outputFile("out", llvm::cl::cat(toolOptions),
               llvm::cl::desc("write C to a .npy (float32)"),
               llvm::cl::value_desc("file.npy"));
static llvm::cl::opt<std::string>
    kernelName("kernel", llvm::cl::cat(toolOptions),
               llvm::cl::desc("the kernel to run, when the source has several"),
               llvm::cl::value_desc("name"));
static llvm::cl::opt<std::string> compareWith(
    "compare", llvm::cl::cat(toolOptions),
    llvm::cl::desc("for --test=compare: another hk source computing the same "
                   "GEMM (e.g. another pipeline variant); C must match it bit "
                   "for bit"),
    llvm::cl::value_desc("file.mlir"));
static ScheduleCLOptions schedule(toolOptions);
static llvm::cl::opt<unsigned> compareStages(
    "compare-stages", llvm::cl::cat(toolOptions),
    llvm::cl::desc("for --test=compare: compile the other version as the "
                   "plain baseline with this many stages (no direct-LDS, "
                   "priority or unrolling, row-major workgroup order); "
                   "without it the other version gets the same pipeline "
                   "options"));
static llvm::cl::opt<unsigned> seed("seed", llvm::cl::init(1),
                                    llvm::cl::cat(toolOptions),
                                    llvm::cl::desc("random seed"));
static llvm::cl::opt<uint64_t>
    stepLimit("step-limit", llvm::cl::init(uint64_t(1) << 28),
              llvm::cl::cat(toolOptions),
              llvm::cl::desc("wave instructions one wave may execute"));

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "hk-run") << message << "\n";
  return 2;
}

/// Fills a rows x cols matrix of bf16 bits as `spec` says: empty or
/// "random" keeps what is there (seeded N(0, 1)), "zeros", "range" (small
/// exact integers (row + col) % 16 - 8), or a .npy file: float32 values are
/// rounded to nearest even, uint16 values are taken as bf16 bits.
static llvm::Error fillMatrix(StringRef spec, int64_t rows, int64_t cols,
                              std::vector<uint16_t> &out) {
  if (spec.empty() || spec == "random")
    return llvm::Error::success();
  if (spec == "zeros" || spec == "range") {
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        out[r * cols + c] =
            spec == "zeros" ? 0 : floatToBf16(float((r + c) % 16 - 8));
    return llvm::Error::success();
  }
  StringRef path = spec;
  llvm::Expected<NpyArray> array = readNpy(path);
  if (!array)
    return array.takeError();
  if (array->shape != std::vector<int64_t>{rows, cols})
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("'{0}' has shape ({1}), the kernel needs ({2}, {3})",
                      path,
                      llvm::join(llvm::map_range(array->shape,
                                                 [](int64_t n) {
                                                   return std::to_string(n);
                                                 }),
                                 ", "),
                      rows, cols));
  if (array->dtype == "<u2") {
    std::memcpy(out.data(), array->data.data(), rows * cols * 2);
  } else if (array->dtype == "<f4") {
    for (int64_t i = 0; i < rows * cols; ++i) {
      float f;
      std::memcpy(&f, array->data.data() + 4 * i, 4);
      out[i] = floatToBf16(f);
    }
  } else {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "'" + path + "' holds " + array->dtype +
            "; hk-run reads float32 (<f4) or bf16 bits (<u2)");
  }
  return llvm::Error::success();
}

/// A kernel ready to run: its launch shape, argument list and image (LLVM
/// bitcode or text for sim, a code object for hip).
struct AbiArgument {
  int buffer = -1;    // index of a memory argument, or -1 for a value
  uint64_t value = 0; // the value (a size, a scalar)
};
struct PreparedKernel {
  std::string name;
  std::array<int64_t, 3> grid = {1, 1, 1}, block = {1, 1, 1};
  std::vector<AbiArgument> abi;
  std::string image;
  bool imageIsBitcode = true;
  double compileSeconds = 0;
};

/// Checks M, N, K against the kernel's launch terms (argument sizes: A is
/// M x K, B is N x K, C is M x N) and computes the grid.
static int applyLaunchTerms(StringRef kernel, ArrayRef<SizeTerm> grid,
                            ArrayRef<SizeTerm> divisible,
                            const int64_t dims[3][2],
                            std::array<int64_t, 3> &out) {
  for (ArrayRef<SizeTerm> terms : {grid, divisible})
    for (const SizeTerm &t : terms) {
      if (t.arg < 0 || t.arg > 2 || t.dim < 0 || t.dim > 1 || t.factor < 1)
        return fail(llvm::formatv("'{0}' has a launch term arg{1}[{2}] that "
                                  "is not a size of A, B or C",
                                  kernel, t.arg, t.dim));
      if (dims[t.arg][t.dim] % t.factor != 0)
        return fail(llvm::formatv(
            "size {0} (dimension {1} of argument #{2}) is not a multiple of "
            "{3}, which '{4}' requires",
            dims[t.arg][t.dim], t.dim, t.arg, t.factor, kernel));
    }
  if (grid.size() > 3)
    return fail("'" + kernel + "' has more than 3 grid terms");
  out = {1, 1, 1};
  for (auto [i, t] : llvm::enumerate(grid))
    out[i] = dims[t.arg][t.dim] / t.factor;
  return 0;
}

/// What one compile-and-run of a GEMM kernel produced.
struct GemmRun {
  std::string kernel;
  std::array<int64_t, 3> grid = {1, 1, 1};
  std::vector<uint8_t> c;
  sim::Counters counters;
  hip::Timing timing;
  double compileSeconds = 0, runSeconds = 0;
};

/// Compiles the GEMM kernel of the hk source `path` (the one named --kernel,
/// or the only one) for the selected backend, after checking the sizes
/// against its launch shape. Returns 0, or the exit status to fail with
/// after printing why.
/// The kernel of `module` named --kernel, or its only kernel; null after
/// printing why when there is no such kernel.
static gpu::GPUFuncOp selectKernel(ModuleOp module, StringRef path) {
  SmallVector<gpu::GPUFuncOp> kernels;
  module.walk([&](gpu::GPUFuncOp f) {
    if (f.isKernel() && (kernelName.empty() || f.getName() == kernelName))
      kernels.push_back(f);
  });
  if (kernels.size() != 1) {
    if (!kernelName.empty()) {
      std::string names;
      module.walk([&](gpu::GPUFuncOp f) {
        if (f.isKernel())
          names += (names.empty() ? "" : ", ") + f.getName().str();
      });
      fail(llvm::formatv("'{0}' has no kernel named '{1}' (its kernels: {2})",
                         path, kernelName, names.empty() ? "none" : names));
      return nullptr;
    }
    fail(llvm::formatv("'{0}' must hold exactly one kernel, found {1}; "
                       "choose one with --kernel",
                       path, kernels.size()));
    return nullptr;
  }
  return kernels.front();
}

/// Which kernel of a run is being compiled: the one under test, or the
/// other version of --test=compare.
enum class Version { tested, compared };

/// Compiles `module` for the selected backend into `run.image`. The compared
/// version is the plain baseline with --compare-stages stages when that is
/// given; otherwise both get the same pipeline options.
static int compileModule(MLIRContext &context, ModuleOp module,
                         PreparedKernel &run, Version version) {
  auto compileStart = std::chrono::steady_clock::now();
  PassManager pm(&context);
  HKPipelineOptions options;
  options.chip = chipOption;
  if (version == Version::compared && compareStages.getNumOccurrences())
    options.stages = compareStages.getValue();
  else
    schedule.applyTo(options);
  std::string invalid = checkPipelineOptions(options);
  if (!invalid.empty()) {
    llvm::WithColor::error(llvm::errs(), "hk-run") << invalid << "\n";
    return 2;
  }
  buildHKToROCDLPipeline(pm, options);
  if (failed(pm.run(module)))
    return 2;
  FailureOr<std::string> compiled =
      serializeGpuModule(module, backend == Backend::sim ? "llvm" : "bin");
  if (failed(compiled))
    return 2;
  run.image = std::move(*compiled);
  run.compileSeconds = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - compileStart)
                           .count();
  return 0;
}

static OwningOpRef<ModuleOp> parseModule(MLIRContext &context, StringRef path,
                                         llvm::SourceMgr &sourceMgr) {
  return parseCheckedSourceFile(path, sourceMgr, &context);
}

static int prepareFromSource(MLIRContext &context, StringRef path, int64_t M,
                             int64_t N, int64_t K, PreparedKernel &run,
                             Version version) {
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseModule(context, path, sourceMgr);
  if (!module)
    return 2;
  gpu::GPUFuncOp kernel = selectKernel(*module, path);
  if (!kernel)
    return 2;
  run.name = kernel.getName().str();
  auto argTypes = llvm::to_vector(kernel.getArgumentTypes());
  auto bf16Matrix = [](Type t) {
    auto m = dyn_cast<MemRefType>(t);
    return m && m.getRank() == 2 && m.getElementType().isBF16();
  };
  if (argTypes.size() != 3 || !llvm::all_of(argTypes, bf16Matrix))
    return fail("'" + run.name +
                "' is not a GEMM kernel (A, B, C: 2-D bf16 memrefs)");
  auto block = kernel.getKnownBlockSizeAttr();
  auto launch =
      kernel->getAttrOfType<LaunchAttr>(HKDialect::getLaunchAttrName());
  if (!block || !launch)
    return fail("'" + run.name +
                "' needs known_block_size and hk.launch to be launched");
  // Argument sizes: A is M x K, B is N x K, C is M x N.
  int64_t dims[3][2] = {{M, K}, {N, K}, {M, N}};
  for (auto [i, type] : llvm::enumerate(argTypes))
    for (int64_t d = 0; d < 2; ++d) {
      int64_t fixed = cast<MemRefType>(type).getDimSize(d);
      if (!ShapedType::isDynamic(fixed) && fixed != dims[i][d])
        return fail(llvm::formatv("argument #{0} of '{1}' has {2} in "
                                  "dimension {3}, the sizes give {4}",
                                  i, run.name, fixed, d, dims[i][d]));
    }
  if (int status = applyLaunchTerms(run.name, launch.getGrid(),
                                    launch.getDivisible(), dims, run.grid))
    return status;
  run.block = {block[0], block[1], block[2]};

  // Compile to the LLVM IR the backend would get (sim), or the code object.
  if (int status = compileModule(context, *module, run, version))
    return status;

  // The kernel ABI: each memref is a pointer and its dynamic sizes.
  for (unsigned i = 0; i < 3; ++i) {
    run.abi.push_back({static_cast<int>(i), 0});
    auto type = cast<MemRefType>(argTypes[i]);
    for (int64_t d = 0; d < 2; ++d)
      if (type.isDynamicDim(d))
        run.abi.push_back({-1, static_cast<uint32_t>(dims[i][d])});
  }
  return 0;
}

/// Reads a kernel compiled by `hk-compile --launch=<path>` (with
/// `--llvm-ir` for sim): the launch description, and the code object or the
/// LLVM IR it names (relative to the description's directory).
static int prepareFromLaunch(StringRef path, int64_t M, int64_t N, int64_t K,
                             PreparedKernel &run) {
  auto text = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!text)
    return fail("cannot read '" + path + "': " + text.getError().message());
  llvm::Expected<llvm::json::Value> parsed =
      llvm::json::parse((*text)->getBuffer());
  if (!parsed)
    return fail("'" + path + "' is not a launch description: " +
                llvm::toString(parsed.takeError()));
  auto bad = [&](const llvm::Twine &what) {
    return fail("'" + path + "' is not a launch description: " + what);
  };
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root)
    return bad("not a JSON object");
  std::optional<StringRef> chip = root->getString("chip");
  if (!chip || symbolizeChip(*chip) != chipOption.getValue())
    return fail(llvm::formatv("'{0}' was compiled for {1}, not {2}", path,
                              chip ? *chip : "no chip",
                              stringifyChip(chipOption)));
  StringRef fileKey = backend == Backend::sim ? "llvm_ir" : "code_object";
  std::optional<StringRef> file = root->getString(fileKey);
  if (!file)
    return bad("no '" + fileKey + "'" +
               (backend == Backend::sim
                    ? " (compile with hk-compile --llvm-ir for sim)"
                    : ""));
  llvm::SmallString<256> imagePath(llvm::sys::path::parent_path(path));
  llvm::sys::path::append(imagePath, *file);
  auto image = llvm::MemoryBuffer::getFile(imagePath, /*IsText=*/false);
  if (!image)
    return fail("cannot read '" + imagePath +
                "': " + image.getError().message());
  run.image = (*image)->getBuffer().str();
  run.imageIsBitcode = false; // sim reads the LLVM IR as text

  const llvm::json::Array *kernels = root->getArray("kernels");
  if (!kernels)
    return bad("no kernels");
  const llvm::json::Object *kernel = nullptr;
  std::string names;
  for (const llvm::json::Value &k : *kernels) {
    const llvm::json::Object *o = k.getAsObject();
    std::optional<StringRef> name = o ? o->getString("name") : std::nullopt;
    if (!name)
      return bad("a kernel without a name");
    names += (names.empty() ? "" : ", ") + name->str();
    if (kernelName.empty() ? kernels->size() == 1 : *name == kernelName)
      kernel = o;
  }
  if (!kernel)
    return fail(kernelName.empty()
                    ? llvm::formatv("'{0}' describes {1} kernels; choose one "
                                    "with --kernel",
                                    path, kernels->size())
                          .str()
                    : llvm::formatv("'{0}' has no kernel named '{1}' (its "
                                    "kernels: {2})",
                                    path, kernelName, names)
                          .str());
  run.name = kernel->getString("name")->str();

  auto readTerms = [&](StringRef key, StringRef factor,
                       SmallVectorImpl<SizeTerm> &terms) -> bool {
    const llvm::json::Array *list = kernel->getArray(key);
    if (!list)
      return key == "divisible";
    for (const llvm::json::Value &v : *list) {
      const llvm::json::Object *o = v.getAsObject();
      auto arg = o ? o->getInteger("arg") : std::nullopt;
      auto dim = o ? o->getInteger("dim") : std::nullopt;
      auto f = o ? o->getInteger(factor) : std::nullopt;
      if (!arg || !dim || !f)
        return false;
      terms.push_back({*arg, *dim, *f});
    }
    return true;
  };
  SmallVector<SizeTerm> grid, divisible;
  if (!readTerms("grid", "tile", grid) ||
      !readTerms("divisible", "by", divisible))
    return bad("malformed grid or divisible terms of '" + run.name + "'");
  const llvm::json::Array *block = kernel->getArray("block");
  if (!block || block->size() != 3)
    return bad("'" + run.name + "' has no block of 3 sizes");
  for (unsigned i = 0; i < 3; ++i) {
    std::optional<int64_t> n = (*block)[i].getAsInteger();
    if (!n)
      return bad("'" + run.name + "' has a non-integer block size");
    run.block[i] = *n;
  }
  int64_t dims[3][2] = {{M, K}, {N, K}, {M, N}};
  if (int status = applyLaunchTerms(run.name, grid, divisible, dims, run.grid))
    return status;

  // The argument list, as the description spells it out.
  const llvm::json::Array *kernargs = kernel->getArray("kernargs");
  if (!kernargs)
    return bad("'" + run.name + "' has no kernargs");
  for (const llvm::json::Value &v : *kernargs) {
    const llvm::json::Object *o = v.getAsObject();
    std::optional<StringRef> kind = o ? o->getString("kind") : std::nullopt;
    std::optional<int64_t> arg = o ? o->getInteger("arg") : std::nullopt;
    if (!kind || !arg || *arg < 0 || *arg > 2)
      return fail("'" + run.name +
                  "' is not a GEMM kernel (A, B, C: 2-D bf16 memrefs)");
    if (*kind == "pointer") {
      if (o->getString("element") != StringRef("bf16"))
        return fail("'" + run.name +
                    "' is not a GEMM kernel (A, B, C: 2-D bf16 memrefs)");
      run.abi.push_back({static_cast<int>(*arg), 0});
    } else if (*kind == "size") {
      std::optional<int64_t> dim = o->getInteger("dim");
      if (!dim || *dim < 0 || *dim > 1)
        return bad("a size of '" + run.name + "' without a valid dim");
      run.abi.push_back({-1, static_cast<uint32_t>(dims[*arg][*dim])});
    } else {
      return fail("'" + run.name +
                  "' is not a GEMM kernel (A, B, C: 2-D bf16 memrefs)");
    }
  }
  return 0;
}

/// Runs `kernel` on the selected backend with A and B; C comes back in
/// `run`. Returns 0, or the exit status to fail with after printing why.
/// Work counted and time taken by one launch.
struct LaunchStats {
  sim::Counters counters;
  hip::Timing timing;
  double runSeconds = 0;
};

/// Runs `kernel` on the selected backend. `buffers` are the kernel's memory
/// arguments (indexed by AbiArgument::buffer); they hold the results
/// afterwards (on hip, those marked in `outputs`). Returns 0, or the exit
/// status to fail with after printing why.
static int launchKernel(const PreparedKernel &kernel,
                        std::vector<std::vector<uint8_t>> &buffers,
                        const std::vector<bool> &outputs, LaunchStats &stats) {
  auto runStart = std::chrono::steady_clock::now();
  if (backend == Backend::sim) {
    llvm::LLVMContext llvmContext;
    llvm::SMDiagnostic diag;
    std::unique_ptr<llvm::Module> module;
    if (kernel.imageIsBitcode) {
      auto parsed = llvm::parseBitcodeFile(
          llvm::MemoryBufferRef(kernel.image, "kernel"), llvmContext);
      if (!parsed)
        return fail(llvm::toString(parsed.takeError()));
      module = std::move(*parsed);
    } else {
      module = llvm::parseAssemblyString(kernel.image, diag, llvmContext);
      if (!module)
        return fail("the kernel's LLVM IR does not parse: " +
                    diag.getMessage());
    }
    sim::GlobalMemory memory;
    std::vector<uint64_t> addresses;
    for (auto [i, buffer] : llvm::enumerate(buffers)) {
      addresses.push_back(
          memory.allocate("argument #" + std::to_string(i), buffer.size()));
      memory.bytes(addresses.back()) = buffer;
    }
    sim::LaunchConfig config;
    config.grid = kernel.grid;
    config.block = kernel.block;
    config.stepLimit = stepLimit;
    for (const AbiArgument &arg : kernel.abi)
      config.arguments.push_back(arg.buffer >= 0 ? addresses[arg.buffer]
                                                 : arg.value);
    if (llvm::Error e = sim::run(*module, kernel.name, getChipInfo(chipOption),
                                 config, memory, stats.counters)) {
      std::string race;
      llvm::Error other = llvm::handleErrors(
          std::move(e), [&](const sim::RaceError &r) { race = r.message(); });
      if (!race.empty()) {
        llvm::errs() << race << "\nFAIL\n";
        return 1;
      }
      return fail("simulation failed: " + llvm::toString(std::move(other)));
    }
    for (auto [i, buffer] : llvm::enumerate(buffers))
      buffer = memory.bytes(addresses[i]);
  } else {
    std::vector<hip::Argument> arguments;
    for (const AbiArgument &arg : kernel.abi) {
      if (arg.buffer >= 0) {
        arguments.push_back(
            {&buffers[arg.buffer], static_cast<bool>(outputs[arg.buffer]), 0});
        continue;
      }
      if (arg.value > UINT32_MAX)
        return fail(llvm::formatv("argument value {0} does not fit the 32 "
                                  "bits the hip backend passes",
                                  arg.value));
      arguments.push_back({nullptr, false, static_cast<uint32_t>(arg.value)});
    }
    llvm::Expected<hip::Timing> timed =
        hip::run(kernel.image, kernel.name, kernel.grid, kernel.block,
                 arguments, warmup, iterations);
    if (!timed) {
      std::string message;
      bool unavailable = false;
      llvm::handleAllErrors(
          timed.takeError(),
          [&](const hip::UnavailableError &e) {
            unavailable = true;
            message = e.message();
          },
          [&](const llvm::ErrorInfoBase &e) { message = e.message(); });
      fail(message + (unavailable ? "; --backend=sim runs anywhere" : ""));
      return unavailable ? 3 : 2;
    }
    stats.timing = *timed;
  }
  stats.runSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - runStart)
          .count();
  return 0;
}

/// Runs a GEMM kernel on A and B; C comes back in `run`.
static int execute(const PreparedKernel &kernel, int64_t M, int64_t N,
                   const std::vector<uint8_t> &bytesA,
                   const std::vector<uint8_t> &bytesB, GemmRun &run) {
  run.kernel = kernel.name;
  run.grid = kernel.grid;
  run.compileSeconds = kernel.compileSeconds;
  // C starts as NaN, so an unwritten element cannot pass.
  std::vector<std::vector<uint8_t>> buffers = {
      bytesA, bytesB, std::vector<uint8_t>(M * N * 2, 0xff)};
  LaunchStats stats;
  if (int status = launchKernel(kernel, buffers, {false, false, true}, stats))
    return status;
  run.c = std::move(buffers[2]);
  run.counters = std::move(stats.counters);
  run.timing = std::move(stats.timing);
  run.runSeconds = stats.runSeconds;
  return 0;
}

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
static int runGeneric(MLIRContext &context) {
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseModule(context, inputFile, sourceMgr);
  if (!module)
    return 2;
  gpu::GPUFuncOp kernel = selectKernel(*module, inputFile);
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
        if (shapes[t.arg][t.dim] % t.factor != 0)
          return fail(llvm::formatv(
              "size {0} (dimension {1} of argument #{2}) is not a multiple "
              "of {3}, which '{4}' requires",
              shapes[t.arg][t.dim], t.dim, t.arg, t.factor, prepared.name));
      }
    for (auto [d, t] : llvm::enumerate(launch.getGrid()))
      prepared.grid[d] = shapes[t.arg][t.dim] / t.factor;
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
  if (int status = compileModule(context, *module, prepared, Version::tested))
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
    llvm::SourceMgr otherMgr;
    SourceMgrDiagnosticHandler otherDiagnostics(otherMgr, &context);
    OwningOpRef<ModuleOp> other = parseModule(context, compareWith, otherMgr);
    if (!other)
      return 2;
    PreparedKernel second = prepared;
    gpu::GPUFuncOp otherKernel = selectKernel(*other, compareWith);
    if (!otherKernel)
      return 2;
    second.name = otherKernel.getName().str();
    if (int status = compileModule(context, *other, second, Version::compared))
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

/// How C compares with what the test expects of it.
struct GemmCheck {
  double maxAbs = 0, maxRel = 0;
  int64_t bad = 0;     // elements outside the tolerance
  int64_t checked = 0; // elements looked at (--check-sample)
};

/// Checks C (bf16 bits, M x N) against the test: A itself (identity), the
/// other version's C bit for bit (compare, when `other` is given), the
/// --expected array, or else the fp64 product of A and B. Looks at every
/// element, or at --check-sample random ones; prints the first mismatches.
static GemmCheck checkGemm(const std::vector<uint8_t> &c,
                           const std::vector<uint16_t> &a,
                           const std::vector<uint16_t> &b, int64_t M, int64_t N,
                           int64_t K, const std::vector<uint8_t> *other,
                           const std::vector<float> &expected) {
  GemmCheck r;
  int64_t shown = 0;
  // Against a float reference, C may be one bf16 rounding of the result
  // (2^-8 relative) off, plus fp32 accumulation error, which grows like
  // sqrt(K).
  double accumulationError = std::ldexp(std::sqrt(double(K)), -12);
  auto checkElement = [&](int64_t m, int64_t n) {
    uint16_t got;
    std::memcpy(&got, c.data() + 2 * (m * N + n), 2);
    double value = bf16ToFloat(got);
    double ref = 0;
    bool ok;
    if (testKind == TestKind::identity) {
      ref = bf16ToFloat(a[m * K + n]);
      ok = got == a[m * K + n];
    } else if (other) {
      uint16_t theirs;
      std::memcpy(&theirs, other->data() + 2 * (m * N + n), 2);
      ref = bf16ToFloat(theirs);
      ok = got == theirs;
    } else {
      if (testKind == TestKind::expected)
        ref = expected[m * N + n];
      else
        for (int64_t k = 0; k < K; ++k)
          ref += double(bf16ToFloat(a[m * K + k])) * bf16ToFloat(b[n * K + k]);
      ok = std::fabs(value - ref) <=
           std::ldexp(std::fabs(ref), -8) + accumulationError;
    }
    double err = std::fabs(value - ref);
    if (std::isnan(value))
      err = INFINITY;
    r.maxAbs = std::max(r.maxAbs, err);
    // Relative error where it means something: away from zero.
    if (std::fabs(ref) > accumulationError)
      r.maxRel = std::max(r.maxRel, err / std::fabs(ref));
    ++r.checked;
    if (!ok) {
      ++r.bad;
      if (shown++ < 5)
        llvm::errs() << llvm::formatv("mismatch at C[{0}][{1}]: got {2}, "
                                      "expected {3}\n",
                                      m, n, value, ref);
    }
  };
  // A sample of more than half of C costs about as much as all of it, and
  // drawing it distinct would take ever longer: check everything instead.
  if (checkSample == 0 || checkSample > uint64_t(M * N) / 2) {
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n)
        checkElement(m, n);
    return r;
  }
  // Distinct elements, so that the count checked is the count asked for.
  std::mt19937_64 rng(seed + 1);
  std::uniform_int_distribution<int64_t> element(0, M * N - 1);
  std::unordered_set<int64_t> seen;
  while (seen.size() < checkSample) {
    int64_t e = element(rng);
    if (seen.insert(e).second)
      checkElement(e / N, e % N);
  }
  return r;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // Bad options are bad input: exit status 2, not FAIL.
  llvm::cl::HideUnrelatedOptions(toolOptions);
  if (!llvm::cl::ParseCommandLineOptions(
          argc, argv,
          "hk-run: run an hk GEMM on the CPU simulator and check it\n",
          &llvm::errs()))
    return 2;
  if (!genericArgs.empty()) {
    DialectRegistry registry;
    registerAllDialects(registry);
    MLIRContext context(registry);
    return runGeneric(context);
  }
  if (sizes.size() != 3)
    return fail("--size takes M,N,K (or give every argument with --arg)");
  int64_t M = sizes[0], N = sizes[1], K = sizes[2];
  // Past 32768 the host buffers reach gigabytes: beyond what hk-run is for.
  constexpr int64_t kMaxSize = 32768;
  if (M <= 0 || N <= 0 || K <= 0 || M > kMaxSize || N > kMaxSize ||
      K > kMaxSize)
    return fail(llvm::formatv("sizes must be between 1 and {0}, got "
                              "{1},{2},{3}",
                              kMaxSize, M, N, K));
  if (backend == Backend::hip && (iterations < 1 || warmup < 0))
    return fail(llvm::formatv("--iterations must be at least 1 and --warmup "
                              "at least 0, got {0} and {1}",
                              iterations.getValue(), warmup.getValue()));
  if (baseline != Baseline::none && backend != Backend::hip)
    return fail("--baseline times a vendor library on a GPU: it needs "
                "--backend=hip");
  if (testKind == TestKind::identity && !inputB.empty())
    return fail("the identity test sets B itself; --b does not go with it");
  if (testKind == TestKind::identity && N != K)
    return fail(llvm::formatv("the identity test needs N = K, got N = {0}, "
                              "K = {1}",
                              N, K));

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);

  // Inputs.
  std::vector<uint16_t> a(M * K), b(N * K);
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (uint16_t &x : a)
    x = floatToBf16(normal(rng));
  if (testKind == TestKind::identity) {
    for (int64_t n = 0; n < N; ++n)
      for (int64_t k = 0; k < K; ++k)
        b[n * K + k] = n == k ? floatToBf16(1.0f) : 0;
  } else {
    for (uint16_t &x : b)
      x = floatToBf16(normal(rng));
  }
  if (llvm::Error e = fillMatrix(inputA, M, K, a))
    return fail(llvm::toString(std::move(e)));
  if (llvm::Error e = fillMatrix(inputB, N, K, b))
    return fail(llvm::toString(std::move(e)));
  std::vector<float> expected;
  if (testKind == TestKind::expected) {
    if (expectedFile.empty())
      return fail("--test=expected needs --expected=<file.npy>");
    llvm::Expected<NpyArray> e = readNpy(expectedFile);
    if (!e)
      return fail(llvm::toString(e.takeError()));
    if (e->dtype != "<f4" || e->shape != std::vector<int64_t>{M, N})
      return fail(llvm::formatv("'{0}' must be float32 (<f4) of shape ({1}, "
                                "{2}), got {3} of {4} dimensions",
                                expectedFile, M, N, e->dtype, e->shape.size()));
    expected.resize(M * N);
    std::memcpy(expected.data(), e->data.data(), M * N * 4);
  }
  std::vector<uint8_t> bytesA(a.size() * 2), bytesB(b.size() * 2);
  std::memcpy(bytesA.data(), a.data(), bytesA.size());
  std::memcpy(bytesB.data(), b.data(), bytesB.size());
  auto prepare = [&](StringRef path, PreparedKernel &kernel, Version version) {
    return path.ends_with(".json")
               ? prepareFromLaunch(path, M, N, K, kernel)
               : prepareFromSource(context, path, M, N, K, kernel, version);
  };
  PreparedKernel primary;
  GemmRun run;
  if (int status = prepare(inputFile, primary, Version::tested))
    return status;
  if (int status = execute(primary, M, N, bytesA, bytesB, run))
    return status;
  GemmRun other;
  if (testKind == TestKind::compare) {
    if (compareWith.empty())
      return fail("--test=compare needs --compare=<file.mlir>");
    PreparedKernel second;
    if (int status = prepare(compareWith, second, Version::compared))
      return status;
    if (int status = execute(second, M, N, bytesA, bytesB, other))
      return status;
  }
  const std::vector<uint8_t> &c = run.c;
  std::string kernelName = run.kernel;
  std::array<int64_t, 3> grid = run.grid;
  sim::Counters &counters = run.counters;
  hip::Timing &timing = run.timing;
  double compileSeconds = run.compileSeconds, runSeconds = run.runSeconds;

  GemmCheck check =
      checkGemm(c, a, b, M, N, K,
                testKind == TestKind::compare ? &other.c : nullptr, expected);
  double maxAbs = check.maxAbs, maxRel = check.maxRel;
  int64_t bad = check.bad;

  // The vendor library on the same inputs, checked the same way first.
  std::optional<hip::Timing> baselineTiming;
  std::optional<GemmCheck> baselineCheck;
  std::string baselineNote;
  if (baseline == Baseline::rocblas) {
    std::vector<uint8_t> baselineC(M * N * 2);
    llvm::Expected<hip::Timing> timed = hip::rocblasGemm(
        bytesA, bytesB, baselineC, M, N, K, warmup, iterations);
    if (!timed) {
      // hk's own result stands: a missing or failing library is a note.
      baselineNote = llvm::toString(timed.takeError());
      llvm::errs() << "hk-run: note: no rocBLAS baseline: " << baselineNote
                   << "\n";
    } else {
      baselineCheck = checkGemm(baselineC, a, b, M, N, K, nullptr, expected);
      if (baselineCheck->bad == 0)
        baselineTiming = std::move(*timed);
      else
        llvm::errs() << "hk-run: rocBLAS's C failed the check ("
                     << baselineCheck->bad << " wrong elements): its time is "
                     << "not reported\n";
    }
  }

  if (!outputFile.empty()) {
    NpyArray out{"<f4", {M, N}, std::vector<uint8_t>(M * N * 4)};
    for (int64_t i = 0; i < M * N; ++i) {
      uint16_t h;
      std::memcpy(&h, c.data() + 2 * i, 2);
      float f = bf16ToFloat(h);
      std::memcpy(out.data.data() + 4 * i, &f, 4);
    }
    if (llvm::Error e = writeNpy(outputFile, out))
      return fail(llvm::toString(std::move(e)));
  }

  const char *testNames[] = {"identity", "random", "expected", "compare"};
  auto tflopsAt = [&](double ms) {
    return 2.0 * M * N * K / (ms * 1e-3) / 1e12;
  };
  auto baselineJson = [&]() -> llvm::json::Value {
    if (baseline == Baseline::none)
      return nullptr;
    llvm::json::Object o{{"library", "rocblas"}};
    if (!baselineNote.empty())
      o["skipped"] = baselineNote;
    if (baselineCheck) {
      o["pass"] = baselineCheck->bad == 0;
      o["wrong_elements"] = baselineCheck->bad;
      o["max_abs_error"] = baselineCheck->maxAbs;
    }
    if (baselineTiming) {
      o["median_milliseconds"] = baselineTiming->median();
      o["tflops"] = tflopsAt(baselineTiming->median());
    }
    return std::move(o);
  };
  if (emitJson) {
    llvm::json::Object lds;
    for (auto [name, h] : {std::pair{"reads", &counters.ldsReads},
                           std::pair{"writes", &counters.ldsWrites}}) {
      llvm::json::Object byWidth;
      for (auto &[bytes, ways] : *h) {
        llvm::json::Object byWays;
        for (auto &[w, count] : ways)
          byWays[std::to_string(w) + "-way"] = count;
        byWidth[std::to_string(bytes) + "B"] = std::move(byWays);
      }
      lds[name] = std::move(byWidth);
    }
    llvm::json::Object classes;
    for (auto &[name, count] : counters.instructionClasses)
      classes[name] = count;
    llvm::outs() << llvm::formatv(
        "{0}\n",
        llvm::json::Value(llvm::json::Object{
            {"kernel", kernelName},
            {"chip", stringifyChip(chipOption)},
            {"backend", backend == Backend::sim ? "sim" : "hip"},
            {"median_milliseconds", backend == Backend::hip
                                        ? llvm::json::Value(timing.median())
                                        : llvm::json::Value(nullptr)},
            {"tflops", backend == Backend::hip
                           ? llvm::json::Value(tflopsAt(timing.median()))
                           : llvm::json::Value(nullptr)},
            {"peak_tflops", getChipInfo(chipOption).peakBf16Tflops},
            {"size", llvm::json::Array{M, N, K}},
            {"test", testNames[static_cast<int>(testKind.getValue())]},
            {"pass", bad == 0},
            {"wrong_elements", bad},
            {"checked_elements", check.checked},
            {"baseline", baselineJson()},
            {"max_abs_error", maxAbs},
            {"max_rel_error", maxRel},
            {"compile_seconds", compileSeconds},
            {"simulate_seconds", runSeconds},
            {"wave_instructions", counters.waveInstructions},
            {"lane_instructions", counters.laneInstructions},
            {"lane_instructions_per_second",
             counters.laneInstructions / runSeconds},
            {"mmas", counters.mmas},
            {"mmas_per_second", counters.mmas / runSeconds},
            {"barriers", counters.barriers},
            {"global_bytes_read", counters.globalBytesRead},
            {"global_bytes_written", counters.globalBytesWritten},
            {"lds_bytes_read", counters.ldsBytesRead},
            {"lds_bytes_written", counters.ldsBytesWritten},
            {"lds_accesses", std::move(lds)},
            {"instruction_classes", std::move(classes)}}));
    return bad == 0 ? 0 : 1;
  }
  llvm::outs() << llvm::formatv(
      "hk-run: {0} on {1} ({8}), M={2} N={3} K={4}, grid {5}x{6}, {7} test\n",
      kernelName, stringifyChip(chipOption), M, N, K, grid[0], grid[1],
      testNames[static_cast<int>(testKind.getValue())],
      backend == Backend::sim ? "sim" : "hip");
  if (backend == Backend::hip) {
    double ms = timing.median();
    double tflops = tflopsAt(ms);
    llvm::outs() << llvm::formatv(
        "  median of {0} timed runs after {1} warm-up: {2:F3} ms, {3:F1} "
        "TFLOPS ({4:F1}% of the {5}'s {6} TFLOPS bf16 peak)\n",
        timing.milliseconds.size(), warmup.getValue(), ms, tflops,
        100 * tflops / getChipInfo(chipOption).peakBf16Tflops,
        stringifyChip(chipOption), getChipInfo(chipOption).peakBf16Tflops);
    if (baselineTiming)
      llvm::outs() << llvm::formatv(
          "  rocBLAS (checked): {0:F3} ms, {1:F1} TFLOPS; hk at {2:F0}% of "
          "it\n",
          baselineTiming->median(), tflopsAt(baselineTiming->median()),
          100 * baselineTiming->median() / ms);
  } else {
    llvm::outs() << llvm::formatv(
        "  compile {0:F2} s, simulate {1:F2} s: {2} wave instructions, {3} "
        "lane instructions ({4:F1} M/s), {5} MMAs, {6} barriers\n",
        compileSeconds, runSeconds, counters.waveInstructions,
        counters.laneInstructions, counters.laneInstructions / runSeconds / 1e6,
        counters.mmas, counters.barriers);
    llvm::outs() << llvm::formatv(
        "  global bytes read {0}, written {1}; LDS bytes read {2}, written "
        "{3}\n",
        counters.globalBytesRead, counters.globalBytesWritten,
        counters.ldsBytesRead, counters.ldsBytesWritten);
    auto histogram =
        [](StringRef what,
           const std::map<unsigned, std::map<unsigned, uint64_t>> &h) {
          for (auto &[bytes, ways] : h) {
            uint64_t total = 0;
            std::string parts;
            for (auto &[w, count] : ways) {
              total += count;
              parts += llvm::formatv("{0}{1}-way {2}",
                                     parts.empty() ? "" : ", ", w, count);
            }
            llvm::outs() << llvm::formatv(
                "  LDS {0} of {1} bytes/lane: {2} ({3})\n", what, bytes, total,
                parts);
          }
        };
    histogram("reads", counters.ldsReads);
    histogram("writes", counters.ldsWrites);
    std::string classes;
    for (auto &[name, count] : counters.instructionClasses)
      classes +=
          llvm::formatv("{0}{1} {2}", classes.empty() ? "" : ", ", name, count);
    llvm::outs() << "  wave instructions by class: " << classes << "\n";
    int64_t tiles = std::max<int64_t>(1, grid[0] * grid[1] * (K / 64));
    llvm::outs() << llvm::formatv(
        "  per workgroup per K tile of 64: {0} MMAs, {1} global bytes read, "
        "{2} "
        "LDS bytes read, {3} written\n",
        counters.mmas / tiles, counters.globalBytesRead / tiles,
        counters.ldsBytesRead / tiles, counters.ldsBytesWritten / tiles);
  }
  llvm::outs() << llvm::formatv("  max abs error {0:E3}, max rel error "
                                "{1:E3}, {2} of {3} elements wrong{4}\n",
                                maxAbs, maxRel, bad, check.checked,
                                check.checked == M * N ? ""
                                                       : " (a random sample)");
  llvm::outs() << (bad == 0 ? "PASS\n" : "FAIL\n");
  return bad == 0 ? 0 : 1;
}
