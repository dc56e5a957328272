//===- MoeWorkload.cpp - the MoE GEMM hk-run checks -----------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the MoE GEMM workload's kernel contract (the name's
// tokens, the argument types), its problem and configuration checks, its
// inputs and its run. The check of C is in MoeCheck.cpp, the routing in
// MoeRouting.cpp.
//
//===----------------------------------------------------------------------===//

#include "HK/Harness/MoeWorkload.h"

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Harness/ElementCodes.h"
#include "HK/Runtime/BFloat16.h"
#include "HK/Runtime/Npy.h"
#include "HK/Target/Chip.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <numeric>
#include <random>

using namespace mlir;
using namespace mlir::hk;

namespace mlir::hk::run {

//===----------------------------------------------------------------------===//
// Signature
//===----------------------------------------------------------------------===//

static constexpr const char *kMoeNameGrammar =
    "moe_gemm_<bf16|fp8|mxfp8>[_<W>wave][_c<f16|f32>]_<contiguous|gathered>"
    "[_gated|_combine[_deterministic]][_small_m]";

/// Reads what kernel `name`'s tokens say it takes into `s`; `dtype` is the
/// name's input type token.
static llvm::Error parseMoeName(StringRef name, MoeSignature &s,
                                StringRef &dtype) {
  auto wrong = [&](const Twine &why) {
    return badInput("'" + name + "' is not a MoE GEMM kernel name (" +
                    kMoeNameGrammar + "): " + why);
  };
  if (name == kMoeCombineSumKernel)
    return badInput(llvm::formatv(
        "'{0}' is the deterministic combine's second kernel, which hk-run "
        "--moe runs after the first "
        "(moe_gemm_<bf16|fp8>[_<W>wave]_cf32_gathered_combine_deterministic): "
        "select that one",
        name));
  StringRef rest = name;
  if (!rest.consume_front("moe_gemm_"))
    return wrong("it does not start with moe_gemm_");
  SmallVector<StringRef> tokens;
  rest.split(tokens, '_');
  size_t i = 0;
  auto next = [&]() { return i < tokens.size() ? tokens[i] : StringRef(); };
  dtype = next();
  if (dtype != "bf16" && dtype != "fp8" && dtype != "mxfp8")
    return wrong("its input type '" + dtype + "' is not bf16, fp8 or mxfp8");
  s.blockScales = dtype == "mxfp8";
  ++i;
  if (StringRef waves = next(); waves.consume_back("wave")) {
    if (waves.getAsInteger(10, s.waves) || s.waves < 1)
      return wrong("'" + next() + "' is not a wave count");
    ++i;
  }
  if (next() == "cf16" || next() == "cf32") {
    s.cElement = next() == "cf16" ? ElementKind::f16 : ElementKind::f32;
    ++i;
  }
  if (next() != "contiguous" && next() != "gathered")
    return wrong("'" + next() + "' is not contiguous or gathered");
  s.gathered = next() == "gathered";
  ++i;
  if (next() == "gated" || next() == "combine") {
    s.epilogue = next() == "gated" ? MoeEpilogue::gated : MoeEpilogue::combine;
    ++i;
  }
  if (s.combine() && next() == "deterministic") {
    s.deterministic = true;
    ++i;
  }
  // The decode tiling computes the same: nothing to read from it.
  if (next() == "small" && i + 1 < tokens.size() && tokens[i + 1] == "m")
    i += 2;
  if (i < tokens.size())
    return wrong("'" + llvm::join(ArrayRef(tokens).drop_front(i), "_") +
                 "' after its last token");
  return llvm::Error::success();
}

/// The element type of `type` if it is an identity-layout memref of rank
/// `rank`; null otherwise.
static Type memrefElement(Type type, int64_t rank) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || memref.getRank() != rank || !memref.getLayout().isIdentity())
    return {};
  return memref.getElementType();
}

static std::string printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

