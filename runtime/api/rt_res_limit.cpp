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

// What a Set, Get or Reset call acts on: a device's limits or a stream's, the device bounding
// them, and a reference keeping the device or stream alive for the call.
struct LimitsOf {
  CoreLimits *limits = nullptr;
  const Device *device = nullptr;
  std::shared_ptr<const void> keep;
};

aclError limitsOf(int32_t deviceId, LimitsOf &out, const char *function) {
  std::shared_ptr<Device> device;
  if (aclError error = findDevice(deviceId, device, function)) return error;
  out = LimitsOf{&device->coreLimits, device.get(), device};
  return ACL_SUCCESS;
}

// A stream's device is present while the stream lives: devices change only in aclInit/aclFinalize.
aclError limitsOf(aclrtStream stream, LimitsOf &out, const char *function) {
  std::shared_ptr<Stream> resolved;
  if (aclError error = resolveStream(stream, resolved, function)) return error;
  out = LimitsOf{&resolved->coreLimits(), Runtime::get().devices[resolved->deviceId()].get(), resolved};
  return ACL_SUCCESS;
}

// What a launch obeys: `limit` where one is set, else the device's, else its worker threads.
uint32_t orDeviceLimit(uint32_t limit, const Device &device, CoreKind kind) {
  if (limit == 0) limit = device.coreLimits.get(kind);
  return limit != 0 ? limit : device.threads();
}

// Set, Get and Reset over a device (its id) or a stream (its handle).
template <class Target>
aclError setLimit(Target target, aclrtDevResLimitType type, uint32_t value, const char *function) {
  LimitsOf of;
  if (aclError error = limitsOf(target, of, function)) return error;
  CoreKind kind = CoreKind::Vector;
  if (aclError error = checkKind(type, kind, function)) return error;
  if (aclError error = checkLimit(value, *of.device, function)) return error;
  of.limits->set(kind, value);
  return ACL_SUCCESS;
}

// The limit set there, else the device's, else the device's worker threads.
template <class Target>
aclError getLimit(Target target, aclrtDevResLimitType type, uint32_t *value, const char *function) {
  LimitsOf of;
  if (aclError error = limitsOf(target, of, function)) return error;
  CoreKind kind = CoreKind::Vector;
  if (aclError error = checkKind(type, kind, function)) return error;
  *value = orDeviceLimit(of.limits->get(kind), *of.device, kind);
  return ACL_SUCCESS;
}

template <class Target>
aclError resetLimits(Target target, const char *function) {
  LimitsOf of;
  if (aclError error = limitsOf(target, of, function)) return error;
  of.limits->reset();
  return ACL_SUCCESS;
}

}  // namespace

extern "C" aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value) {
  ACLCPU_REQUIRE_INIT();
  return setLimit(deviceId, type, value, __func__);
}

extern "C" aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t *value) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(value);
  return getLimit(deviceId, type, value, __func__);
}

extern "C" aclError aclrtResetDeviceResLimit(int32_t deviceId) {
  ACLCPU_REQUIRE_INIT();
  return resetLimits(deviceId, __func__);
}

extern "C" aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t value) {
  ACLCPU_REQUIRE_INIT();
  return setLimit(stream, type, value, __func__);
}

extern "C" aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t *value) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(value);
  return getLimit(stream, type, value, __func__);
}

extern "C" aclError aclrtResetStreamResLimit(aclrtStream stream) {
  ACLCPU_REQUIRE_INIT();
  return resetLimits(stream, __func__);
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
