// Streams made with a configuration, their attributes, forced destruction and the device's count
// of streams.
#include "runtime_fixture.h"

#include <pthread.h>

#include <vector>

using namespace aclcpu_test;

using StreamConfigTest = RuntimeTest;

TEST_F(StreamConfigTest, ConfigKeepsPriorityAndFlags) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStreamWithConfig(&stream, 3, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC), ACL_SUCCESS);
  uint32_t priority = 99, flags = 99;
  ASSERT_EQ(aclrtStreamGetPriority(stream, &priority), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamGetFlags(stream, &flags), ACL_SUCCESS);
  EXPECT_EQ(priority, 3u);
  EXPECT_EQ(flags, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC);
  // It runs work as any stream does.
  std::vector<char> source(1 << 16, 5), target(1 << 16, 0);
  ASSERT_EQ(aclrtMemcpyAsync(target.data(), target.size(), source.data(), source.size(), ACL_MEMCPY_HOST_TO_HOST,
                             stream),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_EQ(target, source);

  // As in CANN: a priority past 7 is taken as 7, unknown flags as none.
  aclrtStream clamped = nullptr;
  ASSERT_EQ(aclrtCreateStreamWithConfig(&clamped, 100, 0x100), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamGetPriority(clamped, &priority), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamGetFlags(clamped, &flags), ACL_SUCCESS);
  EXPECT_EQ(priority, 7u);
  EXPECT_EQ(flags, 0u);

  // The default stream (NULL) and aclrtCreateStream's: highest priority, no flags; ids differ.
  aclrtStream plain = nullptr;
  ASSERT_EQ(aclrtCreateStream(&plain), ACL_SUCCESS);
  int32_t ids[3] = {-1, -1, -1};
  aclrtStream streams[3] = {nullptr, plain, stream};
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(aclrtStreamGetId(streams[i], &ids[i]), ACL_SUCCESS);
    EXPECT_GE(ids[i], 0);
    if (i == 2) break;
    ASSERT_EQ(aclrtStreamGetPriority(streams[i], &priority), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamGetFlags(streams[i], &flags), ACL_SUCCESS);
    EXPECT_EQ(priority, 0u);
    EXPECT_EQ(flags, 0u);
  }
  EXPECT_NE(ids[0], ids[1]);
  EXPECT_NE(ids[1], ids[2]);
  EXPECT_NE(ids[0], ids[2]);

  aclrtStream refused = nullptr;
  EXPECT_EQ(aclrtCreateStreamWithConfig(&refused, 0, ACL_STREAM_PERSISTENT), ACL_ERROR_API_NOT_SUPPORT);
  EXPECT_NE(recentError().find("ACL_STREAM_PERSISTENT"), std::string::npos) << recentError();
  EXPECT_EQ(aclrtCreateStreamWithConfig(&refused, 0, ACL_STREAM_FAST_SYNC | ACL_STREAM_DEVICE_USE_ONLY),
            ACL_ERROR_API_NOT_SUPPORT);
  EXPECT_EQ(refused, nullptr);
  EXPECT_EQ(aclrtCreateStreamWithConfig(nullptr, 0, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtStreamGetId(stream, nullptr), ACL_ERROR_INVALID_PARAM);
  for (aclrtStream s : {stream, clamped, plain}) EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  EXPECT_EQ(aclrtStreamGetPriority(stream, &priority), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtStreamGetFlags(plain, &flags), ACL_ERROR_RT_INVALID_HANDLE);
}

