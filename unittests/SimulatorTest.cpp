//===- SimulatorTest.cpp - the sim backend on small kernels ---------------===//
//
// Part of the hk project, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Small LLVM IR kernels that pin each modelled behaviour of the simulator:
// divergence with execution masks, barriers across waves (both barrier
// forms), MFMA and WMMA lane layouts, private memory, bf16 rounding, the
// workgroups' order (shuffled from a seed), and the errors for what is
// outside the model.
//
//===----------------------------------------------------------------------===//

#include "HK/Runtime/Simulator.h"
#include "HK/Runtime/BFloat16.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstring>

using namespace mlir::hk;

namespace {

const char *kDataLayout =
    "target datalayout = \"e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-"
    "p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-"
    "p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-"
    "v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9\"\n";

/// Runs kernel @k of `ir` with one output buffer of `outBytes` (argument 0)
/// and optional input buffers (arguments 1...).
struct KernelRun {
  std::string error;
  std::vector<uint8_t> out;
  sim::Counters counters;
};

KernelRun run(const std::string &ir, Chip chip, int64_t blockSize,
              uint64_t outBytes,
              const std::vector<std::vector<uint8_t>> &inputs = {},
              std::array<int64_t, 3> grid = {1, 1, 1},
              uint64_t shuffleSeed = 0) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic diag;
  auto module = llvm::parseAssemblyString(kDataLayout + ir, diag, context);
  KernelRun result;
  if (!module) {
    result.error = "parse error: " + diag.getMessage().str();
    return result;
  }
  sim::GlobalMemory memory;
  uint64_t out = memory.allocate("out", outBytes);
  sim::LaunchConfig config;
  config.grid = grid;
  config.block = {blockSize, 1, 1};
  config.stepLimit = 100000;
  config.shuffleSeed = shuffleSeed;
  config.arguments.push_back(out);
  for (auto [i, input] : llvm::enumerate(inputs)) {
    uint64_t address = memory.allocate("in" + std::to_string(i), input.size());
    std::memcpy(memory.bytes(address).data(), input.data(), input.size());
    config.arguments.push_back(address);
  }
  if (llvm::Error e = sim::run(*module, "k", getChipInfo(chip), config, memory,
                               result.counters))
    result.error = llvm::toString(std::move(e));
  result.out = memory.bytes(out);
  return result;
}

/// Expects the run to have failed with a message containing `text`.
void expectError(const KernelRun &r, const std::string &text) {
  EXPECT_NE(r.error.find(text), std::string::npos) << r.error;
}

template <typename T> T at(const std::vector<uint8_t> &bytes, size_t i) {
  T v;
  std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
  return v;
}

TEST(SimulatorTest, DivergentIfElseMergesPerLane) {
  KernelRun r = run(R"(
define amdgpu_kernel void @k(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %bit = and i32 %tid, 1
  %odd = icmp eq i32 %bit, 1
  br i1 %odd, label %then, label %else
then:
  %a = mul i32 %tid, 10
  br label %join
else:
  %b = add i32 %tid, 1000
  br label %join
join:
  %v = phi i32 [ %a, %then ], [ %b, %else ]
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
)",
                    Chip::gfx950, 64, 64 * 4);
  ASSERT_EQ(r.error, "");
  for (int t = 0; t < 64; ++t)
    EXPECT_EQ(at<int32_t>(r.out, t), t % 2 ? 10 * t : t + 1000) << t;
}

TEST(SimulatorTest, DivergentLoopExitAndEarlyReturn) {
  // Lane t sums 0..(t % 5 - 1); lanes >= 24 return before storing.
  KernelRun r = run(R"(
define amdgpu_kernel void @k(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %late = icmp uge i32 %tid, 24
  br i1 %late, label %exit, label %pre
pre:
  %n = urem i32 %tid, 5
  br label %loop
loop:
  %i = phi i32 [ 0, %pre ], [ %i1, %body ]
  %s = phi i32 [ 0, %pre ], [ %s1, %body ]
  %more = icmp ult i32 %i, %n
  br i1 %more, label %body, label %done
body:
  %s1 = add i32 %s, %i
  %i1 = add i32 %i, 1
  br label %loop
done:
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %s, ptr addrspace(1) %p
  br label %exit
exit:
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
)",
                    Chip::gfx1201, 32, 32 * 4);
  ASSERT_EQ(r.error, "");
  for (int t = 0; t < 32; ++t) {
    int n = t % 5, expected = n * (n - 1) / 2;
    if (t >= 24)
      EXPECT_EQ(at<uint32_t>(r.out, t), 0u) << t; // never written
    else
      EXPECT_EQ(at<int32_t>(r.out, t), expected) << t;
  }
}

