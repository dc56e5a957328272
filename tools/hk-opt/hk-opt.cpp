//===- hk-opt.cpp - mlir-opt for hk ---------------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The hk optimizer driver: MlirOptMain over hk and the upstream dialects and
// passes hk programs use, with the input's nesting checked before parsing
// (InputLimits.h).
//
//===----------------------------------------------------------------------===//

#include "HK/InitAllDialects.h"
#include "HK/InitAllPasses.h"
#include "HK/Tools/DiagnosticOptions.h"
#include "HK/Tools/InputLimits.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#ifdef HK_INCLUDE_TESTS
namespace mlir::hk::test {
void registerTestClusterSchedulePass();
} // namespace mlir::hk::test
#endif

/// Exit status of input hk-opt refuses (a missing file, invalid IR, a pass
/// that fails), as for every hk tool.
static constexpr int kRefused = 2;

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::hk::registerAllPasses();
#ifdef HK_INCLUDE_TESTS
  mlir::hk::test::registerTestClusterSchedulePass();
#endif
  mlir::DialectRegistry registry;
  mlir::hk::registerAllDialects(registry);
  // An error names its op by location; the op's text only on request.
  mlir::hk::registerMLIRContextCLOptionsQuiet();
  auto [input, output] = mlir::registerAndParseCLIOptions(
      argc, argv, "hk optimizer driver\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  // Listing dialects or passes reads no input.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, input, output, registry));
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = mlir::openInputFile(input, &error);
  if (!file) {
    llvm::errs() << error << "\n";
    return kRefused;
  }
  if (llvm::Error tooDeep =
          mlir::hk::checkInputNesting(file->getBuffer(), input)) {
    llvm::errs() << llvm::toString(std::move(tooDeep)) << "\n";
    return kRefused;
  }
  std::unique_ptr<llvm::ToolOutputFile> out =
      mlir::openOutputFile(output, &error);
  if (!out) {
    llvm::errs() << error << "\n";
    return kRefused;
  }
  if (mlir::failed(
          mlir::MlirOptMain(out->os(), std::move(file), registry, config)))
    return kRefused;
  out->keep();
  return 0;
}
