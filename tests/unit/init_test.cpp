// aclInit / aclFinalize, configuration, use before init, and per-thread error messages.
#include "runtime_fixture.h"

#include <thread>
#include <vector>

using namespace aclcpu_test;

TEST(Init, InitTwiceIsRepeatInitialize) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_NE(recentError().find("aclInit"), std::string::npos);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Init, FinalizeBeforeInitIsAnError) {
  EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
}

TEST(Init, InitAgainAfterFinalize) {
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void *p = nullptr;
    ASSERT_EQ(aclrtMalloc(&p, 100, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    // Finalize releases what the application did not: no leak under ASan.
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  }
}

TEST(Init, UseBeforeInitIsUninitialize) {
  uint32_t count = 0;
  EXPECT_EQ(aclrtGetDeviceCount(&count), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
  aclrtStream stream = nullptr;
  EXPECT_EQ(aclrtCreateStream(&stream), ACL_ERROR_UNINITIALIZE);
  void *p = nullptr;
  EXPECT_EQ(aclrtMalloc(&p, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_ERROR_UNINITIALIZE);
  aclrtEvent event = nullptr;
  EXPECT_EQ(aclrtCreateEvent(&event), ACL_ERROR_UNINITIALIZE);
  EXPECT_NE(recentError().find("aclInit"), std::string::npos);
}

TEST(Init, EmptyAndKnownConfigFilesAreAccepted) {
  for (const char *contents :
       {"", "{}", "  \n", R"({"profiler": {"switch": "on", "output": "/tmp"}, "dump": {"dump_list": []}})",
        R"({"unknown_key": 3, "another": {"nested": true}})"}) {
    TempFile file(contents);
    ASSERT_EQ(aclInit(file.path()), ACL_SUCCESS) << contents << ": " << recentError();
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  }
  ASSERT_EQ(aclInit(""), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Init, MalformedConfigIsParseFileError) {
  for (const char *contents : {"{", "not json", "[1, 2]", R"({"dump": 3})", R"({"aclcpu": {"num_devices": "two"}})",
                               R"({"aclcpu": {"num_devices": 0}})", R"({"aclcpu": {"check": 1}})",
                               R"({"aclcpu": []})"}) {
    TempFile file(contents);
    EXPECT_EQ(aclInit(file.path()), ACL_ERROR_PARSE_FILE) << contents;
    EXPECT_NE(recentError().find(file.path()), std::string::npos) << recentError();
  }
  uint32_t count = 0;
  EXPECT_EQ(aclrtGetDeviceCount(&count), ACL_ERROR_UNINITIALIZE) << "a failed aclInit leaves the runtime down";
}

TEST(Init, MissingConfigFileIsInvalidFile) {
  EXPECT_EQ(aclInit("/nonexistent/acl.json"), ACL_ERROR_INVALID_FILE);
  EXPECT_NE(recentError().find("/nonexistent/acl.json"), std::string::npos);
}

TEST(Init, DeviceCountFromConfigAndEnvironment) {
  TempFile file(R"({"aclcpu": {"num_devices": 3, "num_threads": 2}})");
  uint32_t count = 0;
  {
    ScopedEnv unset("ACLCPU_NUM_DEVICES", nullptr);
    ASSERT_EQ(aclInit(file.path()), ACL_SUCCESS) << recentError();
    ASSERT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
    EXPECT_EQ(count, 3u);
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  }
  {
    ScopedEnv devices("ACLCPU_NUM_DEVICES", "2");  // the environment overrides the file
    ASSERT_EQ(aclInit(file.path()), ACL_SUCCESS);
    ASSERT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
    EXPECT_EQ(count, 2u);
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  }
}

TEST(Init, InvalidEnvironmentIsRejected) {
  for (const char *value : {"0", "-1", "abc", "2x", "100000"}) {
    ScopedEnv devices("ACLCPU_NUM_DEVICES", value);
    EXPECT_EQ(aclInit(nullptr), ACL_ERROR_INVALID_PARAM) << value;
    EXPECT_NE(recentError().find("ACLCPU_NUM_DEVICES"), std::string::npos);
  }
  ScopedEnv threads("ACLCPU_NUM_THREADS", "0");
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST(Init, RecentErrorMessageIsPerThread) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetDeviceCount(nullptr), ACL_ERROR_INVALID_PARAM);
  std::string mine = recentError();
  EXPECT_NE(mine.find("count"), std::string::npos) << mine;
  std::string other = "unset";
  std::thread([&] {
    const char *message = aclGetRecentErrMsg();
    other = message ? message : "";
  }).join();
  EXPECT_EQ(other, "");
  EXPECT_EQ(recentError(), mine);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Init, RunModeIsHost) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  aclrtRunMode mode = ACL_DEVICE;
  EXPECT_EQ(aclrtGetRunMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(mode, ACL_HOST);
  EXPECT_EQ(aclrtGetRunMode(nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Init, FinalizeWaitsForOutstandingWork) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  const size_t bytes = 8 << 20;
  std::vector<char> source(bytes, 7), target(bytes, 0);
  void *device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  for (int i = 0; i < 8; ++i) {
    ASSERT_EQ(aclrtMemcpyAsync(device, bytes, source.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(target.data(), bytes, device, bytes, ACL_MEMCPY_DEVICE_TO_HOST, stream), ACL_SUCCESS);
  }
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(target[0], 7);
  EXPECT_EQ(target[bytes - 1], 7);
}