/// Each thread writes LDS, waits, then reads another wave's element.
std::string barrierKernel(const std::string &barrier) {
  return R"(
@lds = internal addrspace(3) global [128 x i32] undef, align 16
define amdgpu_kernel void @k(ptr addrspace(1) %out) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %v = mul i32 %tid, 3
  %w = getelementptr i32, ptr addrspace(3) @lds, i32 %tid
  store i32 %v, ptr addrspace(3) %w
)" + barrier +
         R"(
  %other = sub i32 127, %tid
  %r = getelementptr i32, ptr addrspace(3) @lds, i32 %other
  %x = load i32, ptr addrspace(3) %r
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %x, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
declare void @llvm.amdgcn.s.barrier.signal(i32)
declare void @llvm.amdgcn.s.barrier.wait(i16)
)";
}

TEST(SimulatorTest, BarrierOrdersLdsAcrossWaves) {
  KernelRun single = run(barrierKernel("  call void @llvm.amdgcn.s.barrier()"),
                         Chip::gfx950, 128, 128 * 4);
  ASSERT_EQ(single.error, "");
  KernelRun split =
      run(barrierKernel("  call void @llvm.amdgcn.s.barrier.signal(i32 -1)\n"
                        "  call void @llvm.amdgcn.s.barrier.wait(i16 -1)"),
          Chip::gfx1201, 128, 128 * 4);
  ASSERT_EQ(split.error, "");
  for (int t = 0; t < 128; ++t) {
    EXPECT_EQ(at<int32_t>(single.out, t), (127 - t) * 3) << t;
    EXPECT_EQ(at<int32_t>(split.out, t), (127 - t) * 3) << t;
  }
  EXPECT_EQ(single.counters.barriers, 2u);
  // Without the barrier the first wave reads LDS nobody wrote yet.
  KernelRun none = run(barrierKernel(""), Chip::gfx950, 128, 128 * 4);
  ASSERT_EQ(none.error, "");
  EXPECT_EQ(at<int32_t>(none.out, 0), -1); // the 0xff fill of unwritten LDS
}

/// A(16 x K) and B(16 x K) with small integer entries, so every product and
/// sum is exact; D = A * B^T + C with C = 1000.
std::vector<float> referenceMma(int K) {
  std::vector<float> d(256);
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 16; ++n) {
      float acc = 1000;
      for (int k = 0; k < K; ++k)
        acc += float((m + k) % 5 - 2) * float((n * 3 + k) % 7 - 3);
      d[m * 16 + n] = acc;
    }
  return d;
}

TEST(SimulatorTest, MfmaLaneLayout) {
  // Lane l supplies A[l % 16][(l / 16) * 8 + i] and B[l % 16][...] from
  // the input buffers (built here with the layout of
  // docs/Hardware.md#lane-layouts) and gets D[(l / 16) * 4 + i][l % 16].
  std::vector<uint8_t> a(64 * 16), b(64 * 16);
  for (int l = 0; l < 64; ++l)
    for (int i = 0; i < 8; ++i) {
      int m = l % 16, k = (l / 16) * 8 + i;
      uint16_t av = floatToBf16(float((m + k) % 5 - 2));
      uint16_t bv = floatToBf16(float((m * 3 + k) % 7 - 3));
      std::memcpy(a.data() + (l * 8 + i) * 2, &av, 2);
      std::memcpy(b.data() + (l * 8 + i) * 2, &bv, 2);
    }
  KernelRun r = run(R"(
define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %a, ptr addrspace(1) %b) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <8 x bfloat>, ptr addrspace(1) %a, i32 %tid
  %pb = getelementptr <8 x bfloat>, ptr addrspace(1) %b, i32 %tid
  %va = load <8 x bfloat>, ptr addrspace(1) %pa
  %vb = load <8 x bfloat>, ptr addrspace(1) %pb
  %d = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %va, <8 x bfloat> %vb, <4 x float> <float 1000.0, float 1000.0, float 1000.0, float 1000.0>, i32 0, i32 0, i32 0)
  %p = getelementptr <4 x float>, ptr addrspace(1) %out, i32 %tid
  store <4 x float> %d, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat>, <8 x bfloat>, <4 x float>, i32, i32, i32)
)",
                    Chip::gfx950, 64, 64 * 16, {a, b});
  ASSERT_EQ(r.error, "");
  std::vector<float> d = referenceMma(32);
  for (int l = 0; l < 64; ++l)
    for (int i = 0; i < 4; ++i)
      ASSERT_EQ(at<float>(r.out, l * 4 + i),
                d[((l / 16) * 4 + i) * 16 + l % 16])
          << "lane " << l << " element " << i;
  EXPECT_EQ(r.counters.mmas, 1u);
}

