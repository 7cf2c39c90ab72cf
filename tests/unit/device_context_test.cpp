// Devices and their attributes, contexts and the per-thread current context.
#include "runtime_fixture.h"

#include <thread>

using namespace aclcpu_test;

class DeviceTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS); }
  void TearDown() override { EXPECT_EQ(aclFinalize(), ACL_SUCCESS); }
  ScopedEnv devices_{"ACLCPU_NUM_DEVICES", "2"};
};

TEST_F(DeviceTest, SetGetResetDevice) {
  int32_t id = -1;
  EXPECT_EQ(aclrtGetDevice(&id), ACL_ERROR_RT_CONTEXT_NULL);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetDevice(&id), ACL_SUCCESS);
  EXPECT_EQ(id, 1);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetDevice(&id), ACL_SUCCESS);
  EXPECT_EQ(id, 0);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetDevice(&id), ACL_ERROR_RT_CONTEXT_NULL) << "the current context went with the reset";
  EXPECT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(1), ACL_ERROR_RT_INVALID_DEVICEID) << "reset without a matching set";
  EXPECT_EQ(aclrtGetDevice(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(DeviceTest, InvalidDeviceIds) {
  for (int32_t id : {-1, 2, 1000}) {
    EXPECT_EQ(aclrtSetDevice(id), ACL_ERROR_RT_INVALID_DEVICEID) << id;
    EXPECT_EQ(aclrtResetDevice(id), ACL_ERROR_RT_INVALID_DEVICEID) << id;
    aclrtContext context = nullptr;
    EXPECT_EQ(aclrtCreateContext(&context, id), ACL_ERROR_RT_INVALID_DEVICEID) << id;
  }
  EXPECT_NE(recentError().find("1000"), std::string::npos);
}

TEST_F(DeviceTest, SetDeviceIsReferenceCounted) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtContext first = nullptr, second = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&first), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetCurrentContext(&second), ACL_SUCCESS);
  EXPECT_EQ(first, second) << "a device has one default context";
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  aclrtContext still = nullptr;
  EXPECT_EQ(aclrtGetCurrentContext(&still), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetCurrentContext(&still), ACL_ERROR_RT_CONTEXT_NULL);
}

