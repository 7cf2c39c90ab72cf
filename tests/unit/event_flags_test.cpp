// Events made with flags: what each flag allows, reset, wait status, timed synchronize, timestamps,
// ids and the device's count of synchronizing events.
#include "runtime_fixture.h"

#include <time.h>

#include <pthread.h>

#include <chrono>
#include <vector>

using namespace aclcpu_test;

namespace {

// Holds a stream with a blocking callback until open(), which serves the callback on the calling
// thread. The stream parks meanwhile: it holds no worker, so this works with one worker too.
class Gate {
 public:
  explicit Gate(aclrtStream stream) : stream_(stream) {
    EXPECT_EQ(aclrtSubscribeReport(thread(), stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtLaunchCallback([](void *) {}, nullptr, ACL_CALLBACK_BLOCK, stream_), ACL_SUCCESS);
  }
  ~Gate() { EXPECT_EQ(aclrtUnSubscribeReport(thread(), stream_), ACL_SUCCESS); }
  void open() { EXPECT_EQ(aclrtProcessReport(10000), ACL_SUCCESS); }

 private:
  static uint64_t thread() { return static_cast<uint64_t>(pthread_self()); }
  aclrtStream stream_;
};

uint64_t monotonicMicroseconds() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000u + static_cast<uint64_t>(now.tv_nsec) / 1000u;
}

aclrtEventRecordedStatus recordedStatus(aclrtEvent event) {
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  EXPECT_EQ(aclrtQueryEventStatus(event, &status), ACL_SUCCESS);
  return status;
}

}  // namespace

using EventFlagsTest = TwoStreamTest;

