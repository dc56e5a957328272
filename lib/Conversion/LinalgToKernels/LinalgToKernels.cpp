//===- LinalgToKernels.cpp - linalg matmuls to hk kernel launches ---------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The front door for compilers that already have linalg: a matmul (and the
// elementwise epilogue after it) becomes a description for the kernel
// library, the kernel is outlined into a gpu.module and launched with the
// grid its hk.launch gives. The policy (what is served) lives in the kernel
// library's resolveGemm; this file only reads linalg and writes the launch.
//
//===----------------------------------------------------------------------===//

#include "HK/Conversion/Passes.h"
#include "HK/Dialect/HK/IR/HKDialect.h"
#include "HK/Kernels/Gemm.h"
#include "HK/Pipelines/KernelSchedules.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::hk {
#define GEN_PASS_DEF_HKLINALGTOKERNELS
#include "HK/Conversion/Passes.h.inc"
} // namespace mlir::hk

using namespace mlir;
using namespace mlir::hk;
using namespace mlir::hk::kernels;

namespace {
/// A matmul the pass replaces, with the epilogue ops it absorbs.
struct MatchedGemm {
  linalg::LinalgOp matmul;
  GemmDescription description;
  Value a, b, c;
  /// The f32 bias (one per column of C), if an epilogue adds one.
  Value bias;
  /// The f32 scalar an epilogue multiplies C by, if any.
  Value scale;
  /// Whether C holds zeros before the matmul.
  bool zeroC = false;
  /// Epilogue ops folded into the kernel, erased with the matmul.
  SmallVector<Operation *> absorbed;
};
} // namespace

/// Whether `map` selects exactly `dims`, in order.
static bool selects(AffineMap map, ArrayRef<unsigned> dims) {
  if (map.getNumResults() != dims.size())
    return false;
  for (auto [expr, dim] : llvm::zip(map.getResults(), dims)) {
    auto d = dyn_cast<AffineDimExpr>(expr);
    if (!d || d.getPosition() != dim)
      return false;
  }
  return true;
}

/// The BLAS layout of a matmul's indexing maps: loops (b,) m, n, k.
static FailureOr<GemmLayout> readLayout(ArrayRef<AffineMap> maps,
                                        bool batched) {
  SmallVector<unsigned> batch;
  if (batched)
    batch.push_back(0);
  unsigned m = batch.size(), n = m + 1, k = m + 2;
  auto with = [&](std::initializer_list<unsigned> dims) {
    SmallVector<unsigned> all(batch);
    all.append(dims);
    return all;
  };
  if (maps.size() != 3 || !selects(maps[2], with({m, n})))
    return failure();
  bool aPlain = selects(maps[0], with({m, k}));
  bool aTransposed = selects(maps[0], with({k, m}));
  bool bPlain = selects(maps[1], with({k, n}));
  bool bTransposed = selects(maps[1], with({n, k}));
  if ((!aPlain && !aTransposed) || (!bPlain && !bTransposed))
    return failure();
  if (aPlain)
    return bPlain ? GemmLayout::nn : GemmLayout::nt;
  return bPlain ? GemmLayout::tn : GemmLayout::tt;
}

/// Whether `v` is an arith.constant float zero.
static bool isZeroFloat(Value v) {
  auto constant = v.getDefiningOp<arith::ConstantOp>();
  auto value = constant ? dyn_cast<FloatAttr>(constant.getValue()) : nullptr;
  return value && value.getValue().isZero();
}

/// Whether C holds zeros when `matmul` runs: the last op before it in its
/// block that may touch memory is a linalg.fill of zero into C.
static bool followsZeroFill(Operation *matmul, Value c) {
  for (Operation *op = matmul->getPrevNode(); op; op = op->getPrevNode()) {
    if (isMemoryEffectFree(op))
      continue;
    auto fill = dyn_cast<linalg::FillOp>(op);
    return fill && fill.hasPureBufferSemantics() &&
           fill.getDpsInits()[0] == c && isZeroFloat(fill.getInputs()[0]);
  }
  return false;
}

/// The next op after `op` in its block that may touch memory.
static Operation *nextEffecting(Operation *op) {
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode())
    if (!isMemoryEffectFree(next))
      return next;
  return nullptr;
}

