// Host callbacks: subscription, blocking and non-blocking callbacks, report processing, host
// functions, and timed synchronizes of a stream a callback holds.
#include "runtime_fixture.h"

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using namespace aclcpu_test;

namespace {

uint64_t thisThread() { return static_cast<uint64_t>(pthread_self()); }

struct ReportThread {
  std::atomic<bool> running{true};
  std::atomic<uint64_t> id{0};
  std::thread thread;
  ReportThread() {
    thread = std::thread([this] {
      id = thisThread();
      while (running)
        if (aclrtProcessReport(10) == ACL_ERROR_RT_THREAD_SUBSCRIBE) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    while (id == 0) std::this_thread::yield();
  }
  ~ReportThread() {
    running = false;
    thread.join();
  }
};

}  // namespace

using CallbackTest = RuntimeTest;

TEST_F(CallbackTest, LaunchWithoutSubscriptionIsAnError) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtLaunchCallback([](void *) {}, nullptr, ACL_CALLBACK_BLOCK, stream), ACL_ERROR_RT_STREAM_NO_CB_REG);
  EXPECT_NE(recentError().find("aclrtSubscribeReport"), std::string::npos);
  EXPECT_EQ(aclrtProcessReport(0), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  ASSERT_EQ(aclrtSubscribeReport(thisThread(), stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtLaunchCallback(nullptr, nullptr, ACL_CALLBACK_BLOCK, stream), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtLaunchCallback([](void *) {}, nullptr, static_cast<aclrtCallbackBlockType>(5), stream),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtProcessReport(-2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtProcessReport(0), ACL_ERROR_RT_REPORT_TIMEOUT);
  EXPECT_EQ(aclrtSubscribeReport(thisThread(), stream), ACL_ERROR_RT_STREAM_SUBSCRIBE) << "subscribed twice";
  EXPECT_EQ(aclrtUnSubscribeReport(thisThread() + 1, stream), ACL_ERROR_RT_STREAM_SUBSCRIBE) << "wrong thread";
  EXPECT_EQ(aclrtUnSubscribeReport(thisThread(), stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtUnSubscribeReport(thisThread(), stream), ACL_ERROR_RT_STREAM_SUBSCRIBE);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(CallbackTest, BlockingCallbackHoldsTheStream) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtSubscribeReport(thisThread(), stream), ACL_SUCCESS);
  struct State {
    int before = 0, seenByCallback = -1, after = 0;
  } state;
  int one = 1;
  ASSERT_EQ(aclrtMemcpyAsync(&state.before, 4, &one, 4, ACL_MEMCPY_HOST_TO_HOST, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchCallback(
                [](void *data) {
                  auto *s = static_cast<State *>(data);
                  s->seenByCallback = s->before;
                },
                &state, ACL_CALLBACK_BLOCK, stream),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(&state.after, 4, &one, 4, ACL_MEMCPY_HOST_TO_HOST, stream), ACL_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(state.after, 0) << "work after a blocking callback waits for it";
  ASSERT_EQ(aclrtProcessReport(1000), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_EQ(state.seenByCallback, 1) << "the callback runs after the work before it";
  EXPECT_EQ(state.after, 1);
  ASSERT_EQ(aclrtUnSubscribeReport(thisThread(), stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(CallbackTest, NonBlockingCallbackDoesNotHoldTheStream) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtSubscribeReport(thisThread(), stream), ACL_SUCCESS);
  std::atomic<int> calls{0};
  ASSERT_EQ(aclrtLaunchCallback([](void *data) { ++*static_cast<std::atomic<int> *>(data); }, &calls,
                                ACL_CALLBACK_NO_BLOCK, stream),
            ACL_SUCCESS);
  int one = 1, after = 0;
  ASSERT_EQ(aclrtMemcpyAsync(&after, 4, &one, 4, ACL_MEMCPY_HOST_TO_HOST, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << "completes although nobody ran the callback yet";
  EXPECT_EQ(after, 1);
  EXPECT_EQ(calls.load(), 0);
  ASSERT_EQ(aclrtProcessReport(1000), ACL_SUCCESS);
  EXPECT_EQ(calls.load(), 1);
  ASSERT_EQ(aclrtUnSubscribeReport(thisThread(), stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(CallbackTest, ReportThreadServesManyCallbacksInOrder) {
  ReportThread reporter;
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtSubscribeReport(reporter.id, stream), ACL_SUCCESS);
  struct Log {
    std::vector<int> order;
    int next = 0;
  } log;
  std::vector<std::pair<Log *, int>> args(200);
  for (int i = 0; i < 200; ++i) {
    args[i] = {&log, i};
    ASSERT_EQ(aclrtLaunchCallback(
                  [](void *data) {
                    auto *arg = static_cast<std::pair<Log *, int> *>(data);
                    arg->first->order.push_back(arg->second);
                  },
                  &args[i], i % 2 ? ACL_CALLBACK_BLOCK : ACL_CALLBACK_NO_BLOCK, stream),
              ACL_SUCCESS);
  }
  // The last one blocks, so once the stream is done every callback has run.
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  ASSERT_EQ(log.order.size(), 200u);
  for (int i = 0; i < 200; ++i) EXPECT_EQ(log.order[i], i);
  ASSERT_EQ(aclrtUnSubscribeReport(reporter.id, stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST(CallbackSyncMode, InlineExecutionStillRunsCallbacksOnTheReportThread) {
  ScopedEnv sync("ACLCPU_SYNC", "1");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  {
    ReportThread reporter;
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSubscribeReport(reporter.id, stream), ACL_SUCCESS);
    int one = 1, value = 0;
    // In sync mode the copy is done when the call returns.
    ASSERT_EQ(aclrtMemcpyAsync(&value, 4, &one, 4, ACL_MEMCPY_HOST_TO_HOST, stream), ACL_SUCCESS);
    EXPECT_EQ(value, 1);
    std::atomic<uint64_t> ranOn{0};
    ASSERT_EQ(aclrtLaunchCallback([](void *data) { *static_cast<std::atomic<uint64_t> *>(data) = thisThread(); },
                                  &ranOn, ACL_CALLBACK_BLOCK, stream),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(ranOn.load(), reporter.id.load());
    ASSERT_EQ(aclrtUnSubscribeReport(reporter.id, stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  }
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}

// A stream held by a blocking callback: queried as not ready, and synchronizing with a timeout
// gives up after it (the work runs on); once the callback has run, both see it done.
TEST_F(CallbackTest, TimedSynchronizeAndQuerySeeAHeldStream) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
  ASSERT_EQ(aclrtStreamQuery(stream, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE) << "nothing enqueued";
  ASSERT_EQ(aclrtSubscribeReport(thisThread(), stream), ACL_SUCCESS);
  std::atomic<int> ran{0};
  ASSERT_EQ(aclrtLaunchCallback([](void *count) { ++*static_cast<std::atomic<int> *>(count); }, &ran,
                                ACL_CALLBACK_BLOCK, stream),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamQuery(stream, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 30), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(30));
  EXPECT_NE(recentError().find("30 ms"), std::string::npos) << recentError();
  EXPECT_EQ(aclrtSynchronizeDeviceWithTimeout(20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_EQ(ran, 0);
  ASSERT_EQ(aclrtProcessReport(5000), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 5000), ACL_SUCCESS);
  EXPECT_EQ(ran, 1);
  ASSERT_EQ(aclrtStreamQuery(stream, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE);
  EXPECT_EQ(aclrtSynchronizeDeviceWithTimeout(-1), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 0), ACL_ERROR_INVALID_PARAM) << "neither -1 nor > 0";
  EXPECT_EQ(aclrtSynchronizeDeviceWithTimeout(-2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtStreamQuery(stream, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtUnSubscribeReport(thisThread(), stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtStreamQuery(stream, &status), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 10), ACL_ERROR_RT_INVALID_HANDLE);
}

// A host function runs in stream order, with no subscribed thread: after the memset before it
// and before the memset after it.
TEST_F(CallbackTest, HostFunctionsRunInStreamOrder) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  void *device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
  struct Seen {
    const unsigned char *bytes;
    std::vector<int> values;
  } seen{static_cast<const unsigned char *>(device), {}};
  auto record = [](void *args) {
    auto *s = static_cast<Seen *>(args);
    s->values.push_back(s->bytes[0]);
  };
  for (int value : {7, 9}) {
    ASSERT_EQ(aclrtMemsetAsync(device, 64, value, 64, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchHostFunc(stream, record, &seen), ACL_SUCCESS) << recentError();
  }
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_EQ(seen.values, (std::vector<int>{7, 9}));
  EXPECT_EQ(aclrtLaunchHostFunc(stream, nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtLaunchHostFunc(stream, record, &seen), ACL_ERROR_RT_INVALID_HANDLE);
}
