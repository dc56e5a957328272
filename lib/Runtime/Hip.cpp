//===- Hip.cpp - the HIP backend ------------------------------------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// This file implements the HIP backend through the HIP runtime's C API,
// resolved with dlopen so hk builds and runs where ROCm is absent. Only the
// handful of entry points below are used; their signatures are those of
// hip_runtime_api.h (handles are pointers, errors are ints, 0 = success).
//
//===----------------------------------------------------------------------===//

#include "HK/Runtime/Hip.h"

#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace llvm;
using namespace mlir::hk;
using namespace mlir::hk::hip;

char UnavailableError::ID = 0;

double Timing::median() const {
  std::vector<double> sorted = milliseconds;
  std::sort(sorted.begin(), sorted.end());
  return sorted.empty() ? 0 : sorted[sorted.size() / 2];
}

namespace {

using hipError = int;
constexpr int kHostToDevice = 1, kDeviceToHost = 2;

/// Opens the first of `names` that loads (the development symlink, then the
/// versioned names runtime-only installs have) and binds symbols from it;
/// `failure` holds the first problem, for messages.
struct LibraryBinder {
  LibraryBinder(ArrayRef<const char *> names, StringRef what)
      : name(names.front()) {
    std::string firstError;
    for (const char *candidate : names) {
      std::string error;
      lib = sys::DynamicLibrary::getPermanentLibrary(candidate, &error);
      if (lib.isValid())
        return;
      if (firstError.empty())
        firstError = error;
    }
    failure = ("no " + what + ": cannot load " + name + " (" + firstError + ")")
                  .str();
  }

  template <typename Fn> void bind(Fn *&fn, const char *symbol) {
    if (!lib.isValid())
      return;
    fn = reinterpret_cast<Fn *>(lib.getAddressOfSymbol(symbol));
    if (!fn && failure.empty())
      failure = (name + " lacks " + symbol).str();
  }

