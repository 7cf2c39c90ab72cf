// The cache sizes the ukernels block and choose paths by (kernels/ukernels/ukernels.h): read
// from the system, or 0 where it does not say; an L3 is whole KiB and no smaller than the L2.
#include "../../kernels/ukernels/ukernels.h"

#include <gtest/gtest.h>

TEST(UkernelCaches, L3IsWholeKibibytesAndNoSmallerThanL2) {
  const int64_t l2 = aclcpu::ukernelL2Bytes(), l3 = aclcpu::ukernelL3Bytes();
  EXPECT_GE(l2, 0);
  EXPECT_GE(l3, 0);
  if (l3 == 0) GTEST_SKIP() << "the system gives no L3 size";
  EXPECT_EQ(l3 % 1024, 0) << l3;
  EXPECT_GE(l3, l2) << "a size in KiB read as bytes?";
  EXPECT_EQ(aclcpu::ukernelL3Bytes(), l3) << "read once";
}