TEST(SimulatorTest, WmmaLaneLayout) {
  // gfx1201: lane l holds k = (l / 16) * 4 + i % 4 + 8 * (i / 4) of row
  // l % 16, and D[(l / 16) * 8 + i][l % 16].
  std::vector<uint8_t> a(32 * 16), b(32 * 16);
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < 8; ++i) {
      int m = l % 16, k = (l / 16) * 4 + i % 4 + 8 * (i / 4);
      uint16_t av = floatToBf16(float((m + k) % 5 - 2));
      uint16_t bv = floatToBf16(float((m * 3 + k) % 7 - 3));
      std::memcpy(a.data() + (l * 8 + i) * 2, &av, 2);
      std::memcpy(b.data() + (l * 8 + i) * 2, &bv, 2);
    }
  KernelRun r = run(R"(
define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %a, ptr addrspace(1) %b) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <8 x i16>, ptr addrspace(1) %a, i32 %tid
  %pb = getelementptr <8 x i16>, ptr addrspace(1) %b, i32 %tid
  %va = load <8 x i16>, ptr addrspace(1) %pa
  %vb = load <8 x i16>, ptr addrspace(1) %pb
  %d = call <8 x float> @llvm.amdgcn.wmma.f32.16x16x16.bf16.v8f32.v8i16(<8 x i16> %va, <8 x i16> %vb, <8 x float> splat (float 1000.0))
  %p = getelementptr <8 x float>, ptr addrspace(1) %out, i32 %tid
  store <8 x float> %d, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare <8 x float> @llvm.amdgcn.wmma.f32.16x16x16.bf16.v8f32.v8i16(<8 x i16>, <8 x i16>, <8 x float>)
)",
                    Chip::gfx1201, 32, 32 * 32, {a, b});
  ASSERT_EQ(r.error, "");
  std::vector<float> d = referenceMma(16);
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < 8; ++i)
      ASSERT_EQ(at<float>(r.out, l * 8 + i),
                d[((l / 16) * 8 + i) * 16 + l % 16])
          << "lane " << l << " element " << i;
}

TEST(SimulatorTest, PrivateMemoryIsPerLane) {
  KernelRun r = run(R"(
define amdgpu_kernel void @k(ptr addrspace(1) %out) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %buf = alloca [4 x i32], align 4, addrspace(5)
  %e = getelementptr [4 x i32], ptr addrspace(5) %buf, i32 0, i32 2
  store i32 %tid, ptr addrspace(5) %e
  %x = load i32, ptr addrspace(5) %e
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %x, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
)",
                    Chip::gfx950, 128, 128 * 4);
  ASSERT_EQ(r.error, "");
  for (int t = 0; t < 128; ++t)
    EXPECT_EQ(at<int32_t>(r.out, t), t);
}

TEST(SimulatorTest, Bf16ConversionRoundsToNearestEven) {
  KernelRun r = run(R"(
define amdgpu_kernel void @k(ptr addrspace(1) %out) {
  %t = fptrunc <2 x float> <float 0x3FF0100000000000, float 0x3FF0300000000000> to <2 x bfloat>
  store <2 x bfloat> %t, ptr addrspace(1) %out
  ret void
}
)",
                    Chip::gfx950, 64, 4);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(at<uint16_t>(r.out, 0), 0x3f80); // 1 + 2^-8: tie, to even
  EXPECT_EQ(at<uint16_t>(r.out, 1), 0x3f82); // 1 + 3 * 2^-8: up
}

