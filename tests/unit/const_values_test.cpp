// Constant values (const_values.h): the digest follows every byte, equality never trusts the
// digest alone, and the request memo and resolved requests share a description's values
// rather than copying them.
#include "const_values.h"
#include "op_request.h"
#include "request_memo.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

using namespace aclcpu;

namespace {

std::vector<uint8_t> bytesOf(size_t size) {
  std::vector<uint8_t> bytes(size);
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<uint8_t>(i * 37 + 11);
  return bytes;
}

TEST(ConstValues, EveryByteAndTheSizeChangeTheDigest) {
  // Sizes around the four 8-byte lanes and the tail loop.
  for (size_t size : {1, 7, 8, 31, 32, 33, 64, 100}) {
    ConstValues original(bytesOf(size));
    EXPECT_EQ(ConstValues(bytesOf(size)).digest(), original.digest()) << size;
    for (size_t at = 0; at < size; ++at) {
      std::vector<uint8_t> changed = bytesOf(size);
      changed[at] ^= 0x01;
      EXPECT_NE(ConstValues(changed).digest(), original.digest()) << "size " << size << ", byte " << at;
    }
    std::vector<uint8_t> longer = bytesOf(size);
    longer.push_back(0);
    EXPECT_NE(ConstValues(longer).digest(), original.digest()) << "a trailing zero byte, size " << size;
  }
  // Swapped words, which a sum of per-word hashes would not see.
  std::vector<uint8_t> swapped = bytesOf(64);
  std::swap_ranges(swapped.begin(), swapped.begin() + 8, swapped.begin() + 32);
  EXPECT_NE(ConstValues(swapped).digest(), ConstValues(bytesOf(64)).digest());
}

TEST(ConstValues, SameValuesComparesBytesNotObjects) {
  auto a = std::make_shared<const ConstValues>(bytesOf(40));
  auto b = std::make_shared<const ConstValues>(bytesOf(40));
  std::vector<uint8_t> other = bytesOf(40);
  other[39] ^= 0x80;
  auto c = std::make_shared<const ConstValues>(other);
  EXPECT_TRUE(sameValues(a, a));
  EXPECT_TRUE(sameValues(a, b)) << "separate copies of equal bytes";
  EXPECT_FALSE(sameValues(a, c));
  EXPECT_FALSE(sameValues(a, nullptr));
  EXPECT_TRUE(sameValues(nullptr, std::make_shared<const ConstValues>(std::vector<uint8_t>{})))
      << "no values and no bytes are the same";
}

// Values of 4 MiB and more are copied onto huge pages: the same bytes and digest either way.
TEST(ConstValues, LargeValuesAreACopyWithTheSameDigest) {
  std::vector<uint8_t> source = bytesOf((size_t(5) << 20) + 3);
  ConstValues fromPointer(source.data(), source.size()), fromVector(source);
  ASSERT_EQ(fromPointer.size(), source.size());
  EXPECT_NE(fromPointer.data(), source.data());
  EXPECT_EQ(memcmp(fromPointer.data(), source.data(), source.size()), 0);
  EXPECT_EQ(memcmp(fromVector.data(), source.data(), source.size()), 0);
  EXPECT_EQ(fromPointer.digest(), fromVector.digest());
  source.back() ^= 1;  // the values were copied: a change to the source is not theirs
  EXPECT_NE(ConstValues(source).digest(), fromPointer.digest());
  EXPECT_NE(fromPointer.data()[source.size() - 1], source.back());
}

// What aclopExecuteV2 does on every call: build or match a memo key, and resolve the request.
// Weights of hundreds of MiB must be shared with the description, never copied or re-read.
TEST(ConstValues, RequestsAndMemoKeysShareADescriptionsValues) {
  aclTensorDesc a, b, out;
  a.dataType = b.dataType = out.dataType = ACL_FLOAT;
  a.format = b.format = out.format = ACL_FORMAT_ND;
  a.dims = {2, 3};
  b.dims = {3, 4};
  out.dims = {2, 4};
  std::vector<float> weights(12, 0.5f);
  b.isConst = true;
  b.constValues = std::make_shared<const ConstValues>(weights.data(), weights.size() * sizeof(float));
  const aclTensorDesc *inputs[] = {&a, &b};
  const aclTensorDesc *outputs[] = {&out};
  RequestArguments arguments{"MatMul", 2, inputs, 1, outputs, nullptr};
  RequestKey key = RequestKey::of(arguments);
  EXPECT_EQ(key.inputs[1].constValues.get(), b.constValues.get());
  EXPECT_TRUE(key.matches(arguments));
  auto signatureNow = [&] {
    ResolvedRequest request;
    EXPECT_EQ(resolveRequest("MatMul", 2, inputs, 1, outputs, nullptr, false, request, "test"), ACL_SUCCESS);
    EXPECT_EQ(request.inputs[1].constValues.get(), b.constValues.get());
    return request.signature();
  };
  std::string signature = signatureNow();

  // New values in the description (aclSetTensorConst makes a new object): neither the key nor
  // the signature match; the same bytes again match both.
  auto setWeight = [&](float value) {
    weights[5] = value;
    b.constValues = std::make_shared<const ConstValues>(weights.data(), weights.size() * sizeof(float));
  };
  setWeight(2.0f);
  EXPECT_FALSE(key.matches(arguments));
  EXPECT_NE(signatureNow(), signature);
  setWeight(0.5f);
  EXPECT_TRUE(key.matches(arguments));
  EXPECT_EQ(signatureNow(), signature);
}

}  // namespace
