//===- Simulator.cpp - executing AMDGPU kernels on the CPU ----------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the `sim` backend: an interpreter of AMDGPU LLVM IR
// that executes every instruction for all lanes of a wave, with the wave-
// level semantics of the matrix intrinsics and workgroup barriers.
//
// Values are kept as raw little-endian bytes: each SSA value of a wave owns
// `lanes * sizeof(type)` bytes; constants are materialized once.
//
//===----------------------------------------------------------------------===//

#include "HK/Runtime/Simulator.h"

#include "HK/Runtime/BFloat16.h"
#include "HK/Runtime/LdsBanks.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace llvm;
using namespace mlir::hk;
using namespace mlir::hk::sim;

//===----------------------------------------------------------------------===//
// GlobalMemory
//===----------------------------------------------------------------------===//

uint64_t GlobalMemory::allocate(StringRef name, uint64_t size) {
  uint64_t address = next;
  buffers.push_back({name.str(), address, std::vector<uint8_t>(size)});
  // A 1 MiB unmapped gap after every buffer.
  next = alignTo(address + size, 4096) + (uint64_t(1) << 20);
  return address;
}

std::vector<uint8_t> &GlobalMemory::bytes(uint64_t address) {
  for (Buffer &b : buffers)
    if (b.address == address)
      return b.data;
  report_fatal_error("no buffer at the given address");
}

const std::vector<uint8_t> &GlobalMemory::bytes(uint64_t address) const {
  return const_cast<GlobalMemory *>(this)->bytes(address);
}

uint8_t *GlobalMemory::translate(uint64_t address, uint64_t size) {
  for (Buffer &b : buffers)
    if (address >= b.address && size <= b.data.size() &&
        address - b.address <= b.data.size() - size)
      return b.data.data() + (address - b.address);
  return nullptr;
}

std::string GlobalMemory::describe(uint64_t address) const {
  for (const Buffer &b : buffers) {
    if (address >= b.address && address < b.address + b.data.size())
      return formatv("byte {0} of buffer '{1}' ({2} bytes)",
                     address - b.address, b.name, b.data.size());
    if (address >= b.address + b.data.size() &&
        address < b.address + b.data.size() + (uint64_t(1) << 20))
      return formatv("{0} bytes past the end of buffer '{1}' ({2} bytes)",
                     address - b.address - b.data.size(), b.name,
                     b.data.size());
  }
  return "no buffer";
}

//===----------------------------------------------------------------------===//
// Scalar helpers
//===----------------------------------------------------------------------===//

