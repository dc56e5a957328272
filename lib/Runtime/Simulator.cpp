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
// This file holds global memory, the preparation of a kernel (LDS layout,
// value slots, constant checks, instruction classes), and the scheduling of
// workgroups and their waves up to barriers. The interpreter is declared in
// SimInterpreter.h; control flow and divergence are in SimControlFlow.cpp,
// memory in SimMemory.cpp, lane operations and MMA in SimLaneOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "SimInterpreter.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <random>

using namespace llvm;
using namespace mlir::hk;
using namespace mlir::hk::sim;
using namespace mlir::hk::sim::detail;

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

std::string GlobalMemory::describeDifference(const GlobalMemory &other) const {
  for (const Buffer &b : buffers)
    for (const Buffer &o : other.buffers) {
      if (o.address != b.address)
        continue;
      auto [mine, theirs] = std::mismatch(b.data.begin(), b.data.end(),
                                          o.data.begin(), o.data.end());
      if (mine != b.data.end() || theirs != o.data.end())
        return b.name + " (first at byte " +
               std::to_string(mine - b.data.begin()) + ")";
    }
  return "";
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
// Instruction classes
//===----------------------------------------------------------------------===//

/// The class an instruction is counted under.
static std::string classify(const Instruction &inst) {
  if (auto *call = dyn_cast<CallInst>(&inst))
    if (Function *f = call->getCalledFunction()) {
      switch (f->getIntrinsicID()) {
#define HK_SIM_MMA(ID) case Intrinsic::ID:
#include "SimIntrinsics.def"
        return "mma";
      case Intrinsic::amdgcn_s_barrier:
      case Intrinsic::amdgcn_s_barrier_signal:
      case Intrinsic::amdgcn_s_barrier_wait:
        return "barrier";
      case Intrinsic::amdgcn_raw_ptr_buffer_load:
        return "buffer_load";
      case Intrinsic::amdgcn_raw_ptr_buffer_store:
        return "buffer_store";
      case Intrinsic::amdgcn_raw_ptr_buffer_atomic_fadd:
        return "buffer_atomic";
      case Intrinsic::amdgcn_raw_ptr_buffer_load_lds:
      case Intrinsic::amdgcn_load_to_lds:
      case Intrinsic::amdgcn_global_load_lds:
        return "load_to_lds";
      case Intrinsic::amdgcn_ds_read_tr16_b64:
        return "lds_load_transposed";
      case Intrinsic::amdgcn_update_dpp:
      case Intrinsic::amdgcn_permlane32_swap:
      case Intrinsic::amdgcn_permlane16_swap:
      case Intrinsic::amdgcn_permlanex16:
        return "cross_lane";
      case Intrinsic::exp2:
      case Intrinsic::amdgcn_exp2:
        return "exp2";
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

//===----------------------------------------------------------------------===//
// Preparation, workgroups, waves and barriers
//===----------------------------------------------------------------------===//

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

/// Whether `kernel` uses `g` (directly or through constant expressions):
/// the backend gives a kernel only the LDS globals it uses.
static bool usedBy(const GlobalVariable &g, const Function &kernel) {
  SmallVector<const User *> work(g.users());
  while (!work.empty()) {
    const User *user = work.pop_back_val();
    if (const auto *inst = dyn_cast<Instruction>(user)) {
      if (inst->getFunction() == &kernel)
        return true;
    } else {
      work.append(user->user_begin(), user->user_end());
    }
  }
  return false;
}

Error Interpreter::prepare() {
  // LDS: every addrspace(3) global the kernel uses, laid out in order.
  for (GlobalVariable &g : kernel.getParent()->globals()) {
    if (g.getAddressSpace() != kLdsAddressSpace || !usedBy(g, kernel))
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

Error Interpreter::run(AsyncOrder asyncOrder) {
  order = asyncOrder;
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
  if (config.shuffleSeed) {
    Expected<std::vector<uint32_t>> order = shuffledWorkgroups();
    if (!order)
      return order.takeError();
    const std::array<int64_t, 3> &grid = config.grid;
    for (size_t i = 0; i < order->size() && !result; ++i) {
      int64_t id = (*order)[i];
      result = runWorkgroup(
          {id % grid[0], id / grid[0] % grid[1], id / (grid[0] * grid[1])});
    }
    counters.workgroupShuffle = config.shuffleSeed;
  } else {
    for (int64_t z = 0; z < config.grid[2] && !result; ++z)
      for (int64_t y = 0; y < config.grid[1] && !result; ++y)
        for (int64_t x = 0; x < config.grid[0] && !result; ++x)
          result = runWorkgroup({x, y, z});
  }
  for (auto [name, count] : llvm::zip(classNames, classCounts))
    if (count)
      counters.instructionClasses[name] += count;
  return result;
}

Expected<std::vector<uint32_t>> Interpreter::shuffledWorkgroups() const {
  const std::array<int64_t, 3> &grid = config.grid;
  // (Each dimension is at most 2^31: run checked it; the products fit.)
  int64_t count = grid[0] * grid[1];
  count = count > kMaxShuffledWorkgroups ? count : count * grid[2];
  if (count > kMaxShuffledWorkgroups)
    return createStringError(
        inconvertibleErrorCode(),
        formatv("a shuffled launch permutes at most 2^24 workgroups; grid "
                "{0}x{1}x{2} holds more",
                grid[0], grid[1], grid[2]));
  // Fisher-Yates with the generator's raw output (std::shuffle's and the
  // distributions' algorithms differ between standard libraries): a seed
  // gives the same order everywhere. The modulo's bias is below 2^-40.
  std::vector<uint32_t> order(count);
  for (int64_t i = 0; i < count; ++i)
    order[i] = i;
  std::mt19937_64 rng(config.shuffleSeed);
  for (int64_t i = count - 1; i > 0; --i)
    std::swap(order[i], order[rng() % uint64_t(i + 1)]);
  return order;
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
    wave.pendingFills.clear();
    wave.pendingReads.clear();
    wave.pendingValues.clear();
    wave.vmIssued = wave.lgkmIssued = 0;
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

char RaceError::ID = 0;

/// True if `kernel` issues loads that write LDS asynchronously.
static bool issuesLdsDma(const Function &kernel) {
  for (const BasicBlock &block : kernel)
    for (const Instruction &inst : block)
      if (auto *call = dyn_cast<CallInst>(&inst))
        if (Function *callee = call->getCalledFunction())
          switch (callee->getIntrinsicID()) {
          case Intrinsic::amdgcn_raw_ptr_buffer_load_lds:
          case Intrinsic::amdgcn_load_to_lds:
          case Intrinsic::amdgcn_global_load_lds:
            return true;
          default:
            break;
          }
  return false;
}

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
  if (!issuesLdsDma(*kernel))
    return interpreter.run(AsyncOrder::latestFill);
  // Fills landing as late as their waits allow, then reads finishing as late
  // as theirs allow: a correct kernel writes the same in both.
  GlobalMemory lateFills = memory;
  Counters ignored;
  Interpreter first(module, *kernel, chip, config, lateFills, ignored);
  if (Error e = first.prepare())
    return e;
  if (Error e = first.run(AsyncOrder::latestFill))
    return e;
  if (Error e = interpreter.run(AsyncOrder::latestRead))
    return e;
  std::string difference = memory.describeDifference(lateFills);
  counters.ranBothAsyncOrders = true;
  if (difference.empty())
    return Error::success();
  return make_error<RaceError>(
      "LDS race: the kernel's results depend on when its asynchronous LDS "
      "operations complete: " +
      difference +
      " differs between direct-to-LDS loads landing at the waits that cover "
      "them and LDS reads finishing at theirs (a wait or barrier is missing "
      "or a wait count is too high)");
}
