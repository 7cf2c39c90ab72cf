// Host-side tensors for reference checks: element encoding for every ACL data type (fp16
// through the runtime's own converter, bf16 by round-to-nearest-even), NumPy-style index
// helpers, and per-dtype tolerances. Shared by the JIT tests and the conformance suite.
#pragma once

#include "acl/acl_base.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace aclcpu_test {

inline uint16_t toBf16(float value) {
  uint32_t bits;
  memcpy(&bits, &value, 4);
  if (std::isnan(value)) return 0x7FC0;
  bits += 0x7FFF + ((bits >> 16) & 1);  // round to nearest even
  return static_cast<uint16_t>(bits >> 16);
}

inline float fromBf16(uint16_t value) {
  uint32_t bits = uint32_t(value) << 16;
  float result;
  memcpy(&result, &bits, 4);
  return result;
}

// An integral value wrapped into a narrower integer: through int64 first, as a double outside
// the narrow type's range converted straight to it is undefined (x86-64 wraps through a 32-bit
// conversion, AArch64 saturates).
template <class Integer>
Integer wrapToInteger(double value) {
  return static_cast<Integer>(static_cast<int64_t>(value));
}

inline void storeElement(aclDataType type, uint8_t *at, double value) {
  switch (type) {
    case ACL_FLOAT: { float v = float(value); memcpy(at, &v, 4); break; }
    case ACL_DOUBLE: memcpy(at, &value, 8); break;
    case ACL_FLOAT16: { uint16_t v = aclFloatToFloat16(float(value)); memcpy(at, &v, 2); break; }
    case ACL_BF16: { uint16_t v = toBf16(float(value)); memcpy(at, &v, 2); break; }
    case ACL_INT8: { int8_t v = wrapToInteger<int8_t>(value); memcpy(at, &v, 1); break; }
    case ACL_UINT8: { uint8_t v = wrapToInteger<uint8_t>(value); memcpy(at, &v, 1); break; }
    case ACL_BOOL: { uint8_t v = value != 0; memcpy(at, &v, 1); break; }
    case ACL_INT16: { int16_t v = wrapToInteger<int16_t>(value); memcpy(at, &v, 2); break; }
    case ACL_INT32: { int32_t v = wrapToInteger<int32_t>(value); memcpy(at, &v, 4); break; }
    case ACL_INT64: { int64_t v = int64_t(value); memcpy(at, &v, 8); break; }
    default: break;
  }
}

inline double loadElement(aclDataType type, const uint8_t *at) {
  switch (type) {
    case ACL_FLOAT: { float v; memcpy(&v, at, 4); return v; }
    case ACL_DOUBLE: { double v; memcpy(&v, at, 8); return v; }
    case ACL_FLOAT16: { uint16_t v; memcpy(&v, at, 2); return aclFloat16ToFloat(v); }
    case ACL_BF16: { uint16_t v; memcpy(&v, at, 2); return fromBf16(v); }
    case ACL_INT8: return int8_t(*at);
    case ACL_UINT8:
    case ACL_BOOL: return *at;
    case ACL_INT16: { int16_t v; memcpy(&v, at, 2); return v; }
    case ACL_INT32: { int32_t v; memcpy(&v, at, 4); return v; }
    case ACL_INT64: { int64_t v; memcpy(&v, at, 8); return double(v); }
    default: return 0;
  }
}

// The value `value` becomes when stored as `type` (what a correct kernel produces).
inline double roundTo(aclDataType type, double value) {
  uint8_t bytes[8] = {};
  storeElement(type, bytes, value);
  return loadElement(type, bytes);
}

inline bool isFloatType(aclDataType t) {
  return t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_BF16 || t == ACL_DOUBLE;
}

// Relative tolerance per dtype: a few units in the last place; 0 (exact) for integers.
inline double relativeTolerance(aclDataType type) {
  switch (type) {
    case ACL_FLOAT16: return 2e-3;
    case ACL_BF16: return 1.6e-2;
    case ACL_FLOAT: return 2e-5;
    case ACL_DOUBLE: return 1e-12;
    default: return 0;
  }
}

struct HostTensor {
  aclDataType type;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;

  HostTensor(aclDataType t, std::vector<int64_t> s) : type(t), shape(std::move(s)) {
    bytes.assign(std::max<int64_t>(count(), 1) * aclDataTypeSize(type), 0);
  }
  int64_t count() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }
  size_t byteSize() const { return static_cast<size_t>(count()) * aclDataTypeSize(type); }
  double at(int64_t i) const { return loadElement(type, bytes.data() + i * aclDataTypeSize(type)); }
  void set(int64_t i, double v) { storeElement(type, bytes.data() + i * aclDataTypeSize(type), v); }
};

// Uniform values in [lo, hi]; integers rounded.
inline HostTensor randomTensor(aclDataType type, std::vector<int64_t> shape, unsigned seed, double lo = -2,
                               double hi = 2) {
  HostTensor t(type, std::move(shape));
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> uniform(lo, hi);
  for (int64_t i = 0; i < t.count(); ++i) {
    double v = uniform(random);
    t.set(i, isFloatType(type) ? v : std::round(v));
  }
  return t;
}

// `n` floats uniform in [-1, 1], reproducible from `seed`.
inline std::vector<float> randomFloats(size_t n, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> values(n);
  for (float &v : values) v = uniform(random);
  return values;
}

inline std::vector<int64_t> unravel(int64_t flat, const std::vector<int64_t> &shape) {
  std::vector<int64_t> index(shape.size());
  for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
    index[d] = shape[d] ? flat % shape[d] : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
  return index;
}

inline int64_t ravel(const std::vector<int64_t> &index, const std::vector<int64_t> &shape) {
  int64_t flat = 0;
  for (size_t d = 0; d < shape.size(); ++d) flat = flat * shape[d] + index[d];
  return flat;
}

// The element of `t` that NumPy broadcasting reads for result index `index`.
inline double broadcastAt(const HostTensor &t, const std::vector<int64_t> &index) {
  std::vector<int64_t> own(t.shape.size());
  size_t offset = index.size() - t.shape.size();
  for (size_t d = 0; d < t.shape.size(); ++d) own[d] = t.shape[d] == 1 ? 0 : index[d + offset];
  return t.at(ravel(own, t.shape));
}

}  // namespace aclcpu_test
