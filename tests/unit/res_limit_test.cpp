// Device resource limits through the public API: which limit each query reports (stream over
// device over the worker threads), the calling thread's use of a stream's limits, bad input,
// and that a limited launch runs its blocks on that many threads.
#include "kernel_fixture.h"

#include <set>
#include <thread>

using namespace aclcpu_test;

namespace {

constexpr aclrtDevResLimitType kCube = ACL_RT_DEV_RES_CUBE_CORE, kVector = ACL_RT_DEV_RES_VECTOR_CORE;

// A runtime with four worker threads a device, whatever the machine has.
class ResLimitTest : public KernelTest {
 protected:
  uint32_t device(aclrtDevResLimitType type) {
    uint32_t value = 0;
    EXPECT_EQ(aclrtGetDeviceResLimit(0, type, &value), ACL_SUCCESS) << recentError();
    return value;
  }
  uint32_t stream(aclrtStream handle, aclrtDevResLimitType type) {
    uint32_t value = 0;
    EXPECT_EQ(aclrtGetStreamResLimit(handle, type, &value), ACL_SUCCESS) << recentError();
    return value;
  }
  uint32_t thread(aclrtDevResLimitType type) {
    uint32_t value = 0;
    EXPECT_EQ(aclrtGetResInCurrentThread(type, &value), ACL_SUCCESS) << recentError();
    return value;
  }
  ScopedEnv threads_{"ACLCPU_NUM_THREADS", "4"};
};

}  // namespace

TEST_F(ResLimitTest, StreamLimitsOverrideTheDevicesWhichOverrideItsThreads) {
  EXPECT_EQ(device(kCube), 4u) << "no limit: the device's worker threads";
  EXPECT_EQ(device(kVector), 4u);
  EXPECT_EQ(stream(stream_, kCube), 4u);
  EXPECT_EQ(thread(kCube), 4u);

  ASSERT_EQ(aclrtSetDeviceResLimit(0, kCube, 2), ACL_SUCCESS) << recentError();
  EXPECT_EQ(device(kCube), 2u);
  EXPECT_EQ(device(kVector), 4u) << "each kind has its own limit";
  EXPECT_EQ(stream(stream_, kCube), 2u) << "a stream without its own limit reports the device's";
  EXPECT_EQ(stream(nullptr, kCube), 2u) << "the default stream too";
  EXPECT_EQ(thread(kCube), 2u);

  ASSERT_EQ(aclrtSetStreamResLimit(stream_, kCube, 3), ACL_SUCCESS) << recentError();
  ASSERT_EQ(aclrtSetStreamResLimit(stream_, kVector, 1), ACL_SUCCESS) << recentError();
  EXPECT_EQ(stream(stream_, kCube), 3u);
  EXPECT_EQ(stream(stream_, kVector), 1u);
  EXPECT_EQ(stream(nullptr, kVector), 4u) << "another stream keeps the device's";
  EXPECT_EQ(thread(kVector), 4u) << "a stream's limits apply to threads that use them";

  ASSERT_EQ(aclrtUseStreamResInCurrentThread(stream_), ACL_SUCCESS) << recentError();
  EXPECT_EQ(thread(kCube), 3u);
  EXPECT_EQ(thread(kVector), 1u);
  uint32_t other = 0;
  std::thread([&] {
    aclrtSetDevice(0);
    aclrtGetResInCurrentThread(kVector, &other);
    aclrtResetDevice(0);
  }).join();
  EXPECT_EQ(other, 4u) << "only the thread that used the stream obeys its limits";

  ASSERT_EQ(aclrtResetStreamResLimit(stream_), ACL_SUCCESS);
  EXPECT_EQ(thread(kCube), 2u) << "a used stream without limits leaves the device's";
  EXPECT_EQ(thread(kVector), 4u);
  ASSERT_EQ(aclrtSetStreamResLimit(stream_, kVector, 2), ACL_SUCCESS);
  EXPECT_EQ(thread(kVector), 2u) << "a limit set after the use applies";
  ASSERT_EQ(aclrtUnuseStreamResInCurrentThread(stream_), ACL_SUCCESS) << recentError();
  EXPECT_EQ(thread(kVector), 4u);

  ASSERT_EQ(aclrtResetDeviceResLimit(0), ACL_SUCCESS);
  EXPECT_EQ(device(kCube), 4u);
  EXPECT_EQ(stream(stream_, kCube), 4u);
}

