//===- MatrixOps.cpp - MFMA and WMMA instructions -------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The matrix instructions of hk's kernels, computed by the simulator's own
// implementation (HK/Runtime/MatrixMath.h) so that the two backends agree
// bit for bit: this file only gathers each lane's operand registers into
// the bytes the lane layout describes and scatters the result back.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include "HK/Runtime/MatrixMath.h"

#include "llvm/ADT/StringExtras.h"

#include <cstring>
#include <optional>
#include <variant>

using namespace llvm;

namespace mlir::hk::exec::detail {
namespace {

/// Every lane's registers of an operand, as consecutive bytes per lane
/// (`out` holds `stride` bytes per lane).
void gather(const Machine &m, const Wave &w, const Operand &o, uint8_t *out,
            unsigned stride) {
  // An inline constant C (0 for a product without accumulator) is the same
  // value in every register.
  unsigned count = o.kind == Operand::immediate ? 16 : o.count;
  for (unsigned i = 0; i < count; ++i) {
    Lanes32 source = o.kind == Operand::immediate
                         ? Lanes32{nullptr, uint32_t(o.imm)}
                         : vectorSource(m, w, o, i);
    for (unsigned lane = 0; lane < m.lanes; ++lane) {
      uint32_t v = source[lane];
      std::memcpy(out + lane * stride + 4 * i, &v, 4);
    }
  }
}

/// The value of "name:N" in `text`, or 0 when it is not printed.
unsigned printedField(StringRef text, StringRef name) {
  size_t at = text.find(name);
  unsigned value = 0;
  if (at != StringRef::npos)
    text.substr(at + name.size()).take_while(isDigit).getAsInteger(10, value);
  return value;
}
/// Element i of a printed "name:[a,b,c]" list, or 0.
unsigned printedListElement(StringRef text, StringRef name, unsigned i) {
  size_t at = text.find(name);
  if (at == StringRef::npos)
    return 0;
  SmallVector<StringRef, 3> parts;
  text.substr(at + name.size())
      .take_until([](char c) { return c == ']'; })
      .split(parts, ',');
  unsigned value = 0;
  if (i < parts.size())
    parts[i].trim().getAsInteger(10, value);
  return value;
}

/// The f8f6f4 format of a cbsz/blgp code
/// (docs/hardware/Fp8Facts.md#f8-format-codes).
std::optional<sim::MatrixFormat> fp8Format(unsigned code) {
  if (code == 0)
    return sim::MatrixFormat::e4m3;
  if (code == 1)
    return sim::MatrixFormat::e5m2;
  return std::nullopt;
}

/// The shape, lane layout and element formats of a matrix instruction, as
/// the simulator has them for its intrinsic (SimMatrix.cpp); an error
/// message when a form is not modelled.
std::variant<sim::MatrixForm, std::string> matrixForm(const Op &op) {
  using F = sim::MatrixFormat;
  StringRef mnemonic = op.instr->mnemonic, text = op.instr->text;
  if (mnemonic == "v_mfma_f32_16x16x32_bf16" ||
      mnemonic == "v_mfma_f32_32x32x16_bf16") {
    // CDNA4 ISA section 7: cbsz, abid and blgp broadcast operands; hk
    // never sets them.
    for (int64_t control : op.imms)
      if (control)
        return std::string("MFMA broadcast controls (cbsz/abid/blgp) are not "
                           "modelled");
    if (mnemonic.ends_with("16x16x32_bf16"))
      return sim::MatrixForm{false, 32, 8, F::bf16, F::bf16, false};
    return sim::MatrixForm{false, 16, 8, F::bf16, F::bf16, false, 32};
  }
  if (mnemonic == "v_mfma_f32_16x16x128_f8f6f4" ||
      mnemonic == "v_mfma_scale_f32_16x16x128_f8f6f4") {
    // cbsz and blgp select A's and B's formats here (CDNA4 ISA 7.x).
    std::optional<F> a = fp8Format(printedField(text, "cbsz:")),
                     b = fp8Format(printedField(text, "blgp:"));
    if (!a || !b)
      return std::string("f8f6f4 MFMA formats other than e4m3 and e5m2 "
                         "(cbsz/blgp 0 or 1) are not modelled");
    return sim::MatrixForm{false, 128, 32, *a, *b, true};
  }
  if (mnemonic == "v_wmma_f32_16x16x16_bf16")
    return sim::MatrixForm{true, 16, 8, F::bf16, F::bf16, false};
  if (mnemonic.starts_with("v_wmma_f32_16x16x16_")) {
    StringRef types =
        mnemonic.drop_front(StringRef("v_wmma_f32_16x16x16_").size());
    auto [first, second] = types.split('_');
    auto format = [](StringRef t) { return t == "bf8" ? F::e5m2 : F::e4m3; };
    return sim::MatrixForm{true, 16, 8, format(first), format(second), true};
  }
  return std::string("matrix instruction not modelled");
}

/// MXFP8 scales: per lane, the byte op_sel (low bit) and op_sel_hi (high
/// bit) select of its scale register gives the exponent of row lane % 16,
/// 32-k block lane / 16 (docs/hardware/Fp8Facts.md#mxfp8), as the
/// simulator reads the intrinsic's op_sel arguments.
void readScales(const Machine &m, const Wave &w, const Op &op, unsigned byteA,
                unsigned byteB, sim::MatrixScales &scales) {
  Lanes32 a = vectorSource(m, w, op.src[3]), b = vectorSource(m, w, op.src[4]);
  for (unsigned lane = 0; lane < m.lanes; ++lane) {
    scales.a[lane % 16][lane / 16] = uint8_t(a[lane] >> (8 * byteA));
    scales.b[lane % 16][lane / 16] = uint8_t(b[lane] >> (8 * byteB));
  }
}

/// A matrix instruction as its handler reads it, decoded once.
struct MatrixDecoded {
  std::variant<sim::MatrixForm, std::string> form;
  /// The scale bytes of a scaled MFMA: op_sel the low bit, op_sel_hi the
  /// high one, for A ([0]) and B ([1]).
  unsigned scaleByte[2] = {0, 0};
};

MatrixDecoded decodeMatrix(const Op &op) {
  MatrixDecoded d{matrixForm(op)};
  StringRef text = op.instr->text;
  for (unsigned i = 0; i < 2; ++i)
    d.scaleByte[i] = printedListElement(text, "op_sel:[", i) |
                     printedListElement(text, "op_sel_hi:[", i) << 1;
  return d;
}

bool matrix(Machine &m, Wave &w, const Op &op) {
  unsigned index = w.pc - 1;
  ++m.stats.mmas;
  if (!allLanesActive(m, w))
    return m.fail(ExecError::Kind::badInput, w, index,
                  "a matrix instruction with inactive lanes is not modelled");
  if (!op.derived)
    op.derived = std::make_shared<const MatrixDecoded>(decodeMatrix(op));
  const MatrixDecoded &decoded =
      *static_cast<const MatrixDecoded *>(op.derived.get());
  const std::variant<sim::MatrixForm, std::string> &form = decoded.form;
  if (auto *message = std::get_if<std::string>(&form))
    return m.fail(ExecError::Kind::badInput, w, index, *message);
  for (const Operand &src : op.src)
    if (src.mods)
      return m.fail(ExecError::Kind::badInput, w, index,
                    "matrix operand modifiers are not modelled");
  bool scaled = StringRef(op.instr->mnemonic).starts_with("v_mfma_scale_");
  if (op.src.size() != (scaled ? 5u : 3u) ||
      op.src[0].kind == Operand::immediate ||
      op.src[1].kind == Operand::immediate)
    return m.fail(ExecError::Kind::badInput, w, index,
                  "a matrix instruction needs A, B and C in registers");
  unsigned lanes = m.lanes;
  static thread_local uint8_t a[64][32], b[64][32], c[64][64], d[64][64];
  SmallVector<unsigned, 64> all;
  for (unsigned lane = 0; lane < lanes; ++lane)
    all.push_back(lane);
  gather(m, w, op.src[0], &a[0][0], sizeof(a[0]));
  gather(m, w, op.src[1], &b[0][0], sizeof(b[0]));
  gather(m, w, op.src[2], &c[0][0], sizeof(c[0]));
  sim::MatrixScales scales;
  if (scaled)
    readScales(m, w, op, decoded.scaleByte[0], decoded.scaleByte[1], scales);
  auto pa = [&](unsigned l) -> const uint8_t * { return a[l]; };
  auto pb = [&](unsigned l) -> const uint8_t * { return b[l]; };
  auto pc = [&](unsigned l) -> const uint8_t * { return c[l]; };
  auto pd = [&](unsigned l) -> uint8_t * { return d[l]; };
  sim::MatrixOperands operands{pa, pb, pc, pd};
  sim::multiplyAccumulate(std::get<sim::MatrixForm>(form), all, operands,
                          scaled ? &scales : nullptr);
  const Operand &dst = op.dst[0];
  for (unsigned i = 0; i < dst.count; ++i) {
    uint32_t *out = vectorDest(m, w, dst, i);
    for (unsigned lane = 0; lane < lanes; ++lane)
      std::memcpy(&out[lane], &d[lane][4 * i], 4);
  }
  return true;
}

} // namespace

void registerMatrixOps(HandlerMap &map) {
  // D = C + A * B^T. gfx950: bf16 16x16x32 and 32x32x16, fp8 16x16x128
  // (f8f6f4) and its MXFP8-scaled form; gfx1201 (wave32): bf16 and fp8
  // 16x16x16.
  for (StringRef name :
       {"v_mfma_f32_16x16x32_bf16", "v_mfma_f32_32x32x16_bf16",
        "v_mfma_f32_16x16x128_f8f6f4", "v_mfma_scale_f32_16x16x128_f8f6f4",
        "v_wmma_f32_16x16x16_bf16", "v_wmma_f32_16x16x16_fp8_fp8",
        "v_wmma_f32_16x16x16_fp8_bf8", "v_wmma_f32_16x16x16_bf8_fp8",
        "v_wmma_f32_16x16x16_bf8_bf8"})
    map[name] = matrix;
}

} // namespace mlir::hk::exec::detail
