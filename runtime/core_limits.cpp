// Which resource limit a launch obeys: the calling thread's stream's, the device's, or none.
#include "core_limits.h"

#include "runtime_state.h"

#include <algorithm>

namespace aclcpu {

std::atomic<bool> CoreLimits::anySet{false};

namespace {
// Held, not borrowed: a stream destroyed while a thread uses its limits keeps them (and its
// object) until the thread lets go. Kept with the aclInit it was used under: after aclFinalize
// and a new aclInit it no longer applies.
thread_local std::shared_ptr<Stream> threadLimitStream;
thread_local uint64_t threadLimitInit = 0;

bool usesCurrentStream() {
  return threadLimitStream && threadLimitInit == Runtime::get().initCount.load(std::memory_order_relaxed);
}
}  // namespace

void useStreamLimits(std::shared_ptr<Stream> stream) {
  threadLimitStream = std::move(stream);
  threadLimitInit = Runtime::get().initCount.load(std::memory_order_relaxed);
}

Stream *streamLimitsInUse() { return usesCurrentStream() ? threadLimitStream.get() : nullptr; }

uint32_t threadCoreLimit(int deviceId, CoreKind kind) {
  if (usesCurrentStream() && threadLimitStream->deviceId() == deviceId)
    if (uint32_t limit = threadLimitStream->coreLimits().get(kind)) return limit;
  auto &devices = Runtime::get().devices;
  if (deviceId < 0 || static_cast<size_t>(deviceId) >= devices.size()) return 0;
  return devices[deviceId]->coreLimits.get(kind);
}

unsigned limitedLaunchThreads(const Stream &stream, CoreKind kind) {
  uint32_t limit = threadCoreLimit(stream.deviceId(), kind);
  return limit == 0 ? stream.poolThreads() : std::min<unsigned>(limit, stream.poolThreads());
}

}  // namespace aclcpu
