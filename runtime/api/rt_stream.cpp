// Streams, device synchronization and host callbacks.
#include "acl/acl_rt.h"
#include "callback_reports.h"
#include "diagnostics.h"
#include "runtime_state.h"

#include <algorithm>
#include <pthread.h>

using namespace aclcpu;

namespace {

constexpr uint32_t kStreamFlagsKept = ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC | ACL_STREAM_HUGE;
constexpr uint32_t kStreamFlagsRefused = ACL_STREAM_PERSISTENT | ACL_STREAM_CPU_SCHEDULE | ACL_STREAM_DEVICE_USE_ONLY;
constexpr uint32_t kLowestStreamPriority = 7;

aclError createStream(aclrtStream *stream, uint32_t priority, uint32_t flags, const char *function) {
  if (stream == nullptr) return reportError(ACL_ERROR_INVALID_PARAM, function, "stream is NULL");
  std::shared_ptr<Context> context;
  if (aclError error = currentContext(context, function)) return error;
  auto created = context->device->newStream(/*isDefault=*/false, priority, flags);
  if (!created)
    return reportError(ACL_ERROR_RT_NO_STREAM_RESOURCE, function,
                       "device %d already has %u live streams, default streams included (destroy some first)",
                       context->device->id(), context->device->streamSlots->capacity());
  {
    std::lock_guard<std::mutex> lock(context->device->mutex);
    auto &streams = context->streams;
    streams.erase(std::remove_if(streams.begin(), streams.end(), [](auto &s) { return s.expired(); }), streams.end());
    streams.push_back(created);
  }
  *stream = Runtime::get().streams.add(std::move(created));
  return ACL_SUCCESS;
}

// Unregisters a stream and gives back its slot; the stream object lives on until its queue drains.
aclError removeStream(aclrtStream stream, std::shared_ptr<Stream> &removed, const char *function) {
  if (stream == nullptr) return reportError(ACL_ERROR_INVALID_PARAM, function, "stream is NULL (the default stream is not destroyed)");
  auto &runtime = Runtime::get();
  if (std::shared_ptr<Stream> found = runtime.streams.find(stream); found && found->attributes().isDefault)
    return reportError(ACL_ERROR_INVALID_PARAM, function,
                       "stream %p is a context's default stream (aclrtCtxGetCurrentDefaultStream): it goes with its "
                       "context",
                       stream);
  removed = runtime.streams.remove(stream);
  if (!removed) return reportError(ACL_ERROR_RT_INVALID_HANDLE, function, "stream %p is not a live stream", stream);
  removed->releaseSlot();
  runtime.callbacks.forgetStream(removed.get());
  return ACL_SUCCESS;
}

}  // namespace

extern "C" aclError aclrtCreateStream(aclrtStream *stream) {
  ACLCPU_REQUIRE_INIT();
  return createStream(stream, 0, 0, __func__);
}

// The priority is kept and reported but does not change scheduling (as on Atlas A2 and A3, where
// CANN reserves it); CANN's fast-launch and fast-sync flags are what every stream here does
// anyway (no resources to allocate on first use; synchronize polls before it parks).
extern "C" aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag) {
  ACLCPU_REQUIRE_INIT();
  if (flag & kStreamFlagsRefused)
    return ACLCPU_FAIL(ACL_ERROR_API_NOT_SUPPORT,
                       "flag 0x%x: persistent (ACL_STREAM_PERSISTENT, for model capture), AI CPU scheduling "
                       "(ACL_STREAM_CPU_SCHEDULE) and device-only (ACL_STREAM_DEVICE_USE_ONLY) streams are not supported",
                       flag);
  // As CANN: a priority past the range is taken as its bound, and other flags as none.
  return createStream(stream, std::min(priority, kLowestStreamPriority), flag & kStreamFlagsKept, __func__);
}

extern "C" aclError aclrtDestroyStream(aclrtStream stream) {
  ACLCPU_REQUIRE_INIT();
  std::shared_ptr<Stream> removed;
  if (aclError error = removeStream(stream, removed, __func__)) return error;
  // Work already queued still runs to completion (the stream object lives until it drains).
  return removed->synchronize();
}