llvm::Expected<MoeSignature>
readMoeSignature(StringRef name, ArrayRef<Type> types, Fp8Format fp8Format) {
  MoeSignature s;
  StringRef dtype;
  if (llvm::Error e = parseMoeName(name, s, dtype))
    return std::move(e);
  if (s.combine() && !s.gathered)
    return badInput("'" + name +
                    "' combines a contiguous form: a combine kernel adds each "
                    "slot's weighted product into its token's row, which "
                    "only the gathered form (_gathered_combine) tells it");
  if (s.combine() && s.cElement != ElementKind::f32)
    return badInput("'" + name + "' combines into a " +
                    stringifyElementKind(s.cElement) +
                    " C: a combine kernel adds into an f32 C (_cf32)");
  bool fp8 = dtype != "bf16";
  // The arguments the name promises: (name, rank or -1 for a scalar, the
  // element type as it is spelled, whether a type is it).
  StringRef ab = fp8 ? "f8E4M3FN|f8E5M2" : "bf16";
  std::string c = stringifyElementKind(s.cElement).str();
  Type a = types.empty() ? Type() : memrefElement(types[0], 2);
  auto isAB = [&](Type t) {
    return fp8 ? isa<Float8E4M3FNType, Float8E5M2Type>(t) : t.isBF16();
  };
  auto isC = [&](Type t) { return getElementKind(t) == s.cElement; };
  auto isE8M0 = [](Type t) { return isa<Float8E8M0FNUType>(t); };
  auto isF32 = [](Type t) { return t.isF32(); };
  auto isI32 = [](Type t) { return t.isInteger(32); };
  struct Spec {
    std::string name;
    int64_t rank;
    std::string element;
    std::function<bool(Type)> accepts;
  };
  // A deterministic combine's C is Y, the per-slot rows.
  std::vector<Spec> specs = {
      {"A", 2, ab.str(), isAB},
      {"B", 3, ab.str(), [&](Type t) { return isAB(t) && (!a || t == a); }},
      {s.deterministic ? "Y" : "C", 2, c, isC}};
  if (s.gathered) {
    specs.push_back({"sorted_token_ids", 1, "i32", isI32});
    specs.push_back({"expert_ids", 1, "i32", isI32});
    if (s.combine())
      specs.push_back({"sorted_weights", 1, "f32", isF32});
    specs.push_back({"topk", -1, "i32", isI32});
  } else {
    specs.push_back({"group_offsets", 1, "i32", isI32});
  }
  if (s.blockScales) {
    specs.push_back({"SA", 2, "f8E8M0FNU", isE8M0});
    specs.push_back({"SB", 3, "f8E8M0FNU", isE8M0});
  } else if (fp8) {
    specs.push_back({"scale_a", -1, "f32", isF32});
    specs.push_back({"scale_b", 1, "f32", isF32});
  }
  specs.push_back({"workgroups", -1, "i32", isI32});
  auto spell = [](const Spec &spec) {
    if (spec.rank < 0)
      return spec.element;
    std::string dims;
    for (int64_t d = 0; d < spec.rank; ++d)
      dims += "?x";
    return "memref<" + dims + spec.element + ">";
  };
  std::string list;
  for (const Spec &spec : specs)
    list += (list.empty() ? "" : ", ") + spec.name + " " + spell(spec);
  auto wrong = [&](const Twine &why) {
    return badInput("'" + name + "' does not take what its name says (" + list +
                    "): " + why);
  };
  if (types.size() != specs.size())
    return wrong(llvm::formatv("it takes {0} arguments, not {1}", types.size(),
                               specs.size())
                     .str());
  for (auto [i, spec] : llvm::enumerate(specs)) {
    Type element =
        spec.rank < 0 ? types[i] : memrefElement(types[i], spec.rank);
    if (!element || !spec.accepts(element))
      return wrong(llvm::formatv("argument #{0} ({1}) is {2}, not {3}", i,
                                 spec.name, printType(types[i]), spell(spec))
                       .str());
  }
  s.abElement = fp8 ? *getElementKind(a) : ElementKind::bf16;
  // --dtype names the format the fp8 types are read as.
  if (fp8 && fp8Format != Fp8Format::source)
    s.abElement = fp8Format == Fp8Format::e4m3 ? ElementKind::f8e4m3
                                               : ElementKind::f8e5m2;
  return s;
}

