// aclInit / aclFinalize: the runtime's lifecycle; aclrtGetVersion.
#include "acl/acl.h"
#include "diagnostics.h"
#include "host_registrations.h"
#include "memory_table.h"
#include "runtime_state.h"

using namespace aclcpu;

extern "C" aclError aclInit(const char *configPath) {
  configureLogging();
  auto &runtime = Runtime::get();
  std::lock_guard<std::mutex> lock(runtime.lifecycleMutex);
  if (runtime.initialized.load())
    return ACLCPU_FAIL(ACL_ERROR_REPEAT_INITIALIZE, "aclInit was already called");
  RuntimeConfig config;
  if (aclError error = loadRuntimeConfig(configPath, config)) return error;
  runtime.config = config;
  runtime.devices.clear();
  for (unsigned i = 0; i < config.numDevices; ++i)
    runtime.devices.push_back(std::make_shared<Device>(static_cast<int>(i), config));
  runtime.initCount.fetch_add(1, std::memory_order_relaxed);
  runtime.initialized.store(true, std::memory_order_release);
  ACLCPU_LOG_DEBUG("aclInit: %u device(s), %u worker thread(s) each, memory limit %zu bytes, check=%d sync=%d",
                   config.numDevices, config.numThreads, config.deviceMemoryLimit, config.checkedMode,
                   config.syncMode);
  return ACL_SUCCESS;
}

extern "C" aclError aclFinalize(void) {
  auto &runtime = Runtime::get();
  std::lock_guard<std::mutex> lock(runtime.lifecycleMutex);
  if (!runtime.initialized.load())
    return ACLCPU_FAIL(ACL_ERROR_REPEAT_FINALIZE, "aclInit has not been called, or aclFinalize already was");
  // Outstanding work finishes first; then every object is released and memory returned.
  for (auto &device : runtime.devices) device->synchronize();
  runtime.deadlines.shutdown();  // after the drain: a timed wait's deadline may be what ends it
  runFinalizeHooks();
  for (auto &context : runtime.contexts.removeAll()) destroyContext(context);
  runtime.streams.removeAll();
  runtime.events.removeAll();
  runtime.functions.removeAll();
  runtime.binaries.removeAll();
  runtime.callbacks.clear();
  for (auto &device : runtime.devices) {
    {
      std::lock_guard<std::mutex> deviceLock(device->mutex);
      device->defaultContext.reset();
      device->setDeviceCount = 0;
    }
    device->shutdown();
    memoryTable().releaseAll(device->id(), MemoryKind::Device);
  }
  memoryTable().releaseAll(-1, MemoryKind::Host);
  hostRegistrations().clear();
  runtime.devices.clear();
  setCurrentContext(nullptr);
  useStreamLimits(nullptr);
  runtime.initialized.store(false, std::memory_order_release);
  return ACL_SUCCESS;
}

// The ACL_*_VERSION macros of the headers this library was built with; needs no aclInit.
extern "C" aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion) {
  ACLCPU_CHECK_NOT_NULL(majorVersion);
  ACLCPU_CHECK_NOT_NULL(minorVersion);
  ACLCPU_CHECK_NOT_NULL(patchVersion);
  *majorVersion = ACL_MAJOR_VERSION;
  *minorVersion = ACL_MINOR_VERSION;
  *patchVersion = ACL_PATCH_VERSION;
  return ACL_SUCCESS;
}
