//===- SimLaneOps.cpp - sim: lane operations ------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the LaneOpVisitor methods (SimInterpreter.h) of the
// instructions that compute values lane by lane, each run for every active
// lane of a wave: integer and float arithmetic, compares, selects, freeze,
// casts, vector element and shuffle operations, extractvalue; and the
// fallback for instructions that are not modelled.
//
//===----------------------------------------------------------------------===//

#include "SimInterpreter.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <limits>

using namespace llvm;
using namespace mlir::hk;
using namespace mlir::hk::sim;
using namespace mlir::hk::sim::detail;

//===----------------------------------------------------------------------===//
// Lane operations
//===----------------------------------------------------------------------===//

namespace {

/// Integer binary operation on raw bits of width `bits`; false if undefined.
bool intBinary(unsigned opcode, uint64_t a, uint64_t b, unsigned bits,
               uint64_t &out) {
  int64_t sa = signExtend(a, bits), sb = signExtend(b, bits);
  switch (opcode) {
  case Instruction::Add:
    out = a + b;
    break;
  case Instruction::Sub:
    out = a - b;
    break;
  case Instruction::Mul:
    out = a * b;
    break;
  case Instruction::And:
    out = a & b;
    break;
  case Instruction::Or:
    out = a | b;
    break;
  case Instruction::Xor:
    out = a ^ b;
    break;
  case Instruction::Shl:
    out = b >= bits ? 0 : a << b;
    break;
  case Instruction::LShr:
    out = b >= bits ? 0 : truncBits(a, bits) >> b;
    break;
  case Instruction::AShr:
    out = static_cast<uint64_t>(b >= bits ? (sa < 0 ? -1 : 0) : sa >> b);
    break;
  case Instruction::UDiv:
    if (truncBits(b, bits) == 0)
      return false;
    out = truncBits(a, bits) / truncBits(b, bits);
    break;
  case Instruction::URem:
    if (truncBits(b, bits) == 0)
      return false;
    out = truncBits(a, bits) % truncBits(b, bits);
    break;
  case Instruction::SDiv:
    if (sb == 0 || (sb == -1 && sa == std::numeric_limits<int64_t>::min()))
      return false;
    out = static_cast<uint64_t>(sa / sb);
    break;
  case Instruction::SRem:
    if (sb == 0 || (sb == -1 && sa == std::numeric_limits<int64_t>::min()))
      return false;
    out = static_cast<uint64_t>(sa % sb);
    break;
  default:
    return false;
  }
  out = truncBits(out, bits);
  return true;
}

bool compareInt(CmpInst::Predicate p, uint64_t a, uint64_t b, unsigned bits) {
  a = truncBits(a, bits);
  b = truncBits(b, bits);
  int64_t sa = signExtend(a, bits), sb = signExtend(b, bits);
  switch (p) {
  case CmpInst::ICMP_EQ:
    return a == b;
  case CmpInst::ICMP_NE:
    return a != b;
  case CmpInst::ICMP_UGT:
    return a > b;
  case CmpInst::ICMP_UGE:
    return a >= b;
  case CmpInst::ICMP_ULT:
    return a < b;
  case CmpInst::ICMP_ULE:
    return a <= b;
  case CmpInst::ICMP_SGT:
    return sa > sb;
  case CmpInst::ICMP_SGE:
    return sa >= sb;
  case CmpInst::ICMP_SLT:
    return sa < sb;
  case CmpInst::ICMP_SLE:
    return sa <= sb;
  default:
    return false;
  }
}

} // namespace

Error LaneOpVisitor::visitInstruction(Instruction &inst) {
  return error(
      inst, formatv("instruction '{0}' is not modelled", inst.getOpcodeName()));
}