//===----------------------------------------------------------------------===//
// Problem
//===----------------------------------------------------------------------===//

std::vector<int64_t> MoeProblem::shape(unsigned arg) const {
  const MoeSizes &z = sizes;
  const MoeSignature &s = signature;
  int64_t blocks = llvm::divideCeil(z.k, kScaleBlockK);
  switch (arg) {
  case moeArgA:
    return {s.gathered ? z.tokens : z.rows(), z.k};
  case moeArgB:
    return {z.experts, z.n, z.k};
  case moeArgC:
    return {cArgRows(), outColumns()};
  default:
    break;
  }
  // SA: per token for the gathered form, per contiguous row otherwise.
  if (arg == s.scaleAArg() && s.blockScales)
    return {s.gathered ? z.tokens : z.rows(), blocks};
  if (arg == s.scaleBArg() && s.blockScales)
    return {z.experts, z.n, blocks};
  if (arg == s.scaleBArg() && s.scaled())
    return {z.experts};
  if (!s.gathered)
    return arg == moeArgOffsets ? std::vector<int64_t>{z.experts + 1}
                                : std::vector<int64_t>{};
  if (arg == moeArgSortedIds)
    return {alignment.entries()};
  if (arg == moeArgExpertIds)
    return {alignment.tiles()};
  if (s.combine() && arg == moeArgSortedWeights)
    return {alignment.entries()};
  return {};
}

std::optional<int64_t> MoeProblem::extent(unsigned arg, int64_t dim) const {
  // The workgroup count is its own size 0: the persistent grid's term.
  if (arg == signature.workgroupsArg())
    return dim == 0 ? std::optional<int64_t>(workgroups) : std::nullopt;
  return RowMajorArguments::extent(arg, dim);
}

std::optional<uint64_t> MoeProblem::scalarBits(unsigned arg) const {
  if (arg == signature.workgroupsArg())
    return uint64_t(workgroups);
  if (signature.gathered && arg == signature.topkArg())
    return uint64_t(sizes.topk);
  if (arg != signature.scaleAArg() || !signature.scaled())
    return std::nullopt;
  uint32_t bits;
  std::memcpy(&bits, &scaleA, 4);
  return bits;
}

bool MoeProblem::isBuffer(unsigned arg) const {
  return arg < signature.workgroupsArg() && !shape(arg).empty();
}

//===----------------------------------------------------------------------===//
// The deterministic combine's sum kernel
//===----------------------------------------------------------------------===//

llvm::Error checkMoeSumSignature(StringRef name, ArrayRef<Type> types) {
  auto wrong = [&](const Twine &why) {
    return badInput("'" + name +
                    "' is not the deterministic combine's sum kernel (Y "
                    "memref<?x?xf32> [T topk, N], C memref<?x?xf32> [T, N], "
                    "topk i32): " +
                    why);
  };
  if (types.size() != 3)
    return wrong(
        llvm::formatv("it takes {0} arguments, not 3", types.size()).str());
  for (unsigned i : {moeSumArgY, moeSumArgC}) {
    Type element = memrefElement(types[i], 2);
    if (!element || !element.isF32())
      return wrong(llvm::formatv("argument #{0} ({1}) is {2}, not "
                                 "memref<?x?xf32>",
                                 i, i == moeSumArgY ? "Y" : "C",
                                 printType(types[i]))
                       .str());
  }
  if (!types[moeSumArgTopk].isInteger(32))
    return wrong(llvm::formatv("argument #2 (topk) is {0}, not i32",
                               printType(types[moeSumArgTopk]))
                     .str());
  return llvm::Error::success();
}

std::vector<int64_t> MoeSumProblem::shape(unsigned arg) const {
  if (arg == moeSumArgY)
    return {sizes.rows(), sizes.n};
  if (arg == moeSumArgC)
    return {sizes.tokens, sizes.n};
  return {};
}

std::optional<uint64_t> MoeSumProblem::scalarBits(unsigned arg) const {
  if (arg == moeSumArgTopk)
    return uint64_t(sizes.topk);
  return std::nullopt;
}

bool MoeSumProblem::isBuffer(unsigned arg) const {
  return arg == moeSumArgY || arg == moeSumArgC;
}

