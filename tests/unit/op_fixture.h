// Shared by the operator tests: tensor descriptions, device tensors filled from host vectors,
// and a fixture with a stream and an aclopExecuteV2 shorthand.
#pragma once

#include "runtime_fixture.h"

#include "acl/acl_op.h"

#include <algorithm>
#include <memory>
#include <vector>

namespace aclcpu_test {

struct DescDeleter {
  void operator()(aclTensorDesc *d) const { aclDestroyTensorDesc(d); }
};
using Desc = std::unique_ptr<aclTensorDesc, DescDeleter>;
Desc desc(aclDataType type, std::vector<int64_t> dims, aclFormat format = ACL_FORMAT_ND) {
  return Desc(aclCreateTensorDesc(type, static_cast<int>(dims.size()), dims.data(), format));
}

// Device memory holding a host vector, with a data buffer over it.
template <typename T>
struct DeviceTensor {
  void *device = nullptr;
  size_t bytes = 0;
  aclDataBuffer *buffer = nullptr;
  explicit DeviceTensor(const std::vector<T> &values) : bytes(values.size() * sizeof(T)) {
    EXPECT_EQ(aclrtMalloc(&device, std::max<size_t>(bytes, 1), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    if (bytes) aclrtMemcpy(device, bytes, values.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    buffer = aclCreateDataBuffer(device, bytes);
  }
  ~DeviceTensor() {
    aclDestroyDataBuffer(buffer);
    aclrtFree(device);
  }
  std::vector<T> read() const {
    std::vector<T> values(bytes / sizeof(T));
    if (bytes) aclrtMemcpy(values.data(), bytes, device, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    return values;
  }
};

class OpApiTest : public RuntimeTest {
 protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    aclopSetCompileFlag(ACL_OP_COMPILE_DEFAULT);
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
    RuntimeTest::TearDown();
  }
  // aclopExecuteV2 on this fixture's stream, with no attributes.
  aclError executeV2(const char *opType, std::vector<aclTensorDesc *> inDescs, std::vector<aclDataBuffer *> inputs,
                     std::vector<aclTensorDesc *> outDescs, std::vector<aclDataBuffer *> outputs) {
    return aclopExecuteV2(opType, static_cast<int>(inDescs.size()), inDescs.data(), inputs.data(),
                          static_cast<int>(outDescs.size()), outDescs.data(), outputs.data(), nullptr, stream_);
  }
  aclrtStream stream_ = nullptr;
};

}  // namespace aclcpu_test
