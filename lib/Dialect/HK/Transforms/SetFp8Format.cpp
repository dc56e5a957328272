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
    Type target;
    if (format == "e4m3")
      target = Float8E4M3FNType::get(ctx);
    else if (format == "e5m2")
      target = Float8E5M2Type::get(ctx);
    if (!target) {
      getOperation().emitError()
          << "hk-set-fp8-format: format must be e4m3 or e5m2, got '" << format
          << "'";
      return signalPassFailure();
    }
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