/// Strips an extf/truncf around `v` (the generic's C in and out).
static Value throughCasts(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<arith::ExtFOp, arith::TruncFOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

/// An all-parallel linalg.generic on memrefs writing only C in place, its
/// output read through the identity map; its yielded value's producer.
static Operation *elementwiseOnC(linalg::GenericOp g, Value c,
                                 unsigned inputs) {
  if (!g || !g.hasPureBufferSemantics() || g.getDpsInits().size() != 1 ||
      g.getDpsInits()[0] != c || g.getInputs().size() != inputs ||
      g.getNumReductionLoops() != 0 ||
      !g.getMatchingIndexingMap(g.getDpsInitOperand(0)).isIdentity())
    return nullptr;
  auto yield = cast<linalg::YieldOp>(g.getBody()->getTerminator());
  Value out = yield.getValues()[0];
  if (auto trunc = out.getDefiningOp<arith::TruncFOp>())
    out = trunc.getIn();
  return out.getDefiningOp();
}

/// Why a value of `actual` type cannot be passed where a kernel takes
/// `expected` (empty if it can). The kernel receives a data pointer and the
/// sizes and strides its own type leaves dynamic; every offset or stride its
/// type fixes must therefore be fixed to the same value in `actual`, not
/// merely compatible at run time (a memref.cast would assert it there, and
/// the kernel would read the wrong elements where it does not hold).
static std::string whyNotReadable(Type actual, MemRefType expected) {
  auto view = dyn_cast<MemRefType>(actual);
  std::string text;
  llvm::raw_string_ostream os(text);
  if (!view) {
    os << "'" << actual << "' is not a ranked memref";
    return text;
  }
  if (view.getRank() != expected.getRank() ||
      view.getElementType() != expected.getElementType()) {
    os << "'" << view << "' does not fit the kernel's '" << expected << "'";
    return text;
  }
  auto [strides, offset] = view.getStridesAndOffset();
  auto [wanted, wantedOffset] = expected.getStridesAndOffset();
  if (offset != wantedOffset) {
    os << "'" << view << "' has "
       << (ShapedType::isDynamic(offset) ? "a dynamic offset"
                                         : "an offset other than 0")
       << "; the kernel takes '" << expected << "'";
    return text;
  }
  // An identity layout's strides follow from its sizes, even dynamic ones:
  // the view's rows must be contiguous by its type.
  if (expected.getLayout().isIdentity()) {
    if (!view.areTrailingDimsContiguous(view.getRank()))
      os << "'" << view << "' is not contiguous row-major by its type (a "
         << "dynamic or padded stride); the kernel takes '" << expected << "'";
    return text;
  }
  for (auto [dim, have, want] : llvm::enumerate(strides, wanted))
    if (!ShapedType::isDynamic(want) && have != want) {
      os << "'" << view << "' has "
         << (ShapedType::isDynamic(have) ? "a dynamic" : "another")
         << " stride in dimension " << dim << "; the kernel takes '" << expected
         << "'";
      return text;
    }
  return text;
}

/// A generic after the matmul that multiplies C by an f32 scalar defined
/// outside it: the scalar.
static Value matchScale(Operation *op, Value c) {
  auto g = dyn_cast_or_null<linalg::GenericOp>(op);
  auto mul = dyn_cast_or_null<arith::MulFOp>(elementwiseOnC(g, c, 0));
  if (!mul)
    return nullptr;
  Value cIn = g.getBody()->getArgument(0);
  for (auto [x, y] : {std::pair{mul.getLhs(), mul.getRhs()},
                      std::pair{mul.getRhs(), mul.getLhs()}})
    if (throughCasts(x) == cIn && y.getType().isF32() &&
        y.getParentRegion()->isProperAncestor(&g.getRegion()))
      return y;
  return nullptr;
}

/// A generic after the matmul that adds an f32 vector, one value per column
/// of C, to C: the vector.
static Value matchBias(Operation *op, Value c, unsigned rank) {
  auto g = dyn_cast_or_null<linalg::GenericOp>(op);
  auto add = dyn_cast_or_null<arith::AddFOp>(elementwiseOnC(g, c, 1));
  if (!add)
    return nullptr;
  Value bias = g.getInputs()[0];
  auto type = dyn_cast<MemRefType>(bias.getType());
  AffineMap map = g.getMatchingIndexingMap(g.getDpsInputOperand(0));
  if (!type || type.getRank() != 1 || !type.getElementType().isF32() ||
      !selects(map, {rank - 1}) ||
      !whyNotReadable(
           type, MemRefType::get({ShapedType::kDynamic}, type.getElementType()))
           .empty())
    return nullptr;
  Value bIn = g.getBody()->getArgument(0), cIn = g.getBody()->getArgument(1);
  for (auto [x, y] : {std::pair{add.getLhs(), add.getRhs()},
                      std::pair{add.getRhs(), add.getLhs()}})
    if (throughCasts(x) == cIn && y == bIn)
      return bias;
  return nullptr;
}

/// Reads `op` into a description and its operands, or says why not.
static FailureOr<MatchedGemm> matchGemm(linalg::LinalgOp op, Chip chip,
                                        std::string &why) {
  MatchedGemm g;
  g.matmul = op;
  bool batched =
      isa<linalg::BatchMatmulOp>(op) ||
      (isa<linalg::ContractOp, linalg::GenericOp>(op) && op.getNumLoops() == 4);
  if (!op.hasPureBufferSemantics()) {
    why = "it works on tensors; hk-linalg-to-kernels takes memrefs "
          "(bufferize first: hk-opt --one-shot-bufferize='bufferize-function-"
          "boundaries function-boundary-type-conversion=identity-layout-map')";
    return failure();
  }
  FailureOr<GemmLayout> layout = readLayout(op.getIndexingMapsArray(), batched);
  if (failed(layout)) {
    why = "its indexing maps are not a (batched) matmul with A and B plain "
          "or transposed";
    return failure();
  }
  g.a = op.getDpsInputOperand(0)->get();
  g.b = op.getDpsInputOperand(1)->get();
  g.c = op.getDpsInitOperand(0)->get();
  Type aType = getElementTypeOrSelf(g.a.getType());
  Type cType = getElementTypeOrSelf(g.c.getType());
  std::optional<ElementKind> ab = getElementKind(aType);
  std::optional<ElementKind> result = getElementKind(cType);
  if (!ab || (*ab != ElementKind::bf16 && !isFp8(*ab)) ||
      aType != getElementTypeOrSelf(g.b.getType())) {
    why = "A and B must both hold bf16, f8E4M3FN or f8E5M2";
    return failure();
  }
  if (!result || isFp8(*result)) {
    why = "C must hold bf16, f16 or f32";
    return failure();
  }
  for (auto [name, value, element] :
       {std::tuple{"A", g.a, aType}, {"B", g.b, aType}, {"C", g.c, cType}})
    if (std::string problem = whyNotReadable(
            value.getType(), getGemmMatrixType(element, batched));
        !problem.empty()) {
      why = std::string(name) + " is a view the kernel cannot read: " + problem;
      return failure();
    }

  GemmDescription &d = g.description;
  d.chip = chip;
  d.operands = *ab;
  d.result = *result;
  d.layout = *layout;
  d.batched = batched;
  g.zeroC = followsZeroFill(op, g.c);

  // The epilogue: C *= s, then C += bias, each an optional generic.
  Operation *next = nextEffecting(op);
  g.scale = matchScale(next, g.c);
  if (g.scale) {
    g.absorbed.push_back(next);
    next = nextEffecting(next);
  }
  if (Value bias = matchBias(next, g.c, batched ? 3 : 2)) {
    g.bias = bias;
    g.absorbed.push_back(next);
  }
  d.epilogue.bias = bool(g.bias);
  d.epilogue.alphaBeta = g.scale || !g.zeroC;
  if (isFp8(*ab) && d.epilogue.any()) {
    why = !g.zeroC ? "an fp8 kernel overwrites C, and this matmul accumulates "
                     "into a C that is not filled with zeros first"
                   : "an fp8 kernel takes no epilogue";
    return failure();
  }
  llvm::Expected<GemmDescription> resolved = resolveGemm(d);
  if (!resolved) {
    why = llvm::toString(resolved.takeError());
    return failure();
  }
  d = *resolved;
  return g;
}

namespace {
struct LinalgToKernels
    : public hk::impl::HKLinalgToKernelsBase<LinalgToKernels> {
  using Base::Base;

  void runOnOperation() override;

private:
  /// The kernel serving `d`, outlined into the module once per description.
  FailureOr<gpu::GPUFuncOp> getKernel(const GemmDescription &d,
                                      SymbolTable &symbols, Location loc);
  void launch(MatchedGemm &g, gpu::GPUFuncOp kernel);

  llvm::StringMap<gpu::GPUFuncOp> kernels;
};
} // namespace

static std::string getKernelName(const GemmDescription &d) {
  return getGemmKernelName(d) +
         (d.operands == ElementKind::f8e5m2 ? "_e5m2" : "") + "_" +
         stringifyGemmLayout(d.layout).str() +
         (d.epilogue.alphaBeta ? "_alpha_beta" : "") +
         (d.epilogue.bias ? "_bias" : "");
}

FailureOr<gpu::GPUFuncOp> LinalgToKernels::getKernel(const GemmDescription &d,
                                                     SymbolTable &symbols,
                                                     Location loc) {
  std::string key = getKernelName(d);
  auto it = kernels.find(key);
  if (it != kernels.end())
    return it->second;
  ModuleOp module = getOperation();
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(loc);
  OpBuilder b(scratch->getBody(), scratch->getBody()->end());
  llvm::Expected<gpu::GPUModuleOp> kernel = buildGemmKernel(b, d);
  if (!kernel) {
    module.emitError() << "hk-linalg-to-kernels: "
                       << llvm::toString(kernel.takeError());
    return failure();
  }
  gpu::GPUModuleOp gpuModule = *kernel;
  gpuModule->remove();
  symbols.insert(gpuModule, module.getBody()->end());
  // One name per kernel of the program, saying what differs: the layout and
  // the epilogue (gemm_bf16_nt, gemm_fp8_e5m2_nt,
  // gemm_bf16_cf32_batched_tn_bias).
  auto func = *gpuModule.getOps<gpu::GPUFuncOp>().begin();
  func.setName(getKernelName(d));
  if (schedule == KernelScheduleChoice::fastest) {
    ScheduleSettings fastest = getFastestSchedule(d);
    if (fastest != ScheduleSettings())
      gpuModule->setAttr(HKDialect::getScheduleAttrName(),
                         ScheduleAttr::get(module.getContext(), fastest));
  }
  kernels[key] = func;
  return func;
}

void LinalgToKernels::launch(MatchedGemm &g, gpu::GPUFuncOp kernel) {
  Operation *op = g.matmul;
  Location loc = op->getLoc();
  OpBuilder b(op);
  auto cast = [&](Value v, Type t) -> Value {
    if (v.getType() == t)
      return v;
    return memref::CastOp::create(b, loc, t, v);
  };
  ArrayRef<Type> types = kernel.getArgumentTypes();
  SmallVector<Value> args = {cast(g.a, types[0]), cast(g.b, types[1]),
                             cast(g.c, types[2])};
  if (isFp8(g.description.operands)) {
    // Per-tensor scales of 1: linalg's product is unscaled.
    Value one = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1.0));
    args.append({one, one});
  }
  if (g.bias)
    args.push_back(cast(g.bias, types[args.size()]));
  if (g.description.epilogue.alphaBeta) {
    // C = alpha A B + beta C: the scale multiplies both the product and what
    // C held; C's old value counts once without a scale, not at all after a
    // zero fill.
    auto constant = [&](double v) -> Value {
      return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
    };
    Value alpha = g.scale ? g.scale : constant(1.0);
    args.append({alpha, g.zeroC ? constant(0.0) : alpha});
  }

  // The grid from hk.launch: size / tile, rounded up for ceildiv terms.
  auto launchAttr =
      kernel->getAttrOfType<LaunchAttr>(HKDialect::getLaunchAttrName());
  llvm::SmallDenseMap<int64_t, Value> indices;
  auto index = [&](int64_t v) {
    Value &c = indices[v];
    if (!c)
      c = arith::ConstantIndexOp::create(b, loc, v);
    return c;
  };
  SmallVector<Value, 3> grid;
  for (const SizeTerm &term : launchAttr.getGrid()) {
    Value size = memref::DimOp::create(b, loc, args[term.arg], index(term.dim));
    Value factor = index(term.factor);
    grid.push_back(term.roundUp
                       ? Value(arith::CeilDivUIOp::create(b, loc, size, factor))
                       : Value(arith::DivUIOp::create(b, loc, size, factor)));
  }
  while (grid.size() < 3)
    grid.push_back(index(1));
  ArrayRef<int32_t> block = kernel.getKnownBlockSizeAttr().asArrayRef();
  gpu::LaunchFuncOp::create(b, loc, kernel, {grid[0], grid[1], grid[2]},
                            {index(block[0]), index(block[1]), index(block[2])},
                            /*dynamicSharedMemorySize=*/nullptr, args);
  for (Operation *absorbed : llvm::reverse(g.absorbed))
    absorbed->erase();
  op->erase();
}