// Returns at once: tasks not yet started are discarded (an event record among them still
// completes, so that nothing waits for it forever); one already running runs to its end.
extern "C" aclError aclrtDestroyStreamForce(aclrtStream stream) {
  ACLCPU_REQUIRE_INIT();
  std::shared_ptr<Stream> removed;
  if (aclError error = removeStream(stream, removed, __func__)) return error;
  removed->abandon();
  return ACL_SUCCESS;
}

extern "C" aclError aclrtCtxGetCurrentDefaultStream(aclrtStream *stream) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(stream);
  std::shared_ptr<Context> context;
  if (aclError error = currentContext(context, __func__)) return error;
  *stream = context->defaultStream.get();
  return ACL_SUCCESS;
}

// Discards the stream's tasks not yet started and returns when they are through; a task already
// running (a kernel) runs to its end, as a CPU thread is not stopped midway. The stream then runs
// new work again, with no fault pending.
extern "C" aclError aclrtStreamAbort(aclrtStream stream) {
  ACLCPU_REQUIRE_INIT();
  std::shared_ptr<Stream> resolved;
  if (aclError error = resolveStream(stream, resolved, __func__)) return error;
  resolved->abort();
  return ACL_SUCCESS;
}

extern "C" aclError aclrtGetStreamAvailableNum(uint32_t *streamCount) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(streamCount);
  std::shared_ptr<Context> context;
  if (aclError error = currentContext(context, __func__)) return error;
  *streamCount = context->device->streamSlots->available();
  return ACL_SUCCESS;
}

// ACL_STOP_ON_FAILURE: the first task fault discards the stream's later tasks (launches too)
// and every synchronize from then on reports it; ACL_CONTINUE_ON_FAILURE (the default) runs on and
// reports a fault once.
extern "C" aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode) {
  ACLCPU_REQUIRE_INIT();
  if (mode != ACL_CONTINUE_ON_FAILURE && mode != ACL_STOP_ON_FAILURE)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM,
                       "mode %llu is neither ACL_CONTINUE_ON_FAILURE (0) nor ACL_STOP_ON_FAILURE (1)",
                       static_cast<unsigned long long>(mode));
  Stream *resolved;
  if (aclError error = borrowStream(stream, resolved, __func__)) return error;
  resolved->setStopOnFailure(mode == ACL_STOP_ON_FAILURE);
  return ACL_SUCCESS;
}

namespace {

// One of a stream's attributes (NULL: the current context's default stream).
template <typename T, typename Read>
aclError streamAttribute(aclrtStream stream, T *out, Read read, const char *function) {
  if (out == nullptr) return reportError(ACL_ERROR_INVALID_PARAM, function, "the output pointer is NULL");
  Stream *resolved;
  if (aclError error = borrowStream(stream, resolved, function)) return error;
  *out = read(resolved->attributes());
  return ACL_SUCCESS;
}

}  // namespace

extern "C" aclError aclrtStreamGetId(aclrtStream stream, int32_t *streamId) {
  ACLCPU_REQUIRE_INIT();
  return streamAttribute(stream, streamId, [](const StreamAttributes &a) { return a.id; }, __func__);
}

extern "C" aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t *priority) {
  ACLCPU_REQUIRE_INIT();
  return streamAttribute(stream, priority, [](const StreamAttributes &a) { return a.priority; }, __func__);
}

extern "C" aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t *flags) {
  ACLCPU_REQUIRE_INIT();
  return streamAttribute(stream, flags, [](const StreamAttributes &a) { return a.flags; }, __func__);
}

extern "C" aclError aclrtSynchronizeStream(aclrtStream stream) {
  ACLCPU_REQUIRE_INIT();
  Stream *resolved;
  if (aclError error = borrowStream(stream, resolved, __func__)) return error;
  return resolved->synchronize();
}