TEST_F(DeviceTest, ExplicitContexts) {
  aclrtContext a = nullptr, b = nullptr, current = nullptr;
  ASSERT_EQ(aclrtCreateContext(&a, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetCurrentContext(&current), ACL_SUCCESS);
  EXPECT_EQ(current, a) << "a new context becomes current";
  ASSERT_EQ(aclrtCreateContext(&b, 1), ACL_SUCCESS);
  int32_t id = -1;
  ASSERT_EQ(aclrtGetDevice(&id), ACL_SUCCESS);
  EXPECT_EQ(id, 1);
  ASSERT_EQ(aclrtSetCurrentContext(a), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetDevice(&id), ACL_SUCCESS);
  EXPECT_EQ(id, 0);

  // Streams belong to the current context and go with it.
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyContext(a), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtGetCurrentContext(&current), ACL_ERROR_RT_CONTEXT_NULL) << "the destroyed context was current";
  EXPECT_EQ(aclrtDestroyContext(a), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtSetCurrentContext(a), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtDestroyContext(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSetCurrentContext(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtCreateContext(nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyContext(b), ACL_SUCCESS);
}

TEST_F(DeviceTest, DefaultContextCannotBeDestroyed) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyContext(context), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("aclrtResetDevice"), std::string::npos);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}

TEST_F(DeviceTest, CurrentContextIsPerThread) {
  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtCreateContext(&context, 1), ACL_SUCCESS);
  aclError before = ACL_SUCCESS, after = ACL_ERROR_INTERNAL_ERROR;
  int32_t id = -1;
  std::thread([&] {
    aclrtContext none = nullptr;
    before = aclrtGetCurrentContext(&none);
    // Another thread may adopt the context and use it.
    after = aclrtSetCurrentContext(context);
    aclrtGetDevice(&id);
  }).join();
  EXPECT_EQ(before, ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_EQ(after, ACL_SUCCESS);
  EXPECT_EQ(id, 1);
  EXPECT_EQ(aclrtDestroyContext(context), ACL_SUCCESS);
}

TEST_F(DeviceTest, DeviceCountAndNullArguments) {
  uint32_t count = 0;
  ASSERT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(aclrtGetDeviceCount(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetCurrentContext(nullptr), ACL_ERROR_INVALID_PARAM);
}

// A virtual device's cores are its worker threads, its global memory the configured limit.
TEST(DeviceInfo, AttributesDescribeTheVirtualDevice) {
  ScopedEnv threads("ACLCPU_NUM_THREADS", "3"), memory("ACLCPU_DEVICE_MEMORY_MB", "64"),
      devices("ACLCPU_NUM_DEVICES", "2");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  int64_t value = -1;
  for (aclrtDevAttr cores : {ACL_DEV_ATTR_AICPU_CORE_NUM, ACL_DEV_ATTR_AICORE_CORE_NUM, ACL_DEV_ATTR_CUBE_CORE_NUM,
                             ACL_DEV_ATTR_VECTOR_CORE_NUM}) {
    ASSERT_EQ(aclrtGetDeviceInfo(1, cores, &value), ACL_SUCCESS) << recentError();
    EXPECT_EQ(value, 3) << cores;
  }
  ASSERT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 64 << 20);
  ASSERT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_LOCAL_MEM_PER_VECTOR_CORE, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 64 << 20) << "the most scratch memory a launch may ask for";
  ASSERT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_L2_CACHE_SIZE, &value), ACL_SUCCESS);
  EXPECT_GE(value, 0);
  ASSERT_EQ(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_PHY_CHIP_ID, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 1);
  ASSERT_EQ(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_IS_VIRTUAL, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 1);
  ASSERT_EQ(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_SMP_ID, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 0);

  value = -1;
  EXPECT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_WARP_SIZE, &value), ACL_ERROR_API_NOT_SUPPORT);
  EXPECT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_SUPER_POD_ID, &value), ACL_ERROR_API_NOT_SUPPORT);
  EXPECT_EQ(aclrtGetDeviceInfo(0, static_cast<aclrtDevAttr>(7), &value), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("not an aclrtDevAttr"), std::string::npos) << recentError();
  EXPECT_EQ(value, -1) << "nothing written on failure";
  EXPECT_EQ(aclrtGetDeviceInfo(2, ACL_DEV_ATTR_CUBE_CORE_NUM, &value), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtGetDeviceInfo(0xFFFFFFFFu, ACL_DEV_ATTR_CUBE_CORE_NUM, &value), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &value), ACL_ERROR_UNINITIALIZE);
}

TEST_F(DeviceTest, ResetDeviceForceReleasesEverySet) {
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDeviceForce(1), ACL_SUCCESS);
  int32_t id = -1;
  EXPECT_EQ(aclrtGetDevice(&id), ACL_ERROR_RT_CONTEXT_NULL) << "the default context went at once";
  EXPECT_EQ(aclrtResetDevice(1), ACL_ERROR_RT_INVALID_DEVICEID) << "nothing left to reset";
  EXPECT_EQ(aclrtResetDeviceForce(1), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtResetDeviceForce(2), ACL_ERROR_RT_INVALID_DEVICEID);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS) << "set again after a forced reset";
  EXPECT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
}

TEST(SocName, NamesThisLibraryOnceInitialized) {
  EXPECT_EQ(aclrtGetSocName(), nullptr) << "before aclInit";
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  const char *name = aclrtGetSocName();
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(std::string(name).rfind("aclcpu", 0), 0u) << name;
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Version, IsTheHeadersAndNeedsNoInit) {
  int32_t major = -1, minor = -1, patch = -1;
  ASSERT_EQ(aclrtGetVersion(&major, &minor, &patch), ACL_SUCCESS);
  EXPECT_EQ(major, ACL_MAJOR_VERSION);
  EXPECT_EQ(minor, ACL_MINOR_VERSION);
  EXPECT_EQ(patch, ACL_PATCH_VERSION);
  EXPECT_GE(major, 1);
  EXPECT_EQ(aclrtGetVersion(nullptr, &minor, &patch), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetVersion(&major, &minor, nullptr), ACL_ERROR_INVALID_PARAM);
}