Error LaneOpVisitor::visitBinaryOperator(BinaryOperator &inst) {
  Type *type = inst.getType();
  unsigned opcode = inst.getOpcode();
  Type *elem = scalarOf(type);
  unsigned n =
      type->isVectorTy() ? cast<FixedVectorType>(type)->getNumElements() : 1;
  unsigned eb = sizeOf(elem);
  for (unsigned lane : wave.active) {
    const uint8_t *a = operand(inst.getOperand(0), lane);
    const uint8_t *b = operand(inst.getOperand(1), lane);
    uint8_t *out = result(&inst, lane);
    for (unsigned i = 0; i < n; ++i) {
      if (elem->isIntegerTy()) {
        uint64_t r;
        if (!intBinary(opcode, loadBits(a + i * eb, eb),
                       loadBits(b + i * eb, eb), elem->getIntegerBitWidth(), r))
          return error(inst, formatv("lane {0}: undefined result (division "
                                     "by zero) or unmodelled operation",
                                     lane));
        storeBits(out + i * eb, eb, r);
        continue;
      }
      // Float arithmetic in the type's own precision.
      float x = static_cast<float>(loadFloat(a + i * eb, elem));
      float y = static_cast<float>(loadFloat(b + i * eb, elem));
      double r;
      switch (opcode) {
      case Instruction::FAdd:
        r = elem->isDoubleTy()
                ? loadFloat(a + i * eb, elem) + loadFloat(b + i * eb, elem)
                : double(x + y);
        break;
      case Instruction::FSub:
        r = elem->isDoubleTy()
                ? loadFloat(a + i * eb, elem) - loadFloat(b + i * eb, elem)
                : double(x - y);
        break;
      case Instruction::FMul:
        r = elem->isDoubleTy()
                ? loadFloat(a + i * eb, elem) * loadFloat(b + i * eb, elem)
                : double(x * y);
        break;
      case Instruction::FDiv:
        r = elem->isDoubleTy()
                ? loadFloat(a + i * eb, elem) / loadFloat(b + i * eb, elem)
                : double(x / y);
        break;
      default:
        return error(inst, "binary operation not modelled");
      }
      storeFloat(out + i * eb, elem, r);
    }
  }
  return Error::success();
}

Error LaneOpVisitor::visitFNeg(UnaryOperator &inst) {
  Type *type = inst.getType();
  unsigned bytes = sizeOf(type), eb = sizeOf(scalarOf(type));
  uint64_t sign = uint64_t(1) << (8 * eb - 1);
  for (unsigned lane : wave.active) {
    const uint8_t *a = operand(inst.getOperand(0), lane);
    uint8_t *out = result(&inst, lane);
    for (unsigned i = 0; i < bytes / eb; ++i)
      storeBits(out + i * eb, eb, loadBits(a + i * eb, eb) ^ sign);
  }
  return Error::success();
}

namespace {
/// The element count and element type of a compare's operands.
struct CompareShape {
  Type *elem;
  unsigned n, eb;

  explicit CompareShape(const CmpInst &cmp) {
    Type *opType = cmp.getOperand(0)->getType();
    elem = scalarOf(opType);
    n = opType->isVectorTy() ? cast<FixedVectorType>(opType)->getNumElements()
                             : 1;
    eb = sizeOf(elem);
  }
};
} // namespace

// Per lane and element: the predicate on the two operands' elements.
Error LaneOpVisitor::visitICmpInst(ICmpInst &cmp) {
  CompareShape shape(cmp);
  unsigned eb = shape.eb, n = shape.n;
  unsigned bits =
      shape.elem->isPointerTy() ? eb * 8 : shape.elem->getIntegerBitWidth();
  CmpInst::Predicate predicate = cmp.getPredicate();
  for (unsigned lane : wave.active) {
    const uint8_t *a = operand(cmp.getOperand(0), lane);
    const uint8_t *b = operand(cmp.getOperand(1), lane);
    uint8_t *out = result(&cmp, lane);
    for (unsigned i = 0; i < n; ++i)
      out[i] = compareInt(predicate, loadBits(a + i * eb, eb),
                          loadBits(b + i * eb, eb), bits);
  }
  return Error::success();
}

Error LaneOpVisitor::visitFCmpInst(FCmpInst &cmp) {
  CompareShape shape(cmp);
  unsigned eb = shape.eb, n = shape.n;
  Type *elem = shape.elem;
  CmpInst::Predicate predicate = cmp.getPredicate();
  for (unsigned lane : wave.active) {
    const uint8_t *a = operand(cmp.getOperand(0), lane);
    const uint8_t *b = operand(cmp.getOperand(1), lane);
    uint8_t *out = result(&cmp, lane);
    for (unsigned i = 0; i < n; ++i)
      out[i] =
          FCmpInst::compare(APFloat(loadFloat(a + i * eb, elem)),
                            APFloat(loadFloat(b + i * eb, elem)), predicate);
  }
  return Error::success();
}

