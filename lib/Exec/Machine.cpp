//===- Machine.cpp - waves, memory that completes late, barriers ----------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements exec::run and the Machine: the initial state of each
// wave from the kernel descriptor, the interleaving of a workgroup's waves,
// counted operations that complete late (poisoning what they will write
// until then), waits and barriers.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace llvm;

namespace mlir::hk::exec {
namespace detail {

std::string Machine::where(const Wave &wave, unsigned index) const {
  const isa::Instruction &instr = *program.ops[index].instr;
  return formatv("wave {0} of workgroup ({1},{2},{3}), pc +{4:x} `{5}`",
                 wave.id, workgroup[0], workgroup[1], workgroup[2],
                 instr.address - program.start, instr.text)
      .str();
}

bool Machine::fail(ExecError::Kind kind, const Wave &wave, unsigned index,
                   const Twine &message) {
  if (failure.empty()) {
    failure = where(wave, index) + ": " + message.str();
    failureKind = kind;
  }
  return false;
}

/// Names pending operation `id` for a message.
static std::string describePending(const Machine &m, uint32_t id) {
  const Pending &p = m.pending[id - 1];
  const isa::Instruction &instr = *m.program.ops[p.index].instr;
  return formatv("`{0}` (wave {1}, pc +{2:x})", instr.text, p.wave,
                 instr.address - m.program.start)
      .str();
}

bool Machine::issue(Wave &wave, Pending op) {
  // A counter at its limit stalls issue until its oldest operation
  // completes (isa::getCounterLimit).
  for (unsigned c = 0; c < isa::kNumCounters; ++c)
    if (op.counters.contains(isa::Counter(c)) &&
        !waitFor(wave, isa::Counter(c),
                 isa::getCounterLimit(program.arch, isa::Counter(c)) - 1))
      return false;
  op.wave = wave.id;
  pending.push_back(std::move(op));
  uint32_t id = pending.size();
  Pending &p = pending.back();
  for (const Span &s : p.regs) {
    std::vector<uint32_t> *marks = s.file == File::vgpr   ? &wave.vPending
                                   : s.file == File::agpr ? &wave.aPending
                                                          : nullptr;
    for (unsigned r = s.first; r < unsigned(s.first + s.count); ++r) {
      uint32_t &mark = marks ? (*marks)[r] : wave.sPending[r];
      if (!mark)
        ++wave.poisonedRegs;
      mark = id;
    }
  }
  for (auto [begin, end] : p.ldsBytes)
    for (uint32_t b = begin; b < end; ++b)
      ldsPending[b] = id;
  for (unsigned c = 0; c < isa::kNumCounters; ++c)
    if (p.counters.contains(isa::Counter(c)))
      wave.queues[c].push_back(id);
  if (config.completion == Completion::eager)
    return complete(id);
  return true;
}

bool Machine::complete(uint32_t id) {
  Pending &p = pending[id - 1];
  if (p.done)
    return true;
  p.done = true;
  Wave &wave = waves[p.wave];
  for (const Span &s : p.regs) {
    std::vector<uint32_t> *marks = s.file == File::vgpr   ? &wave.vPending
                                   : s.file == File::agpr ? &wave.aPending
                                                          : nullptr;
    for (unsigned r = s.first; r < unsigned(s.first + s.count); ++r) {
      uint32_t &mark = marks ? (*marks)[r] : wave.sPending[r];
      if (mark == id) {
        mark = 0;
        --wave.poisonedRegs;
      }
    }
  }
  for (auto [begin, end] : p.ldsBytes)
    for (uint32_t b = begin; b < end; ++b)
      if (ldsPending[b] == id)
        ldsPending[b] = 0;
  for (std::deque<uint32_t> &queue : wave.queues)
    for (auto it = queue.begin(); it != queue.end(); ++it)
      if (*it == id) {
        queue.erase(it);
        break;
      }
  bool ok = p.complete ? p.complete() : true;
  p.complete = nullptr; // release what it captured
  return ok;
}

bool Machine::waitFor(Wave &wave, isa::Counter counter, unsigned count) {
  std::deque<uint32_t> &queue = wave.queues[unsigned(counter)];
  while (queue.size() > count)
    if (!complete(queue.front()))
      return false;
  return true;
}

uint8_t *Machine::ldsAt(Wave &wave, unsigned index, uint64_t begin,
                        uint64_t size, unsigned lane, bool checked,
                        isa::CounterSet counters) {
  if (begin + size > lds.size()) {
    fail(ExecError::Kind::badInput, wave, index,
         formatv("lane {0}: LDS bytes {1:x}..{2:x} are outside the "
                 "workgroup's {3} bytes",
                 lane, begin, begin + size - 1, lds.size()));
    return nullptr;
  }
  if (checked)
    for (uint64_t b = begin; b < begin + size; ++b)
      if (uint32_t id = ldsPending[b]) {
        const Pending &p = pending[id - 1];
        if (p.wave == wave.id && p.counters.bits == counters.bits)
          continue;
        fail(ExecError::Kind::failed, wave, index,
             formatv("lane {0} accesses LDS byte {1:x}, which {2} has not "
                     "written yet: no wait covers it",
                     lane, b, describePending(*this, id)));
        return nullptr;
      }
  return lds.data() + begin;
}

bool Machine::recordLdsAccess(Wave &wave, unsigned index, uint32_t begin,
                              uint32_t end, bool write) {
  uint32_t epoch = uint32_t(barrierGeneration) + 1;
  uint16_t self = uint16_t(wave.id);
  uint32_t selfBit = uint32_t(1) << (wave.id % 32);
  for (uint32_t b = begin; b < end; ++b) {
    LdsShadow &s = ldsShadow[b];
    if (s.write.epoch == epoch && s.write.wave != self)
      return reportRace(wave, index, b, write, s.write, /*otherWrite=*/true);
    if (write && s.lastRead.epoch == epoch && (s.readers & ~selfBit)) {
      LdsAccess reader = s.lastRead.wave != self ? s.lastRead : s.firstRead;
      if (reader.wave == self) // a third reader: its wave, not its instruction
        reader = {epoch, UINT32_MAX,
                  uint16_t(llvm::countr_zero(s.readers & ~selfBit))};
      return reportRace(wave, index, b, write, reader, /*otherWrite=*/false);
    }
    LdsAccess access{epoch, index, self};
    if (write) {
      s.write = access;
      continue;
    }
    if (s.lastRead.epoch != epoch) {
      s.firstRead = access;
      s.readers = 0;
    }
    s.lastRead = access;
    s.readers |= selfBit;
  }
  return true;
}

bool Machine::reportRace(Wave &wave, unsigned index, uint32_t byte, bool write,
                         const LdsAccess &other, bool otherWrite) {
  std::string what = "wave " + std::to_string(other.wave);
  if (other.index != UINT32_MAX) {
    const isa::Instruction &instr = *program.ops[other.index].instr;
    what += formatv(" with `{0}` (pc +{1:x})", instr.text,
                    instr.address - program.start)
                .str();
  }
  return fail(ExecError::Kind::failed, wave, index,
              formatv("LDS race: this {0} of byte {1:x} and the {2} of it by "
                      "{3} are not ordered: no barrier completes between "
                      "them",
                      write ? "write" : "read", byte,
                      otherWrite ? "write" : "read", what));
}

uint8_t *Machine::globalAt(Wave &wave, unsigned index, uint64_t address,
                           uint64_t size, unsigned lane) {
  if (uint8_t *p = memory.translate(address, size))
    return p;
  fail(ExecError::Kind::badInput, wave, index,
       formatv("lane {0}: a {1}-byte access at {2:x} is outside every buffer "
               "(nearest: {3})",
               lane, size, address, memory.describe(address)));
  return nullptr;
}

bool Machine::checkPoison(Wave &wave, unsigned index, const Op &op) {
  auto markOf = [&](const Span &s, unsigned r) {
    return s.file == File::vgpr   ? wave.vPending[r]
           : s.file == File::agpr ? wave.aPending[r]
                                  : wave.sPending[r];
  };
  for (const Span &s : op.reads)
    for (unsigned r = s.first; r < unsigned(s.first + s.count); ++r)
      if (uint32_t id = markOf(s, r)) {
        unsigned lane = 0;
        uint64_t exec = wave.exec();
        while (lane < lanes && !(exec >> lane & 1))
          ++lane;
        const char *file = s.file == File::vgpr   ? "v"
                           : s.file == File::agpr ? "a"
                                                  : "s";
        return fail(ExecError::Kind::failed, wave, index,
                    formatv("lane {0} reads {1}{2}, which {3} has not "
                            "written yet: no wait covers it",
                            lane, file, r, describePending(*this, id)));
      }
  // A register a load will still write must not be written by anything
  // else first: the load would overwrite it later. A memory operation
  // counted in order with the pending one may (its own write lands after).
  if (op.instr->counters.empty())
    for (const Span &s : op.writes)
      for (unsigned r = s.first; r < unsigned(s.first + s.count); ++r)
        if (uint32_t id = markOf(s, r))
          return fail(ExecError::Kind::failed, wave, index,
                      formatv("writes a register that {0} will still write: "
                              "no wait covers it",
                              describePending(*this, id)));
  return true;
}

bool Machine::completeSomeRandomly(Wave &wave) {
  // Any moment between issue and the covering wait is legal; completions
  // stay in issue order per counter.
  if (random() % 4)
    return true;
  unsigned start = random() % isa::kNumCounters;
  for (unsigned i = 0; i < isa::kNumCounters; ++i) {
    std::deque<uint32_t> &queue = wave.queues[(start + i) % isa::kNumCounters];
    if (!queue.empty())
      return complete(queue.front());
  }
  return true;
}

bool Machine::step(Wave &wave) {
  unsigned index = wave.pc;
  if (index >= program.ops.size())
    return fail(ExecError::Kind::badInput, wave,
                unsigned(program.ops.size() - 1), "ran past the kernel's end");
  const Op &op = program.ops[index];
  if (++wave.steps > config.stepLimit)
    return fail(ExecError::Kind::badInput, wave, index,
                formatv("ran past the step limit ({0} instructions)",
                        config.stepLimit));
  if (wave.poisonedRegs && !checkPoison(wave, index, op))
    return false;
  wave.pc = index + 1;
  ++stats.waveInstructions;
  stats.laneInstructions += llvm::popcount(wave.exec());
  if (!op.fn(*this, wave, op))
    return false;
  if (config.completion == Completion::random)
    return completeSomeRandomly(wave);
  return true;
}

void Machine::signalBarrier(Wave &wave) {
  ++stats.barriers;
  wave.signalled = true;
  wave.barrierGeneration = barrierGeneration;
  if (++arrived == live) {
    arrived = 0;
    ++barrierGeneration;
  }
}

void Machine::endWave(Wave &wave) {
  wave.ended = true;
  --live;
  // A barrier no longer waits for a wave that ended.
  if (arrived && arrived == live) {
    arrived = 0;
    ++barrierGeneration;
  }
}

/// The initial state of one wave (AMDGPUUsage, "Initial Kernel Execution
/// State"): the enabled user SGPRs from s0 in their fixed order (only the
/// kernarg segment pointer is modelled), then the workgroup ids as system
/// SGPRs; on gfx12 the ids are architected in ttmp9 (x) and ttmp7 (y in
/// bits 15:0, z in 31:16) instead. VGPR0 holds the work-item ids packed
/// (x in bits 9:0, y 19:10, z 29:20), as on gfx90a and later and gfx11+.
static Error initWave(Wave &w, const Program &program,
                      const KernelDescriptor &d, std::array<int64_t, 3> group,
                      std::array<int64_t, 3> block, uint64_t kernarg) {
  unsigned sgpr = 0;
  for (unsigned bit = 0; bit < 7; ++bit) {
    if (!d.userSgprEnabled(bit))
      continue;
    if (bit != 3)
      return make_error<ExecError>(
          ExecError::Kind::badInput,
          formatv("the kernel descriptor enables user SGPR {0} (kernel code "
                  "property bit {0}), which the isa backend does not model",
                  bit)
              .str());
    w.s[sgpr] = uint32_t(kernarg);
    w.s[sgpr + 1] = uint32_t(kernarg >> 32);
    sgpr += 2;
  }
  sgpr = d.userSgprCount();
  bool architected = program.arch == isa::Arch::gfx1201;
  for (unsigned dim = 0; dim < 3; ++dim)
    if (d.workgroupIdEnabled(dim) && !architected)
      w.s[sgpr++] = uint32_t(group[dim]);
  if (architected) {
    w.s[kTtmp + 9] = uint32_t(group[0]);
    w.s[kTtmp + 7] = uint32_t(group[1]) | uint32_t(group[2]) << 16;
  }
  // Scratch: flat scratch is architected on both chips (the hardware sets
  // it up, no user SGPR), and hk's kernels address it with scratch_*
  // offsets, so each lane gets its fixed size of private bytes.
  w.scratchBytes = d.privateSegmentFixedSize;
  w.scratch.assign(size_t(program.lanes) * w.scratchBytes, 0);
  // COMPUTE_PGM_RSRC1: FLOAT_ROUND_MODE_32 (bits 13:12) round to nearest
  // even, FLOAT_DENORM_MODE_32 (bits 17:16) 3, denormals kept: the mode
  // FloatOps.cpp computes in.
  if ((d.computePgmRsrc1 >> 12 & 3) != 0 || (d.computePgmRsrc1 >> 16 & 3) != 3)
    return make_error<ExecError>(
        ExecError::Kind::badInput,
        "the kernel's f32 float mode (COMPUTE_PGM_RSRC1 round or denormal "
        "mode) is not round-to-nearest with denormals, the one the isa "
        "backend models");
  unsigned lanes = program.lanes;
  int64_t threads = block[0] * block[1] * block[2];
  uint64_t exec = 0;
  for (unsigned lane = 0; lane < lanes; ++lane) {
    int64_t t = int64_t(w.id) * lanes + lane;
    if (t >= threads)
      continue;
    exec |= uint64_t(1) << lane;
    uint32_t x = t % block[0], y = t / block[0] % block[1],
             z = t / (block[0] * block[1]);
    unsigned dims = d.workitemIdDims();
    w.v[lane] = x | (dims > 1 ? y << 10 : 0) | (dims > 2 ? z << 20 : 0);
  }
  w.s[kExec] = uint32_t(exec);
  w.s[kExec + 1] = uint32_t(exec >> 32);
  return Error::success();
}

Error Machine::runWorkgroup(std::array<int64_t, 3> id, uint64_t kernarg) {
  workgroup = id;
  const KernelDescriptor &d = kernel.descriptor;
  lds.assign(d.groupSegmentFixedSize, 0xff);
  ldsPending.assign(d.groupSegmentFixedSize, 0);
  ldsShadow.assign(d.groupSegmentFixedSize, LdsShadow());
  pending.clear();
  int64_t threads = config.block[0] * config.block[1] * config.block[2];
  unsigned count = unsigned((threads + lanes - 1) / lanes);
  waves.assign(count, Wave());
  live = count, arrived = 0, barrierGeneration = 0;
  for (unsigned i = 0; i < count; ++i) {
    Wave &w = waves[i];
    w.id = i;
    w.v.assign(size_t(512) * lanes, 0);
    w.vPending.assign(512, 0);
    if (program.arch == isa::Arch::gfx950) {
      w.a.assign(size_t(256) * lanes, 0);
      w.aPending.assign(256, 0);
    }
    if (Error e = initWave(w, program, d, id, config.block, kernarg))
      return e;
  }
  auto stopped = [&] { return make_error<ExecError>(failureKind, failure); };
  // Round-robin one instruction per wave per turn; with random completion
  // the next wave is drawn from the seed instead.
  std::vector<unsigned> runnable;
  while (live) {
    runnable.clear();
    for (Wave &w : waves)
      if (!w.ended && !(w.waiting && !barrierOpen(w)))
        runnable.push_back(w.id);
    if (runnable.empty())
      return make_error<ExecError>(
          ExecError::Kind::failed,
          formatv("workgroup ({0},{1},{2}): every live wave waits at a "
                  "barrier another wave never reaches",
                  id[0], id[1], id[2])
              .str());
    if (config.completion == Completion::random)
      std::shuffle(runnable.begin(), runnable.end(), random);
    for (unsigned w : runnable) {
      Wave &wave = waves[w];
      if (wave.ended || (wave.waiting && !barrierOpen(wave)))
        continue;
      if (wave.waiting) {
        wave.waiting = wave.signalled = false;
      }
      if (!step(wave))
        return stopped();
      if (wave.pc == ~0u) { // s_endpgm
        for (std::deque<uint32_t> &queue : wave.queues)
          while (!queue.empty())
            if (!complete(queue.front()))
              return stopped();
        endWave(wave);
      }
    }
  }
  return Error::success();
}

} // namespace detail

Expected<ExecStats> run(const LoadedKernel &kernel, const ExecConfig &config,
                        sim::GlobalMemory &memory,
                        ArrayRef<uint64_t> argumentBits) {
  Expected<detail::Program> program = detail::decodeProgram(kernel);
  if (!program)
    return program.takeError();
  // The kernarg segment: each argument at its metadata offset, the segment
  // padded to the 16-byte alignment the HSA ABI gives it (AMDGPUUsage,
  // "Kernarg segment alignment"), which the backend's widened scalar loads
  // of the last arguments rely on.
  const KernelDescriptor &d = kernel.descriptor;
  if (argumentBits.size() != kernel.arguments.size())
    return make_error<ExecError>(
        ExecError::Kind::badInput,
        formatv("kernel '{0}' takes {1} arguments, the launch gives {2}",
                kernel.name, kernel.arguments.size(), argumentBits.size())
            .str());
  uint64_t kernarg = memory.allocate(
      "kernarg segment", alignTo(std::max<uint64_t>(d.kernargSize, 8), 16));
  std::vector<uint8_t> &segment = memory.bytes(kernarg);
  for (auto [arg, bits] : llvm::zip(kernel.arguments, argumentBits)) {
    if (arg.offset + arg.size > segment.size() || arg.size > 8)
      return make_error<ExecError>(ExecError::Kind::badInput,
                                   "an argument lies outside the kernarg "
                                   "segment");
    std::memcpy(segment.data() + arg.offset, &bits, arg.size);
  }
  ExecStats stats;
  std::mt19937_64 random(config.seed);
  detail::Machine machine(*program, kernel, config, memory, stats, random);
  for (int64_t z = 0; z < config.grid[2]; ++z)
    for (int64_t y = 0; y < config.grid[1]; ++y)
      for (int64_t x = 0; x < config.grid[0]; ++x)
        if (Error e = machine.runWorkgroup({x, y, z}, kernarg))
          return std::move(e);
  return stats;
}

} // namespace mlir::hk::exec
