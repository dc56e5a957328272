//===- Load.cpp - a code object's kernel, ready to execute ----------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements loadKernel (the kernel's instructions from the ISA
// layer, its descriptor from the `<kernel>.kd` symbol, its argument layout
// from the metadata note) and decodeProgram (each MCInst's operands
// resolved to register files and immediates, and its handler).
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include "HK/Report/CodeObject.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

using namespace llvm;

namespace mlir::hk::exec {

char ExecError::ID;

static Error badInput(const Twine &message) {
  return make_error<ExecError>(ExecError::Kind::badInput, message.str());
}

/// The 64 bytes of `<name>.kd`, read per AMDGPUUsage, "Kernel Descriptor"
/// (code object V3 and later): group_segment_fixed_size at 0,
/// private_segment_fixed_size at 4, kernarg_size at 8,
/// kernel_code_entry_byte_offset (i64) at 16, compute_pgm_rsrc3 at 44,
/// compute_pgm_rsrc1 at 48, compute_pgm_rsrc2 at 52,
/// kernel_code_properties (u16) at 56.
static Expected<KernelDescriptor> readDescriptor(StringRef elfBytes,
                                                 StringRef name) {
  auto object = object::ObjectFile::createObjectFile(
      MemoryBufferRef(elfBytes, "code object"));
  if (!object)
    return badInput("not an object file: " + toString(object.takeError()));
  std::string symbolName = (name + ".kd").str();
  for (const object::SymbolRef &symbol : (*object)->symbols()) {
    Expected<StringRef> symName = symbol.getName();
    if (!symName || *symName != symbolName) {
      if (!symName)
        consumeError(symName.takeError());
      continue;
    }
    Expected<object::section_iterator> section = symbol.getSection();
    Expected<uint64_t> address = symbol.getAddress();
    if (!section || !address || *section == (*object)->section_end()) {
      if (!section)
        consumeError(section.takeError());
      if (!address)
        consumeError(address.takeError());
      break;
    }
    Expected<StringRef> contents = (*section)->getContents();
    if (!contents)
      return badInput("unreadable section of '" + symbolName +
                      "': " + toString(contents.takeError()));
    uint64_t offset = *address - (*section)->getAddress();
    if (offset + 64 > contents->size())
      break;
    const char *p = contents->data() + offset;
    using support::endian::read16le;
    using support::endian::read32le;
    using support::endian::read64le;
    KernelDescriptor d;
    d.groupSegmentFixedSize = read32le(p);
    d.privateSegmentFixedSize = read32le(p + 4);
    d.kernargSize = read32le(p + 8);
    d.entryByteOffset = int64_t(read64le(p + 16));
    d.computePgmRsrc3 = read32le(p + 44);
    d.computePgmRsrc1 = read32le(p + 48);
    d.computePgmRsrc2 = read32le(p + 52);
    d.kernelCodeProperties = read16le(p + 56);
    return d;
  }
  return badInput("the code object has no kernel descriptor '" + symbolName +
                  "'");
}

Expected<LoadedKernel> loadKernel(StringRef elfBytes, StringRef name,
                                  isa::Arch arch) {
  Expected<isa::Arch> found = isa::getCodeObjectArch(elfBytes);
  if (!found)
    return badInput(toString(found.takeError()));
  if (*found != arch)
    return badInput(formatv("the code object is for {0}, not {1}",
                            isa::getArchName(*found), isa::getArchName(arch)));
  Expected<std::vector<isa::KernelCode>> kernels =
      isa::decodeCodeObject(elfBytes);
  if (!kernels)
    return badInput(toString(kernels.takeError()));
  LoadedKernel loaded;
  std::string names;
  for (isa::KernelCode &k : *kernels) {
    names += (names.empty() ? "" : ", ") + k.name;
    if (name.empty() ? kernels->size() == 1 : k.name == name)
      loaded.code = std::move(k);
  }
  if (!loaded.code.code.target)
    return badInput(formatv("the code object has no kernel '{0}' (its "
                            "kernels: {1})",
                            name, names));
  loaded.name = loaded.code.name;
  Expected<KernelDescriptor> descriptor = readDescriptor(elfBytes, loaded.name);
  if (!descriptor)
    return descriptor.takeError();
  loaded.descriptor = *descriptor;
  Expected<CodeObjectInfo> info = readCodeObject(elfBytes);
  if (!info)
    return badInput("unreadable metadata: " + toString(info.takeError()));
  for (const KernelResources &r : info->kernels)
    if (r.name == loaded.name)
      for (const KernelArgument &a : r.arguments)
        loaded.arguments.push_back(
            {uint64_t(a.offset), uint64_t(a.size), a.valueKind});
  // Every instruction must have semantics before anything runs.
  std::map<std::string, unsigned> missing;
  for (const isa::Instruction &instr : loaded.code.code.instructions)
    if (!hasSemantics(instr))
      ++missing[getSemanticsKey(instr)];
  if (!missing.empty()) {
    std::string list;
    for (auto &[key, count] : missing)
      list +=
          (list.empty() ? "" : ", ") + key + " (" + std::to_string(count) + ")";
    return badInput(formatv("kernel '{0}' has instructions the isa backend "
                            "has no semantics for: {1}",
                            loaded.name, list));
  }
  return std::move(loaded);
}

std::string getSemanticsKey(const isa::Instruction &instr) {
  // A VOPD instruction prints as "v_dual_x ... :: v_dual_y ...".
  StringRef text = instr.text;
  size_t split = text.find(" :: ");
  if (split == StringRef::npos) {
    // SDWA and DPP forms select and permute operands: a semantics of their
    // own, never the plain instruction's.
    StringRef opcode = instr.opcodeName;
    if (opcode.contains("_sdwa"))
      return instr.mnemonic + "_sdwa";
    if (opcode.contains("_dpp") || opcode.contains("DPP"))
      return instr.mnemonic + "_dpp";
    return instr.mnemonic;
  }
  StringRef second = text.substr(split + 4).ltrim();
  return instr.mnemonic + " :: " + second.take_until(isSpace).str();
}

namespace detail {

const HandlerMap &getHandlers() {
  static const HandlerMap map = [] {
    HandlerMap m;
    registerScalarOps(m);
    registerVectorOps(m);
    registerMemoryOps(m);
    registerMatrixOps(m);
    registerFloatOps(m);
    registerLaneOps(m);
    return m;
  }();
  return map;
}

/// AMDGPU's operand types of MCInstrDesc (SIDefines.h, not installed): the
/// register-or-immediate sources are OPERAND_REG_* from
/// MCOI::OPERAND_FIRST_TARGET on, and the VOP3 input modifiers are
/// OPERAND_INPUT_MODS, LLVM 22's value 45 (checked by the decoding of every
/// kernel in test/Exec: a modifier taken for a source would misalign it).
constexpr unsigned kInputMods = 45;

static bool isSourceType(unsigned type) {
  return type == MCOI::OPERAND_REGISTER || type == MCOI::OPERAND_UNKNOWN ||
         (type >= MCOI::OPERAND_FIRST_TARGET && type != kInputMods);
}

/// The file and index of one physical register.
static Expected<Operand> decodeRegister(const isa::IsaTarget &target,
                                        MCRegister reg) {
  isa::RegRange range = target.describeRegister(reg);
  Operand o;
  o.count = range.count;
  switch (range.kind) {
  case isa::RegKind::Vgpr:
    o.kind = Operand::vgpr, o.index = range.first;
    return o;
  case isa::RegKind::Agpr:
    o.kind = Operand::agpr, o.index = range.first;
    return o;
  case isa::RegKind::Sgpr:
    o.kind = Operand::sgpr, o.index = range.first;
    return o;
  case isa::RegKind::Vcc:
    o.kind = Operand::sgpr, o.index = kVcc + range.first;
    return o;
  case isa::RegKind::Exec:
    o.kind = Operand::sgpr, o.index = kExec + range.first;
    return o;
  case isa::RegKind::M0:
    o.kind = Operand::sgpr, o.index = kM0, o.count = 1;
    return o;
  default:
    break;
  }
  StringRef name = target.getRegisterName(reg);
  unsigned n = 0;
  if (name.starts_with("TTMP") &&
      !name.drop_front(4).take_while(isDigit).getAsInteger(10, n) && n < 16) {
    o.kind = Operand::sgpr, o.index = kTtmp + n, o.count = 1;
    return o;
  }
  if (name.starts_with("SGPR_NULL")) {
    o.kind = Operand::sgpr, o.index = kNull,
    o.count = name.contains("64") ? 2 : 1;
    return o;
  }
  return badInput("register " + name + " is not modelled");
}

static std::optional<Span> toSpan(const isa::RegRange &r) {
  switch (r.kind) {
  case isa::RegKind::Vgpr:
    return Span{File::vgpr, uint16_t(r.first), uint16_t(r.count)};
  case isa::RegKind::Agpr:
    return Span{File::agpr, uint16_t(r.first), uint16_t(r.count)};
  case isa::RegKind::Sgpr:
    return Span{File::scalar, uint16_t(r.first), uint16_t(r.count)};
  case isa::RegKind::Vcc:
    return Span{File::scalar, uint16_t(kVcc + r.first), uint16_t(r.count)};
  case isa::RegKind::Exec:
    return Span{File::scalar, uint16_t(kExec + r.first), uint16_t(r.count)};
  case isa::RegKind::M0:
    return Span{File::scalar, uint16_t(kM0), 1};
  default:
    return std::nullopt;
  }
}

/// The handler of one half of a VOPD instruction from its opcode name
/// ("V_DUAL_MOV_B32_e32_X_ADD_U32_e32_gfx12": halves "MOV_B32", "ADD_U32").
/// What in `instr`'s printed form its handler does not model, if anything:
/// output modifiers (clamp, omod) anywhere, and op_sel or packed negation
/// outside the instructions whose handlers read them.
static std::optional<std::string>
unmodelledForm(const isa::Instruction &instr) {
  StringRef text = instr.text;
  StringRef mnemonic = instr.mnemonic;
  for (StringRef token : {" clamp", " mul:", " div:"})
    if (text.contains(token))
      return "the output modifier '" + token.ltrim().str() + "'";
  // gfx12's 16-bit VOP3 forms select halves with op_sel, bits 14:11 of the
  // first word (RDNA4 ISA, "VOP3"), which a disassembler without true16
  // drops: read them from the encoding.
  if (StringRef(instr.opcodeName).contains("_fake16_e64") &&
      (instr.firstWord >> 11 & 15))
    return std::string("op_sel of a 16-bit VOP3 form");
  bool readsOpSel = mnemonic.starts_with("v_pk_") ||
                    mnemonic.starts_with("v_mfma_scale_") ||
                    mnemonic == "v_permlanex16_b32";
  for (StringRef token : {"op_sel", "neg_lo", "neg_hi"})
    if (text.contains(token) && !readsOpSel)
      return "'" + token.str() + "'";
  return std::nullopt;
}

/// Whether a source modifier of `op` selects a half (op_sel), which only
/// the packed, scaled-MFMA and permlane handlers read. The text misses it
/// where the disassembler (without true16) prints none.
static bool selectsHalves(const Op &op) {
  StringRef mnemonic = op.instr->mnemonic;
  if (mnemonic.starts_with("v_pk_") || mnemonic.starts_with("v_mfma_scale_") ||
      mnemonic == "v_permlanex16_b32")
    return false;
  for (const Operand &src : op.src)
    if (src.mods & 12)
      return true;
  return false;
}

static Handler dualHalf(StringRef half) {
  half.consume_back("_e32");
  std::string key = "v_dual_" + half.lower();
  if (key == "v_dual_add_u32")
    key = "v_dual_add_nc_u32";
  auto it = getHandlers().find(key);
  return it == getHandlers().end() ? nullptr : it->second;
}

/// The two halves of a VOPD opcode name, without the chip suffix.
static std::pair<StringRef, StringRef> dualHalves(StringRef opcode) {
  auto [x, y] = opcode.drop_front(7).split("_X_");
  return {x, y.rsplit('_').first};
}

/// Splits a decoded VOPD instruction (dstX, dstY, the sources of X, then
/// those of Y) into its halves; false if a half has no semantics.
static bool splitDual(Op &op) {
  auto [x, y] = dualHalves(op.instr->opcodeName);
  auto halves = std::make_shared<std::array<Op, 2>>();
  // X's sources: one for a move, three for fmac (its accumulator, tied to
  // the destination) and fmamk/fmaak (the literal), two otherwise.
  unsigned xSources = x.starts_with("MOV") ? 1 : x.starts_with("FMA") ? 3 : 2;
  if (op.dst.size() != 2 || op.src.size() < xSources)
    return false;
  for (unsigned h = 0; h < 2; ++h) {
    Op &half = (*halves)[h];
    half.instr = op.instr;
    half.fn = dualHalf(h ? y : x);
    half.dst.push_back(op.dst[h]);
    for (unsigned i = h ? xSources : 0; i < (h ? op.src.size() : xSources); ++i)
      half.src.push_back(op.src[i]);
    // fmac accumulates into its destination (RDNA4 ISA, V_DUAL_FMAC_F32).
    // The disassembler's tied copy of Y's destination keeps the encoded
    // field, without the low bit vdstY takes from vdstX: use vdst itself.
    if ((h ? y : x).starts_with("FMAC") && half.src.size() == 3)
      half.src[2] = half.dst[0];
    if (!half.fn)
      return false;
  }
  op.halves = std::move(halves);
  return true;
}

Expected<Program> decodeProgram(const LoadedKernel &kernel) {
  Program program;
  const isa::InstructionStream &code = kernel.code.code;
  program.arch = code.target->getArch();
  program.lanes = isa::getWaveSize(program.arch);
  program.start = kernel.code.start;
  const MCInstrInfo &info = code.target->getInstrInfo();
  for (const isa::Instruction &instr : code.instructions) {
    Op op;
    op.instr = &instr;
    auto it = getHandlers().find(instr.opcodeName.starts_with("V_DUAL_")
                                     ? std::string("v_dual")
                                     : getSemanticsKey(instr));
    if (it != getHandlers().end())
      op.fn = it->second;
    const MCInstrDesc &desc = info.get(instr.inst.getOpcode());
    unsigned defs = desc.getNumDefs();
    uint8_t mods = 0;
    bool pendingMods = false;
    for (unsigned i = 0; i < instr.inst.getNumOperands(); ++i) {
      const MCOperand &mo = instr.inst.getOperand(i);
      unsigned type = i < desc.getNumOperands()
                          ? unsigned(desc.operands()[i].OperandType)
                          : unsigned(MCOI::OPERAND_UNKNOWN);
      if (mo.isReg()) {
        if (!mo.getReg())
          continue;
        Expected<Operand> reg = decodeRegister(*code.target, mo.getReg());
        if (!reg)
          return badInput(
              formatv("`{0}`: {1}", instr.text, toString(reg.takeError())));
        if (i < defs) {
          op.dst.push_back(*reg);
          continue;
        }
        reg->mods = pendingMods ? mods : 0;
        pendingMods = false;
        op.src.push_back(*reg);
        continue;
      }
      if (!mo.isImm())
        continue; // branch targets come decoded
      if (type == kInputMods) {
        // SISrcMods: NEG = 1, ABS (NEG_HI in VOP3P) = 2, OP_SEL_0 = 4,
        // OP_SEL_1 = 8.
        mods = uint8_t(mo.getImm() & 15);
        pendingMods = true;
        continue;
      }
      if (i >= defs && isSourceType(type) && type != MCOI::OPERAND_UNKNOWN &&
          type != MCOI::OPERAND_PCREL) {
        Operand o;
        o.kind = Operand::immediate;
        o.imm = uint64_t(mo.getImm());
        o.mods = pendingMods ? mods : 0;
        pendingMods = false;
        op.src.push_back(o);
        continue;
      }
      op.imms.push_back(mo.getImm());
    }
    for (const isa::RegRange &r : instr.reads)
      if (std::optional<Span> s = toSpan(r))
        op.reads.push_back(*s);
    for (const isa::RegRange &r : instr.writes)
      if (std::optional<Span> s = toSpan(r))
        op.writes.push_back(*s);
    if (instr.branchTarget)
      op.target = *instr.branchTarget;
    if (instr.opcodeName.starts_with("V_DUAL_") && !splitDual(op))
      op.fn = nullptr;
    if (!op.fn)
      return badInput(
          formatv("`{0}` has no semantics in the isa backend", instr.text));
    std::optional<std::string> form = unmodelledForm(instr);
    if (!form && selectsHalves(op))
      form = "op_sel";
    if (form)
      return badInput(formatv("`{0}`: {1} is not modelled by the isa backend",
                              instr.text, *form));
    program.ops.push_back(std::move(op));
  }
  return std::move(program);
}

} // namespace detail

bool hasSemantics(const isa::Instruction &instr) {
  if (instr.opcodeName.starts_with("V_DUAL_")) {
    auto [x, y] = detail::dualHalves(instr.opcodeName);
    return detail::dualHalf(x) && detail::dualHalf(y);
  }
  return detail::getHandlers().count(getSemanticsKey(instr));
}

} // namespace mlir::hk::exec
