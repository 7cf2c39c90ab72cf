// A single-operator application in the style of Ascend's public samples: it loads the models
// atc compiled into op_models/, runs GEMM (fp16, aclblasGemmEx), Add (int32, aclopExecuteV2),
// SoftmaxV2 (fp32) and a dynamic-shape Add on device memory, and writes result_files/*.bin.
#include "acl/acl.h"
#include "acl/ops/acl_cblas.h"

#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#define INFO_LOG(fmt, ...) fprintf(stdout, "[INFO]  " fmt "\n", ##__VA_ARGS__)
#define ERROR_LOG(fmt, ...) fprintf(stderr, "[ERROR] " fmt "\n", ##__VA_ARGS__)
#define CHECK_ACL(call)                                                                       \
  do {                                                                                        \
    aclError ret_ = (call);                                                                   \
    if (ret_ != ACL_SUCCESS) {                                                                \
      ERROR_LOG("%s failed, errorCode is %d: %s", #call, static_cast<int>(ret_), aclGetRecentErrMsg()); \
      return false;                                                                           \
    }                                                                                         \
  } while (0)

namespace {

aclrtStream g_stream = nullptr;

std::vector<char> ReadFile(const std::string &path) {
  std::ifstream in(path.c_str(), std::ios::binary);
  return std::vector<char>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Device memory for one tensor, filled from the host.
struct DeviceBuffer {
  void *data;
  size_t size;
  aclDataBuffer *buffer;
  DeviceBuffer() : data(nullptr), size(0), buffer(nullptr) {}
  bool Init(const void *host, size_t bytes) {
    size = bytes;
    if (aclrtMalloc(&data, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return false;
    if (host != nullptr && aclrtMemcpy(data, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) return false;
    buffer = aclCreateDataBuffer(data, bytes);
    return buffer != nullptr;
  }
  ~DeviceBuffer() {
    if (buffer != nullptr) aclDestroyDataBuffer(buffer);
    if (data != nullptr) aclrtFree(data);
  }
};

bool LoadInput(const std::string &name, size_t bytes, DeviceBuffer &device) {
  std::vector<char> host = ReadFile("test_data/data/" + name + ".bin");
  if (host.size() < bytes) {
    ERROR_LOG("test_data/data/%s.bin holds %zu bytes, %zu needed", name.c_str(), host.size(), bytes);
    return false;
  }
  return device.Init(host.data(), bytes);
}

bool SaveOutput(const std::string &name, const DeviceBuffer &device) {
  std::vector<char> host(device.size);
  CHECK_ACL(aclrtMemcpy(host.data(), host.size(), device.data, device.size, ACL_MEMCPY_DEVICE_TO_HOST));
  std::ofstream out(("result_files/" + name + ".bin").c_str(), std::ios::binary);
  out.write(host.data(), static_cast<std::streamsize>(host.size()));
  INFO_LOG("wrote result_files/%s.bin", name.c_str());
  return static_cast<bool>(out);
}

bool RunGemm() {
  const int m = 16, n = 16, k = 16;
  DeviceBuffer a, b, c, alpha, beta;
  aclFloat16 alphaHost = aclFloatToFloat16(1.5f), betaHost = aclFloatToFloat16(0.5f);
  if (!LoadInput("gemm_a", m * k * 2, a) || !LoadInput("gemm_b", k * n * 2, b) || !LoadInput("gemm_c", m * n * 2, c) ||
      !alpha.Init(&alphaHost, 2) || !beta.Init(&betaHost, 2))
    return false;
  CHECK_ACL(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, alpha.data, a.data, -1, ACL_FLOAT16, b.data,
                          -1, ACL_FLOAT16, beta.data, c.data, -1, ACL_FLOAT16, ACL_COMPUTE_HIGH_PRECISION, g_stream));
  CHECK_ACL(aclrtSynchronizeStream(g_stream));
  return SaveOutput("gemm", c);
}

// One aclopExecuteV2 of `opType` with same-typed inputs and one output.
bool Execute(const char *opType, aclDataType type, const std::vector<int64_t> &inShape,
             const std::vector<std::string> &inputNames, const std::vector<int64_t> &outShape, aclopAttr *attr,
             const std::string &outputName, std::vector<int64_t> *writtenShape) {
  size_t count = 1;
  for (size_t i = 0; i < inShape.size(); ++i) count *= static_cast<size_t>(inShape[i]);
  size_t bytes = count * aclDataTypeSize(type);
  std::vector<DeviceBuffer> inputs(inputNames.size());
  std::vector<aclTensorDesc *> inputDesc;
  std::vector<aclDataBuffer *> inputBuffers;
  for (size_t i = 0; i < inputNames.size(); ++i) {
    if (!LoadInput(inputNames[i], bytes, inputs[i])) return false;
    inputDesc.push_back(aclCreateTensorDesc(type, static_cast<int>(inShape.size()), inShape.data(), ACL_FORMAT_ND));
    inputBuffers.push_back(inputs[i].buffer);
  }
  DeviceBuffer output;
  if (!output.Init(nullptr, bytes)) return false;
  aclTensorDesc *outputDesc[] = {
      aclCreateTensorDesc(type, static_cast<int>(outShape.size()), outShape.data(), ACL_FORMAT_ND)};
  aclDataBuffer *outputBuffers[] = {output.buffer};
  aclError ret = aclopExecuteV2(opType, static_cast<int>(inputDesc.size()), inputDesc.data(), inputBuffers.data(), 1,
                                outputDesc, outputBuffers, attr, g_stream);
  if (ret == ACL_SUCCESS) ret = aclrtSynchronizeStream(g_stream);
  if (ret == ACL_SUCCESS && writtenShape != nullptr) {
    writtenShape->resize(aclGetTensorDescNumDims(outputDesc[0]));
    for (size_t d = 0; d < writtenShape->size(); ++d) aclGetTensorDescDimV2(outputDesc[0], d, &(*writtenShape)[d]);
  }
  for (size_t i = 0; i < inputDesc.size(); ++i) aclDestroyTensorDesc(inputDesc[i]);
  aclDestroyTensorDesc(outputDesc[0]);
  if (ret != ACL_SUCCESS) {
    ERROR_LOG("execute %s failed, errorCode is %d: %s", opType, static_cast<int>(ret), aclGetRecentErrMsg());
    return false;
  }
  return SaveOutput(outputName, output);
}

bool RunOps() {
  std::vector<std::string> addInputs;
  addInputs.push_back("add_x1");
  addInputs.push_back("add_x2");
  std::vector<int64_t> addShape;
  addShape.push_back(8);
  addShape.push_back(16);
  if (!Execute("Add", ACL_INT32, addShape, addInputs, addShape, nullptr, "add_int32", nullptr)) return false;

  std::vector<int64_t> softmaxShape;
  softmaxShape.push_back(4);
  softmaxShape.push_back(10);
  aclopAttr *attr = aclopCreateAttr();
  int64_t axes[] = {-1};
  CHECK_ACL(aclopSetAttrListInt(attr, "axes", 1, axes));
  bool ok = Execute("SoftmaxV2", ACL_FLOAT, softmaxShape, std::vector<std::string>(1, "softmax_x"), softmaxShape, attr,
                    "softmax", nullptr);
  aclopDestroyAttr(attr);
  if (!ok) return false;

  // The dynamic model: the output's unknown row count is written back to its description.
  const int64_t rowCounts[] = {5, 33, 64};
  std::vector<std::string> dynamicInputs;
  dynamicInputs.push_back("dyn_x1");
  dynamicInputs.push_back("dyn_x2");
  for (size_t i = 0; i < 3; ++i) {
    std::vector<int64_t> shape, unknown, written;
    shape.push_back(rowCounts[i]);
    shape.push_back(16);
    unknown.push_back(-1);
    unknown.push_back(16);
    std::string name = "dynamic_add_" + std::to_string(rowCounts[i]);
    if (!Execute("Add", ACL_FLOAT, shape, dynamicInputs, unknown, nullptr, name, &written)) return false;
    if (written != shape) {
      ERROR_LOG("the dynamic Add's output shape was not written back");
      return false;
    }
  }
  return true;
}

}  // namespace

int main() {
  const char *config = "test_data/config/acl.json";
  if (aclInit(config) != ACL_SUCCESS) {
    ERROR_LOG("aclInit failed: %s", aclGetRecentErrMsg());
    return 1;
  }
  aclrtContext context = nullptr;
  bool ok = aclrtSetDevice(0) == ACL_SUCCESS && aclrtCreateContext(&context, 0) == ACL_SUCCESS &&
            aclrtCreateStream(&g_stream) == ACL_SUCCESS;
  if (ok && aclopSetModelDir("op_models") != ACL_SUCCESS) {
    ERROR_LOG("aclopSetModelDir failed: %s", aclGetRecentErrMsg());
    ok = false;
  }
  mkdir("result_files", 0755);
  ok = ok && RunGemm() && RunOps();
  if (g_stream != nullptr) aclrtDestroyStream(g_stream);
  if (context != nullptr) aclrtDestroyContext(context);
  aclrtResetDevice(0);
  aclFinalize();
  INFO_LOG("%s", ok ? "run success" : "run failed");
  return ok ? 0 : 1;
}