/// Strips an extf from `v`.
static Value throughExtF(Value v) {
  if (auto ext = v.getDefiningOp<arith::ExtFOp>())
    return ext.getIn();
  return v;
}

/// Whether `g` computes what a (batched) matmul of its maps computes: its
/// loops are parallel but the last, a reduction, and its body is
/// C + cast(A) * cast(B) with the product in C's type, as the named op
/// defines it.
static bool isMatmulGeneric(linalg::GenericOp g) {
  if (g.getNumDpsInputs() != 2 || g.getNumDpsInits() != 1 ||
      g.getNumReductionLoops() != 1 ||
      g.getIteratorTypesArray().back() != utils::IteratorType::reduction)
    return false;
  Block *body = g.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto add = yield.getValues()[0].getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value c = body->getArgument(2);
  Value product = add.getLhs() == c ? add.getRhs() : add.getLhs();
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if (!mul || (add.getLhs() != c && add.getRhs() != c) ||
      mul.getType() != c.getType())
    return false;
  Value x = throughExtF(mul.getLhs()), y = throughExtF(mul.getRhs());
  Value a = body->getArgument(0), b = body->getArgument(1);
  return ((x == a && y == b) || (x == b && y == a)) &&
         body->getOperations().size() <= 5;
}

/// The matmuls of host code, in order: linalg.matmul, linalg.batch_matmul,
/// linalg.contract, and linalg.generic ops that are matmuls by their maps
/// and body. The generic is read as it is: upstream's
/// linalg-specialize-generic-ops (LLVM 22) turns a generic with B transposed
/// into a plain linalg.matmul, dropping the transpose. Other generic
/// contractions get a remark.
static SmallVector<linalg::LinalgOp> collectMatmuls(ModuleOp module) {
  SmallVector<linalg::LinalgOp> matmuls;
  module.walk([&](linalg::LinalgOp op) {
    if (op->getParentOfType<gpu::GPUModuleOp>())
      return;
    if (isa<linalg::MatmulOp, linalg::BatchMatmulOp, linalg::ContractOp>(op)) {
      matmuls.push_back(op);
      return;
    }
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic || !linalg::isaContractionOpInterface(op))
      return;
    if (isMatmulGeneric(generic))
      matmuls.push_back(op);
    else
      op->emitRemark() << "hk-linalg-to-kernels: left alone: a contraction "
                          "whose body is not C + A * B (with casts to C's "
                          "type)";
  });
  return matmuls;
}

void LinalgToKernels::runOnOperation() {
  ModuleOp module = getOperation();
  if (!chip.hasValue()) {
    module.emitError() << "hk-linalg-to-kernels needs its chip option: "
                          "hk-linalg-to-kernels='chip=<chip>' (supported: "
                       << describeSupportedChips() << ")";
    return signalPassFailure();
  }
  Chip target = chip.getValue();
  SmallVector<linalg::LinalgOp> matmuls = collectMatmuls(module);
  SymbolTable symbols(module);
  for (linalg::LinalgOp op : matmuls) {
    std::string why;
    FailureOr<MatchedGemm> g = matchGemm(op, target, why);
    if (failed(g)) {
      op->emitRemark() << "hk-linalg-to-kernels: left alone: " << why;
      continue;
    }
    FailureOr<gpu::GPUFuncOp> kernel =
        getKernel(g->description, symbols, op.getLoc());
    if (failed(kernel))
      return signalPassFailure();
    launch(*g, *kernel);
  }
  if (!kernels.empty())
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(module.getContext()));
}