namespace {

constexpr unsigned kLdsAddressSpace = 3;
constexpr unsigned kPrivateAddressSpace = 5;
/// Buffer resources: base address (8 bytes), num_records (4), stride (2),
/// low bits of the flags (2), as the simulator stores them.
constexpr unsigned kBufferResourceAddressSpace = 8;

/// Bytes one lane needs for a value of `type`.
unsigned sizeOf(Type *type) {
  if (auto *vec = dyn_cast<FixedVectorType>(type))
    return vec->getNumElements() * sizeOf(vec->getElementType());
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

Type *scalarOf(Type *type) { return type->getScalarType(); }

/// The first `bytes` (at most 8) bytes at `p` as an integer.
uint64_t loadBits(const uint8_t *p, unsigned bytes) {
  uint64_t v = 0;
  std::memcpy(&v, p, std::min(bytes, 8u));
  return v;
}

void storeBits(uint8_t *p, unsigned bytes, uint64_t v) {
  std::memcpy(p, &v, std::min(bytes, 8u));
}

int64_t signExtend(uint64_t v, unsigned bits) {
  if (bits >= 64)
    return static_cast<int64_t>(v);
  return SignExtend64(v & maskTrailingOnes<uint64_t>(bits), bits);
}

uint64_t truncBits(uint64_t v, unsigned bits) {
  return bits >= 64 ? v : v & maskTrailingOnes<uint64_t>(bits);
}

double loadFloat(const uint8_t *p, Type *type) {
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
void storeFloat(uint8_t *p, Type *type, double value) {
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

/// The class an instruction is counted under.
static std::string classify(const Instruction &inst) {
  if (auto *call = dyn_cast<CallInst>(&inst))
    if (Function *f = call->getCalledFunction()) {
      switch (f->getIntrinsicID()) {
      case Intrinsic::amdgcn_mfma_f32_16x16x32_bf16:
      case Intrinsic::amdgcn_wmma_f32_16x16x16_bf16:
        return "mma";
      case Intrinsic::amdgcn_s_barrier:
      case Intrinsic::amdgcn_s_barrier_signal:
      case Intrinsic::amdgcn_s_barrier_wait:
        return "barrier";
      case Intrinsic::amdgcn_raw_ptr_buffer_load:
        return "buffer_load";
      case Intrinsic::amdgcn_raw_ptr_buffer_store:
        return "buffer_store";
      case Intrinsic::amdgcn_raw_ptr_buffer_load_lds:
      case Intrinsic::amdgcn_load_to_lds:
      case Intrinsic::amdgcn_global_load_lds:
        return "load_to_lds";
      default:
        return "intrinsic";
      }
    }
  if (isa<LoadInst>(inst) || isa<StoreInst>(inst)) {
    unsigned space =
        getLoadStorePointerOperand(&inst)->getType()->getPointerAddressSpace();
    std::string kind = isa<LoadInst>(inst) ? "load" : "store";
    return (space == kLdsAddressSpace       ? "lds_"
            : space == kPrivateAddressSpace ? "private_"
                                            : "global_") +
           kind;
  }
  if (isa<BranchInst>(inst) || isa<ReturnInst>(inst) || isa<PHINode>(inst))
    return "control";
  if (inst.getType()->isVectorTy() || isa<ExtractElementInst>(inst))
    return "vector";
  if (inst.getType()->isFPOrFPVectorTy())
    return "float";
  return "integer";
}

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

  void setMask(uint64_t m) {
    mask = m;
    active.clear();
    for (unsigned lane = 0; lane < 64; ++lane)
      if ((m >> lane) & 1)
        active.push_back(lane);
  }
};

class Interpreter {
public:
  Interpreter(Module &module, Function &kernel, const ChipInfo &chip,
              const LaunchConfig &config, GlobalMemory &memory,
              Counters &counters)
      : dl(module.getDataLayout()), kernel(kernel), chip(chip), config(config),
        memory(memory), counters(counters), lanes(chip.waveSize) {}

  Error prepare();
  Error run();

private:
  Error runWorkgroup(std::array<int64_t, 3> id);
  Error step(Wave &wave);
  Error execute(Wave &wave, const Instruction &inst);
  Error executeCall(Wave &wave, const CallInst &call);
  Error executeMma(Wave &wave, const CallInst &call, bool wmma);
  Error executeBufferAccess(Wave &wave, const CallInst &call, Intrinsic::ID id);
  Error executeLoadToLds(Wave &wave, const CallInst &call);
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

Error Interpreter::error(const Wave &wave, const Instruction &inst,
                         const Twine &what) {
  std::string text;
  raw_string_ostream os(text);
  inst.print(os);
  return createStringError(
      inconvertibleErrorCode(),
      formatv("workgroup ({0}, {1}, {2}), wave {3}: {4}\n  at:{5}",
              workgroup[0], workgroup[1], workgroup[2], wave.index, what.str(),
              text));
}

Error Interpreter::prepare() {
  // LDS: every addrspace(3) global of the module, laid out in order.
  for (GlobalVariable &g : kernel.getParent()->globals()) {
    if (g.getAddressSpace() != kLdsAddressSpace)
      continue;
    uint64_t align = g.getAlign() ? g.getAlign()->value() : 16;
    ldsBytes = alignTo(ldsBytes, align);
    ldsOffsets[&g] = ldsBytes;
    ldsBytes += dl.getTypeAllocSize(g.getValueType());
  }
  if (ldsBytes > static_cast<uint64_t>(chip.ldsBytes))
    return createStringError(inconvertibleErrorCode(),
                             formatv("kernel needs {0} bytes of LDS, {1} "
                                     "has {2}",
                                     ldsBytes, chip.name, chip.ldsBytes));

  auto addSlot = [&](const Value *v) -> Error {
    unsigned bytes = sizeOf(v->getType());
    if (bytes == 0 && !v->getType()->isVoidTy())
      return createStringError(
          inconvertibleErrorCode(),
          "the simulator does not model values of type " + [&] {
            std::string s;
            raw_string_ostream os(s);
            v->getType()->print(os);
            return s;
          }());
    layout.slots[v] = layout.bytes.size();
    layout.bytes.push_back(bytes);
    return Error::success();
  };
  for (Argument &arg : kernel.args()) {
    if (sizeOf(arg.getType()) > 8)
      return createStringError(
          inconvertibleErrorCode(),
          formatv("kernel argument #{0} is wider than 8 bytes; only scalar "
                  "and pointer arguments are modelled",
                  arg.getArgNo()));
    if (Error e = addSlot(&arg))
      return e;
  }
  for (BasicBlock &bb : kernel)
    for (Instruction &inst : bb) {
      if (!inst.getType()->isVoidTy())
        if (Error e = addSlot(&inst))
          return e;
      // Every constant operand must be one the simulator can materialize;
      // checked once here, so reading operands cannot fail later.
      for (const Value *op : inst.operands()) {
        auto *c = dyn_cast<Constant>(op);
        if (!c || isa<Function>(c) || isa<BasicBlock>(op))
          continue;
        if (sizeOf(c->getType()) == 0)
          continue; // e.g. metadata-like operands of intrinsics
        if (auto data = constant(c); !data) {
          std::string text;
          raw_string_ostream os(text);
          inst.print(os);
          return createStringError(inconvertibleErrorCode(),
                                   toString(data.takeError()) +
                                       "\n  at:" + text);
        }
      }
      std::string name = classify(inst);
      auto it = llvm::find(classNames, name);
      instructionClass[&inst] = it - classNames.begin();
      if (it == classNames.end())
        classNames.push_back(name);
    }
  classCounts.assign(classNames.size(), 0);
  postDominators = std::make_unique<PostDominatorTree>(kernel);
  fullMask = lanes >= 64 ? ~uint64_t(0) : (uint64_t(1) << lanes) - 1;
  if (config.arguments.size() != kernel.arg_size())
    return createStringError(
        inconvertibleErrorCode(),
        formatv("kernel '{0}' takes {1} arguments, {2} given", kernel.getName(),
                kernel.arg_size(), config.arguments.size()));
  return Error::success();
}

Error Interpreter::run() {
  for (int d = 0; d < 3; ++d)
    if (config.block[d] < 1 || config.block[d] > 1024 || config.grid[d] < 1 ||
        config.grid[d] > (int64_t(1) << 31))
      return createStringError(
          inconvertibleErrorCode(),
          formatv("launch of grid {0}x{1}x{2}, workgroup {3}x{4}x{5}: every "
                  "dimension must be at least 1, workgroups at most 1024",
                  config.grid[0], config.grid[1], config.grid[2],
                  config.block[0], config.block[1], config.block[2]));
  int64_t threads = config.block[0] * config.block[1] * config.block[2];
  if (threads <= 0 || threads % lanes != 0)
    return createStringError(
        inconvertibleErrorCode(),
        formatv("workgroup of {0} lanes is not a whole number of wave{1}s",
                threads, lanes));
  waves.resize(threads / lanes);
  for (unsigned w = 0; w < waves.size(); ++w) {
    waves[w].index = w;
    waves[w].values.resize(layout.bytes.size());
    for (unsigned s = 0; s < layout.bytes.size(); ++s)
      waves[w].values[s].assign(layout.bytes[s] * lanes, 0);
  }
  lds.assign(ldsBytes, 0);
  Error result = Error::success();
  for (int64_t z = 0; z < config.grid[2] && !result; ++z)
    for (int64_t y = 0; y < config.grid[1] && !result; ++y)
      for (int64_t x = 0; x < config.grid[0] && !result; ++x)
        result = runWorkgroup({x, y, z});
  for (auto [name, count] : llvm::zip(classNames, classCounts))
    if (count)
      counters.instructionClasses[name] += count;
  return result;
}

Error Interpreter::runWorkgroup(std::array<int64_t, 3> id) {
  workgroup = id;
  // LDS is uninitialized on hardware; a NaN pattern exposes reads of it.
  std::fill(lds.begin(), lds.end(), 0xff);
  for (Wave &wave : waves) {
    wave.done = wave.waiting = false;
    wave.signals = wave.steps = 0;
    for (Argument &arg : kernel.args())
      for (unsigned lane = 0; lane < lanes; ++lane)
        storeBits(result(wave, &arg, lane), sizeOf(arg.getType()),
                  config.arguments[arg.getArgNo()]);
    wave.block = &kernel.getEntryBlock();
    wave.pc = wave.block->begin();
    wave.setMask(fullMask);
    wave.exited = 0;
    wave.from.assign(lanes, nullptr);
    wave.divergences.clear();
    wave.scratch.assign(lanes, {});
  }
  while (true) {
    bool progress = false, allDone = true;
    for (Wave &wave : waves) {
      if (wave.done)
        continue;
      allDone = false;
      if (wave.waiting) {
        // Released once every live wave has signalled as often.
        bool released = llvm::all_of(waves, [&](const Wave &other) {
          return other.done || other.signals >= wave.signals;
        });
        if (!released)
          continue;
        wave.waiting = false;
      }
      progress = true;
      while (!wave.done && !wave.waiting)
        if (Error e = step(wave))
          return e;
    }
    if (allDone)
      return Error::success();
    if (!progress)
      return createStringError(
          inconvertibleErrorCode(),
          formatv("workgroup ({0}, {1}, {2}): every wave waits at a barrier "
                  "that not all waves reach",
                  id[0], id[1], id[2]));
  }
}

Error Interpreter::step(Wave &wave) {
  const Instruction &inst = *wave.pc;
  if (++wave.steps > config.stepLimit)
    return error(wave, inst,
                 formatv("step limit of {0} wave instructions reached",
                         config.stepLimit));
  ++counters.waveInstructions;
  counters.laneInstructions += wave.active.size();
  ++classCounts[instructionClass.lookup(&inst)];
  ++wave.pc;
  return execute(wave, inst);
}

void Interpreter::enterBlock(Wave &wave, const BasicBlock *to) {
  // PHIs read their inputs before any of them is written; each lane takes
  // the input of the block it came from.
  // The inputs are staged in a reused buffer (no allocation or clearing
  // per block entry); only active lanes' bytes are written and read.
  size_t total = 0;
  for (const PHINode &phi : to->phis())
    total += sizeOf(phi.getType()) * lanes;
  if (phiStaging.size() < total)
    phiStaging.resize(total);
  size_t at = 0;
  for (const PHINode &phi : to->phis()) {
    unsigned bytes = sizeOf(phi.getType());
    for (unsigned lane : wave.active)
      std::memcpy(
          phiStaging.data() + at + lane * bytes,
          operand(wave, phi.getIncomingValueForBlock(wave.from[lane]), lane),
          bytes);
    at += bytes * lanes;
  }
  at = 0;
  for (const PHINode &phi : to->phis()) {
    unsigned bytes = sizeOf(phi.getType());
    for (unsigned lane : wave.active)
      std::memcpy(result(wave, &phi, lane),
                  phiStaging.data() + at + lane * bytes, bytes);
    at += bytes * lanes;
  }
  wave.block = to;
  wave.pc = to->getFirstNonPHIIt();
}

Error Interpreter::jump(Wave &wave, const BasicBlock *to) {
  for (unsigned lane : wave.active)
    wave.from[lane] = wave.block;
  if (!wave.divergences.empty() && wave.divergences.back().reconverge == to)
    return reconverge(wave);
  enterBlock(wave, to);
  return Error::success();
}

Error Interpreter::reconverge(Wave &wave) {
  while (!wave.divergences.empty()) {
    Divergence &d = wave.divergences.back();
    if (d.pending) {
      const BasicBlock *target = d.pending;
      d.pending = nullptr;
      wave.setMask(d.pendingMask);
      if (target == d.reconverge)
        continue; // an empty path: it starts at the meeting point
      enterBlock(wave, target);
      return Error::success();
    }
    const BasicBlock *meet = d.reconverge;
    uint64_t mask = d.outerMask & ~wave.exited;
    wave.divergences.pop_back();
    wave.setMask(mask);
    if (mask == 0 || !meet)
      continue; // nobody left at this level, or the paths meet at exit
    if (!wave.divergences.empty() && wave.divergences.back().reconverge == meet)
      continue; // also where the enclosing divergence ends
    enterBlock(wave, meet);
    return Error::success();
  }
  wave.done = true; // every lane has exited
  return Error::success();
}

const uint8_t *Interpreter::operand(Wave &wave, const Value *value,
                                    unsigned lane) {
  auto it = layout.slots.find(value);
  if (it != layout.slots.end())
    return wave.values[it->second].data() + lane * layout.bytes[it->second];
  auto c = constant(cast<Constant>(value));
  if (!c) {
    consumeError(c.takeError());
    return nullptr;
  }
  return *c;
}

Expected<const uint8_t *> Interpreter::constant(const Constant *c) {
  auto it = constants.find(c);
  if (it != constants.end())
    return it->second.data();
  std::vector<uint8_t> bytes(std::max(sizeOf(c->getType()), 1u) + 8, 0);
  if (Error e = materialize(c, c->getType(), bytes.data()))
    return std::move(e);
  return constants.insert({c, std::move(bytes)}).first->second.data();
}

Error Interpreter::materialize(const Constant *c, Type *type, uint8_t *out) {
  unsigned bytes = sizeOf(type);
  if (isa<UndefValue>(c) || isa<ConstantAggregateZero>(c) ||
      isa<ConstantPointerNull>(c)) {
    std::memset(out, 0, bytes);
    return Error::success();
  }
  if (auto *ci = dyn_cast<ConstantInt>(c)) {
    storeBits(out, bytes, ci->getValue().getZExtValue());
    return Error::success();
  }
  if (auto *cf = dyn_cast<ConstantFP>(c)) {
    storeBits(out, bytes, cf->getValueAPF().bitcastToAPInt().getZExtValue());
    return Error::success();
  }
  if (isa<ConstantDataVector>(c) || isa<ConstantVector>(c)) {
    auto *vec = cast<FixedVectorType>(type);
    unsigned elem = sizeOf(vec->getElementType());
    for (unsigned i = 0; i < vec->getNumElements(); ++i)
      if (Error e = materialize(c->getAggregateElement(i),
                                vec->getElementType(), out + i * elem))
        return e;
    return Error::success();
  }
  if (auto *g = dyn_cast<GlobalVariable>(c)) {
    auto it = ldsOffsets.find(g);
    if (it == ldsOffsets.end())
      return createStringError(inconvertibleErrorCode(),
                               "global '" + g->getName() +
                                   "' is not in LDS; only LDS globals are "
                                   "modelled");
    storeBits(out, bytes, it->second);
    return Error::success();
  }
  if (auto *ce = dyn_cast<ConstantExpr>(c)) {
    if (auto *gep = dyn_cast<GEPOperator>(ce)) {
      APInt offset(dl.getIndexTypeSizeInBits(gep->getType()), 0);
      if (!gep->accumulateConstantOffset(dl, offset))
        return createStringError(inconvertibleErrorCode(),
                                 "non-constant constant GEP");
      std::vector<uint8_t> base(16, 0);
      if (Error e = materialize(cast<Constant>(gep->getPointerOperand()),
                                gep->getPointerOperandType(), base.data()))
        return e;
      storeBits(out, bytes,
                loadBits(base.data(), sizeOf(gep->getPointerOperandType())) +
                    offset.getSExtValue());
      return Error::success();
    }
    // An address as an integer (hk's direct fills compute M0 this way),
    // truncated or zero-extended to the result's width.
    if (ce->getOpcode() == Instruction::PtrToInt) {
      Type *pointerType = ce->getOperand(0)->getType();
      std::vector<uint8_t> base(16, 0);
      if (Error e = materialize(ce->getOperand(0), pointerType, base.data()))
        return e;
      storeBits(out, bytes, loadBits(base.data(), sizeOf(pointerType)));
      return Error::success();
    }
    // The integer constant expressions LLVM still has: add, sub and xor.
    unsigned opcode = ce->getOpcode();
    if (opcode == Instruction::Add || opcode == Instruction::Sub ||
        opcode == Instruction::Xor) {
      uint64_t v[2];
      for (unsigned i = 0; i < 2; ++i) {
        std::vector<uint8_t> operand(16, 0);
        if (Error e = materialize(ce->getOperand(i), type, operand.data()))
          return e;
        v[i] = loadBits(operand.data(), bytes);
      }
      storeBits(out, bytes,
                opcode == Instruction::Add   ? v[0] + v[1]
                : opcode == Instruction::Sub ? v[0] - v[1]
                                             : v[0] ^ v[1]);
      return Error::success();
    }
    if (ce->getOpcode() == Instruction::AddrSpaceCast &&
        ce->getOperand(0)->getType()->getPointerAddressSpace() !=
            kLdsAddressSpace &&
        type->getPointerAddressSpace() != kLdsAddressSpace) {
      std::vector<uint8_t> base(16, 0);
      if (Error e = materialize(ce->getOperand(0), ce->getOperand(0)->getType(),
                                base.data()))
        return e;
      storeBits(out, bytes, loadBits(base.data(), 8));
      return Error::success();
    }
  }
  std::string text;
  raw_string_ostream os(text);
  c->print(os);
  return createStringError(inconvertibleErrorCode(),
                           "the simulator does not model the constant " + text);
}

Expected<uint8_t *> Interpreter::address(Wave &wave, const Instruction &inst,
                                         unsigned addressSpace, uint64_t addr,
                                         uint64_t size, unsigned lane,
                                         bool write) {
  if (addressSpace == kLdsAddressSpace) {
    if (addr + size > ldsBytes)
      return error(wave, inst,
                   formatv("lane {0} accesses {1} bytes at LDS offset {2}, "
                           "outside the {3} bytes of LDS",
                           lane, size, addr, ldsBytes));
    (write ? counters.ldsBytesWritten : counters.ldsBytesRead) += size;
    return lds.data() + addr;
  }
  if (addressSpace == kPrivateAddressSpace) {
    std::vector<uint8_t> &mem = wave.scratch[lane];
    if (addr + size > mem.size())
      return error(wave, inst,
                   formatv("lane {0} accesses {1} bytes at private offset "
                           "{2}, outside its {3} bytes",
                           lane, size, addr, mem.size()));
    return mem.data() + addr;
  }
  if (addressSpace == 0 || addressSpace == 1) {
    if (uint8_t *p = memory.translate(addr, size)) {
      (write ? counters.globalBytesWritten : counters.globalBytesRead) += size;
      return p;
    }
    return error(wave, inst,
                 formatv("lane {0} {1} {2} bytes at global address {3:x}: "
                         "out of bounds ({4})",
                         lane, write ? "writes" : "reads", size, addr,
                         memory.describe(addr)));
  }
  return error(wave, inst,
               formatv("address space {0} is not modelled", addressSpace));
}

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
  case Instruction::ICmp: {
    auto &cmp = cast<ICmpInst>(inst);
    Type *opType = cmp.getOperand(0)->getType();
    Type *elem = scalarOf(opType);
    unsigned n = opType->isVectorTy()
                     ? cast<FixedVectorType>(opType)->getNumElements()
                     : 1;
    unsigned eb = sizeOf(elem);
    unsigned bits = elem->isPointerTy() ? eb * 8 : elem->getIntegerBitWidth();
    for (unsigned lane : wave.active) {
      const uint8_t *a = operand(wave, cmp.getOperand(0), lane);
      const uint8_t *b = operand(wave, cmp.getOperand(1), lane);
      uint8_t *out = result(wave, &inst, lane);
      for (unsigned i = 0; i < n; ++i)
        out[i] = compareInt(cmp.getPredicate(), loadBits(a + i * eb, eb),
                            loadBits(b + i * eb, eb), bits);
    }
    return Error::success();
  }
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
  case Instruction::Fence:
    return Error::success(); // simulated memory is sequentially consistent
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
  case Intrinsic::umax:
  case Intrinsic::umin:
  case Intrinsic::smax:
  case Intrinsic::smin: {
    // Scalar integers only (buffer sizes, clamps); vectors are not emitted.
    unsigned bits = call.getType()->getScalarSizeInBits();
    if (!call.getType()->isIntegerTy() || bits > 64)
      return error(wave, call, "only scalar min/max up to 64 bits");
    unsigned bytes = sizeOf(call.getType());
    writeAll([&](unsigned lane) -> uint64_t {
      uint64_t a = loadBits(operand(wave, call.getArgOperand(0), lane), bytes);
      uint64_t b = loadBits(operand(wave, call.getArgOperand(1), lane), bytes);
      if (id == Intrinsic::umax)
        return std::max(a, b);
      if (id == Intrinsic::umin)
        return std::min(a, b);
      int64_t sa = SignExtend64(a, bits), sb = SignExtend64(b, bits);
      return id == Intrinsic::smax ? std::max(sa, sb) : std::min(sa, sb);
    });
    return Error::success();
  }
  // Scheduling and priority hints do not change values.
  case Intrinsic::amdgcn_s_setprio:
  case Intrinsic::amdgcn_sched_barrier:
  case Intrinsic::amdgcn_s_waitcnt:
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
  case Intrinsic::amdgcn_mfma_f32_16x16x32_bf16:
    return executeMma(wave, call, /*wmma=*/false);
  case Intrinsic::amdgcn_wmma_f32_16x16x16_bf16:
    return executeMma(wave, call, /*wmma=*/true);
  default:
    break;
  }
  return error(wave, call,
               "intrinsic '" + callee->getName() + "' is not modelled");
}

/// Raw buffer loads and stores (and loads to LDS) through a resource made
/// by make.buffer.rsrc. The range check follows the raw-buffer rule: a
/// 4-byte word of the access is in range if voffset + offset + its position
/// + 4 <= num_records (soffset is not checked); out-of-range words read as
/// 0 and are not written.
Error Interpreter::executeBufferAccess(Wave &wave, const CallInst &call,
                                       Intrinsic::ID id) {
  bool isStore = id == Intrinsic::amdgcn_raw_ptr_buffer_store;
  bool toLds = id == Intrinsic::amdgcn_raw_ptr_buffer_load_lds;
  unsigned first = isStore ? 1 : 0; // the resource operand
  const Value *rsrc = call.getArgOperand(first);
  unsigned next = first + (toLds ? 3 : 1);
  const Value *voffset = call.getArgOperand(next);
  const Value *soffset = call.getArgOperand(next + 1);
  uint64_t imm = 0;
  unsigned size;
  if (toLds) {
    size = cast<ConstantInt>(call.getArgOperand(2))->getZExtValue();
    imm = cast<ConstantInt>(call.getArgOperand(5))->getZExtValue();
  } else {
    size = sizeOf(isStore ? call.getArgOperand(0)->getType() : call.getType());
  }
  for (unsigned lane : wave.active) {
    const uint8_t *r = operand(wave, rsrc, lane);
    uint64_t base = loadBits(r, 8), records = loadBits(r + 8, 4);
    if (loadBits(r + 12, 2) != 0)
      return error(wave, call, "strided buffer resources are not modelled");
    uint64_t checked = loadBits(operand(wave, voffset, lane), 4) + imm;
    uint64_t address =
        base + checked + loadBits(operand(wave, soffset, lane), 4);
    std::vector<uint8_t> data(size, 0);
    if (isStore)
      std::memcpy(data.data(), operand(wave, call.getArgOperand(0), lane),
                  size);
    for (unsigned word = 0; word < size; word += 4) {
      unsigned bytes = std::min(4u, size - word);
      if (checked + word + bytes > records)
        continue; // out of range: reads 0, writes nothing
      auto mem =
          this->address(wave, call, 1, address + word, bytes, lane, isStore);
      if (!mem)
        return mem.takeError();
      if (isStore)
        std::memcpy(*mem, data.data() + word, bytes);
      else
        std::memcpy(data.data() + word, *mem, bytes);
    }
    if (isStore)
      continue;
    if (!toLds) {
      std::memcpy(result(wave, &call, lane), data.data(), size);
      continue;
    }
    auto lds = this->address(
        wave, call, kLdsAddressSpace,
        ldsDestination(wave, call.getArgOperand(1), imm, size, lane), size,
        lane, /*write=*/true);
    if (!lds)
      return lds.takeError();
    std::memcpy(*lds, data.data(), size);
  }
  return Error::success();
}

/// load.to.lds / global.load.lds: each lane reads `size` bytes at its own
/// pointer + offset and writes them to M0 + offset + lane * size.
Error Interpreter::executeLoadToLds(Wave &wave, const CallInst &call) {
  const Value *source = call.getArgOperand(0);
  unsigned space = source->getType()->getPointerAddressSpace();
  unsigned size = cast<ConstantInt>(call.getArgOperand(2))->getZExtValue();
  uint64_t imm = cast<ConstantInt>(call.getArgOperand(3))->getZExtValue();
  for (unsigned lane : wave.active) {
    uint64_t from =
        loadBits(operand(wave, source, lane), sizeOf(source->getType())) + imm;
    auto src = address(wave, call, space, from, size, lane, /*write=*/false);
    if (!src)
      return src.takeError();
    auto dst =
        address(wave, call, kLdsAddressSpace,
                ldsDestination(wave, call.getArgOperand(1), imm, size, lane),
                size, lane, /*write=*/true);
    if (!dst)
      return dst.takeError();
    std::memcpy(*dst, *src, size);
  }
  return Error::success();
}

/// D = C + A * B^T for one 16 x 16 tile of the wave, with A and B held as
/// the chip's lane layout gives them (SPEC section 6). The layout is written
/// out here rather than taken from HK/Dialect/HK/Utils on purpose: the
/// simulator is the oracle for the compiler's use of those utilities. Products
/// of bf16 are exact in f32; they are accumulated into C in ascending k, in
/// f32.
Error Interpreter::executeMma(Wave &wave, const CallInst &call, bool wmma) {
  ++counters.mmas;
  if (wave.mask != fullMask)
    return error(wave, call,
                 "matrix instruction with inactive lanes is not modelled");
  const int64_t K = wmma ? 16 : 32;
  if (!wmma)
    for (unsigned i = 3; i < 6; ++i)
      if (!cast<ConstantInt>(call.getArgOperand(i))->isZero())
        return error(wave, call,
                     "MFMA broadcast controls (cbsz/abid/blgp) are not "
                     "modelled");
  if ((wmma && lanes != 32) || (!wmma && lanes != 64))
    return error(wave, call, "matrix instruction for another wave size");
  float a[16][32], b[16][32], c[16][16];
  auto kOf = [&](unsigned lane, unsigned i) -> unsigned {
    return wmma ? (lane / 16) * 4 + i % 4 + 8 * (i / 4) : (lane / 16) * 8 + i;
  };
  for (unsigned lane : wave.active) {
    const uint8_t *pa = operand(wave, call.getArgOperand(0), lane);
    const uint8_t *pb = operand(wave, call.getArgOperand(1), lane);
    const uint8_t *pc = operand(wave, call.getArgOperand(2), lane);
    for (unsigned i = 0; i < 8; ++i) {
      a[lane % 16][kOf(lane, i)] = bf16ToFloat(loadBits(pa + 2 * i, 2));
      b[lane % 16][kOf(lane, i)] = bf16ToFloat(loadBits(pb + 2 * i, 2));
    }
    unsigned accPerLane = wmma ? 8 : 4;
    for (unsigned i = 0; i < accPerLane; ++i) {
      float v;
      std::memcpy(&v, pc + 4 * i, 4);
      c[(lane / 16) * accPerLane + i][lane % 16] = v;
    }
  }
  for (unsigned m = 0; m < 16; ++m)
    for (unsigned n = 0; n < 16; ++n) {
      float acc = c[m][n];
      for (int64_t k = 0; k < K; ++k)
        acc += a[m][k] * b[n][k];
      c[m][n] = acc;
    }
  unsigned accPerLane = wmma ? 8 : 4;
  for (unsigned lane : wave.active) {
    uint8_t *out = result(wave, &call, lane);
    for (unsigned i = 0; i < accPerLane; ++i)
      std::memcpy(out + 4 * i, &c[(lane / 16) * accPerLane + i][lane % 16], 4);
  }
  return Error::success();
}

} // namespace

Error mlir::hk::sim::run(Module &module, StringRef kernelName,
                         const ChipInfo &chip, const LaunchConfig &config,
                         GlobalMemory &memory, Counters &counters) {
  if (Error e = lowerBufferFatPointers(module, chip))
    return e;
  Function *kernel = module.getFunction(kernelName);
  if (!kernel || kernel->isDeclaration())
    return createStringError(inconvertibleErrorCode(),
                             "no kernel named '" + kernelName + "'");
  Interpreter interpreter(module, *kernel, chip, config, memory, counters);
  if (Error e = interpreter.prepare())
    return e;
  return interpreter.run();
}
