#include "host_registrations.h"

#include "diagnostics.h"
#include "memory_table.h"

namespace aclcpu {

HostRegistrations &hostRegistrations() {
  static HostRegistrations *registrations = new HostRegistrations();  // never destroyed: see memoryTable()
  return *registrations;
}

std::map<uintptr_t, HostRegistrations::Registration>::const_iterator HostRegistrations::holding(
    uintptr_t address) const {
  auto it = ranges_.upper_bound(address);
  if (it == ranges_.begin()) return ranges_.end();
  --it;
  return address - it->first < it->second.size ? it : ranges_.end();
}

aclError HostRegistrations::add(const void *ptr, size_t size, bool mapped, const char *function) {
  uintptr_t start = reinterpret_cast<uintptr_t>(ptr);
  if (size > UINTPTR_MAX - start)
    return reportError(ACL_ERROR_INVALID_PARAM, function, "ptr %p + %zu bytes wraps around the address space", ptr, size);
  if (memoryTable().overlaps(start, size, MemoryKind::Device))
    return reportError(ACL_ERROR_INVALID_PARAM, function, "ptr %p + %zu bytes overlaps device memory (aclrtMalloc)",
                       ptr, size);
  std::lock_guard<std::mutex> lock(mutex_);
  auto other = holding(start);  // one holding the start, else the first one starting inside
  if (other == ranges_.end()) {
    other = ranges_.lower_bound(start);
    if (other != ranges_.end() && other->first - start >= size) other = ranges_.end();
  }
  if (other != ranges_.end()) {
    return reportError(ACL_ERROR_INVALID_PARAM, function,
                       "ptr %p + %zu bytes overlaps the registration of %p (%zu bytes): unregister it first", ptr,
                       size, reinterpret_cast<void *>(other->first), other->second.size);
  }
  ranges_.emplace(start, Registration{size, mapped});
  return ACL_SUCCESS;
}

aclError HostRegistrations::remove(const void *ptr, const char *function) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (ranges_.erase(reinterpret_cast<uintptr_t>(ptr)) == 0)
    return reportError(ACL_ERROR_INVALID_PARAM, function,
                       "ptr %p is not the start of registered host memory (aclrtHostRegister)", ptr);
  return ACL_SUCCESS;
}

bool HostRegistrations::isMapped(const void *ptr) const { return mapsRange(ptr, 1); }

bool HostRegistrations::mapsRange(const void *ptr, size_t size) const {
  uintptr_t address = reinterpret_cast<uintptr_t>(ptr);
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = holding(address);
  return it != ranges_.end() && it->second.mapped && size <= it->second.size - (address - it->first);
}

void HostRegistrations::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  ranges_.clear();
}

}  // namespace aclcpu
