//===- SimMemory.cpp - sim: values, constants and memory ------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the memory side of the `sim` interpreter
// (SimInterpreter.h): reading operands, materializing constants into raw
// bytes, translating LDS, private and global addresses with their bounds
// checks and byte counters, and the raw buffer accesses and loads to LDS of
// direct-to-LDS fills; and the LaneOpVisitor methods of GEPs, loads and
// stores (with the LDS bank-conflict count), allocas and fences.
//
//===----------------------------------------------------------------------===//

#include "SimInterpreter.h"

#include "HK/Target/LdsBanks.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace llvm;
using namespace mlir::hk;
using namespace mlir::hk::sim;
using namespace mlir::hk::sim::detail;

//===----------------------------------------------------------------------===//
// Operands and constants
//===----------------------------------------------------------------------===//

const uint8_t *Interpreter::operand(Wave &wave, const Value *value,
                                    unsigned lane) {
  // A load whose read is still in flight is read now: its value is needed
  // (the backend waits for it before the use).
  if (!wave.pendingValues.empty()) {
    auto pending = wave.pendingValues.find(value);
    if (pending != wave.pendingValues.end())
      completeReads(wave, pending->second);
  }
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
    // An address as an integer (hk's direct fills compute M0 this way) and
    // back (a direct fill's LDS destination when the wave's base is a
    // constant, as in a one-wave workgroup): the same bits, truncated or
    // zero-extended to the result's width.
    if (ce->getOpcode() == Instruction::PtrToInt ||
        ce->getOpcode() == Instruction::IntToPtr) {
      Type *sourceType = ce->getOperand(0)->getType();
      std::vector<uint8_t> value(16, 0);
      if (Error e = materialize(ce->getOperand(0), sourceType, value.data()))
        return e;
      storeBits(out, bytes, loadBits(value.data(), sizeOf(sourceType)));
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

//===----------------------------------------------------------------------===//
// Addresses
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// GEPs, loads, stores, allocas and fences
//===----------------------------------------------------------------------===//

Error LaneOpVisitor::visitGetElementPtrInst(GetElementPtrInst &gep) {
  Type *type = gep.getType();
  if (type->isVectorTy())
    return error(gep, "vector GEPs are not modelled");
  const DataLayout &dl = sim.dl;
  unsigned pb = sizeOf(type);
  for (unsigned lane : wave.active) {
    int64_t addr = loadBits(operand(gep.getPointerOperand(), lane),
                            sizeOf(gep.getPointerOperandType()));
    for (auto it = gep_type_begin(gep), end = gep_type_end(gep); it != end;
         ++it) {
      const Value *idx = it.getOperand();
      unsigned ib = sizeOf(idx->getType());
      int64_t i = signExtend(loadBits(operand(idx, lane), ib),
                             idx->getType()->getIntegerBitWidth());
      if (StructType *st = it.getStructTypeOrNull())
        addr += dl.getStructLayout(st)->getElementOffset(i);
      else
        addr += i * static_cast<int64_t>(
                        it.getSequentialElementStride(dl).getFixedValue());
    }
    storeBits(result(&gep, lane), pb, static_cast<uint64_t>(addr));
  }
  return Error::success();
}

Error LaneOpVisitor::visitLoadInst(LoadInst &load) {
  return loadOrStore(load, load.getPointerOperand(), load.getType(), nullptr);
}

Error LaneOpVisitor::visitStoreInst(StoreInst &store) {
  return loadOrStore(store, store.getPointerOperand(),
                     store.getValueOperand()->getType(),
                     store.getValueOperand());
}

/// A load (`stored` null) or a store of `stored`, with the LDS bank-conflict
/// count and the asynchronous-LDS bookkeeping.
Error LaneOpVisitor::loadOrStore(Instruction &inst, const Value *ptr,
                                 Type *valueType, const Value *stored) {
  bool isStore = stored != nullptr;
  unsigned space = ptr->getType()->getPointerAddressSpace();
  unsigned bytes = sizeOf(valueType);
  uint64_t storeSize = sim.dl.getTypeStoreSize(valueType);
  if (valueType->isVectorTy() && scalarOf(valueType)->isIntegerTy(1))
    return error(inst, "loads and stores of i1 vectors are not modelled");
  if (space > 1 && space != kLdsAddressSpace && space != kPrivateAddressSpace)
    return error(inst, formatv("address space {0} is not modelled", space));
  // Counted memory operations: LDS ones by lgkmcnt, global ones by vmcnt.
  uint64_t sequence = 0;
  bool lateRead = false;
  if (space == kLdsAddressSpace) {
    std::tie(sequence, lateRead) = sim.issueLdsOperation(wave, inst, isStore);
  } else if (space != kPrivateAddressSpace) {
    ++wave.vmIssued;
  }
  Wave::PendingRead pending;
  if (space == kLdsAddressSpace) {
    std::vector<std::optional<uint64_t>> addresses(sim.lanes);
    for (unsigned lane : wave.active)
      addresses[lane] = loadBits(operand(ptr, lane), sizeOf(ptr->getType()));
    unsigned ways = getLdsConflictWays(sim.chip, storeSize, addresses);
    ++(isStore ? sim.counters.ldsWrites
               : sim.counters.ldsReads)[storeSize][ways];
  }
  uint64_t copied = std::min<uint64_t>(bytes, storeSize);
  for (unsigned lane : wave.active) {
    uint64_t addr = loadBits(operand(ptr, lane), sizeOf(ptr->getType()));
    auto mem = sim.address(wave, inst, space, addr, storeSize, lane, isStore);
    if (!mem)
      return mem.takeError();
    if (isStore)
      std::memcpy(*mem, operand(stored, lane), copied);
    else
      std::memcpy(result(&inst, lane), *mem, copied);
    if (lateRead)
      pending.lanes.push_back({lane, uint64_t(*mem - sim.lds.data()), 0});
  }
  if (lateRead) {
    // Read again from LDS when the read completes.
    pending.sequence = sequence;
    pending.load = &inst;
    pending.bytes = copied;
    wave.pendingValues[&inst] = sequence;
    wave.pendingReads.push_back(std::move(pending));
  }
  return Error::success();
}

Error LaneOpVisitor::visitAllocaInst(AllocaInst &alloca) {
  // Private memory: each lane of each wave has its own.
  auto *count = dyn_cast<ConstantInt>(alloca.getArraySize());
  if (!count)
    return error(alloca, "dynamic allocas are not modelled");
  uint64_t size = sim.dl.getTypeAllocSize(alloca.getAllocatedType()) *
                  count->getZExtValue();
  for (unsigned lane : wave.active) {
    std::vector<uint8_t> &mem = wave.scratch[lane];
    uint64_t offset = alignTo(mem.size(), alloca.getAlign().value());
    mem.resize(offset + size, 0xff);
    storeBits(result(&alloca, lane), sizeOf(alloca.getType()), offset);
  }
  return Error::success();
}

Error LaneOpVisitor::visitFenceInst(FenceInst &fence) {
  // Simulated memory is sequentially consistent, but a releasing fence of
  // workgroup or wider scope makes the backend wait for the wave's memory
  // operations (vmcnt(0) lgkmcnt(0) with an LDS DMA in flight).
  SmallVector<StringRef> scopes;
  fence.getContext().getSyncScopeNames(scopes);
  StringRef scope = fence.getSyncScopeID() < scopes.size()
                        ? scopes[fence.getSyncScopeID()]
                        : StringRef("?");
  bool narrow =
      scope.starts_with("wavefront") || scope.starts_with("singlethread");
  if (!narrow && fence.getOrdering() != AtomicOrdering::Acquire)
    sim.waitCounters(wave, 0, 0);
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Buffer accesses and loads to LDS
//===----------------------------------------------------------------------===//

/// Raw buffer loads, stores and f32 atomic adds (and loads to LDS) through a
/// resource made by make.buffer.rsrc. The range check follows the raw-buffer
/// rule: a 4-byte word of the access is in range if voffset + offset + its
/// position
/// + 4 <= num_records; out-of-range words read as 0 and are not written.
/// That is CDNA's rule; RDNA's (OOB_SELECT = 3) checks the whole access, so
/// on a chip without ChipInfo::perWordBufferRangeCheck an access partly in
/// range is an error (its words would read 0 there).
/// Sources disagree on whether soffset is added to the checked offset
/// (docs/hardware/SchedulesTailsLayouts.md#range-check), so a word whose
/// verdict depends on it is an error: a kernel that runs here is right under
/// either reading. Sources also disagree on what an out-of-range load to
/// LDS writes (zeros or nothing): it writes 0xff bytes (a NaN), so that
/// results relying on either are wrong here.
Error Interpreter::executeBufferAccess(Wave &wave, const CallInst &call,
                                       Intrinsic::ID id) {
  // An atomic add reads, adds and writes each lane's f32 in lane order,
  // and returns the value it read.
  bool isAtomicAdd = id == Intrinsic::amdgcn_raw_ptr_buffer_atomic_fadd;
  bool isStore = id == Intrinsic::amdgcn_raw_ptr_buffer_store || isAtomicAdd;
  bool toLds = id == Intrinsic::amdgcn_raw_ptr_buffer_load_lds;
  if (isAtomicAdd && !call.getArgOperand(0)->getType()->isFloatTy())
    return error(wave, call, "only f32 buffer atomic adds are modelled");
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
  uint64_t sequence = wave.vmIssued++;
  for (unsigned lane : wave.active) {
    const uint8_t *r = operand(wave, rsrc, lane);
    uint64_t base = loadBits(r, 8), records = loadBits(r + 8, 4);
    if (loadBits(r + 12, 2) != 0)
      return error(wave, call, "strided buffer resources are not modelled");
    uint64_t checked = loadBits(operand(wave, voffset, lane), 4) + imm;
    uint64_t scalar = loadBits(operand(wave, soffset, lane), 4);
    uint64_t address = base + checked + scalar;
    if (address % std::min(size, 4u) != 0)
      return error(wave, call,
                   formatv("lane {0}: a {1}-byte buffer access at byte offset "
                           "{2} is not {3}-byte aligned",
                           lane, size, checked + scalar, std::min(size, 4u)));
    if (!chip.perWordBufferRangeCheck && size > 4 &&
        (checked + 4 <= records) != (checked + size <= records))
      return error(
          wave, call,
          formatv("lane {0}: a {1}-byte buffer access at byte offset {2} is "
                  "partly past the buffer's range ({3} bytes): {4} checks "
                  "the whole access, so its words in range would read 0 "
                  "too (docs/hardware/SchedulesTailsLayouts.md#range-check)",
                  lane, size, checked, records, chip.name));
    std::vector<uint8_t> data(size, 0);
    if (isStore)
      std::memcpy(data.data(), operand(wave, call.getArgOperand(0), lane),
                  size);
    for (unsigned word = 0; word < size; word += 4) {
      unsigned bytes = std::min(4u, size - word);
      bool inRange = checked + word + bytes <= records;
      if (inRange != (checked + scalar + word + bytes <= records))
        return error(
            wave, call,
            formatv("lane {0}: whether bytes {1}..{2} are in the buffer's "
                    "range ({3} bytes) depends on whether the hardware adds "
                    "soffset {4} to voffset {5} in its range check, on which "
                    "sources disagree: keep row offsets out of soffset",
                    lane, checked + word, checked + word + bytes - 1, records,
                    scalar, checked));
      if (!inRange) {
        if (toLds)
          std::memset(data.data() + word, 0xff, bytes);
        if (isAtomicAdd)
          std::memset(data.data() + word, 0, bytes);
        continue; // out of range: reads 0, writes nothing
      }
      auto mem =
          this->address(wave, call, 1, address + word, bytes, lane, isStore);
      if (!mem)
        return mem.takeError();
      if (isAtomicAdd) {
        float old, add;
        std::memcpy(&old, *mem, 4);
        std::memcpy(&add, data.data(), 4);
        float sum = old + add;
        std::memcpy(*mem, &sum, 4);
        std::memcpy(data.data(), &old, 4);
      } else if (isStore) {
        std::memcpy(*mem, data.data() + word, bytes);
      } else {
        std::memcpy(data.data() + word, *mem, bytes);
      }
    }
    if (isAtomicAdd && !call.getType()->isVoidTy()) {
      std::memcpy(result(wave, &call, lane), data.data(), size);
      continue;
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
    issueLdsFill(wave, sequence, *lds - this->lds.data(), data.data(), size);
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
  uint64_t sequence = wave.vmIssued++;
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
    issueLdsFill(wave, sequence, *dst - lds.data(), *src, size);
  }
  return Error::success();
}

/// ds.read.tr16.b64 (gfx950's ds_read_b64_tr_b16,
/// docs/hardware/SchedulesTailsLayouts.md#ds-read-tr): in each group of 16
/// lanes, lane i reads 8 bytes at its address (row i / 4, columns
/// 4 (i % 4) .. + 3 of a 4 x 16 block of 16-bit elements) and lane j receives
/// column j: element e from lane 4e + j / 4, at its element j % 4. The ISA
/// requires every lane on (docs/hardware/SchedulesTailsLayouts.md#rule-r5).
Error Interpreter::executeTransposedRead(Wave &wave, const CallInst &call) {
  constexpr unsigned kBytes = 8, kGroup = 16;
  if (wave.active.size() != lanes)
    return error(wave, call,
                 formatv("ds_read_b64_tr_b16 with {0} of {1} lanes active: the "
                         "ISA requires all of them",
                         wave.active.size(), lanes));
  const Value *ptr = call.getArgOperand(0);
  auto [sequence, lateRead] = issueLdsOperation(wave, call, /*isStore=*/false);
  std::vector<std::optional<uint64_t>> addresses(lanes);
  std::vector<const uint8_t *> source(lanes);
  for (unsigned lane : wave.active) {
    addresses[lane] =
        loadBits(operand(wave, ptr, lane), sizeOf(ptr->getType()));
    auto mem = address(wave, call, kLdsAddressSpace, *addresses[lane], kBytes,
                       lane, /*write=*/false);
    if (!mem)
      return mem.takeError();
    source[lane] = *mem;
  }
  ++counters.ldsReads[kBytes][getLdsConflictWays(chip, kBytes, addresses)];
  Wave::PendingRead pending;
  for (unsigned lane : wave.active) {
    unsigned group = lane - lane % kGroup, j = lane % kGroup;
    for (unsigned e = 0; e < 4; ++e) {
      const uint8_t *from = source[group + 4 * e + j / 4] + 2 * (j % 4);
      std::memcpy(result(wave, &call, lane) + 2 * e, from, 2);
      if (lateRead)
        pending.lanes.push_back({lane, uint64_t(from - lds.data()), 2 * e});
    }
  }
  if (lateRead) {
    pending.sequence = sequence;
    pending.load = &call;
    pending.bytes = 2;
    wave.pendingValues[&call] = sequence;
    wave.pendingReads.push_back(std::move(pending));
  }
  return Error::success();
}

std::pair<uint64_t, bool>
Interpreter::issueLdsOperation(Wave &wave, const Instruction &inst,
                               bool isStore) {
  uint64_t sequence = wave.lgkmIssued++;
  if (order == AsyncOrder::latestRead && !wave.pendingReads.empty()) {
    // One wave's LDS operations execute in order: a store does not pass
    // its earlier reads, and this load's previous value is read before it
    // is replaced.
    if (isStore)
      completeReads(wave, UINT64_MAX);
    else if (auto it = wave.pendingValues.find(&inst);
             it != wave.pendingValues.end())
      completeReads(wave, it->second);
  }
  return {sequence, !isStore && order == AsyncOrder::latestRead};
}

//===----------------------------------------------------------------------===//
// Asynchronous completion (AsyncOrder)
//===----------------------------------------------------------------------===//

void Interpreter::issueLdsFill(Wave &wave, uint64_t sequence, uint64_t at,
                               const uint8_t *data, unsigned size) {
  if (order == AsyncOrder::latestRead) {
    std::memcpy(lds.data() + at, data, size);
    return;
  }
  wave.pendingFills.push_back(
      {sequence, at, std::vector<uint8_t>(data, data + size)});
}

void Interpreter::completeFills(Wave &wave, uint64_t sequence) {
  while (!wave.pendingFills.empty() &&
         wave.pendingFills.front().sequence < sequence) {
    Wave::PendingFill &fill = wave.pendingFills.front();
    std::memcpy(lds.data() + fill.lds, fill.data.data(), fill.data.size());
    wave.pendingFills.pop_front();
  }
}

void Interpreter::completeReads(Wave &wave, uint64_t sequence) {
  while (!wave.pendingReads.empty() &&
         wave.pendingReads.front().sequence <= sequence) {
    Wave::PendingRead &read = wave.pendingReads.front();
    for (const Wave::PendingRead::Piece &piece : read.lanes)
      std::memcpy(result(wave, read.load, piece.lane) + piece.offset,
                  lds.data() + piece.at, read.bytes);
    wave.pendingValues.erase(read.load);
    wave.pendingReads.pop_front();
  }
}

void Interpreter::waitCounters(Wave &wave, uint64_t vm, uint64_t lgkm) {
  if (vm < wave.vmIssued)
    completeFills(wave, wave.vmIssued - vm);
  if (lgkm < wave.lgkmIssued)
    completeReads(wave, wave.lgkmIssued - lgkm - 1);
}
