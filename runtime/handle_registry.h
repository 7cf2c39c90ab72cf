// Maps the opaque handles given to applications back to live objects, so a destroyed or
// foreign handle is an error code instead of a use-after-free.
#pragma once

#include <atomic>
#include <cstdint>
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
  // Served from a per-thread cache of recent finds while nothing has been removed since (a
  // launch and its synchronize each look their stream up: the lock and the map were a tenth of
  // a handle dispatch).
  std::shared_ptr<T> find(const void *handle) const {
    struct Entry {
      const HandleRegistry *registry = nullptr;
      const void *handle = nullptr;
      uint64_t removals = 0;
      std::weak_ptr<T> object;
    };
    thread_local Entry recent[4];
    thread_local unsigned next = 0;
    uint64_t removals = removals_.load(std::memory_order_acquire);
    for (Entry &entry : recent)
      if (entry.handle == handle && entry.registry == this && entry.removals == removals)
        if (std::shared_ptr<T> object = entry.object.lock()) return object;
    std::shared_ptr<T> object;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = objects_.find(handle);
      if (it == objects_.end()) return nullptr;
      object = it->second;
      removals = removals_.load(std::memory_order_relaxed);
    }
    recent[next++ % 4] = Entry{this, handle, removals, object};
    return object;
  }
  std::shared_ptr<T> remove(const void *handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = objects_.find(handle);
    if (it == objects_.end()) return nullptr;
    auto object = std::move(it->second);
    erase(it);
    return object;
  }
  // Removes `object` if it is still registered (its address may since have been reused).
  bool removeObject(const std::shared_ptr<T> &object) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = objects_.find(object.get());
    if (it == objects_.end() || it->second != object) return false;
    erase(it);
    return true;
  }
  std::vector<std::shared_ptr<T>> removeAll() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<std::shared_ptr<T>> all;
    for (auto &entry : objects_) all.push_back(std::move(entry.second));
    objects_.clear();
    removals_.fetch_add(1, std::memory_order_release);
    return all;
  }

 private:
  using Map = std::unordered_map<const void *, std::shared_ptr<T>>;
  // Under mutex_. Every removal invalidates the finds threads have cached.
  void erase(typename Map::iterator it) {
    objects_.erase(it);
    removals_.fetch_add(1, std::memory_order_release);
  }

  mutable std::mutex mutex_;
  Map objects_;
  std::atomic<uint64_t> removals_{0};
};

}  // namespace aclcpu
