//===- Exec.h - executing AMDGPU code objects instruction by instruction --===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The ISA executor (`hk-run --backend=isa`): runs a kernel of a code object,
// decoded by the ISA layer (HK/Isa), one machine instruction at a time, with
// per-wave register files, the initial state the kernel descriptor asks
// for, global memory as the harness's buffers, LDS per workgroup and buffer
// resources range-checked per chip. Counted memory operations complete
// late, at a moment a policy chooses (Completion); until then their
// destination registers and LDS bytes are poisoned, and reading one stops
// the run naming the wave, lane, PC, instruction and pending operation.
//
// What it checks is what the LLVM-IR simulator cannot: the code after
// instruction selection, the backend's waits, register allocation and the
// encoding. What it does not model is listed in docs/Simulator.md
// ("The isa backend").
//
//===----------------------------------------------------------------------===//

#ifndef HK_EXEC_EXEC_H
#define HK_EXEC_EXEC_H

#include "HK/Isa/Isa.h"
#include "HK/Runtime/Simulator.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace mlir::hk::exec {

/// When a counted memory operation completes.
enum class Completion {
  /// At issue: what public emulators do.
  eager,
  /// At the last moment the counter rules allow: when a wait that covers it
  /// executes, or when its wave ends.
  latest,
  /// At a legal moment drawn from the seed: between issue and `latest`.
  random,
};

/// The fields of a kernel descriptor (the 64-byte `<kernel>.kd` object of
/// the code object) the executor uses, as LLVM's AMDGPUUsage, "Kernel
/// Descriptor" lays them out.
struct KernelDescriptor {
  uint32_t groupSegmentFixedSize = 0;
  uint32_t privateSegmentFixedSize = 0;
  uint32_t kernargSize = 0;
  /// From the descriptor's own address to the kernel's first instruction.
  int64_t entryByteOffset = 0;
  uint32_t computePgmRsrc1 = 0, computePgmRsrc2 = 0, computePgmRsrc3 = 0;
  uint16_t kernelCodeProperties = 0;

  /// COMPUTE_PGM_RSRC2.USER_SGPR_COUNT (bits 5:1).
  unsigned userSgprCount() const { return (computePgmRsrc2 >> 1) & 31; }
  /// COMPUTE_PGM_RSRC2.ENABLE_SGPR_WORKGROUP_ID_{X,Y,Z} (bits 7, 8, 9).
  bool workgroupIdEnabled(unsigned dim) const {
    return (computePgmRsrc2 >> (7 + dim)) & 1;
  }
  /// COMPUTE_PGM_RSRC2.ENABLE_VGPR_WORKITEM_ID (bits 12:11): 0 x, 1 x and
  /// y, 2 x, y and z.
  unsigned workitemIdDims() const { return ((computePgmRsrc2 >> 11) & 3) + 1; }
  /// COMPUTE_PGM_RSRC2.ENABLE_PRIVATE_SEGMENT (bit 0).
  bool privateSegmentEnabled() const { return computePgmRsrc2 & 1; }
  /// KERNEL_CODE_PROPERTIES bit `bit` (0 private segment buffer, 1 dispatch
  /// ptr, 2 queue ptr, 3 kernarg segment ptr, 4 dispatch id, 5 flat scratch
  /// init, 6 private segment size).
  bool userSgprEnabled(unsigned bit) const {
    return (kernelCodeProperties >> bit) & 1;
  }
};

/// A kernel of a code object, ready to run.
struct LoadedKernel {
  std::string name;
  isa::KernelCode code;
  KernelDescriptor descriptor;
  /// Each argument's offset and size in the kernarg segment, from the
  /// code object's metadata (`.args`), in order.
  struct Argument {
    uint64_t offset = 0, size = 0;
    std::string valueKind;
  };
  std::vector<Argument> arguments;
};

/// Reads kernel `name` (empty: the only one) of the code object
/// `elfBytes`, which must be for `arch`: its instructions, its descriptor
/// and its argument layout. Every instruction must have semantics here:
/// otherwise the error lists the mnemonics that lack them.
llvm::Expected<LoadedKernel> loadKernel(llvm::StringRef elfBytes,
                                        llvm::StringRef name, isa::Arch arch);

/// The name the executor knows an instruction by: its mnemonic, or for a
/// gfx12 dual-issue (VOPD) instruction both halves ("v_dual_mov_b32 ::
/// v_dual_add_nc_u32").
std::string getSemanticsKey(const isa::Instruction &instr);
/// Whether the executor has semantics for `instr`.
bool hasSemantics(const isa::Instruction &instr);

struct ExecConfig {
  std::array<int64_t, 3> grid = {1, 1, 1}, block = {1, 1, 1};
  Completion completion = Completion::latest;
  uint64_t seed = 1;
  /// Instructions one wave may execute before the run stops.
  uint64_t stepLimit = uint64_t(1) << 28;
  /// Whether buffer range checks are per 32-bit word (CDNA) or of the
  /// whole access (RDNA, OOB_SELECT = 3), as ChipInfo says.
  bool perWordRangeCheck = true;
};

struct ExecStats {
  uint64_t waveInstructions = 0;
  uint64_t laneInstructions = 0;
  uint64_t mmas = 0;
  uint64_t barriers = 0;
};

/// Why a run stopped. `failed`: the kernel's waits are wrong (a poisoned
/// read or overwrite, a barrier deadlock); `badInput`: what the executor
/// cannot run (another chip, an instruction without semantics, an
/// unmodelled form, an access outside every buffer, a runaway kernel past
/// the step limit).
class ExecError : public llvm::ErrorInfo<ExecError> {
public:
  enum class Kind { badInput, failed };
  static char ID;
  ExecError(Kind kind, std::string message)
      : kind(kind), text(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override { os << text; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  std::string message() const override { return text; }
  Kind kind;

private:
  std::string text;
};

/// Runs `kernel` over the grid with its kernarg segment built from
/// `argumentBits` (one value per entry of LoadedKernel::arguments: a
/// device address of `memory` or the bits of a value) in `memory`.
llvm::Expected<ExecStats> run(const LoadedKernel &kernel,
                              const ExecConfig &config,
                              sim::GlobalMemory &memory,
                              llvm::ArrayRef<uint64_t> argumentBits);

} // namespace mlir::hk::exec

#endif // HK_EXEC_EXEC_H
