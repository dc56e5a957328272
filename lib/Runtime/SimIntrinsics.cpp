//===- SimIntrinsics.cpp - sim: calls and intrinsic dispatch --------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the calls of the `sim` interpreter (SimInterpreter.h):
// the dispatch of an intrinsic to the handler of its family (a switch on the
// intrinsic ID), and the small families: work-item and workgroup ids and
// wave queries (readfirstlane, ballot); barriers, waits and hints; scalar
// integer min/max; buffer resources. The other families have their own
// files: buffer accesses and loads to LDS (SimMemory.cpp), lane permutations
// and float intrinsics (SimCrossLane.cpp), matrix instructions
// (SimMatrix.cpp). The intrinsics named in more than one place are listed
// once, in SimIntrinsics.def.
//
//===----------------------------------------------------------------------===//

#include "SimInterpreter.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"

#include <cstring>

using namespace llvm;
using namespace mlir::hk;
using namespace mlir::hk::sim;
using namespace mlir::hk::sim::detail;

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

/// Calls InstVisitor does not take for intrinsics: calls of functions, and of
/// `llvm.` names LLVM has no intrinsic ID for.
Error LaneOpVisitor::visitCallInst(CallInst &call) {
  Function *callee = call.getCalledFunction();
  if (!callee || !callee->isIntrinsic())
    return error(call, "calls other than intrinsics are not modelled");
  return error(call, "intrinsic '" + callee->getName() + "' is not modelled");
}

Error LaneOpVisitor::visitIntrinsicInst(IntrinsicInst &call) {
  Intrinsic::ID id = call.getIntrinsicID();
  switch (id) {
  case Intrinsic::amdgcn_workitem_id_x:
  case Intrinsic::amdgcn_workitem_id_y:
  case Intrinsic::amdgcn_workitem_id_z:
  case Intrinsic::amdgcn_workgroup_id_x:
  case Intrinsic::amdgcn_workgroup_id_y:
  case Intrinsic::amdgcn_workgroup_id_z:
  case Intrinsic::amdgcn_readfirstlane:
  case Intrinsic::amdgcn_ballot:
  case Intrinsic::amdgcn_mbcnt_lo:
  case Intrinsic::amdgcn_mbcnt_hi:
    return sim.executeQuery(wave, call, id);
  case Intrinsic::amdgcn_s_barrier:
  case Intrinsic::amdgcn_s_barrier_signal:
  case Intrinsic::amdgcn_s_barrier_wait:
  case Intrinsic::amdgcn_s_waitcnt:
  case Intrinsic::amdgcn_s_wait_dscnt:
  case Intrinsic::amdgcn_s_wait_loadcnt:
#define HK_SIM_HINT(ID) case Intrinsic::ID:
#include "SimIntrinsics.def"
    return sim.executeSync(wave, call, id);
  case Intrinsic::umax:
  case Intrinsic::umin:
  case Intrinsic::smax:
  case Intrinsic::smin:
  case Intrinsic::usub_sat:
  case Intrinsic::uadd_sat:
  case Intrinsic::amdgcn_perm:
    return sim.executeIntegerIntrinsic(wave, call, id);
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
  case Intrinsic::sqrt:
  case Intrinsic::amdgcn_sqrt:
  case Intrinsic::amdgcn_rsq:
  case Intrinsic::amdgcn_rcp:
    return sim.executeFloatIntrinsic(wave, call, id);
  case Intrinsic::amdgcn_make_buffer_rsrc:
    return sim.executeMakeBufferResource(wave, call);
  case Intrinsic::amdgcn_raw_ptr_buffer_load:
  case Intrinsic::amdgcn_raw_ptr_buffer_store:
  case Intrinsic::amdgcn_raw_ptr_buffer_atomic_fadd:
  case Intrinsic::amdgcn_raw_ptr_buffer_load_lds:
    return sim.executeBufferAccess(wave, call, id);
  case Intrinsic::amdgcn_load_to_lds:
  case Intrinsic::amdgcn_global_load_lds:
    return sim.executeLoadToLds(wave, call);
  case Intrinsic::amdgcn_ds_read_tr16_b64:
    return sim.executeTransposedRead(wave, call);
  case Intrinsic::strip_invariant_group:
    // An LDS window's register (the hk lowering): the address unchanged.
    for (unsigned lane : wave.active)
      std::memcpy(result(&call, lane), operand(call.getArgOperand(0), lane),
                  sizeOf(call.getType()));
    return Error::success();
  case Intrinsic::amdgcn_update_dpp:
  case Intrinsic::amdgcn_permlane32_swap:
  case Intrinsic::amdgcn_permlane16_swap:
  case Intrinsic::amdgcn_permlanex16:
    return sim.executeCrossLane(wave, call, id);
#define HK_SIM_MMA(ID) case Intrinsic::ID:
#include "SimIntrinsics.def"
    return sim.executeMma(wave, call, id);
  default:
    return error(call, "intrinsic '" + call.getCalledFunction()->getName() +
                           "' is not modelled");
  }
}

//===----------------------------------------------------------------------===//
// Families
//===----------------------------------------------------------------------===//

