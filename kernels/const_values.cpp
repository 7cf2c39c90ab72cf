// Constant values and their digest.
#include "const_values.h"

#include "huge_pages.h"

#include <cstring>

namespace aclcpu {
namespace {

constexpr uint64_t kMultiplier = 0x9e3779b97f4a7c15ull, kWordMultiplier = 0xc2b2ae3d27d4eb4full;

uint64_t rotateLeft(uint64_t value, int bits) { return (value << bits) | (value >> (64 - bits)); }

uint64_t mixWord(uint64_t lane, uint64_t word) { return rotateLeft(lane + word * kWordMultiplier, 31) * kMultiplier; }

// Four independent lanes of 8-byte words: weights of hundreds of MiB are digested at memory
// speed, where a byte-at-a-time FNV ran at about 1 GB/s.
uint64_t digestOf(const uint8_t *bytes, size_t size) {
  uint64_t lanes[4] = {size, size ^ kMultiplier, size + kWordMultiplier, ~size};
  size_t at = 0;
  for (; at + 32 <= size; at += 32)
    for (int lane = 0; lane < 4; ++lane) {
      uint64_t word;
      memcpy(&word, bytes + at + 8 * lane, 8);
      lanes[lane] = mixWord(lanes[lane], word);
    }
  uint64_t hash =
      rotateLeft(lanes[0], 1) + rotateLeft(lanes[1], 7) + rotateLeft(lanes[2], 12) + rotateLeft(lanes[3], 18);
  for (; at < size; ++at) hash = mixWord(hash, bytes[at]);
  hash ^= hash >> 33;  // spread the last words' bits over the whole digest
  hash *= kWordMultiplier;
  hash ^= hash >> 29;
  return hash;
}

}  // namespace

ConstValues::ConstValues(const void *data, size_t size) : size_(size) {
  uint8_t *copy = nullptr;
  HugePageBlock pages;
  if (size >= kHugePageMinBytes && mapOnHugePages(size, pages)) {
    copy = static_cast<uint8_t *>(pages.data);
    bytes_ = std::shared_ptr<const uint8_t>(copy, [pages](const uint8_t *) { unmapHugePages(pages); });
  } else if (size > 0) {
    copy = new uint8_t[size];
    bytes_ = std::shared_ptr<const uint8_t>(copy, std::default_delete<const uint8_t[]>());
  }
  if (size > 0) memcpy(copy, data, size);
  digest_ = digestOf(bytes_.get(), size_);
}

ConstValues::ConstValues(const std::vector<uint8_t> &bytes) : ConstValues(bytes.data(), bytes.size()) {}

bool sameValues(const SharedConstValues &a, const SharedConstValues &b) {
  if (a == b) return true;
  if (!a || !b) return (a ? a->size() : 0) == 0 && (b ? b->size() : 0) == 0;
  return a->size() == b->size() && a->digest() == b->digest() && memcmp(a->data(), b->data(), a->size()) == 0;
}

}  // namespace aclcpu
