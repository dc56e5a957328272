//===- RegisterTileLowering.cpp - register-tile algebra -------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// hk.map (elementwise, with row and column broadcasts), hk.any (a ballot
// over the lanes' or-ed predicates), hk.reduce (in-lane,
// then across lanes in registers: permlane swaps, permlanex16 or DPP, from
// the chip's accumulator layout), hk.mask (a predicate on each element's
// position from the lane layout), and math.exp2 / math.log2 on f32 as the
// chip's v_exp_f32 / v_log_f32 (upstream would call device libraries).
//
//===----------------------------------------------------------------------===//

#include "LoweringSupport.h"

#include "HK/Conversion/HKToAMDGPU/LayoutEmission.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::hk;
using namespace mlir::hk::detail;

namespace {

Value extractElement(OpBuilder &b, Location loc, Value vector, int64_t i) {
  return vector::ExtractOp::create(b, loc, vector, ArrayRef<int64_t>{i});
}

/// Clones the element body of an hk.map or hk.mask once, its arguments bound
/// to `arguments`, and returns the value its hk.yield yields.
Value cloneElementBody(OpBuilder &b, Block &body, ValueRange arguments) {
  IRMapping mapping;
  mapping.map(body.getArguments(), arguments);
  for (Operation &nested : body.without_terminator())
    b.clone(nested, mapping);
  return mapping.lookupOrDefault(
      cast<YieldOp>(body.getTerminator()).getValues()[0]);
}

/// Where element `index` of an accumulator's lane vector sits among the
/// lane's row and column vectors: element i of fragment (fi, fj) is in the
/// lane's row fi * E + i and its column fj (LaneLayout.h: an accumulator
/// element's row depends on the lane and i, its column on the lane only).
struct AccIndex {
  int64_t rowElement, colElement;
};
AccIndex accIndex(FragmentType acc, int64_t elemsPerLane, int64_t index) {
  int64_t fragment = index / elemsPerLane, i = index % elemsPerLane;
  int64_t fi = fragment / acc.getNumFragmentCols();
  int64_t fj = fragment % acc.getNumFragmentCols();
  return {fi * elemsPerLane + i, fj};
}

/// hk.map: the body cloned once per element of the lane vectors; a row or
/// column input gives the element of the result's row or column.
struct MapLowering : ChipLowering<MapOp> {
  using ChipLowering::ChipLowering;

  LogicalResult
  matchAndRewrite(MapOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FragmentType resultType = op.getType();
    auto type = getTypeConverter()->convertType<VectorType>(resultType);
    const MmaInstr *instr = getInstr(op, resultType);
    if (!type || !instr)
      return rewriter.notifyMatchFailure(op, "fragment type not convertible");
    int64_t accElems =
        getFragmentShape(instr->layout, FragmentRole::acc).elemsPerLane;
    Block &body = op.getBody().front();
    SmallVector<Value> elements;
    for (int64_t e = 0; e < type.getNumElements(); ++e) {
      SmallVector<Value> arguments;
      for (auto [input, value] :
           llvm::zip(op.getInputs(), adaptor.getInputs())) {
        FragmentRole role = cast<FragmentType>(input.getType()).getRole();
        int64_t index = e;
        if (role != resultType.getRole()) {
          AccIndex at = accIndex(resultType, accElems, e);
          index = role == FragmentRole::row ? at.rowElement : at.colElement;
        }
        arguments.push_back(extractElement(rewriter, loc, value, index));
      }
      elements.push_back(cloneElementBody(rewriter, body, arguments));
    }
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, type, elements);
    return success();
  }
};

/// hk.reduce: a balanced tree of the lane's own elements per row or column,
/// then the exchanges across the lanes sharing it.
struct ReduceLowering : ChipLowering<ReduceOp> {
  using ChipLowering::ChipLowering;

  Value combine(OpBuilder &b, Location loc, ReduceKind kind, Value x,
                Value y) const {
    if (kind == ReduceKind::max)
      return arith::MaximumFOp::create(b, loc, x, y);
    return arith::AddFOp::create(b, loc, x, y);
  }

