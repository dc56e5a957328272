//===- Simulator.h - executing AMDGPU kernels on the CPU --------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The `sim` backend: executes a kernel, lane by lane, from the LLVM IR the hk
// pipeline hands to the AMDGPU backend. Workgroups run one after another
// (in x, y, z order, or shuffled: LaunchConfig::shuffleSeed); the waves of a
// workgroup run until they block at a barrier; each instruction runs for every
// lane of a wave, so wave-level operations (MFMA, WMMA) see the whole wave.
// Global memory is a set of host buffers at simulated addresses; every access
// outside them is an error.
//
// What is modelled: the instructions and AMDGPU intrinsics of hk's kernels,
// plus the buffer and load-to-LDS intrinsics of direct-to-LDS fills (see
// docs/Simulator.md), with execution masks under divergence. Anything else
// is an error naming it, never skipped.
//
//===----------------------------------------------------------------------===//

#ifndef HK_RUNTIME_SIMULATOR_H
#define HK_RUNTIME_SIMULATOR_H

#include "HK/Target/Chip.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::hk::sim {

/// Host memory the kernel sees as global memory.
class GlobalMemory {
public:
  /// Adds a buffer of `size` bytes and returns its device address. Buffers
  /// are separated by unmapped gaps, so running off one is caught.
  uint64_t allocate(llvm::StringRef name, uint64_t size);
  std::vector<uint8_t> &bytes(uint64_t address);
  const std::vector<uint8_t> &bytes(uint64_t address) const;

  /// The buffer holding [address, address + size), or null.
  uint8_t *translate(uint64_t address, uint64_t size);
  /// The name of the buffer nearest `address`, for messages.
  std::string describe(uint64_t address) const;
  /// The first buffer whose bytes differ from the buffer at the same
  /// address in `other` ("name (first at byte N)"), or an empty string.
  std::string describeDifference(const GlobalMemory &other) const;

private:
  struct Buffer {
    std::string name;
    uint64_t address;
    std::vector<uint8_t> data;
  };
  std::vector<Buffer> buffers;
  uint64_t next = uint64_t(1) << 32;
};

/// Work the simulator counted.
struct Counters {
  uint64_t waveInstructions = 0;
  uint64_t laneInstructions = 0;
  uint64_t mmas = 0;
  uint64_t barriers = 0;
  uint64_t globalBytesRead = 0;
  uint64_t globalBytesWritten = 0;
  uint64_t ldsBytesRead = 0;
  uint64_t ldsBytesWritten = 0;
  /// LDS accesses (one per wave instruction) by bytes per lane and by
  /// conflict ways (LdsBanks.h): ldsAccesses[bytes][ways] = count.
  std::map<unsigned, std::map<unsigned, uint64_t>> ldsReads, ldsWrites;
  /// Wave instructions by class.
  std::map<std::string, uint64_t> instructionClasses;
  /// Whether the kernel issued direct-to-LDS loads and so ran in both
  /// AsyncOrders, writing the same results (otherwise every access
  /// completed at issue).
  bool ranBothAsyncOrders = false;
  /// Set when the ISA executor ran the code object: how its counted memory
  /// operations completed ("latest", "random", "eager").
  std::string isaCompletion;
  /// LaunchConfig::shuffleSeed of the run: 0 when the workgroups ran in x,
  /// y, z order.
  uint64_t workgroupShuffle = 0;
};

/// When asynchronous LDS traffic completes. Both are legal hardware
/// behaviours, and a kernel whose waits and barriers are right computes the
/// same in both; each is the worst case for one kind of race.
enum class AsyncOrder {
  /// Direct-to-LDS loads land at the wait that covers them (vmcnt, in issue
  /// order per wave) or at a workgroup-scope fence, not at issue; LDS reads
  /// read at issue. Exposes a read of a fill no wait has completed.
  latestFill,
  /// Direct-to-LDS loads land at issue; LDS reads read memory at the wait
  /// that covers them (lgkmcnt), at the first use of their value or at a
  /// workgroup-scope fence. Exposes a fill that overwrites data a read still
  /// in flight has not read.
  latestRead,
};

/// A kernel's results depend on the AsyncOrder: a wait or barrier is
/// missing, or a wait count is too high.
class RaceError : public llvm::ErrorInfo<RaceError> {
public:
  static char ID;
  explicit RaceError(std::string message) : text(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override { os << text; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  std::string message() const override { return text; }

private:
  std::string text;
};

struct LaunchConfig {
  std::array<int64_t, 3> grid = {1, 1, 1};
  std::array<int64_t, 3> block = {1, 1, 1};
  /// One raw value per kernel argument (pointers are device addresses).
  std::vector<uint64_t> arguments;
  /// Wave instructions one wave may execute before the run is stopped.
  uint64_t stepLimit = uint64_t(1) << 32;
  /// 0: the workgroups run in x, then y, then z order. Otherwise they run
  /// in a permutation of the grid drawn from this seed (the same for a
  /// seed on every host), so that the run-to-run spread of a kernel whose
  /// results depend on the order (atomic adds) can be measured; a grid of
  /// more than kMaxShuffledWorkgroups is refused.
  uint64_t shuffleSeed = 0;
};

/// The most workgroups a shuffled launch permutes (a table of 4 bytes each).
constexpr int64_t kMaxShuffledWorkgroups = int64_t(1) << 24;

/// Rewrites buffer fat pointers (address space 7) into buffer resources and
/// raw buffer intrinsics with the AMDGPU backend's own pass, as instruction
/// selection would; `run` does this first. A no-op on modules without them.
llvm::Error lowerBufferFatPointers(llvm::Module &module, const ChipInfo &chip);

/// Runs kernel `kernel` of `module` for `chip`. A kernel that issues
/// direct-to-LDS loads runs twice, once in each AsyncOrder, from the same
/// memory: if what it writes differs, the result is a RaceError naming the
/// first differing byte; otherwise `memory` holds what both wrote and
/// `counters` count one run.
llvm::Error run(llvm::Module &module, llvm::StringRef kernel,
                const ChipInfo &chip, const LaunchConfig &config,
                GlobalMemory &memory, Counters &counters);

} // namespace mlir::hk::sim

#endif // HK_RUNTIME_SIMULATOR_H