TEST(SimulatorTest, BufferLoadsFollowTheRangeRule) {
  // A resource over in0 with num_records = 40 bytes: lanes 0..9 read their
  // word, lanes 10.. read 0; stores past the range are dropped.
  std::vector<uint8_t> in(64 * 4);
  for (int i = 0; i < 64; ++i)
    std::memcpy(in.data() + 4 * i, &i, 4);
  KernelRun r = run(R"(
define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %rsrc = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %in, i16 0, i64 40, i32 0)
  %off = shl i32 %tid, 2
  %v = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %rsrc, i32 %off, i32 0, i32 0)
  %orsrc = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %out, i16 0, i64 128, i32 0)
  %v1 = add i32 %v, 1
  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 %v1, ptr addrspace(8) %orsrc, i32 %off, i32 0, i32 0)
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1), i16, i64, i32)
declare i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8), i32, i32, i32)
declare void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32, ptr addrspace(8), i32, i32, i32)
)",
                    Chip::gfx950, 64, 64 * 4, {in});
  ASSERT_EQ(r.error, "");
  for (int t = 0; t < 64; ++t) {
    if (t >= 32) // past the output resource's 128 bytes: never written
      EXPECT_EQ(at<uint32_t>(r.out, t), 0u) << t;
    else
      EXPECT_EQ(at<int32_t>(r.out, t), (t < 10 ? t : 0) + 1) << t;
  }
}

TEST(SimulatorTest, BufferFatPointersRunAsBufferResources) {
  // A fat pointer (address space 7) over in0 with 40 valid bytes, as
  // amdgpu.fat_raw_buffer_cast makes: the backend's own rewrite turns it into
  // a buffer resource, so lanes past the range read 0. The range is the
  // umax/smin of two sizes, which the simulator evaluates per lane.
  std::vector<uint8_t> in(64 * 4);
  for (int i = 0; i < 64; ++i)
    std::memcpy(in.data() + 4 * i, &i, 4);
  KernelRun r = run(R"(
define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %hi = call i64 @llvm.umax.i64(i64 24, i64 40)
  %records = call i64 @llvm.smin.i64(i64 %hi, i64 -1)
  %lo = call i64 @llvm.smax.i64(i64 %hi, i64 -1)
  %bytes = call i64 @llvm.umin.i64(i64 %lo, i64 1000)
  %fat = call ptr addrspace(7) @llvm.amdgcn.make.buffer.rsrc.p7.p1(ptr addrspace(1) %in, i16 0, i64 %bytes, i32 0)
  %p = getelementptr i32, ptr addrspace(7) %fat, i32 %tid
  %v = load i32, ptr addrspace(7) %p
  %neg = trunc i64 %records to i32
  %w = add i32 %v, %neg
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %w, ptr addrspace(1) %q
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare i64 @llvm.umax.i64(i64, i64)
declare i64 @llvm.umin.i64(i64, i64)
declare i64 @llvm.smax.i64(i64, i64)
declare i64 @llvm.smin.i64(i64, i64)
declare ptr addrspace(7) @llvm.amdgcn.make.buffer.rsrc.p7.p1(ptr addrspace(1), i16, i64, i32)
)",
                    Chip::gfx950, 64, 64 * 4, {in});
  ASSERT_EQ(r.error, "");
  // %records = smin(40, -1) = -1; %bytes = umin(smax(40, -1), 1000) = 40.
  for (int t = 0; t < 64; ++t)
    EXPECT_EQ(at<int32_t>(r.out, t), (t < 10 ? t : 0) - 1) << t;
}

TEST(SimulatorTest, BufferLoadToLdsIsLaneLinearFromM0) {
  // Lane l fetches the 16 bytes at in + 16 * (63 - l) + 32 and writes them
  // to M0 + 32 + 16 * l; the kernel then copies LDS out.
  std::vector<uint8_t> in(64 * 16 + 32);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<uint8_t>(i * 7);
  KernelRun r = run(R"(
@lds = internal addrspace(3) global [1056 x i8] undef, align 16
define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %rsrc = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %in, i16 0, i64 1056, i32 0)
  %rev = sub i32 63, %tid
  %off = shl i32 %rev, 4
  call void @llvm.amdgcn.raw.ptr.buffer.load.lds(ptr addrspace(8) %rsrc, ptr addrspace(3) @lds, i32 16, i32 %off, i32 0, i32 32, i32 0)
  call void @llvm.amdgcn.s.waitcnt(i32 3952) ; vmcnt(0)
  call void @llvm.amdgcn.s.barrier()
  %lin = shl i32 %tid, 4
  %src = getelementptr i8, ptr addrspace(3) @lds, i32 %lin
  %src32 = getelementptr i8, ptr addrspace(3) %src, i32 32
  %v = load <4 x i32>, ptr addrspace(3) %src32
  %dst = getelementptr <4 x i32>, ptr addrspace(1) %out, i32 %tid
  store <4 x i32> %v, ptr addrspace(1) %dst
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
declare void @llvm.amdgcn.s.waitcnt(i32)
declare ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1), i16, i64, i32)
declare void @llvm.amdgcn.raw.ptr.buffer.load.lds(ptr addrspace(8), ptr addrspace(3), i32, i32, i32, i32, i32)
)",
                    Chip::gfx950, 64, 64 * 16, {in});
  ASSERT_EQ(r.error, "");
  for (int l = 0; l < 64; ++l)
    for (int b = 0; b < 16; ++b)
      ASSERT_EQ(r.out[l * 16 + b], in[(63 - l) * 16 + 32 + b])
          << "lane " << l << " byte " << b;
}

