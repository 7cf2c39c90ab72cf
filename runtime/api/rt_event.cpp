// Events: creation (with flags), record, wait, reset, synchronize, query, timestamps and elapsed time.
#include "acl/acl_rt.h"
#include "diagnostics.h"
#include "runtime_state.h"

#include <chrono>

using namespace aclcpu;

namespace {

// aclrtCreateEvent's events synchronize streams and keep timestamps.
constexpr uint32_t kPlainEventFlags = ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE;
constexpr uint32_t kSupportedFlags = ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS | ACL_EVENT_TIME_LINE;
constexpr uint32_t kUnsupportedFlags = ACL_EVENT_DEVICE_USE_ONLY | ACL_EVENT_EXTERNAL | ACL_EVENT_IPC;

aclError createEvent(aclrtEvent *event, EventOrigin origin, uint32_t flags, const char *function) {
  if (event == nullptr) return reportError(ACL_ERROR_INVALID_PARAM, function, "event is NULL");
  if (flags & ~(kSupportedFlags | kUnsupportedFlags))
    return reportError(ACL_ERROR_INVALID_PARAM, function, "flag 0x%x has bits that are no ACL_EVENT_* flag", flags);
  if (flags & kUnsupportedFlags)
    return reportError(ACL_ERROR_API_NOT_SUPPORT, function,
                       "flag 0x%x: device-only (ACL_EVENT_DEVICE_USE_ONLY), captured-task (ACL_EVENT_EXTERNAL) and "
                       "inter-process (ACL_EVENT_IPC) events are not supported",
                       flags);
  std::shared_ptr<Context> context;
  if (aclError error = currentContext(context, function)) return error;
  // CANN bounds aclrtCreateEventWithFlag's synchronizing events per device; so do we, so that a
  // program that runs here does not run out of them there.
  std::shared_ptr<ResourceSlots> slots;
  if (origin == EventOrigin::WithFlag && (flags & ACL_EVENT_SYNC)) {
    slots = context->device->syncEventSlots;
    if (!slots->take())
      return reportError(ACL_ERROR_RT_NO_EVENT_RESOURCE, function,
                         "device %d already has %u live ACL_EVENT_SYNC events (destroy some first)",
                         context->device->id(), slots->capacity());
  }
  auto &runtime = Runtime::get();
  uint32_t id = runtime.nextEventId.fetch_add(1, std::memory_order_relaxed);
  *event = runtime.events.add(std::make_shared<Event>(runtime.config.spin, origin, flags, id, std::move(slots)));
  return ACL_SUCCESS;
}

// Refuses an event made without `flag` (aclrtCreateEvent's have kPlainEventFlags).
aclError requireFlag(const Event &event, uint32_t flag, const char *flagName, const char *function) {
  if (event.flags() & flag) return ACL_SUCCESS;
  return reportError(ACL_ERROR_INVALID_PARAM, function, "the event was created with flags 0x%x, without %s",
                     event.flags(), flagName);
}

}  // namespace

extern "C" aclError aclrtCreateEvent(aclrtEvent *event) {
  ACLCPU_REQUIRE_INIT();
  return createEvent(event, EventOrigin::Plain, kPlainEventFlags, __func__);
}

extern "C" aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag) {
  ACLCPU_REQUIRE_INIT();
  return createEvent(event, EventOrigin::WithFlag, flag, __func__);
}

extern "C" aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag) {
  ACLCPU_REQUIRE_INIT();
  return createEvent(event, EventOrigin::ExWithFlag, flag, __func__);
}

extern "C" aclError aclrtDestroyEvent(aclrtEvent event) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(event);
  // Tasks that still reference the event keep it alive until they have run.
  std::shared_ptr<Event> removed = Runtime::get().events.remove(event);
  if (!removed) return ACLCPU_FAIL(ACL_ERROR_RT_INVALID_HANDLE, "event %p is not a live event", event);
  removed->releaseSlot();
  return ACL_SUCCESS;
}