// A forced destroy returns at once and runs none of the stream's unstarted tasks; an event record
// among them still completes, so a stream waiting on it is not stuck.
TEST_F(StreamConfigTest, ForcedDestroyDiscardsUnstartedWork) {
  aclrtStream holder = nullptr, victim = nullptr, other = nullptr;
  for (aclrtStream *s : {&holder, &victim, &other}) ASSERT_EQ(aclrtCreateStream(s), ACL_SUCCESS);
  // The victim waits for an event that the holder records behind a blocking callback.
  const uint64_t thread = static_cast<uint64_t>(pthread_self());
  ASSERT_EQ(aclrtSubscribeReport(thread, holder), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchCallback([](void *) {}, nullptr, ACL_CALLBACK_BLOCK, holder), ACL_SUCCESS);
  aclrtEvent held = nullptr, done = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&held), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEventWithFlag(&done, ACL_EVENT_SYNC), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(held, holder), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(victim, held), ACL_SUCCESS);
  void *device = nullptr;
  const size_t bytes = 4096;
  ASSERT_EQ(aclrtMalloc(&device, bytes, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(device, bytes, 0, bytes), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(device, bytes, 0xAB, bytes, victim), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(done, victim), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(other, done), ACL_SUCCESS);

  ASSERT_EQ(aclrtDestroyStreamForce(victim), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS) << "the discarded record completed";
  std::vector<unsigned char> seen(bytes, 1);
  ASSERT_EQ(aclrtMemcpy(seen.data(), bytes, device, bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(seen, std::vector<unsigned char>(bytes, 0)) << "the memset never ran";
  aclrtEventWaitStatus waits = ACL_EVENT_WAIT_STATUS_RESERVED;
  ASSERT_EQ(aclrtQueryEventWaitStatus(done, &waits), ACL_SUCCESS);
  EXPECT_EQ(waits, ACL_EVENT_WAIT_STATUS_COMPLETE);
  EXPECT_EQ(aclrtDestroyStreamForce(victim), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtDestroyStreamForce(nullptr), ACL_ERROR_INVALID_PARAM);

  ASSERT_EQ(aclrtProcessReport(10000), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(holder), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS) << "nothing of the victim's is left to wait for";
  EXPECT_EQ(aclrtUnSubscribeReport(thread, holder), ACL_SUCCESS);
  for (aclrtEvent e : {held, done}) EXPECT_EQ(aclrtDestroyEvent(e), ACL_SUCCESS);
  for (aclrtStream s : {holder, other}) EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

// As in CANN, a device holds at most 1984 streams, its contexts' default streams included.
TEST_F(StreamConfigTest, StreamsAreCountedPerDevice) {
  uint32_t available = 0;
  ASSERT_EQ(aclrtGetStreamAvailableNum(&available), ACL_SUCCESS);
  EXPECT_EQ(available, 1983u) << "device 0's default stream holds one";
  EXPECT_EQ(aclrtGetStreamAvailableNum(nullptr), ACL_ERROR_INVALID_PARAM);
  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtCreateContext(&context, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetStreamAvailableNum(&available), ACL_SUCCESS);
  EXPECT_EQ(available, 1982u) << "a new context's default stream holds one";

  std::vector<aclrtStream> streams(available);
  for (aclrtStream &stream : streams) ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetStreamAvailableNum(&available), ACL_SUCCESS);
  EXPECT_EQ(available, 0u);
  aclrtStream extra = nullptr;
  EXPECT_EQ(aclrtCreateStreamWithConfig(&extra, 0, 0), ACL_ERROR_RT_NO_STREAM_RESOURCE);
  EXPECT_NE(recentError().find("1984"), std::string::npos) << recentError();
  ASSERT_EQ(aclrtDestroyStream(streams.back()), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&streams.back()), ACL_SUCCESS) << "a destroyed stream's slot is free again";
  ASSERT_EQ(aclrtDestroyStreamForce(streams.front()), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&streams.front()), ACL_SUCCESS) << "a force-destroyed one's too";

  // Destroying the context frees its default stream and the streams made in it.
  ASSERT_EQ(aclrtDestroyContext(context), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);  // back to the device's default context
  ASSERT_EQ(aclrtGetStreamAvailableNum(&available), ACL_SUCCESS);
  EXPECT_EQ(available, 1983u);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}

