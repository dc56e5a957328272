//===- InitAllDialects.h - register hk and what hk programs use -*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Entry point for tools and embedding compilers: registers the hk dialect and
// the upstream dialects, interfaces and translations hk programs and their
// lowering use.
//
//===----------------------------------------------------------------------===//

#ifndef HK_INITALLDIALECTS_H
#define HK_INITALLDIALECTS_H

namespace mlir {
class DialectRegistry;
namespace hk {

/// Adds hk and the upstream dialects hk programs are written with (arith,
/// func, gpu, memref, scf, vector, amdgpu, rocdl, llvm) to `registry`, with
/// the ROCDL target and LLVM IR translation interfaces code-object
/// generation needs.
void registerAllDialects(DialectRegistry &registry);

} // namespace hk
} // namespace mlir

#endif // HK_INITALLDIALECTS_H
