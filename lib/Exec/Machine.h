//===- Machine.h - the ISA executor's state and instruction table -*- C++
//-*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Internal to lib/Exec. A kernel's instructions are decoded once into `Op`s
// (operands resolved to register files and immediates, a handler per
// mnemonic); `Machine` runs one workgroup's waves over them. The handlers
// live in one file per family (ScalarOps, VectorOps, MemoryOps) and
// register themselves by mnemonic.
//
//===----------------------------------------------------------------------===//

#ifndef HK_LIB_EXEC_MACHINE_H
#define HK_LIB_EXEC_MACHINE_H

#include "HK/Exec/Exec.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace mlir::hk::exec::detail {

/// Indices of the scalar register file, the hardware's scalar operand
/// encoding (CDNA4 ISA and RDNA4 ISA, "Scalar ALU operands"): SGPRs 0-105,
/// VCC 106-107, trap temporaries 108-123, M0 124, NULL 125, EXEC 126-127.
constexpr unsigned kVcc = 106, kTtmp = 108, kM0 = 124, kNull = 125, kExec = 126,
                   kScalarFile = 128;

/// A register file: VGPRs, AGPRs (CDNA's accumulation registers) or the
/// scalar file above.
enum class File : uint8_t { vgpr, agpr, scalar };

/// A range of 32-bit registers of one file.
struct Span {
  File file = File::vgpr;
  uint16_t first = 0, count = 0;
};

/// One operand of a decoded instruction.
struct Operand {
  enum Kind : uint8_t { none, vgpr, agpr, sgpr, immediate };
  Kind kind = none;
  uint8_t count = 0;  // 32-bit registers
  uint16_t index = 0; // in its file (the scalar file for sgpr)
  /// Source modifiers (SISrcMods): bit 0 neg, bit 1 abs (VOP3) or neg of
  /// the high half (VOP3P), bit 2 op_sel, bit 3 op_sel_hi.
  uint8_t mods = 0;
  uint64_t imm = 0;
};

class Machine;
struct Wave;
struct Op;
/// Executes `op` for `wave`; false when the run stopped (Machine::fail).
using Handler = bool (*)(Machine &, Wave &, const Op &);

/// One instruction, decoded for execution.
struct Op {
  const isa::Instruction *instr = nullptr;
  Handler fn = nullptr;
  llvm::SmallVector<Operand, 2> dst;
  llvm::SmallVector<Operand, 4> src;
  /// Immediate operands that are not sources (offsets, cache policy,
  /// cbsz/abid/blgp, wait and nop counts), in order.
  llvm::SmallVector<int64_t, 4> imms;
  /// Registers read and written (implicit ones included), for poison.
  llvm::SmallVector<Span, 4> reads, writes;
  unsigned target = 0; // branch target (an index)
  /// Dual-issue (VOPD) instructions: the two halves as instructions of
  /// their own (RDNA4 ISA, section 7.6 "Dual Issue VALU").
  std::shared_ptr<const std::array<Op, 2>> halves;
  /// What a handler derives from the instruction once (a matrix
  /// instruction's form), made on its first execution.
  mutable std::shared_ptr<const void> derived;
};

/// A decoded kernel.
struct Program {
  isa::Arch arch = isa::Arch::gfx950;
  unsigned lanes = 64;
  std::vector<Op> ops;
  uint64_t start = 0; // section offset of the first instruction
};

/// Decodes `kernel`'s instructions; an error lists the mnemonics without
/// semantics.
llvm::Expected<Program> decodeProgram(const LoadedKernel &kernel);

/// A counted memory operation in flight.
struct Pending {
  unsigned wave = 0;
  unsigned index = 0; // the instruction that issued it
  isa::CounterSet counters;
  bool done = false;
  /// Poisoned until completion.
  llvm::SmallVector<Span, 2> regs;
  std::vector<std::pair<uint32_t, uint32_t>> ldsBytes; // [begin, end)
  /// Does what the operation does when it completes; false when that
  /// stopped the run.
  std::function<bool()> complete;
};

struct Wave {
  unsigned id = 0;
  unsigned pc = 0;            // index into Program::ops
  std::vector<uint32_t> v, a; // register-major: [reg * lanes + lane]
  /// The private segment, lane-major: [lane * scratchBytes + offset]. The
  /// hardware's per-lane swizzle is invisible to the program.
  std::vector<uint8_t> scratch;
  uint32_t scratchBytes = 0;
  uint32_t s[kScalarFile] = {};
  bool scc = false;
  unsigned priority = 0;
  bool ended = false;
  /// Barriers: the generation this wave signalled and is waiting on.
  bool signalled = false, waiting = false;
  uint64_t barrierGeneration = 0;
  uint64_t steps = 0;
  /// Pending operation ids (Machine::pending) per counter, oldest first.
  std::deque<uint32_t> queues[isa::kNumCounters];
  /// Registers poisoned by a pending operation: its id, or 0.
  std::vector<uint32_t> vPending, aPending;
  uint32_t sPending[kScalarFile] = {};
  unsigned poisonedRegs = 0;

