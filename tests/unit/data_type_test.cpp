// aclDataTypeSize and the fp16 conversions, against the compiler's own binary16 as the oracle.
#include "acl/acl.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

TEST(DataTypes, Sizes) {
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT), 4u);
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT16), 2u);
  EXPECT_EQ(aclDataTypeSize(ACL_BF16), 2u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT8), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_UINT8), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_BOOL), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT16), 2u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT32), 4u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT64), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_DOUBLE), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_COMPLEX64), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_COMPLEX128), 16u);
  EXPECT_EQ(aclDataTypeSize(ACL_DT_UNDEFINED), 0u);
  EXPECT_EQ(aclDataTypeSize(ACL_STRING), 0u);
}

// The compiler's binary16: GCC 12's C++ has _Float16 on x86-64 but not on AArch64, where
// __fp16 is the same IEEE format and converts from float with the same rounding.
#if defined(__aarch64__)
#define ACLCPU_COMPILER_HALF __fp16
#elif defined(__FLT16_MAX__)
#define ACLCPU_COMPILER_HALF _Float16
#endif

#if defined(ACLCPU_COMPILER_HALF)
TEST(DataTypes, Float16ToFloatIsExactForEveryHalf) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    uint16_t h = static_cast<uint16_t>(bits);
    ACLCPU_COMPILER_HALF reference;
    memcpy(&reference, &h, 2);
    float expected = static_cast<float>(reference);
    float actual = aclFloat16ToFloat(h);
    if (std::isnan(expected)) {
      ASSERT_TRUE(std::isnan(actual)) << std::hex << bits;
    } else {
      ASSERT_EQ(memcmp(&expected, &actual, 4), 0) << std::hex << bits << " " << expected << " vs " << actual;
    }
  }
}

TEST(DataTypes, FloatToFloat16RoundsToNearestEven) {
  // Every float whose top 19 bits vary (covers every half, the halfway points and the subnormal range).
  for (uint32_t high = 0; high < (1u << 19); ++high) {
    for (uint32_t low : {0u, 1u, 0xFFFu, 0x1000u, 0x1001u, 0x1FFFu}) {
      uint32_t bits = (high << 13) | low;
      float value;
      memcpy(&value, &bits, 4);
      ACLCPU_COMPILER_HALF reference = static_cast<ACLCPU_COMPILER_HALF>(value);
      uint16_t expected;
      memcpy(&expected, &reference, 2);
      uint16_t actual = aclFloatToFloat16(value);
      if (std::isnan(value)) {
        ASSERT_EQ(actual & 0x7C00, 0x7C00) << std::hex << bits;
        ASSERT_NE(actual & 0x3FF, 0) << std::hex << bits;
      } else {
        ASSERT_EQ(actual, expected) << std::hex << bits << " value " << value;
      }
    }
  }
}
#endif