extern "C" aclError aclrtGetEventAvailNum(uint32_t *eventCount) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(eventCount);
  std::shared_ptr<Context> context;
  if (aclError error = currentContext(context, __func__)) return error;
  *eventCount = context->device->syncEventSlots->available();
  return ACL_SUCCESS;
}

extern "C" aclError aclrtGetEventId(aclrtEvent event, uint32_t *eventId) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(eventId);
  std::shared_ptr<Event> resolved;
  if (aclError error = resolveEvent(event, resolved, __func__)) return error;
  *eventId = resolved->id();
  return ACL_SUCCESS;
}

extern "C" aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  ACLCPU_REQUIRE_INIT();
  std::shared_ptr<Event> resolvedEvent;
  if (aclError error = resolveEvent(event, resolvedEvent, __func__)) return error;
  std::shared_ptr<Stream> resolvedStream;
  if (aclError error = resolveStream(stream, resolvedStream, __func__)) return error;
  resolvedStream->enqueue(resolvedEvent->recordTask(resolvedEvent->beginRecord(resolvedStream)));
  return ACL_SUCCESS;
}

namespace {

// A wait on `stream` for the event's latest record at the time of the call (a never-recorded
// event is no barrier), giving up after `timeout` (0: never).
aclError waitEvent(aclrtStream stream, aclrtEvent event, std::chrono::milliseconds timeout, const char *function) {
  std::shared_ptr<Event> resolvedEvent;
  if (aclError error = resolveEvent(event, resolvedEvent, function)) return error;
  if (aclError error = requireFlag(*resolvedEvent, ACL_EVENT_SYNC, "ACL_EVENT_SYNC", function)) return error;
  std::shared_ptr<Stream> resolvedStream;
  if (aclError error = resolveStream(stream, resolvedStream, function)) return error;
  uint64_t generation = resolvedEvent->latestGeneration();
  if (generation == 0) return ACL_SUCCESS;
  resolvedStream->enqueue(timeout.count() == 0
                              ? resolvedEvent->waitTask(generation)
                              : resolvedEvent->waitTask(generation, timeout, Runtime::get().deadlines));
  return ACL_SUCCESS;
}

}  // namespace

extern "C" aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  ACLCPU_REQUIRE_INIT();
  std::chrono::seconds timeout(Runtime::get().opWaitTimeoutSeconds.load(std::memory_order_relaxed));
  return waitEvent(stream, event, timeout, __func__);
}

extern "C" aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout) {
  ACLCPU_REQUIRE_INIT();
  if (timeout <= 0) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "timeout %d ms must be > 0", timeout);
  return waitEvent(stream, event, std::chrono::milliseconds(timeout), __func__);
}

// Process-wide, for the event waits enqueued after it (aclrtStreamWaitEvent); 0: none.
extern "C" aclError aclrtSetOpWaitTimeout(uint32_t timeout) {
  ACLCPU_REQUIRE_INIT();
  Runtime::get().opWaitTimeoutSeconds.store(timeout, std::memory_order_relaxed);
  return ACL_SUCCESS;
}

// A reset makes the records before it count as never made: for the next round of a record on one
// stream and a wait on another, after that wait.
extern "C" aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
  ACLCPU_REQUIRE_INIT();
  std::shared_ptr<Event> resolvedEvent;
  if (aclError error = resolveEvent(event, resolvedEvent, __func__)) return error;
  if (resolvedEvent->origin() == EventOrigin::Plain)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM,
                       "only events from aclrtCreateEventWithFlag or aclrtCreateEventExWithFlag with ACL_EVENT_SYNC "
                       "can be reset, not one from aclrtCreateEvent");
  if (aclError error = requireFlag(*resolvedEvent, ACL_EVENT_SYNC, "ACL_EVENT_SYNC", __func__)) return error;
  Stream *resolvedStream;
  if (aclError error = borrowStream(stream, resolvedStream, __func__)) return error;
  resolvedStream->enqueue(resolvedEvent->resetTask(resolvedEvent->latestGeneration()));
  return ACL_SUCCESS;
}

