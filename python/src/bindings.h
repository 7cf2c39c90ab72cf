// Shared by the pyACL-style bindings: handles are Python ints, results are `ret` or
// `(value, ret)`, and the C objects that the library cannot validate itself (tensor
// descriptions, data buffers, attributes, operator handles) are tracked here, so a stale or
// made-up int gives ACL_ERROR_INVALID_PARAM instead of a crash.
#pragma once

#include "acl/acl.h"

#include <pybind11/pybind11.h>

#include <cstdint>
#include <mutex>
#include <unordered_set>
#include <vector>

namespace aclpy {

namespace py = pybind11;

// pyACL returns ACL error codes as plain ints.
constexpr int code(aclError error) { return static_cast<int>(error); }

template <typename T>
T *pointer(uint64_t handle) {
  return reinterpret_cast<T *>(static_cast<uintptr_t>(handle));
}
template <typename T>
uint64_t handleOf(T *object) {
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(object));
}

// The live objects of one kind that this module created.
class LiveObjects {
 public:
  void add(const void *object) {
    std::lock_guard<std::mutex> lock(mutex_);
    live_.insert(object);
  }
  // True if `object` was live (and is no longer).
  bool remove(const void *object) {
    std::lock_guard<std::mutex> lock(mutex_);
    return live_.erase(object) != 0;
  }
  bool contains(const void *object) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return live_.count(object) != 0;
  }

 private:
  mutable std::mutex mutex_;
  std::unordered_set<const void *> live_;
};

LiveObjects &liveTensorDescs();
LiveObjects &liveDataBuffers();
LiveObjects &liveAttrs();
LiveObjects &liveOpHandles();

// Each handle of `handles` as a live object of `live`; false if any is not (nullptr allowed
// when `allowNull`, e.g. no attributes).
template <typename T>
bool resolveAll(const std::vector<uint64_t> &handles, LiveObjects &live, std::vector<T *> &out, bool allowNull = false) {
  out.clear();
  for (uint64_t handle : handles) {
    T *object = pointer<T>(handle);
    if (!(object == nullptr ? allowNull : live.contains(object))) return false;
    out.push_back(object);
  }
  return true;
}
template <typename T>
bool resolveOne(uint64_t handle, LiveObjects &live, T *&out, bool allowNull = false) {
  out = pointer<T>(handle);
  return out == nullptr ? allowNull : live.contains(out);
}

// (handle, ret) for a handle the C API created (tracked as live when it succeeded).
py::tuple newOpHandle(aclError error, aclopHandle *handle);

// The address of a Python buffer (bytes, bytearray, numpy array) or an int address.
uint64_t addressOf(const py::object &hostData);

void bindRuntime(py::module_ &rt);
void bindTensors(py::module_ &acl);
void bindOperators(py::module_ &op);
void bindBlas(py::module_ &blas);
void bindUtil(py::module_ &util);

}  // namespace aclpy
