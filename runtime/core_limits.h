// Device resource limits (aclrtSetDeviceResLimit, aclrtSetStreamResLimit): at most how many of
// a device's worker threads one launch's blocks run on. An Ascend device has cube cores (matrix
// products) and vector cores (the rest); a CPU has one kind, so both limits bound the same
// threads, each for its kind of launch: products (GEMM, MatMul, BatchMatMul, Conv2D, and kernels
// launched as ACL_RT_ENGINE_TYPE_AIC) obey the cube limit, everything else the vector limit.
#pragma once

#include "acl/acl_rt.h"

#include <atomic>
#include <cstdint>
#include <memory>

namespace aclcpu {

enum class CoreKind : uint8_t { Cube = ACL_RT_DEV_RES_CUBE_CORE, Vector = ACL_RT_DEV_RES_VECTOR_CORE };

// One limit per kind; 0 where none is set.
class CoreLimits {
 public:
  uint32_t get(CoreKind kind) const { return cores_[index(kind)].load(std::memory_order_relaxed); }
  void set(CoreKind kind, uint32_t value) {
    anySet.store(true, std::memory_order_relaxed);
    cores_[index(kind)].store(value, std::memory_order_relaxed);
  }
  void reset() {
    for (auto &cores : cores_) cores.store(0, std::memory_order_relaxed);
  }

  // Whether any limit was ever set in this process: until one is, a launch reads no limit.
  static std::atomic<bool> anySet;

 private:
  static unsigned index(CoreKind kind) { return static_cast<unsigned>(kind); }
  std::atomic<uint32_t> cores_[2] = {};
};

class Stream;

// The limit the calling thread's launches of `kind` on device `deviceId` obey, 0 if none: the
// limit of the stream the thread uses (aclrtUseStreamResInCurrentThread) where it is on that
// device and sets one, else the device's (aclrtSetDeviceResLimit).
uint32_t threadCoreLimit(int deviceId, CoreKind kind);
// The threads a launch of `kind` the calling thread enqueues on `stream` may run on: its pool's,
// or fewer under threadCoreLimit. Out of line: launches read it only once a limit was set
// (kernel_launch.h's launchThreads).
unsigned limitedLaunchThreads(const Stream &stream, CoreKind kind);
// The stream whose limits the calling thread's launches obey (null: none, the device's).
void useStreamLimits(std::shared_ptr<Stream> stream);
Stream *streamLimitsInUse();

}  // namespace aclcpu