  /// Maxima in threes, max(max(a, b), c), which the backend issues as one
  /// three-operand maximum (v_maximum3_f32): about n / 2 instructions for
  /// n values, against n - 1 in pairs. Sums in pairs (no f32 add3; the
  /// order is part of the result).
  Value tree(OpBuilder &b, Location loc, ReduceKind kind,
             SmallVector<Value> values) const {
    size_t arity = kind == ReduceKind::max ? 3 : 2;
    while (values.size() > 1) {
      SmallVector<Value> next;
      size_t i = 0;
      for (; i + arity <= values.size(); i += arity) {
        Value x = combine(b, loc, kind, values[i], values[i + 1]);
        if (arity == 3)
          x = combine(b, loc, kind, x, values[i + 2]);
        next.push_back(x);
      }
      if (i + 1 < values.size())
        next.push_back(combine(b, loc, kind, values[i], values[i + 1]));
      else if (i < values.size())
        next.push_back(values[i]);
      values = std::move(next);
    }
    return values.front();
  }

  /// op(own, partner) from a permlane swap, which returns the two in an
  /// order that depends on the lane: op is commutative, so every lane of a
  /// pair gets the same bits.
  Value swapAndCombine(OpBuilder &b, Location loc, ReduceKind kind, Value x,
                       bool across32) const {
    Type i32 = b.getI32Type();
    Value bits = arith::BitcastOp::create(b, loc, i32, x);
    auto pair = LLVM::LLVMStructType::getLiteral(b.getContext(), {i32, i32});
    Value swapped = across32
                        ? ROCDL::Permlane32SwapOp::create(b, loc, pair, bits,
                                                          bits, false, false)
                              .getResult()
                        : ROCDL::Permlane16SwapOp::create(b, loc, pair, bits,
                                                          bits, false, false)
                              .getResult();
    auto half = [&](int64_t i) {
      Value v = LLVM::ExtractValueOp::create(b, loc, swapped, i);
      return arith::BitcastOp::create(b, loc, x.getType(), v);
    };
    return combine(b, loc, kind, half(0), half(1));
  }

  /// The lanes holding one accumulator column: the lane groups l / width
  /// (four of 16 lanes, or at 32x32 two of 32).
  Value acrossGroups(OpBuilder &b, Location loc, ReduceKind kind, Value x,
                     MmaLayout layout) const {
    if (chip.waveSize == 64) {
      x = swapAndCombine(b, loc, kind, x, /*across32=*/true);
      if (getLaneGroupWidth(layout) == 32)
        return x;
      return swapAndCombine(b, loc, kind, x, /*across32=*/false);
    }
    // wave32: lane l reads lane l ^ 16 (identity selects of the other row),
    // inactive lanes included (fi), so `old` is never read: poison, which
    // spares a copy of x into the destination.
    Value lo = constI32(b, loc, 0x76543210);
    Value hi = constI32(b, loc, int64_t(0xfedcba98));
    Value old = LLVM::PoisonOp::create(b, loc, x.getType());
    Value partner = ROCDL::PermlaneX16Op::create(b, loc, x.getType(), old, x,
                                                 lo, hi, /*fi=*/true, false);
    return combine(b, loc, kind, x, partner);
  }

