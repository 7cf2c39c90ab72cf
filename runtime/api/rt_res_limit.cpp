// Device resource limits: aclrt{Set,Get,Reset}{Device,Stream}ResLimit and the calling thread's
// use of a stream's limits (core_limits.h).
#include "acl/acl_rt.h"
#include "diagnostics.h"
#include "runtime_state.h"
#include "untrusted_enum.h"

using namespace aclcpu;

namespace {

aclError checkKind(aclrtDevResLimitType type, CoreKind &kind, const char *function) {
  long long value = untrustedEnumValue(type);
  if (value != ACL_RT_DEV_RES_CUBE_CORE && value != ACL_RT_DEV_RES_VECTOR_CORE)
    return reportError(ACL_ERROR_INVALID_PARAM, function,
                       "type %lld is neither ACL_RT_DEV_RES_CUBE_CORE nor ACL_RT_DEV_RES_VECTOR_CORE", value);
  kind = static_cast<CoreKind>(value);
  return ACL_SUCCESS;
}

// A limit is 1 to the device's worker threads, its "cores".
aclError checkLimit(uint32_t value, const Device &device, const char *function) {
  if (value == 0 || value > device.threads())
    return reportError(ACL_ERROR_INVALID_PARAM, function,
                       "value %u is outside [1, %u], the worker threads of device %d (ACLCPU_NUM_THREADS)", value,
                       device.threads(), device.id());
  return ACL_SUCCESS;
}

// A stream's device (present while the stream lives: devices change only in aclInit/aclFinalize).
Device &deviceOf(const Stream &stream) { return *Runtime::get().devices[stream.deviceId()]; }

// What a launch obeys: `limit` where one is set, else the device's, else its worker threads.
uint32_t orDeviceLimit(uint32_t limit, const Device &device, CoreKind kind) {
  if (limit == 0) limit = device.coreLimits.get(kind);
  return limit != 0 ? limit : device.threads();
}

}  // namespace

extern "C" aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value) {
  ACLCPU_REQUIRE_INIT();
  std::shared_ptr<Device> device;
  if (aclError error = findDevice(deviceId, device, __func__)) return error;
  CoreKind kind = CoreKind::Vector;
  if (aclError error = checkKind(type, kind, __func__)) return error;
  if (aclError error = checkLimit(value, *device, __func__)) return error;
  device->coreLimits.set(kind, value);
  return ACL_SUCCESS;
}

extern "C" aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t *value) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(value);
  std::shared_ptr<Device> device;
  if (aclError error = findDevice(deviceId, device, __func__)) return error;
  CoreKind kind = CoreKind::Vector;
  if (aclError error = checkKind(type, kind, __func__)) return error;
  *value = orDeviceLimit(0, *device, kind);
  return ACL_SUCCESS;
}

extern "C" aclError aclrtResetDeviceResLimit(int32_t deviceId) {
  ACLCPU_REQUIRE_INIT();
  std::shared_ptr<Device> device;
  if (aclError error = findDevice(deviceId, device, __func__)) return error;
  device->coreLimits.reset();
  return ACL_SUCCESS;
}

extern "C" aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t value) {
  ACLCPU_REQUIRE_INIT();
  std::shared_ptr<Stream> resolved;
  if (aclError error = resolveStream(stream, resolved, __func__)) return error;
  CoreKind kind = CoreKind::Vector;
  if (aclError error = checkKind(type, kind, __func__)) return error;
  if (aclError error = checkLimit(value, deviceOf(*resolved), __func__)) return error;
  resolved->coreLimits().set(kind, value);
  return ACL_SUCCESS;
}

// The stream's limit, else its device's, else the device's worker threads.
extern "C" aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t *value) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(value);
  std::shared_ptr<Stream> resolved;
  if (aclError error = resolveStream(stream, resolved, __func__)) return error;
  CoreKind kind = CoreKind::Vector;
  if (aclError error = checkKind(type, kind, __func__)) return error;
  *value = orDeviceLimit(resolved->coreLimits().get(kind), deviceOf(*resolved), kind);
  return ACL_SUCCESS;
}

extern "C" aclError aclrtResetStreamResLimit(aclrtStream stream) {
  ACLCPU_REQUIRE_INIT();
  std::shared_ptr<Stream> resolved;
  if (aclError error = resolveStream(stream, resolved, __func__)) return error;
  resolved->coreLimits().reset();
  return ACL_SUCCESS;
}

// The calling thread's launches on the stream's device obey the stream's limits from now on,
// whichever stream they are enqueued on (the last stream used wins).
extern "C" aclError aclrtUseStreamResInCurrentThread(aclrtStream stream) {
  ACLCPU_REQUIRE_INIT();
  std::shared_ptr<Stream> resolved;
  if (aclError error = resolveStream(stream, resolved, __func__)) return error;
  useStreamLimits(std::move(resolved));
  return ACL_SUCCESS;
}

extern "C" aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream) {
  ACLCPU_REQUIRE_INIT();
  Stream *used = streamLimitsInUse();
  // A stream destroyed since it was used is let go by its old handle as well.
  if (used != nullptr && stream != nullptr && stream == static_cast<void *>(used)) {
    useStreamLimits(nullptr);
    return ACL_SUCCESS;
  }
  Stream *resolved;
  if (aclError error = borrowStream(stream, resolved, __func__)) return error;
  if (resolved != used)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM,
                       "the calling thread does not use stream %p's limits (aclrtUseStreamResInCurrentThread)", stream);
  useStreamLimits(nullptr);
  return ACL_SUCCESS;
}

// The limit the calling thread's launches on its current device obey.
extern "C" aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t *value) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(value);
  CoreKind kind = CoreKind::Vector;
  if (aclError error = checkKind(type, kind, __func__)) return error;
  std::shared_ptr<Context> context;
  if (aclError error = currentContext(context, __func__)) return error;
  *value = orDeviceLimit(threadCoreLimit(context->device->id(), kind), *context->device, kind);
  return ACL_SUCCESS;
}
