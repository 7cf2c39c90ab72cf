// The conformance fixture: a Case is one operator call (inputs, attributes, the output's type
// and shape, a plain-loop reference per output element); check() compiles it once and runs it
// twice, with aclopExecuteV2 on one stream and through a handle on another, and compares both
// results with the reference, with tolerances from the data type.
#pragma once

#include "../common/host_tensor.h"
#include "../unit/runtime_fixture.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace aclcpu_test {

using Reference = std::function<double(const std::vector<HostTensor> &, const std::vector<int64_t> &outIndex)>;

struct Case {
  std::string opType;
  std::vector<HostTensor> inputs;
  std::function<void(aclopAttr *)> setAttributes;
  HostTensor expectedShape;  // type and shape of the output
  Reference reference;
  std::vector<aclFormat> inputFormats = {};  // per input; ND when empty
  aclFormat outputFormat = ACL_FORMAT_ND;
  std::vector<size_t> constInputs = {};  // inputs whose descriptions carry their values (aclSetTensorConst)
  std::vector<std::pair<HostTensor, Reference>> moreOutputs = {};  // outputs after the first
};

inline std::string describe(const Case &c) {
  std::ostringstream out;
  out << c.opType << "(";
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    out << (i ? ", " : "") << "type " << c.inputs[i].type << " [";
    for (size_t d = 0; d < c.inputs[i].shape.size(); ++d) out << (d ? "x" : "") << c.inputs[i].shape[d];
    out << "]";
  }
  return out.str() + ")";
}

class Conformance : public TwoStreamTest {
 protected:

