// Host memory registration: aclrtHostRegister, aclrtHostRegisterV2, aclrtHostGetDevicePointer,
// aclrtHostUnregister. Device memory is host memory here, so a mapped range's device address is
// its host address, and pinning changes nothing; the registrations are still kept and checked,
// so that a program that registers wrongly here would fail on a device too.
#include "acl/acl_rt.h"
#include "diagnostics.h"
#include "host_registrations.h"
#include "runtime_state.h"

using namespace aclcpu;

namespace {

constexpr uintptr_t kPageBytes = 4096;  // CANN asks for 4K-aligned host addresses

aclError registerRange(void *ptr, uint64_t size, bool mapped, const char *function) {
  if (ptr == nullptr) return reportError(ACL_ERROR_INVALID_PARAM, function, "ptr is NULL");
  if (reinterpret_cast<uintptr_t>(ptr) % kPageBytes != 0)
    return reportError(ACL_ERROR_INVALID_PARAM, function, "ptr %p is not aligned to a 4 KiB page", ptr);
  if (size == 0) return reportError(ACL_ERROR_INVALID_PARAM, function, "size must be greater than 0");
  return hostRegistrations().add(ptr, static_cast<size_t>(size), mapped, function);
}

}  // namespace

extern "C" aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type, void **devPtr) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(devPtr);
  if (type != ACL_HOST_REGISTER_MAPPED)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "type %d is not an aclrtHostRegisterType", static_cast<int>(type));
  if (aclError error = registerRange(ptr, size, /*mapped=*/true, __func__)) return error;
  *devPtr = ptr;
  return ACL_SUCCESS;
}

extern "C" aclError aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag) {
  ACLCPU_REQUIRE_INIT();
  constexpr uint64_t kKnown = ACL_HOST_REG_MAPPED | ACL_HOST_REG_PINNED;
  if (flag == 0 || (flag & ~kKnown) != 0)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM,
                       "flag 0x%x is not ACL_HOST_REG_MAPPED, ACL_HOST_REG_PINNED or both", static_cast<unsigned>(flag));
  return registerRange(ptr, size, (flag & ACL_HOST_REG_MAPPED) != 0, __func__);
}

extern "C" aclError aclrtHostGetDevicePointer(void *pHost, void **pDevice, uint32_t flag) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(pHost);
  ACLCPU_CHECK_NOT_NULL(pDevice);
  if (flag != 0) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "flag is reserved and must be 0, not %u", flag);
  if (!hostRegistrations().isMapped(pHost))
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM,
                       "pHost %p is not in host memory registered with ACL_HOST_REG_MAPPED (aclrtHostRegisterV2)", pHost);
  *pDevice = pHost;
  return ACL_SUCCESS;
}

extern "C" aclError aclrtHostUnregister(void *ptr) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(ptr);
  return hostRegistrations().remove(ptr, __func__);
}
