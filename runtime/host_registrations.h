// Host memory registered for device access (aclrtHostRegister, aclrtHostRegisterV2): ranges of
// any host memory (aclrtMallocHost blocks or malloc'ed pages), never device memory. A mapped
// range's device address is its host address (device memory is host memory here); as in CANN it
// serves kernels and operators, not copies. Kept apart from the allocation table, whose lookup
// every launch makes: this one is asked only where that table has no answer (checked mode).
#pragma once

#include "acl/acl_base.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

namespace aclcpu {

class HostRegistrations {
 public:
  // Fails (naming `function`) when [ptr, ptr+size) overlaps a registration or device memory.
  aclError add(const void *ptr, size_t size, bool mapped, const char *function);
  // `ptr` must be where a registration starts.
  aclError remove(const void *ptr, const char *function);
  // Whether ptr lies in a mapped registration.
  bool isMapped(const void *ptr) const;
  // Whether [ptr, ptr+size) lies in one mapped registration.
  bool mapsRange(const void *ptr, size_t size) const;
  void clear();

 private:
  struct Registration {
    size_t size;
    bool mapped;
  };
  // The registration holding ptr, or end().
  std::map<uintptr_t, Registration>::const_iterator holding(uintptr_t address) const;

  mutable std::mutex mutex_;
  std::map<uintptr_t, Registration> ranges_;  // by start address
};

HostRegistrations &hostRegistrations();

}  // namespace aclcpu