  /// The lanes holding one accumulator row: the 16 lanes of a DPP row (at
  /// 32x32, two DPP rows, then a permlane16 swap).
  Value acrossRow(OpBuilder &b, Location loc, ReduceKind kind, Value x,
                  MmaLayout layout) const {
    auto quad = [&](ArrayRef<int32_t> perm) { return b.getI32ArrayAttr(perm); };
    struct Step {
      amdgpu::DPPPerm kind;
      Attribute argument;
    } steps[] = {{amdgpu::DPPPerm::quad_perm, quad({1, 0, 3, 2})},
                 {amdgpu::DPPPerm::quad_perm, quad({2, 3, 0, 1})},
                 {amdgpu::DPPPerm::row_half_mirror, nullptr},
                 {amdgpu::DPPPerm::row_mirror, nullptr}};
    // Every lane reads a lane of its own row, so `old` is never used; zero
    // with bound_ctrl lets LLVM fold the move into the combining op
    // (v_add_f32_dpp).
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(x.getType()));
    for (const Step &step : steps) {
      Value moved = amdgpu::DPPOp::create(
          b, loc, x.getType(), zero, x,
          amdgpu::DPPPermAttr::get(b.getContext(), step.kind), step.argument,
          /*row_mask=*/nullptr, /*bank_mask=*/nullptr, b.getBoolAttr(true));
      x = combine(b, loc, kind, x, moved);
    }
    if (getLaneGroupWidth(layout) == 32)
      return swapAndCombine(b, loc, kind, x, /*across32=*/false);
    return x;
  }

  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FragmentType input = op.getInput().getType();
    auto type = getTypeConverter()->convertType<VectorType>(op.getType());
    const MmaInstr *instr = getInstr(op, input);
    if (!type || !instr)
      return failure();
    int64_t e = getFragmentShape(instr->layout, FragmentRole::acc).elemsPerLane;
    int64_t rows = input.getNumFragmentRows(),
            cols = input.getNumFragmentCols();
    Value v = adaptor.getInput();
    auto at = [&](int64_t fi, int64_t fj, int64_t i) {
      return extractElement(rewriter, loc, v, (fi * cols + fj) * e + i);
    };
    ReduceKind kind = op.getKind();
    SmallVector<Value> results;
    if (op.getType().getRole() == FragmentRole::col) {
      for (int64_t fj = 0; fj < cols; ++fj) {
        SmallVector<Value> own;
        for (int64_t fi = 0; fi < rows; ++fi)
          for (int64_t i = 0; i < e; ++i)
            own.push_back(at(fi, fj, i));
        results.push_back(acrossGroups(rewriter, loc, kind,
                                       tree(rewriter, loc, kind, own),
                                       instr->layout));
      }
    } else {
      for (int64_t fi = 0; fi < rows; ++fi)
        for (int64_t i = 0; i < e; ++i) {
          SmallVector<Value> own;
          for (int64_t fj = 0; fj < cols; ++fj)
            own.push_back(at(fi, fj, i));
          results.push_back(acrossRow(rewriter, loc, kind,
                                      tree(rewriter, loc, kind, own),
                                      instr->layout));
        }
    }
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, type, results);
    return success();
  }
};

/// hk.to_operand: a shuffle of the lane's own registers (and a rounding),
/// or block scales arranged for the MFMA (all the inputs' words together).
struct ToOperandLowering : ChipLowering<ToOperandOp> {
  using ChipLowering::ChipLowering;

  LogicalResult
  matchAndRewrite(ToOperandOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto result = cast<FragmentType>(op.getOutputs().front().getType());
    if (result.getRole() == FragmentRole::scale_mma) {
      SmallVector<VectorType> types;
      SmallVector<Value> words;
      for (auto [input, output] :
           llvm::zip(adaptor.getInputs(), op.getOutputs())) {
        types.push_back(
            getTypeConverter()->convertType<VectorType>(output.getType()));
        if (!types.back())
          return failure();
        for (int64_t w = 0; w < types.back().getNumElements(); ++w)
          words.push_back(vector::ExtractOp::create(rewriter, loc, input, w));
      }
      SmallVector<Value> arranged = arrangeScaleWords(rewriter, loc, words);
      SmallVector<Value> results;
      ArrayRef<Value> rest = arranged;
      for (VectorType type : types) {
        results.push_back(vector::FromElementsOp::create(
            rewriter, loc, type, rest.take_front(type.getNumElements())));
        rest = rest.drop_front(type.getNumElements());
      }
      rewriter.replaceOp(op, results);
      return success();
    }
    FragmentType input = cast<FragmentType>(op.getInputs().front().getType());
    auto type = getTypeConverter()->convertType<VectorType>(result);
    const MmaInstr *instr = getInstr(op, result);
    if (!type || !instr)
      return failure();
    int64_t e = getFragmentShape(instr->layout, FragmentRole::acc).elemsPerLane;
    FragmentShape operand =
        getFragmentShape(instr->layout, result.getLaneLayout());
    // A lane's k in the operand follow its accumulator elements down the
    // rows (LaneLayout.h): element i of B fragment (rb, cb) is the lane's
    // element g = cb * n + i (n per operand fragment) of accumulator column
    // rb, that is element g % e of accumulator fragment (g / e, rb). One
    // operand fragment spans whole accumulator fragments (16x16x32) or an
    // accumulator fragment whole operand fragments (32x32x16).
    int64_t n = operand.elemsPerLane;
    if (n % e != 0 && e % n != 0)
      return op.emitOpError() << chip.name << "'s " << result
                              << " is not made of whole accumulator fragments";
    SmallVector<int64_t> mask;
    for (int64_t rb = 0; rb < result.getNumFragmentRows(); ++rb)
      for (int64_t cb = 0; cb < result.getNumFragmentCols(); ++cb)
        for (int64_t i = 0; i < n; ++i) {
          int64_t g = cb * n + i, fi = g / e, fj = rb;
          mask.push_back((fi * input.getNumFragmentCols() + fj) * e + g % e);
        }
    Value v = adaptor.getInputs().front();
    Value moved = vector::ShuffleOp::create(rewriter, loc, v, v, mask);
    if (input.getElementType() != result.getElementType())
      moved = arith::TruncFOp::create(rewriter, loc, type, moved);
    rewriter.replaceOp(op, moved);
    return success();
  }
};