Error LaneOpVisitor::visitSelectInst(SelectInst &sel) {
  if (sel.getCondition()->getType()->isVectorTy())
    return error(sel, "vector selects are not modelled");
  unsigned bytes = sizeOf(sel.getType());
  for (unsigned lane : wave.active) {
    bool c = *operand(sel.getCondition(), lane) & 1;
    std::memcpy(result(&sel, lane),
                operand(c ? sel.getTrueValue() : sel.getFalseValue(), lane),
                bytes);
  }
  return Error::success();
}

Error LaneOpVisitor::visitFreezeInst(FreezeInst &inst) {
  // Simulated values are never poison or undef: freeze is a copy (LLVM
  // inserts it when it rewrites a division and remainder pair).
  for (unsigned lane : wave.active)
    std::memcpy(result(&inst, lane), operand(inst.getOperand(0), lane),
                sizeOf(inst.getType()));
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

Error LaneOpVisitor::visitBitCastInst(BitCastInst &inst) {
  const Value *src = inst.getOperand(0);
  Type *type = inst.getType();
  if (sizeOf(src->getType()) != sizeOf(type))
    return error(inst, "bitcast between sizes is not modelled");
  for (unsigned lane : wave.active)
    std::memcpy(result(&inst, lane), operand(src, lane), sizeOf(type));
  return Error::success();
}

Error LaneOpVisitor::visitAddrSpaceCastInst(AddrSpaceCastInst &inst) {
  // LDS addresses are 32-bit offsets into the workgroup's LDS buffer.
  if (inst.getSrcAddressSpace() == kLdsAddressSpace ||
      inst.getDestAddressSpace() == kLdsAddressSpace)
    return error(inst, "casts between LDS and flat pointers are not modelled");
  return visitCastInst(inst); // the address is copied
}

/// Casts that cannot fail: integer and float conversions, ptrtoint,
/// inttoptr, addrspacecast (checked by visitAddrSpaceCastInst).
Error LaneOpVisitor::visitCastInst(CastInst &inst) {
  Type *type = inst.getType();
  unsigned opcode = inst.getOpcode();
  const Value *src = inst.getOperand(0);
  Type *se = scalarOf(src->getType()), *de = scalarOf(type);
  unsigned n =
      type->isVectorTy() ? cast<FixedVectorType>(type)->getNumElements() : 1;
  unsigned sb = sizeOf(se), db = sizeOf(de);
  for (unsigned lane : wave.active) {
    const uint8_t *in = operand(src, lane);
    uint8_t *out = result(&inst, lane);
    for (unsigned i = 0; i < n; ++i) {
      const uint8_t *x = in + i * sb;
      uint8_t *y = out + i * db;
      switch (opcode) {
      case Instruction::Trunc:
        storeBits(y, db, truncBits(loadBits(x, sb), de->getIntegerBitWidth()));
        break;
      case Instruction::ZExt:
        storeBits(y, db, truncBits(loadBits(x, sb), se->getIntegerBitWidth()));
        break;
      case Instruction::SExt:
        storeBits(y, db,
                  truncBits(static_cast<uint64_t>(signExtend(
                                loadBits(x, sb), se->getIntegerBitWidth())),
                            de->getIntegerBitWidth()));
        break;
      case Instruction::FPTrunc:
      case Instruction::FPExt:
        storeFloat(y, de, loadFloat(x, se));
        break;
      case Instruction::SIToFP:
        storeFloat(
            y, de,
            double(signExtend(loadBits(x, sb), se->getIntegerBitWidth())));
        break;
      case Instruction::UIToFP:
        storeFloat(y, de, double(loadBits(x, sb)));
        break;
      default: // ptrtoint, inttoptr, addrspacecast
        storeBits(y, db, loadBits(x, sb));
        break;
      }
    }
  }
  return Error::success();
}

Error LaneOpVisitor::fpToInt(CastInst &inst) {
  Type *type = inst.getType();
  const Value *src = inst.getOperand(0);
  Type *se = scalarOf(src->getType()), *de = scalarOf(type);
  unsigned n =
      type->isVectorTy() ? cast<FixedVectorType>(type)->getNumElements() : 1;
  unsigned sb = sizeOf(se), db = sizeOf(de);
  unsigned bits = de->getIntegerBitWidth();
  bool isSigned = inst.getOpcode() == Instruction::FPToSI;
  double lo = isSigned ? -std::ldexp(1.0, bits - 1) : 0;
  double hi = std::ldexp(1.0, isSigned ? bits - 1 : bits);
  for (unsigned lane : wave.active) {
    const uint8_t *in = operand(src, lane);
    uint8_t *out = result(&inst, lane);
    for (unsigned i = 0; i < n; ++i) {
      // Out of range (NaN included) is poison in LLVM: an error here.
      double v = std::trunc(loadFloat(in + i * sb, se));
      if (!(v >= lo && v < hi))
        return error(inst, formatv("lane {0}: {1} of {2}, which does not fit "
                                   "the result (poison)",
                                   lane, inst.getOpcodeName(), v));
      storeBits(out + i * db, db,
                isSigned ? static_cast<uint64_t>(static_cast<int64_t>(v))
                         : static_cast<uint64_t>(v));
    }
  }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Vector and aggregate elements
//===----------------------------------------------------------------------===//

Error LaneOpVisitor::visitExtractElementInst(ExtractElementInst &ee) {
  unsigned eb = sizeOf(ee.getType());
  auto *vt = cast<FixedVectorType>(ee.getVectorOperandType());
  for (unsigned lane : wave.active) {
    uint64_t i = loadBits(operand(ee.getIndexOperand(), lane),
                          sizeOf(ee.getIndexOperand()->getType()));
    uint8_t *out = result(&ee, lane);
    if (i >= vt->getNumElements())
      std::memset(out, 0, eb); // poison
    else
      std::memcpy(out, operand(ee.getVectorOperand(), lane) + i * eb, eb);
  }
  return Error::success();
}

Error LaneOpVisitor::visitInsertElementInst(InsertElementInst &ie) {
  auto *vt = cast<FixedVectorType>(ie.getType());
  unsigned eb = sizeOf(vt->getElementType()), vb = sizeOf(vt);
  // The result has its own storage (SSA), so it is built in place.
  for (unsigned lane : wave.active) {
    uint8_t *out = result(&ie, lane);
    std::memcpy(out, operand(ie.getOperand(0), lane), vb);
    uint64_t i = loadBits(operand(ie.getOperand(2), lane),
                          sizeOf(ie.getOperand(2)->getType()));
    if (i < vt->getNumElements())
      std::memcpy(out + i * eb, operand(ie.getOperand(1), lane), eb);
  }
  return Error::success();
}

Error LaneOpVisitor::visitShuffleVectorInst(ShuffleVectorInst &sv) {
  auto *inType = cast<FixedVectorType>(sv.getOperand(0)->getType());
  unsigned eb = sizeOf(inType->getElementType());
  unsigned n = inType->getNumElements();
  ArrayRef<int> mask = sv.getShuffleMask();
  std::vector<uint8_t> tmp(mask.size() * eb);
  for (unsigned lane : wave.active) {
    const uint8_t *a = operand(sv.getOperand(0), lane);
    const uint8_t *b = operand(sv.getOperand(1), lane);
    for (unsigned i = 0; i < mask.size(); ++i) {
      int m = mask[i];
      if (m < 0)
        std::memset(tmp.data() + i * eb, 0, eb);
      else
        std::memcpy(tmp.data() + i * eb,
                    unsigned(m) < n ? a + m * eb : b + (m - n) * eb, eb);
    }
    std::memcpy(result(&sv, lane), tmp.data(), tmp.size());
  }
  return Error::success();
}

Error LaneOpVisitor::visitExtractValueInst(ExtractValueInst &ev) {
  auto *st = dyn_cast<StructType>(ev.getAggregateOperand()->getType());
  if (ev.getNumIndices() != 1 || !st)
    return error(ev, "only extractvalue of a struct element is modelled");
  unsigned offset = structOffset(st, ev.getIndices()[0]);
  for (unsigned lane : wave.active)
    std::memcpy(result(&ev, lane),
                operand(ev.getAggregateOperand(), lane) + offset,
                sizeOf(ev.getType()));
  return Error::success();
}