TEST_F(EventFlagsTest, FlagsDecideWhatAnEventDoes) {
  aclrtEvent event = nullptr;
  EXPECT_EQ(aclrtCreateEventWithFlag(nullptr, ACL_EVENT_SYNC), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtCreateEventWithFlag(&event, 0x100), ACL_ERROR_INVALID_PARAM) << "no such flag";
  EXPECT_NE(recentError().find("0x100"), std::string::npos) << recentError();
  EXPECT_EQ(aclrtCreateEventWithFlag(&event, ACL_EVENT_EXTERNAL), ACL_ERROR_API_NOT_SUPPORT);
  EXPECT_EQ(aclrtCreateEventWithFlag(&event, ACL_EVENT_SYNC | ACL_EVENT_DEVICE_USE_ONLY), ACL_ERROR_API_NOT_SUPPORT);
  EXPECT_EQ(aclrtCreateEventExWithFlag(&event, ACL_EVENT_IPC), ACL_ERROR_API_NOT_SUPPORT);
  EXPECT_EQ(event, nullptr) << "nothing is made on failure";

  // Timestamps only: no stream waits on it, nothing resets it.
  aclrtEvent timeOnly = nullptr, syncOnly = nullptr;
  ASSERT_EQ(aclrtCreateEventWithFlag(&timeOnly, ACL_EVENT_TIME_LINE), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEventWithFlag(&syncOnly, ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS), ACL_SUCCESS);
  EXPECT_EQ(aclrtStreamWaitEvent(second_, timeOnly), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("ACL_EVENT_SYNC"), std::string::npos) << recentError();
  EXPECT_EQ(aclrtResetEvent(timeOnly, second_), ACL_ERROR_INVALID_PARAM);
  aclrtEventWaitStatus waits = ACL_EVENT_WAIT_STATUS_RESERVED;
  EXPECT_EQ(aclrtQueryEventWaitStatus(timeOnly, &waits), ACL_ERROR_INVALID_PARAM);

  ASSERT_EQ(aclrtRecordEvent(timeOnly, first_), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(syncOnly, first_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeEvent(syncOnly), ACL_SUCCESS);
  EXPECT_EQ(recordedStatus(timeOnly), ACL_EVENT_RECORDED_STATUS_COMPLETE);
  EXPECT_EQ(recordedStatus(syncOnly), ACL_EVENT_RECORDED_STATUS_COMPLETE);
  uint64_t timestamp = 0;
  EXPECT_EQ(aclrtEventGetTimestamp(timeOnly, &timestamp), ACL_SUCCESS);
  // Synchronizing events keep no timestamps unless asked.
  EXPECT_EQ(aclrtEventGetTimestamp(syncOnly, &timestamp), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("ACL_EVENT_TIME_LINE"), std::string::npos) << recentError();
  float ms = -1;
  EXPECT_EQ(aclrtEventElapsedTime(&ms, timeOnly, syncOnly), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtStreamWaitEvent(second_, syncOnly), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(second_), ACL_SUCCESS);

  // Ids tell events apart.
  uint32_t timeId = 0, syncId = 0;
  ASSERT_EQ(aclrtGetEventId(timeOnly, &timeId), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetEventId(syncOnly, &syncId), ACL_SUCCESS);
  EXPECT_NE(timeId, syncId);
  EXPECT_EQ(aclrtGetEventId(timeOnly, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetEventId(nullptr, &timeId), ACL_ERROR_INVALID_PARAM);

  EXPECT_EQ(aclrtDestroyEvent(timeOnly), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(syncOnly), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetEventId(timeOnly, &timeId), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtEventGetTimestamp(syncOnly, &timestamp), ACL_ERROR_RT_INVALID_HANDLE);
}

// A reset is a task on its stream: when it runs, the event reads as never recorded until it is
// recorded again.
TEST_F(EventFlagsTest, ResetRunsInStreamOrder) {
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEventWithFlag(&event, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event, first_), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(second_, event), ACL_SUCCESS);
  Gate gate(second_);
  ASSERT_EQ(aclrtResetEvent(event, second_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(first_), ACL_SUCCESS);
  EXPECT_EQ(recordedStatus(event), ACL_EVENT_RECORDED_STATUS_COMPLETE) << "the reset waits behind the gate";
  uint64_t timestamp = 0;
  EXPECT_EQ(aclrtEventGetTimestamp(event, &timestamp), ACL_SUCCESS);
  gate.open();
  ASSERT_EQ(aclrtSynchronizeStream(second_), ACL_SUCCESS);
  EXPECT_EQ(recordedStatus(event), ACL_EVENT_RECORDED_STATUS_NOT_READY);
  EXPECT_EQ(aclrtEventGetTimestamp(event, &timestamp), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("reset"), std::string::npos) << recentError();
  EXPECT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS) << "nothing to wait for";

  ASSERT_EQ(aclrtRecordEvent(event, first_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
  EXPECT_EQ(recordedStatus(event), ACL_EVENT_RECORDED_STATUS_COMPLETE) << "recorded again";

  // aclrtCreateEvent's events cannot be reset (undefined in CANN).
  aclrtEvent plain = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&plain), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetEvent(plain, second_), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("aclrtCreateEvent"), std::string::npos) << recentError();
  aclrtEvent ex = nullptr;
  ASSERT_EQ(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetEvent(ex, second_), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetEvent(nullptr, second_), ACL_ERROR_INVALID_PARAM);
  int bogus = 0;
  EXPECT_EQ(aclrtResetEvent(event, &bogus), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtSynchronizeStream(second_), ACL_SUCCESS);
  for (aclrtEvent e : {event, plain, ex}) EXPECT_EQ(aclrtDestroyEvent(e), ACL_SUCCESS);
}

// The wait status is whether every aclrtStreamWaitEvent task on the event has run.
TEST_F(EventFlagsTest, WaitStatusFollowsTheWaitingStreams) {
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEventWithFlag(&event, ACL_EVENT_SYNC), ACL_SUCCESS);
  aclrtEventWaitStatus status = ACL_EVENT_WAIT_STATUS_RESERVED;
  ASSERT_EQ(aclrtQueryEventWaitStatus(event, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_EVENT_WAIT_STATUS_COMPLETE) << "no wait yet";
  Gate gate(first_);
  ASSERT_EQ(aclrtRecordEvent(event, first_), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(second_, event), ACL_SUCCESS);
  ASSERT_EQ(aclrtQueryEventWaitStatus(event, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_EVENT_WAIT_STATUS_NOT_READY);
  aclrtStreamStatus second = ACL_STREAM_STATUS_RESERVED;
  ASSERT_EQ(aclrtStreamQuery(second_, &second), ACL_SUCCESS);
  EXPECT_EQ(second, ACL_STREAM_STATUS_NOT_READY) << "the waiting stream is parked";
  gate.open();
  ASSERT_EQ(aclrtSynchronizeStream(second_), ACL_SUCCESS);
  ASSERT_EQ(aclrtQueryEventWaitStatus(event, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_EVENT_WAIT_STATUS_COMPLETE);

  EXPECT_EQ(aclrtQueryEventWaitStatus(event, nullptr), ACL_ERROR_INVALID_PARAM);
  aclrtEvent ex = nullptr;
  ASSERT_EQ(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC), ACL_SUCCESS);
  EXPECT_EQ(aclrtQueryEventWaitStatus(ex, &status), ACL_ERROR_INVALID_PARAM) << "CANN has none for Ex events";
  EXPECT_EQ(aclrtDestroyEvent(ex), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

TEST_F(EventFlagsTest, TimedSynchronizeGivesUpAndTheRecordRunsOn) {
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  Gate gate(first_);
  ASSERT_EQ(aclrtRecordEvent(event, first_), ACL_SUCCESS);
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, 30), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(30));
  EXPECT_NE(recentError().find("30 ms"), std::string::npos) << recentError();
  EXPECT_EQ(recordedStatus(event), ACL_EVENT_RECORDED_STATUS_NOT_READY);
  EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, 0), ACL_ERROR_INVALID_PARAM) << "neither -1 nor > 0";
  EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, -2), ACL_ERROR_INVALID_PARAM);
  gate.open();
  EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, 10000), ACL_SUCCESS);
  EXPECT_EQ(recordedStatus(event), ACL_EVENT_RECORDED_STATUS_COMPLETE);
  EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, -1), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event, -1), ACL_ERROR_RT_INVALID_HANDLE);
}