/// hk.mask: each element's (row, col) from the lane layout, the body cloned
/// on it, and a select.
struct MaskLowering : ChipLowering<MaskOp> {
  using ChipLowering::ChipLowering;

  LogicalResult
  matchAndRewrite(MaskOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FragmentType fragment = op.getType();
    auto type = getTypeConverter()->convertType<VectorType>(fragment);
    const MmaInstr *instr = getInstr(op, fragment);
    FailureOr<Value> lane = emitLaneId(rewriter, op);
    if (!type || !instr || failed(lane))
      return failure();
    // The lane's first element, once; every other element is it plus
    // constants. (Per-element lane offsets would be loop-invariant values
    // LLVM hoists, a register each, across the whole loop.)
    auto [laneRow, laneCol] = emitFragmentElement(
        rewriter, loc, instr->layout, fragment.getLaneLayout(), *lane, 0);
    Value row = addIndex(rewriter, loc, adaptor.getRow(), laneRow);
    Value col = addIndex(rewriter, loc, adaptor.getCol(), laneCol);
    Block &body = op.getBody().front();
    Value input = adaptor.getInput();
    SmallVector<Value> elements;
    for (auto [index, step] :
         llvm::enumerate(fragmentElementSteps(instr->layout, fragment))) {
      Value keep = cloneElementBody(
          rewriter, body,
          {addIndex(rewriter, loc, row, constIndex(rewriter, loc, step.row)),
           addIndex(rewriter, loc, col, constIndex(rewriter, loc, step.col))});
      elements.push_back(arith::SelectOp::create(
          rewriter, loc, keep, extractElement(rewriter, loc, input, index),
          adaptor.getFill()));
    }
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, type, elements);
    return success();
  }
};

/// hk.any: the body once per element a lane holds, or-ed in the lane, then
/// one ballot over the wave.
struct AnyLowering : ChipLowering<AnyOp> {
  using ChipLowering::ChipLowering;

  LogicalResult
  matchAndRewrite(AnyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto first = cast<FragmentType>(op.getInputs()[0].getType());
    auto type = getTypeConverter()->convertType<VectorType>(first);
    if (!type)
      return rewriter.notifyMatchFailure(op, "fragment type not convertible");
    Block &body = op.getBody().front();
    Value any;
    for (int64_t e = 0; e < type.getNumElements(); ++e) {
      SmallVector<Value> arguments;
      for (Value value : adaptor.getInputs())
        arguments.push_back(extractElement(rewriter, loc, value, e));
      Value holds = cloneElementBody(rewriter, body, arguments);
      any = any ? arith::OrIOp::create(rewriter, loc, any, holds) : holds;
    }
    Type mask = rewriter.getIntegerType(chip.waveSize);
    Value lanes = ROCDL::BallotOp::create(rewriter, loc, mask, any);
    Value none = arith::ConstantIntOp::create(rewriter, loc, mask, 0);
    rewriter.replaceOpWithNewOp<arith::CmpIOp>(op, arith::CmpIPredicate::ne,
                                               lanes, none);
    return success();
  }
};

