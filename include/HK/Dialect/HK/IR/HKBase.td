//===- HKBase.td - hk dialect definition -------------------*- tablegen -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file defines the hk dialect and the base classes of its ops, types and
// attributes.
//
//===----------------------------------------------------------------------===//

#ifndef HK_DIALECT_HK_IR_HKBASE_TD
#define HK_DIALECT_HK_IR_HKBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def HK_Dialect : Dialect {
  let name = "hk";
  let cppNamespace = "::mlir::hk";
  let summary = "HipKittens-style tile programs for AMD GPUs";
  let description = [{
    The `hk` dialect expresses tile kernels in the style of HipKittens for
    AMD GPUs: tiles of shared memory (LDS) with swizzled layouts, register
    fragments whose per-lane layout is the one of a chip's matrix
    instruction, cooperative global-to-LDS copies, fragment loads, matrix
    multiply-accumulate on fragments and stores of accumulators.

    hk only carries meaning that no upstream dialect carries. Barriers,
    wave priorities, loops, index arithmetic and thread ids are written with
    the upstream `amdgpu`, `rocdl`, `gpu`, `scf` and `arith` ops.

    Chip-specific rules (supported MMA shapes, LDS capacity) are checked
    against the chip of the enclosing code: the nearest `hk.chip` attribute
    (`#hk.chip<gfx950>`) on an ancestor op, otherwise the `#rocdl.target`
    of the enclosing `gpu.module`. Without either, only the chip-independent
    rules are checked.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Name of the discardable attribute that selects the chip of the code
    /// nested under the op carrying it.
    static constexpr ::llvm::StringLiteral getChipAttrName() {
      return ::llvm::StringLiteral("hk.chip");
    }
    /// Name of the unit attribute hk-peel-partial-tiles puts on the
    /// remainder loop it leaves (see the pass).
    static constexpr ::llvm::StringLiteral getRemainderAttrName() {
      return ::llvm::StringLiteral("hk.remainder");
    }
    /// Name of the discardable #hk.launch attribute of a kernel.
    static constexpr ::llvm::StringLiteral getLaunchAttrName() {
      return ::llvm::StringLiteral("hk.launch");
    }
    /// Name of the string attribute of a gpu.module naming the schedule its
    /// kernels are compiled with, in pipeline-option syntax
    /// ("stages=2 unroll=2"); hk-linalg-to-kernels records it, hk's
    /// pipelines apply it.
    static constexpr ::llvm::StringLiteral getScheduleAttrName() {
      return ::llvm::StringLiteral("hk.schedule");
    }
    /// Name of the dictionary attribute of a gpu.module naming LLVM backend
    /// options (name = "value") its code object is compiled with; a
    /// schedule records what its loops need, hk's serialization applies it.
    static constexpr ::llvm::StringLiteral getBackendOptionsAttrName() {
      return ::llvm::StringLiteral("hk.backend_options");
    }
    /// Whether `hk.backend_options` may name `option`: the AMDGPU backend's
    /// own options, not the tools' (`o`, `help`) nor LLVM's others.
    static bool isBackendOptionName(::llvm::StringRef option) {
      return option.starts_with("amdgpu-");
    }

  private:
    void registerAttributes();
    void registerTypes();

  public:
  }];
}

class HK_Op<string mnemonic, list<Trait> traits = []>
    : Op<HK_Dialect, mnemonic, traits>;

class HK_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<HK_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

class HK_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<HK_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif // HK_DIALECT_HK_IR_HKBASE_TD
