//===- InitAllPasses.h - register hk and upstream passes --------*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Entry point for tools and embedding compilers: registers the hk passes and
// pipelines and the upstream passes they are built from.
//
//===----------------------------------------------------------------------===//

#ifndef HK_INITALLPASSES_H
#define HK_INITALLPASSES_H

namespace mlir::hk {

/// Registers, with the global pass registry, the hk passes and the upstream
/// passes hk's lowering reuses (canonicalize, cse, the GPU target passes and
/// the conversions to ROCDL/LLVM). Safe to call more than once.
void registerAllPasses();

} // namespace mlir::hk

#endif // HK_INITALLPASSES_H
