// 2D copies (aclrtMemcpy2d, aclrtMemcpy2dAsync), aclrtMallocAlign32, aclrtMallocCached and the
// cache flush and invalidate calls.
#include "runtime_fixture.h"

#include <cstdint>
#include <cstring>
#include <vector>

using namespace aclcpu_test;

using Memory2dTest = RuntimeTest;

namespace {

// The rows a 2D copy should give: `height` rows of `width` bytes from src to dst.
void referenceCopy(unsigned char *dst, size_t dpitch, const unsigned char *src, size_t spitch, size_t width,
                   size_t height) {
  for (size_t row = 0; row < height; ++row)
    for (size_t byte = 0; byte < width; ++byte) dst[row * dpitch + byte] = src[row * spitch + byte];
}

std::vector<unsigned char> pattern(size_t bytes, unsigned seed) {
  std::vector<unsigned char> data(bytes);
  for (size_t i = 0; i < bytes; ++i) data[i] = static_cast<unsigned char>((i * 131 + seed) & 0xFF);
  return data;
}

}  // namespace

// A 5 x 9 block of a 7 x 13 float matrix to a device buffer with 64-byte rows, then back into a
// third layout; bytes outside the block are left alone on every side.
TEST_F(Memory2dTest, CopiesABlockBetweenLayouts) {
  const size_t hostPitch = 13 * sizeof(float), width = 9 * sizeof(float), height = 5, devicePitch = 64;
  std::vector<unsigned char> host = pattern(7 * hostPitch, 1);
  const unsigned char *block = host.data() + 1 * hostPitch + 2 * sizeof(float);
  void *device = nullptr;
  const size_t deviceBytes = height * devicePitch;
  ASSERT_EQ(aclrtMalloc(&device, deviceBytes, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(device, deviceBytes, 0xEE, deviceBytes), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy2d(device, devicePitch, block, hostPitch, width, height, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  std::vector<unsigned char> seen(deviceBytes), expected(deviceBytes, 0xEE);
  referenceCopy(expected.data(), devicePitch, block, hostPitch, width, height);
  ASSERT_EQ(aclrtMemcpy(seen.data(), deviceBytes, device, deviceBytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(seen, expected);

  const size_t backPitch = width + 3;  // odd: rows start off any alignment
  std::vector<unsigned char> back(height * backPitch, 0x11), backExpected(height * backPitch, 0x11);
  ASSERT_EQ(aclrtMemcpy2d(back.data(), backPitch, device, devicePitch, width, height, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  referenceCopy(backExpected.data(), backPitch, block, hostPitch, width, height);
  EXPECT_EQ(back, backExpected);

  // The same through a stream, contiguous rows (pitch == width) included.
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  std::vector<unsigned char> dense(width * height, 0);
  ASSERT_EQ(aclrtMemcpy2dAsync(dense.data(), width, device, devicePitch, width, height, ACL_MEMCPY_DEVICE_TO_HOST,
                               stream),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  std::vector<unsigned char> denseExpected(width * height);
  referenceCopy(denseExpected.data(), width, block, hostPitch, width, height);
  EXPECT_EQ(dense, denseExpected);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

// Device to device within one buffer: rows that share bytes are refused, rows that only
// interleave are copied.
TEST_F(Memory2dTest, DeviceToDeviceChecksRowsNotExtents) {
  const size_t pitch = 64, height = 6, bytes = pitch * height;
  void *device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, bytes, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
  std::vector<unsigned char> initial = pattern(bytes, 7);
  ASSERT_EQ(aclrtMemcpy(device, bytes, initial.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  auto *base = static_cast<unsigned char *>(device);

  // Each row's left half to its right half: the extents overlap, the rows do not.
  ASSERT_EQ(aclrtMemcpy2dAsync(base + 32, pitch, base, pitch, 32, height, ACL_MEMCPY_DEVICE_TO_DEVICE, nullptr),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  std::vector<unsigned char> expected = initial, seen(bytes);
  referenceCopy(expected.data() + 32, pitch, initial.data(), pitch, 32, height);
  ASSERT_EQ(aclrtMemcpy(seen.data(), bytes, device, bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(seen, expected);

  // 33 bytes a row: each destination row shares a byte with its source row.
  EXPECT_EQ(aclrtMemcpy2dAsync(base + 32, pitch, base, pitch, 33, height - 1, ACL_MEMCPY_DEVICE_TO_DEVICE, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("overlapping rows"), std::string::npos) << recentError();
  // One row down and 8 bytes on: row i of the destination meets row i + 1 of the source.
  EXPECT_EQ(aclrtMemcpy2dAsync(base + pitch + 8, pitch, base, pitch, 16, height - 1, ACL_MEMCPY_DEVICE_TO_DEVICE,
                               nullptr),
            ACL_ERROR_INVALID_PARAM);
  // One row down, whole rows: row i of the destination is row i + 1 of the source.
  EXPECT_EQ(aclrtMemcpy2dAsync(base + pitch, pitch, base, pitch, 64, height - 1, ACL_MEMCPY_DEVICE_TO_DEVICE,
                               nullptr),
            ACL_ERROR_INVALID_PARAM);
  // Every other row, 48 bytes on: the rows interleave 32 bytes apart without meeting.
  EXPECT_EQ(aclrtMemcpy2dAsync(base + 48, 2 * pitch, base, 2 * pitch, 16, height / 2, ACL_MEMCPY_DEVICE_TO_DEVICE,
                               nullptr),
            ACL_SUCCESS);
  // Different pitches over overlapping extents are refused without looking closer.
  EXPECT_EQ(aclrtMemcpy2dAsync(base + 40, pitch, base, pitch / 2, 16, 4, ACL_MEMCPY_DEVICE_TO_DEVICE, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("different pitches"), std::string::npos) << recentError();
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

TEST_F(Memory2dTest, BadCopiesAreRefusedAndWriteNothing) {
  const size_t pitch = 32, height = 4, bytes = pitch * height;
  void *device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, bytes, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(device, bytes, 0, bytes), ACL_SUCCESS);
  std::vector<unsigned char> host(4 * bytes, 9);
  auto *base = static_cast<unsigned char *>(device);

  EXPECT_EQ(aclrtMemcpy2d(device, pitch, host.data(), pitch, pitch + 1, 1, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM)
      << "wider than the pitch";
  EXPECT_EQ(aclrtMemcpy2d(device, pitch, host.data(), pitch, 16, height + 1, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM)
      << "the last row runs past the allocation";
  EXPECT_NE(recentError().find("past the end"), std::string::npos) << recentError();
  EXPECT_EQ(aclrtMemcpy2d(base + 8, pitch, host.data(), pitch, 32, height, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM)
      << "the last row's end runs past the allocation";
  EXPECT_EQ(aclrtMemcpy2d(host.data(), pitch, host.data() + bytes, pitch, 16, 2, ACL_MEMCPY_HOST_TO_HOST),
            ACL_ERROR_INVALID_PARAM)
      << "CANN's 2D copies do not go host to host";
  EXPECT_EQ(aclrtMemcpy2d(device, pitch, base + 64, pitch, 16, 2, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM)
      << "only the asynchronous one goes device to device";
  EXPECT_EQ(aclrtMemcpy2d(host.data(), pitch, device, pitch, 16, 2, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM)
      << "the kind says dst is device memory";
  EXPECT_EQ(aclrtMemcpy2d(nullptr, pitch, host.data(), pitch, 16, 2, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy2d(device, SIZE_MAX / 2, host.data(), pitch, 16, 3, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM)
      << "rows past the address space";
  EXPECT_EQ(aclrtMemcpy2d(device, pitch, host.data(), pitch, 16, (size_t(5) << 20) + 1, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM)
      << "more rows than CANN takes";
  int bogus = 0;
  EXPECT_EQ(aclrtMemcpy2dAsync(device, pitch, host.data(), pitch, 16, 2, ACL_MEMCPY_HOST_TO_DEVICE, &bogus),
            ACL_ERROR_RT_INVALID_HANDLE);
  std::vector<unsigned char> seen(bytes, 1);
  ASSERT_EQ(aclrtMemcpy(seen.data(), bytes, device, bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(seen, std::vector<unsigned char>(bytes, 0)) << "no refused copy wrote anything";

  // An empty copy is no copy.
  EXPECT_EQ(aclrtMemcpy2d(device, pitch, host.data(), pitch, 0, height, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy2d(device, pitch, host.data(), pitch, 16, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

TEST_F(Memory2dTest, Align32CachedFlushAndInvalidate) {
  void *aligned = nullptr;
  ASSERT_EQ(aclrtMallocAlign32(&aligned, 33, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(aligned) % 64, 0u);
  EXPECT_EQ(aclrtMemset(aligned, 64, 7, 64), ACL_SUCCESS) << "33 bytes round up to 64, all usable";
  EXPECT_EQ(aclrtMemset(aligned, 65, 7, 65), ACL_ERROR_INVALID_PARAM) << "and no more";
  EXPECT_EQ(aclrtMallocAlign32(&aligned, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMallocAlign32(nullptr, 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMallocAlign32(&aligned, SIZE_MAX - 3, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);

  void *cached = nullptr;
  ASSERT_EQ(aclrtMallocCached(&cached, 4096, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
  EXPECT_EQ(aclrtMallocCached(&cached, 16, static_cast<aclrtMemMallocPolicy>(99)), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemset(cached, 4096, 3, 4096), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemFlush(cached, 4096), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemInvalidate(static_cast<char *>(cached) + 1024, 1024), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemFlush(cached, 4097), ACL_ERROR_INVALID_PARAM) << "past the allocation";
  EXPECT_EQ(aclrtMemInvalidate(cached, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemFlush(nullptr, 16), ACL_ERROR_INVALID_PARAM);
  char onTheStack[16];
  EXPECT_EQ(aclrtMemInvalidate(onTheStack, sizeof onTheStack), ACL_ERROR_INVALID_PARAM) << "not device memory";
  EXPECT_EQ(aclrtFree(cached), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemFlush(cached, 16), ACL_ERROR_INVALID_PARAM) << "freed";
  EXPECT_EQ(aclrtFree(aligned), ACL_SUCCESS);
}