  StringRef name;
  sys::DynamicLibrary lib;
  std::string failure;
};

/// The entry points `Api` from the first of `names` that loads, bound by
/// `bindAll` once per process; later calls return the same outcome.
template <typename Api>
Expected<const Api *>
loadOnce(ArrayRef<const char *> names, StringRef what,
         function_ref<void(LibraryBinder &, Api &)> bindAll) {
  static Api api;
  static const std::string failure = [&] {
    LibraryBinder binder(names, what);
    bindAll(binder, api);
    return binder.failure;
  }();
  if (!failure.empty())
    return make_error<UnavailableError>(failure);
  return &api;
}

/// The HIP entry points hk uses.
struct HipApi {
  hipError (*init)(unsigned);
  hipError (*getDeviceCount)(int *);
  const char *(*getErrorString)(hipError);
  hipError (*moduleLoadData)(void **, const void *);
  hipError (*moduleUnload)(void *);
  hipError (*moduleGetFunction)(void **, void *, const char *);
  hipError (*malloc)(void **, size_t);
  hipError (*free)(void *);
  hipError (*memcpy)(void *, const void *, size_t, int);
  hipError (*moduleLaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned,
                                 unsigned, unsigned, unsigned, void *, void **,
                                 void **);
  hipError (*deviceSynchronize)();
  hipError (*eventCreate)(void **);
  hipError (*eventRecord)(void *, void *);
  hipError (*eventSynchronize)(void *);
  hipError (*eventElapsedTime)(float *, void *, void *);
  hipError (*eventDestroy)(void *);
};

Expected<const HipApi *> loadHip() {
  return loadOnce<HipApi>(
      {"libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6",
       "libamdhip64.so.5"},
      "HIP runtime", [](LibraryBinder &b, HipApi &api) {
        b.bind(api.init, "hipInit");
        b.bind(api.getDeviceCount, "hipGetDeviceCount");
        b.bind(api.getErrorString, "hipGetErrorString");
        b.bind(api.moduleLoadData, "hipModuleLoadData");
        b.bind(api.moduleUnload, "hipModuleUnload");
        b.bind(api.moduleGetFunction, "hipModuleGetFunction");
        b.bind(api.malloc, "hipMalloc");
        b.bind(api.free, "hipFree");
        b.bind(api.memcpy, "hipMemcpy");
        b.bind(api.moduleLaunchKernel, "hipModuleLaunchKernel");
        b.bind(api.deviceSynchronize, "hipDeviceSynchronize");
        b.bind(api.eventCreate, "hipEventCreate");
        b.bind(api.eventRecord, "hipEventRecord");
        b.bind(api.eventSynchronize, "hipEventSynchronize");
        b.bind(api.eventElapsedTime, "hipEventElapsedTime");
        b.bind(api.eventDestroy, "hipEventDestroy");
      });
}

/// `error` as an llvm::Error naming `what`, or success.
Error checkHip(const HipApi &hip, hipError error, StringRef what) {
  if (error == 0)
    return Error::success();
  return createStringError(
      inconvertibleErrorCode(),
      formatv("{0} failed: {1} ({2})", what, hip.getErrorString(error), error));
}

/// Runs `launch` `iterations` times, each between two events on the null
/// stream, appending each run's milliseconds to `timing`.
Error timeRuns(const HipApi &hip, function_ref<Error()> launch, int iterations,
               Timing &timing) {
  void *start = nullptr, *stop = nullptr;
  Error e = checkHip(hip, hip.eventCreate(&start), "hipEventCreate");
  if (!e)
    e = checkHip(hip, hip.eventCreate(&stop), "hipEventCreate");
  for (int i = 0; !e && i < iterations; ++i) {
    float ms = 0;
    e = checkHip(hip, hip.eventRecord(start, nullptr), "hipEventRecord");
    if (!e)
      e = launch();
    if (!e)
      e = checkHip(hip, hip.eventRecord(stop, nullptr), "hipEventRecord");
    if (!e)
      e = checkHip(hip, hip.eventSynchronize(stop), "hipEventSynchronize");
    if (!e)
      e = checkHip(hip, hip.eventElapsedTime(&ms, start, stop),
                   "hipEventElapsedTime");
    if (!e)
      timing.milliseconds.push_back(ms);
  }
  if (start)
    hip.eventDestroy(start);
  if (stop)
    hip.eventDestroy(stop);
  return e;
}

/// The measurement both hk kernels and the rocBLAS baseline get: one
/// launch whose results `copyBack` fetches (for checking; `what` names it in
/// errors), `warmup` untimed launches, then `iterations` timed ones.
Error runCheckedThenTimed(const HipApi &hip, function_ref<Error()> launch,
                          function_ref<Error()> copyBack, StringRef what,
                          int warmup, int iterations, Timing &timing) {
  if (Error e = launch())
    return e;
  if (Error e = checkHip(hip, hip.deviceSynchronize(), what))
    return e;
  if (Error e = copyBack())
    return e;
  for (int i = 0; i < warmup; ++i)
    if (Error e = launch())
      return e;
  return timeRuns(hip, launch, iterations, timing);
}

/// An UnavailableError unless the HIP runtime sees a GPU.
Error requireDevice(const HipApi &hip) {
  int devices = 0;
  if (hip.init(0) != 0 || hip.getDeviceCount(&devices) != 0 || devices == 0)
    return make_error<UnavailableError>(
        "no AMD GPU: the HIP runtime reports no device");
  return Error::success();
}

/// The end both library baselines share: unless `e` already failed, one
/// checked run of `launch` (C copied back from `dc` into `c`), then the timed
/// ones; `release` frees what the caller set up, in any case.
Expected<Timing> finishLibraryRun(const HipApi &hip, Error e,
                                  function_ref<Error()> launch, const void *dc,
                                  std::vector<uint8_t> &c, StringRef what,
                                  int warmup, int iterations,
                                  function_ref<void()> release) {
  auto copyBack = [&] {
    return checkHip(hip, hip.memcpy(c.data(), dc, c.size(), kDeviceToHost),
                    "copying C back");
  };
  Timing timing;
  if (!e)
    e = runCheckedThenTimed(hip, launch, copyBack, what, warmup, iterations,
                            timing);
  release();
  if (e)
    return std::move(e);
  return timing;
}

/// A library call's status as an error naming it.
Error libraryStatus(int status, StringRef what) {
  if (status == 0)
    return Error::success();
  return createStringError(inconvertibleErrorCode(),
                           formatv("{0} failed: status {1}", what, status));
}

// rocBLAS's C ABI (rocblas-types.h): the enumerators rocblas_gemm_ex takes.
using rocblasStatus = int;
constexpr int kRocblasOperationNone = 111, kRocblasOperationTranspose = 112;
constexpr int kRocblasBf16 = 168, kRocblasF32 = 151;
constexpr int kRocblasAlgoStandard = 0;

struct RocblasApi {
  rocblasStatus (*createHandle)(void **);
  rocblasStatus (*destroyHandle)(void *);
  rocblasStatus (*gemmEx)(void *, int, int, int, int, int, const void *,
                          const void *, int, int, const void *, int, int,
                          const void *, const void *, int, int, void *, int,
                          int, int, int, int32_t, uint32_t);
};

Expected<const RocblasApi *> loadRocblas() {
  return loadOnce<RocblasApi>(
      {"librocblas.so", "librocblas.so.5", "librocblas.so.4"}, "rocBLAS",
      [](LibraryBinder &b, RocblasApi &api) {
        b.bind(api.createHandle, "rocblas_create_handle");
        b.bind(api.destroyHandle, "rocblas_destroy_handle");
        b.bind(api.gemmEx, "rocblas_gemm_ex");
      });
}

// hipBLASLt's C ABI (hipblaslt.h, hipblas-common.h, HIP's
// library_types.h, ROCm 6.3 on): enumerators and the two structs a caller
// allocates. hipBLASLt is column-major, like cuBLASLt.
using hipblasStatus = int;
constexpr int kHipblasOpN = 111, kHipblasOpT = 112;
constexpr int kHipR32F = 0, kHipR16BF = 14, kHipR8FE4M3 = 28, kHipR8FE5M2 = 29;
constexpr int kHipblasCompute32F = 2;
constexpr int kDescTransA = 0, kDescTransB = 1, kDescAScalePointer = 5,
              kDescBScalePointer = 6;
constexpr int kPrefMaxWorkspaceBytes = 1;
constexpr uint64_t kWorkspaceBytes = 64 << 20;

struct HipblasLtAlgo {
  uint8_t data[16];
  size_t maxWorkspaceBytes;
};
struct HipblasLtHeuristicResult {
  HipblasLtAlgo algo;
  size_t workspaceSize;
  hipblasStatus state;
  float wavesCount;
  int reserved[4];
};
static_assert(sizeof(HipblasLtHeuristicResult) == 56,
              "hipblasLtMatmulHeuristicResult_t is 56 bytes");

struct HipblasLtApi {
  hipblasStatus (*create)(void **);
  hipblasStatus (*destroy)(void *);
  hipblasStatus (*descCreate)(void **, int, int);
  hipblasStatus (*descDestroy)(void *);
  hipblasStatus (*descSetAttribute)(void *, int, const void *, size_t);
  hipblasStatus (*layoutCreate)(void **, int, uint64_t, uint64_t, int64_t);
  hipblasStatus (*layoutDestroy)(void *);
  hipblasStatus (*preferenceCreate)(void **);
  hipblasStatus (*preferenceDestroy)(void *);
  hipblasStatus (*preferenceSetAttribute)(void *, int, const void *, size_t);
  hipblasStatus (*algoGetHeuristic)(void *, void *, void *, void *, void *,
                                    void *, void *, int,
                                    HipblasLtHeuristicResult *, int *);
  hipblasStatus (*matmul)(void *, void *, const void *, const void *, void *,
                          const void *, void *, const void *, const void *,
                          void *, void *, void *, const HipblasLtAlgo *, void *,
                          size_t, void *);
};

Expected<const HipblasLtApi *> loadHipblasLt() {
  return loadOnce<HipblasLtApi>(
      {"libhipblaslt.so", "libhipblaslt.so.1", "libhipblaslt.so.0"},
      "hipBLASLt", [](LibraryBinder &b, HipblasLtApi &api) {
        b.bind(api.create, "hipblasLtCreate");
        b.bind(api.destroy, "hipblasLtDestroy");
        b.bind(api.descCreate, "hipblasLtMatmulDescCreate");
        b.bind(api.descDestroy, "hipblasLtMatmulDescDestroy");
        b.bind(api.descSetAttribute, "hipblasLtMatmulDescSetAttribute");
        b.bind(api.layoutCreate, "hipblasLtMatrixLayoutCreate");
        b.bind(api.layoutDestroy, "hipblasLtMatrixLayoutDestroy");
        b.bind(api.preferenceCreate, "hipblasLtMatmulPreferenceCreate");
        b.bind(api.preferenceDestroy, "hipblasLtMatmulPreferenceDestroy");
        b.bind(api.preferenceSetAttribute,
               "hipblasLtMatmulPreferenceSetAttribute");
        b.bind(api.algoGetHeuristic, "hipblasLtMatmulAlgoGetHeuristic");
        b.bind(api.matmul, "hipblasLtMatmul");
      });
}

} // namespace

