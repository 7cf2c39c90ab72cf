// The compiler-rt float builtins the JIT gives generated code (float_builtins.h), on values
// chosen where a conversion goes wrong: ties, just past ties (where rounding f64 through f32 to
// nearest would round twice), the overflow boundary, denormals, signed zeros and NaNs.
#include "../../kernels/ukernels/float_builtins.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace {

uint16_t bitsOf(float result) {  // the bf16 in the low 16 bits of the returned register
  uint32_t bits;
  memcpy(&bits, &result, 4);
  return static_cast<uint16_t>(bits & 0xffff);
}

float floatOf(uint32_t bits) {
  float value;
  memcpy(&value, &bits, 4);
  return value;
}

TEST(FloatBuiltins, F32ToBf16RoundsToNearestEven) {
  EXPECT_EQ(bitsOf(aclcpu_truncsfbf2(1.0f)), 0x3f80);
  EXPECT_EQ(bitsOf(aclcpu_truncsfbf2(1.0f + 0x1p-8f)), 0x3f80);  // a tie: to the even 1.0
  EXPECT_EQ(bitsOf(aclcpu_truncsfbf2(1.0f + 0x1p-8f + 0x1p-23f)), 0x3f81);
  EXPECT_EQ(bitsOf(aclcpu_truncsfbf2(1.0f + 3 * 0x1p-8f)), 0x3f82);  // a tie: to the even 0x3f82
  EXPECT_EQ(bitsOf(aclcpu_truncsfbf2(-0.0f)), 0x8000);
  EXPECT_EQ(bitsOf(aclcpu_truncsfbf2(std::numeric_limits<float>::infinity())), 0x7f80);
  EXPECT_EQ(bitsOf(aclcpu_truncsfbf2(std::numeric_limits<float>::max())), 0x7f80);  // rounds up to inf
  EXPECT_EQ(bitsOf(aclcpu_truncsfbf2(floatOf(0x00010000))), 0x0001);  // a denormal kept
  EXPECT_EQ(bitsOf(aclcpu_truncsfbf2(floatOf(0x00008000))), 0x0000);  // half the least: to even 0
  EXPECT_EQ(bitsOf(aclcpu_truncsfbf2(floatOf(0xff800001))), 0xffc0);  // a signaling NaN: quiet, sign kept
  EXPECT_EQ(bitsOf(aclcpu_truncsfbf2(floatOf(0x7fffffff))), 0x7fff);  // a NaN must not carry into inf
}

TEST(FloatBuiltins, F64ToBf16RoundsOnce) {
  EXPECT_EQ(bitsOf(aclcpu_truncdfbf2(1.0 + 0x1p-8)), 0x3f80);  // a tie: to even
  // Just past the tie: through f32 to nearest this becomes the tie itself, then 1.0.
  EXPECT_EQ(bitsOf(aclcpu_truncdfbf2(1.0 + 0x1p-8 + 0x1p-40)), 0x3f81);
  EXPECT_EQ(bitsOf(aclcpu_truncdfbf2(1.0 + 0x1p-8 - 0x1p-40)), 0x3f80);
  EXPECT_EQ(bitsOf(aclcpu_truncdfbf2(-(1.0 + 3 * 0x1p-8 + 0x1p-45))), 0xbf82);
  EXPECT_EQ(bitsOf(aclcpu_truncdfbf2(0x1.ffp127)), 0x7f80);          // halfway from the largest to 2^128: even
  EXPECT_EQ(bitsOf(aclcpu_truncdfbf2(0x1.ffp127 - 0x1p90)), 0x7f7f);  // just below it
  EXPECT_EQ(bitsOf(aclcpu_truncdfbf2(1e39)), 0x7f80);                 // past f32's range
  EXPECT_EQ(bitsOf(aclcpu_truncdfbf2(-1e300)), 0xff80);
  EXPECT_EQ(bitsOf(aclcpu_truncdfbf2(1.5 * 0x1p-133)), 0x0002);  // a denormal tie: to even
  EXPECT_EQ(bitsOf(aclcpu_truncdfbf2(0x1p-134 + 0x1p-160)), 0x0001);  // past half the least
  EXPECT_EQ(bitsOf(aclcpu_truncdfbf2(1e-300)), 0x0000);
  EXPECT_EQ(bitsOf(aclcpu_truncdfbf2(-0.0)), 0x8000);
  EXPECT_EQ(bitsOf(aclcpu_truncdfbf2(-std::numeric_limits<double>::quiet_NaN())) & 0xffc0, 0xffc0);
}

}  // namespace
