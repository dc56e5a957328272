//===- SetFp8Format.cpp - one fp8 format for a module ---------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements hk-set-fp8-format with MLIR's AttrTypeReplacer, which
// reaches the element types inside shared tiles and fragments too.
//
//===----------------------------------------------------------------------===//

#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Dialect/HK/Transforms/Passes.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::hk {
#define GEN_PASS_DEF_SETFP8FORMAT
#include "HK/Dialect/HK/Transforms/Passes.h.inc"
} // namespace mlir::hk

using namespace mlir;

namespace {
struct SetFp8FormatPass : hk::impl::SetFp8FormatBase<SetFp8FormatPass> {
  using SetFp8FormatBase::SetFp8FormatBase;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    if (format == hk::Fp8Format::source)
      return;
    Type target = format == hk::Fp8Format::e5m2
                      ? Type(Float8E5M2Type::get(ctx))
                      : Type(Float8E4M3FNType::get(ctx));
    AttrTypeReplacer replacer;
    replacer.addReplacement([&](Type type) -> std::optional<Type> {
      if (isa<Float8E4M3FNType, Float8E5M2Type>(type))
        return target;
      return std::nullopt;
    });
    replacer.recursivelyReplaceElementsIn(getOperation(), /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);
  }
};
} // namespace