/// The input of runDmaThenRead.
static std::vector<uint8_t> dmaInput() {
  std::vector<uint8_t> in(2 * 64 * 4);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<uint8_t>(i * 5 + 1);
  return in;
}

/// A wave fills LDS with a direct-to-LDS load and, after a barrier, every
/// wave reads the bytes another wave's load wrote, with a wait `wait`
/// (s_waitcnt immediate) or none before the barrier.
static KernelRun runDmaThenRead(const char *wait) {
  std::string text = R"(
@lds = internal addrspace(3) global [512 x i8] undef, align 16
define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %wave = lshr i32 %tid, 6
  %base = shl i32 %wave, 8
  %rsrc = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %in, i16 0, i64 512, i32 0)
  %off = shl i32 %tid, 2
  %m0 = getelementptr i8, ptr addrspace(3) @lds, i32 %base
  call void @llvm.amdgcn.raw.ptr.buffer.load.lds(ptr addrspace(8) %rsrc, ptr addrspace(3) %m0, i32 4, i32 %off, i32 0, i32 0, i32 0)
  )" + std::string(wait) +
                     R"(
  call void @llvm.amdgcn.s.barrier()
  %other = xor i32 %off, 256
  %src = getelementptr i8, ptr addrspace(3) @lds, i32 %other
  %v = load i32, ptr addrspace(3) %src
  %dst = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %v, ptr addrspace(1) %dst
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
declare void @llvm.amdgcn.s.waitcnt(i32)
declare ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1), i16, i64, i32)
declare void @llvm.amdgcn.raw.ptr.buffer.load.lds(ptr addrspace(8), ptr addrspace(3), i32, i32, i32, i32, i32)
)";
  return run(text, Chip::gfx950, 128, 128 * 4, {dmaInput()});
}

TEST(SimulatorTest, DirectToLdsLoadLandsAtItsWait) {
  // With vmcnt(0) before the barrier, each wave reads what the other's
  // load wrote.
  KernelRun r = runDmaThenRead("call void @llvm.amdgcn.s.waitcnt(i32 3952)");
  ASSERT_EQ(r.error, "");
  std::vector<uint8_t> in = dmaInput();
  for (int t = 0; t < 128; ++t)
    for (int b = 0; b < 4; ++b)
      ASSERT_EQ(r.out[t * 4 + b], in[(t * 4 ^ 256) + b]) << t;
  // Without it (or with a count that leaves the load in flight) the result
  // depends on when the load lands: an LDS race.
  for (const char *weak : {"", "call void @llvm.amdgcn.s.waitcnt(i32 3953)"}) {
    KernelRun racy = runDmaThenRead(weak);
    EXPECT_NE(racy.error.find("LDS race"), std::string::npos)
        << "'" << weak << "': " << racy.error;
  }
  // A workgroup-scope release fence drains the wave's loads, as the
  // backend makes it (amdgpu.lds_barrier).
  KernelRun fenced = runDmaThenRead("fence syncscope(\"workgroup\") release");
  EXPECT_EQ(fenced.error, "");
}

