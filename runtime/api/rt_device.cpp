// Devices and their attributes, contexts and the run mode.
#include "acl/acl_rt.h"
#include "diagnostics.h"
#include "kernel_launch.h"
#include "memory_table.h"
#include "runtime_state.h"
#include "untrusted_enum.h"

#include <algorithm>
#include <climits>
#include <unistd.h>

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

// Every device's memory is the host's, so any device reaches any other's: peer access is always
// possible, and enabling it is bookkeeping (copies between devices do not ask for it).
extern "C" aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer, int32_t deviceId, int32_t peerDeviceId) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(canAccessPeer);
  std::shared_ptr<Device> device, peer;
  if (aclError error = findDevice(deviceId, device, __func__)) return error;
  if (aclError error = findDevice(peerDeviceId, peer, __func__)) return error;
  if (deviceId == peerDeviceId)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "deviceId and peerDeviceId are both %d", deviceId);
  *canAccessPeer = 1;
  return ACL_SUCCESS;
}

namespace {

// The current device, and the peer device a peer-access call names (not the current one).
aclError currentAndPeer(int32_t peerDeviceId, std::shared_ptr<Device> &current, const char *function) {
  std::shared_ptr<Context> context;
  if (aclError error = currentContext(context, function)) return error;
  std::shared_ptr<Device> peer;
  if (aclError error = findDevice(peerDeviceId, peer, function)) return error;
  current = context->device;
  if (current->id() == peerDeviceId)
    return reportError(ACL_ERROR_INVALID_PARAM, function, "peerDeviceId %d is the current device", peerDeviceId);
  return ACL_SUCCESS;
}

}  // namespace

// One way: from the current device to the peer. Enabling it again is no error.
extern "C" aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags) {
  ACLCPU_REQUIRE_INIT();
  if (flags != 0) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "flags 0x%x must be 0 (reserved)", flags);
  std::shared_ptr<Device> current;
  if (aclError error = currentAndPeer(peerDeviceId, current, __func__)) return error;
  std::lock_guard<std::mutex> lock(current->mutex);
  auto &peers = current->peersEnabled;
  if (std::find(peers.begin(), peers.end(), peerDeviceId) == peers.end()) peers.push_back(peerDeviceId);
  return ACL_SUCCESS;
}

extern "C" aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId) {
  ACLCPU_REQUIRE_INIT();
  std::shared_ptr<Device> current;
  if (aclError error = currentAndPeer(peerDeviceId, current, __func__)) return error;
  std::lock_guard<std::mutex> lock(current->mutex);
  auto &peers = current->peersEnabled;
  auto it = std::find(peers.begin(), peers.end(), peerDeviceId);
  if (it == peers.end())
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "access from device %d to device %d was not enabled", current->id(),
                       peerDeviceId);
  peers.erase(it);
  return ACL_SUCCESS;
}

extern "C" aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId, int32_t *status) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(status);
  std::shared_ptr<Device> device, peer;
  if (aclError error = findDevice(deviceId, device, __func__)) return error;
  if (aclError error = findDevice(peerDeviceId, peer, __func__)) return error;
  std::lock_guard<std::mutex> lock(device->mutex);
  const auto &peers = device->peersEnabled;
  *status = std::find(peers.begin(), peers.end(), peerDeviceId) != peers.end() ? 1 : 0;
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

// What aclrtCreateStreamWithConfig takes: 0 (highest) to 7.
extern "C" aclError aclrtDeviceGetStreamPriorityRange(int32_t *leastPriority, int32_t *greatestPriority) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(leastPriority);
  ACLCPU_CHECK_NOT_NULL(greatestPriority);
  *leastPriority = 7;
  *greatestPriority = 0;
  return ACL_SUCCESS;
}

// A virtual device has no faults of its own to report.
extern "C" aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus *deviceStatus) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(deviceStatus);
  std::shared_ptr<Device> device;
  if (aclError error = findDevice(deviceId, device, __func__)) return error;
  *deviceStatus = ACL_RT_DEVICE_STATUS_NORMAL;
  return ACL_SUCCESS;
}

