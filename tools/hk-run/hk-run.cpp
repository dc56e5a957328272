//===- hk-run.cpp - run an hk kernel and check its results ----------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Compiles an hk kernel, runs it on the CPU simulator from the LLVM IR the
// AMDGPU backend would compile, or on a GPU, and checks its results. The
// options choose the workload: a GEMM (GemmWorkload.h, the default),
// attention (--attention, AttentionWorkload.h), its backward kernels, fused
// or deterministic (--attention-bwd, AttentionBackwardWorkload.h), a MoE
// GEMM (--moe, MoeWorkload.h) or any kernel on .npy arguments (--arg,
// GenericRun.h):
//
//   hk-run examples/gemm_bf16_gfx950.mlir --chip=gfx950 --size=256,256,128 \
//       --test=random
//
// Exit status: 0 PASS, 1 FAIL, 2 bad input or a simulation error, 3 no GPU
// for --backend=hip.
//
//===----------------------------------------------------------------------===//

#include "HK/Harness/Options.h"
#include "HK/Harness/RunReport.h"

#include "HK/InitAllDialects.h"
#include "HK/Tools/DiagnosticOptions.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::hk;
using namespace mlir::hk::run;

/// Prints why a run has no result; its exit status.
static int reportError(llvm::Error error) {
  int status = 2;
  llvm::handleAllErrors(
      std::move(error),
      [&](const RunError &e) {
        if (e.kind == RunError::Kind::failed) {
          // The kernel is wrong (a race): a FAIL, with the simulator's why.
          llvm::errs() << e.message << "\nFAIL\n";
          status = 1;
          return;
        }
        status = e.kind == RunError::Kind::unavailable ? 3 : 2;
        if (!e.reported && !e.message.empty())
          llvm::WithColor::error(llvm::errs(), "hk-run") << e.message << "\n";
      },
      [&](const llvm::ErrorInfoBase &e) {
        llvm::WithColor::error(llvm::errs(), "hk-run") << e.message() << "\n";
      });
  return status;
}

/// Prints the result of a workload, or why it has none; the exit status.
template <typename Result, typename Print>
static int finish(llvm::Expected<Result> result, Print print) {
  if (!result)
    return reportError(result.takeError());
  print(*result);
  return result->passed() ? 0 : 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerRunCLOptions();
  registerDiagnosticCLOptions(getRunOptionCategory());
  llvm::Expected<RunCommand> command =
      parseCommandLine(argc, argv, llvm::errs());
  if (!command)
    return reportError(command.takeError());
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  // A pass error names its op by location; the op's text after it (62 lines
  // for a one-line error) only with --mlir-print-op-on-diagnostic.
  applyDiagnosticCLOptions(context);
  llvm::raw_ostream &out = llvm::outs(), &errors = llvm::errs();
  bool json = command->json;
  switch (command->workload) {
  case RunCommand::Workload::generic: {
    GenericConfig &config = command->generic;
    config.run.diagnostics = &errors;
    return finish(runGeneric(context, config), [&](const GenericResult &r) {
      printGenericReport(config, r, out);
    });
  }
  case RunCommand::Workload::attention: {
    AttentionConfig &config = command->attention;
    config.run.diagnostics = &errors;
    return finish(runAttentionWorkload(context, config),
                  [&](const AttentionResult &r) {
                    printAttentionReport(config, r, json, out);
                  });
  }
  case RunCommand::Workload::attentionBackward: {
    AttentionBackwardConfig &config = command->attentionBackward;
    config.run.diagnostics = &errors;
    return finish(runAttentionBackwardWorkload(context, config),
                  [&](const AttentionBackwardResult &r) {
                    printAttentionBackwardReport(config, r, json, out);
                  });
  }
  case RunCommand::Workload::moe: {
    MoeConfig &config = command->moe;
    config.run.diagnostics = &errors;
    return finish(runMoeWorkload(context, config), [&](const MoeResult &r) {
      printMoeReport(config, r, json, out, errors);
    });
  }
  case RunCommand::Workload::gemm: {
    GemmConfig &config = command->gemm;
    config.run.diagnostics = &errors;
    return finish(runGemmWorkload(context, config), [&](const GemmResult &r) {
      printGemmReport(config, r, json, out, errors);
    });
  }
  }
  return 2;
}