TEST_F(ResLimitTest, BadInputIsRejected) {
  uint32_t value = 0;
  const auto badType = static_cast<aclrtDevResLimitType>(7);
  EXPECT_EQ(aclrtSetDeviceResLimit(0, badType, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("ACL_RT_DEV_RES_CUBE_CORE"), std::string::npos) << recentError();
  EXPECT_EQ(aclrtGetStreamResLimit(stream_, badType, &value), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetResInCurrentThread(badType, &value), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSetDeviceResLimit(0, kCube, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSetDeviceResLimit(0, kCube, 5), ACL_ERROR_INVALID_PARAM) << "more than the device's threads";
  EXPECT_NE(recentError().find("[1, 4]"), std::string::npos) << recentError();
  EXPECT_EQ(aclrtSetStreamResLimit(stream_, kVector, 5), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSetDeviceResLimit(9, kCube, 1), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtGetDeviceResLimit(-1, kCube, &value), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtResetDeviceResLimit(9), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtGetDeviceResLimit(0, kCube, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetStreamResLimit(stream_, kCube, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetResInCurrentThread(kCube, nullptr), ACL_ERROR_INVALID_PARAM);
  int notAStream = 0;
  EXPECT_EQ(aclrtSetStreamResLimit(&notAStream, kCube, 1), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtResetStreamResLimit(&notAStream), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtUseStreamResInCurrentThread(&notAStream), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtUnuseStreamResInCurrentThread(stream_), ACL_ERROR_INVALID_PARAM) << "not in use";
  EXPECT_EQ(device(kCube), 4u) << "nothing changed";
}

TEST_F(ResLimitTest, AStreamDestroyedWhileInUseIsLetGoByItsHandle) {
  aclrtStream doomed = nullptr;
  ASSERT_EQ(aclrtCreateStream(&doomed), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetStreamResLimit(doomed, kVector, 1), ACL_SUCCESS);
  ASSERT_EQ(aclrtUseStreamResInCurrentThread(doomed), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(doomed), ACL_SUCCESS);
  EXPECT_EQ(thread(kVector), 1u) << "the thread still uses its limits";
  EXPECT_EQ(aclrtUnuseStreamResInCurrentThread(doomed), ACL_SUCCESS) << recentError();
  EXPECT_EQ(thread(kVector), 4u);
}

TEST(ResLimit, AThreadsUseEndsWithTheRuntime) {
  ScopedEnv threads("ACLCPU_NUM_THREADS", "2");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  uint32_t value = 0;
  EXPECT_EQ(aclrtGetResInCurrentThread(kCube, &value), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetStreamResLimit(nullptr, kCube, 1), ACL_SUCCESS);
  ASSERT_EQ(aclrtUseStreamResInCurrentThread(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDeviceResLimit(0, kVector, 1), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetDeviceResLimit(0, kCube, 1), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclrtUseStreamResInCurrentThread(nullptr), ACL_ERROR_UNINITIALIZE);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetResInCurrentThread(kCube, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 2u) << "the last runtime's stream no longer limits this thread";
  EXPECT_EQ(aclrtGetResInCurrentThread(kVector, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 2u) << "nor its device limits";
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

// 256 blocks of ~10-20 us on four workers (unlimited, the four take blocks): under a limit of 1
// every block runs on one thread; the limit of the launch's kind is the one that counts.
class LimitedLaunch : public ResLimitTest {
 protected:
  std::set<uint32_t> workersOf(aclrtEngineType engine) {
    constexpr uint32_t kBlocks = 256;
    aclrtFuncHandle func = function(load("test_kernels.o"), "record_workers");
    uint32_t *workers = deviceArray<uint32_t>(kBlocks);
    aclrtArgsHandle args = nullptr;
    EXPECT_EQ(aclrtKernelArgsInit(func, &args), ACL_SUCCESS);
    append(args, workers);
    EXPECT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
    aclrtLaunchKernelAttr attr{};
    attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE;
    attr.value.engineType = engine;
    aclrtLaunchKernelCfg config{&attr, 1};
    EXPECT_EQ(aclrtLaunchKernelWithConfig(func, kBlocks, stream_, &config, args, nullptr), ACL_SUCCESS)
        << recentError();
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<uint32_t> ran(kBlocks);
    EXPECT_EQ(aclrtMemcpy(ran.data(), kBlocks * 4, workers, kBlocks * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return std::set<uint32_t>(ran.begin(), ran.end());
  }
};

TEST_F(LimitedLaunch, AStreamsLimitBoundsTheThreadsOfTheUsingThreadsLaunches) {
  ASSERT_EQ(aclrtSetStreamResLimit(stream_, kVector, 1), ACL_SUCCESS);
  ASSERT_EQ(aclrtUseStreamResInCurrentThread(stream_), ACL_SUCCESS);
  EXPECT_EQ(workersOf(ACL_RT_ENGINE_TYPE_AIV).size(), 1u);
  ASSERT_EQ(aclrtUnuseStreamResInCurrentThread(stream_), ACL_SUCCESS);
}

TEST_F(LimitedLaunch, ADevicesCubeLimitBoundsCubeLaunchesOnly) {
  ASSERT_EQ(aclrtSetDeviceResLimit(0, kCube, 1), ACL_SUCCESS);
  EXPECT_EQ(workersOf(ACL_RT_ENGINE_TYPE_AIC).size(), 1u);
  // Two threads at most, whichever they are: a synchronizing thread that helps takes one of the
  // two places, never a third (it arrives at a random point of the launch, hence the repeats).
  ASSERT_EQ(aclrtSetDeviceResLimit(0, kCube, 2), ACL_SUCCESS);
  for (int launch = 0; launch < 200; ++launch) ASSERT_LE(workersOf(ACL_RT_ENGINE_TYPE_AIC).size(), 2u) << launch;
}
