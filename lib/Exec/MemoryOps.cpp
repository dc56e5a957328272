//===- MemoryOps.cpp - scalar memory, buffer and LDS instructions ---------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The counted memory operations of hk's kernels. Each reads its sources at
// issue and does the rest when it completes (Machine::issue): a load writes
// its registers then (they are poisoned until), a store or an LDS write its
// memory, a direct-to-LDS load its LDS bytes (poisoned until). An LDS read
// checks its bytes at issue and reads them at completion, so that a write
// still in flight at either moment is caught.
//
// Buffer accesses follow docs/hardware/SchedulesTailsLayouts.md#range-check,
// as the simulator does (lib/Runtime/SimMemory.cpp): raw resources only
// (stride 0, offen or no vaddr), per-word range checks on gfx950 and whole
// access ones on gfx1201, a word whose verdict depends on soffset an error,
// out-of-range words reading 0 (0xff bytes for a load to LDS) and not
// written.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace llvm;

namespace mlir::hk::exec::detail {
namespace {

/// Bytes and sign of an access from the mnemonic's last part
/// ("buffer_load_dwordx4", "ds_read_b128", "buffer_load_u16").
struct AccessSize {
  unsigned bytes = 0;
  bool signExtend = false;
};
AccessSize accessSize(StringRef mnemonic) {
  StringRef last = mnemonic.rsplit('_').second;
  return StringSwitch<AccessSize>(last)
      .Cases({"dword", "b32", "f32"}, AccessSize{4})
      .Cases({"dwordx2", "b64"}, AccessSize{8})
      .Cases({"dwordx3", "b96"}, AccessSize{12})
      .Cases({"dwordx4", "b128"}, AccessSize{16})
      .Cases({"dwordx8", "b256"}, AccessSize{32})
      .Cases({"dwordx16", "b512"}, AccessSize{64})
      .Cases({"ushort", "short", "u16", "b16"}, AccessSize{2})
      .Cases({"sshort", "i16"}, AccessSize{2, true})
      .Cases({"ubyte", "byte", "u8", "b8"}, AccessSize{1})
      .Cases({"sbyte", "i8"}, AccessSize{1, true})
      .Default({0});
}

/// Register-sized words of `bytes` loaded into a register (sub-dword loads
/// extend to 32 bits).
uint32_t extendWord(const uint8_t *p, AccessSize size) {
  uint32_t v = 0;
  std::memcpy(&v, p, std::min(size.bytes, 4u));
  if (size.bytes == 2 && size.signExtend)
    v = uint32_t(int32_t(int16_t(v)));
  if (size.bytes == 1 && size.signExtend)
    v = uint32_t(int32_t(int8_t(v)));
  return v;
}

Span spanOf(const Operand &o) {
  return Span{o.kind == Operand::agpr   ? File::agpr
              : o.kind == Operand::vgpr ? File::vgpr
                                        : File::scalar,
              o.index, o.count};
}

/// s_load_* sdst, sbase, offset: bytes at sbase + offset into SGPRs.
bool smemLoad(Machine &m, Wave &w, const Op &op) {
  unsigned index = w.pc - 1;
  unsigned bytes = op.dst[0].count * 4;
  uint64_t address = (readScalar64(w, op.src[0]) + op.imms[0]) & ~uint64_t(3);
  uint8_t *p = m.globalAt(w, index, address, bytes, 0);
  if (!p)
    return false;
  std::vector<uint32_t> data(op.dst[0].count);
  std::memcpy(data.data(), p, bytes);
  Pending pending;
  pending.index = index;
  pending.counters = op.instr->counters;
  pending.regs.push_back(spanOf(op.dst[0]));
  unsigned first = op.dst[0].index;
  pending.complete = [&w, data = std::move(data), first] {
    for (unsigned i = 0; i < data.size(); ++i)
      w.s[first + i] = data[i];
    return true;
  };
  return m.issue(w, std::move(pending));
}

/// The operands of a buffer access, from the opcode's form.
struct BufferAccess {
  const Operand *data = nullptr, *vaddr = nullptr, *rsrc = nullptr,
                *soffset = nullptr;
  bool toLds = false, isStore = false;
  /// buffer_atomic_add_f32 without return: a store that adds.
  bool addF32 = false;
  AccessSize size;
};

bool bufferAccess(Machine &m, Wave &w, const Op &op) {
  unsigned index = w.pc - 1;
  StringRef opcode = op.instr->opcodeName;
  BufferAccess a;
  a.size = accessSize(op.instr->mnemonic);
  a.addF32 = StringRef(op.instr->mnemonic) == "buffer_atomic_add_f32";
  if (a.addF32 && !op.dst.empty())
    return m.fail(ExecError::Kind::badInput, w, index,
                  "a buffer atomic that returns the old value is not "
                  "modelled");
  a.isStore =
      StringRef(op.instr->mnemonic).starts_with("buffer_store") || a.addF32;
  a.toLds = opcode.contains("_LDS_");
  bool offen = opcode.contains("_OFFEN");
  if (!offen && !opcode.contains("_OFFSET"))
    return m.fail(ExecError::Kind::badInput, w, index,
                  "only offen and offset buffer addressing is modelled");
  unsigned s = 0;
  if (a.isStore)
    a.data = &op.src[s++];
  if (offen)
    a.vaddr = &op.src[s++];
  a.rsrc = &op.src[s++];
  a.soffset = &op.src[s++];
  uint64_t imm = op.imms.empty() ? 0 : uint64_t(op.imms[0]);

  uint32_t w0 = w.s[a.rsrc->index], w1 = w.s[a.rsrc->index + 1];
  uint64_t base = w0 | uint64_t(w1 & 0xffff) << 32;
  uint64_t records = w.s[a.rsrc->index + 2];
  if ((w1 >> 16) & 0x3fff)
    return m.fail(ExecError::Kind::badInput, w, index,
                  "strided buffer resources are not modelled");
  uint64_t scalar = readScalar(w, *a.soffset);
  unsigned size = a.size.bytes, words = (size + 3) / 4;
  uint64_t exec = w.exec();
  Lanes32 voffset = a.vaddr ? vectorSource(m, w, *a.vaddr) : Lanes32();
  // Per lane: the bytes read (loads) or to write (stores), and where.
  std::vector<uint8_t> bytes(size_t(m.lanes) * size, 0);
  std::vector<uint8_t *> targets(a.isStore ? size_t(m.lanes) * words : 0);
  for (unsigned lane = 0; lane < m.lanes; ++lane) {
    if (!(exec >> lane & 1))
      continue;
    uint8_t *laneBytes = bytes.data() + size_t(lane) * size;
    if (a.isStore)
      for (unsigned i = 0; i < words; ++i) {
        uint32_t v = vectorSource(m, w, *a.data, i)[lane];
        std::memcpy(laneBytes + 4 * i, &v, std::min(4u, size - 4 * i));
      }
    uint64_t checked = uint32_t(voffset[lane] + imm);
    uint64_t address = base + checked + scalar;
    if (address % std::min(size, 4u))
      return m.fail(ExecError::Kind::badInput, w, index,
                    formatv("lane {0}: a {1}-byte buffer access at byte offset "
                            "{2} is not {3}-byte aligned",
                            lane, size, checked + scalar, std::min(size, 4u)));
    if (!m.config.perWordRangeCheck && size > 4 &&
        (checked + 4 <= records) != (checked + size <= records))
      return m.fail(
          ExecError::Kind::badInput, w, index,
          formatv("lane {0}: a {1}-byte buffer access at byte offset {2} is "
                  "partly past the buffer's range ({3} bytes): this chip "
                  "checks the whole access "
                  "(docs/hardware/SchedulesTailsLayouts.md#range-check)",
                  lane, size, checked, records));
    for (unsigned word = 0; word < size; word += 4) {
      unsigned n = std::min(4u, size - word);
      bool inRange = checked + word + n <= records;
      if (inRange != (checked + scalar + word + n <= records))
        return m.fail(
            ExecError::Kind::badInput, w, index,
            formatv("lane {0}: whether bytes {1}..{2} are in the buffer's "
                    "range ({3} bytes) depends on whether the hardware adds "
                    "soffset {4} to the checked offset {5}",
                    lane, checked + word, checked + word + n - 1, records,
                    scalar, checked));
      if (!inRange) {
        if (a.toLds)
          std::memset(laneBytes + word, 0xff, n);
        continue;
      }
      uint8_t *p = m.globalAt(w, index, address + word, n, lane);
      if (!p)
        return false;
      if (a.isStore)
        targets[size_t(lane) * words + word / 4] = p;
      else
        std::memcpy(laneBytes + word, p, n);
    }
  }
  Pending pending;
  pending.index = index;
  pending.counters = op.instr->counters;
  if (a.isStore) {
    // An atomic add adds each lane's f32 in lane order (CDNA4 ISA,
    // BUFFER_ATOMIC_ADD_F32: MEM = MEM + DATA, round to nearest even).
    pending.complete = [bytes = std::move(bytes), targets = std::move(targets),
                        size, words, lanes = m.lanes, add = a.addF32] {
      for (unsigned lane = 0; lane < lanes; ++lane)
        for (unsigned i = 0; i < words; ++i)
          if (uint8_t *p = targets[size_t(lane) * words + i]) {
            const uint8_t *from = bytes.data() + size_t(lane) * size + 4 * i;
            if (add) {
              float old, value;
              std::memcpy(&old, p, 4);
              std::memcpy(&value, from, 4);
              float sum = old + value;
              std::memcpy(p, &sum, 4);
              continue;
            }
            std::memcpy(p, from, std::min(4u, size - 4 * i));
          }
      return true;
    };
    return m.issue(w, std::move(pending));
  }
  if (a.toLds) {
    // Lane l's bytes go to M0 + the immediate offset + l * size, as the
    // simulator has it (docs/Simulator.md, "Buffers and loads to LDS").
    uint64_t first = uint64_t(w.s[kM0]) + imm;
    for (unsigned lane = 0; lane < m.lanes; ++lane)
      if (exec >> lane & 1) {
        uint64_t at = first + uint64_t(lane) * size;
        if (!m.ldsAt(w, index, at, size, lane, /*checked=*/false))
          return false;
        pending.ldsBytes.push_back({uint32_t(at), uint32_t(at + size)});
      }
    Machine *machine = &m;
    pending.complete = [machine, &w, index, bytes = std::move(bytes), first,
                        exec, size] {
      for (unsigned lane = 0; lane < machine->lanes; ++lane) {
        if (!(exec >> lane & 1))
          continue;
        uint32_t at = uint32_t(first + uint64_t(lane) * size);
        if (!machine->recordLdsAccess(w, index, at, at + size,
                                      /*write=*/true))
          return false;
        std::memcpy(machine->lds.data() + at,
                    bytes.data() + size_t(lane) * size, size);
      }
      return true;
    };
    return m.issue(w, std::move(pending));
  }
  pending.regs.push_back(spanOf(op.dst[0]));
  Machine *machine = &m;
  Operand dst = op.dst[0];
  AccessSize access = a.size;
  pending.complete = [machine, &w, bytes = std::move(bytes), dst, exec,
                      access] {
    unsigned lanes = machine->lanes, size = access.bytes;
    for (unsigned i = 0; i < dst.count; ++i) {
      uint32_t *d = vectorDest(*machine, w, dst, i);
      for (unsigned lane = 0; lane < lanes; ++lane)
        if (exec >> lane & 1)
          d[lane] =
              extendWord(bytes.data() + size_t(lane) * size + 4 * i, access);
    }
    return true;
  };
  return m.issue(w, std::move(pending));
}

/// The shape of an LDS instruction, from its mnemonic.
struct DsForm {
  bool isWrite = false;
  /// Two accesses (read2/write2, *_2addr_*) at offset0 and offset1 in
  /// units of the element size, times 64 for the stride64 forms.
  bool pair = false, stride64 = false;
  /// gfx950's ds_read_b64_tr_b16.
  bool transposed = false;
  /// ds_write_b16_d16_hi and the like: the data register's high half.
  bool highHalf = false;
  AccessSize element;
};
DsForm dsForm(StringRef mnemonic) {
  DsForm f;
  f.isWrite =
      mnemonic.starts_with("ds_write") || mnemonic.starts_with("ds_store");
  f.pair = mnemonic.contains("2addr") || mnemonic.starts_with("ds_read2") ||
           mnemonic.starts_with("ds_write2");
  f.stride64 = mnemonic.contains("stride64") || mnemonic.contains("2st64");
  f.transposed = mnemonic.ends_with("_tr_b16");
  StringRef sized = mnemonic;
  f.highHalf = f.isWrite && sized.consume_back("_d16_hi");
  f.element = accessSize(f.transposed ? StringRef("ds_read_b64") : sized);
  return f;
}

/// One lane's piece of an LDS access: `bytes` at LDS `address`, bytes
/// [regByte, regByte + bytes) of the lane's data registers.
struct LdsPiece {
  uint32_t address;
  uint16_t bytes, regByte;
  uint8_t lane;
};

/// The pieces of `op` per active lane (CDNA4 ISA section 11 and RDNA4 ISA
/// section 11, "Local Data Share"): vaddr + offset, or the two addresses
/// of a pair. ds_read_b64_tr_b16 (docs/hardware/SchedulesTailsLayouts.md
/// #ds-read-tr, as the simulator has it): in each group of 16 lanes, lane j
/// receives element e from lane 4e + j / 4's 8 bytes, at its element j % 4.
std::vector<LdsPiece> ldsPieces(const Machine &m, const Wave &w, const Op &op,
                                const DsForm &form) {
  Lanes32 vaddr = vectorSource(m, w, op.src[0]);
  uint64_t exec = w.exec();
  uint16_t size = uint16_t(form.element.bytes);
  std::vector<LdsPiece> pieces;
  for (unsigned lane = 0; lane < m.lanes; ++lane) {
    if (!(exec >> lane & 1))
      continue;
    if (form.transposed) {
      unsigned group = lane - lane % 16, j = lane % 16;
      for (unsigned e = 0; e < 4; ++e) {
        uint64_t at =
            uint64_t(vaddr[group + 4 * e + j / 4]) + op.imms[0] + 2 * (j % 4);
        pieces.push_back({uint32_t(at), 2, uint16_t(2 * e), uint8_t(lane)});
      }
    } else if (form.pair) {
      uint64_t unit = uint64_t(size) * (form.stride64 ? 64 : 1);
      for (unsigned k = 0; k < 2; ++k)
        pieces.push_back({uint32_t(vaddr[lane] + op.imms[k] * unit), size,
                          uint16_t(k * size), uint8_t(lane)});
    } else {
      pieces.push_back(
          {uint32_t(uint64_t(vaddr[lane]) + (op.imms.empty() ? 0 : op.imms[0])),
           size, 0, uint8_t(lane)});
    }
  }
  return pieces;
}

/// ds_read*/ds_load* vdst, vaddr and ds_write*/ds_store* vaddr, vdata (two
/// data operands for a pair): each piece read into, or written from, its
/// lane's registers.
bool dsAccess(Machine &m, Wave &w, const Op &op) {
  unsigned index = w.pc - 1;
  DsForm form = dsForm(op.instr->mnemonic);
  if (form.transposed && !allLanesActive(m, w))
    return m.fail(ExecError::Kind::badInput, w, index,
                  "ds_read_b64_tr_b16 with inactive lanes: the ISA requires "
                  "every lane");
  isa::CounterSet counters = op.instr->counters;
  std::vector<LdsPiece> pieces = ldsPieces(m, w, op, form);
  Pending pending;
  pending.index = index;
  pending.counters = counters;
  // A write must not land before an LDS write still in flight from
  // another wave or counter; a read must not see one.
  for (const LdsPiece &p : pieces)
    if (!m.ldsAt(w, index, p.address, p.bytes, p.lane, /*checked=*/true,
                 counters))
      return false;
  Machine *machine = &m;
  if (form.isWrite) {
    // The data operands' bytes per piece, taken now.
    std::vector<uint8_t> bytes;
    for (const LdsPiece &p : pieces) {
      const Operand &data = op.src[form.pair && p.regByte ? 2 : 1];
      unsigned first = form.pair ? 0 : p.regByte;
      for (unsigned i = 0; i < p.bytes; i += 4) {
        uint32_t v = vectorSource(m, w, data, (first + i) / 4)[p.lane];
        // CDNA4 / RDNA4 ISA, DS_WRITE_B16_D16_HI: data bits [31:16].
        if (form.highHalf)
          v >>= 16;
        bytes.insert(bytes.end(), (uint8_t *)&v,
                     (uint8_t *)&v + std::min<unsigned>(4, p.bytes - i));
      }
      pending.ldsBytes.push_back({p.address, p.address + p.bytes});
    }
    pending.complete = [machine, &w, index, bytes = std::move(bytes),
                        pieces = std::move(pieces)] {
      size_t at = 0;
      for (const LdsPiece &p : pieces) {
        if (!machine->recordLdsAccess(w, index, p.address, p.address + p.bytes,
                                      /*write=*/true))
          return false;
        std::memcpy(machine->lds.data() + p.address, bytes.data() + at,
                    p.bytes);
        at += p.bytes;
      }
      return true;
    };
    return m.issue(w, std::move(pending));
  }
  pending.regs.push_back(spanOf(op.dst[0]));
  Operand dst = op.dst[0];
  AccessSize access = form.element;
  pending.complete = [machine, &w, index, pieces = std::move(pieces), dst,
                      access, counters] {
    uint8_t laneBytes[64][64] = {};
    for (const LdsPiece &p : pieces) {
      const uint8_t *from = machine->ldsAt(w, index, p.address, p.bytes, p.lane,
                                           /*checked=*/true, counters);
      if (!from ||
          !machine->recordLdsAccess(w, index, p.address, p.address + p.bytes,
                                    /*write=*/false))
        return false;
      std::memcpy(&laneBytes[p.lane][p.regByte], from, p.bytes);
    }
    uint64_t done = 0;
    for (const LdsPiece &p : pieces) {
      if (done >> p.lane & 1)
        continue;
      done |= uint64_t(1) << p.lane;
      for (unsigned i = 0; i < dst.count; ++i)
        vectorDest(*machine, w, dst, i)[p.lane] =
            access.bytes < 4
                ? extendWord(laneBytes[p.lane], access)
                : extendWord(laneBytes[p.lane] + 4 * i, AccessSize{4});
    }
    return true;
  };
  return m.issue(w, std::move(pending));
}

/// Appends lane `lane`'s `bytes` of store data from `data`'s registers.
void appendStoreData(const Machine &m, const Wave &w, const Operand &data,
                     unsigned lane, unsigned bytes, std::vector<uint8_t> &out) {
  for (unsigned i = 0; i < bytes; i += 4) {
    uint32_t word = vectorSource(m, w, data, i / 4)[lane];
    out.insert(out.end(), (uint8_t *)&word,
               (uint8_t *)&word + std::min(4u, bytes - i));
  }
}

/// Issues a load whose data was read at issue: `loaded` holds, lane-major,
/// the destination's registers for each lane of `lanes`; they are written,
/// and unpoisoned, when the load completes.
bool issueLoaded(Machine &m, Wave &w, const Op &op, Pending pending,
                 std::vector<uint32_t> loaded, uint64_t lanes) {
  pending.regs.push_back(spanOf(op.dst[0]));
  Machine *machine = &m;
  Operand dst = op.dst[0];
  pending.complete = [machine, &w, loaded = std::move(loaded), dst, lanes] {
    for (unsigned i = 0; i < dst.count; ++i) {
      uint32_t *d = vectorDest(*machine, w, dst, i);
      for (unsigned lane = 0; lane < machine->lanes; ++lane)
        if (lanes >> lane & 1)
          d[lane] = loaded[size_t(lane) * dst.count + i];
    }
    return true;
  };
  return m.issue(w, std::move(pending));
}

/// global_load_* and global_store_* (CDNA4 ISA and RDNA4 ISA, "Flat,
/// Scratch and Global"): each lane at vaddr (64 bits) + offset, or in the
/// SADDR form at saddr + vaddr (32 bits, zero-extended) + offset. Operand
/// order (FLAT_Global_*_Pseudo): a load's saddr before its vaddr; a store's
/// vaddr, vdata, then saddr.
bool globalAccess(Machine &m, Wave &w, const Op &op) {
  unsigned index = w.pc - 1;
  bool isStore = StringRef(op.instr->mnemonic).starts_with("global_store");
  bool saddr = StringRef(op.instr->opcodeName).contains("_SADDR");
  AccessSize size = accessSize(op.instr->mnemonic);
  const Operand *vaddr, *data = nullptr;
  uint64_t base = 0;
  if (isStore) {
    vaddr = &op.src[0];
    data = &op.src[1];
    if (saddr)
      base = readScalar64(w, op.src[2]);
  } else if (saddr) {
    base = readScalar64(w, op.src[0]);
    vaddr = &op.src[1];
  } else {
    vaddr = &op.src[0];
  }
  int64_t offset = op.imms.empty() ? 0 : op.imms[0];
  uint64_t exec = w.exec();
  unsigned words = (size.bytes + 3) / 4;
  std::vector<std::pair<uint8_t *, unsigned>> targets; // store: where, lane
  std::vector<uint8_t> bytes;
  std::vector<uint32_t> loaded(size_t(m.lanes) * words, 0);
  for (unsigned lane = 0; lane < m.lanes; ++lane) {
    if (!(exec >> lane & 1))
      continue;
    uint64_t address = saddr ? base + vectorSource(m, w, *vaddr)[lane]
                             : vectorSource(m, w, *vaddr, 0)[lane] |
                                   uint64_t(vectorSource(m, w, *vaddr, 1)[lane])
                                       << 32;
    uint8_t *p = m.globalAt(w, index, address + offset, size.bytes, lane);
    if (!p)
      return false;
    if (!isStore) {
      for (unsigned i = 0; i < words; ++i)
        loaded[size_t(lane) * words + i] =
            extendWord(p + (size.bytes < 4 ? 0 : 4 * i), size);
      continue;
    }
    targets.push_back({p, lane});
    appendStoreData(m, w, *data, lane, size.bytes, bytes);
  }
  Pending pending;
  pending.index = index;
  pending.counters = op.instr->counters;
  if (isStore) {
    pending.complete = [targets = std::move(targets), bytes = std::move(bytes),
                        size] {
      for (auto [i, target] : llvm::enumerate(targets))
        std::memcpy(target.first, bytes.data() + i * size.bytes, size.bytes);
      return true;
    };
    return m.issue(w, std::move(pending));
  }
  return issueLoaded(m, w, op, std::move(pending), std::move(loaded), exec);
}

/// scratch_load_* and scratch_store_* (CDNA4 ISA section 10 and RDNA4 ISA
/// section 10, "Flat, Scratch and Global"): each lane's private bytes at
/// vaddr (unless the SADDR or ST form) + saddr (SADDR and SVS forms) +
/// the offset.
bool scratchAccess(Machine &m, Wave &w, const Op &op) {
  unsigned index = w.pc - 1;
  StringRef opcode = op.instr->opcodeName;
  bool isStore = StringRef(op.instr->mnemonic).starts_with("scratch_store");
  bool saddr = opcode.contains("_SADDR") || opcode.contains("_SVS");
  // "_ST_" is the ST form's suffix; "_STORE" must not match it.
  bool st = opcode.contains("_ST_") || opcode.ends_with("_ST");
  bool vaddr = !opcode.contains("_SADDR") && !st;
  AccessSize size = accessSize(op.instr->mnemonic);
  // Operand order (FLAT_Scratch_*_Pseudo): a store's vdata comes first,
  // though the assembly prints the address first; then vaddr, then saddr.
  unsigned s = 0;
  const Operand *data = isStore ? &op.src[s++] : nullptr;
  const Operand *v = vaddr ? &op.src[s++] : nullptr;
  uint32_t base = saddr ? readScalar(w, op.src[s++]) : 0;
  base += uint32_t(op.imms.empty() ? 0 : op.imms[0]);
  Lanes32 offsets = v ? vectorSource(m, w, *v) : Lanes32();
  uint64_t exec = w.exec();
  std::vector<std::pair<unsigned, uint32_t>> lanes; // lane, offset
  std::vector<uint8_t> bytes;
  for (unsigned lane = 0; lane < m.lanes; ++lane) {
    if (!(exec >> lane & 1))
      continue;
    uint64_t at = uint64_t(base) + offsets[lane];
    if (at + size.bytes > w.scratchBytes)
      return m.fail(ExecError::Kind::badInput, w, index,
                    formatv("lane {0}: scratch bytes {1}..{2} are outside "
                            "the kernel's {3}-byte private segment",
                            lane, at, at + size.bytes - 1, w.scratchBytes));
    lanes.push_back({lane, uint32_t(at)});
    if (isStore)
      appendStoreData(m, w, *data, lane, size.bytes, bytes);
  }
  // One lane's own private bytes: program order is all that orders them,
  // so a store lands and a load reads at issue; the load's registers stay
  // poisoned until it completes.
  Pending pending;
  pending.index = index;
  pending.counters = op.instr->counters;
  if (isStore) {
    for (auto [i, lane] : llvm::enumerate(lanes))
      std::memcpy(&w.scratch[size_t(lane.first) * w.scratchBytes + lane.second],
                  bytes.data() + i * size.bytes, size.bytes);
    return m.issue(w, std::move(pending));
  }
  unsigned count = op.dst[0].count;
  std::vector<uint32_t> loaded(size_t(m.lanes) * count, 0);
  for (auto [lane, at] : lanes) {
    const uint8_t *p = &w.scratch[size_t(lane) * w.scratchBytes + at];
    for (unsigned i = 0; i < count; ++i)
      loaded[size_t(lane) * count + i] =
          extendWord(p + (size.bytes < 4 ? 0 : 4 * i), size);
  }
  return issueLoaded(m, w, op, std::move(pending), std::move(loaded), w.exec());
}

} // namespace

void registerMemoryOps(HandlerMap &map) {
  for (StringRef name :
       {"s_load_dword", "s_load_dwordx2", "s_load_dwordx4", "s_load_dwordx8",
        "s_load_dwordx16", "s_load_b32", "s_load_b64", "s_load_b96",
        "s_load_b128", "s_load_b256", "s_load_b512"})
    map[name] = smemLoad;
  for (StringRef name :
       {"buffer_load_dword",    "buffer_load_dwordx2",  "buffer_load_dwordx3",
        "buffer_load_dwordx4",  "buffer_load_ushort",   "buffer_load_sshort",
        "buffer_load_ubyte",    "buffer_load_sbyte",    "buffer_store_dword",
        "buffer_store_dwordx2", "buffer_store_dwordx3", "buffer_store_dwordx4",
        "buffer_store_short",   "buffer_store_byte",    "buffer_load_b32",
        "buffer_load_b64",      "buffer_load_b96",      "buffer_load_b128",
        "buffer_load_u16",      "buffer_load_i16",      "buffer_load_u8",
        "buffer_load_i8",       "buffer_store_b32",     "buffer_store_b64",
        "buffer_store_b96",     "buffer_store_b128",    "buffer_store_b16",
        "buffer_store_b8",      "buffer_atomic_add_f32"})
    map[name] = bufferAccess;
  for (StringRef name : {"ds_read_b32",
                         "ds_read_b64",
                         "ds_read_b96",
                         "ds_read_b128",
                         "ds_read_u16",
                         "ds_read_i16",
                         "ds_read_u8",
                         "ds_read_i8",
                         "ds_write_b32",
                         "ds_write_b64",
                         "ds_write_b96",
                         "ds_write_b128",
                         "ds_write_b16",
                         "ds_write_b8",
                         "ds_write_b16_d16_hi",
                         "ds_write_b8_d16_hi",
                         "ds_load_b32",
                         "ds_load_b64",
                         "ds_load_b96",
                         "ds_load_b128",
                         "ds_load_u16",
                         "ds_load_i16",
                         "ds_load_u8",
                         "ds_load_i8",
                         "ds_store_b32",
                         "ds_store_b64",
                         "ds_store_b96",
                         "ds_store_b128",
                         "ds_store_b16",
                         "ds_store_b8",
                         "ds_store_b16_d16_hi",
                         "ds_store_b8_d16_hi",
                         "ds_read2_b32",
                         "ds_read2_b64",
                         "ds_read2st64_b32",
                         "ds_read2st64_b64",
                         "ds_write2_b32",
                         "ds_write2_b64",
                         "ds_write2st64_b32",
                         "ds_write2st64_b64",
                         "ds_load_2addr_b32",
                         "ds_load_2addr_b64",
                         "ds_load_2addr_stride64_b32",
                         "ds_load_2addr_stride64_b64",
                         "ds_store_2addr_b32",
                         "ds_store_2addr_b64",
                         "ds_store_2addr_stride64_b32",
                         "ds_store_2addr_stride64_b64",
                         "ds_read_b64_tr_b16"})
    map[name] = dsAccess;
  for (StringRef name :
       {"scratch_load_dword", "scratch_load_dwordx2", "scratch_load_dwordx3",
        "scratch_load_dwordx4", "scratch_store_dword", "scratch_store_dwordx2",
        "scratch_store_dwordx3", "scratch_store_dwordx4", "scratch_load_b32",
        "scratch_load_b64", "scratch_load_b96", "scratch_load_b128",
        "scratch_store_b32", "scratch_store_b64", "scratch_store_b96",
        "scratch_store_b128"})
    map[name] = scratchAccess;
  for (StringRef name :
       {"global_load_dword",    "global_load_dwordx2",  "global_load_dwordx3",
        "global_load_dwordx4",  "global_load_ushort",   "global_load_sshort",
        "global_load_ubyte",    "global_load_sbyte",    "global_store_dword",
        "global_store_dwordx2", "global_store_dwordx3", "global_store_dwordx4",
        "global_store_short",   "global_store_byte",    "global_load_b32",
        "global_load_b64",      "global_load_b96",      "global_load_b128",
        "global_load_u16",      "global_load_i16",      "global_load_u8",
        "global_load_i8",       "global_store_b32",     "global_store_b64",
        "global_store_b96",     "global_store_b128",    "global_store_b16",
        "global_store_b8"})
    map[name] = globalAccess;
}

} // namespace mlir::hk::exec::detail
