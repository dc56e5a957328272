//===- Assembly.cpp - assembly text to an instruction stream -------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements parseAssembly: LLVM's MC asm parser, with the AMDGPU
// target parser, drives a streamer that keeps instructions and labels
// instead of writing an object. Directives go to the AMDGPU null target
// streamer, so a whole `.s` file of hk's (kernel descriptors, metadata)
// parses as well as a bare loop body. The encoder gives each instruction
// its size, hence its address.
//
//===----------------------------------------------------------------------===//

#include "HK/Isa/Isa.h"

#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCFixup.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCSymbol.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;

namespace mlir::hk::isa {

namespace {

/// An instruction as the parser emitted it, with its source line.
struct ParsedInst {
  MCInst inst;
  unsigned line;
};

/// Keeps the instructions and labels the parser emits; everything else a
/// directive asks for is accepted and dropped.
class CollectingStreamer : public MCStreamer {
public:
  CollectingStreamer(MCContext &ctx, const SourceMgr &sources)
      : MCStreamer(ctx), sources(sources) {}

  void emitInstruction(const MCInst &inst, const MCSubtargetInfo &) override {
    unsigned line = 0;
    if (SMLoc loc = getStartTokLoc(); loc.isValid())
      line = sources.FindLineNumber(loc);
    insts.push_back({inst, line});
  }

  void emitLabel(MCSymbol *symbol, SMLoc loc) override {
    MCStreamer::emitLabel(symbol, loc);
    labels.push_back({symbol->getName().str(), unsigned(insts.size())});
  }

  bool emitSymbolAttribute(MCSymbol *, MCSymbolAttr) override { return true; }
  void emitCommonSymbol(MCSymbol *, uint64_t, Align) override {}
  void emitZerofill(MCSection *, MCSymbol *, uint64_t, Align, SMLoc) override {}

  std::vector<ParsedInst> insts;
  std::vector<Label> labels;

private:
  const SourceMgr &sources;
};

/// Collects the parser's and the context's diagnostics as "line N: ...".
struct DiagnosticCollector {
  std::string errors;

  void add(const SMDiagnostic &diag) {
    if (diag.getKind() != SourceMgr::DK_Error)
      return;
    if (!errors.empty())
      errors += "\n";
    std::string where = diag.getFilename().str();
    if (diag.getLineNo() > 0)
      where += ":" + std::to_string(diag.getLineNo()) + ":" +
               std::to_string(diag.getColumnNo() + 1);
    errors += where + ": " + diag.getMessage().str();
    if (!diag.getLineContents().empty())
      errors += " ('" + diag.getLineContents().trim().str() + "')";
  }
};

/// What the instructions of a parsed stream point into. Members are
/// destroyed bottom-up: the file info before the context owning its
/// sections, the context before the sources it points to.
struct AssemblyState {
  SourceMgr sources;
  std::unique_ptr<MCContext> context;
  std::unique_ptr<MCObjectFileInfo> fileInfo;
};

} // namespace

/// Sets each instruction's address and size from the encoder, so that
/// assembly and code objects agree on addresses.
static void assignAddresses(const IsaTarget &target, MCContext &ctx,
                            std::vector<Instruction> &instructions) {
  std::unique_ptr<MCCodeEmitter> emitter(
      target.getTarget().createMCCodeEmitter(target.getInstrInfo(), ctx));
  uint64_t address = 0;
  for (Instruction &instr : instructions) {
    instr.address = address;
    if (emitter) {
      SmallVector<char, 16> bytes;
      SmallVector<MCFixup, 2> fixups;
      emitter->encodeInstruction(instr.inst, bytes, fixups,
                                 target.getSubtargetInfo());
      instr.size = bytes.size();
      for (unsigned i = 0; i < std::min<size_t>(bytes.size(), 4); ++i)
        instr.firstWord |= uint32_t(uint8_t(bytes[i])) << (8 * i);
    }
    address += instr.size;
  }
}

/// The label a branch names, as its first symbol operand.
static const MCSymbol *getBranchSymbol(const MCInst &inst) {
  for (const MCOperand &op : inst) {
    if (!op.isExpr())
      continue;
    if (const auto *ref = dyn_cast<MCSymbolRefExpr>(op.getExpr()))
      return &ref->getSymbol();
  }
  return nullptr;
}

Expected<InstructionStream> parseAssembly(StringRef text, Arch arch,
                                          StringRef bufferName) {
  Expected<const IsaTarget *> targetOrErr = IsaTarget::get(arch);
  if (!targetOrErr)
    return targetOrErr.takeError();
  const IsaTarget &target = **targetOrErr;

  // Kept with the stream: its MCInsts' expressions live in the context.
  auto state = std::make_shared<AssemblyState>();
  SourceMgr &sources = state->sources;
  DiagnosticCollector diagnostics;
  sources.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(text, bufferName),
                             SMLoc());
  sources.setDiagHandler(
      [](const SMDiagnostic &diag, void *collector) {
        static_cast<DiagnosticCollector *>(collector)->add(diag);
      },
      &diagnostics);

