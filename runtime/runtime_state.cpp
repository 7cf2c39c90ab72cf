// Devices, contexts and handle resolution.
#include "runtime_state.h"

#include "diagnostics.h"

#include <algorithm>

namespace aclcpu {
namespace {
thread_local std::shared_ptr<Context> threadContext;
}

Runtime *Runtime::instance = nullptr;

namespace {
// Priority 101: before every C++ static initializer of the library (default priority), any of
// which may call into the runtime (an operator store registering its finalize hook does not,
// but a future one might).
__attribute__((constructor(101))) void makeRuntime() { Runtime::instance = new Runtime(); }
}  // namespace

Device::~Device() = default;

WorkerPool &Device::pool() {
  std::lock_guard<std::mutex> lock(poolMutex_);
  if (!pool_)
    pool_ = std::make_unique<WorkerPool>(config_.numThreads, config_.spin, config_.syncMode, config_.usableCores);
  return *pool_;
}

std::shared_ptr<Stream> Device::newStream(bool isDefault, uint32_t priority, uint32_t flags) {
  if (isDefault) streamSlots->force();
  else if (!streamSlots->take()) return nullptr;
  StreamAttributes attributes{nextStreamId.fetch_add(1, std::memory_order_relaxed), priority, flags, isDefault};
  auto stream = std::make_shared<Stream>(pool(), id_, config_.spin, attributes, streamSlots);
  std::lock_guard<std::mutex> lock(poolMutex_);
  streams_.erase(std::remove_if(streams_.begin(), streams_.end(), [](auto &s) { return s.expired(); }),
                 streams_.end());
  streams_.push_back(stream);
  return stream;
}

aclError Device::synchronize(std::chrono::steady_clock::time_point deadline) {
  std::vector<std::shared_ptr<Stream>> live;
  {
    std::lock_guard<std::mutex> lock(poolMutex_);
    for (auto &weak : streams_)
      if (auto stream = weak.lock()) live.push_back(std::move(stream));
  }
  aclError first = ACL_SUCCESS;
  for (auto &stream : live) {
    aclError error = stream->synchronizeUntil(deadline);
    if (error == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT) return error;  // the rest would time out too
    if (first == ACL_SUCCESS) first = error;
  }
  return first;
}

void Device::shutdown() {
  std::unique_ptr<WorkerPool> pool;
  {
    std::lock_guard<std::mutex> lock(poolMutex_);
    pool.swap(pool_);
    streams_.clear();
  }
  pool.reset();  // joins the workers outside the lock
}

namespace {
std::vector<void (*)()> &finalizeHooks() {
  static std::vector<void (*)()> hooks;
  return hooks;
}
}  // namespace

void registerFinalizeHook(void (*hook)()) { finalizeHooks().push_back(hook); }

void runFinalizeHooks() {
  for (auto hook : finalizeHooks()) hook();
}

aclError reportUninitialized(const char *function) {
  return reportError(ACL_ERROR_UNINITIALIZE, function, "aclInit has not been called (or aclFinalize has)");
}

aclError findDevice(int32_t deviceId, std::shared_ptr<Device> &out, const char *function) {
  auto &devices = Runtime::get().devices;
  if (deviceId < 0 || static_cast<size_t>(deviceId) >= devices.size())
    return reportError(ACL_ERROR_RT_INVALID_DEVICEID, function, "device %d does not exist (there are %zu devices)",
                       deviceId, devices.size());
  out = devices[deviceId];
  return ACL_SUCCESS;
}

aclError currentContext(std::shared_ptr<Context> &out, const char *function) {
  if (!threadContext || threadContext->destroyed.load(std::memory_order_acquire)) {
    threadContext.reset();
    return reportError(ACL_ERROR_RT_CONTEXT_NULL, function,
                       "no current context on this thread: call aclrtSetDevice or aclrtCreateContext first");
  }
  out = threadContext;
  return ACL_SUCCESS;
}

void setCurrentContext(std::shared_ptr<Context> context) { threadContext = std::move(context); }

aclError resolveStream(aclrtStream handle, std::shared_ptr<Stream> &out, const char *function) {
  Stream *borrowed;
  if (aclError error = borrowStream(handle, borrowed, function)) return error;
  out = borrowed->shared_from_this();
  return ACL_SUCCESS;
}

aclError borrowStream(aclrtStream handle, Stream *&out, const char *function) {
  if (handle == nullptr) {  // the current context's default stream; the thread holds the context
    std::shared_ptr<Context> context;
    if (!threadContext || threadContext->destroyed.load(std::memory_order_acquire))
      return currentContext(context, function);  // reports the missing context
    out = threadContext->defaultStream.get();
    return ACL_SUCCESS;
  }
  out = Runtime::get().streams.borrow(handle);
  if (!out)
    return reportError(ACL_ERROR_RT_INVALID_HANDLE, function, "stream %p is not a live stream (destroyed?)", handle);
  return ACL_SUCCESS;
}

aclError resolveEvent(aclrtEvent handle, std::shared_ptr<Event> &out, const char *function) {
  if (handle == nullptr) return reportError(ACL_ERROR_INVALID_PARAM, function, "event is NULL");
  out = Runtime::get().events.find(handle);
  if (!out)
    return reportError(ACL_ERROR_RT_INVALID_HANDLE, function, "event %p is not a live event (destroyed?)", handle);
  return ACL_SUCCESS;
}

aclError timeoutDeadline(int32_t timeout, std::chrono::steady_clock::time_point &deadline, const char *function) {
  if (timeout == -1) {
    deadline = Stream::kNoDeadline;
    return ACL_SUCCESS;
  }
  if (timeout <= 0)
    return reportError(ACL_ERROR_INVALID_PARAM, function, "timeout %d ms must be -1 (none) or > 0", timeout);
  deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout);
  return ACL_SUCCESS;
}

std::shared_ptr<Context> createContext(const std::shared_ptr<Device> &device, bool isDefault) {
  auto context = std::make_shared<Context>();
  context->device = device;
  context->isDefault = isDefault;
  context->defaultStream = device->newStream(/*isDefault=*/true);
  // A handle of its own too, for aclrtCtxGetCurrentDefaultStream (NULL names it as well).
  Runtime::get().streams.add(context->defaultStream);
  Runtime::get().contexts.add(context);
  return context;
}

aclError destroyContext(const std::shared_ptr<Context> &context) {
  auto &runtime = Runtime::get();
  runtime.contexts.remove(context.get());
  std::vector<std::weak_ptr<Stream>> streams;
  {
    std::lock_guard<std::mutex> lock(context->device->mutex);
    streams.swap(context->streams);
  }
  aclError first = context->defaultStream ? context->defaultStream->synchronize() : ACL_SUCCESS;
  for (auto &weak : streams) {
    auto stream = weak.lock();
    if (!stream || !runtime.streams.removeObject(stream)) continue;  // already destroyed
    stream->releaseSlot();
    runtime.callbacks.forgetStream(stream.get());
    aclError error = stream->synchronize();
    if (first == ACL_SUCCESS) first = error;
  }
  if (context->defaultStream) {
    runtime.streams.removeObject(context->defaultStream);
    context->defaultStream->releaseSlot();
    runtime.callbacks.forgetStream(context->defaultStream.get());
  }
  context->destroyed.store(true, std::memory_order_release);
  context->defaultStream.reset();
  return first;
}

}  // namespace aclcpu