  uint64_t exec() const { return s[kExec] | uint64_t(s[kExec + 1]) << 32; }
  uint64_t vcc() const { return s[kVcc] | uint64_t(s[kVcc + 1]) << 32; }
};

/// The waves of one workgroup and their LDS, run over one program.
class Machine {
public:
  Machine(const Program &program, const LoadedKernel &kernel,
          const ExecConfig &config, sim::GlobalMemory &memory, ExecStats &stats,
          std::mt19937_64 &random)
      : program(program), kernel(kernel), config(config), memory(memory),
        stats(stats), random(random), lanes(program.lanes) {}

  /// Runs workgroup `id` to its end; the kernarg segment is at `kernarg`.
  llvm::Error runWorkgroup(std::array<int64_t, 3> id, uint64_t kernarg);

  // For the handlers.
  const Program &program;
  const LoadedKernel &kernel;
  const ExecConfig &config;
  sim::GlobalMemory &memory;
  ExecStats &stats;
  std::mt19937_64 &random;
  const unsigned lanes;
  std::vector<uint8_t> lds;
  /// Per LDS byte: the pending operation that will write it, or 0.
  std::vector<uint32_t> ldsPending;

  /// The LDS race detector: records that `wave`'s instruction `index`
  /// reads or writes LDS bytes [begin, end) now. Two accesses of the same
  /// byte by different waves, at least one a write, with no barrier
  /// completed between them, stop the run naming both (false). Accesses
  /// count when they happen: a load when its data is read, a write or a
  /// direct-to-LDS load when it lands.
  bool recordLdsAccess(Wave &wave, unsigned index, uint32_t begin, uint32_t end,
                       bool write);

  /// Stops the run: a wrong kernel (`failed`) or what cannot be run.
  bool fail(ExecError::Kind kind, const Wave &wave, unsigned index,
            const llvm::Twine &message);
  /// "wave 3 of workgroup (0,1,0), pc +0x1a4 `text`".
  std::string where(const Wave &wave, unsigned index) const;

  /// Issues a counted operation of `wave` (its registers and LDS bytes in
  /// `op` are poisoned until it completes); with Completion::eager it
  /// completes at once.
  bool issue(Wave &wave, Pending op);
  /// Completes pending operation `id`.
  bool complete(uint32_t id);
  /// Completes `wave`'s oldest operations until at most `count` of
  /// `counter` are outstanding.
  bool waitFor(Wave &wave, isa::Counter counter, unsigned count);
  /// The LDS bytes [begin, begin + size) for `wave`: an error (run
  /// stopped, null) when out of range or, when `checked`, when a pending
  /// operation will still write one of them. Operations of the same wave in
  /// the same counters (`counters`) are exempt: they execute in order.
  uint8_t *ldsAt(Wave &wave, unsigned index, uint64_t begin, uint64_t size,
                 unsigned lane, bool checked, isa::CounterSet counters = {});
  /// Global memory [address, address + size) or a stopped run (null).
  uint8_t *globalAt(Wave &wave, unsigned index, uint64_t address, uint64_t size,
                    unsigned lane);

  // Barriers.
  void signalBarrier(Wave &wave);
  /// Whether `wave`'s signalled barrier has completed.
  bool barrierOpen(const Wave &wave) const {
    return !wave.signalled || wave.barrierGeneration < barrierGeneration;
  }

  std::vector<Pending> pending; // index = id - 1
  std::string failure;
  ExecError::Kind failureKind = ExecError::Kind::failed;

private:
  bool step(Wave &wave);
  bool checkPoison(Wave &wave, unsigned index, const Op &op);
  void endWave(Wave &wave);
  bool completeSomeRandomly(Wave &wave);

  /// Per LDS byte: its last write, and the reads since the last barrier
  /// (the first and the last, and which waves). Epochs are the number of
  /// completed barriers plus one; 0 means none.
  struct LdsAccess {
    uint32_t epoch = 0, index = 0;
    uint16_t wave = 0;
  };
  struct LdsShadow {
    LdsAccess write, firstRead, lastRead;
    uint32_t readers =
        0; // waves (bit per wave id) that read in lastRead's epoch
  };
  std::vector<LdsShadow> ldsShadow;
  bool reportRace(Wave &wave, unsigned index, uint32_t byte, bool write,
                  const LdsAccess &other, bool otherWrite);

  std::array<int64_t, 3> workgroup = {0, 0, 0};
  std::vector<Wave> waves;
  unsigned live = 0, arrived = 0;
  uint64_t barrierGeneration = 0;
};