// The current context's default stream has a handle of its own, which works as NULL does and is
// not destroyed but with its context.
TEST_F(StreamConfigTest, DefaultStreamHandle) {
  aclrtStream byHandle = nullptr;
  ASSERT_EQ(aclrtCtxGetCurrentDefaultStream(&byHandle), ACL_SUCCESS);
  ASSERT_NE(byHandle, nullptr);
  int32_t handleId = -1, nullId = -2;
  ASSERT_EQ(aclrtStreamGetId(byHandle, &handleId), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamGetId(nullptr, &nullId), ACL_SUCCESS);
  EXPECT_EQ(handleId, nullId) << "the same stream";
  std::vector<char> source(4096, 9), target(4096, 0);
  ASSERT_EQ(aclrtMemcpyAsync(target.data(), 4096, source.data(), 4096, ACL_MEMCPY_HOST_TO_HOST, byHandle),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS) << "work on the handle is work on NULL";
  EXPECT_EQ(target, source);
  EXPECT_EQ(aclrtDestroyStream(byHandle), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("default stream"), std::string::npos) << recentError();
  EXPECT_EQ(aclrtDestroyStreamForce(byHandle), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSynchronizeStream(byHandle), ACL_SUCCESS) << "still there";
  EXPECT_EQ(aclrtCtxGetCurrentDefaultStream(nullptr), ACL_ERROR_INVALID_PARAM);

  // Another context has another default stream; the handle goes with its context.
  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtCreateContext(&context, 0), ACL_SUCCESS);
  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCtxGetCurrentDefaultStream(&other), ACL_SUCCESS);
  EXPECT_NE(other, byHandle);
  ASSERT_EQ(aclrtDestroyContext(context), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(other), ACL_ERROR_RT_INVALID_HANDLE);
  int32_t active = -1;
  ASSERT_EQ(aclrtGetPrimaryCtxState(0, nullptr, &active), ACL_SUCCESS);
  EXPECT_EQ(active, 1) << "device 0 is set";
  EXPECT_EQ(aclrtGetPrimaryCtxState(0, nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetPrimaryCtxState(7, nullptr, &active), ACL_ERROR_RT_INVALID_DEVICEID);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetPrimaryCtxState(0, nullptr, &active), ACL_SUCCESS);
  EXPECT_EQ(active, 0) << "reset";
  EXPECT_EQ(aclrtSynchronizeStream(byHandle), ACL_ERROR_RT_INVALID_HANDLE) << "gone with the default context";
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);  // for TearDown
}

// An abort discards what the stream has not started and leaves it working.
TEST_F(StreamConfigTest, AbortDiscardsQueuedWorkAndTheStreamRunsOn) {
  aclrtStream holder = nullptr, stream = nullptr;
  for (aclrtStream *s : {&holder, &stream}) ASSERT_EQ(aclrtCreateStream(s), ACL_SUCCESS);
  const uint64_t thread = static_cast<uint64_t>(pthread_self());
  ASSERT_EQ(aclrtSubscribeReport(thread, holder), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchCallback([](void *) {}, nullptr, ACL_CALLBACK_BLOCK, holder), ACL_SUCCESS);
  aclrtEvent held = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&held), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(held, holder), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(stream, held), ACL_SUCCESS);
  void *device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(device, 64, 0, 64), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(device, 64, 1, 64, stream), ACL_SUCCESS);

  ASSERT_EQ(aclrtStreamAbort(stream), ACL_SUCCESS) << "returns with the holder still held";
  unsigned char seen = 9;
  ASSERT_EQ(aclrtMemcpy(&seen, 1, device, 1, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(seen, 0) << "the queued memset was discarded";
  aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
  ASSERT_EQ(aclrtStreamQuery(stream, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE);

  ASSERT_EQ(aclrtMemsetAsync(device, 64, 2, 64, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(&seen, 1, device, 1, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(seen, 2) << "new work runs";
  int bogus = 0;
  EXPECT_EQ(aclrtStreamAbort(&bogus), ACL_ERROR_RT_INVALID_HANDLE);

  ASSERT_EQ(aclrtProcessReport(10000), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(holder), ACL_SUCCESS);
  EXPECT_EQ(aclrtUnSubscribeReport(thread, holder), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(held), ACL_SUCCESS);
  for (aclrtStream s : {holder, stream}) EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}
