//===- LaunchDescription.cpp - hk-compile's launch descriptions -----------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HK/Runtime/LaunchDescription.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/JSON.h"

using namespace llvm;
using namespace mlir::hk;

static Error malformed(const Twine &what) {
  return createStringError(inconvertibleErrorCode(), what);
}

/// The terms under `key` ({"arg", "dim", `factor`} objects); absent is an
/// empty list when `optional`.
static Error readTerms(const json::Object &kernel, StringRef key,
                       StringRef factor, bool optional,
                       std::vector<SizeTerm> &terms) {
  const json::Array *list = kernel.getArray(key);
  if (!list)
    return optional ? Error::success() : malformed("no " + key + " terms");
  for (const json::Value &v : *list) {
    const json::Object *o = v.getAsObject();
    auto arg = o ? o->getInteger("arg") : std::nullopt;
    auto dim = o ? o->getInteger("dim") : std::nullopt;
    auto f = o ? o->getInteger(factor) : std::nullopt;
    if (!arg || !dim || !f)
      return malformed("a " + key + " term without integer arg, dim and " +
                       factor);
    std::optional<StringRef> round = o->getString("round");
    if (o->get("round") && (!round || *round != "up"))
      return malformed("a " + key + " term whose round is not \"up\"");
    terms.push_back({*arg, *dim, *f, round.has_value()});
  }
  return Error::success();
}

static Expected<LaunchDescription::Kernel>
readKernel(const json::Value &value) {
  const json::Object *o = value.getAsObject();
  std::optional<StringRef> name = o ? o->getString("name") : std::nullopt;
  if (!name)
    return malformed("a kernel without a name");
  LaunchDescription::Kernel kernel;
  kernel.name = name->str();
  auto where = [&](const Twine &what) {
    return malformed(what + " of '" + kernel.name + "'");
  };
  if (Error e = readTerms(*o, "grid", "tile", false, kernel.grid))
    return where(toString(std::move(e)));
  if (Error e = readTerms(*o, "divisible", "by", true, kernel.divisible))
    return where(toString(std::move(e)));
  const json::Array *block = o->getArray("block");
  if (!block || block->size() != 3)
    return malformed("'" + kernel.name + "' has no block of 3 sizes");
  for (unsigned i = 0; i < 3; ++i) {
    std::optional<int64_t> n = (*block)[i].getAsInteger();
    if (!n)
      return malformed("'" + kernel.name + "' has a non-integer block size");
    kernel.block[i] = *n;
  }
  const json::Array *kernargs = o->getArray("kernargs");
  if (!kernargs)
    return malformed("'" + kernel.name + "' has no kernargs");
  for (const json::Value &v : *kernargs) {
    const json::Object *a = v.getAsObject();
    std::optional<StringRef> kind = a ? a->getString("kind") : std::nullopt;
    std::optional<int64_t> arg = a ? a->getInteger("arg") : std::nullopt;
    if (!kind || !arg)
      return malformed("a kernarg of '" + kernel.name +
                       "' without a kind and an arg");
    LaunchDescription::Kernarg k;
    k.kind = kind->str();
    k.arg = *arg;
    k.dim = a->getInteger("dim");
    if (std::optional<StringRef> element = a->getString("element"))
      k.element = element->str();
    kernel.kernargs.push_back(std::move(k));
  }
  if (const json::Array *args = o->getArray("args"))
    for (const json::Value &v : *args) {
      const json::Object *a = v.getAsObject();
      std::optional<int64_t> index = a ? a->getInteger("index") : std::nullopt;
      std::optional<StringRef> type = a ? a->getString("type") : std::nullopt;
      if (!index || !type || *index != int64_t(kernel.argTypes.size()))
        return malformed("an arg of '" + kernel.name +
                         "' without its index (in order) and type");
      kernel.argTypes.push_back(type->str());
    }
  return kernel;
}

Expected<LaunchDescription> mlir::hk::parseLaunchDescription(StringRef json) {
  Expected<json::Value> parsed = json::parse(json);
  if (!parsed)
    return parsed.takeError();
  const json::Object *root = parsed->getAsObject();
  if (!root)
    return malformed("not a JSON object");
  LaunchDescription out;
  auto string = [&](StringRef key) -> std::optional<std::string> {
    if (std::optional<StringRef> s = root->getString(key))
      return s->str();
    return std::nullopt;
  };
  out.chip = string("chip");
  out.codeObject = string("code_object");
  out.llvmIr = string("llvm_ir");
  const json::Array *kernels = root->getArray("kernels");
  if (!kernels)
    return malformed("no kernels");
  for (const json::Value &k : *kernels) {
    Expected<LaunchDescription::Kernel> kernel = readKernel(k);
    if (!kernel)
      return kernel.takeError();
    out.kernels.push_back(std::move(*kernel));
  }
  return out;
}