// A timestamp is when the record ran, in microseconds of the host's monotonic clock.
TEST_F(EventFlagsTest, TimestampIsWhenTheRecordRan) {
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  uint64_t timestamp = 0;
  EXPECT_EQ(aclrtEventGetTimestamp(event, &timestamp), ACL_ERROR_INVALID_PARAM) << "never recorded";
  Gate gate(first_);
  ASSERT_EQ(aclrtRecordEvent(event, first_), ACL_SUCCESS);
  EXPECT_EQ(aclrtEventGetTimestamp(event, &timestamp), ACL_ERROR_RT_EVENT_NOT_COMPLETE);
  uint64_t before = monotonicMicroseconds();
  gate.open();
  ASSERT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
  uint64_t after = monotonicMicroseconds();
  ASSERT_EQ(aclrtEventGetTimestamp(event, &timestamp), ACL_SUCCESS);
  EXPECT_GE(timestamp, before);
  EXPECT_LE(timestamp, after);
  EXPECT_EQ(aclrtEventGetTimestamp(event, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

// As in CANN, a device holds at most 65536 live ACL_EVENT_SYNC events from aclrtCreateEventWithFlag;
// other events do not count.
TEST_F(EventFlagsTest, SynchronizingEventsAreCountedPerDevice) {
  uint32_t available = 0;
  ASSERT_EQ(aclrtGetEventAvailNum(&available), ACL_SUCCESS);
  EXPECT_EQ(available, 65536u);
  EXPECT_EQ(aclrtGetEventAvailNum(nullptr), ACL_ERROR_INVALID_PARAM);
  aclrtEvent plain = nullptr, timeOnly = nullptr, ex = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&plain), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEventWithFlag(&timeOnly, ACL_EVENT_TIME_LINE), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetEventAvailNum(&available), ACL_SUCCESS);
  EXPECT_EQ(available, 65536u);

  std::vector<aclrtEvent> events(65536);
  for (aclrtEvent &event : events) ASSERT_EQ(aclrtCreateEventWithFlag(&event, ACL_EVENT_SYNC), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetEventAvailNum(&available), ACL_SUCCESS);
  EXPECT_EQ(available, 0u);
  aclrtEvent extra = nullptr;
  EXPECT_EQ(aclrtCreateEventWithFlag(&extra, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE), ACL_ERROR_RT_NO_EVENT_RESOURCE);
  EXPECT_NE(recentError().find("65536"), std::string::npos) << recentError();
  ASSERT_EQ(aclrtCreateEvent(&extra), ACL_SUCCESS) << "aclrtCreateEvent's events are not counted";
  EXPECT_EQ(aclrtDestroyEvent(extra), ACL_SUCCESS);

  // A destroyed event gives its slot back at once, even while a task still holds it.
  Gate gate(first_);
  ASSERT_EQ(aclrtRecordEvent(events[0], first_), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyEvent(events[0]), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetEventAvailNum(&available), ACL_SUCCESS);
  EXPECT_EQ(available, 1u);
  ASSERT_EQ(aclrtCreateEventWithFlag(&events[0], ACL_EVENT_SYNC), ACL_SUCCESS);
  gate.open();
  ASSERT_EQ(aclrtSynchronizeStream(first_), ACL_SUCCESS);
  for (aclrtEvent event : events) ASSERT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
  for (aclrtEvent event : {plain, timeOnly, ex}) EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetEventAvailNum(&available), ACL_SUCCESS);
  EXPECT_EQ(available, 65536u);
}

