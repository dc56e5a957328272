//===- SimLaneOps.cpp - sim: lane operations and MMA ----------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the instructions of the `sim` interpreter
// (SimInterpreter.h), each run for every active lane of a wave: integer and
// float arithmetic, GEPs, loads and stores, vector element operations,
// compares, selects, casts, branches, allocas; the AMDGPU and generic
// intrinsics (work-item and workgroup ids, barriers, readfirstlane, ballot,
// min/max, buffer resources); and the wave-level matrix instructions (MFMA,
// WMMA).
//
//===----------------------------------------------------------------------===//

#include "SimInterpreter.h"

#include "HK/Target/LdsBanks.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <limits>
#include <optional>

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

Error Interpreter::execute(Wave &wave, const Instruction &inst) {
  Type *type = inst.getType();
  unsigned opcode = inst.getOpcode();

  if (inst.isBinaryOp()) {
    Type *elem = scalarOf(type);
    unsigned n =
        type->isVectorTy() ? cast<FixedVectorType>(type)->getNumElements() : 1;
    unsigned eb = sizeOf(elem);
    for (unsigned lane : wave.active) {
      const uint8_t *a = operand(wave, inst.getOperand(0), lane);
      const uint8_t *b = operand(wave, inst.getOperand(1), lane);
      uint8_t *out = result(wave, &inst, lane);
      for (unsigned i = 0; i < n; ++i) {
        if (elem->isIntegerTy()) {
          uint64_t r;
          if (!intBinary(opcode, loadBits(a + i * eb, eb),
                         loadBits(b + i * eb, eb), elem->getIntegerBitWidth(),
                         r))
            return error(wave, inst,
                         formatv("lane {0}: undefined result (division by "
                                 "zero) or unmodelled operation",
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
          return error(wave, inst, "binary operation not modelled");
        }
        storeFloat(out + i * eb, elem, r);
      }
    }
    return Error::success();
  }

  switch (opcode) {
  case Instruction::FNeg: {
    unsigned bytes = sizeOf(type), eb = sizeOf(scalarOf(type));
    uint64_t sign = uint64_t(1) << (8 * eb - 1);
    for (unsigned lane : wave.active) {
      const uint8_t *a = operand(wave, inst.getOperand(0), lane);
      uint8_t *out = result(wave, &inst, lane);
      for (unsigned i = 0; i < bytes / eb; ++i)
        storeBits(out + i * eb, eb, loadBits(a + i * eb, eb) ^ sign);
    }
    return Error::success();
  }
  case Instruction::ExtractValue: {
    auto &ev = cast<llvm::ExtractValueInst>(inst);
    auto *st = dyn_cast<llvm::StructType>(ev.getAggregateOperand()->getType());
    if (ev.getNumIndices() != 1 || !st)
      return error(wave, inst, "only extractvalue of a struct element is "
                               "modelled");
    unsigned offset = structOffset(st, ev.getIndices()[0]);
    for (unsigned lane : wave.active)
      std::memcpy(result(wave, &inst, lane),
                  operand(wave, ev.getAggregateOperand(), lane) + offset,
                  sizeOf(type));
    return Error::success();
  }
  case Instruction::GetElementPtr: {
    auto &gep = cast<GetElementPtrInst>(inst);
    if (type->isVectorTy())
      return error(wave, inst, "vector GEPs are not modelled");
    unsigned pb = sizeOf(type);
    for (unsigned lane : wave.active) {
      int64_t addr = loadBits(operand(wave, gep.getPointerOperand(), lane),
                              sizeOf(gep.getPointerOperandType()));
      for (auto it = gep_type_begin(gep), end = gep_type_end(gep); it != end;
           ++it) {
        const Value *idx = it.getOperand();
        unsigned ib = sizeOf(idx->getType());
        int64_t i = signExtend(loadBits(operand(wave, idx, lane), ib),
                               idx->getType()->getIntegerBitWidth());
        if (StructType *st = it.getStructTypeOrNull())
          addr += dl.getStructLayout(st)->getElementOffset(i);
        else
          addr += i * static_cast<int64_t>(
                          it.getSequentialElementStride(dl).getFixedValue());
      }
      storeBits(result(wave, &inst, lane), pb, static_cast<uint64_t>(addr));
    }
    return Error::success();
  }
  case Instruction::Load:
  case Instruction::Store: {
    bool isStore = opcode == Instruction::Store;
    const Value *ptr = isStore ? cast<StoreInst>(inst).getPointerOperand()
                               : cast<LoadInst>(inst).getPointerOperand();
    Type *valueType =
        isStore ? cast<StoreInst>(inst).getValueOperand()->getType() : type;
    unsigned space = ptr->getType()->getPointerAddressSpace();
    unsigned bytes = sizeOf(valueType);
    uint64_t storeSize = dl.getTypeStoreSize(valueType);
    if (valueType->isVectorTy() && scalarOf(valueType)->isIntegerTy(1))
      return error(wave, inst,
                   "loads and stores of i1 vectors are not "
                   "modelled");
    if (space > 1 && space != kLdsAddressSpace && space != kPrivateAddressSpace)
      return error(wave, inst,
                   formatv("address space {0} is not modelled", space));
    // Counted memory operations: LDS ones by lgkmcnt, global ones by vmcnt.
    uint64_t sequence = 0;
    bool lateRead = false;
    if (space == kLdsAddressSpace) {
      std::tie(sequence, lateRead) = issueLdsOperation(wave, inst, isStore);
    } else if (space != kPrivateAddressSpace) {
      ++wave.vmIssued;
    }
    Wave::PendingRead pending;
    if (space == kLdsAddressSpace) {
      std::vector<std::optional<uint64_t>> addresses(lanes);
      for (unsigned lane : wave.active)
        addresses[lane] =
            loadBits(operand(wave, ptr, lane), sizeOf(ptr->getType()));
      unsigned ways = getLdsConflictWays(chip, storeSize, addresses);
      ++(isStore ? counters.ldsWrites : counters.ldsReads)[storeSize][ways];
    }
    for (unsigned lane : wave.active) {
      uint64_t addr =
          loadBits(operand(wave, ptr, lane), sizeOf(ptr->getType()));
      auto mem = address(wave, inst, space, addr, storeSize, lane, isStore);
      if (!mem)
        return mem.takeError();
      if (isStore)
        std::memcpy(
            *mem, operand(wave, cast<StoreInst>(inst).getValueOperand(), lane),
            std::min<uint64_t>(bytes, storeSize));
      else
        std::memcpy(result(wave, &inst, lane), *mem,
                    std::min<uint64_t>(bytes, storeSize));
      if (lateRead)
        pending.lanes.push_back({lane, uint64_t(*mem - lds.data()), 0});
    }
    if (lateRead) {
      // Read again from LDS when the read completes.
      pending.sequence = sequence;
      pending.load = &inst;
      pending.bytes = std::min<uint64_t>(bytes, storeSize);
      wave.pendingValues[&inst] = sequence;
      wave.pendingReads.push_back(std::move(pending));
    }
    return Error::success();
  }
  case Instruction::ExtractElement: {
    auto &ee = cast<ExtractElementInst>(inst);
    unsigned eb = sizeOf(type);
    auto *vt = cast<FixedVectorType>(ee.getVectorOperandType());
    for (unsigned lane : wave.active) {
      uint64_t i = loadBits(operand(wave, ee.getIndexOperand(), lane),
                            sizeOf(ee.getIndexOperand()->getType()));
      uint8_t *out = result(wave, &inst, lane);
      if (i >= vt->getNumElements())
        std::memset(out, 0, eb); // poison
      else
        std::memcpy(out, operand(wave, ee.getVectorOperand(), lane) + i * eb,
                    eb);
    }
    return Error::success();
  }
  case Instruction::InsertElement: {
    auto &ie = cast<InsertElementInst>(inst);
    auto *vt = cast<FixedVectorType>(type);
    unsigned eb = sizeOf(vt->getElementType()), vb = sizeOf(vt);
    // The result has its own storage (SSA), so it is built in place.
    for (unsigned lane : wave.active) {
      uint8_t *out = result(wave, &inst, lane);
      std::memcpy(out, operand(wave, ie.getOperand(0), lane), vb);
      uint64_t i = loadBits(operand(wave, ie.getOperand(2), lane),
                            sizeOf(ie.getOperand(2)->getType()));
      if (i < vt->getNumElements())
        std::memcpy(out + i * eb, operand(wave, ie.getOperand(1), lane), eb);
    }
    return Error::success();
  }
  case Instruction::ShuffleVector: {
    auto &sv = cast<ShuffleVectorInst>(inst);
    auto *inType = cast<FixedVectorType>(sv.getOperand(0)->getType());
    unsigned eb = sizeOf(inType->getElementType());
    unsigned n = inType->getNumElements();
    ArrayRef<int> mask = sv.getShuffleMask();
    std::vector<uint8_t> tmp(mask.size() * eb);
    for (unsigned lane : wave.active) {
      const uint8_t *a = operand(wave, sv.getOperand(0), lane);
      const uint8_t *b = operand(wave, sv.getOperand(1), lane);
      for (unsigned i = 0; i < mask.size(); ++i) {
        int m = mask[i];
        if (m < 0)
          std::memset(tmp.data() + i * eb, 0, eb);
        else
          std::memcpy(tmp.data() + i * eb,
                      unsigned(m) < n ? a + m * eb : b + (m - n) * eb, eb);
      }
      std::memcpy(result(wave, &inst, lane), tmp.data(), tmp.size());
    }
    return Error::success();
  }
  case Instruction::ICmp:
  case Instruction::FCmp: {
    // Per lane and element: the predicate on the two operands' elements.
    auto &cmp = cast<CmpInst>(inst);
    Type *opType = cmp.getOperand(0)->getType();
    Type *elem = scalarOf(opType);
    unsigned n = opType->isVectorTy()
                     ? cast<FixedVectorType>(opType)->getNumElements()
                     : 1;
    unsigned eb = sizeOf(elem);
    unsigned bits = elem->isPointerTy()   ? eb * 8
                    : elem->isIntegerTy() ? elem->getIntegerBitWidth()
                                          : 0;
    auto compare = [&](const uint8_t *x, const uint8_t *y) -> uint8_t {
      if (isa<ICmpInst>(cmp))
        return compareInt(cmp.getPredicate(), loadBits(x, eb), loadBits(y, eb),
                          bits);
      return FCmpInst::compare(APFloat(loadFloat(x, elem)),
                               APFloat(loadFloat(y, elem)),
                               cmp.getPredicate());
    };
    for (unsigned lane : wave.active) {
      const uint8_t *a = operand(wave, cmp.getOperand(0), lane);
      const uint8_t *b = operand(wave, cmp.getOperand(1), lane);
      uint8_t *out = result(wave, &inst, lane);
      for (unsigned i = 0; i < n; ++i)
        out[i] = compare(a + i * eb, b + i * eb);
    }
    return Error::success();
  }
  case Instruction::Freeze:
    // Simulated values are never poison or undef: freeze is a copy (LLVM
    // inserts it when it rewrites a division and remainder pair).
    for (unsigned lane : wave.active)
      std::memcpy(result(wave, &inst, lane),
                  operand(wave, inst.getOperand(0), lane), sizeOf(type));
    return Error::success();
  case Instruction::Select: {
    auto &sel = cast<SelectInst>(inst);
    if (sel.getCondition()->getType()->isVectorTy())
      return error(wave, inst, "vector selects are not modelled");
    unsigned bytes = sizeOf(type);
    for (unsigned lane : wave.active) {
      bool c = *operand(wave, sel.getCondition(), lane) & 1;
      std::memcpy(
          result(wave, &inst, lane),
          operand(wave, c ? sel.getTrueValue() : sel.getFalseValue(), lane),
          bytes);
    }
    return Error::success();
  }
  case Instruction::Trunc:
  case Instruction::ZExt:
  case Instruction::SExt:
  case Instruction::FPTrunc:
  case Instruction::FPExt:
  case Instruction::BitCast:
  case Instruction::AddrSpaceCast:
  case Instruction::PtrToInt:
  case Instruction::IntToPtr:
  case Instruction::SIToFP:
  case Instruction::UIToFP:
  case Instruction::FPToSI:
  case Instruction::FPToUI: {
    const Value *src = inst.getOperand(0);
    Type *srcType = src->getType();
    if (opcode == Instruction::BitCast) {
      if (sizeOf(srcType) != sizeOf(type))
        return error(wave, inst, "bitcast between sizes is not modelled");
      for (unsigned lane : wave.active)
        std::memcpy(result(wave, &inst, lane), operand(wave, src, lane),
                    sizeOf(type));
      return Error::success();
    }
    Type *se = scalarOf(srcType), *de = scalarOf(type);
    unsigned n =
        type->isVectorTy() ? cast<FixedVectorType>(type)->getNumElements() : 1;
    unsigned sb = sizeOf(se), db = sizeOf(de);
    for (unsigned lane : wave.active) {
      const uint8_t *in = operand(wave, src, lane);
      uint8_t *out = result(wave, &inst, lane);
      for (unsigned i = 0; i < n; ++i) {
        const uint8_t *x = in + i * sb;
        uint8_t *y = out + i * db;
        switch (opcode) {
        case Instruction::Trunc:
          storeBits(y, db,
                    truncBits(loadBits(x, sb), de->getIntegerBitWidth()));
          break;
        case Instruction::ZExt:
          storeBits(y, db,
                    truncBits(loadBits(x, sb), se->getIntegerBitWidth()));
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
        case Instruction::FPToSI:
        case Instruction::FPToUI: {
          // Out of range (NaN included) is poison in LLVM: an error here.
          double v = std::trunc(loadFloat(x, se));
          unsigned bits = de->getIntegerBitWidth();
          bool isSigned = opcode == Instruction::FPToSI;
          double lo = isSigned ? -std::ldexp(1.0, bits - 1) : 0;
          double hi = std::ldexp(1.0, isSigned ? bits - 1 : bits);
          if (!(v >= lo && v < hi))
            return error(wave, inst,
                         formatv("lane {0}: {1} of {2}, which does not fit "
                                 "the result (poison)",
                                 lane, inst.getOpcodeName(), v));
          storeBits(y, db,
                    isSigned ? static_cast<uint64_t>(static_cast<int64_t>(v))
                             : static_cast<uint64_t>(v));
          break;
        }
        case Instruction::AddrSpaceCast: {
          unsigned from = se->getPointerAddressSpace();
          unsigned to = de->getPointerAddressSpace();
          if (from == kLdsAddressSpace || to == kLdsAddressSpace)
            return error(wave, inst,
                         "casts between LDS and flat pointers are not "
                         "modelled");
          storeBits(y, db, loadBits(x, sb));
          break;
        }
        default: // ptrtoint, inttoptr
          storeBits(y, db, loadBits(x, sb));
          break;
        }
      }
    }
    return Error::success();
  }
  case Instruction::Br: {
    auto &br = cast<BranchInst>(inst);
    if (!br.isConditional() || br.getSuccessor(0) == br.getSuccessor(1))
      return jump(wave, br.getSuccessor(0));
    uint64_t taken = 0;
    for (unsigned lane : wave.active)
      if (*operand(wave, br.getCondition(), lane) & 1)
        taken |= uint64_t(1) << lane;
    uint64_t notTaken = wave.mask & ~taken;
    if (notTaken == 0)
      return jump(wave, br.getSuccessor(0));
    if (taken == 0)
      return jump(wave, br.getSuccessor(1));
    // Divergence: run the taken lanes to the branch's immediate
    // post-dominator, then the others, then merge.
    auto *node = postDominators->getNode(wave.block);
    const BasicBlock *meet =
        node && node->getIDom() ? node->getIDom()->getBlock() : nullptr;
    for (unsigned lane : wave.active)
      wave.from[lane] = wave.block;
    wave.divergences.push_back({meet, br.getSuccessor(1), notTaken, wave.mask});
    wave.setMask(taken);
    if (br.getSuccessor(0) == meet)
      return reconverge(wave);
    enterBlock(wave, br.getSuccessor(0));
    return Error::success();
  }
  case Instruction::PHI:
    return Error::success(); // handled when entering the block
  case Instruction::Ret:
    wave.exited |= wave.mask;
    if (wave.divergences.empty()) {
      waitCounters(wave, 0, 0); // what is in flight lands before the end
      wave.done = true;
      return Error::success();
    }
    return reconverge(wave);
  case Instruction::Alloca: {
    // Private memory: each lane of each wave has its own.
    auto &alloca = cast<AllocaInst>(inst);
    auto *count = dyn_cast<ConstantInt>(alloca.getArraySize());
    if (!count)
      return error(wave, inst, "dynamic allocas are not modelled");
    uint64_t size =
        dl.getTypeAllocSize(alloca.getAllocatedType()) * count->getZExtValue();
    for (unsigned lane : wave.active) {
      std::vector<uint8_t> &mem = wave.scratch[lane];
      uint64_t offset = alignTo(mem.size(), alloca.getAlign().value());
      mem.resize(offset + size, 0xff);
      storeBits(result(wave, &inst, lane), sizeOf(type), offset);
    }
    return Error::success();
  }
  case Instruction::Fence: {
    // Simulated memory is sequentially consistent, but a releasing fence of
    // workgroup or wider scope makes the backend wait for the wave's memory
    // operations (vmcnt(0) lgkmcnt(0) with an LDS DMA in flight).
    auto &fence = cast<FenceInst>(inst);
    SmallVector<StringRef> scopes;
    inst.getContext().getSyncScopeNames(scopes);
    StringRef scope = fence.getSyncScopeID() < scopes.size()
                          ? scopes[fence.getSyncScopeID()]
                          : StringRef("?");
    bool narrow = scope.starts_with("wavefront") ||
                  scope.starts_with("singlethread");
    if (!narrow && fence.getOrdering() != AtomicOrdering::Acquire)
      waitCounters(wave, 0, 0);
    return Error::success();
  }
  case Instruction::Call:
    return executeCall(wave, cast<CallInst>(inst));
  default:
    break;
  }
  return error(
      wave, inst,
      formatv("instruction '{0}' is not modelled", inst.getOpcodeName()));
}

Error Interpreter::executeCall(Wave &wave, const CallInst &call) {
  Function *callee = call.getCalledFunction();
  if (!callee || !callee->isIntrinsic())
    return error(wave, call, "calls other than intrinsics are not modelled");
  Intrinsic::ID id = callee->getIntrinsicID();
  auto writeAll = [&](auto &&valueOf) {
    unsigned bytes = sizeOf(call.getType());
    for (unsigned lane : wave.active)
      storeBits(result(wave, &call, lane), bytes, valueOf(lane));
  };
  auto threadId = [&](unsigned lane) {
    return int64_t(wave.index) * lanes + lane;
  };
  switch (id) {
  case Intrinsic::amdgcn_s_barrier:
  case Intrinsic::amdgcn_s_barrier_signal:
  case Intrinsic::amdgcn_s_barrier_wait:
    if (!wave.divergences.empty())
      return error(wave, call, "workgroup barrier in divergent control flow");
    break;
  default:
    break;
  }
  switch (id) {
  case Intrinsic::amdgcn_workitem_id_x:
    writeAll([&](unsigned l) { return threadId(l) % config.block[0]; });
    return Error::success();
  case Intrinsic::amdgcn_workitem_id_y:
    writeAll([&](unsigned l) {
      return (threadId(l) / config.block[0]) % config.block[1];
    });
    return Error::success();
  case Intrinsic::amdgcn_workitem_id_z:
    writeAll([&](unsigned l) {
      return threadId(l) / (config.block[0] * config.block[1]);
    });
    return Error::success();
  case Intrinsic::amdgcn_workgroup_id_x:
  case Intrinsic::amdgcn_workgroup_id_y:
  case Intrinsic::amdgcn_workgroup_id_z: {
    int dim = id - Intrinsic::amdgcn_workgroup_id_x;
    writeAll([&](unsigned) { return workgroup[dim]; });
    return Error::success();
  }
  case Intrinsic::amdgcn_s_barrier:
    ++counters.barriers;
    ++wave.signals;
    wave.waiting = true;
    return Error::success();
  case Intrinsic::amdgcn_s_barrier_signal:
    ++counters.barriers;
    ++wave.signals;
    return Error::success();
  case Intrinsic::amdgcn_s_barrier_wait:
    wave.waiting = true;
    return Error::success();
  case Intrinsic::amdgcn_readfirstlane: {
    unsigned bytes = sizeOf(call.getType());
    uint64_t v = loadBits(
        operand(wave, call.getArgOperand(0), wave.active.front()), bytes);
    writeAll([&](unsigned) { return v; });
    return Error::success();
  }
  case Intrinsic::amdgcn_ballot: {
    // Bit l of the mask: lane l is active and its predicate holds.
    uint64_t mask = 0;
    for (unsigned lane : wave.active)
      if (loadBits(operand(wave, call.getArgOperand(0), lane), 1) & 1)
        mask |= uint64_t(1) << lane;
    unsigned bits = call.getType()->getIntegerBitWidth();
    writeAll([&](unsigned) { return truncBits(mask, bits); });
    return Error::success();
  }
  case Intrinsic::umax:
  case Intrinsic::umin:
  case Intrinsic::smax:
  case Intrinsic::smin:
  case Intrinsic::usub_sat:
  case Intrinsic::uadd_sat: {
    // Scalar integers only (buffer sizes, clamps, remaining extents);
    // vectors are not emitted.
    unsigned bits = call.getType()->getScalarSizeInBits();
    if (!call.getType()->isIntegerTy() || bits > 64)
      return error(wave, call, "only scalar min/max up to 64 bits");
    unsigned bytes = sizeOf(call.getType());
    writeAll([&](unsigned lane) -> uint64_t {
      uint64_t a = loadBits(operand(wave, call.getArgOperand(0), lane), bytes);
      uint64_t b = loadBits(operand(wave, call.getArgOperand(1), lane), bytes);
      uint64_t top = truncBits(~uint64_t(0), bits);
      if (id == Intrinsic::usub_sat)
        return a > b ? a - b : 0;
      if (id == Intrinsic::uadd_sat)
        return a > top - b ? top : a + b;
      if (id == Intrinsic::umax)
        return std::max(a, b);
      if (id == Intrinsic::umin)
        return std::min(a, b);
      int64_t sa = SignExtend64(a, bits), sb = SignExtend64(b, bits);
      return id == Intrinsic::smax ? std::max(sa, sb) : std::min(sa, sb);
    });
    return Error::success();
  }
  case Intrinsic::amdgcn_s_waitcnt: {
    // The gfx9 encoding: vmcnt in bits 3:0 and 15:14, lgkmcnt in 11:8.
    uint64_t imm = cast<ConstantInt>(call.getArgOperand(0))->getZExtValue();
    waitCounters(wave, (imm & 0xf) | (((imm >> 14) & 0x3) << 4),
                 (imm >> 8) & 0xf);
    return Error::success();
  }
  // Scheduling and priority hints do not change values.
  case Intrinsic::amdgcn_s_setprio:
  case Intrinsic::amdgcn_sched_barrier:
  case Intrinsic::assume:
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
    return Error::success();
  case Intrinsic::amdgcn_make_buffer_rsrc: {
    // {base, num_records, stride, flags}: raw buffers (stride 0) check
    // offsets against num_records bytes.
    const Value *base = call.getArgOperand(0);
    for (unsigned lane : wave.active) {
      uint8_t *out = result(wave, &call, lane);
      storeBits(out, 8,
                loadBits(operand(wave, base, lane), sizeOf(base->getType())));
      uint64_t records = loadBits(operand(wave, call.getArgOperand(2), lane),
                                  sizeOf(call.getArgOperand(2)->getType()));
      storeBits(out + 8, 4, std::min<uint64_t>(records, UINT32_MAX));
      storeBits(out + 12, 2,
                loadBits(operand(wave, call.getArgOperand(1), lane), 2));
      storeBits(out + 14, 2,
                loadBits(operand(wave, call.getArgOperand(3), lane), 2));
    }
    return Error::success();
  }
  case Intrinsic::amdgcn_raw_ptr_buffer_load:
  case Intrinsic::amdgcn_raw_ptr_buffer_store:
  case Intrinsic::amdgcn_raw_ptr_buffer_load_lds:
    return executeBufferAccess(wave, call, id);
  case Intrinsic::amdgcn_load_to_lds:
  case Intrinsic::amdgcn_global_load_lds:
    return executeLoadToLds(wave, call);
  case Intrinsic::amdgcn_ds_read_tr16_b64:
    return executeTransposedRead(wave, call);
  case Intrinsic::amdgcn_update_dpp:
  case Intrinsic::amdgcn_permlane32_swap:
  case Intrinsic::amdgcn_permlane16_swap:
  case Intrinsic::amdgcn_permlanex16:
    return executeCrossLane(wave, call, id);
  case Intrinsic::maximum:
  case Intrinsic::minimum:
  case Intrinsic::maxnum:
  case Intrinsic::minnum:
  case Intrinsic::fma:
  case Intrinsic::fmuladd:
  case Intrinsic::fabs:
  case Intrinsic::exp2:
  case Intrinsic::amdgcn_exp2:
  case Intrinsic::log2:
  case Intrinsic::amdgcn_log:
  case Intrinsic::log:
    return executeFloatIntrinsic(wave, call, id);
  case Intrinsic::amdgcn_mfma_f32_16x16x32_bf16:
  case Intrinsic::amdgcn_wmma_f32_16x16x16_bf16:
  case Intrinsic::amdgcn_mfma_scale_f32_16x16x128_f8f6f4:
  case Intrinsic::amdgcn_wmma_f32_16x16x16_fp8_fp8:
  case Intrinsic::amdgcn_wmma_f32_16x16x16_fp8_bf8:
  case Intrinsic::amdgcn_wmma_f32_16x16x16_bf8_fp8:
  case Intrinsic::amdgcn_wmma_f32_16x16x16_bf8_bf8:
    return executeMma(wave, call, id);
  default:
    break;
  }
  return error(wave, call,
               "intrinsic '" + callee->getName() + "' is not modelled");
}