  void check(const Case &c) {
    SCOPED_TRACE(describe(c));
    std::vector<aclTensorDesc *> inDescs;
    std::vector<void *> device;
    std::vector<aclDataBuffer *> inBuffers;
    for (size_t i = 0; i < c.inputs.size(); ++i) {
      const HostTensor &input = c.inputs[i];
      if (input.type == ACL_DT_UNDEFINED) {  // an absent optional input: as programs pass it
        inDescs.push_back(aclCreateTensorDesc(ACL_DT_UNDEFINED, 0, nullptr, ACL_FORMAT_UNDEFINED));
        device.push_back(nullptr);
        inBuffers.push_back(aclCreateDataBuffer(nullptr, 0));
        continue;
      }
      aclFormat format = i < c.inputFormats.size() ? c.inputFormats[i] : ACL_FORMAT_ND;
      inDescs.push_back(aclCreateTensorDesc(input.type, int(input.shape.size()), input.shape.data(), format));
      if (std::find(c.constInputs.begin(), c.constInputs.end(), i) != c.constInputs.end()) {
        ASSERT_EQ(aclSetTensorConst(inDescs.back(), const_cast<uint8_t *>(input.bytes.data()), input.byteSize()),
                  ACL_SUCCESS);
      }
      void *memory = nullptr;
      ASSERT_EQ(aclrtMalloc(&memory, std::max<size_t>(input.byteSize(), 1), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
      if (input.byteSize()) aclrtMemcpy(memory, input.byteSize(), input.bytes.data(), input.byteSize(), ACL_MEMCPY_HOST_TO_DEVICE);
      device.push_back(memory);
      inBuffers.push_back(aclCreateDataBuffer(memory, input.byteSize()));
    }
    std::vector<std::pair<HostTensor, Reference>> expected{{c.expectedShape, c.reference}};
    expected.insert(expected.end(), c.moreOutputs.begin(), c.moreOutputs.end());
    const int numOutputs = int(expected.size());
    std::vector<aclTensorDesc *> outDescs;
    std::vector<void *> outMemory[2];  // ExecuteV2's outputs, the handle's
    std::vector<aclDataBuffer *> outBuffers[2];
    for (const auto &[shape, reference] : expected) {
      outDescs.push_back(aclCreateTensorDesc(shape.type, int(shape.shape.size()), shape.shape.data(), c.outputFormat));
      for (int run = 0; run < 2; ++run) {
        void *memory = nullptr;
        ASSERT_EQ(aclrtMalloc(&memory, std::max<size_t>(shape.byteSize(), 1), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        outMemory[run].push_back(memory);
        outBuffers[run].push_back(aclCreateDataBuffer(memory, shape.byteSize()));
      }
    }
    aclopAttr *attr = aclopCreateAttr();
    if (c.setAttributes) c.setAttributes(attr);
    std::vector<const aclTensorDesc *> constIn(inDescs.begin(), inDescs.end());
    std::vector<const aclTensorDesc *> constOut(outDescs.begin(), outDescs.end());
    ASSERT_EQ(aclopCompile(c.opType.c_str(), int(inDescs.size()), constIn.data(), numOutputs, constOut.data(), attr,
                           ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
              ACL_SUCCESS) << recentError();
    ASSERT_EQ(aclopExecuteV2(c.opType.c_str(), int(inDescs.size()), inDescs.data(), inBuffers.data(), numOutputs,
                             outDescs.data(), outBuffers[0].data(), attr, first_),
              ACL_SUCCESS) << recentError();
    aclopHandle *handle = nullptr;
    ASSERT_EQ(aclopCreateHandle(c.opType.c_str(), int(inDescs.size()), constIn.data(), numOutputs, constOut.data(),
                                attr, &handle),
              ACL_SUCCESS) << recentError();
    std::vector<const aclDataBuffer *> constBuffers(inBuffers.begin(), inBuffers.end());
    ASSERT_EQ(aclopExecWithHandle(handle, int(inDescs.size()), constBuffers.data(), numOutputs, outBuffers[1].data(),
                                  second_),
              ACL_SUCCESS)
        << recentError();
    ASSERT_EQ(aclrtSynchronizeStream(first_), ACL_SUCCESS) << recentError();
    ASSERT_EQ(aclrtSynchronizeStream(second_), ACL_SUCCESS) << recentError();
    for (int run = 0; run < 2; ++run)
      for (int o = 0; o < numOutputs; ++o) {
        const auto &[shape, reference] = expected[o];
        HostTensor actual(shape.type, shape.shape);
        if (shape.byteSize())
          aclrtMemcpy(actual.bytes.data(), shape.byteSize(), outMemory[run][o], shape.byteSize(), ACL_MEMCPY_DEVICE_TO_HOST);
        double tolerance = relativeTolerance(shape.type);
        for (int64_t i = 0; i < actual.count(); ++i) {
          double want = roundTo(shape.type, reference(c.inputs, unravel(i, shape.shape))), got = actual.at(i);
          if (std::isnan(want)) {
            ASSERT_TRUE(std::isnan(got)) << "output " << o << " element " << i;
          } else if (std::isinf(want)) {
            ASSERT_EQ(got, want) << "output " << o << " element " << i;
          } else {
            ASSERT_NEAR(got, want, tolerance * std::max(1.0, std::fabs(want)))
                << "output " << o << " element " << i << (run == 0 ? " (ExecuteV2)" : " (handle)");
          }
        }
      }
    ++checked_;
    aclopDestroyHandle(handle);
    aclopDestroyAttr(attr);
    for (int o = 0; o < numOutputs; ++o) {
      aclDestroyTensorDesc(outDescs[o]);
      for (int run = 0; run < 2; ++run) {
        aclDestroyDataBuffer(outBuffers[run][o]);
        aclrtFree(outMemory[run][o]);
      }
    }
    for (size_t i = 0; i < inDescs.size(); ++i) {
      aclDestroyTensorDesc(inDescs[i]);
      aclDestroyDataBuffer(inBuffers[i]);
      if (device[i]) aclrtFree(device[i]);
    }
  }

  int checked_ = 0;
};

}  // namespace aclcpu_test