llvm::Error checkMoeConfig(const MoeConfig &config) {
  const MoeSizes &z = config.sizes;
  // Past these the host buffers and the fp64 reference grow beyond what
  // hk-run is for; the routing draws take T E steps.
  constexpr int64_t kMaxSize = 32768;
  for (auto [name, value, limit] :
       {std::tuple{"E", z.experts, int64_t(1024)},
        std::tuple{"N", z.n, kMaxSize}, std::tuple{"K", z.k, kMaxSize},
        std::tuple{"T", z.tokens, int64_t(65536)},
        std::tuple{"topk", z.topk, z.experts}})
    if (value < 1 || value > limit)
      return badInput(llvm::formatv("--moe: {0} must be between 1 and {1}, "
                                    "got {2}{3}",
                                    name, limit, value,
                                    StringRef(name) == "topk"
                                        ? " (a token's experts are distinct)"
                                        : ""));
  constexpr int64_t kMaxElements = int64_t(1) << 28;
  if (z.rows() * z.k > kMaxElements || z.experts * z.n * z.k > kMaxElements ||
      z.rows() * z.n > kMaxElements)
    return badInput("--moe: A (T topk x K), B (E x N x K) and C (T topk x N) "
                    "must each hold at most 2^28 elements (hk-run's host "
                    "buffers)");
  if (config.workgroups &&
      (*config.workgroups < 1 || *config.workgroups > 65535))
    return badInput(llvm::formatv("--moe-workgroups must be between 1 and "
                                  "65535, got {0}",
                                  *config.workgroups));
  if (config.routing == MoeRoutingKind::file && config.routingFile.empty())
    return badInput("--routing needs a .npy file of expert ids");
  for (std::optional<float> scale : {config.scaleA, config.scaleB})
    if (scale && !std::isfinite(*scale))
      return badInput("--scale-a and --scale-b must be finite");
  TestKind test = config.run.test;
  if (test != TestKind::random && test != TestKind::compare)
    return badInput("the MoE workload runs --test=random (against an fp64 "
                    "reference) or --test=compare");
  if (llvm::Error e = checkTimingSettings(config.run))
    return e;
  return checkCompareSettings(config.run);
}

llvm::Expected<int64_t> readMoeBlockM(StringRef name,
                                      ArrayRef<SizeTerm> divisible) {
  // The kernel takes sorted_token_ids in tiles of BM entries: P must be a
  // multiple of BM, which its launch declares.
  int64_t blockM = 0;
  for (const SizeTerm &term : divisible)
    if (term.arg == moeArgSortedIds && term.dim == 0 && !term.roundUp &&
        term.factor >= 1)
      blockM = blockM ? int64_t(std::lcm(blockM, term.factor)) : term.factor;
  if (!blockM)
    return badInput(llvm::formatv(
        "'{0}' is gathered but does not declare its tile height: hk-run "
        "needs a divisibility term on sorted_token_ids in its hk.launch "
        "(`divisible = [arg{1}[0] by BM]`) to pad each expert's entries to "
        "whole tiles",
        name, unsigned(moeArgSortedIds)));
  return blockM;
}

