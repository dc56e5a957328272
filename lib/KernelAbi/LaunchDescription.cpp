//===- LaunchDescription.cpp - hk-compile's launch descriptions -----------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HK/KernelAbi/LaunchDescription.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace llvm;
using namespace mlir;
using namespace mlir::hk;

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

static json::Array writeTerms(ArrayRef<SizeTerm> terms, StringRef factor) {
  json::Array out;
  for (const SizeTerm &t : terms) {
    json::Object o{{"arg", t.arg}, {"dim", t.dim}, {factor, t.factor}};
    if (t.roundUp)
      o["round"] = "up";
    out.push_back(std::move(o));
  }
  return out;
}

static json::Object writeKernel(const LaunchDescription::Kernel &kernel) {
  json::Array args, kernargs;
  for (auto [i, type] : llvm::enumerate(kernel.argTypes))
    args.push_back(json::Object{{"index", int64_t(i)}, {"type", type}});
  for (const LaunchDescription::Kernarg &a : kernel.kernargs) {
    json::Object o{{"kind", stringifyKernelAbiKind(a.entry.kind)},
                   {"arg", int64_t(a.entry.arg)}};
    if (a.entry.hasDim())
      o["dim"] = a.entry.dim;
    else if (!a.type.empty())
      o[a.entry.kind == KernelAbiEntry::Kind::pointer ? "element" : "type"] =
          a.type;
    kernargs.push_back(std::move(o));
  }
  json::Object out{{"name", kernel.name},
                   {"args", std::move(args)},
                   {"kernargs", std::move(kernargs)}};
  if (kernel.block)
    out["block"] = json::Array(*kernel.block);
  if (kernel.launch) {
    out["grid"] = writeTerms(kernel.launch->grid, "tile");
    out["divisible"] = writeTerms(kernel.launch->divisible, "by");
  }
  if (kernel.transposeA)
    out["transpose_a"] = *kernel.transposeA;
  if (kernel.transposeB)
    out["transpose_b"] = *kernel.transposeB;
  return out;
}

std::string
mlir::hk::writeLaunchDescription(const LaunchDescription &description) {
  json::Array kernels;
  for (const LaunchDescription::Kernel &kernel : description.kernels)
    kernels.push_back(writeKernel(kernel));
  json::Object out{{"chip", stringifyChip(description.chip)},
                   {"kernels", std::move(kernels)}};
  if (description.codeObject)
    out["code_object"] = *description.codeObject;
  if (description.llvmIr)
    out["llvm_ir"] = *description.llvmIr;
  return formatv("{0:2}\n", json::Value(std::move(out))).str();
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

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

/// The argument types under "args" (in index order), if any.
static Error readArgTypes(const json::Object &o,
                          LaunchDescription::Kernel &kernel) {
  const json::Array *args = o.getArray("args");
  if (!args)
    return Error::success();
  for (const json::Value &v : *args) {
    const json::Object *a = v.getAsObject();
    std::optional<int64_t> index = a ? a->getInteger("index") : std::nullopt;
    std::optional<StringRef> type = a ? a->getString("type") : std::nullopt;
    if (!index || !type || *index != int64_t(kernel.argTypes.size()))
      return malformed("an arg of '" + kernel.name +
                       "' without its index (in order) and type");
    kernel.argTypes.push_back(type->str());
  }
  return Error::success();
}

static Error readKernargs(const json::Object &o,
                          LaunchDescription::Kernel &kernel) {
  const json::Array *kernargs = o.getArray("kernargs");
  if (!kernargs)
    return malformed("'" + kernel.name + "' has no kernargs");
  for (const json::Value &v : *kernargs) {
    const json::Object *a = v.getAsObject();
    std::optional<StringRef> kindName = a ? a->getString("kind") : std::nullopt;
    std::optional<int64_t> arg = a ? a->getInteger("arg") : std::nullopt;
    if (!kindName || !arg)
      return malformed("a kernarg of '" + kernel.name +
                       "' without a kind and an arg");
    std::optional<KernelAbiEntry::Kind> kind =
        symbolizeKernelAbiKind(*kindName);
    if (!kind)
      return malformed("a kernarg of '" + kernel.name + "' of unknown kind '" +
                       *kindName + "'");
    if (*arg < 0 ||
        (!kernel.argTypes.empty() && *arg >= int64_t(kernel.argTypes.size())))
      return malformed(formatv("a kernarg of '{0}' names argument {1} of {2}",
                               kernel.name, *arg, kernel.argTypes.size()));
    LaunchDescription::Kernarg k{{*kind, unsigned(*arg)}, {}};
    if (k.entry.hasDim()) {
      std::optional<int64_t> dim = a->getInteger("dim");
      if (!dim)
        return malformed("a " + *kindName + " of '" + kernel.name +
                         "' without a dim");
      k.entry.dim = *dim;
    } else if (std::optional<StringRef> type = a->getString(
                   *kind == KernelAbiEntry::Kind::pointer ? "element"
                                                          : "type")) {
      k.type = type->str();
    }
    kernel.kernargs.push_back(std::move(k));
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
  // hk-compile writes grid terms only for a kernel with hk.launch.
  if (o->get("grid")) {
    LaunchDescription::Launch launch;
    if (Error e = readTerms(*o, "grid", "tile", false, launch.grid))
      return where(toString(std::move(e)));
    if (Error e = readTerms(*o, "divisible", "by", true, launch.divisible))
      return where(toString(std::move(e)));
    kernel.launch = std::move(launch);
  }
  const json::Array *block = o->getArray("block");
  if (!block || block->size() != 3)
    return malformed("'" + kernel.name + "' has no block of 3 sizes");
  kernel.block.emplace();
  for (unsigned i = 0; i < 3; ++i) {
    std::optional<int64_t> n = (*block)[i].getAsInteger();
    if (!n)
      return malformed("'" + kernel.name + "' has a non-integer block size");
    (*kernel.block)[i] = *n;
  }
  if (Error e = readArgTypes(*o, kernel))
    return std::move(e);
  if (Error e = readKernargs(*o, kernel))
    return std::move(e);
  for (auto [key, field] : {std::pair{"transpose_a", &kernel.transposeA},
                            std::pair{"transpose_b", &kernel.transposeB}}) {
    if (!o->get(key))
      continue;
    *field = o->getBoolean(key);
    if (!*field)
      return where(std::string("a non-boolean '") + key + "'");
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
  std::optional<StringRef> chipName = root->getString("chip");
  if (!chipName)
    return malformed("no chip");
  std::optional<Chip> chip = symbolizeChip(*chipName);
  if (!chip)
    return malformed("an unknown chip '" + *chipName + "'");
  out.chip = *chip;
  auto string = [&](StringRef key) -> std::optional<std::string> {
    if (std::optional<StringRef> s = root->getString(key))
      return s->str();
    return std::nullopt;
  };
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