  const MCSubtargetInfo &sti = target.getSubtargetInfo();
  state->context =
      std::make_unique<MCContext>(sti.getTargetTriple(), &target.getAsmInfo(),
                                  &target.getRegisterInfo(), &sti, &sources);
  MCContext *ctx = state->context.get();
  ctx->setUseNamesOnTempLabels(true);
  ctx->setDiagnosticHandler(
      [&](const SMDiagnostic &diag, bool, const SourceMgr &,
          std::vector<const MDNode *> &) { diagnostics.add(diag); });
  state->fileInfo.reset(
      target.getTarget().createMCObjectFileInfo(*ctx, /*PIC=*/false));
  ctx->setObjectFileInfo(state->fileInfo.get());

  CollectingStreamer streamer(*ctx, sources);
  // The AMDGPU target parser hands its directives to a target streamer;
  // the null one accepts them all.
  target.getTarget().createNullTargetStreamer(streamer);
  streamer.initSections(false, sti);

  std::unique_ptr<MCAsmParser> parser(
      createMCAsmParser(sources, *ctx, streamer, target.getAsmInfo()));
  MCTargetOptions options;
  std::unique_ptr<MCTargetAsmParser> targetParser(
      target.getTarget().createMCAsmParser(sti, *parser, target.getInstrInfo(),
                                           options));
  if (!targetParser)
    return createStringError("cannot create the AMDGPU assembly parser");
  parser->setTargetParser(*targetParser);
  bool failed = parser->Run(/*NoInitialTextSection=*/false);
  if (failed || !diagnostics.errors.empty())
    return createStringError(
        "cannot parse " + bufferName + " for " + getArchName(arch) + ": " +
        (diagnostics.errors.empty() ? "the assembler failed"
                                    : diagnostics.errors));

  InstructionStream stream;
  stream.target = &target;
  stream.labels = std::move(streamer.labels);
  stream.instructions.reserve(streamer.insts.size());
  for (ParsedInst &parsed : streamer.insts) {
    Instruction &instr = stream.instructions.emplace_back();
    instr.inst = parsed.inst;
    instr.index = stream.instructions.size() - 1;
    instr.line = parsed.line;
  }
  assignAddresses(target, *ctx, stream.instructions);
  for (Instruction &instr : stream.instructions) {
    target.describe(instr);
    if (instr.cls != InstrClass::Branch)
      continue;
    if (const MCSymbol *symbol = getBranchSymbol(instr.inst))
      instr.branchTarget = stream.findLabel(symbol->getName());
  }
  // The collector goes out of scope; later diagnostics are dropped.
  sources.setDiagHandler(nullptr, nullptr);
  ctx->setDiagnosticHandler([](const SMDiagnostic &, bool, const SourceMgr &,
                               std::vector<const MDNode *> &) {});
  stream.context = std::shared_ptr<MCContext>(state, ctx);
  return stream;
}

} // namespace mlir::hk::isa
