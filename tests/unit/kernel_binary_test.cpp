// The kernel-launch call flow end to end with the example kernels, as .o (JIT-linked) and as
// .so (dlopen), at several block counts.
#include "kernel_fixture.h"
#include "../common/host_tensor.h"

#include <pthread.h>

#include <cmath>
#include <cstring>
#include <thread>

using namespace aclcpu_test;

namespace {

struct AffineParams {  // the same layout as in examples/kernels/affine_placeholder.cpp
  float scale;
  float bias;
  uint32_t n;
};

}  // namespace

class KernelFlow : public KernelTest, public ::testing::WithParamInterface<std::tuple<bool, uint32_t>> {
 protected:
  bool sharedObject() const { return std::get<0>(GetParam()); }
  uint32_t blocks() const { return std::get<1>(GetParam()); }
  aclrtBinHandle loadExample(const char *kernel) {
    return sharedObject() ? load("example_kernels.so") : load(std::string(kernel) + ".o");
  }
};

TEST_P(KernelFlow, VectorAdd) {
  const uint32_t n = 10007;
  auto x = randomFloats(n, 1), y = randomFloats(n, 2);
  std::vector<float> z(n, 0);
  float *dx = deviceArray<float>(n), *dy = deviceArray<float>(n), *dz = deviceArray<float>(n);
  ASSERT_EQ(aclrtMemcpy(dx, n * 4, x.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(dy, n * 4, y.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  aclrtFuncHandle func = function(loadExample("vector_add"), "add_custom");
  aclrtArgsHandle args = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(func, &args), ACL_SUCCESS);
  append(args, dx);
  append(args, dy);
  append(args, dz);
  append(args, n);
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithConfig(func, blocks(), stream_, nullptr, args, nullptr), ACL_SUCCESS) << recentError();
  ASSERT_EQ(aclrtMemcpyAsync(z.data(), n * 4, dz, n * 4, ACL_MEMCPY_DEVICE_TO_HOST, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << recentError();
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(z[i], x[i] + y[i]) << i;
}

TEST_P(KernelFlow, ScaleWithScalarParameters) {
  const uint64_t n = 4099;
  auto x = randomFloats(n, 3);
  std::vector<float> y(n, 0);
  float *dx = deviceArray<float>(n), *dy = deviceArray<float>(n);
  ASSERT_EQ(aclrtMemcpy(dx, n * 4, x.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  aclrtFuncHandle func = function(loadExample("scale"), "scale_custom");
  aclrtArgsHandle args = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(func, &args), ACL_SUCCESS);
  append(args, static_cast<const float *>(dx));
  append(args, uint8_t{9});
  append(args, -2.5f);
  append(args, dy);
  append(args, n);
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithConfig(func, blocks(), stream_, nullptr, args, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(y.data(), n * 4, dy, n * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(y[i], -2.5f * x[i]) << i;
}

TEST_P(KernelFlow, PlaceholderStruct) {
  const uint32_t n = 3001;
  auto x = randomFloats(n, 4);
  std::vector<float> y(n, 0);
  float *dx = deviceArray<float>(n), *dy = deviceArray<float>(n);
  ASSERT_EQ(aclrtMemcpy(dx, n * 4, x.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  aclrtFuncHandle func = function(loadExample("affine_placeholder"), "affine_custom");
  aclrtArgsHandle args = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(func, &args), ACL_SUCCESS);
  append(args, dx);
  append(args, dy);
  aclrtParamHandle placeholder = nullptr;
  ASSERT_EQ(aclrtKernelArgsAppendPlaceHolder(args, &placeholder), ACL_SUCCESS);
  void *buffer = nullptr;
  ASSERT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(args, placeholder, sizeof(AffineParams), &buffer), ACL_SUCCESS);
  AffineParams params{0.5f, 3.0f, n};
  memcpy(buffer, &params, sizeof(params));
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithConfig(func, blocks(), stream_, nullptr, args, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(y.data(), n * 4, dy, n * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(y[i], x[i] * 0.5f + 3.0f) << i;
}

TEST_P(KernelFlow, TiledGemmMatchesPlainLoops) {
  const uint32_t m = 67, n = 130, k = 259;
  auto a = randomFloats(size_t(m) * k, 5), b = randomFloats(size_t(k) * n, 6);
  std::vector<float> c(size_t(m) * n, 0);
  float *da = deviceArray<float>(a.size()), *db = deviceArray<float>(b.size()), *dc = deviceArray<float>(c.size());
  ASSERT_EQ(aclrtMemcpy(da, a.size() * 4, a.data(), a.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(db, b.size() * 4, b.data(), b.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  aclrtFuncHandle func = function(loadExample("gemm_tiled"), "gemm_custom");
  aclrtArgsHandle args = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(func, &args), ACL_SUCCESS);
  append(args, da);
  append(args, db);
  append(args, dc);
  append(args, m);
  append(args, n);
  append(args, k);
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithConfig(func, blocks(), stream_, nullptr, args, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(c.data(), c.size() * 4, dc, c.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  // fp32 accumulation of k products of values in [-1, 1]: error grows at most like k * eps.
  const double tolerance = k * 1.2e-7 * 4;
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t j = 0; j < n; ++j) {
      double expected = 0;
      for (uint32_t p = 0; p < k; ++p) expected += double(a[size_t(i) * k + p]) * b[size_t(p) * n + j];
      ASSERT_NEAR(c[size_t(i) * n + j], expected, tolerance) << i << "," << j;
    }
}

TEST_P(KernelFlow, EveryBlockRunsExactlyOnce) {
  aclrtBinHandle binary = load(sharedObject() ? "test_kernels.so" : "test_kernels.o");
  aclrtFuncHandle func = function(binary, "mark_blocks");
  uint32_t *hits = deviceArray<uint32_t>(blocks());
  uint32_t *maxWorker = deviceArray<uint32_t>(1);
  ASSERT_EQ(aclrtMemset(hits, blocks() * 4, 0, blocks() * 4), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(maxWorker, 4, 0, 4), ACL_SUCCESS);
  aclrtArgsHandle args = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(func, &args), ACL_SUCCESS);
  append(args, hits);
  append(args, maxWorker);
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithConfig(func, blocks(), stream_, nullptr, args, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  std::vector<uint32_t> counts(blocks());
  ASSERT_EQ(aclrtMemcpy(counts.data(), blocks() * 4, hits, blocks() * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (uint32_t b = 0; b < blocks(); ++b) ASSERT_EQ(counts[b], 1u) << "block " << b;
  uint32_t worker = 0;
  ASSERT_EQ(aclrtMemcpy(&worker, 4, maxWorker, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_LE(worker, std::thread::hardware_concurrency());
}

INSTANTIATE_TEST_SUITE_P(Blocks, KernelFlow,
                         ::testing::Combine(::testing::Bool(), ::testing::Values(1u, 2u, 7u, 64u, 4096u)),
                         [](const auto &info) {
                           return std::string(std::get<0>(info.param) ? "so" : "o") + "_" +
                                  std::to_string(std::get<1>(info.param)) + "_blocks";
                         });

using KernelLaunchTest = KernelTest;

TEST_F(KernelLaunchTest, ParaUpdateBetweenTwoLaunchesOnOneStream) {
  const uint64_t n = 1000;
  auto x = randomFloats(n, 7);
  float *dx = deviceArray<float>(n), *first = deviceArray<float>(n), *second = deviceArray<float>(n);
  ASSERT_EQ(aclrtMemcpy(dx, n * 4, x.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  aclrtFuncHandle func = function(load("scale.o"), "scale_custom");
  aclrtArgsHandle args = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(func, &args), ACL_SUCCESS);
  append(args, dx);
  append(args, uint8_t{0});
  aclrtParamHandle alpha = append(args, 2.0f);
  aclrtParamHandle output = append(args, first);
  append(args, n);
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithConfig(func, 7, stream_, nullptr, args, nullptr), ACL_SUCCESS);
  float three = 3.0f;
  ASSERT_EQ(aclrtKernelArgsParaUpdate(args, alpha, &three, sizeof(three)), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsParaUpdate(args, output, &second, sizeof(second)), ACL_SUCCESS);
  EXPECT_EQ(aclrtLaunchKernelWithConfig(func, 7, stream_, nullptr, args, nullptr), ACL_ERROR_INVALID_PARAM)
      << "an update needs another finalize";
  EXPECT_NE(recentError().find("Finalize"), std::string::npos);
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithConfig(func, 7, stream_, nullptr, args, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  std::vector<float> a(n), b(n);
  ASSERT_EQ(aclrtMemcpy(a.data(), n * 4, first, n * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(b.data(), n * 4, second, n * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (uint64_t i = 0; i < n; ++i) {
    ASSERT_EQ(a[i], 2.0f * x[i]);
    ASSERT_EQ(b[i], 3.0f * x[i]);
  }
}

// The argument block and placeholder data are copied at launch: changing them before the queued
// launch runs does not change it.
TEST_F(KernelLaunchTest, ArgumentsAreSnapshottedAtLaunch) {
  const uint32_t n = 256;
  auto x = randomFloats(n, 8);
  float *dx = deviceArray<float>(n), *dy = deviceArray<float>(n);
  ASSERT_EQ(aclrtMemcpy(dx, n * 4, x.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  aclrtFuncHandle func = function(load("affine_placeholder.o"), "affine_custom");
  aclrtArgsHandle args = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(func, &args), ACL_SUCCESS);
  append(args, dx);
  aclrtParamHandle output = append(args, dy);
  aclrtParamHandle placeholder = nullptr;
  ASSERT_EQ(aclrtKernelArgsAppendPlaceHolder(args, &placeholder), ACL_SUCCESS);
  void *buffer = nullptr;
  ASSERT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(args, placeholder, sizeof(AffineParams), &buffer), ACL_SUCCESS);
  AffineParams params{2.0f, 1.0f, n};
  memcpy(buffer, &params, sizeof(params));
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);

  // Hold the stream with a blocking callback so the launch cannot run before the changes.
  ASSERT_EQ(aclrtSubscribeReport(static_cast<uint64_t>(pthread_self()), stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchCallback([](void *) {}, nullptr, ACL_CALLBACK_BLOCK, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithConfig(func, 4, stream_, nullptr, args, nullptr), ACL_SUCCESS);
  AffineParams changed{100.0f, 100.0f, 1};
  memcpy(buffer, &changed, sizeof(changed));
  float *elsewhere = deviceArray<float>(n);
  ASSERT_EQ(aclrtKernelArgsParaUpdate(args, output, &elsewhere, sizeof(elsewhere)), ACL_SUCCESS);
  ASSERT_EQ(aclrtProcessReport(1000), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  std::vector<float> y(n);
  ASSERT_EQ(aclrtMemcpy(y.data(), n * 4, dy, n * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(y[i], x[i] * 2.0f + 1.0f) << i;
  ASSERT_EQ(aclrtUnSubscribeReport(static_cast<uint64_t>(pthread_self()), stream_), ACL_SUCCESS);
}

TEST_F(KernelLaunchTest, LaunchesOnSeveralStreamsOrderedByEvents) {
  const uint32_t n = 50000;
  auto x = randomFloats(n, 9), y = randomFloats(n, 10);
  float *dx = deviceArray<float>(n), *dy = deviceArray<float>(n), *sum = deviceArray<float>(n),
        *scaled = deviceArray<float>(n);
  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  aclrtEvent added = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&added), ACL_SUCCESS);
  aclrtFuncHandle add = function(load("vector_add.o"), "add_custom");
  aclrtFuncHandle scale = function(load("example_kernels.so"), "scale_custom");
  ASSERT_EQ(aclrtMemcpyAsync(dx, n * 4, x.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(dy, n * 4, y.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE, stream_), ACL_SUCCESS);
  aclrtArgsHandle addArgs = nullptr, scaleArgs = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(add, &addArgs), ACL_SUCCESS);
  append(addArgs, dx);
  append(addArgs, dy);
  append(addArgs, sum);
  append(addArgs, n);
  ASSERT_EQ(aclrtKernelArgsFinalize(addArgs), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsInit(scale, &scaleArgs), ACL_SUCCESS);
  append(scaleArgs, sum);
  append(scaleArgs, uint8_t{0});
  append(scaleArgs, 4.0f);
  append(scaleArgs, scaled);
  append(scaleArgs, uint64_t{n});
  ASSERT_EQ(aclrtKernelArgsFinalize(scaleArgs), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithConfig(add, 16, stream_, nullptr, addArgs, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(added, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(other, added), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithConfig(scale, 16, other, nullptr, scaleArgs, nullptr), ACL_SUCCESS);
  std::vector<float> result(n);
  ASSERT_EQ(aclrtMemcpyAsync(result.data(), n * 4, scaled, n * 4, ACL_MEMCPY_DEVICE_TO_HOST, other), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(result[i], 4.0f * (x[i] + y[i])) << i;
  EXPECT_EQ(aclrtDestroyEvent(added), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
}

TEST_F(KernelLaunchTest, KernelFaultIsReportedAtSynchronize) {
  aclrtFuncHandle func = function(load("test_kernels.o"), "fail_at_block");
  uint32_t *ran = deviceArray<uint32_t>(1);
  ASSERT_EQ(aclrtMemset(ran, 4, 0, 4), ACL_SUCCESS);
  aclrtArgsHandle args = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(func, &args), ACL_SUCCESS);
  append(args, uint32_t{0});
  append(args, ran);
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithConfig(func, 1, stream_, nullptr, args, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_NE(recentError().find("fail_at_block"), std::string::npos) << recentError();
  EXPECT_NE(recentError().find("block 0 of 1 returned 7"), std::string::npos) << recentError();
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << "reported once";

  // A fault in a large launch skips blocks not yet started; the stream keeps working.
  ASSERT_EQ(aclrtMemset(ran, 4, 0, 4), ACL_SUCCESS);
  uint32_t failing = 10;
  aclrtArgsHandle many = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(func, &many), ACL_SUCCESS);
  append(many, failing);
  append(many, ran);
  ASSERT_EQ(aclrtKernelArgsFinalize(many), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithConfig(func, 4096, stream_, nullptr, many, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
  uint32_t count = 0;
  ASSERT_EQ(aclrtMemcpy(&count, 4, ran, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_GE(count, 11u);
  EXPECT_LT(count, 4096u);
  ASSERT_EQ(aclrtLaunchKernelWithConfig(func, 4, stream_, nullptr, args, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
}

// ACL_STOP_ON_FAILURE: after a fault the stream runs nothing more (launches its caller would have
// run inline included) and reports the fault at every synchronize; an event record after it still
// completes. The default mode runs on.
TEST_F(KernelLaunchTest, StopOnFailureStopsTheStream) {
  aclrtFuncHandle func = function(load("test_kernels.o"), "fail_at_block");
  uint32_t *ran = deviceArray<uint32_t>(1);
  auto launch = [&](aclrtStream stream, uint32_t failingBlock) {
    aclrtArgsHandle args = nullptr;
    ASSERT_EQ(aclrtKernelArgsInit(func, &args), ACL_SUCCESS);
    append(args, failingBlock);
    append(args, ran);
    ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernelWithConfig(func, 1, stream, nullptr, args, nullptr), ACL_SUCCESS);
  };
  auto ranCount = [&] {
    uint32_t count = 0;
    EXPECT_EQ(aclrtMemcpy(&count, 4, ran, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return count;
  };
  EXPECT_EQ(aclrtSetStreamFailureMode(stream_, 2), ACL_ERROR_INVALID_PARAM);
  int bogus = 0;
  EXPECT_EQ(aclrtSetStreamFailureMode(&bogus, ACL_STOP_ON_FAILURE), ACL_ERROR_RT_INVALID_HANDLE);
  ASSERT_EQ(aclrtSetStreamFailureMode(stream_, ACL_STOP_ON_FAILURE), ACL_SUCCESS);

  ASSERT_EQ(aclrtMemset(ran, 4, 0, 4), ACL_SUCCESS);
  launch(stream_, 0);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_EQ(ranCount(), 1u);
  launch(stream_, 99);  // would succeed
  ASSERT_EQ(aclrtMemsetAsync(ran, 4, 0x11, 4, stream_), ACL_SUCCESS);
  // A 1-element Add through a handle, which its caller would run on an idle stream.
  int64_t dims[] = {1};
  aclTensorDesc *desc = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
  const aclTensorDesc *addInputs[] = {desc, desc};
  const aclTensorDesc *addOutputs[] = {desc};
  ASSERT_EQ(aclopCompile("Add", 2, addInputs, 1, addOutputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_SUCCESS);
  aclopHandle *add = nullptr;
  ASSERT_EQ(aclopCreateHandle("Add", 2, addInputs, 1, addOutputs, nullptr, &add), ACL_SUCCESS);
  float *values = deviceArray<float>(2);
  const float initial[2] = {1.0f, 0.0f};
  ASSERT_EQ(aclrtMemcpy(values, 8, initial, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  aclDataBuffer *x = aclCreateDataBuffer(values, 4), *sum = aclCreateDataBuffer(values + 1, 4);
  const aclDataBuffer *addIn[] = {x, x};
  aclDataBuffer *addOut[] = {sum};
  ASSERT_EQ(aclopExecWithHandle(add, 2, addIn, 1, addOut, stream_), ACL_SUCCESS);
  aclrtEvent after = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&after), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(after, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeEvent(after), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION) << "reported again";
  EXPECT_NE(recentError().find("fail_at_block"), std::string::npos) << recentError();
  EXPECT_EQ(ranCount(), 1u) << "nothing ran after the fault";
  float seen[2] = {-1.0f, -1.0f};
  ASSERT_EQ(aclrtMemcpy(seen, 8, values, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(seen[1], 0.0f) << "the Add did not run";
  aclopDestroyHandle(add);
  aclDestroyDataBuffer(x);
  aclDestroyDataBuffer(sum);
  aclDestroyTensorDesc(desc);
  EXPECT_EQ(aclrtDestroyEvent(after), ACL_SUCCESS);

  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetStreamFailureMode(other, ACL_CONTINUE_ON_FAILURE), ACL_SUCCESS);
  launch(other, 0);
  launch(other, 99);
  EXPECT_EQ(aclrtSynchronizeStream(other), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_EQ(ranCount(), 3u) << "the default mode runs on after a fault";
  EXPECT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS) << "and reports it once";
  // Stop mode set after a fault that stopped nothing, before it was reported: it is reported once.
  launch(other, 0);
  aclrtEvent faulted = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&faulted), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(faulted, other), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeEvent(faulted), ACL_SUCCESS);  // the fault is recorded, not yet reported
  EXPECT_EQ(aclrtDestroyEvent(faulted), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetStreamFailureMode(other, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(other), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS) << "reported already: it stopped nothing";
  EXPECT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
  // An abort clears the stop: the stream runs again, with no fault pending.
  ASSERT_EQ(aclrtStreamAbort(stream_), ACL_SUCCESS);
  launch(stream_, 99);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(ranCount(), 5u);
  launch(stream_, 0);
  launch(stream_, 99);
  EXPECT_EQ(aclrtDestroyStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION) << "still stop on failure; reported";
  EXPECT_EQ(ranCount(), 6u) << "the launch after the new fault was discarded";
  ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);  // for TearDown
}

TEST_F(KernelLaunchTest, UnloadWithLaunchesInFlightIsSafe) {
  const uint32_t n = 4096;
  auto x = randomFloats(n, 11);
  float *dx = deviceArray<float>(n), *dz = deviceArray<float>(n);
  ASSERT_EQ(aclrtMemcpy(dx, n * 4, x.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  aclrtBinHandle binary = nullptr;
  ASSERT_EQ(aclrtBinaryLoadFromFile(kernelPath("vector_add.o").c_str(), nullptr, &binary), ACL_SUCCESS);
  aclrtFuncHandle func = function(binary, "add_custom");
  aclrtArgsHandle args = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(func, &args), ACL_SUCCESS);
  append(args, dx);
  append(args, dx);
  append(args, dz);
  append(args, n);
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  ASSERT_EQ(aclrtSubscribeReport(static_cast<uint64_t>(pthread_self()), stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchCallback([](void *) {}, nullptr, ACL_CALLBACK_BLOCK, stream_), ACL_SUCCESS);
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(aclrtLaunchKernelWithConfig(func, 8, stream_, nullptr, args, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtBinaryUnLoad(binary), ACL_SUCCESS);
  EXPECT_EQ(aclrtLaunchKernelWithConfig(func, 8, stream_, nullptr, args, nullptr), ACL_ERROR_RT_INVALID_HANDLE);
  aclrtFuncHandle again = nullptr;
  EXPECT_EQ(aclrtBinaryGetFunction(binary, "add_custom", &again), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtBinaryUnLoad(binary), ACL_ERROR_RT_INVALID_HANDLE);
  ASSERT_EQ(aclrtProcessReport(1000), ACL_SUCCESS);  // now the queued launches run
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  std::vector<float> z(n);
  ASSERT_EQ(aclrtMemcpy(z.data(), n * 4, dz, n * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(z[i], 2 * x[i]);
  ASSERT_EQ(aclrtUnSubscribeReport(static_cast<uint64_t>(pthread_self()), stream_), ACL_SUCCESS);
}

TEST_F(KernelLaunchTest, ScratchMemoryFollowsLocalMemorySize) {
  aclrtFuncHandle func = function(load("test_kernels.o"), "probe_scratch");
  uint64_t *sizes = deviceArray<uint64_t>(8);
  aclrtArgsHandle args = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(func, &args), ACL_SUCCESS);
  append(args, sizes);
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithConfig(func, 8, stream_, nullptr, args, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  std::vector<uint64_t> seen(8);
  ASSERT_EQ(aclrtMemcpy(seen.data(), 64, sizes, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (uint64_t size : seen) EXPECT_EQ(size, 256u << 10);
  aclrtLaunchKernelAttr attr{};
  attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_LOCAL_MEMORY_SIZE;
  attr.value.localMemorySize = 3 << 20;
  aclrtLaunchKernelCfg cfg{&attr, 1};
  ASSERT_EQ(aclrtLaunchKernelWithConfig(func, 8, stream_, &cfg, args, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(seen.data(), 64, sizes, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (uint64_t size : seen) EXPECT_EQ(size, 3u << 20);
}

TEST_F(KernelLaunchTest, NumBlocksOffsetPatchesTheArguments) {
  aclrtFuncHandle func = function(load("test_kernels.o"), "echo_num_blocks");
  uint32_t *out = deviceArray<uint32_t>(1);
  aclrtArgsHandle args = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(func, &args), ACL_SUCCESS);
  append(args, out);
  append(args, uint32_t{0});
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  aclrtLaunchKernelAttr attrs[2] = {};
  attrs[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_NUMBLOCKS_OFFSET;
  attrs[0].value.numBlocksOffset = 8;
  attrs[1].id = ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE;
  attrs[1].value.engineType = ACL_RT_ENGINE_TYPE_AIV;
  aclrtLaunchKernelCfg cfg{attrs, 2};
  ASSERT_EQ(aclrtLaunchKernelWithConfig(func, 13, stream_, &cfg, args, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  uint32_t value = 0;
  ASSERT_EQ(aclrtMemcpy(&value, 4, out, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(value, 13u);
  attrs[0].value.numBlocksOffset = 10;  // past the 12 argument bytes
  EXPECT_EQ(aclrtLaunchKernelWithConfig(func, 13, stream_, &cfg, args, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(KernelLaunchTest, RawArgumentBytesAndRawAbiKernel) {
  aclrtFuncHandle func = function(load("test_kernels.so"), "raw_copy");
  int32_t *source = deviceArray<int32_t>(1), *target = deviceArray<int32_t>(1);
  int32_t value = 1234;
  ASSERT_EQ(aclrtMemcpy(source, 4, &value, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  void *raw[2] = {source, target};
  ASSERT_EQ(aclrtLaunchKernel(func, 1, raw, sizeof(raw), stream_), ACL_SUCCESS);
  raw[1] = nullptr;  // snapshotted at launch
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  int32_t copied = 0;
  ASSERT_EQ(aclrtMemcpy(&copied, 4, target, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(copied, 1234);
  EXPECT_EQ(aclrtLaunchKernel(func, 1, nullptr, 16, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtLaunchKernel(func, 0, raw, sizeof(raw), stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtLaunchKernel(nullptr, 1, raw, sizeof(raw), stream_), ACL_ERROR_INVALID_PARAM);
}

TEST(KernelSyncMode, LaunchRunsInlineAtEnqueue) {
  ScopedEnv sync("ACLCPU_SYNC", "1");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtBinHandle binary = nullptr;
  ASSERT_EQ(aclrtBinaryLoadFromFile(kernelPath("test_kernels.o").c_str(), nullptr, &binary), ACL_SUCCESS);
  aclrtFuncHandle func = nullptr;
  ASSERT_EQ(aclrtBinaryGetFunction(binary, "mark_blocks", &func), ACL_SUCCESS);
  std::vector<uint32_t> hits(64, 0);
  uint32_t worker = 0;
  void *raw[2] = {hits.data(), &worker};
  ASSERT_EQ(aclrtLaunchKernel(func, 64, raw, sizeof(raw), nullptr), ACL_SUCCESS);
  for (uint32_t h : hits) EXPECT_EQ(h, 1u) << "ran before the call returned";
  ASSERT_EQ(aclrtBinaryUnLoad(binary), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}
