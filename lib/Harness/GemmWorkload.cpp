//===- GemmWorkload.cpp - the GEMM hk-run checks --------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HK/Harness/GemmWorkload.h"

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Harness/ElementCodes.h"
#include "HK/Runtime/Npy.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <unordered_set>

using namespace mlir;
using namespace mlir::hk;

namespace mlir::hk::run {

static llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

//===----------------------------------------------------------------------===//
// Signature and problem
//===----------------------------------------------------------------------===//

llvm::Expected<GemmSignature> readGemmSignature(ArrayRef<Type> types,
                                                Fp8Format fp8Format) {
  const char *expected =
      "A, B, C (bf16 or fp8, the same, and bf16, f16 or f32 memrefs, all 2-D "
      "or all 3-D with the batch first), optionally followed by bias (1-D f32 "
      "memref) and/or alpha and beta (f32), or for fp8 by scale_a and scale_b "
      "(f32) or the block scales SA and SB";
  auto notGemm = [&](const llvm::Twine &why) {
    return error("not a GEMM kernel (" + llvm::Twine(expected) + "): " + why);
  };
  if (types.size() < 3 || types.size() > 6)
    return notGemm(llvm::formatv("it has {0} arguments", types.size()).str());
  GemmSignature s;
  SmallVector<MemRefType> matrices;
  for (unsigned i = 0; i < 3; ++i) {
    auto m = dyn_cast<MemRefType>(types[i]);
    if (!m || (m.getRank() != 2 && m.getRank() != 3))
      return notGemm(
          llvm::formatv("argument #{0} is not a 2-D or 3-D memref", i).str());
    matrices.push_back(m);
  }
  s.rank = matrices[0].getRank();
  s.strided = !matrices[0].getLayout().isIdentity();
  for (auto [i, m] : llvm::enumerate(matrices)) {
    if (m.getRank() != s.rank || m.getLayout().isIdentity() == s.strided)
      return notGemm("A, B and C differ in rank or layout");
    int64_t offset;
    SmallVector<int64_t> strides;
    if (s.strided && (failed(m.getStridesAndOffset(strides, offset)) ||
                      offset != 0 || strides.back() != 1))
      return notGemm(llvm::formatv("argument #{0} is not strided with offset "
                                   "0 and unit stride along its rows",
                                   i)
                         .str());
  }
  Type a = matrices[0].getElementType();
  if (a != matrices[1].getElementType())
    return notGemm("A and B hold different types");
  std::optional<ElementKind> ab = getElementKind(a);
  if (!ab || (*ab != ElementKind::bf16 && !isFp8(*ab)))
    return notGemm("A and B must hold bf16, f8E4M3FN or f8E5M2");
  s.abElement = *ab;
  // --dtype names the format the fp8 types are read as.
  if (isFp8(*ab) && fp8Format != Fp8Format::source)
    s.abElement = fp8Format == Fp8Format::e4m3 ? ElementKind::f8e4m3
                                               : ElementKind::f8e5m2;
  auto e8m0Matrix = [](Type t) {
    auto m = dyn_cast<MemRefType>(t);
    return m && m.getRank() == 2 && m.getLayout().isIdentity() &&
           isa<Float8E8M0FNUType>(m.getElementType());
  };
  // After C: fp8 kernels take their scales, the others an epilogue's
  // arguments.
  ArrayRef<Type> rest = types.drop_front(3);
  if (s.fp8()) {
    s.blockScales =
        rest.size() == 2 && e8m0Matrix(rest[0]) && e8m0Matrix(rest[1]);
    s.scaled = rest.size() == 2 && !s.blockScales;
    if (!s.scaled && !s.blockScales)
      return notGemm("fp8 kernels take scale_a and scale_b, or the block "
                     "scales SA and SB, after C");
  } else {
    s.bias = !rest.empty() && isa<MemRefType>(rest[0]);
    s.alphaBeta = rest.size() == (s.bias ? 3u : 2u);
    if (rest.size() != (s.bias ? 1u : 0u) + (s.alphaBeta ? 2u : 0u))
      return notGemm(e8m0Matrix(rest[0]) ? "block scales are for fp8 kernels"
                                         : "the arguments after C are not a "
                                           "bias and/or alpha and beta");
  }
  if (s.scaled && (!types[3].isF32() || !types[4].isF32()))
    return notGemm("scale_a and scale_b must be f32 (or SA and SB "
                   "memref<?x?xf8E8M0FNU> block scales)");
  if (s.blockScales && s.rank != 2)
    return notGemm("block scales are for 2-D A and B");
  std::optional<ElementKind> c = getElementKind(matrices[2].getElementType());
  if (!c || isFp8(*c))
    return notGemm("C must hold bf16, f16 or f32");
  s.cElement = *c;
  if (s.bias) {
    auto bias = cast<MemRefType>(types[argBias]);
    if (bias.getRank() != 1 || !bias.getElementType().isF32() ||
        !bias.getLayout().isIdentity())
      return notGemm("the bias (argument #3) must be memref<?xf32>");
  }
  if (s.alphaBeta &&
      (!types[s.alphaArg()].isF32() || !types[s.alphaArg() + 1].isF32()))
    return notGemm(llvm::formatv("alpha and beta (arguments #{0} and #{1}) "
                                 "must be f32",
                                 s.alphaArg(), s.alphaArg() + 1)
                       .str());
  return s;
}

std::string getLayoutName(const GemmShape &shape) {
  return {shape.transposeA ? 't' : 'n', shape.transposeB ? 't' : 'n'};
}

std::pair<int64_t, int64_t> GemmProblem::storedSize(unsigned arg) const {
  int64_t dims[3][2];
  shape.argumentSizes(dims);
  return {dims[arg][0], dims[arg][1]};
}

std::optional<int64_t> GemmProblem::extent(unsigned arg, int64_t dim) const {
  if (arg == argBias && signature.bias && dim == 0)
    return shape.N;
  if ((arg == argBias || arg == argBias + 1) && signature.blockScales &&
      (dim == 0 || dim == 1))
    return dim == 1         ? llvm::divideCeil(shape.K, kScaleBlockK)
           : arg == argBias ? shape.M
                            : shape.N;
  if (arg > argC || dim < 0 || dim >= signature.rank)
    return std::nullopt;
  if (signature.rank == 3 && dim-- == 0)
    return batch;
  auto [rows, cols] = storedSize(arg);
  return dim == 0 ? rows : cols;
}

std::optional<int64_t> GemmProblem::stride(unsigned arg, int64_t dim) const {
  if (arg == argBias && signature.bias && dim == 0)
    return 1;
  if (arg > argC || dim < 0 || dim >= signature.rank)
    return std::nullopt;
  if (signature.rank == 3 && dim-- == 0)
    return batchStride(arg);
  return dim == 0 ? leadingDim(arg) : 1;
}

std::optional<uint64_t> GemmProblem::scalarBits(unsigned arg) const {
  float value;
  unsigned alphaArg = signature.alphaArg();
  if (signature.alphaBeta && (arg == alphaArg || arg == alphaArg + 1))
    value = arg == alphaArg ? alpha : beta;
  else if (signature.scaled && (arg == 3 || arg == 4))
    value = arg == 3 ? scaleA : scaleB;
  else
    return std::nullopt;
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

bool GemmProblem::isBuffer(unsigned arg) const {
  // A, B, C, then the bias or the two block scales.
  if (arg <= argC)
    return true;
  return (arg == argBias && signature.bias) ||
         (signature.blockScales && arg <= argBias + 1);
}

llvm::Error makeGemmProblem(const GemmConfig &config,
                            const GemmSignature &signature, StringRef kernel,
                            GemmProblem &problem) {
  problem.shape = config.shape;
  problem.batch = config.batch;
  problem.pad = config.pad;
  problem.alpha = config.alpha.value_or(1.0f);
  problem.beta = config.beta.value_or(0.0f);
  problem.scaleA = config.scaleA.value_or(1.0f);
  problem.scaleB = config.scaleB.value_or(1.0f);
  problem.signature = signature;
  if ((config.scaleA || config.scaleB) && !signature.scaled)
    return badInput(llvm::formatv("--scale-a and --scale-b are the per-tensor "
                                  "scales of fp8 kernels; '{0}' takes {1}",
                                  kernel, dtypeName(signature.abElement)));
  Fp8Format fp8Format = config.run.schedule.fp8Format;
  if (fp8Format != Fp8Format::source && !signature.fp8())
    return badInput(llvm::formatv("--dtype={0} is for fp8 kernels; '{1}' "
                                  "takes bf16",
                                  stringifyFp8Format(fp8Format), kernel));
  if (problem.batch > 1 && signature.rank != 3)
    return badInput(llvm::formatv("--batch={0} needs a batched kernel (3-D "
                                  "A, B and C); '{1}' takes 2-D matrices",
                                  problem.batch, kernel));
  if (problem.pad > 0 && !signature.strided)
    return badInput(llvm::formatv("--pad needs a kernel taking strided "
                                  "matrices (memref<...xbf16, strided<[?, "
                                  "1]>>); '{0}' takes row-major ones",
                                  kernel));
  if ((config.alpha || config.beta) && !signature.alphaBeta)
    return badInput(llvm::formatv("--alpha and --beta need a kernel taking "
                                  "alpha and beta (f32, after C and any "
                                  "bias); '{0}' does not",
                                  kernel));
  if (config.bias && !signature.bias)
    return badInput(llvm::formatv("--bias needs a kernel taking a bias "
                                  "(memref<?xf32> after C); '{0}' does not",
                                  kernel));
  // The kernel's offsets are 32-bit: each batch's matrix must fit them.
  for (unsigned arg : {argA, argB, argC}) {
    int64_t bytes = problem.batchStride(arg) *
                    (arg == argC ? signature.cBytes() : signature.abBytes());
    if (bytes > (int64_t(1) << 31))
      return badInput(llvm::formatv("one batch's {0} takes {1} bytes, more "
                                    "than the 2 GiB the kernel's 32-bit "
                                    "offsets reach",
                                    "ABC"[arg], bytes));
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Element encodings
//===----------------------------------------------------------------------===//

/// `value` in C's element type, rounded to nearest even, as bytes.
static void encodeC(const GemmSignature &s, double value, uint8_t *out) {
  encodeResult(s.cElement, value, out);
}

static double decodeC(const GemmSignature &s, const uint8_t *in) {
  return decodeResult(s.cElement, in);
}

double decodeAB(const GemmSignature &s, uint16_t code) {
  return decodeInput(s.abElement, code);
}

/// `value` rounded to nearest even into A's and B's type; none when the
/// type cannot hold it (beyond an fp8 format's range).
static std::optional<uint16_t> encodeAB(const GemmSignature &s, double value) {
  return encodeInput(s.abElement, value);
}

/// Byte offset of element (b, r, c) of stored matrix `arg`.
static int64_t storedOffset(const GemmProblem &p, unsigned arg, int64_t b,
                            int64_t r, int64_t c) {
  int64_t bytes = arg == argC ? p.signature.cBytes() : p.signature.abBytes();
  return (b * p.batchStride(arg) + r * p.leadingDim(arg) + c) * bytes;
}

double readC(const GemmProblem &problem, const std::vector<uint8_t> &c,
             int64_t b, int64_t m, int64_t n) {
  return decodeC(problem.signature,
                 c.data() + storedOffset(problem, argC, b, m, n));
}

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

/// Fills the `count` stored matrices (rows x cols, row-major, one after the
/// other) of A's or B's codes (bf16 bits, fp8 bytes) as `spec` says: empty
/// or "random" keeps what is there, "zeros", "range" (small exact integers
/// (row + col) % 16 - 8), or a .npy of shape (rows, cols) (count 1) or
/// (count, rows, cols): float32 values are rounded to nearest even (and must
/// fit the type), uint16 values are bf16 bits, uint8 values fp8 bytes.
static llvm::Error fillMatrices(const GemmSignature &s, StringRef spec,
                                int64_t count, int64_t rows, int64_t cols,
                                std::vector<uint16_t> &out) {
  if (spec.empty() || spec == "random")
    return llvm::Error::success();
  if (spec == "zeros" || spec == "range") {
    for (int64_t i = 0; i < count; ++i)
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c)
          out[(i * rows + r) * cols + c] =
              *encodeAB(s, spec == "zeros" ? 0.0 : double((r + c) % 16 - 8));
    return llvm::Error::success();
  }
  StringRef path = spec;
  llvm::Expected<NpyArray> array = readNpy(path);
  if (!array)
    return array.takeError();
  std::vector<int64_t> want = {rows, cols};
  if (count > 1)
    want.insert(want.begin(), count);
  if (array->shape != want)
    return error(llvm::formatv(
        "'{0}' has shape ({1}), the kernel needs ({2})", path,
        llvm::join(llvm::map_range(array->shape,
                                   [](int64_t n) { return std::to_string(n); }),
                   ", "),
        llvm::join(
            llvm::map_range(want, [](int64_t n) { return std::to_string(n); }),
            ", ")));
  int64_t n = count * rows * cols;
  StringRef codes = s.fp8() ? "|u1" : "<u2";
  if (array->dtype == codes) {
    for (int64_t i = 0; i < n; ++i)
      out[i] = s.fp8()
                   ? array->data[i]
                   : uint16_t(array->data[2 * i] | array->data[2 * i + 1] << 8);
  } else if (array->dtype == "<f4") {
    for (int64_t i = 0; i < n; ++i) {
      float f;
      std::memcpy(&f, array->data.data() + 4 * i, 4);
      std::optional<uint16_t> code = encodeAB(s, f);
      if (!code)
        return error(llvm::formatv("'{0}' holds {1} at element {2}, beyond "
                                   "the range of {3}",
                                   path, f, i, dtypeName(s.abElement)));
      out[i] = *code;
    }
  } else {
    return error("'" + path + "' holds " + array->dtype +
                 "; hk-run reads "
                 "float32 (<f4) or " +
                 (s.fp8()
                      ? (dtypeName(s.abElement) + " bytes (uint8, |u1)").str()
                      : std::string("bf16 bits (<u2)")));
  }
  return llvm::Error::success();
}

/// The largest magnitude the fp8 draws reach: the format's largest, or for
/// a C type that could not hold K products of it (f16), the largest power
/// of two L with K L^2 |scale| within half of C's largest finite value
/// (|scale| counts the per-tensor scales and the block scales' 2^12 at most).
static double fp8DrawLimit(const GemmProblem &p) {
  const GemmSignature &s = p.signature;
  const llvm::fltSemantics &c =
      s.cElement == ElementKind::f16    ? llvm::APFloat::IEEEhalf()
      : s.cElement == ElementKind::bf16 ? llvm::APFloat::BFloat()
                                        : llvm::APFloat::IEEEsingle();
  double scale = std::fabs(double(p.scaleA) * p.scaleB) *
                 (s.blockScales ? std::ldexp(1.0, 12) : 1.0);
  return run::fp8DrawLimit(s.abElement,
                           llvm::APFloat::getLargest(c).convertToDouble() / 2,
                           p.shape.K, scale);
}

/// Each of the `count` rows x cols matrices of `matrix`, or its transpose
/// (cols x rows) when `transpose`.
static std::vector<uint16_t> transposed(const std::vector<uint16_t> &matrix,
                                        int64_t count, int64_t rows,
                                        int64_t cols, bool transpose) {
  if (!transpose)
    return matrix;
  std::vector<uint16_t> out(matrix.size());
  for (int64_t i = 0; i < count; ++i)
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        out[(i * cols + c) * rows + r] = matrix[(i * rows + r) * cols + c];
  return out;
}

/// The kernel's buffer of stored matrix `arg`: NaN everywhere (padding
/// included) but the elements `element(b, r, c)` writes.
template <typename Fn>
static std::vector<uint8_t> layOut(const GemmProblem &p, unsigned arg,
                                   Fn element) {
  auto [rows, cols] = p.storedSize(arg);
  int64_t bytes = arg == argC ? p.signature.cBytes() : p.signature.abBytes();
  std::vector<uint8_t> buffer(p.batch * p.batchStride(arg) * bytes, 0xff);
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        element(b, r, c, buffer.data() + storedOffset(p, arg, b, r, c));
  return buffer;
}

/// Writes the run's inputs where --save-inputs says, in the forms --a, --b
/// and --scales-a/--scales-b read back: A and B as stored (bf16 bits as
/// uint16, fp8 codes as uint8), the E8M0 block scales as uint8. .npy has no
/// fp8 types, so the format is in the message (and the kernel's --dtype).
static llvm::Error saveInputs(StringRef prefix, const GemmProblem &p,
                              GemmInputs &in,
                              const std::vector<uint16_t> &storedA,
                              const std::vector<uint16_t> &storedB) {
  const GemmSignature &s = p.signature;
  auto save = [&](StringRef what, StringRef suffix, std::vector<int64_t> shape,
                  StringRef codes, std::vector<uint8_t> data) -> llvm::Error {
    std::string path = (prefix + suffix).str();
    StringRef dtype = codes == "bf16" ? "<u2" : "|u1";
    if (llvm::Error e = writeNpy(path, NpyArray{dtype.str(), shape, data}))
      return e;
    in.saved.push_back(llvm::formatv(
        "wrote {0} ({1}, {2} {3}) to {4}", what,
        llvm::join(
            llvm::map_range(shape, [](int64_t n) { return std::to_string(n); }),
            " x "),
        codes,
        codes == "bf16" ? "bits as uint16 (<u2)" : "codes as uint8 (|u1)",
        path));
    return llvm::Error::success();
  };
  for (auto [arg, stored, name] :
       {std::tuple{argA, &storedA, "A"}, std::tuple{argB, &storedB, "B"}}) {
    auto [rows, cols] = p.storedSize(arg);
    std::vector<int64_t> shape = {rows, cols};
    if (p.batch > 1)
      shape.insert(shape.begin(), p.batch);
    std::vector<uint8_t> bytes(stored->size() * s.abBytes());
    for (size_t i = 0; i < stored->size(); ++i)
      std::memcpy(bytes.data() + i * s.abBytes(), &(*stored)[i],
                  s.abBytes()); // little-endian
    if (llvm::Error e = save(name, arg == argA ? "a.npy" : "b.npy", shape,
                             dtypeName(s.abElement), std::move(bytes)))
      return e;
  }
  if (!s.blockScales)
    return llvm::Error::success();
  int64_t blocks = llvm::divideCeil(p.shape.K, kScaleBlockK);
  if (llvm::Error e = save("the block scales of A", "scales_a.npy",
                           {p.shape.M, blocks}, "e8m0", in.scalesA))
    return e;
  return save("the block scales of B", "scales_b.npy", {p.shape.N, blocks},
              "e8m0", in.scalesB);
}

llvm::Error makeGemmInputs(const GemmConfig &config, const GemmProblem &p,
                           GemmInputs &in) {
  int64_t M = p.shape.M, N = p.shape.N, K = p.shape.K, B = p.batch;
  in.a.resize(B * M * K);
  in.b.resize(B * N * K);
  const GemmSignature &s = p.signature;
  const bool identity = config.run.test == TestKind::identity;
  std::mt19937 rng(config.run.seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  double limit = s.fp8() ? fp8DrawLimit(p) : 0.0;
  for (uint16_t &x : in.a)
    x = drawInput(s.abElement, limit, rng);
  uint16_t one = *encodeAB(s, 1.0), zero = *encodeAB(s, 0.0);
  for (int64_t i = 0; i < B * N * K; ++i) {
    int64_t n = i / K % N, k = i % K;
    in.b[i] =
        identity ? (n == k ? one : zero) : drawInput(s.abElement, limit, rng);
  }
  // --a and --b hold A and B as --layout stores them.
  auto [rowsA, colsA] = p.storedSize(argA);
  auto [rowsB, colsB] = p.storedSize(argB);
  std::vector<uint16_t> storedA = transposed(in.a, B, M, K, p.shape.transposeA);
  std::vector<uint16_t> storedB =
      transposed(in.b, B, N, K, !p.shape.transposeB);
  if (llvm::Error e = fillMatrices(s, config.inputA, B, rowsA, colsA, storedA))
    return e;
  if (llvm::Error e = fillMatrices(s, config.inputB, B, rowsB, colsB, storedB))
    return e;
  in.a = transposed(storedA, B, rowsA, colsA, p.shape.transposeA);
  in.b = transposed(storedB, B, rowsB, colsB, !p.shape.transposeB);

  // C: N(0, 1) values when beta reads them, else NaN (BLAS reads no C).
  bool readsC = p.signature.alphaBeta && p.beta != 0.0f;
  in.c0.assign(B * M * N, 0.0);
  if (readsC)
    for (double &x : in.c0) {
      uint8_t bytes[4];
      encodeC(p.signature, normal(rng), bytes);
      x = decodeC(p.signature, bytes);
    }
  in.bias.assign(N, 0.0f);
  StringRef bias = config.bias ? StringRef(*config.bias) : StringRef();
  if (bias == "random") {
    for (float &x : in.bias)
      x = normal(rng);
  } else if (!bias.empty() && bias != "zeros") {
    llvm::Expected<NpyArray> array = readNpy(bias);
    if (!array)
      return array.takeError();
    if (array->dtype != "<f4" || array->shape != std::vector<int64_t>{N})
      return badInput(llvm::formatv("'{0}' must be float32 (<f4) of shape "
                                    "({1},) for --bias, got {2} of {3} "
                                    "dimensions",
                                    bias, N, array->dtype,
                                    array->shape.size()));
    std::memcpy(in.bias.data(), array->data.data(), N * 4);
  }

  // MXFP8 block scales: 2^-6..2^6 at random (1.0 for the identity test),
  // or E8M0 bytes from a uint8 .npy.
  if (s.blockScales) {
    int64_t blocks = llvm::divideCeil(K, kScaleBlockK);
    for (auto [codes, rows, spec] :
         {std::tuple{&in.scalesA, M, StringRef(config.scalesA)},
          std::tuple{&in.scalesB, N, StringRef(config.scalesB)}}) {
      codes->resize(rows * blocks);
      std::uniform_int_distribution<int> exponent(127 - 6, 127 + 6);
      for (uint8_t &code : *codes)
        code = identity ? 127 : exponent(rng);
      if (spec.empty() || spec == "random")
        continue;
      llvm::Expected<NpyArray> array = readNpy(spec);
      if (!array)
        return array.takeError();
      if (array->dtype != "|u1" ||
          array->shape != std::vector<int64_t>{rows, blocks})
        return badInput(llvm::formatv("'{0}' must hold E8M0 bytes (uint8, "
                                      "|u1) of shape ({1}, {2}), got {3} of "
                                      "{4} dimensions",
                                      spec, rows, blocks, array->dtype,
                                      array->shape.size()));
      std::memcpy(codes->data(), array->data.data(), codes->size());
    }
  }

  auto abMatrix = [&](unsigned arg, const std::vector<uint16_t> &stored) {
    int64_t rows = p.storedSize(arg).first, cols = p.storedSize(arg).second;
    return layOut(p, arg, [&](int64_t b, int64_t r, int64_t c, uint8_t *out) {
      uint16_t code = stored[(b * rows + r) * cols + c];
      std::memcpy(out, &code, s.abBytes()); // little-endian
    });
  };
  in.buffers = {
      abMatrix(argA, storedA), abMatrix(argB, storedB),
      layOut(p, argC, [&](int64_t b, int64_t m, int64_t n, uint8_t *out) {
        if (readsC)
          encodeC(p.signature, in.c0[(b * M + m) * N + n], out);
      })};
  if (p.signature.bias) {
    std::vector<uint8_t> biasBytes(N * 4);
    std::memcpy(biasBytes.data(), in.bias.data(), N * 4);
    in.buffers.push_back(std::move(biasBytes));
  }
  if (s.blockScales) {
    in.buffers.push_back(in.scalesA);
    in.buffers.push_back(in.scalesB);
  }
  if (!config.saveInputsPrefix.empty())
    if (llvm::Error e =
            saveInputs(config.saveInputsPrefix, p, in, storedA, storedB))
      return e;
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Check
//===----------------------------------------------------------------------===//

GemmCheck checkGemm(const RunConfig &config, const GemmProblem &p,
                    const GemmInputs &in, const std::vector<uint8_t> &c,
                    const std::vector<uint8_t> *other,
                    const std::vector<float> &expected) {
  int64_t M = p.shape.M, N = p.shape.N, K = p.shape.K;
  const GemmSignature &s = p.signature;
  GemmCheck r;
  const TestKind testKind = config.test;
  // Against the fp64 reference, C may be one rounding to its type off, plus
  // the fp32 accumulation error of the product (grows like sqrt(K), for
  // N(0, 1) inputs), scaled by alpha, plus the fp32 epilogue's roundings.
  double accumulationError =
      std::fabs(p.alpha) * std::ldexp(std::sqrt(double(K)), -12);
  // fp8: the inputs' magnitudes vary over the format's range, so the bound
  // is the deterministic one of an f32 sum of K exact products, scaled.
  double scale = double(p.scaleA) * p.scaleB;
  auto checkElement = [&](int64_t b, int64_t m, int64_t n) {
    int64_t offset = storedOffset(p, argC, b, m, n);
    double value = decodeC(s, c.data() + offset);
    double ref = 0, productError = accumulationError;
    bool ok;
    if (testKind == TestKind::identity) {
      // A B = A: K products, all zero but one, summed from +0 (so -0
      // comes back as +0).
      uint8_t want[4];
      encodeC(s, decodeAB(s, in.a[(b * M + m) * K + n]) + 0.0, want);
      ref = decodeC(s, want);
      ok = std::memcmp(c.data() + offset, want, s.cBytes()) == 0;
    } else if (other) {
      ref = decodeC(s, other->data() + offset);
      ok = std::memcmp(c.data() + offset, other->data() + offset, s.cBytes()) ==
           0;
    } else {
      double terms = 0;
      if (testKind == TestKind::expected) {
        ref = expected[(b * M + m) * N + n];
      } else {
        double product = 0, magnitude = 0;
        int64_t blocks = llvm::divideCeil(K, kScaleBlockK);
        for (int64_t k = 0; k < K; ++k) {
          double x = decodeAB(s, in.a[(b * M + m) * K + k]) *
                     decodeAB(s, in.b[(b * N + n) * K + k]);
          if (s.blockScales) {
            int e = in.scalesA[m * blocks + k / kScaleBlockK] +
                    in.scalesB[n * blocks + k / kScaleBlockK] - 2 * 127;
            x = std::ldexp(x, e);
          }
          product += x;
          magnitude += std::fabs(x);
        }
        double cTerm =
            p.beta != 0.0f ? double(p.beta) * in.c0[(b * M + m) * N + n] : 0.0;
        ref = double(p.alpha) * scale * product + cTerm + in.bias[n];
        terms = std::fabs(double(p.alpha) * scale * product) +
                std::fabs(cTerm) + std::fabs(in.bias[n]);
        if (s.fp8())
          productError =
              std::fabs(scale) * std::ldexp(double(K + 1), -24) * magnitude;
      }
      ok = std::fabs(value - ref) <= roundingBound(s.cElement, std::fabs(ref)) +
                                         productError + std::ldexp(terms, -22);
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
      if (r.mismatches.size() < GemmCheck::kShownMismatches)
        r.mismatches.push_back(llvm::formatv(
            "mismatch at C[{0}{1}][{2}]: got {3}, expected {4}",
            p.batch > 1 ? std::to_string(b) + "][" : "", m, n, value, ref));
    }
  };
  // C's padding must come back as it went in (NaN bytes).
  int64_t ldC = p.leadingDim(argC);
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = N; n < ldC; ++n) {
        const uint8_t *e = c.data() + storedOffset(p, argC, b, m, n);
        if (std::any_of(e, e + s.cBytes(), [](uint8_t x) { return x != 0xff; }))
          ++r.paddingWrites;
      }
  // A sample of more than half of C costs about as much as all of it, and
  // drawing it distinct would take ever longer: check everything instead.
  int64_t total = p.batch * M * N;
  const uint64_t checkSample = config.checkSample;
  if (checkSample == 0 || checkSample > uint64_t(total) / 2) {
    for (int64_t b = 0; b < p.batch; ++b)
      for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n)
          checkElement(b, m, n);
    return r;
  }
  // Distinct elements, so that the count checked is the count asked for.
  std::mt19937_64 rng(config.seed + 1);
  std::uniform_int_distribution<int64_t> element(0, total - 1);
  std::unordered_set<int64_t> seen;
  while (seen.size() < checkSample) {
    int64_t e = element(rng);
    if (seen.insert(e).second)
      checkElement(e / (M * N), e / N % M, e % N);
  }
  return r;
}

} // namespace mlir::hk::run