/// The handler tables of the families, by semantics key.
using HandlerMap = llvm::StringMap<Handler>;
void registerScalarOps(HandlerMap &map);
void registerVectorOps(HandlerMap &map);
void registerMemoryOps(HandlerMap &map);
void registerMatrixOps(HandlerMap &map);
void registerFloatOps(HandlerMap &map);
void registerLaneOps(HandlerMap &map);
const HandlerMap &getHandlers();

//===----------------------------------------------------------------------===//
// Operand access shared by the families
//===----------------------------------------------------------------------===//

/// A 32-bit scalar operand (an SGPR, or an immediate truncated).
inline uint32_t readScalar(const Wave &w, const Operand &o) {
  return o.kind == Operand::sgpr ? w.s[o.index] : uint32_t(o.imm);
}
/// A 64-bit scalar operand: an SGPR pair, or an immediate (inline
/// constants arrive sign-extended, literals zero-extended).
inline uint64_t readScalar64(const Wave &w, const Operand &o) {
  if (o.kind == Operand::sgpr)
    return w.s[o.index] | uint64_t(w.s[o.index + 1]) << 32;
  return o.imm;
}
inline void writeScalar(Wave &w, const Operand &o, uint32_t value) {
  if (o.index != kNull)
    w.s[o.index] = value;
}
inline void writeScalar64(Wave &w, const Operand &o, uint64_t value) {
  if (o.index == kNull)
    return;
  w.s[o.index] = uint32_t(value);
  if (o.count > 1)
    w.s[o.index + 1] = uint32_t(value >> 32);
}

/// The EXEC bits of every lane of the wave (32 or 64).
inline uint64_t allLanes(const Machine &m) {
  return m.lanes == 64 ? ~uint64_t(0) : (uint64_t(1) << m.lanes) - 1;
}
/// Whether EXEC enables every lane (what matrix instructions, lane
/// permutations and transposed LDS reads need).
inline bool allLanesActive(const Machine &m, const Wave &w) {
  return (w.exec() & allLanes(m)) == allLanes(m);
}

/// A per-lane mask result: to `dst` (VOP3's sdst) when given, else to VCC
/// (VOP2/VOPC), whose high half only wave64 has.
inline void writeLaneMask(Wave &w, unsigned lanes, const Operand *dst,
                          uint64_t mask) {
  if (dst) {
    writeScalar64(w, *dst, mask);
    return;
  }
  w.s[kVcc] = uint32_t(mask);
  if (lanes == 64)
    w.s[kVcc + 1] = uint32_t(mask >> 32);
}

/// A vector operand, per lane: a VGPR/AGPR, or a scalar broadcast.
struct Lanes32 {
  const uint32_t *p = nullptr; // null: `k` for every lane
  uint32_t k = 0;
  uint32_t operator[](unsigned lane) const { return p ? p[lane] : k; }
};
inline Lanes32 vectorSource(const Machine &m, const Wave &w, const Operand &o,
                            unsigned part = 0) {
  Lanes32 r;
  switch (o.kind) {
  case Operand::vgpr:
    r.p = &w.v[(o.index + part) * m.lanes];
    break;
  case Operand::agpr:
    r.p = &w.a[(o.index + part) * m.lanes];
    break;
  case Operand::sgpr:
    r.k = w.s[o.index + part];
    break;
  default:
    r.k = part ? uint32_t(o.imm >> 32) : uint32_t(o.imm);
    break;
  }
  return r;
}
inline uint32_t *vectorDest(const Machine &m, Wave &w, const Operand &o,
                            unsigned part = 0) {
  return o.kind == Operand::agpr ? &w.a[(o.index + part) * m.lanes]
                                 : &w.v[(o.index + part) * m.lanes];
}

/// abs then neg on the sign bit of a 32-bit float operand (VOP3 input
/// modifiers: bit 0 neg, bit 1 abs).
inline uint32_t applyMods(uint32_t x, uint8_t mods) {
  if (mods & 2)
    x &= 0x7fffffffu;
  if (mods & 1)
    x ^= 0x80000000u;
  return x;
}

/// Source `i` of `op` per lane with its abs/neg modifiers applied
/// (`scratch` holds the modified values when there are any).
inline Lanes32 modSource(const Machine &m, const Wave &w, const Op &op,
                         unsigned i, uint32_t *scratch) {
  Lanes32 s = vectorSource(m, w, op.src[i]);
  uint8_t mods = op.src[i].mods & 3;
  if (!mods)
    return s;
  for (unsigned lane = 0; lane < m.lanes; ++lane)
    scratch[lane] = applyMods(s[lane], mods);
  return Lanes32{scratch, 0};
}

} // namespace mlir::hk::exec::detail

#endif // HK_LIB_EXEC_MACHINE_H
