// Streams, device synchronization and host callbacks.
#include "acl/acl_rt.h"
#include "callback_reports.h"
#include "diagnostics.h"
#include "runtime_state.h"

#include <algorithm>
#include <pthread.h>

using namespace aclcpu;

extern "C" aclError aclrtCreateStream(aclrtStream *stream) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(stream);
  std::shared_ptr<Context> context;
  if (aclError error = currentContext(context, __func__)) return error;
  auto created = context->device->newStream();
  {
    std::lock_guard<std::mutex> lock(context->device->mutex);
    auto &streams = context->streams;
    streams.erase(std::remove_if(streams.begin(), streams.end(), [](auto &s) { return s.expired(); }), streams.end());
    streams.push_back(created);
  }
  *stream = Runtime::get().streams.add(std::move(created));
  return ACL_SUCCESS;
}

extern "C" aclError aclrtDestroyStream(aclrtStream stream) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(stream);
  auto &runtime = Runtime::get();
  auto removed = runtime.streams.remove(stream);
  if (!removed) return ACLCPU_FAIL(ACL_ERROR_RT_INVALID_HANDLE, "stream %p is not a live stream", stream);
  runtime.callbacks.forgetStream(removed.get());
  // Work already queued still runs to completion (the stream object lives until it drains).
  return removed->synchronize();
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
