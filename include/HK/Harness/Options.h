//===- Options.h - hk-run's command line ----------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// hk-run's command line as a layer over the harness (as MlirOptMainConfig's
// registerCLOptions/createFromCLOptions over mlir-opt's library): the flags
// are registered in one category, parsed, and turned into the workload's
// configuration (GemmConfig, AttentionConfig, MoeConfig, GenericConfig).
// Nothing else in the harness reads them.
//
//===----------------------------------------------------------------------===//

#ifndef HK_HARNESS_OPTIONS_H
#define HK_HARNESS_OPTIONS_H

#include "HK/Harness/AttentionBackwardWorkload.h"
#include "HK/Harness/AttentionWorkload.h"
#include "HK/Harness/GemmWorkload.h"
#include "HK/Harness/GenericRun.h"
#include "HK/Harness/MoeWorkload.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::hk::run {

/// What hk-run's command line asks for: a workload and its configuration.
struct RunCommand {
  enum class Workload { gemm, attention, attentionBackward, moe, generic };
  Workload workload = Workload::gemm;
  /// The configuration of `workload` (the others are left default).
  GemmConfig gemm;
  AttentionConfig attention;
  AttentionBackwardConfig attentionBackward;
  MoeConfig moe;
  GenericConfig generic;
  /// Print the summary as one JSON object.
  bool json = false;
};

/// The category of hk-run's options; --help lists only these.
llvm::cl::OptionCategory &getRunOptionCategory();

/// Registers hk-run's options (once; later calls do nothing). Call before
/// parsing; other options registered in their category (e.g. the
/// diagnostic options of HK/Tools/DiagnosticOptions.h) join them.
void registerRunCLOptions();

/// Parses `argv` into hk-run's options (registering them if needed) and
/// builds the command they give; on a parse error the command-line parser's
/// message goes to `errors` and the returned RunError says so.
llvm::Expected<RunCommand> parseCommandLine(int argc, const char *const *argv,
                                            llvm::raw_ostream &errors);

/// The command the parsed options give, with the checks that belong to the
/// command line (sizes given, a layout spelled right, no option the
/// workload does not take) and the workload's own configuration check
/// (checkGemmConfig, checkAttentionConfig), so that a bad command is refused
/// before any kernel is read, in the order hk-run always gave. The
/// workloads check their configuration again for callers without a command
/// line; the check is cheap.
llvm::Expected<RunCommand> createFromCLOptions();

} // namespace mlir::hk::run

#endif // HK_HARNESS_OPTIONS_H
