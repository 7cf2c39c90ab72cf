// Peer access between devices.
#include "acl/acl_rt.h"
#include "diagnostics.h"
#include "runtime_state.h"

#include <algorithm>

using namespace aclcpu;

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
