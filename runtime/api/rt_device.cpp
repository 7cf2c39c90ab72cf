// Devices set and reset, contexts, the device count and the run mode.
#include "acl/acl_rt.h"
#include "diagnostics.h"
#include "runtime_state.h"

using namespace aclcpu;

extern "C" aclError aclrtGetDeviceCount(uint32_t *count) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(count);
  *count = static_cast<uint32_t>(Runtime::get().devices.size());
  return ACL_SUCCESS;
}

extern "C" aclError aclrtGetRunMode(aclrtRunMode *runMode) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(runMode);
  *runMode = ACL_HOST;  // the application runs on the host, beside its (virtual) devices
  return ACL_SUCCESS;
}

// A device's default context is active while aclrtSetDevice calls outnumber its resets.
extern "C" aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t *flags, int32_t *active) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(active);
  std::shared_ptr<Device> device;
  if (aclError error = findDevice(deviceId, device, __func__)) return error;
  if (flags != nullptr) *flags = 0;  // reserved: CANN asks for NULL
  std::lock_guard<std::mutex> lock(device->mutex);
  *active = device->setDeviceCount > 0 ? 1 : 0;
  return ACL_SUCCESS;
}

extern "C" aclError aclrtSetDevice(int32_t deviceId) {
  ACLCPU_REQUIRE_INIT();
  std::shared_ptr<Device> device;
  if (aclError error = findDevice(deviceId, device, __func__)) return error;
  std::shared_ptr<Context> context;
  {
    std::lock_guard<std::mutex> lock(device->mutex);
    if (!device->defaultContext) device->defaultContext = createContext(device, /*isDefault=*/true);
    ++device->setDeviceCount;
    context = device->defaultContext;
  }
  setCurrentContext(std::move(context));
  return ACL_SUCCESS;
}

namespace {

// One reset (`force`: all of them) of a device's aclrtSetDevice calls; the last releases the
// default context and its streams, work in flight finishing first.
aclError resetDevice(int32_t deviceId, bool force, const char *function) {
  std::shared_ptr<Device> device;
  if (aclError error = findDevice(deviceId, device, function)) return error;
  std::shared_ptr<Context> released;
  {
    std::lock_guard<std::mutex> lock(device->mutex);
    if (device->setDeviceCount == 0)
      return reportError(ACL_ERROR_RT_INVALID_DEVICEID, function, "device %d was not set by aclrtSetDevice",
                         deviceId);
    device->setDeviceCount = force ? 0 : device->setDeviceCount - 1;
    if (device->setDeviceCount == 0) {
      released = std::move(device->defaultContext);
      device->peersEnabled.clear();  // a reset device starts over, as in CANN
    }
  }
  if (!released) return ACL_SUCCESS;
  return destroyContext(released);
}

}  // namespace

extern "C" aclError aclrtResetDevice(int32_t deviceId) {
  ACLCPU_REQUIRE_INIT();
  return resetDevice(deviceId, /*force=*/false, __func__);
}

extern "C" aclError aclrtResetDeviceForce(int32_t deviceId) {
  ACLCPU_REQUIRE_INIT();
  return resetDevice(deviceId, /*force=*/true, __func__);
}

extern "C" aclError aclrtGetDevice(int32_t *deviceId) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(deviceId);
  std::shared_ptr<Context> context;
  if (aclError error = currentContext(context, __func__)) return error;
  *deviceId = context->device->id();
  return ACL_SUCCESS;
}

extern "C" aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(context);
  std::shared_ptr<Device> device;
  if (aclError error = findDevice(deviceId, device, __func__)) return error;
  auto created = createContext(device, /*isDefault=*/false);
  *context = created.get();
  setCurrentContext(std::move(created));
  return ACL_SUCCESS;
}

extern "C" aclError aclrtDestroyContext(aclrtContext context) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(context);
  auto found = Runtime::get().contexts.find(context);
  if (!found) return ACLCPU_FAIL(ACL_ERROR_RT_INVALID_HANDLE, "context %p is not a live context", context);
  if (found->isDefault)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM,
                       "context %p is a device's default context: release it with aclrtResetDevice", context);
  return destroyContext(found);
}

extern "C" aclError aclrtSetCurrentContext(aclrtContext context) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(context);
  auto found = Runtime::get().contexts.find(context);
  if (!found) return ACLCPU_FAIL(ACL_ERROR_RT_INVALID_HANDLE, "context %p is not a live context", context);
  setCurrentContext(std::move(found));
  return ACL_SUCCESS;
}

extern "C" aclError aclrtGetCurrentContext(aclrtContext *context) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(context);
  std::shared_ptr<Context> current;
  if (aclError error = currentContext(current, __func__)) return error;
  *context = current.get();
  return ACL_SUCCESS;
}
