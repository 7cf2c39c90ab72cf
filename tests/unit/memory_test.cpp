// Device and host memory, copies of every kind, memsets, limits and checked mode.
#include "runtime_fixture.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace aclcpu_test;

using MemoryTest = RuntimeTest;

TEST_F(MemoryTest, MallocIsAlignedAndFreeable) {
  for (size_t size : {size_t(1), size_t(63), size_t(64), size_t(1000), size_t(1) << 20}) {
    void *p = nullptr;
    ASSERT_EQ(aclrtMalloc(&p, size, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
    memset(p, 1, size);
    EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
  }
  void *h = nullptr;
  ASSERT_EQ(aclrtMallocHost(&h, 100), ACL_SUCCESS);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(h) % 64, 0u);
  EXPECT_EQ(aclrtFreeHost(h), ACL_SUCCESS);
}

namespace {

// The VmFlags of the mapping that holds `p` (/proc/self/smaps), or "" if none does.
std::string mappingFlags(const void *p) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  auto address = reinterpret_cast<uintptr_t>(p);
  while (std::getline(smaps, line)) {
    unsigned long long start = 0, end = 0;
    if (sscanf(line.c_str(), "%llx-%llx ", &start, &end) == 2 && line.find(':') > line.find(' ')) {
      inside = address >= start && address < end;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0) return line.substr(8) + " ";
  }
  return "";
}

}  // namespace

