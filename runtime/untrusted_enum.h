// Reads an enum-typed field that an application filled in: any integer may be there, and
// loading an out-of-range value through the enum type is undefined behaviour.
#pragma once

#include <cstring>
#include <type_traits>

namespace aclcpu {

template <typename Enum>
long long untrustedEnumValue(const Enum &field) {
  std::underlying_type_t<Enum> value;
  memcpy(&value, &field, sizeof(value));
  return static_cast<long long>(value);
}

}  // namespace aclcpu
