//===- hk-opt.cpp - mlir-opt for hk ---------------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The hk optimizer driver: MlirOptMain over hk and the upstream dialects and
// passes hk programs use.
//
//===----------------------------------------------------------------------===//

#include "HK/InitAllDialects.h"
#include "HK/InitAllPasses.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::hk::registerAllPasses();
  mlir::DialectRegistry registry;
  mlir::hk::registerAllDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "hk optimizer driver\n", registry));
}