// A wait that gives up fails as its stream's error and lets the stream go on; one whose record
// comes in time is no error.
TEST_F(EventFlagsTest, TimedWaitsGiveUpAsTaskErrors) {
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  void *device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(device, 64, 0, 64), ACL_SUCCESS);
  {
    Gate gate(first_);
    ASSERT_EQ(aclrtRecordEvent(event, first_), ACL_SUCCESS);
    auto start = std::chrono::steady_clock::now();
    ASSERT_EQ(aclrtStreamWaitEventWithTimeout(second_, event, 30), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetAsync(device, 64, 7, 64, second_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(second_), ACL_ERROR_RT_TASK_TIMEOUT);
    EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(30));
    EXPECT_NE(recentError().find("30 ms"), std::string::npos) << recentError();
    unsigned char seen = 0;
    ASSERT_EQ(aclrtMemcpy(&seen, 1, device, 1, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(seen, 7) << "the stream went on after the failed wait";
    gate.open();
  }
  ASSERT_EQ(aclrtSynchronizeStream(first_), ACL_SUCCESS);
  // Recorded in time: no error.
  {
    Gate gate(first_);
    ASSERT_EQ(aclrtRecordEvent(event, first_), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEventWithTimeout(second_, event, 60000), ACL_SUCCESS);
    gate.open();
    EXPECT_EQ(aclrtSynchronizeStream(second_), ACL_SUCCESS);
  }
  EXPECT_EQ(aclrtStreamWaitEventWithTimeout(second_, event, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtStreamWaitEventWithTimeout(second_, nullptr, 10), ACL_ERROR_INVALID_PARAM);

  // aclrtSetOpWaitTimeout (seconds, process-wide) bounds every later aclrtStreamWaitEvent.
  ASSERT_EQ(aclrtSetOpWaitTimeout(1), ACL_SUCCESS);
  struct Restore {
    ~Restore() { aclrtSetOpWaitTimeout(0); }
  } restore;
  {
    Gate gate(first_);
    ASSERT_EQ(aclrtRecordEvent(event, first_), ACL_SUCCESS);
    auto start = std::chrono::steady_clock::now();
    ASSERT_EQ(aclrtStreamWaitEvent(second_, event), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(second_), ACL_ERROR_RT_TASK_TIMEOUT);
    EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
    gate.open();
  }
  ASSERT_EQ(aclrtSetOpWaitTimeout(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(first_), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}
