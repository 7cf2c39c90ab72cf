// The process-wide runtime between aclInit and aclFinalize: configuration, virtual devices
// (each with a lazily started worker pool), contexts, handle registries and the calling
// thread's current context.
#pragma once

#include "acl/acl_rt.h"
#include "callback_reports.h"
#include "config.h"
#include "core_limits.h"
#include "deadline_timer.h"
#include "event.h"
#include "handle_registry.h"
#include "loaded_binary.h"
#include "resource_slots.h"
#include "stream.h"
#include "worker_pool.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace aclcpu {

class Device;

struct Context {
  std::shared_ptr<Device> device;
  bool isDefault = false;
  std::shared_ptr<Stream> defaultStream;
  std::vector<std::weak_ptr<Stream>> streams;  // created in this context (guarded by Device::mutex)
  std::atomic<bool> destroyed{false};
};

class Device {
 public:
  Device(int id, const RuntimeConfig &config) : id_(id), config_(config) {}
  ~Device();

  int id() const { return id_; }
  size_t memoryLimit() const { return config_.deviceMemoryLimit; }
  // Its worker threads (the pool's, once started): the most a resource limit may be.
  unsigned threads() const { return config_.numThreads; }
  // The device's worker pool, started on first use.
  WorkerPool &pool();
  // A new stream holding one of the device's stream slots (streamSlots), with the next stream id;
  // null when every slot is held, unless it is a context's default stream, which always gets one.
  std::shared_ptr<Stream> newStream(bool isDefault, uint32_t priority = 0, uint32_t flags = 0);
  // Waits for every stream of this device (destroyed ones still draining included), up to
  // `deadline` (then ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, no message set).
  aclError synchronize(std::chrono::steady_clock::time_point deadline = Stream::kNoDeadline);
  // Stops the worker pool (aclFinalize, after every stream has drained).
  void shutdown();

  std::mutex mutex;                        // guards the members below and Context::streamHandles
  std::shared_ptr<Context> defaultContext;  // exists while setDeviceCount > 0
  int setDeviceCount = 0;
  std::atomic<int32_t> nextStreamId{0};
  std::vector<int32_t> peersEnabled;  // aclrtDeviceEnablePeerAccess from this device
  CoreLimits coreLimits;  // aclrtSetDeviceResLimit
  // CANN's per-device bounds: streams (default ones included) and ACL_EVENT_SYNC events from
  // aclrtCreateEventWithFlag.
  const std::shared_ptr<ResourceSlots> streamSlots = std::make_shared<ResourceSlots>(1984);
  const std::shared_ptr<ResourceSlots> syncEventSlots = std::make_shared<ResourceSlots>(65536);

 private:
  const int id_;
  const RuntimeConfig config_;
  std::mutex poolMutex_;
  std::unique_ptr<WorkerPool> pool_;
  std::vector<std::weak_ptr<Stream>> streams_;
};

class Runtime {
 public:
  // Made when the library is loaded and never destroyed: a program may exit without
  // aclFinalize, and tearing down JIT-linked kernels from a static destructor could run after
  // LLVM's own statics are gone. A plain load, without a function-local static's guard: every
  // API call reads it, and right after a kernel that filled L1 (a 64^3 GEMM's operands are 48
  // KiB) the guard's line was one more read from L2 before the pointer's (64^3 through a
  // handle, launch and synchronize after the kernel, with requireInitialized inline: 77 -> 67
  // and 88 -> 77 ns).
  static Runtime &get() { return *instance; }
  static Runtime *instance;  // set by runtime_state.cpp's load-time constructor

  std::atomic<bool> initialized{false};
  std::atomic<uint64_t> initCount{0};  // aclInit calls that succeeded: what a thread kept is of which
  std::mutex lifecycleMutex;  // serializes aclInit / aclFinalize / device resets
  RuntimeConfig config;
  std::vector<std::shared_ptr<Device>> devices;
  HandleRegistry<Context> contexts;
  HandleRegistry<Stream> streams;
  HandleRegistry<Event> events;
  std::atomic<uint32_t> nextEventId{0};  // aclrtGetEventId
  DeadlineTimer deadlines;                   // timed event waits
  std::atomic<uint32_t> opWaitTimeoutSeconds{0};  // aclrtSetOpWaitTimeout; 0: waits do not give up
  HandleRegistry<LoadedBinary> binaries;
  HandleRegistry<KernelFunction> functions;
  CallbackHub callbacks;
};

// Work for aclFinalize from layers above the runtime (the operator model store), run after
// every stream has drained; registered once, at static initialization.
void registerFinalizeHook(void (*hook)());
void runFinalizeHooks();

// Returns ACL_ERROR_UNINITIALIZE (with a message) unless aclInit has succeeded. Inline: every
// API call starts with it.
aclError reportUninitialized(const char *function);
inline aclError requireInitialized(const char *function) {
  if (Runtime::get().initialized.load(std::memory_order_acquire)) return ACL_SUCCESS;
  return reportUninitialized(function);
}
aclError findDevice(int32_t deviceId, std::shared_ptr<Device> &out, const char *function);
// The calling thread's current context; ACL_ERROR_RT_CONTEXT_NULL when there is none.
aclError currentContext(std::shared_ptr<Context> &out, const char *function);
void setCurrentContext(std::shared_ptr<Context> context);
// A stream handle (NULL = the current context's default stream) to its stream.
aclError resolveStream(aclrtStream handle, std::shared_ptr<Stream> &out, const char *function);
// The same stream without a reference of the caller's own: good until this thread's next
// borrowStream or resolveStream (which borrows too), i.e. for the rest of one API call (a
// launch, a synchronize).
aclError borrowStream(aclrtStream handle, Stream *&out, const char *function);
aclError resolveEvent(aclrtEvent handle, std::shared_ptr<Event> &out, const char *function);
// A timeout argument in ms (-1: none, > 0: that long from now) as a deadline (Stream::kNoDeadline
// for none); ACL_ERROR_INVALID_PARAM for any other value.
aclError timeoutDeadline(int32_t timeout, std::chrono::steady_clock::time_point &deadline, const char *function);

// Creates a context on `device` with its default stream and registers it.
std::shared_ptr<Context> createContext(const std::shared_ptr<Device> &device, bool isDefault);
// Synchronizes and unregisters a context's streams and marks it destroyed.
aclError destroyContext(const std::shared_ptr<Context> &context);

}  // namespace aclcpu

// Every public runtime entry point starts with this.
#define ACLCPU_REQUIRE_INIT()                                                          \
  do {                                                                                 \
    if (aclError aclcpuInitError = ::aclcpu::requireInitialized(__func__)) return aclcpuInitError; \
  } while (0)