extern "C" aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus *status) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(status);
  std::shared_ptr<Event> resolved;
  if (aclError error = resolveEvent(event, resolved, __func__)) return error;
  if (resolved->origin() == EventOrigin::ExWithFlag)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "events from aclrtCreateEventExWithFlag have no wait status");
  if (aclError error = requireFlag(*resolved, ACL_EVENT_SYNC, "ACL_EVENT_SYNC", __func__)) return error;
  *status = resolved->waitsDone() ? ACL_EVENT_WAIT_STATUS_COMPLETE : ACL_EVENT_WAIT_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

extern "C" aclError aclrtSynchronizeEvent(aclrtEvent event) {
  ACLCPU_REQUIRE_INIT();
  std::shared_ptr<Event> resolved;
  if (aclError error = resolveEvent(event, resolved, __func__)) return error;
  resolved->synchronize(resolved->latestGeneration());
  return ACL_SUCCESS;
}

extern "C" aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout) {
  ACLCPU_REQUIRE_INIT();
  std::chrono::steady_clock::time_point deadline;
  if (aclError error = timeoutDeadline(timeout, deadline, __func__)) return error;
  std::shared_ptr<Event> resolved;
  if (aclError error = resolveEvent(event, resolved, __func__)) return error;
  if (!resolved->synchronizeUntil(resolved->latestGeneration(), deadline))
    return ACLCPU_FAIL(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
                       "the event's record had not run after %d ms (it runs on; synchronize again to wait for it)",
                       timeout);
  return ACL_SUCCESS;
}

extern "C" aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(status);
  std::shared_ptr<Event> resolved;
  if (aclError error = resolveEvent(event, resolved, __func__)) return error;
  uint64_t generation = resolved->recordedGeneration();
  *status = generation != 0 && resolved->isComplete(generation) ? ACL_EVENT_RECORDED_STATUS_COMPLETE
                                                                : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

extern "C" aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(status);
  std::shared_ptr<Event> resolved;
  if (aclError error = resolveEvent(event, resolved, __func__)) return error;
  *status = resolved->isComplete(resolved->latestGeneration()) ? ACL_EVENT_STATUS_COMPLETE
                                                               : ACL_EVENT_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

namespace {

// The time its latest record completed: the event must keep timestamps and that record must have
// run (and not been reset).
aclError recordTime(const Event &event, const char *which, std::chrono::steady_clock::time_point &time,
                    const char *function) {
  if (aclError error = requireFlag(event, ACL_EVENT_TIME_LINE, "ACL_EVENT_TIME_LINE", function)) return error;
  if (event.recordedGeneration() == 0)
    return reportError(ACL_ERROR_INVALID_PARAM, function, "%s was never recorded (or was reset since)", which);
  if (!event.completedTimestamp(time))
    return reportError(ACL_ERROR_RT_EVENT_NOT_COMPLETE, function, "%s's latest record has not run yet", which);
  return ACL_SUCCESS;
}

}  // namespace

extern "C" aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(ms);
  std::shared_ptr<Event> start, end;
  if (aclError error = resolveEvent(startEvent, start, __func__)) return error;
  if (aclError error = resolveEvent(endEvent, end, __func__)) return error;
  std::chrono::steady_clock::time_point startTime, endTime;
  if (aclError error = recordTime(*start, "the start event", startTime, __func__)) return error;
  if (aclError error = recordTime(*end, "the end event", endTime, __func__)) return error;
  *ms = std::chrono::duration<float, std::milli>(endTime - startTime).count();
  return ACL_SUCCESS;
}

// Microseconds since the host booted (CLOCK_MONOTONIC), as CANN's count from the device's start.
extern "C" aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t *timestamp) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(timestamp);
  std::shared_ptr<Event> resolved;
  if (aclError error = resolveEvent(event, resolved, __func__)) return error;
  std::chrono::steady_clock::time_point time;
  if (aclError error = recordTime(*resolved, "the event", time, __func__)) return error;
  *timestamp = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(time.time_since_epoch()).count());
  return ACL_SUCCESS;
}
