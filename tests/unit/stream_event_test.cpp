// Streams, events, callbacks and ordering across streams.
#include "runtime_fixture.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

using namespace aclcpu_test;

// aclrtQueryEvent is deprecated in CANN but still part of the API we implement.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

using StreamTest = RuntimeTest;

TEST_F(StreamTest, CreateDestroyAndInvalidHandles) {
  aclrtStream stream = nullptr;
  EXPECT_EQ(aclrtCreateStream(nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_NE(recentError().find("stream"), std::string::npos);
  EXPECT_EQ(aclrtDestroyStream(nullptr), ACL_ERROR_INVALID_PARAM);
  int bogus = 0;
  EXPECT_EQ(aclrtSynchronizeStream(&bogus), ACL_ERROR_RT_INVALID_HANDLE);
  char byte = 0;
  EXPECT_EQ(aclrtMemcpyAsync(&byte, 1, &byte, 1, ACL_MEMCPY_HOST_TO_HOST, &bogus), ACL_ERROR_RT_INVALID_HANDLE);
}

TEST_F(StreamTest, StreamsNeedACurrentContext) {
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  EXPECT_EQ(aclrtCreateStream(&stream), ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_ERROR_RT_CONTEXT_NULL) << "no default stream without a context";
  EXPECT_EQ(aclrtSynchronizeDevice(), ACL_ERROR_RT_CONTEXT_NULL);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

TEST_F(StreamTest, DefaultStreamRunsInOrder) {
  std::vector<int> source(1 << 16), target(1 << 16, 0);
  for (size_t i = 0; i < source.size(); ++i) source[i] = static_cast<int>(i);
  const size_t bytes = source.size() * sizeof(int);
  void *dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(dev, bytes, 0, bytes, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(dev, bytes, source.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(target.data(), bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(target, source);
  EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(StreamTest, DestroyingAStreamLetsQueuedWorkFinish) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  const size_t bytes = 4 << 20;
  std::vector<char> source(bytes, 3), target(bytes, 0);
  for (int i = 0; i < 4; ++i)
    ASSERT_EQ(aclrtMemcpyAsync(target.data(), bytes, source.data(), bytes, ACL_MEMCPY_HOST_TO_HOST, stream),
              ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(target[bytes - 1], 3);
}

TEST_F(StreamTest, EventRecordQuerySynchronizeElapsed) {
  aclrtEvent start = nullptr, stop = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&start), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&stop), ACL_SUCCESS);
  aclrtEventRecordedStatus recorded = ACL_EVENT_RECORDED_STATUS_COMPLETE;
  ASSERT_EQ(aclrtQueryEventStatus(start, &recorded), ACL_SUCCESS);
  EXPECT_EQ(recorded, ACL_EVENT_RECORDED_STATUS_NOT_READY) << "never recorded";
  aclrtEventStatus status = ACL_EVENT_STATUS_RESERVED;
  ASSERT_EQ(aclrtQueryEvent(start, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_EVENT_STATUS_COMPLETE);
  float ms = -1;
  EXPECT_EQ(aclrtEventElapsedTime(&ms, start, stop), ACL_ERROR_INVALID_PARAM) << "never recorded";

  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(start, stream), ACL_SUCCESS);
  const size_t bytes = 32 << 20;
  std::vector<char> a(bytes, 1), b(bytes);
  ASSERT_EQ(aclrtMemcpyAsync(b.data(), bytes, a.data(), bytes, ACL_MEMCPY_HOST_TO_HOST, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(stop, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeEvent(stop), ACL_SUCCESS);
  ASSERT_EQ(aclrtQueryEventStatus(stop, &recorded), ACL_SUCCESS);
  EXPECT_EQ(recorded, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  ASSERT_EQ(aclrtQueryEvent(stop, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_EVENT_STATUS_COMPLETE);
  EXPECT_EQ(b[bytes - 1], 1);
  ASSERT_EQ(aclrtEventElapsedTime(&ms, start, stop), ACL_SUCCESS);
  EXPECT_GT(ms, 0.0f) << "a 32 MiB copy takes measurable time";
  EXPECT_LT(ms, 10000.0f);

  EXPECT_EQ(aclrtEventElapsedTime(nullptr, start, stop), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtQueryEventStatus(start, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyEvent(start), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(start), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtRecordEvent(start, stream), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtSynchronizeEvent(start), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtEventElapsedTime(&ms, start, stop), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtRecordEvent(nullptr, stream), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtCreateEvent(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyEvent(stop), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

// A stream parked on an event must not hold a worker: with one worker thread, the stream that
// records the event still runs.
TEST(StreamScheduling, WaitingStreamDoesNotHoldAWorker) {
  ScopedEnv threads("ACLCPU_NUM_THREADS", "1");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream waiter = nullptr, recorder = nullptr;
  ASSERT_EQ(aclrtCreateStream(&waiter), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&recorder), ACL_SUCCESS);
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  int value = 0, result = -1;
  // The record is enqueued after the wait, so the waiter parks first.
  ASSERT_EQ(aclrtSubscribeReport(static_cast<uint64_t>(pthread_self()), recorder), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchCallback([](void *) {}, nullptr, ACL_CALLBACK_BLOCK, recorder), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event, recorder), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(waiter, event), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(&result, 4, &value, 4, ACL_MEMCPY_HOST_TO_HOST, waiter), ACL_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(result, -1) << "the copy ran before the event it waits on";
  value = 42;
  ASSERT_EQ(aclrtProcessReport(1000), ACL_SUCCESS);  // releases the recorder
  ASSERT_EQ(aclrtSynchronizeStream(waiter), ACL_SUCCESS);
  EXPECT_EQ(result, 42);
  ASSERT_EQ(aclrtUnSubscribeReport(static_cast<uint64_t>(pthread_self()), recorder), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST_F(StreamTest, WaitOnNeverRecordedEventIsNoBarrier) {
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  EXPECT_EQ(aclrtStreamWaitEvent(nullptr, event), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
  EXPECT_EQ(aclrtStreamWaitEvent(nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

// One op after another, hopping between 16 streams through events, over one device buffer:
// the result must equal running the same ops sequentially on the host.
TEST_F(StreamTest, SixteenStreamsChainedThroughEventsMatchSequentialOrder) {
  constexpr int kStreams = 16, kOpsPerStream = 1000, kBytes = 4096;
  std::vector<aclrtStream> streams(kStreams);
  std::vector<aclrtEvent> events(kStreams);
  for (int s = 0; s < kStreams; ++s) {
    ASSERT_EQ(aclrtCreateStream(&streams[s]), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateEvent(&events[s]), ACL_SUCCESS);
  }
  void *dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(dev, kBytes, 0, kBytes), ACL_SUCCESS);
  auto *device = static_cast<unsigned char *>(dev);
  std::vector<unsigned char> expected(kBytes, 0), result(kBytes, 1);
  std::mt19937 random(1234);
  int previous = -1;
  for (int op = 0; op < kStreams * kOpsPerStream; ++op) {
    int s = static_cast<int>(random() % kStreams);
    if (previous >= 0) {
      ASSERT_EQ(aclrtStreamWaitEvent(streams[s], events[previous]), ACL_SUCCESS);
    }
    size_t length = 1 + random() % 512;
    size_t dst = random() % (kBytes - length);
    if (op % 2 == 0) {
      int value = static_cast<int>(random() % 256);
      ASSERT_EQ(aclrtMemsetAsync(device + dst, kBytes - dst, value, length, streams[s]), ACL_SUCCESS);
      memset(expected.data() + dst, value, length);
    } else {
      size_t src = random() % (kBytes - length);
      if (src < dst + length && dst < src + length) src = dst >= length ? dst - length : dst + length;
      ASSERT_EQ(aclrtMemcpyAsync(device + dst, kBytes - dst, device + src, length, ACL_MEMCPY_DEVICE_TO_DEVICE,
                                 streams[s]),
                ACL_SUCCESS);
      memmove(expected.data() + dst, expected.data() + src, length);
    }
    ASSERT_EQ(aclrtRecordEvent(events[s], streams[s]), ACL_SUCCESS);
    previous = s;
  }
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(result.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(result, expected);
  for (int s = 0; s < kStreams; ++s) {
    EXPECT_EQ(aclrtDestroyEvent(events[s]), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(streams[s]), ACL_SUCCESS);
  }
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

// Four host threads enqueue to 16 streams at once; each stream's own order is kept.
TEST_F(StreamTest, ConcurrentEnqueueKeepsPerStreamOrder) {
  constexpr int kStreams = 16, kOps = 1000;
  std::vector<aclrtStream> streams(kStreams);
  // Counters in host memory from aclrtMallocHost (memsets refuse memory the runtime does not know).
  std::vector<uint32_t *> counters(kStreams);
  for (auto &counter : counters) {
    void *memory = nullptr;
    ASSERT_EQ(aclrtMallocHost(&memory, sizeof(uint32_t) * (kOps + 1)), ACL_SUCCESS);
    counter = static_cast<uint32_t *>(memory);
    std::fill(counter, counter + kOps + 1, 0u);
  }
  for (auto &stream : streams) ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  for (int s = 0; s < kStreams; ++s) counters[s][0] = static_cast<uint32_t>(s + 1);
  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      if (aclrtSetCurrentContext(context) != ACL_SUCCESS) ++failures;
      for (int s = t; s < kStreams; s += 4) {
        // Each copy moves the running value one slot forward: only in-order execution ends with kOps.
        for (int i = 0; i < kOps; ++i) {
          uint32_t *slots = counters[s];
          if (aclrtMemsetAsync(&slots[i + 1], 4, 0, 4, streams[s]) != ACL_SUCCESS) ++failures;
          if (aclrtMemcpyAsync(&slots[i + 1], 4, &slots[i], 4, ACL_MEMCPY_HOST_TO_HOST, streams[s]) != ACL_SUCCESS)
            ++failures;
        }
      }
    });
  }
  for (auto &thread : threads) thread.join();
  ASSERT_EQ(failures.load(), 0);
  for (auto &stream : streams) ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  for (int s = 0; s < kStreams; ++s)
    for (int i = 0; i <= kOps; ++i) ASSERT_EQ(counters[s][i], static_cast<uint32_t>(s + 1)) << s << " " << i;
  for (auto &stream : streams) EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  for (uint32_t *counter : counters) EXPECT_EQ(aclrtFreeHost(counter), ACL_SUCCESS);
}