Expected<Timing> mlir::hk::hip::run(StringRef image, StringRef kernel,
                                    std::array<int64_t, 3> grid,
                                    std::array<int64_t, 3> block,
                                    std::vector<Argument> &arguments,
                                    int warmup, int iterations) {
  auto loaded = loadHip();
  if (!loaded)
    return loaded.takeError();
  const HipApi &hip = **loaded;
  auto check = [&](hipError e, StringRef what) {
    return checkHip(hip, e, what);
  };
  if (Error e = requireDevice(hip))
    return std::move(e);

  void *module = nullptr, *function = nullptr;
  if (Error e = check(hip.moduleLoadData(&module, image.data()),
                      "loading the code object"))
    return std::move(e);
  std::vector<void *> device(arguments.size(), nullptr);
  auto release = [&] {
    for (void *p : device)
      if (p)
        hip.free(p);
    hip.moduleUnload(module);
  };
  if (Error e =
          check(hip.moduleGetFunction(&function, module, kernel.str().c_str()),
                "finding kernel '" + kernel.str() + "'")) {
    release();
    return std::move(e);
  }
  // One pointer per argument to its value, CUDA style.
  std::vector<void *> params(arguments.size());
  for (size_t i = 0; i < arguments.size(); ++i) {
    Argument &arg = arguments[i];
    if (arg.buffer) {
      Error e = check(hip.malloc(&device[i], arg.buffer->size()), "hipMalloc");
      if (!e)
        e = check(hip.memcpy(device[i], arg.buffer->data(), arg.buffer->size(),
                             kHostToDevice),
                  "copying an input to the device");
      if (e) {
        release();
        return std::move(e);
      }
      params[i] = &device[i];
    } else {
      params[i] = &arg.value;
    }
  }
  auto launch = [&]() {
    return check(hip.moduleLaunchKernel(function, grid[0], grid[1], grid[2],
                                        block[0], block[1], block[2], 0,
                                        nullptr, params.data(), nullptr),
                 "launching the kernel");
  };

  auto copyBack = [&]() -> Error {
    for (size_t i = 0; i < arguments.size(); ++i)
      if (arguments[i].buffer && arguments[i].output)
        if (Error e =
                check(hip.memcpy(arguments[i].buffer->data(), device[i],
                                 arguments[i].buffer->size(), kDeviceToHost),
                      "copying an output back"))
          return e;
    return Error::success();
  };
  Timing timing;
  Error e = runCheckedThenTimed(hip, launch, copyBack, "running the kernel",
                                warmup, iterations, timing);
  release();
  if (e)
    return std::move(e);
  return timing;
}

