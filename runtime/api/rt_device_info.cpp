// What a device is: its attributes, SoC name, status, stream priorities and overflow mode.
#include "acl/acl_rt.h"
#include "diagnostics.h"
#include "runtime_state.h"
#include "kernel_launch.h"
#include "untrusted_enum.h"

#include <climits>
#include <unistd.h>

using namespace aclcpu;

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
