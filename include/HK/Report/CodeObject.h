//===- CodeObject.h - reading AMDGPU code objects ---------------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Reads what a compiled kernel uses from the AMDGPU metadata note of a code
// object (ELF note "AMDGPU", type NT_AMDGPU_METADATA, msgpack; see LLVM's
// AMDGPUUsage "Code Object V3+ Metadata").
//
//===----------------------------------------------------------------------===//

#ifndef HK_REPORT_CODEOBJECT_H
#define HK_REPORT_CODEOBJECT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::hk {

/// One entry of a kernel's `.args` metadata: where the kernel reads it in
/// its kernarg segment, and its `.value_kind` ("global_buffer", "by_value",
/// "hidden_...").
struct KernelArgument {
  int64_t offset = 0;
  int64_t size = 0;
  std::string valueKind;
};

/// The resources of one kernel of a code object.
struct KernelResources {
  std::string name;
  int64_t vgprs = 0; // on CDNA: VGPR + AGPR total (.vgpr_count)
  int64_t agprs = 0;
  int64_t sgprs = 0;
  int64_t vgprSpills = 0;
  int64_t sgprSpills = 0;
  int64_t scratchBytes = 0; // per lane (.private_segment_fixed_size)
  int64_t ldsBytes = 0;     // static LDS (.group_segment_fixed_size)
  int64_t waveSize = 0;
  int64_t maxWorkgroupSize = 0;
  int64_t kernargBytes = 0;
  /// Its arguments in order (the ISA executor lays out kernargs by them).
  std::vector<KernelArgument> arguments;
};

/// A code object's target and kernels.
struct CodeObjectInfo {
  std::string target; // e.g. "amdgcn-amd-amdhsa--gfx950"
  std::string chip;   // e.g. "gfx950"
  std::vector<KernelResources> kernels;
};

/// Reads `bytes`, an AMDGPU ELF code object.
llvm::Expected<CodeObjectInfo> readCodeObject(llvm::StringRef bytes);

/// Registers a kernel spills (VGPRs and SGPRs).
inline int64_t getSpilledRegisters(const KernelResources &kernel) {
  return kernel.vgprSpills + kernel.sgprSpills;
}

/// What a kernel keeps in scratch, for a warning ("kernel 'gemm_bf16'
/// spills 62 VGPRs and 0 SGPRs (868 bytes of scratch per lane)"), or empty
/// when it uses none.
std::string describeScratchUse(const KernelResources &kernel);

} // namespace mlir::hk

#endif // HK_REPORT_CODEOBJECT_H