TEST(SimulatorTest, UnalignedAccessesAreByteExact) {
  // A 4-byte store at a 2-byte-aligned address (fused bf16 stores,
  // docs/Hardware.md#pitfall-5) and an 8-byte load at an odd address touch
  // exactly their bytes.
  std::vector<uint8_t> in(16);
  for (int i = 0; i < 16; ++i)
    in[i] = static_cast<uint8_t>(0x10 + i);
  KernelRun r = run(R"(
define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %first = icmp eq i32 %tid, 0
  br i1 %first, label %go, label %done
go:
  %p2 = getelementptr i8, ptr addrspace(1) %out, i32 2
  store <2 x i16> <i16 258, i16 772>, ptr addrspace(1) %p2, align 2
  %q = getelementptr i8, ptr addrspace(1) %in, i32 3
  %v = load i64, ptr addrspace(1) %q, align 1
  %p9 = getelementptr i8, ptr addrspace(1) %out, i32 9
  store i64 %v, ptr addrspace(1) %p9, align 1
  br label %done
done:
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
)",
                    Chip::gfx950, 64, 24, {in});
  ASSERT_EQ(r.error, "");
  const uint8_t expected[24] = {0,    0,    0x02, 0x01, 0x04, 0x03, 0,    0,
                                0,    0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19,
                                0x1a, 0,    0,    0,    0,    0,    0,    0};
  for (int i = 0; i < 24; ++i)
    EXPECT_EQ(r.out[i], expected[i]) << "byte " << i;
}

// A 16-byte load at bytes 32..47 of a 40-byte range: gfx950 checks it word
// by word (words 0 and 1 read, 2 and 3 read 0); gfx1201 checks the whole
// access, so a kernel relying on either reading is refused there.
static const char *kStraddlingLoad = R"(
define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %rsrc = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %in, i16 0, i64 40, i32 0)
  %v = call <4 x i32> @llvm.amdgcn.raw.ptr.buffer.load.v4i32(ptr addrspace(8) %rsrc, i32 32, i32 0, i32 0)
  %first = icmp eq i32 %tid, 0
  br i1 %first, label %store, label %done
store:
  store <4 x i32> %v, ptr addrspace(1) %out
  br label %done
done:
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1), i16, i64, i32)
declare <4 x i32> @llvm.amdgcn.raw.ptr.buffer.load.v4i32(ptr addrspace(8), i32, i32, i32)
)";

TEST(SimulatorTest, PartlyOutOfRangeLoadsFollowTheChip) {
  std::vector<uint8_t> in(64);
  for (int i = 0; i < 16; ++i)
    std::memcpy(in.data() + 4 * i, &i, 4);
  KernelRun cdna = run(kStraddlingLoad, Chip::gfx950, 64, 16, {in});
  ASSERT_EQ(cdna.error, "");
  EXPECT_EQ(at<int32_t>(cdna.out, 0), 8);
  EXPECT_EQ(at<int32_t>(cdna.out, 1), 9);
  EXPECT_EQ(at<int32_t>(cdna.out, 2), 0);
  EXPECT_EQ(at<int32_t>(cdna.out, 3), 0);
  KernelRun rdna = run(kStraddlingLoad, Chip::gfx1201, 32, 16, {in});
  expectError(rdna, "lane 0: a 16-byte buffer access at byte offset 32 is "
                    "partly past the buffer's range (40 bytes): gfx1201 "
                    "checks the whole access");
}

TEST(SimulatorTest, OutOfBoundsAccessIsAnError) {
  KernelRun r = run(R"(
define amdgpu_kernel void @k(ptr addrspace(1) %out) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 1, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
)",
                    Chip::gfx950, 64, 63 * 4);
  expectError(r, "lane 63 writes 4 bytes at global address");
  expectError(r, "out of bounds (0 bytes past the end of buffer 'out' "
                 "(252 bytes))");
}

TEST(SimulatorTest, UnmodelledIntrinsicIsAnError) {
  KernelRun r = run(R"(
define amdgpu_kernel void @k(ptr addrspace(1) %out) {
  call void @llvm.amdgcn.s.sleep(i32 1)
  ret void
}
declare void @llvm.amdgcn.s.sleep(i32)
)",
                    Chip::gfx950, 64, 4);
  expectError(r, "intrinsic 'llvm.amdgcn.s.sleep' is not modelled");
}

TEST(SimulatorTest, BarrierUnderDivergenceIsAnError) {
  KernelRun r = run(R"(
define amdgpu_kernel void @k(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp ult i32 %tid, 5
  br i1 %c, label %then, label %exit
then:
  call void @llvm.amdgcn.s.barrier()
  br label %exit
exit:
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()
)",
                    Chip::gfx950, 64, 4);
  expectError(r, "workgroup barrier in divergent control flow");
}