Expected<Timing> mlir::hk::hip::rocblasGemm(const std::vector<uint8_t> &a,
                                            const std::vector<uint8_t> &b,
                                            std::vector<uint8_t> &c, int64_t m,
                                            int64_t n, int64_t k,
                                            bool transposeA, bool transposeB,
                                            int warmup, int iterations) {
  auto loaded = loadHip();
  if (!loaded)
    return loaded.takeError();
  const HipApi &hip = **loaded;
  if (Error e = requireDevice(hip))
    return std::move(e);
  auto blasLoaded = loadRocblas();
  if (!blasLoaded)
    return blasLoaded.takeError();
  const RocblasApi &blas = **blasLoaded;

  void *handle = nullptr, *da = nullptr, *db = nullptr, *dc = nullptr;
  auto release = [&] {
    for (void *p : {da, db, dc})
      if (p)
        hip.free(p);
    if (handle)
      blas.destroyHandle(handle);
  };
  rocblasStatus created = blas.createHandle(&handle);
  Error e = libraryStatus(created, "rocblas_create_handle");
  if (!e)
    e = checkHip(hip, hip.malloc(&da, a.size()), "hipMalloc");
  if (!e)
    e = checkHip(hip, hip.malloc(&db, b.size()), "hipMalloc");
  if (!e)
    e = checkHip(hip, hip.malloc(&dc, c.size()), "hipMalloc");
  if (!e)
    e = checkHip(hip, hip.memcpy(da, a.data(), a.size(), kHostToDevice),
                 "copying A to the device");
  if (!e)
    e = checkHip(hip, hip.memcpy(db, b.data(), b.size(), kHostToDevice),
                 "copying B to the device");
  // rocBLAS is column-major: row-major C[M,N] is column-major C^T (N x M),
  // and C^T = B A^T. Row-major B[N,K] read column-major is B^T (transpose
  // it back, ld K); B stored K x N read so is B itself (ld N). Row-major
  // A[M,K] read column-major is A^T (as needed, ld K); A stored K x M is A
  // (transpose it, ld M).
  float alpha = 1.0f, beta = 0.0f;
  int opB = transposeB ? kRocblasOperationTranspose : kRocblasOperationNone;
  int opA = transposeA ? kRocblasOperationTranspose : kRocblasOperationNone;
  int64_t ldb = transposeB ? k : n, lda = transposeA ? m : k;
  auto launch = [&]() -> Error {
    rocblasStatus status =
        blas.gemmEx(handle, opB, opA, n, m, k, &alpha, db, kRocblasBf16, ldb,
                    da, kRocblasBf16, lda, &beta, dc, kRocblasBf16, n, dc,
                    kRocblasBf16, n, kRocblasF32, kRocblasAlgoStandard,
                    /*solution_index=*/0, /*flags=*/0);
    return libraryStatus(status, "rocblas_gemm_ex");
  };
  return finishLibraryRun(hip, std::move(e), launch, dc, c,
                          "running rocblas_gemm_ex", warmup, iterations,
                          release);
}

