//===- InputLimits.h - inputs hk's tools refuse before parsing --*- C++ -*-===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// MLIR's parser recurses once per nested region, attribute or type, so a
// deeply nested input overflows the stack (a crash at a few thousand levels
// of scf.if) instead of failing. hk's tools check the nesting of their
// input text first and refuse it with a message.
//
//===----------------------------------------------------------------------===//

#ifndef HK_TOOLS_INPUTLIMITS_H
#define HK_TOOLS_INPUTLIMITS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class MLIRContext;
namespace hk {

/// The deepest nesting of (), [] and {} hk's tools accept; hk programs
/// nest a few dozen levels at most.
constexpr unsigned kMaxInputNesting = 256;

/// Fails, saying why, if `text` (named `name` in the message) is too deeply
/// nested to parse safely. Brackets inside string literals and `//`
/// comments do not count.
llvm::Error checkInputNesting(llvm::StringRef text, llvm::StringRef name,
                              unsigned limit = kMaxInputNesting);

/// parseSourceFile<ModuleOp> of `path` ("-": stdin) after checking its
/// nesting: a missing file or a too deeply nested input is reported on
/// `errors` and gives null, like a parse error.
OwningOpRef<ModuleOp>
parseCheckedSourceFile(llvm::StringRef path, llvm::SourceMgr &sourceMgr,
                       MLIRContext *context,
                       llvm::raw_ostream &errors = llvm::errs());

} // namespace hk
} // namespace mlir

#endif // HK_TOOLS_INPUTLIMITS_H
