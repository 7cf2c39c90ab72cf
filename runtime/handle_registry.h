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
  // A reference to the object, or null.
  std::shared_ptr<T> find(const void *handle) const {
    uint64_t removals;
    return findLocked(handle, removals);
  }
  // The object, or null, its reference count untouched (a stream's launch and synchronize
  // look it up on every call): this thread's cache holds a reference, so the pointer is good
  // until this thread's next borrow from this registry. A removed object is freed once the
  // threads that borrowed it have borrowed four others or exited.
  T *borrow(const void *handle) const {
    thread_local RecentBorrows recent;
    uint64_t removals = removals_.load(std::memory_order_acquire);
    if (const std::shared_ptr<T> *cached = recent.lookup(this, handle, removals)) return cached->get();
    std::shared_ptr<T> object = findLocked(handle, removals);
    if (!object) return nullptr;
    recent.add(this, handle, removals, object);
    return object.get();
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

  // A thread's last few borrows, each valid while the registry's removal count is unchanged.
  struct RecentBorrows {
    struct Entry {
      const HandleRegistry *registry = nullptr;
      const void *handle = nullptr;
      uint64_t removals = 0;
      std::shared_ptr<T> object;
    };
    Entry entries[4];
    unsigned next = 0;

    const std::shared_ptr<T> *lookup(const HandleRegistry *registry, const void *handle, uint64_t removals) const {
      for (const Entry &entry : entries)
        if (entry.handle == handle && entry.registry == registry && entry.removals == removals) return &entry.object;
      return nullptr;
    }
    void add(const HandleRegistry *registry, const void *handle, uint64_t removals, const std::shared_ptr<T> &object) {
      Entry &entry = entries[next++ % 4];
      std::shared_ptr<T> evicted = std::move(entry.object);  // released after the entry is whole again
      entry = Entry{registry, handle, removals, object};
    }
  };

  // The registered object and the removal count it is valid under.
  std::shared_ptr<T> findLocked(const void *handle, uint64_t &removals) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = objects_.find(handle);
    if (it == objects_.end()) return nullptr;
    removals = removals_.load(std::memory_order_relaxed);
    return it->second;
  }
  // Under mutex_. Every removal invalidates what threads have borrowed.
  void erase(typename Map::iterator it) {
    objects_.erase(it);
    removals_.fetch_add(1, std::memory_order_release);
  }

  mutable std::mutex mutex_;
  Map objects_;
  std::atomic<uint64_t> removals_{0};
};

}  // namespace aclcpu
