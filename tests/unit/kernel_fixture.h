// Helpers for kernel-binary tests: an initialized runtime with a stream, fixture paths, and a
// small builder for argument blocks.
#pragma once

#include "runtime_fixture.h"

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace aclcpu_test {

inline std::string kernelPath(const std::string &file) { return std::string(ACLCPU_KERNEL_DIR) + "/" + file; }

inline std::vector<uint8_t> readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

class KernelTest : public RuntimeTest {
 protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    for (aclrtBinHandle binary : binaries_) aclrtBinaryUnLoad(binary);
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
    RuntimeTest::TearDown();
  }

  aclrtBinHandle load(const std::string &file, aclrtBinaryLoadOptions *options = nullptr) {
    aclrtBinHandle binary = nullptr;
    aclError error = aclrtBinaryLoadFromFile(kernelPath(file).c_str(), options, &binary);
    EXPECT_EQ(error, ACL_SUCCESS) << file << ": " << recentError();
    if (binary) binaries_.push_back(binary);
    return binary;
  }

  aclrtFuncHandle function(aclrtBinHandle binary, const char *name) {
    aclrtFuncHandle func = nullptr;
    EXPECT_EQ(aclrtBinaryGetFunction(binary, name, &func), ACL_SUCCESS) << name << ": " << recentError();
    return func;
  }

  template <typename T>
  aclrtParamHandle append(aclrtArgsHandle args, T value) {
    aclrtParamHandle param = nullptr;
    EXPECT_EQ(aclrtKernelArgsAppend(args, &value, sizeof(value), &param), ACL_SUCCESS) << recentError();
    return param;
  }

  template <typename T>
  T *deviceArray(size_t count) {
    void *memory = nullptr;
    EXPECT_EQ(aclrtMalloc(&memory, std::max<size_t>(count, 1) * sizeof(T), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    device_.push_back(memory);
    return static_cast<T *>(memory);
  }

  aclrtStream stream_ = nullptr;
  std::vector<aclrtBinHandle> binaries_;
  std::vector<void *> device_;  // freed by aclrtResetDevice/aclFinalize
};

}  // namespace aclcpu_test