llvm::Error readMoeProblem(const MoeConfig &config, const MoeRouting &routing,
                           StringRef name, ArrayRef<Type> types,
                           ArrayRef<SizeTerm> divisible, MoeProblem &problem) {
  llvm::Expected<MoeSignature> signature =
      readMoeSignature(name, types, config.run.schedule.fp8Format);
  if (!signature)
    return signature.takeError();
  const MoeSignature &s = *signature;
  problem.signature = s;
  problem.sizes = config.sizes;
  problem.workgroups =
      config.workgroups.value_or(getChipInfo(config.run.chip).computeUnits);
  Fp8Format fp8Format = config.run.schedule.fp8Format;
  if (fp8Format != Fp8Format::source && !s.fp8())
    return badInput(llvm::formatv("--dtype={0} is for fp8 kernels; '{1}' "
                                  "takes bf16",
                                  stringifyFp8Format(fp8Format), name));
  if ((config.scaleA || config.scaleB) && !s.scaled())
    return badInput(llvm::formatv("--scale-a and --scale-b are the scales of "
                                  "fp8 MoE kernels (scale_a, and scale_b per "
                                  "expert); '{0}' takes none",
                                  name));
  if (s.gated() && config.sizes.n % 2 != 0)
    return badInput(llvm::formatv("'{0}' is gated: --moe's N ({1}) must be "
                                  "even (each expert's gate and up halves)",
                                  name, config.sizes.n));
  problem.scaleA = config.scaleA.value_or(1.0f);
  problem.scaleB.clear();
  if (s.scaled()) {
    // Per-expert scales that differ, so that a kernel reading another
    // expert's fails; --scale-b gives every expert the same.
    std::mt19937 rng(config.run.seed + 3);
    std::uniform_real_distribution<float> draw(0.5f, 2.0f);
    for (int64_t e = 0; e < config.sizes.experts; ++e)
      problem.scaleB.push_back(config.scaleB ? *config.scaleB : draw(rng));
  }
  problem.alignment = {};
  if (s.gathered) {
    llvm::Expected<int64_t> blockM = readMoeBlockM(name, divisible);
    if (!blockM)
      return blockM.takeError();
    problem.alignment = alignMoeRouting(routing, *blockM);
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

/// The largest finite value of result type `kind`.
static double largestResult(ElementKind kind) {
  const llvm::fltSemantics &c =
      kind == ElementKind::f16    ? llvm::APFloat::IEEEhalf()
      : kind == ElementKind::bf16 ? llvm::APFloat::BFloat()
                                  : llvm::APFloat::IEEEsingle();
  return llvm::APFloat::getLargest(c).convertToDouble();
}

/// The magnitude a product (g or u) may reach so that C stays within half
/// of its type's range: half of it, or gated (|silu(g) u| <= |g| |u|) its
/// square root.
static double productBudget(const MoeProblem &p) {
  double half = largestResult(p.signature.cElement) / 2;
  return p.signature.gated() ? std::sqrt(half) : half;
}

double moeInputSigma(const MoeProblem &p) {
  if (p.signature.fp8())
    return 1.0;
  // bf16 draws are N(0, sigma^2): a product then stays within 6 sigma^2
  // sqrt(K) in practice; sigma halves until that fits the budget.
  double sigma = 1.0, budget = productBudget(p);
  while (6 * sigma * sigma * std::sqrt(double(p.sizes.k)) > budget &&
         sigma > 1e-3)
    sigma /= 2;
  return sigma;
}

/// The kernel's C argument before the launch: NaN, so that an element the
/// kernel does not write fails (a deterministic combine's Y: a slot row it
/// misses); zeros for an atomic combine kernel, which adds into it.
static void fillMoeC(const MoeProblem &p, std::vector<uint8_t> &c) {
  const MoeSignature &s = p.signature;
  c.assign(p.elements(moeArgC) * resultBytes(s.cElement),
           s.combine() && !s.deterministic ? 0 : 0xff);
}

void makeMoeInputs(const MoeConfig &config, const MoeRouting &routing,
                   const MoeProblem &p, MoeInputs &in) {
  const MoeSignature &s = p.signature;
  const MoeSizes &z = p.sizes;
  std::mt19937 rng(config.run.seed);
  double limit = 0, sigma = moeInputSigma(p);
  if (s.fp8()) {
    double scale = 0;
    for (int64_t e = 0; e < z.experts; ++e)
      scale =
          std::max<double>(scale, std::fabs(double(p.scaleA) *
                                            (s.scaled() ? p.scaleB[e] : 1.0f)));
    if (s.blockScales)
      scale *= std::ldexp(1.0, 12);
    limit = fp8DrawLimit(s.abElement, productBudget(p), z.k, scale);
  }
  auto draw = [&](std::vector<uint16_t> &out, int64_t n) {
    out.resize(n);
    for (uint16_t &x : out) {
      x = drawInput(s.abElement, limit, rng);
      if (sigma != 1.0)
        x = floatToBf16(float(bf16ToFloat(x) * sigma));
    }
  };
  draw(in.tokens, z.tokens * z.k);
  draw(in.weights, z.experts * z.n * z.k);
  int64_t blocks = llvm::divideCeil(z.k, kScaleBlockK);
  if (s.blockScales) {
    // 2^-6..2^6, per token (its slots share them) and per expert row.
    std::uniform_int_distribution<int> exponent(127 - 6, 127 + 6);
    in.tokenScales.resize(z.tokens * blocks);
    in.weightScales.resize(z.experts * z.n * blocks);
    for (std::vector<uint8_t> *codes : {&in.tokenScales, &in.weightScales})
      for (uint8_t &code : *codes)
        code = exponent(rng);
  }

  // The kernel's arguments: A's rows gathered into the contiguous order, or
  // the tokens as they are for a gathered kernel.
  int64_t abBytes = s.fp8() ? 1 : 2, rows = z.rows();
  in.buffers.assign(s.workgroupsArg(), {});
  std::vector<uint8_t> &a = in.buffers[moeArgA];
  int64_t aRows = p.shape(moeArgA)[0];
  a.resize(aRows * z.k * abBytes);
  for (int64_t r = 0; r < aRows; ++r) {
    int64_t token = s.gathered ? r : routing.slotToken[r];
    for (int64_t k = 0; k < z.k; ++k) // little-endian
      std::memcpy(&a[(r * z.k + k) * abBytes], &in.tokens[token * z.k + k],
                  abBytes);
  }
  std::vector<uint8_t> &b = in.buffers[moeArgB];
  b.resize(in.weights.size() * abBytes);
  for (size_t i = 0; i < in.weights.size(); ++i)
    std::memcpy(&b[i * abBytes], &in.weights[i], abBytes);
  fillMoeC(p, in.buffers[moeArgC]);
  writeMoeIndices(p, routing, in.buffers);
  if (s.scaled()) {
    std::vector<uint8_t> &scaleB = in.buffers[s.scaleBArg()];
    scaleB.resize(p.scaleB.size() * 4);
    std::memcpy(scaleB.data(), p.scaleB.data(), scaleB.size());
  }
  if (s.blockScales) {
    // SA follows A: the tokens' own scales, or gathered as A's rows.
    std::vector<uint8_t> &sa = in.buffers[s.scaleAArg()];
    if (s.gathered) {
      sa = in.tokenScales;
    } else {
      sa.resize(rows * blocks);
      for (int64_t r = 0; r < rows; ++r)
        std::memcpy(&sa[r * blocks],
                    &in.tokenScales[routing.slotToken[r] * blocks], blocks);
    }
    in.buffers[s.scaleBArg()] = in.weightScales;
  }
}

void writeMoeIndices(const MoeProblem &p, const MoeRouting &routing,
                     std::vector<std::vector<uint8_t>> &buffers) {
  auto write = [&](unsigned arg, const std::vector<int32_t> &values) {
    std::vector<uint8_t> &buffer = buffers[arg];
    buffer.resize(values.size() * 4);
    std::memcpy(buffer.data(), values.data(), buffer.size());
  };
  if (!p.signature.gathered) {
    write(moeArgOffsets, routing.offsets);
    return;
  }
  write(moeArgSortedIds, p.alignment.sortedTokenIds);
  write(moeArgExpertIds, p.alignment.expertIds);
  if (p.signature.combine()) {
    std::vector<uint8_t> &buffer = buffers[moeArgSortedWeights];
    buffer.resize(p.alignment.sortedWeights.size() * 4);
    std::memcpy(buffer.data(), p.alignment.sortedWeights.data(), buffer.size());
  }
}

//===----------------------------------------------------------------------===//
// Run
//===----------------------------------------------------------------------===//

/// One compile-and-run's C and figures.
struct MoeRun {
  PreparedKernel kernel;
  MoeProblem problem;
  /// A deterministic combine's sum kernel and its problem.
  std::optional<PreparedKernel> sum;
  MoeSumProblem sumProblem;
  /// C as checked: the kernel's, or the sum kernel's.
  std::vector<uint8_t> c;
  LaunchStats stats, sumStats;
};

/// `error`, a failure to prepare the sum kernel, saying which kernel needs
/// it.
static llvm::Error explainSumError(StringRef kernel, llvm::Error error) {
  return llvm::handleErrors(
      std::move(error), [&](std::unique_ptr<RunError> e) -> llvm::Error {
        if (e->reported || e->message.empty())
          return llvm::Error(std::move(e));
        e->message = llvm::formatv("'{0}' is a deterministic combine, which "
                                   "hk-run runs with {1} from the same "
                                   "source: {2}",
                                   kernel, kMoeCombineSumKernel, e->message);
        return llvm::Error(std::move(e));
      });
}

/// Prepares the kernel of `config.inputFile` for the problem `moe` and
/// `routing` pose, and for a deterministic combine the source's sum kernel.
static llvm::Error prepare(MLIRContext &context, const MoeConfig &moe,
                           const MoeRouting &routing, const RunConfig &config,
                           Version version, MoeRun &run) {
  // The launch's divisibility terms, from the source or the description: a
  // gathered kernel's tile height.
  std::vector<SizeTerm> divisible;
  auto readSource = [&](gpu::GPUFuncOp kernel) {
    if (auto launch =
            kernel->getAttrOfType<LaunchAttr>(HKDialect::getLaunchAttrName()))
      divisible.assign(launch.getDivisible().begin(),
                       launch.getDivisible().end());
  };
  auto readDescription = [&](const LaunchDescription::Kernel &kernel) {
    if (kernel.launch)
      divisible = kernel.launch->divisible;
  };
  auto read = [&](StringRef name, ArrayRef<Type> types,
                  const KernelArguments *&arguments) {
    arguments = &run.problem;
    return readMoeProblem(moe, routing, name, types, divisible, run.problem);
  };
  llvm::Expected<PreparedKernel> kernel =
      prepareKernel(context, config, config.inputFile, read, version,
                    readSource, readDescription);
  if (!kernel)
    return kernel.takeError();
  run.kernel = std::move(*kernel);
  if (!run.problem.signature.deterministic)
    return llvm::Error::success();
  RunConfig sumConfig = config;
  sumConfig.kernelName = kMoeCombineSumKernel;
  run.sumProblem.sizes = moe.sizes;
  auto readSum = [&](StringRef name, ArrayRef<Type> types,
                     const KernelArguments *&arguments) {
    arguments = &run.sumProblem;
    return checkMoeSumSignature(name, types);
  };
  llvm::Expected<PreparedKernel> sum =
      prepareKernel(context, sumConfig, sumConfig.inputFile, readSum, version);
  if (!sum)
    return explainSumError(run.kernel.name, sum.takeError());
  run.sum = std::move(*sum);
  return llvm::Error::success();
}

/// Launches `run`'s kernel on `inputs`, then a deterministic combine's sum
/// kernel on its Y: C and the figures.
static llvm::Error execute(const RunConfig &config, const MoeRouting &routing,
                           const MoeInputs &inputs, MoeRun &run) {
  std::vector<std::vector<uint8_t>> buffers = inputs.buffers;
  // The index follows the kernel's own tile height, C its own form (a
  // compared kernel's may differ from the tested one's).
  writeMoeIndices(run.problem, routing, buffers);
  fillMoeC(run.problem, buffers[moeArgC]);
  std::vector<bool> outputs(buffers.size(), false);
  outputs[moeArgC] = true;
  llvm::Expected<LaunchStats> stats =
      launchKernel(config, run.kernel, buffers, outputs);
  if (!stats)
    return stats.takeError();
  run.stats = std::move(*stats);
  if (!run.sum) {
    run.c = std::move(buffers[moeArgC]);
    return llvm::Error::success();
  }
  // Y as the first kernel left it; C NaN, so that an element the sum does
  // not write fails.
  std::vector<std::vector<uint8_t>> sumBuffers(2);
  sumBuffers[moeSumArgY] = std::move(buffers[moeArgC]);
  sumBuffers[moeSumArgC].assign(run.sumProblem.elements(moeSumArgC) * 4, 0xff);
  llvm::Expected<LaunchStats> sumStats =
      launchKernel(config, *run.sum, sumBuffers, {false, true});
  if (!sumStats)
    return sumStats.takeError();
  run.sumStats = std::move(*sumStats);
  run.c = std::move(sumBuffers[moeSumArgC]);
  return llvm::Error::success();
}

bool isMoeCompareExact(const MoeSignature &a, const MoeSignature &b) {
  auto atomic = [](const MoeSignature &s) {
    return s.combine() && !s.deterministic;
  };
  return !atomic(a) && !atomic(b);
}

/// Writes C as checked (float32 [rows, columns]) to MoeConfig::saveFiles;
/// a line per file into `saved`.
static llvm::Error saveC(const MoeConfig &config, const MoeProblem &p,
                         const std::vector<uint8_t> &c,
                         std::vector<std::string> &saved) {
  int64_t rows = p.outRows(), columns = p.outColumns();
  ElementKind kind = p.signature.cElement;
  NpyArray array{"<f4",
                 {rows, columns},
                 std::vector<uint8_t>(c.size() / resultBytes(kind) * 4)};
  for (int64_t i = 0; i < rows * columns; ++i) {
    float f = decodeResult(kind, c.data() + i * resultBytes(kind));
    std::memcpy(array.data.data() + 4 * i, &f, 4);
  }
  for (const std::string &path : config.saveFiles) {
    if (llvm::Error e = writeNpy(path, array))
      return e;
    saved.push_back(llvm::formatv("wrote C ({0}x{1} {2}, as float32) to {3}",
                                  rows, columns, stringifyElementKind(kind),
                                  path));
  }
  return llvm::Error::success();
}

llvm::Expected<MoeResult> runMoeWorkload(MLIRContext &context,
                                         const MoeConfig &config) {
  if (llvm::Error e = checkMoeConfig(config))
    return std::move(e);
  // A source holding a deterministic combine holds the sum kernel too: the
  // tested kernel is the other one.
  RunConfig rc = config.run;
  rc.companionKernels.push_back(kMoeCombineSumKernel.str());
  llvm::Expected<MoeRouting> routing =
      makeMoeRouting(config.routing, config.routingFile, config.sizes, rc.seed);
  if (!routing)
    return routing.takeError();
  MoeRun tested;
  if (llvm::Error e =
          prepare(context, config, *routing, rc, Version::tested, tested))
    return std::move(e);
  MoeInputs inputs;
  makeMoeInputs(config, *routing, tested.problem, inputs);
  if (llvm::Error e = execute(rc, *routing, inputs, tested))
    return std::move(e);
  std::optional<MoeRun> other;
  if (rc.test == TestKind::compare) {
    RunConfig compared = getComparedRunConfig(rc);
    other.emplace();
    if (llvm::Error e = prepare(context, config, *routing, compared,
                                Version::compared, *other))
      return std::move(e);
    const MoeSignature &s1 = tested.problem.signature,
                       &s2 = other->problem.signature;
    if (s1.abElement != s2.abElement || s1.blockScales != s2.blockScales ||
        s1.cElement != s2.cElement || s1.epilogue != s2.epilogue ||
        s1.gathered != s2.gathered)
      return badInput("'" + other->kernel.name +
                      "' does not take the arguments '" + tested.kernel.name +
                      "' takes: --test=compare needs the same signature");
    // (A deterministic and an atomic combine compute the same C: allowed.)
    if (llvm::Error e = execute(compared, *routing, inputs, *other))
      return std::move(e);
  }
  MoeResult result;
  result.compareExact = !other || isMoeCompareExact(tested.problem.signature,
                                                    other->problem.signature);
  result.check = checkMoe(rc, tested.problem, *routing, inputs, tested.c,
                          other ? &other->c : nullptr, result.compareExact);
  result.kernel = std::move(tested.kernel);
  result.stats = std::move(tested.stats);
  result.sumKernel = std::move(tested.sum);
  result.sumStats = std::move(tested.sumStats);
  result.problem = std::move(tested.problem);
  result.routing = std::move(*routing);
  result.flops = 2.0 * config.sizes.rows() * config.sizes.n * config.sizes.k;
  if (llvm::Error e = saveC(config, result.problem, tested.c, result.saved))
    return std::move(e);
  return std::move(result);
}

} // namespace mlir::hk::run
