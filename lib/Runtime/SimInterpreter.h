//===- SimInterpreter.h - the sim backend's interpreter ---------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The interpreter behind the `sim` backend of HK/Runtime/Simulator.h, internal
// to lib/Runtime (not installed). This file declares the state of a run (the
// frame layout of the kernel's values, waves with their execution masks and
// divergences), the Interpreter class, the LaneOpVisitor that executes one
// instruction for the active lanes of a wave, and the scalar helpers on raw
// little-endian bytes its implementation files share.
//
// Dispatch follows LLVM's own interpreter (lib/ExecutionEngine/Interpreter):
// Interpreter::step hands each instruction to an llvm::InstVisitor, a switch
// on the opcode, with one visit method per instruction class; calls of
// intrinsics go on to one handler per family through a switch on the
// intrinsic ID (LaneOpVisitor::visitIntrinsicInst).
//
// Simulator.cpp: preparation, workgroups, waves and barriers.
// SimControlFlow.cpp: stepping, branches, returns, PHIs and divergence.
// SimMemory.cpp: operands, constants, addresses, GEPs, loads and stores,
//   allocas, fences, buffer accesses and loads to LDS.
// SimLaneOps.cpp: arithmetic, compares, selects, casts, vector and
//   aggregate element operations.
// SimIntrinsics.cpp: the intrinsic dispatch; work-item and wave queries,
//   barriers, waits and hints, integer min/max, buffer resources.
// SimCrossLane.cpp: lane permutations and float intrinsics.
// SimMatrix.cpp: MFMA and WMMA.
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_RUNTIME_SIMINTERPRETER_H
#define HK_LIB_RUNTIME_SIMINTERPRETER_H

#include "HK/Runtime/Simulator.h"

#include "HK/Runtime/BFloat16.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/InstVisitor.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace mlir::hk::sim::detail {

// The interpreter works on LLVM IR: these names are LLVM's (mlir has a Type,
// a Value and a DataLayout of its own).
using llvm::APFloat;
using llvm::APInt;
using llvm::BasicBlock;
using llvm::CallInst;
using llvm::cast;
using llvm::Constant;
using llvm::DataLayout;
using llvm::DenseMap;
using llvm::dyn_cast;
using llvm::Error;
using llvm::Expected;
using llvm::FixedVectorType;
using llvm::Function;
using llvm::GlobalVariable;
using llvm::Instruction;
using llvm::IntrinsicInst;
using llvm::isa;
using llvm::maskTrailingOnes;
using llvm::Module;
using llvm::PointerType;
using llvm::PostDominatorTree;
using llvm::SignExtend64;
using llvm::SmallVector;
using llvm::Twine;
using llvm::Type;
using llvm::Value;
namespace Intrinsic = llvm::Intrinsic;

//===----------------------------------------------------------------------===//
// Scalar helpers
//===----------------------------------------------------------------------===//

constexpr unsigned kLdsAddressSpace = 3;
constexpr unsigned kPrivateAddressSpace = 5;
/// Buffer resources: base address (8 bytes), num_records (4), stride (2),
/// low bits of the flags (2), as the simulator stores them.
constexpr unsigned kBufferResourceAddressSpace = 8;

inline unsigned sizeOf(Type *type);

/// Where element `index` of a struct value starts: the simulator packs
/// struct elements (the pairs cross-lane intrinsics return) without padding.
inline unsigned structOffset(llvm::StructType *type, unsigned index) {
  unsigned offset = 0;
  for (unsigned i = 0; i < index; ++i)
    offset += sizeOf(type->getElementType(i));
  return offset;
}

/// Bytes one lane needs for a value of `type`.
inline unsigned sizeOf(Type *type) {
  if (auto *vec = dyn_cast<FixedVectorType>(type))
    return vec->getNumElements() * sizeOf(vec->getElementType());
  if (auto *st = dyn_cast<llvm::StructType>(type)) {
    unsigned bytes = 0;
    for (Type *element : st->elements()) {
      if (sizeOf(element) == 0)
        return 0;
      bytes += sizeOf(element);
    }
    return bytes;
  }
  if (type->isIntegerTy())
    return type->getIntegerBitWidth() > 64
               ? 0 // wider integers are not modelled
               : std::max(1u, (type->getIntegerBitWidth() + 7) / 8);
  if (type->isHalfTy() || type->isBFloatTy())
    return 2;
  if (type->isFloatTy())
    return 4;
  if (type->isDoubleTy())
    return 8;
  if (auto *ptr = dyn_cast<PointerType>(type)) {
    unsigned space = ptr->getAddressSpace();
    if (space == kLdsAddressSpace || space == kPrivateAddressSpace)
      return 4;
    if (space == kBufferResourceAddressSpace)
      return 16;
    return space <= 1 ? 8 : 0; // other address spaces are not modelled
  }
  return 0;
}