extern "C" aclError aclrtSynchronizeDevice(void) {
  ACLCPU_REQUIRE_INIT();
  std::shared_ptr<Context> context;
  if (aclError error = currentContext(context, __func__)) return error;
  return context->device->synchronize();
}

namespace {

aclError reportTimeout(int32_t timeout, const char *function) {
  return reportError(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, function,
                     "work was still running after %d ms (it runs on; synchronize again to wait for it)", timeout);
}

}  // namespace

extern "C" aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  ACLCPU_REQUIRE_INIT();
  std::chrono::steady_clock::time_point deadline;
  if (aclError error = timeoutDeadline(timeout, deadline, __func__)) return error;
  Stream *resolved;
  if (aclError error = borrowStream(stream, resolved, __func__)) return error;
  aclError error = resolved->synchronizeUntil(deadline);
  return error == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT ? reportTimeout(timeout, __func__) : error;
}

extern "C" aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout) {
  ACLCPU_REQUIRE_INIT();
  std::chrono::steady_clock::time_point deadline;
  if (aclError error = timeoutDeadline(timeout, deadline, __func__)) return error;
  std::shared_ptr<Context> context;
  if (aclError error = currentContext(context, __func__)) return error;
  aclError error = context->device->synchronize(deadline);
  return error == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT ? reportTimeout(timeout, __func__) : error;
}

extern "C" aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(status);
  Stream *resolved;
  if (aclError error = borrowStream(stream, resolved, __func__)) return error;
  *status = resolved->idle() ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

extern "C" aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) {
  ACLCPU_REQUIRE_INIT();
  std::shared_ptr<Stream> resolved;
  if (aclError error = resolveStream(stream, resolved, __func__)) return error;
  return Runtime::get().callbacks.subscribe(threadId, resolved);
}

extern "C" aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream) {
  ACLCPU_REQUIRE_INIT();
  std::shared_ptr<Stream> resolved;
  if (aclError error = resolveStream(stream, resolved, __func__)) return error;
  return Runtime::get().callbacks.unsubscribe(threadId, resolved);
}

extern "C" aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType,
                                        aclrtStream stream) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(fn);
  if (blockType != ACL_CALLBACK_NO_BLOCK && blockType != ACL_CALLBACK_BLOCK)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "blockType %d is neither ACL_CALLBACK_NO_BLOCK nor ACL_CALLBACK_BLOCK",
                       static_cast<int>(blockType));
  std::shared_ptr<Stream> resolved;
  if (aclError error = resolveStream(stream, resolved, __func__)) return error;
  auto queue = Runtime::get().callbacks.queueForStream(resolved.get());
  if (!queue)
    return ACLCPU_FAIL(ACL_ERROR_RT_STREAM_NO_CB_REG,
                       "no thread is subscribed to this stream: call aclrtSubscribeReport first");
  resolved->enqueue(makeCallbackTask(fn, userData, blockType, std::move(queue)));
  return ACL_SUCCESS;
}

// A host function in stream order, called by the thread running the stream: no subscribed
// thread takes part (unlike aclrtLaunchCallback).
extern "C" aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(fn);
  Stream *resolved;
  if (aclError error = borrowStream(stream, resolved, __func__)) return error;
  resolved->enqueue(makeHostFuncTask(fn, args));
  return ACL_SUCCESS;
}

extern "C" aclError aclrtProcessReport(int32_t timeout) {
  ACLCPU_REQUIRE_INIT();
  if (timeout < -1) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "timeout %d ms must be -1 or >= 0", timeout);
  auto queue = Runtime::get().callbacks.queueForThread(static_cast<uint64_t>(pthread_self()));
  if (!queue)
    return ACLCPU_FAIL(ACL_ERROR_RT_THREAD_SUBSCRIBE,
                       "the calling thread is not subscribed to any stream (aclrtSubscribeReport)");
  CallbackReport report;
  if (!queue->take(timeout, report))
    return ACLCPU_FAIL(ACL_ERROR_RT_REPORT_TIMEOUT, "no callback arrived within %d ms", timeout);
  runCallbackReport(report);
  return ACL_SUCCESS;
}
