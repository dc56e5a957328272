//===- GemmWorkload.cpp - the GEMM hk-run checks --------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "GemmWorkload.h"

#include "HK/Runtime/BFloat16.h"
#include "HK/Runtime/Npy.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

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

llvm::Expected<GemmSignature> readGemmSignature(ArrayRef<Type> types) {
  const char *expected =
      "A, B, C (bf16, bf16, and bf16, f16 or f32 memrefs, all 2-D or all 3-D "
      "with the batch first), optionally followed by bias (1-D f32 memref), "
      "alpha and beta (f32)";
  auto notGemm = [&](const llvm::Twine &why) {
    return error("not a GEMM kernel (" + llvm::Twine(expected) + "): " + why);
  };
  if (types.size() != 3 && types.size() != 6)
    return notGemm(llvm::formatv("it has {0} arguments", types.size()).str());
  GemmSignature s;
  s.epilogue = types.size() == 6;
  SmallVector<MemRefType> matrices;
  for (unsigned i = 0; i < 3; ++i) {
    auto m = dyn_cast<MemRefType>(types[i]);
    if (!m || (m.getRank() != 2 && m.getRank() != 3))
      return notGemm(llvm::formatv("argument #{0} is not a 2-D or 3-D memref",
                                   i)
                         .str());
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
  if (!matrices[0].getElementType().isBF16() ||
      !matrices[1].getElementType().isBF16())
    return notGemm("A and B must hold bf16");
  Type c = matrices[2].getElementType();
  if (c.isBF16())
    s.cElement = "bf16";
  else if (c.isF16())
    s.cElement = "f16";
  else if (c.isF32())
    s.cElement = "f32";
  else
    return notGemm("C must hold bf16, f16 or f32");
  if (s.epilogue) {
    auto bias = dyn_cast<MemRefType>(types[3]);
    if (!bias || bias.getRank() != 1 || !bias.getElementType().isF32() ||
        !bias.getLayout().isIdentity() || !types[4].isF32() ||
        !types[5].isF32())
      return notGemm("arguments #3 to #5 must be memref<?xf32>, f32, f32");
  }
  return s;
}

std::pair<int64_t, int64_t> GemmProblem::storedSize(unsigned arg) const {
  int64_t dims[3][2];
  shape.argumentSizes(dims);
  return {dims[arg][0], dims[arg][1]};
}

std::optional<int64_t> GemmProblem::extent(unsigned arg, int64_t dim) const {
  if (arg == argBias && signature.epilogue && dim == 0)
    return shape.N;
  if (arg > argC || dim < 0 || dim >= signature.rank)
    return std::nullopt;
  if (signature.rank == 3 && dim-- == 0)
    return batch;
  auto [rows, cols] = storedSize(arg);
  return dim == 0 ? rows : cols;
}

std::optional<int64_t> GemmProblem::stride(unsigned arg, int64_t dim) const {
  if (arg == argBias && signature.epilogue && dim == 0)
    return 1;
  if (arg > argC || dim < 0 || dim >= signature.rank)
    return std::nullopt;
  if (signature.rank == 3 && dim-- == 0)
    return batchStride(arg);
  return dim == 0 ? leadingDim(arg) : 1;
}

int makeGemmProblem(const GemmShape &shape, const GemmSignature &signature,
                    StringRef kernel, GemmProblem &problem) {
  problem = {shape, batchOption, padOption, alphaOption, betaOption,
             signature};
  if (problem.batch > 1 && signature.rank != 3)
    return fail(llvm::formatv("--batch={0} needs a batched kernel (3-D A, B "
                              "and C); '{1}' takes 2-D matrices",
                              problem.batch, kernel));
  if (problem.pad > 0 && !signature.strided)
    return fail(llvm::formatv("--pad needs a kernel taking strided matrices "
                              "(memref<...xbf16, strided<[?, 1]>>); '{0}' "
                              "takes row-major ones",
                              kernel));
  bool epilogueFlags = alphaOption.getNumOccurrences() ||
                       betaOption.getNumOccurrences() ||
                       biasOption.getNumOccurrences();
  if (epilogueFlags && !signature.epilogue)
    return fail(llvm::formatv("--alpha, --beta and --bias need a kernel with "
                              "an epilogue (bias, alpha, beta after C); '{0}' "
                              "has none",
                              kernel));
  // The kernel's offsets are 32-bit: each batch's matrix must fit them.
  for (unsigned arg : {argA, argB, argC}) {
    int64_t bytes = problem.batchStride(arg) *
                    (arg == argC ? signature.cBytes() : 2);
    if (bytes > (int64_t(1) << 31))
      return fail(llvm::formatv("one batch's {0} takes {1} bytes, more than "
                                "the 2 GiB the kernel's 32-bit offsets reach",
                                "ABC"[arg], bytes));
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// Element encodings
//===----------------------------------------------------------------------===//

/// `value` in C's element type, rounded to nearest even, as bytes.
static void encodeC(const GemmSignature &s, double value, uint8_t *out) {
  if (s.cElement == "f32") {
    float f = float(value);
    std::memcpy(out, &f, 4);
    return;
  }
  uint16_t bits;
  if (s.cElement == "bf16") {
    bits = floatToBf16(float(value));
  } else {
    llvm::APFloat f(value);
    bool lost;
    f.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven,
              &lost);
    bits = uint16_t(f.bitcastToAPInt().getZExtValue());
  }
  std::memcpy(out, &bits, 2);
}

static double decodeC(const GemmSignature &s, const uint8_t *in) {
  if (s.cElement == "f32") {
    float f;
    std::memcpy(&f, in, 4);
    return f;
  }
  uint16_t bits;
  std::memcpy(&bits, in, 2);
  if (s.cElement == "bf16")
    return bf16ToFloat(bits);
  return llvm::APFloat(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits))
      .convertToDouble();
}

/// Byte offset of element (b, r, c) of stored matrix `arg`.
static int64_t storedOffset(const GemmProblem &p, unsigned arg, int64_t b,
                            int64_t r, int64_t c) {
  int64_t bytes = arg == argC ? p.signature.cBytes() : 2;
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
/// other) of bf16 bits as `spec` says: empty or "random" keeps what is there
/// (seeded N(0, 1)), "zeros", "range" (small exact integers (row + col) % 16
/// - 8), or a .npy of shape (rows, cols) (count 1) or (count, rows, cols):
/// float32 values are rounded to nearest even, uint16 values are bf16 bits.
static llvm::Error fillMatrices(StringRef spec, int64_t count, int64_t rows,
                                int64_t cols, std::vector<uint16_t> &out) {
  if (spec.empty() || spec == "random")
    return llvm::Error::success();
  if (spec == "zeros" || spec == "range") {
    for (int64_t i = 0; i < count; ++i)
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c)
          out[(i * rows + r) * cols + c] =
              spec == "zeros" ? 0 : floatToBf16(float((r + c) % 16 - 8));
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
        llvm::join(llvm::map_range(want,
                                   [](int64_t n) { return std::to_string(n); }),
                   ", ")));
  int64_t n = count * rows * cols;
  if (array->dtype == "<u2") {
    std::memcpy(out.data(), array->data.data(), n * 2);
  } else if (array->dtype == "<f4") {
    for (int64_t i = 0; i < n; ++i) {
      float f;
      std::memcpy(&f, array->data.data() + 4 * i, 4);
      out[i] = floatToBf16(f);
    }
  } else {
    return error("'" + path + "' holds " + array->dtype +
                 "; hk-run reads float32 (<f4) or bf16 bits (<u2)");
  }
  return llvm::Error::success();
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
  int64_t bytes = arg == argC ? p.signature.cBytes() : 2;
  std::vector<uint8_t> buffer(p.batch * p.batchStride(arg) * bytes, 0xff);
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        element(b, r, c, buffer.data() + storedOffset(p, arg, b, r, c));
  return buffer;
}