// Any device reaches any other's memory; enabling access is one way and checked.
TEST_F(DeviceTest, PeerAccess) {
  int32_t can = -1;
  ASSERT_EQ(aclrtDeviceCanAccessPeer(&can, 0, 1), ACL_SUCCESS);
  EXPECT_EQ(can, 1);
  EXPECT_EQ(aclrtDeviceCanAccessPeer(&can, 1, 1), ACL_ERROR_INVALID_PARAM) << "a device and itself";
  EXPECT_EQ(aclrtDeviceCanAccessPeer(&can, 0, 2), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtDeviceCanAccessPeer(nullptr, 0, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_ERROR_RT_CONTEXT_NULL) << "no current device";

  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtDeviceEnablePeerAccess(1, 1), ACL_ERROR_INVALID_PARAM) << "flags are reserved";
  EXPECT_EQ(aclrtDeviceEnablePeerAccess(0, 0), ACL_ERROR_INVALID_PARAM) << "the current device";
  EXPECT_EQ(aclrtDeviceEnablePeerAccess(5, 0), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtDeviceDisablePeerAccess(1), ACL_ERROR_INVALID_PARAM) << "not enabled yet";
  int32_t status = -1;
  ASSERT_EQ(aclrtDevicePeerAccessStatus(0, 1, &status), ACL_SUCCESS);
  EXPECT_EQ(status, 0);
  ASSERT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS) << "again: no error";
  ASSERT_EQ(aclrtDevicePeerAccessStatus(0, 1, &status), ACL_SUCCESS);
  EXPECT_EQ(status, 1);
  ASSERT_EQ(aclrtDevicePeerAccessStatus(1, 0, &status), ACL_SUCCESS);
  EXPECT_EQ(status, 0) << "one way";
  EXPECT_EQ(aclrtDevicePeerAccessStatus(0, 3, &status), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtDevicePeerAccessStatus(0, 1, nullptr), ACL_ERROR_INVALID_PARAM);
  // One way: device 1 has not enabled access to device 0.
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  EXPECT_EQ(aclrtDeviceDisablePeerAccess(0), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtDeviceDisablePeerAccess(1), ACL_SUCCESS);
  EXPECT_EQ(aclrtDeviceDisablePeerAccess(1), ACL_ERROR_INVALID_PARAM) << "disabled already";
  ASSERT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
  // A reset device starts over.
  ASSERT_EQ(aclrtResetDeviceForce(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtDeviceDisablePeerAccess(1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
}

TEST_F(DeviceTest, StatusPriorityRangeAndOverflowMode) {
  aclrtDeviceStatus status = ACL_RT_DEVICE_STATUS_END;
  ASSERT_EQ(aclrtQueryDeviceStatus(1, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_RT_DEVICE_STATUS_NORMAL);
  EXPECT_EQ(aclrtQueryDeviceStatus(2, &status), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtQueryDeviceStatus(0, nullptr), ACL_ERROR_INVALID_PARAM);
  int32_t least = -1, greatest = -1;
  ASSERT_EQ(aclrtDeviceGetStreamPriorityRange(&least, &greatest), ACL_SUCCESS);
  EXPECT_EQ(least, 7);
  EXPECT_EQ(greatest, 0);

  aclrtFloatOverflowMode mode = ACL_RT_OVERFLOW_MODE_UNDEF;
  EXPECT_EQ(aclrtGetDeviceSatMode(&mode), ACL_ERROR_RT_CONTEXT_NULL) << "no current device";
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetDeviceSatMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(mode, ACL_RT_OVERFLOW_MODE_INFNAN);
  EXPECT_EQ(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION), ACL_ERROR_API_NOT_SUPPORT);
  EXPECT_NE(recentError().find("IEEE"), std::string::npos) << recentError();
  EXPECT_EQ(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_UNDEF), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSetDeviceSatMode(static_cast<aclrtFloatOverflowMode>(-5)), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetDeviceSatMode(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}