Expected<Timing> mlir::hk::hip::hipblasLtFp8Gemm(
    const std::vector<uint8_t> &a, const std::vector<uint8_t> &b,
    std::vector<uint8_t> &c, int64_t m, int64_t n, int64_t k, bool e5m2,
    bool f32Output, float scaleA, float scaleB, int warmup, int iterations) {
  auto loaded = loadHip();
  if (!loaded)
    return loaded.takeError();
  const HipApi &hip = **loaded;
  if (Error e = requireDevice(hip))
    return std::move(e);
  auto ltLoaded = loadHipblasLt();
  if (!ltLoaded)
    return ltLoaded.takeError();
  const HipblasLtApi &lt = **ltLoaded;

  void *handle = nullptr, *desc = nullptr, *pref = nullptr;
  void *layouts[3] = {nullptr, nullptr, nullptr};
  void *da = nullptr, *db = nullptr, *dc = nullptr, *dScales = nullptr,
       *workspace = nullptr;
  auto release = [&] {
    for (void *p : {da, db, dc, dScales, workspace})
      if (p)
        hip.free(p);
    for (void *l : layouts)
      if (l)
        lt.layoutDestroy(l);
    if (pref)
      lt.preferenceDestroy(pref);
    if (desc)
      lt.descDestroy(desc);
    if (handle)
      lt.destroy(handle);
  };
  Error e = Error::success();
  auto call = [&](hipblasStatus status, StringRef what) {
    if (!e)
      e = libraryStatus(status, what);
  };
  auto hipCall = [&](hipError error, StringRef what) {
    if (!e)
      e = checkHip(hip, error, what);
  };
  // Column-major: row-major C[M,N] is C^T (N x M, ld N) = B A^T, B[N,K] read
  // column-major is B^T (K x N, ld K: transposed back) and A[M,K] is A^T
  // (K x M, ld K, as needed): hipBLASLt's A is hk's B, its B hk's A, "TN".
  int fp8 = e5m2 ? kHipR8FE5M2 : kHipR8FE4M3;
  int out = f32Output ? kHipR32F : kHipR16BF;
  int32_t opT = kHipblasOpT, opN = kHipblasOpN;
  call(lt.create(&handle), "hipblasLtCreate");
  call(lt.descCreate(&desc, kHipblasCompute32F, kHipR32F),
       "hipblasLtMatmulDescCreate");
  call(lt.descSetAttribute(desc, kDescTransA, &opT, sizeof(opT)),
       "setting TRANSA");
  call(lt.descSetAttribute(desc, kDescTransB, &opN, sizeof(opN)),
       "setting TRANSB");
  hipCall(hip.malloc(&da, a.size()), "hipMalloc");
  hipCall(hip.malloc(&db, b.size()), "hipMalloc");
  hipCall(hip.malloc(&dc, c.size()), "hipMalloc");
  hipCall(hip.malloc(&dScales, 2 * sizeof(float)), "hipMalloc");
  hipCall(hip.malloc(&workspace, kWorkspaceBytes), "hipMalloc");
  hipCall(hip.memcpy(da, a.data(), a.size(), kHostToDevice),
          "copying A to the device");
  hipCall(hip.memcpy(db, b.data(), b.size(), kHostToDevice),
          "copying B to the device");
  // The scales live on the device: hipBLASLt's A scale is hk's B's.
  float scales[2] = {scaleB, scaleA};
  hipCall(hip.memcpy(dScales, scales, sizeof(scales), kHostToDevice),
          "copying the scales to the device");
  void *scaleOfA = dScales, *scaleOfB = static_cast<float *>(dScales) + 1;
  call(lt.descSetAttribute(desc, kDescAScalePointer, &scaleOfA,
                           sizeof(scaleOfA)),
       "setting A_SCALE_POINTER");
  call(lt.descSetAttribute(desc, kDescBScalePointer, &scaleOfB,
                           sizeof(scaleOfB)),
       "setting B_SCALE_POINTER");
  call(lt.layoutCreate(&layouts[0], fp8, k, n, k),
       "hipblasLtMatrixLayoutCreate");
  call(lt.layoutCreate(&layouts[1], fp8, k, m, k),
       "hipblasLtMatrixLayoutCreate");
  call(lt.layoutCreate(&layouts[2], out, n, m, n),
       "hipblasLtMatrixLayoutCreate");
  call(lt.preferenceCreate(&pref), "hipblasLtMatmulPreferenceCreate");
  uint64_t workspaceBytes = kWorkspaceBytes;
  call(lt.preferenceSetAttribute(pref, kPrefMaxWorkspaceBytes, &workspaceBytes,
                                 sizeof(workspaceBytes)),
       "setting MAX_WORKSPACE_BYTES");
  HipblasLtHeuristicResult result{};
  int found = 0;
  call(lt.algoGetHeuristic(handle, desc, layouts[0], layouts[1], layouts[2],
                           layouts[2], pref, 1, &result, &found),
       "hipblasLtMatmulAlgoGetHeuristic");
  if (!e && (found < 1 || result.state != 0 ||
             result.workspaceSize > kWorkspaceBytes))
    e = createStringError(inconvertibleErrorCode(),
                          "hipBLASLt has no algorithm for this fp8 GEMM");
  float alpha = 1.0f, beta = 0.0f;
  auto launch = [&]() -> Error {
    hipblasStatus status =
        lt.matmul(handle, desc, &alpha, db, layouts[0], da, layouts[1], &beta,
                  dc, layouts[2], dc, layouts[2], &result.algo, workspace,
                  kWorkspaceBytes, nullptr);
    return libraryStatus(status, "hipblasLtMatmul");
  };
  return finishLibraryRun(hip, std::move(e), launch, dc, c,
                          "running hipblasLtMatmul", warmup, iterations,
                          release);
}