/// math.exp2 / math.log2 on f32 (scalars or vectors, per element) as
/// llvm.amdgcn.exp2 / llvm.amdgcn.log: one v_exp_f32 / v_log_f32.
template <typename MathOp>
struct TranscendentalLowering : OpConversionPattern<MathOp> {
  TranscendentalLowering(MLIRContext *ctx, StringRef intrinsic)
      : OpConversionPattern<MathOp>(ctx), intrinsic(intrinsic) {}

  LogicalResult
  matchAndRewrite(MathOp op, typename MathOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    StringAttr name = rewriter.getStringAttr(intrinsic);
    auto apply = [&](Value x) {
      return LLVM::CallIntrinsicOp::create(rewriter, loc, f32, name,
                                           ValueRange{x})
          .getResult(0);
    };
    auto vector = dyn_cast<VectorType>(op.getType());
    if (!vector) {
      rewriter.replaceOp(op, apply(adaptor.getOperand()));
      return success();
    }
    SmallVector<Value> elements;
    for (int64_t i = 0; i < vector.getNumElements(); ++i)
      elements.push_back(
          apply(extractElement(rewriter, loc, adaptor.getOperand(), i)));
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, vector, elements);
    return success();
  }

  std::string intrinsic;
};

/// Whether `op` truncates f32 to bf16 (scalars or vectors).
bool isF32ToBf16(arith::TruncFOp op) {
  return getElementTypeOrSelf(op.getIn().getType()).isF32() &&
         getElementTypeOrSelf(op.getType()).isBF16();
}

bool isNanFree(arith::TruncFOp op) {
  std::optional<arith::FastMathFlags> flags = op.getFastmath();
  return flags && arith::bitEnumContainsAll(*flags, arith::FastMathFlags::nnan);
}

} // namespace

bool mlir::hk::detail::roundsBf16WithIntegers(arith::TruncFOp op,
                                              const ChipInfo *chip) {
  if (!isF32ToBf16(op))
    return false;
  if (op.getRoundingmode())
    return true;
  return chip && isNanFree(op) && !chip->bf16Conversion;
}

namespace {

/// arith.truncf f32 -> bf16 with integer arithmetic on the bits: the high
/// half of bits + an increment that depends on the rounding mode (nearest
/// even: 0x7fff + bit 16; nearest away: 0x8000; upward: 0xffff when
/// positive; downward: 0xffff when negative; toward zero: none). Exact for
/// every value but NaN, infinities and overflow to them included; a NaN
/// keeps its high half with the quiet bit set, unless the op says it sees
/// none (`fastmath<nnan>`). For the truncations roundsBf16WithIntegers()
/// takes: LLVM's backend has no lowering for a rounding mode, and on a chip
/// without a bf16 conversion its own expansion checks for NaN per element.
struct Bf16IntegerRounding : OpConversionPattern<arith::TruncFOp> {
  Bf16IntegerRounding(MLIRContext *ctx, const ChipInfo *chip)
      : OpConversionPattern(ctx), chip(chip) {}

