//===- InputLimits.cpp - inputs hk's tools refuse before parsing ----------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HK/Tools/InputLimits.h"

#include "mlir/Parser/Parser.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

llvm::Error mlir::hk::checkInputNesting(llvm::StringRef text,
                                        llvm::StringRef name, unsigned limit) {
  unsigned depth = 0, line = 1;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (c == '\n') {
      ++line;
    } else if (c == '/' && i + 1 < e && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == llvm::StringRef::npos)
        break;
      --i; // the newline counts the line
    } else if (c == '"') {
      // Skip the literal, honouring escapes; an unterminated one is the
      // parser's to report.
      for (++i; i < e && text[i] != '"'; ++i) {
        if (text[i] == '\\')
          ++i;
        else if (text[i] == '\n')
          ++line;
      }
    } else if (c == '(' || c == '[' || c == '{') {
      if (++depth > limit)
        return llvm::createStringError(
            llvm::Twine(name) + ":" + llvm::Twine(line) +
            ": error: the input nests brackets more than " +
            llvm::Twine(limit) +
            " levels deep, more than hk's tools parse safely");
    } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return llvm::Error::success();
}

mlir::OwningOpRef<mlir::ModuleOp> mlir::hk::parseCheckedSourceFile(
    llvm::StringRef path, llvm::SourceMgr &sourceMgr, MLIRContext *context,
    llvm::raw_ostream &errors) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFileOrSTDIN(path);
  if (!file) {
    errors << "error: could not open input file '" << path
           << "': " << file.getError().message() << "\n";
    return nullptr;
  }
  if (llvm::Error tooDeep = checkInputNesting((*file)->getBuffer(), path)) {
    errors << llvm::toString(std::move(tooDeep)) << "\n";
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  return parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(context));
}
