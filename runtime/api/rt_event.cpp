// Events: record, wait, synchronize, query and elapsed time.
#include "acl/acl_rt.h"
#include "diagnostics.h"
#include "runtime_state.h"

using namespace aclcpu;

extern "C" aclError aclrtCreateEvent(aclrtEvent *event) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(event);
  std::shared_ptr<Context> context;
  if (aclError error = currentContext(context, __func__)) return error;
  *event = Runtime::get().events.add(std::make_shared<Event>(Runtime::get().config.spin));
  return ACL_SUCCESS;
}

extern "C" aclError aclrtDestroyEvent(aclrtEvent event) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(event);
  // Tasks that still reference the event keep it alive until they have run.
  if (!Runtime::get().events.remove(event))
    return ACLCPU_FAIL(ACL_ERROR_RT_INVALID_HANDLE, "event %p is not a live event", event);
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

extern "C" aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  ACLCPU_REQUIRE_INIT();
  std::shared_ptr<Event> resolvedEvent;
  if (aclError error = resolveEvent(event, resolvedEvent, __func__)) return error;
  std::shared_ptr<Stream> resolvedStream;
  if (aclError error = resolveStream(stream, resolvedStream, __func__)) return error;
  // Waits for the most recent record at the time of this call; a never-recorded event is no barrier.
  uint64_t generation = resolvedEvent->latestGeneration();
  if (generation != 0) resolvedStream->enqueue(resolvedEvent->waitTask(generation));
  return ACL_SUCCESS;
}

extern "C" aclError aclrtSynchronizeEvent(aclrtEvent event) {
  ACLCPU_REQUIRE_INIT();
  std::shared_ptr<Event> resolved;
  if (aclError error = resolveEvent(event, resolved, __func__)) return error;
  resolved->synchronize(resolved->latestGeneration());
  return ACL_SUCCESS;
}

extern "C" aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(status);
  std::shared_ptr<Event> resolved;
  if (aclError error = resolveEvent(event, resolved, __func__)) return error;
  uint64_t generation = resolved->latestGeneration();
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

extern "C" aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(ms);
  std::shared_ptr<Event> start, end;
  if (aclError error = resolveEvent(startEvent, start, __func__)) return error;
  if (aclError error = resolveEvent(endEvent, end, __func__)) return error;
  if (start->latestGeneration() == 0 || end->latestGeneration() == 0)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "%s event was never recorded",
                       start->latestGeneration() == 0 ? "the start" : "the end");
  std::chrono::steady_clock::time_point startTime, endTime;
  if (!start->completedTimestamp(startTime) || !end->completedTimestamp(endTime))
    return ACLCPU_FAIL(ACL_ERROR_RT_EVENT_NOT_COMPLETE, "an event's latest record has not completed yet");
  *ms = std::chrono::duration<float, std::milli>(endTime - startTime).count();
  return ACL_SUCCESS;
}