// Operators compute IEEE results: an overflow is an infinity, an invalid operation a NaN. That is
// CANN's default mode; its saturating mode (kept for older programs) is not offered.
extern "C" aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode) {
  ACLCPU_REQUIRE_INIT();
  long long which = untrustedEnumValue(mode);
  if (which != ACL_RT_OVERFLOW_MODE_SATURATION && which != ACL_RT_OVERFLOW_MODE_INFNAN)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "mode %lld is not an aclrtFloatOverflowMode", which);
  std::shared_ptr<Context> context;
  if (aclError error = currentContext(context, __func__)) return error;
  if (which == ACL_RT_OVERFLOW_MODE_SATURATION)
    return ACLCPU_FAIL(ACL_ERROR_API_NOT_SUPPORT,
                       "ACL_RT_OVERFLOW_MODE_SATURATION is not supported: operators give IEEE infinities and NaNs "
                       "(ACL_RT_OVERFLOW_MODE_INFNAN)");
  return ACL_SUCCESS;
}

extern "C" aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode *mode) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(mode);
  std::shared_ptr<Context> context;
  if (aclError error = currentContext(context, __func__)) return error;
  *mode = ACL_RT_OVERFLOW_MODE_INFNAN;
  return ACL_SUCCESS;
}

namespace {

// The host's last-level cache, the one its cores share (an Ascend device's L2 is the cache its
// cores share); 0 where the system does not say.
int64_t sharedCacheBytes() {
  for (int level : {_SC_LEVEL3_CACHE_SIZE, _SC_LEVEL2_CACHE_SIZE})
    if (long bytes = sysconf(level); bytes > 0) return bytes;
  return 0;
}

}  // namespace

// A virtual device's attributes: its cores are its worker threads (ACLCPU_NUM_THREADS), each
// with up to kMaxScratchBytes of local memory; SIMT and SuperPOD attributes have no meaning here.
extern "C" aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t *value) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(value);
  std::shared_ptr<Device> device;
  if (aclError error = findDevice(deviceId > INT_MAX ? -1 : static_cast<int32_t>(deviceId), device, __func__))
    return error;
  long long which = untrustedEnumValue(attr);
  switch (which) {
    case ACL_DEV_ATTR_AICPU_CORE_NUM:
    case ACL_DEV_ATTR_AICORE_CORE_NUM:
    case ACL_DEV_ATTR_CUBE_CORE_NUM:
    case ACL_DEV_ATTR_VECTOR_CORE_NUM:
      *value = device->threads();
      return ACL_SUCCESS;
    case ACL_DEV_ATTR_LOCAL_MEM_PER_VECTOR_CORE:
      *value = kMaxScratchBytes;
      return ACL_SUCCESS;
    case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE:
      *value = static_cast<int64_t>(device->memoryLimit());
      return ACL_SUCCESS;
    case ACL_DEV_ATTR_L2_CACHE_SIZE:
      *value = sharedCacheBytes();
      return ACL_SUCCESS;
    case ACL_DEV_ATTR_SMP_ID:  // every virtual device runs on this process's host
      *value = 0;
      return ACL_SUCCESS;
    case ACL_DEV_ATTR_PHY_CHIP_ID:
      *value = device->id();
      return ACL_SUCCESS;
    case ACL_DEV_ATTR_IS_VIRTUAL:
      *value = 1;
      return ACL_SUCCESS;
    case ACL_DEV_ATTR_WARP_SIZE:
    case ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE:
    case ACL_DEV_ATTR_SUPER_POD_DEVIDE_ID:
    case ACL_DEV_ATTR_SUPER_POD_SERVER_ID:
    case ACL_DEV_ATTR_SUPER_POD_ID:
    case ACL_DEV_ATTR_CUST_OP_PRIVILEGE:
    case ACL_DEV_ATTR_MAINBOARD_ID:
      return ACLCPU_FAIL(ACL_ERROR_API_NOT_SUPPORT,
                         "attr %lld has no meaning on a CPU device (no SIMT warps, SuperPOD or mainboard)", which);
    default:
      return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "attr %lld is not an aclrtDevAttr", which);
  }
}

// Names this library and the host's architecture, not an Ascend SoC: a program choosing
// code paths by SoC sees a device it does not know rather than one it would misjudge.
extern "C" const char *aclrtGetSocName(void) {
  if (!Runtime::get().initialized.load(std::memory_order_acquire)) {
    reportUninitialized(__func__);
    return nullptr;
  }
#if defined(__x86_64__)
  return "aclcpu-x86_64";
#elif defined(__aarch64__)
  return "aclcpu-aarch64";
#else
  return "aclcpu";
#endif
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