  LogicalResult
  matchAndRewrite(arith::TruncFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!roundsBf16WithIntegers(op, chip))
      return failure();
    Location loc = op.getLoc();
    Type type = op.getIn().getType();
    auto like = [&](Type element) -> Type {
      if (auto vector = dyn_cast<VectorType>(type))
        return vector.clone(element);
      return element;
    };
    Type i32 = like(rewriter.getI32Type()), i16 = like(rewriter.getI16Type());
    auto constant = [&](int64_t v) -> Value {
      TypedAttr attr = rewriter.getI32IntegerAttr(v);
      if (auto vector = dyn_cast<VectorType>(i32))
        attr = DenseElementsAttr::get(vector, APInt(32, v));
      return arith::ConstantOp::create(rewriter, loc, attr);
    };
    Value bits = arith::BitcastOp::create(rewriter, loc, i32, adaptor.getIn());
    Value sixteen = constant(16);
    Value truncated; // the high half as it is, built on first use
    auto highHalf = [&] {
      if (!truncated)
        truncated = arith::ShRUIOp::create(rewriter, loc, bits, sixteen);
      return truncated;
    };
    // Directed rounding: 0xffff added where the sign rounds the magnitude up.
    auto upWhen = [&](bool negative) {
      Value isNegative = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::slt, bits, constant(0));
      Value up = constant(0xffff), none = constant(0);
      return arith::AddIOp::create(
          rewriter, loc, bits,
          arith::SelectOp::create(rewriter, loc, isNegative,
                                  negative ? up : none, negative ? none : up));
    };
    Value rounded = bits;
    switch (
        op.getRoundingmode().value_or(arith::RoundingMode::to_nearest_even)) {
    case arith::RoundingMode::to_nearest_even: {
      Value lsb = arith::AndIOp::create(rewriter, loc, highHalf(), constant(1));
      rounded = arith::AddIOp::create(
          rewriter, loc, arith::AddIOp::create(rewriter, loc, bits, lsb),
          constant(0x7fff));
      break;
    }
    case arith::RoundingMode::to_nearest_away:
      rounded = arith::AddIOp::create(rewriter, loc, bits, constant(0x8000));
      break;
    case arith::RoundingMode::upward:
      rounded = upWhen(/*negative=*/false);
      break;
    case arith::RoundingMode::downward:
      rounded = upWhen(/*negative=*/true);
      break;
    case arith::RoundingMode::toward_zero:
      break;
    }
    Value high = arith::ShRUIOp::create(rewriter, loc, rounded, sixteen);
    if (!isNanFree(op)) {
      Value nan =
          arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::UNO,
                                adaptor.getIn(), adaptor.getIn());
      Value quiet =
          arith::OrIOp::create(rewriter, loc, highHalf(), constant(0x40));
      high = arith::SelectOp::create(rewriter, loc, nan, quiet, high);
    }
    Value narrow = arith::TruncIOp::create(rewriter, loc, i16, high);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), narrow);
    return success();
  }

  const ChipInfo *chip;
};

/// f32 scalars and 1-D vectors: what the chip's instructions take.
bool isF32ScalarOrVector(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  return getElementTypeOrSelf(type).isF32() &&
         (!vector || vector.getRank() == 1);
}

} // namespace

void mlir::hk::detail::populateRegisterTileLowering(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const ChipInfo &chip) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<MapLowering, ReduceLowering, MaskLowering, AnyLowering,
               ToOperandLowering>(converter, ctx, chip);
  patterns.add<TranscendentalLowering<math::Exp2Op>>(ctx, "llvm.amdgcn.exp2");
  populateBf16IntegerRounding(patterns, &chip);
  patterns.add<TranscendentalLowering<math::Log2Op>>(ctx, "llvm.amdgcn.log");
}

void mlir::hk::detail::configureTranscendentalLegality(
    ConversionTarget &target) {
  target.addDynamicallyLegalOp<math::Exp2Op, math::Log2Op>([](Operation *op) {
    return !isF32ScalarOrVector(op->getResult(0).getType());
  });
}

void mlir::hk::detail::populateBf16IntegerRounding(RewritePatternSet &patterns,
                                                   const ChipInfo *chip) {
  patterns.add<Bf16IntegerRounding>(patterns.getContext(), chip);
}

void mlir::hk::detail::configureBf16RoundingLegality(ConversionTarget &target,
                                                     const ChipInfo *chip) {
  target.addDynamicallyLegalOp<arith::TruncFOp>(
      [chip](arith::TruncFOp op) { return !roundsBf16WithIntegers(op, chip); });
}

LogicalResult mlir::hk::detail::checkRoundingModes(Operation *root) {
  WalkResult walk = root->walk([](arith::TruncFOp op) {
    if (!op.getRoundingmode() || isF32ToBf16(op))
      return WalkResult::advance();
    op.emitOpError()
        << "has rounding mode '"
        << arith::stringifyRoundingMode(*op.getRoundingmode())
        << "', which hk lowers only from f32 to bf16 (the AMDGPU backend "
           "has no lowering for a rounding mode)";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}