int makeGemmInputs(const GemmProblem &p, GemmInputs &in) {
  int64_t M = p.shape.M, N = p.shape.N, K = p.shape.K, B = p.batch;
  in.a.resize(B * M * K);
  in.b.resize(B * N * K);
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (uint16_t &x : in.a)
    x = floatToBf16(normal(rng));
  for (int64_t i = 0; i < B * N * K; ++i) {
    int64_t n = i / K % N, k = i % K;
    in.b[i] = testKind == TestKind::identity
                  ? (n == k ? floatToBf16(1.0f) : 0)
                  : floatToBf16(normal(rng));
  }
  // --a and --b hold A and B as --layout stores them.
  auto [rowsA, colsA] = p.storedSize(argA);
  auto [rowsB, colsB] = p.storedSize(argB);
  std::vector<uint16_t> storedA = transposed(in.a, B, M, K, p.shape.transposeA);
  std::vector<uint16_t> storedB =
      transposed(in.b, B, N, K, !p.shape.transposeB);
  if (llvm::Error e = fillMatrices(inputA, B, rowsA, colsA, storedA))
    return fail(llvm::toString(std::move(e)));
  if (llvm::Error e = fillMatrices(inputB, B, rowsB, colsB, storedB))
    return fail(llvm::toString(std::move(e)));
  in.a = transposed(storedA, B, rowsA, colsA, p.shape.transposeA);
  in.b = transposed(storedB, B, rowsB, colsB, !p.shape.transposeB);

  // C: N(0, 1) values when beta reads them, else NaN (BLAS reads no C).
  bool readsC = p.signature.epilogue && p.beta != 0.0f;
  in.c0.assign(B * M * N, 0.0);
  if (readsC)
    for (double &x : in.c0) {
      uint8_t bytes[4];
      encodeC(p.signature, normal(rng), bytes);
      x = decodeC(p.signature, bytes);
    }
  in.bias.assign(N, 0.0f);
  StringRef bias = biasOption;
  if (bias == "random") {
    for (float &x : in.bias)
      x = normal(rng);
  } else if (!bias.empty() && bias != "zeros") {
    llvm::Expected<NpyArray> array = readNpy(bias);
    if (!array)
      return fail(llvm::toString(array.takeError()));
    if (array->dtype != "<f4" || array->shape != std::vector<int64_t>{N})
      return fail(llvm::formatv("'{0}' must be float32 (<f4) of shape ({1},) "
                                "for --bias, got {2} of {3} dimensions",
                                bias, N, array->dtype, array->shape.size()));
    std::memcpy(in.bias.data(), array->data.data(), N * 4);
  }

  auto bf16Matrix = [&](unsigned arg, const std::vector<uint16_t> &stored) {
    int64_t rows = p.storedSize(arg).first, cols = p.storedSize(arg).second;
    return layOut(p, arg, [&](int64_t b, int64_t r, int64_t c, uint8_t *out) {
      std::memcpy(out, &stored[(b * rows + r) * cols + c], 2);
    });
  };
  in.buffers = {bf16Matrix(argA, storedA), bf16Matrix(argB, storedB),
                layOut(p, argC, [&](int64_t b, int64_t m, int64_t n,
                                    uint8_t *out) {
                  if (readsC)
                    encodeC(p.signature, in.c0[(b * M + m) * N + n], out);
                })};
  if (p.signature.epilogue) {
    std::vector<uint8_t> biasBytes(N * 4);
    std::memcpy(biasBytes.data(), in.bias.data(), N * 4);
    in.buffers.push_back(std::move(biasBytes));
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// Check
//===----------------------------------------------------------------------===//

/// One rounding to C's element type, relative (2^-8 bf16, 2^-11 f16), with
/// f16's smallest subnormal step as an absolute floor.
static double roundingBound(const GemmSignature &s, double magnitude) {
  if (s.cElement == "bf16")
    return std::ldexp(magnitude, -8);
  if (s.cElement == "f16")
    return std::ldexp(magnitude, -11) + std::ldexp(1.0, -24);
  return std::ldexp(magnitude, -23);
}

GemmCheck checkGemm(const GemmProblem &p, const GemmInputs &in,
                    const std::vector<uint8_t> &c,
                    const std::vector<uint8_t> *other,
                    const std::vector<float> &expected) {
  int64_t M = p.shape.M, N = p.shape.N, K = p.shape.K;
  const GemmSignature &s = p.signature;
  GemmCheck r;
  int64_t shown = 0;
  // Against the fp64 reference, C may be one rounding to its type off, plus
  // the fp32 accumulation error of the product (grows like sqrt(K), for
  // N(0, 1) inputs), scaled by alpha, plus the fp32 epilogue's roundings.
  double accumulationError =
      std::fabs(p.alpha) * std::ldexp(std::sqrt(double(K)), -12);
  auto checkElement = [&](int64_t b, int64_t m, int64_t n) {
    int64_t offset = storedOffset(p, argC, b, m, n);
    double value = decodeC(s, c.data() + offset);
    double ref = 0;
    bool ok;
    if (testKind == TestKind::identity) {
      uint8_t want[4];
      encodeC(s, bf16ToFloat(in.a[(b * M + m) * K + n]), want);
      ref = decodeC(s, want);
      ok = std::memcmp(c.data() + offset, want, s.cBytes()) == 0;
    } else if (other) {
      ref = decodeC(s, other->data() + offset);
      ok = std::memcmp(c.data() + offset, other->data() + offset,
                       s.cBytes()) == 0;
    } else {
      double terms = 0;
      if (testKind == TestKind::expected) {
        ref = expected[(b * M + m) * N + n];
      } else {
        double product = 0;
        for (int64_t k = 0; k < K; ++k)
          product += double(bf16ToFloat(in.a[(b * M + m) * K + k])) *
                     bf16ToFloat(in.b[(b * N + n) * K + k]);
        double cTerm = p.beta != 0.0f
                           ? double(p.beta) * in.c0[(b * M + m) * N + n]
                           : 0.0;
        ref = double(p.alpha) * product + cTerm + in.bias[n];
        terms = std::fabs(double(p.alpha) * product) + std::fabs(cTerm) +
                std::fabs(in.bias[n]);
      }
      ok = std::fabs(value - ref) <= roundingBound(s, std::fabs(ref)) +
                                         accumulationError +
                                         std::ldexp(terms, -22);
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
        llvm::errs() << llvm::formatv(
            "mismatch at C[{0}{1}][{2}]: got {3}, expected {4}\n",
            p.batch > 1 ? std::to_string(b) + "][" : "", m, n, value, ref);
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
  if (r.paddingWrites)
    llvm::errs() << "the kernel wrote " << r.paddingWrites
                 << " elements of C's row padding\n";
  // A sample of more than half of C costs about as much as all of it, and
  // drawing it distinct would take ever longer: check everything instead.
  int64_t total = p.batch * M * N;
  if (checkSample == 0 || checkSample > uint64_t(total) / 2) {
    for (int64_t b = 0; b < p.batch; ++b)
      for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n)
          checkElement(b, m, n);
    return r;
  }
  // Distinct elements, so that the count checked is the count asked for.
  std::mt19937_64 rng(seed + 1);
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