inline Type *scalarOf(Type *type) { return type->getScalarType(); }

/// The first `bytes` (at most 8) bytes at `p` as an integer.
inline uint64_t loadBits(const uint8_t *p, unsigned bytes) {
  uint64_t v = 0;
  std::memcpy(&v, p, std::min(bytes, 8u));
  return v;
}

inline void storeBits(uint8_t *p, unsigned bytes, uint64_t v) {
  std::memcpy(p, &v, std::min(bytes, 8u));
}

inline int64_t signExtend(uint64_t v, unsigned bits) {
  if (bits >= 64)
    return static_cast<int64_t>(v);
  return SignExtend64(v & maskTrailingOnes<uint64_t>(bits), bits);
}

inline uint64_t truncBits(uint64_t v, unsigned bits) {
  return bits >= 64 ? v : v & maskTrailingOnes<uint64_t>(bits);
}

inline double loadFloat(const uint8_t *p, Type *type) {
  if (type->isFloatTy()) {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  if (type->isDoubleTy()) {
    double d;
    std::memcpy(&d, p, 8);
    return d;
  }
  uint16_t h = static_cast<uint16_t>(loadBits(p, 2));
  if (type->isBFloatTy())
    return bf16ToFloat(h);
  APFloat f(APFloat::IEEEhalf(), APInt(16, h));
  return f.convertToFloat();
}

/// Stores `value`, rounded to nearest even into `type`. Values of float
/// operations are computed in float already, so this rounds once.
inline void storeFloat(uint8_t *p, Type *type, double value) {
  if (type->isFloatTy()) {
    float f = static_cast<float>(value);
    std::memcpy(p, &f, 4);
  } else if (type->isDoubleTy()) {
    std::memcpy(p, &value, 8);
  } else if (type->isBFloatTy()) {
    storeBits(p, 2, floatToBf16(static_cast<float>(value)));
  } else {
    APFloat f(value);
    bool lost;
    f.convert(APFloat::IEEEhalf(), APFloat::rmNearestTiesToEven, &lost);
    storeBits(p, 2, f.bitcastToAPInt().getZExtValue());
  }
}

//===----------------------------------------------------------------------===//
// The interpreter
//===----------------------------------------------------------------------===//

/// Where the values of one function live.
struct FrameLayout {
  DenseMap<const Value *, unsigned> slots;
  std::vector<unsigned> bytes; // per slot, per lane
};

/// A divergent branch whose paths have not all reached their reconvergence
/// point (the branch block's immediate post-dominator).
struct Divergence {
  const BasicBlock *reconverge; // null: the paths only meet at kernel exit
  const BasicBlock *pending;    // the path still to run, null once started
  uint64_t pendingMask;
  uint64_t outerMask; // the lanes active before the branch
};

struct Wave {
  unsigned index = 0;
  std::vector<std::vector<uint8_t>> values;
  const BasicBlock *block = nullptr;
  BasicBlock::const_iterator pc;
  /// Execution mask and its lanes, in order.
  uint64_t mask = 0;
  SmallVector<unsigned, 64> active;
  uint64_t exited = 0;
  /// The block each lane came from, for its PHIs.
  std::vector<const BasicBlock *> from;
  SmallVector<Divergence> divergences;
  /// Private memory of each lane.
  std::vector<std::vector<uint8_t>> scratch;
  bool done = false;
  bool waiting = false;
  uint64_t signals = 0; // workgroup barriers signalled
  uint64_t steps = 0;

  /// Asynchronous LDS traffic in flight (AsyncOrder). Operations are
  /// numbered per counter in issue order; a wait for count n completes all
  /// but the last n.
  struct PendingFill {
    uint64_t sequence;
    uint64_t lds;
    std::vector<uint8_t> data;
  };
  struct PendingRead {
    /// `bytes` bytes of LDS at `at` land at byte `offset` of the lane's
    /// result.
    struct Piece {
      unsigned lane;
      uint64_t at;
      unsigned offset;
    };
    uint64_t sequence;
    const Instruction *load;
    unsigned bytes;
    SmallVector<Piece, 64> lanes;
  };
  std::deque<PendingFill> pendingFills;
  std::deque<PendingRead> pendingReads;
  /// Loads whose value is still to be read, by their read's sequence number.
  DenseMap<const Value *, uint64_t> pendingValues;
  uint64_t vmIssued = 0, lgkmIssued = 0;

  void setMask(uint64_t m) {
    mask = m;
    active.clear();
    for (unsigned lane = 0; lane < 64; ++lane)
      if ((m >> lane) & 1)
        active.push_back(lane);
  }
};

class LaneOpVisitor;

class Interpreter {
  friend class LaneOpVisitor;

public:
  Interpreter(Module &module, Function &kernel, const ChipInfo &chip,
              const LaunchConfig &config, GlobalMemory &memory,
              Counters &counters)
      : dl(module.getDataLayout()), kernel(kernel), chip(chip), config(config),
        memory(memory), counters(counters), lanes(chip.waveSize) {}

  Error prepare();
  Error run(AsyncOrder order);

private:
  Error runWorkgroup(std::array<int64_t, 3> id);
  /// The linearised workgroup ids (x + gx (y + gy z)) in the order
  /// LaunchConfig::shuffleSeed draws, or why the grid is too large.
  Expected<std::vector<uint32_t>> shuffledWorkgroups() const;
  Error step(Wave &wave);

  // Intrinsic families, from LaneOpVisitor::visitIntrinsicInst.
  /// Work-item and workgroup ids, readfirstlane, ballot (SimIntrinsics.cpp).
  Error executeQuery(Wave &wave, const CallInst &call, Intrinsic::ID id);
  /// Barriers, waits and hints that change no value (SimIntrinsics.cpp).
  Error executeSync(Wave &wave, const CallInst &call, Intrinsic::ID id);
  /// Scalar integer min/max and saturating add/sub (SimIntrinsics.cpp).
  Error executeIntegerIntrinsic(Wave &wave, const CallInst &call,
                                Intrinsic::ID id);
  Error executeMakeBufferResource(Wave &wave, const CallInst &call);
  Error executeMma(Wave &wave, const CallInst &call, Intrinsic::ID id);
  Error executeBufferAccess(Wave &wave, const CallInst &call, Intrinsic::ID id);
  Error executeLoadToLds(Wave &wave, const CallInst &call);
  Error executeTransposedRead(Wave &wave, const CallInst &call);
  /// DPP moves and lane permutations (SimCrossLane.cpp).
  Error executeCrossLane(Wave &wave, const CallInst &call, Intrinsic::ID id);
  /// Float intrinsics: min/max, fma, fabs, exp2, log (SimCrossLane.cpp).
  Error executeFloatIntrinsic(Wave &wave, const CallInst &call,
                              Intrinsic::ID id);
  /// Counts an LDS operation by lgkmcnt and, for a late read, completes
  /// the reads its earlier value still waits for; returns its sequence
  /// number and whether its value is read again at completion.
  std::pair<uint64_t, bool>
  issueLdsOperation(Wave &wave, const Instruction &inst, bool isStore);
  /// Writes `data` to LDS at `lds` now (latestRead) or when the wait
  /// covering vector-memory operation `sequence` comes (latestFill).
  void issueLdsFill(Wave &wave, uint64_t sequence, uint64_t lds,
                    const uint8_t *data, unsigned size);
  /// Completes the fills numbered below `sequence`, in order.
  void completeFills(Wave &wave, uint64_t sequence);
  /// Completes the reads numbered up to and including `sequence`: their
  /// values are read from LDS now.
  void completeReads(Wave &wave, uint64_t sequence);
  /// A wait: all but the last `vm` vector-memory and `lgkm` LDS operations
  /// of the wave complete.
  void waitCounters(Wave &wave, uint64_t vm, uint64_t lgkm);
  /// The LDS address of lane `lane` of a load to LDS: the wave-uniform base
  /// (M0, from the first active lane) + `offset` + lane * size.
  uint64_t ldsDestination(Wave &wave, const Value *base, uint64_t offset,
                          unsigned size, unsigned lane) {
    return loadBits(operand(wave, base, wave.active.front()), 4) + offset +
           uint64_t(lane) * size;
  }
  /// Moves the active lanes to `to`, reconverging where a divergence ends.
  Error jump(Wave &wave, const BasicBlock *to);
  /// The active lanes reached the reconvergence point of the innermost
  /// divergence, or exited: run the pending path or merge.
  Error reconverge(Wave &wave);
  /// Enters `to` with the active lanes, evaluating its PHIs per lane.
  void enterBlock(Wave &wave, const BasicBlock *to);

  /// Bytes of `value` for `lane`.
  const uint8_t *operand(Wave &wave, const Value *value, unsigned lane);
  uint8_t *result(Wave &wave, const Value *value, unsigned lane) {
    unsigned slot = layout.slots.lookup(value);
    return wave.values[slot].data() + lane * layout.bytes[slot];
  }
  Expected<const uint8_t *> constant(const Constant *c);
  Error materialize(const Constant *c, Type *type, uint8_t *out);

  Expected<uint8_t *> address(Wave &wave, const Instruction &inst,
                              unsigned addressSpace, uint64_t address,
                              uint64_t size, unsigned lane, bool write);
  Error error(const Wave &wave, const Instruction &inst, const Twine &what);

  const DataLayout &dl;
  AsyncOrder order = AsyncOrder::latestFill;
  Function &kernel;
  const ChipInfo &chip;
  const LaunchConfig &config;
  GlobalMemory &memory;
  Counters &counters;
  unsigned lanes;

  FrameLayout layout;
  std::unique_ptr<PostDominatorTree> postDominators;
  /// Instruction -> index into classNames / classCounts.
  DenseMap<const Instruction *, unsigned> instructionClass;
  std::vector<std::string> classNames;
  std::vector<uint64_t> classCounts;
  std::vector<uint8_t> phiStaging;
  uint64_t fullMask = 0;
  DenseMap<const Constant *, std::vector<uint8_t>> constants;
  DenseMap<const GlobalVariable *, uint64_t> ldsOffsets;
  uint64_t ldsBytes = 0;
  std::vector<uint8_t> lds;
  std::array<int64_t, 3> workgroup = {0, 0, 0};
  std::vector<Wave> waves;
};

/// Executes one instruction for the active lanes of a wave. Made per step
/// (two references); the visit methods are defined with their topic's file.
/// InstVisitor takes mutable instructions; these only read them.
class LaneOpVisitor : public llvm::InstVisitor<LaneOpVisitor, Error> {
public:
  LaneOpVisitor(Interpreter &sim, Wave &wave) : sim(sim), wave(wave) {}

  // SimLaneOps.cpp
  Error visitInstruction(Instruction &inst);
  Error visitBinaryOperator(llvm::BinaryOperator &inst);
  Error visitFNeg(llvm::UnaryOperator &inst);
  Error visitICmpInst(llvm::ICmpInst &cmp);
  Error visitFCmpInst(llvm::FCmpInst &cmp);
  Error visitSelectInst(llvm::SelectInst &sel);
  Error visitFreezeInst(llvm::FreezeInst &inst);
  Error visitCastInst(llvm::CastInst &inst);
  Error visitBitCastInst(llvm::BitCastInst &inst);
  Error visitAddrSpaceCastInst(llvm::AddrSpaceCastInst &inst);
  Error visitFPToSIInst(llvm::FPToSIInst &inst) { return fpToInt(inst); }
  Error visitFPToUIInst(llvm::FPToUIInst &inst) { return fpToInt(inst); }
  /// Not modelled; visitCastInst would copy it.
  Error visitPtrToAddrInst(llvm::PtrToAddrInst &inst) {
    return visitInstruction(inst);
  }
  Error visitExtractElementInst(llvm::ExtractElementInst &ee);
  Error visitInsertElementInst(llvm::InsertElementInst &ie);
  Error visitShuffleVectorInst(llvm::ShuffleVectorInst &sv);
  Error visitExtractValueInst(llvm::ExtractValueInst &ev);

  // SimMemory.cpp
  Error visitGetElementPtrInst(llvm::GetElementPtrInst &gep);
  Error visitLoadInst(llvm::LoadInst &load);
  Error visitStoreInst(llvm::StoreInst &store);
  Error visitAllocaInst(llvm::AllocaInst &alloca);
  Error visitFenceInst(llvm::FenceInst &fence);

  // SimControlFlow.cpp
  Error visitBranchInst(llvm::BranchInst &br);
  Error visitReturnInst(llvm::ReturnInst &ret);
  Error visitPHINode(llvm::PHINode &) {
    return Error::success(); // evaluated when entering the block
  }

  // SimIntrinsics.cpp
  Error visitCallInst(CallInst &call);
  Error visitIntrinsicInst(IntrinsicInst &call);

private:
  Error fpToInt(llvm::CastInst &inst);
  Error loadOrStore(Instruction &inst, const Value *ptr, Type *valueType,
                    const Value *stored);

  const uint8_t *operand(const Value *value, unsigned lane) {
    return sim.operand(wave, value, lane);
  }
  uint8_t *result(const Value *value, unsigned lane) {
    return sim.result(wave, value, lane);
  }
  Error error(const Instruction &inst, const Twine &what) {
    return sim.error(wave, inst, what);
  }

  Interpreter &sim;
  Wave &wave;
};

} // namespace mlir::hk::sim::detail

#endif // HK_LIB_RUNTIME_SIMINTERPRETER_H