Error Interpreter::executeQuery(Wave &wave, const CallInst &call,
                                Intrinsic::ID id) {
  auto writeAll = [&](auto &&valueOf) {
    unsigned bytes = sizeOf(call.getType());
    for (unsigned lane : wave.active)
      storeBits(result(wave, &call, lane), bytes, valueOf(lane));
  };
  auto threadId = [&](unsigned lane) {
    return int64_t(wave.index) * lanes + lane;
  };
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
  case Intrinsic::amdgcn_mbcnt_lo:
  case Intrinsic::amdgcn_mbcnt_hi: {
    // The count of the mask's bits for the lanes below this one, among
    // lanes 0-31 (lo) or 32-63 (hi), plus the second operand.
    bool high = id == Intrinsic::amdgcn_mbcnt_hi;
    for (unsigned lane : wave.active) {
      uint64_t mask = loadBits(operand(wave, call.getArgOperand(0), lane), 4);
      uint64_t add = loadBits(operand(wave, call.getArgOperand(1), lane), 4);
      unsigned below = high ? (lane > 32 ? lane - 32 : 0) : std::min(lane, 32u);
      uint64_t bits = mask & ((uint64_t(1) << below) - 1);
      storeBits(result(wave, &call, lane), 4,
                truncBits(add + llvm::popcount(bits), 32));
    }
    return Error::success();
  }
  default:
    return error(wave, call, "query intrinsic not modelled");
  }
}

Error Interpreter::executeSync(Wave &wave, const CallInst &call,
                               Intrinsic::ID id) {
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
  case Intrinsic::amdgcn_s_waitcnt: {
    // The gfx9 encoding: vmcnt in bits 3:0 and 15:14, lgkmcnt in 11:8.
    uint64_t imm = cast<ConstantInt>(call.getArgOperand(0))->getZExtValue();
    waitCounters(wave, (imm & 0xf) | (((imm >> 14) & 0x3) << 4),
                 (imm >> 8) & 0xf);
    return Error::success();
  }
  case Intrinsic::amdgcn_s_wait_dscnt: {
    // gfx12's LDS counter, the lgkmcnt of gfx9's LDS operations.
    uint64_t imm = cast<ConstantInt>(call.getArgOperand(0))->getZExtValue();
    waitCounters(wave, ~uint64_t(0), imm);
    return Error::success();
  }
  case Intrinsic::amdgcn_s_wait_loadcnt: {
    // gfx12's load counter. The simulator counts stores with the loads (as
    // gfx9's vmcnt): waiting for N of them waits for no fewer loads.
    uint64_t imm = cast<ConstantInt>(call.getArgOperand(0))->getZExtValue();
    waitCounters(wave, imm, ~uint64_t(0));
    return Error::success();
  }
  // Scheduling and priority hints do not change values.
#define HK_SIM_HINT(ID) case Intrinsic::ID:
#include "SimIntrinsics.def"
    return Error::success();
  default:
    return error(wave, call, "synchronisation intrinsic not modelled");
  }
}

Error Interpreter::executeIntegerIntrinsic(Wave &wave, const CallInst &call,
                                           Intrinsic::ID id) {
  // Scalar integers only (buffer sizes, clamps, remaining extents, byte
  // permutes); vectors are not emitted.
  unsigned bits = call.getType()->getScalarSizeInBits();
  if (!call.getType()->isIntegerTy() || bits > 64)
    return error(wave, call, "only scalar min/max up to 64 bits");
  unsigned bytes = sizeOf(call.getType());
  uint64_t top = truncBits(~uint64_t(0), bits);
  for (unsigned lane : wave.active) {
    uint64_t a = loadBits(operand(wave, call.getArgOperand(0), lane), bytes);
    uint64_t b = loadBits(operand(wave, call.getArgOperand(1), lane), bytes);
    int64_t sa = SignExtend64(a, bits), sb = SignExtend64(b, bits);
    uint64_t r = 0;
    if (id == Intrinsic::amdgcn_perm) {
      // v_perm_b32: result byte k is byte sel_k of (a << 32 | b); 8-11
      // repeat the sign of bytes 1, 3, 5, 7; 12 is 0x00, 13 and up 0xff.
      uint64_t data = a << 32 | b;
      uint64_t sel =
          loadBits(operand(wave, call.getArgOperand(2), lane), bytes);
      for (int k = 0; k < 4; ++k) {
        uint64_t s = (sel >> (8 * k)) & 0xff;
        uint64_t byte = s < 8     ? (data >> (8 * s)) & 0xff
                        : s < 12  ? ((data >> (16 * (s - 8) + 15)) & 1) * 0xff
                        : s == 12 ? 0
                                  : 0xff;
        r |= byte << (8 * k);
      }
      storeBits(result(wave, &call, lane), bytes, r);
      continue;
    }
    switch (id) {
    case Intrinsic::usub_sat:
      r = a > b ? a - b : 0;
      break;
    case Intrinsic::uadd_sat:
      r = a > top - b ? top : a + b;
      break;
    case Intrinsic::umax:
      r = std::max(a, b);
      break;
    case Intrinsic::umin:
      r = std::min(a, b);
      break;
    case Intrinsic::smax:
      r = std::max(sa, sb);
      break;
    default: // smin
      r = std::min(sa, sb);
      break;
    }
    storeBits(result(wave, &call, lane), bytes, r);
  }
  return Error::success();
}

Error Interpreter::executeMakeBufferResource(Wave &wave, const CallInst &call) {
  // {base, num_records, stride, flags}: raw buffers (stride 0) check offsets
  // against num_records bytes.
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