TEST(SimulatorTest, UnmodelledConstantInAPhiIsAnError) {
  KernelRun r = run(R"(
@g = addrspace(1) global i32 0
define amdgpu_kernel void @k(ptr addrspace(1) %out) {
entry:
  br label %next
next:
  %p = phi ptr addrspace(1) [ @g, %entry ]
  store i32 1, ptr addrspace(1) %p
  ret void
}
)",
                    Chip::gfx950, 64, 4);
  expectError(r, "global 'g' is not in LDS; only LDS globals are "
                 "modelled");
}

TEST(SimulatorTest, PoisonConversionIsAnError) {
  KernelRun r = run(R"(
define amdgpu_kernel void @k(ptr addrspace(1) %out) {
  %f = fdiv float 0.0, 0.0
  %i = fptosi float %f to i32
  store i32 %i, ptr addrspace(1) %out
  ret void
}
)",
                    Chip::gfx950, 64, 4);
  expectError(r, "lane 0: fptosi of nan, which does not fit the "
                 "result (poison)");
}

TEST(SimulatorTest, BadLaunchShapeIsAnError) {
  KernelRun r = run(R"(
define amdgpu_kernel void @k(ptr addrspace(1) %out) {
  ret void
}
)",
                    Chip::gfx950, 0, 4);
  expectError(r, "every dimension must be at least 1, workgroups at "
                 "most 1024");
}

TEST(SimulatorTest, StepLimitStopsRunawayKernels) {
  KernelRun r = run(R"(
define amdgpu_kernel void @k(ptr addrspace(1) %out) {
entry:
  br label %loop
loop:
  br label %loop
}
)",
                    Chip::gfx950, 64, 4);
  expectError(r, "step limit of 100000 wave instructions reached");
}

/// Each workgroup of a 4x3x2 grid appends its linear id (x + 4 (y + 3 z))
/// to out[1..24] through the counter out[0] (plain loads and stores: the
/// simulator runs one workgroup at a time).
const char *kRecordOrder = R"(
define amdgpu_kernel void @k(ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %first = icmp eq i32 %tid, 0
  br i1 %first, label %record, label %done
record:
  %x = call i32 @llvm.amdgcn.workgroup.id.x()
  %y = call i32 @llvm.amdgcn.workgroup.id.y()
  %z = call i32 @llvm.amdgcn.workgroup.id.z()
  %z3 = mul i32 %z, 3
  %yz = add i32 %y, %z3
  %yz4 = mul i32 %yz, 4
  %id = add i32 %x, %yz4
  %n = load i32, ptr addrspace(1) %out
  %slot = add i32 %n, 1
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %slot
  store i32 %id, ptr addrspace(1) %p
  store i32 %slot, ptr addrspace(1) %out
  br label %done
done:
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workgroup.id.y()
declare i32 @llvm.amdgcn.workgroup.id.z()
)";

/// The order kRecordOrder's workgroups ran in, for shuffle seed `seed`.
std::vector<int32_t> workgroupOrder(uint64_t seed) {
  KernelRun r =
      run(kRecordOrder, Chip::gfx950, 64, 25 * 4, {}, {4, 3, 2}, seed);
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.counters.workgroupShuffle, seed);
  std::vector<int32_t> order;
  for (int i = 1; i <= 24; ++i)
    order.push_back(at<int32_t>(r.out, i));
  return order;
}

TEST(SimulatorTest, WorkgroupsRunInOrderOrShuffledFromASeed) {
  std::vector<int32_t> identity(24);
  for (int i = 0; i < 24; ++i)
    identity[i] = i;
  EXPECT_EQ(workgroupOrder(0), identity);
  std::vector<int32_t> seven = workgroupOrder(7);
  EXPECT_NE(seven, identity);
  EXPECT_EQ(workgroupOrder(7), seven);
  EXPECT_NE(workgroupOrder(8), seven);
  std::vector<int32_t> sorted = seven;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, identity);
}

TEST(SimulatorTest, TooLargeAShuffledGridIsAnError) {
  KernelRun r = run(R"(
define amdgpu_kernel void @k(ptr addrspace(1) %out) {
  ret void
}
)",
                    Chip::gfx950, 64, 4, {}, {1 << 13, 1 << 12, 1},
                    /*shuffleSeed=*/1);
  expectError(r, "a shuffled launch permutes at most 2^24 workgroups; grid "
                 "8192x4096x1 holds more");
}

} // namespace
