// Maps the opaque handles given to applications back to live objects, so a destroyed or
// foreign handle is an error code instead of a use-after-free.
#pragma once

#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace aclcpu {

template <typename T>
class HandleRegistry {
 public:
  void *add(std::shared_ptr<T> object) {
    void *handle = object.get();
    std::lock_guard<std::mutex> lock(mutex_);
    objects_[handle] = std::move(object);
    return handle;
  }
  std::shared_ptr<T> find(const void *handle) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = objects_.find(handle);
    return it == objects_.end() ? nullptr : it->second;
  }
  std::shared_ptr<T> remove(const void *handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = objects_.find(handle);
    if (it == objects_.end()) return nullptr;
    auto object = std::move(it->second);
    objects_.erase(it);
    return object;
  }
  // Removes `object` if it is still registered (its address may since have been reused).
  bool removeObject(const std::shared_ptr<T> &object) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = objects_.find(object.get());
    if (it == objects_.end() || it->second != object) return false;
    objects_.erase(it);
    return true;
  }
  std::vector<std::shared_ptr<T>> removeAll() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<std::shared_ptr<T>> all;
    for (auto &entry : objects_) all.push_back(std::move(entry.second));
    objects_.clear();
    return all;
  }

 private:
  mutable std::mutex mutex_;
  std::unordered_map<const void *, std::shared_ptr<T>> objects_;
};

}  // namespace aclcpu
