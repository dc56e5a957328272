//===- CodeObject.cpp - reading AMDGPU code objects -----------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements reading the kernel resources recorded in the AMDGPU
// metadata note of a code object.
//
//===----------------------------------------------------------------------===//

#include "HK/Report/CodeObject.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/Object/ELF.h"
#include "llvm/Object/ELFTypes.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace mlir::hk;

static Error malformed(const Twine &what) {
  return createStringError(inconvertibleErrorCode(),
                           "not a valid AMDGPU code object: " + what);
}

/// The msgpack blob of the AMDGPU metadata note.
static Expected<StringRef> findMetadataNote(const object::ELF64LEFile &elf) {
  auto sections = elf.sections();
  if (!sections)
    return sections.takeError();
  for (const auto &section : *sections) {
    if (section.sh_type != ELF::SHT_NOTE)
      continue;
    Error err = Error::success();
    for (const auto &note : elf.notes(section, err))
      if (note.getName() == "AMDGPU" &&
          note.getType() == ELF::NT_AMDGPU_METADATA) {
        ArrayRef<uint8_t> desc = note.getDesc(section.sh_addralign);
        cantFail(std::move(err));
        return StringRef(reinterpret_cast<const char *>(desc.data()),
                         desc.size());
      }
    if (err)
      return std::move(err);
  }
  return malformed("no AMDGPU metadata note");
}

static int64_t getInt(msgpack::MapDocNode &map, StringRef key) {
  auto it = map.find(key);
  if (it == map.end())
    return 0;
  msgpack::DocNode &node = it->second;
  if (node.getKind() == msgpack::Type::UInt)
    return static_cast<int64_t>(node.getUInt());
  if (node.getKind() == msgpack::Type::Int)
    return node.getInt();
  return 0;
}

Expected<CodeObjectInfo> mlir::hk::readCodeObject(StringRef bytes) {
  if (bytes.size() < ELF::EI_NIDENT || !bytes.starts_with("\x7f"
                                                          "ELF"))
    return malformed("no ELF header");
  auto elf = object::ELF64LEFile::create(bytes);
  if (!elf)
    return elf.takeError();
  if (elf->getHeader().e_machine != ELF::EM_AMDGPU)
    return malformed("ELF machine is not EM_AMDGPU");
  auto blob = findMetadataNote(*elf);
  if (!blob)
    return blob.takeError();

  msgpack::Document doc;
  if (!doc.readFromBlob(*blob, /*Multi=*/false))
    return malformed("unreadable msgpack metadata");
  if (doc.getRoot().getKind() != msgpack::Type::Map)
    return malformed("metadata is not a map");
  msgpack::MapDocNode root = doc.getRoot().getMap();

  CodeObjectInfo info;
  auto target = root.find("amdhsa.target");
  if (target != root.end() && target->second.getKind() == msgpack::Type::String)
    info.target = target->second.getString().str();
  // "amdgcn-amd-amdhsa--gfx950:sramecc+:xnack-": the processor follows
  // "--", before any feature flags.
  info.chip = StringRef(info.target).split("--").second.split(':').first.str();

  auto kernels = root.find("amdhsa.kernels");
  if (kernels == root.end() ||
      kernels->second.getKind() != msgpack::Type::Array)
    return malformed("no amdhsa.kernels");
  for (msgpack::DocNode &node : kernels->second.getArray()) {
    if (node.getKind() != msgpack::Type::Map)
      return malformed("kernel entry is not a map");
    msgpack::MapDocNode kernel = node.getMap();
    KernelResources r;
    auto name = kernel.find(".name");
    if (name != kernel.end() && name->second.getKind() == msgpack::Type::String)
      r.name = name->second.getString().str();
    r.vgprs = getInt(kernel, ".vgpr_count");
    r.agprs = getInt(kernel, ".agpr_count");
    r.sgprs = getInt(kernel, ".sgpr_count");
    r.vgprSpills = getInt(kernel, ".vgpr_spill_count");
    r.sgprSpills = getInt(kernel, ".sgpr_spill_count");
    r.scratchBytes = getInt(kernel, ".private_segment_fixed_size");
    r.ldsBytes = getInt(kernel, ".group_segment_fixed_size");
    r.waveSize = getInt(kernel, ".wavefront_size");
    r.maxWorkgroupSize = getInt(kernel, ".max_flat_workgroup_size");
    r.kernargBytes = getInt(kernel, ".kernarg_segment_size");
    auto args = kernel.find(".args");
    if (args != kernel.end() && args->second.getKind() == msgpack::Type::Array)
      for (msgpack::DocNode &arg : args->second.getArray()) {
        if (arg.getKind() != msgpack::Type::Map)
          return malformed("kernel argument is not a map");
        msgpack::MapDocNode map = arg.getMap();
        KernelArgument a;
        a.offset = getInt(map, ".offset");
        a.size = getInt(map, ".size");
        auto kind = map.find(".value_kind");
        if (kind != map.end() &&
            kind->second.getKind() == msgpack::Type::String)
          a.valueKind = kind->second.getString().str();
        r.arguments.push_back(std::move(a));
      }
    info.kernels.push_back(std::move(r));
  }
  return info;
}

std::string mlir::hk::describeScratchUse(const KernelResources &kernel) {
  if (getSpilledRegisters(kernel) == 0 && kernel.scratchBytes == 0)
    return "";
  if (getSpilledRegisters(kernel) == 0)
    return llvm::formatv("kernel '{0}' uses {1} bytes of scratch per lane",
                         kernel.name, kernel.scratchBytes)
        .str();
  return llvm::formatv("kernel '{0}' spills {1} VGPRs and {2} SGPRs ({3} "
                       "bytes of scratch per lane)",
                       kernel.name, kernel.vgprSpills, kernel.sgprSpills,
                       kernel.scratchBytes)
      .str();
}