// aclrtMalloc's huge-page policies map blocks of 4 MiB and more for transparent huge pages
// (advised: madvise's "hg" flag), each starting at another offset into its page so operands
// do not share cache sets; NORMAL_ONLY does not ask. Every block is whole, aligned and freeable.
TEST_F(MemoryTest, LargeBlocksOfTheHugePagePoliciesAreAdvisedForHugePages) {
  const size_t size = (size_t(8) << 20) + 100;
  std::vector<uintptr_t> offsets;
  for (aclrtMemMallocPolicy policy : {ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_HUGE_ONLY,
                                      ACL_MEM_MALLOC_HUGE_FIRST_P2P, ACL_MEM_MALLOC_NORMAL_ONLY,
                                      ACL_MEM_MALLOC_NORMAL_ONLY_P2P}) {
    void *p = nullptr;
    ASSERT_EQ(aclrtMalloc(&p, size, policy), ACL_SUCCESS);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
    memset(p, 7, size);
    std::vector<uint8_t> back(size);
    ASSERT_EQ(aclrtMemcpy(back.data(), size, p, size, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(back[0], 7);
    EXPECT_EQ(back[size - 1], 7);
    bool huge = policy != ACL_MEM_MALLOC_NORMAL_ONLY && policy != ACL_MEM_MALLOC_NORMAL_ONLY_P2P;
    std::string flags = mappingFlags(p);
    ASSERT_NE(flags, "") << "no mapping holds the block";
    EXPECT_EQ(flags.find(" hg ") != std::string::npos, huge) << "policy " << policy << ", flags" << flags;
    if (huge) offsets.push_back(reinterpret_cast<uintptr_t>(p) % 4096);
    EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
  }
  EXPECT_NE(offsets[0], offsets[1]);
  EXPECT_NE(offsets[1], offsets[2]);
  void *small = nullptr;  // under 4 MiB: no mapping of its own to advise
  ASSERT_EQ(aclrtMalloc(&small, size_t(1) << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(mappingFlags(small).find(" hg "), std::string::npos);
  EXPECT_EQ(aclrtFree(small), ACL_SUCCESS);
}

TEST_F(MemoryTest, MallocArgumentErrors) {
  void *p = nullptr;
  EXPECT_EQ(aclrtMalloc(nullptr, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMalloc(&p, 16, static_cast<aclrtMemMallocPolicy>(99)), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMalloc(&p, SIZE_MAX, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_BAD_ALLOC);
  EXPECT_EQ(aclrtMallocHost(nullptr, 16), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMallocHost(&p, 0), ACL_ERROR_INVALID_PARAM);
}

TEST_F(MemoryTest, DoubleFreeAndUnknownPointersAreErrors) {
  void *p = nullptr;
  ASSERT_EQ(aclrtMalloc(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(static_cast<char *>(p) + 64), ACL_ERROR_INVALID_PARAM) << "interior pointer";
  EXPECT_EQ(aclrtFreeHost(p), ACL_ERROR_INVALID_PARAM) << "device memory freed as host memory";
  EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(p), ACL_ERROR_INVALID_PARAM) << "double free";
  EXPECT_NE(recentError().find("already freed"), std::string::npos) << recentError();
  int local = 0;
  EXPECT_EQ(aclrtFree(&local), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFreeHost(&local), ACL_ERROR_INVALID_PARAM);
  void *h = nullptr;
  ASSERT_EQ(aclrtMallocHost(&h, 64), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(h), ACL_ERROR_INVALID_PARAM) << "host memory freed as device memory";
  EXPECT_EQ(aclrtFreeHost(h), ACL_SUCCESS);
}

TEST_F(MemoryTest, MallocNeedsACurrentContext) {
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  void *p = nullptr;
  EXPECT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

TEST(MemoryLimit, BeyondTheConfiguredLimitIsBadAlloc) {
  TempFile config(R"({"aclcpu": {"device_memory_mb": 4}})");
  ASSERT_EQ(aclInit(config.path()), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  size_t freeBytes = 0, total = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &freeBytes, &total), ACL_SUCCESS);
  EXPECT_EQ(total, size_t(4) << 20);
  EXPECT_EQ(freeBytes, total);
  void *a = nullptr, *b = nullptr;
  ASSERT_EQ(aclrtMalloc(&a, 3 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetMemInfo(ACL_DDR_MEM, &freeBytes, &total), ACL_SUCCESS);
  EXPECT_EQ(freeBytes, size_t(1) << 20);
  EXPECT_EQ(aclrtMalloc(&b, 2 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_BAD_ALLOC);
  EXPECT_NE(recentError().find("limit"), std::string::npos);
  ASSERT_EQ(aclrtFree(a), ACL_SUCCESS);
  EXPECT_EQ(aclrtMalloc(&b, 2 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS) << "freed memory is reusable";
  EXPECT_EQ(aclrtFree(b), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetMemInfo(static_cast<aclrtMemAttr>(42), &freeBytes, &total), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetMemInfo(ACL_DDR_MEM, nullptr, &total), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST_F(MemoryTest, CopiesOfEveryKind) {
  const size_t n = 1000;
  std::vector<int32_t> host(n), back(n, -1);
  for (size_t i = 0; i < n; ++i) host[i] = static_cast<int32_t>(i * 3 + 1);
  void *devA = nullptr, *devB = nullptr, *pinned = nullptr;
  const size_t bytes = n * sizeof(int32_t);
  ASSERT_EQ(aclrtMalloc(&devA, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&devB, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&pinned, bytes), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(pinned, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(devA, bytes, pinned, bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(devB, bytes, devA, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(back.data(), bytes, devB, bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(back, host);
  std::fill(back.begin(), back.end(), 0);
  ASSERT_EQ(aclrtMemcpy(back.data(), bytes, devB, bytes, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
  EXPECT_EQ(back, host);
  ASSERT_EQ(aclrtMemcpy(devA, bytes, devB, bytes, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(devA, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(devA, bytes, devB, 0, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS) << "count 0";

  // A part of an allocation, at an offset.
  ASSERT_EQ(aclrtMemcpy(static_cast<char *>(devA) + 40, bytes - 40, host.data(), 80, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(devA), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(devB), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

TEST_F(MemoryTest, CopyArgumentErrors) {
  const size_t bytes = 256;
  std::vector<char> host(bytes);
  void *dev = nullptr, *pinned = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&pinned, bytes), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(dev, 16, host.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("destMax"), std::string::npos);
  EXPECT_EQ(aclrtMemcpy(nullptr, bytes, host.data(), 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy(dev, bytes, nullptr, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy(dev, bytes, host.data(), 8, static_cast<aclrtMemcpyKind>(8)), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy(dev, bytes, host.data(), 8, static_cast<aclrtMemcpyKind>(-1)), ACL_ERROR_INVALID_PARAM);
  // The kind disagrees with where the pointers live.
  EXPECT_EQ(aclrtMemcpy(host.data(), bytes, dev, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy(dev, bytes, pinned, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy(pinned, bytes, dev, 8, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy(dev, bytes, host.data(), 8, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
  // Past the end of the device allocation, even with a generous destMax.
  EXPECT_EQ(aclrtMemcpy(static_cast<char *>(dev) + 200, 1 << 20, host.data(), 100, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("past the end"), std::string::npos);
  // Overlapping ranges.
  char *base = static_cast<char *>(dev);
  EXPECT_EQ(aclrtMemcpy(base + 8, 64, dev, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("overlap"), std::string::npos) << recentError();
  EXPECT_EQ(aclrtMemcpy(dev, 64, base + 63, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  // Adjacent ranges share no byte, and a copy onto itself changes nothing.
  EXPECT_EQ(aclrtMemcpy(base + 64, 64, dev, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS) << recentError();
  EXPECT_EQ(aclrtMemcpy(dev, 64, base + 64, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS) << recentError();
  EXPECT_EQ(aclrtMemcpy(dev, 64, dev, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS) << recentError();
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

TEST_F(MemoryTest, MemsetAndMemsetAsync) {
  const size_t bytes = 4096;
  void *dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(dev, bytes, 0xAB, bytes), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(static_cast<char *>(dev) + 100, bytes - 100, 0x11, 50, stream), ACL_SUCCESS);
  std::vector<unsigned char> back(bytes);
  ASSERT_EQ(aclrtMemcpyAsync(back.data(), bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  for (size_t i = 0; i < bytes; ++i) ASSERT_EQ(back[i], (i >= 100 && i < 150) ? 0x11 : 0xAB) << i;

  EXPECT_EQ(aclrtMemset(dev, 10, 0, 20), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemset(nullptr, 10, 0, 10), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemset(static_cast<char *>(dev) + 4000, 1 << 20, 0, 200), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemsetAsync(dev, 10, 0, 20, stream), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemset(dev, bytes, 0, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

// Host registration (aclrtHostRegister, V2, aclrtHostGetDevicePointer, aclrtHostUnregister):
// a mapped range's device address is its host address, anywhere inside it.
TEST_F(MemoryTest, HostRegistration) {
  char *pages = static_cast<char *>(aligned_alloc(4096, 4 * 4096));
  void *mapped = nullptr;
  ASSERT_EQ(aclrtHostRegister(pages, 2 * 4096, ACL_HOST_REGISTER_MAPPED, &mapped), ACL_SUCCESS) << recentError();
  EXPECT_EQ(mapped, pages);
  void *device = nullptr;
  EXPECT_EQ(aclrtHostGetDevicePointer(pages + 100, &device, 0), ACL_SUCCESS) << recentError();
  EXPECT_EQ(device, pages + 100);
  // Overlapping registrations are refused, from either side; an adjacent one is not.
  EXPECT_EQ(aclrtHostRegister(pages + 4096, 4096, ACL_HOST_REGISTER_MAPPED, &mapped), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("overlaps the registration"), std::string::npos) << recentError();
  ASSERT_EQ(aclrtHostRegisterV2(pages + 2 * 4096, 4096, ACL_HOST_REG_PINNED), ACL_SUCCESS) << recentError();
  // Pinned only: no device address.
  EXPECT_EQ(aclrtHostGetDevicePointer(pages + 2 * 4096, &device, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtHostGetDevicePointer(pages + 3 * 4096, &device, 0), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtHostRegisterV2(pages + 3 * 4096, 4096, ACL_HOST_REG_MAPPED | ACL_HOST_REG_PINNED), ACL_SUCCESS);
  EXPECT_EQ(aclrtHostGetDevicePointer(pages + 3 * 4096 + 4095, &device, 0), ACL_SUCCESS);
  // Unregistering takes a registration's start, once.
  EXPECT_EQ(aclrtHostUnregister(pages + 100), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtHostUnregister(pages), ACL_SUCCESS);
  EXPECT_EQ(aclrtHostUnregister(pages), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtHostGetDevicePointer(pages + 100, &device, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtHostRegisterV2(pages, 4096, ACL_HOST_REG_MAPPED), ACL_SUCCESS) << "registered again";
  for (int page : {0, 2, 3}) EXPECT_EQ(aclrtHostUnregister(pages + page * 4096), ACL_SUCCESS) << page;
  free(pages);

  // aclrtMallocHost memory registers too.
  void *pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, 3 * 4096), ACL_SUCCESS);
  char *aligned = reinterpret_cast<char *>((reinterpret_cast<uintptr_t>(pinned) + 4095) & ~uintptr_t(4095));
  EXPECT_EQ(aclrtHostRegister(aligned, 4096, ACL_HOST_REGISTER_MAPPED, &mapped), ACL_SUCCESS) << recentError();
  EXPECT_EQ(aclrtHostUnregister(aligned), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

TEST_F(MemoryTest, HostRegistrationArgumentErrors) {
  char *pages = static_cast<char *>(aligned_alloc(4096, 2 * 4096));
  void *mapped = nullptr, *device = nullptr;
  EXPECT_EQ(aclrtHostRegister(nullptr, 4096, ACL_HOST_REGISTER_MAPPED, &mapped), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtHostRegister(pages + 64, 4096, ACL_HOST_REGISTER_MAPPED, &mapped), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("4 KiB"), std::string::npos) << recentError();
  EXPECT_EQ(aclrtHostRegister(pages, 0, ACL_HOST_REGISTER_MAPPED, &mapped), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtHostRegister(pages, 4096, static_cast<aclrtHostRegisterType>(1), &mapped), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtHostRegister(pages, 4096, ACL_HOST_REGISTER_MAPPED, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtHostRegister(pages, UINT64_MAX, ACL_HOST_REGISTER_MAPPED, &mapped), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtHostRegisterV2(pages, 4096, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtHostRegisterV2(pages, 4096, 0x1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtHostGetDevicePointer(nullptr, &device, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtHostGetDevicePointer(pages, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtHostUnregister(nullptr), ACL_ERROR_INVALID_PARAM);
  // Nothing above registered anything.
  EXPECT_EQ(aclrtHostGetDevicePointer(pages, &device, 0), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtHostRegister(pages, 4096, ACL_HOST_REGISTER_MAPPED, &mapped), ACL_SUCCESS);
  EXPECT_EQ(aclrtHostGetDevicePointer(pages, &device, 1), ACL_ERROR_INVALID_PARAM) << "flag is reserved";
  // Device memory is not host memory: a page inside a device allocation, or a range reaching into one.
  void *dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 4 * 4096, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
  char *inside = reinterpret_cast<char *>((reinterpret_cast<uintptr_t>(dev) + 4095) & ~uintptr_t(4095));
  EXPECT_EQ(aclrtHostRegister(inside, 4096, ACL_HOST_REGISTER_MAPPED, &mapped), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("overlaps device memory"), std::string::npos) << recentError();
  char *before = reinterpret_cast<char *>(reinterpret_cast<uintptr_t>(dev) & ~uintptr_t(4095));
  if (before != inside) {
    EXPECT_EQ(aclrtHostRegister(before, 4096, ACL_HOST_REGISTER_MAPPED, &mapped), ACL_ERROR_INVALID_PARAM)
        << "ends in device memory";
  }
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
  // aclFinalize drops registrations.
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclrtHostRegister(pages, 4096, ACL_HOST_REGISTER_MAPPED, &mapped), ACL_ERROR_UNINITIALIZE);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtHostGetDevicePointer(pages, &device, 0), ACL_ERROR_INVALID_PARAM);
  free(pages);
}

TEST(CheckedMode, StrayHostPointerAsDeviceMemoryIsAnError) {
  std::vector<char> stray(256), host(256);
  {
    // Copies and memsets check their device side in every mode: a stray or freed address is
    // refused, never written.
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(stray.data(), 256, host.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(recentError().find("not device memory"), std::string::npos) << recentError();
    EXPECT_EQ(aclrtMemset(stray.data(), 256, 0, 256), ACL_ERROR_INVALID_PARAM);
    void *freed = nullptr;
    ASSERT_EQ(aclrtMalloc(&freed, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtFree(freed), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(freed, 256, host.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtMemcpy(host.data(), 256, freed, 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtMemsetAsync(freed, 256, 0, 256, nullptr), ACL_ERROR_INVALID_PARAM);
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  }
  ScopedEnv check("ACLCPU_CHECK", "1");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(stray.data(), 256, host.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemset(stray.data(), 256, 0, 256), ACL_ERROR_INVALID_PARAM);
  void *dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  // Fresh memory is poisoned so that reads of uninitialized data stand out.
  unsigned char first = 0;
  ASSERT_EQ(aclrtMemcpy(&first, 1, dev, 1, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(first, 0xFF);
  EXPECT_EQ(aclrtMemcpy(dev, 256, host.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}

// Lookups of a thread's recent allocations are cached (memory_table.cpp): a free must void them,
// here and on other threads, or a copy would write into freed (or reused, smaller) memory.
TEST_F(MemoryTest, CopiesIntoFreedDeviceMemoryAreRefusedAfterEarlierCopies) {
  std::vector<uint8_t> host(4096, 7);
  void *dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, host.size(), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(dev, host.size(), host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  std::thread([&] {
    EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(dev, host.size(), host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  }).join();
  ASSERT_EQ(aclrtFree(dev), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(dev, host.size(), host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("not device memory"), std::string::npos) << recentError();
  // Memory at the same address may be reused by a smaller allocation: the old size must not apply.
  void *small = nullptr;
  ASSERT_EQ(aclrtMalloc(&small, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(small, host.size(), host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFree(small), ACL_SUCCESS);
}
