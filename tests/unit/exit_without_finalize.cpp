// A program that uses kernels and compiled operators and exits without aclFinalize (or even
// unloading) must still exit cleanly.
#include "acl/acl.h"

#include <cstdio>
#include <string>

int main() {
  if (aclInit(nullptr) || aclrtSetDevice(0)) return 1;
  aclrtBinHandle binary = nullptr;
  std::string path = std::string(ACLCPU_KERNEL_DIR) + "/vector_add.o";
  if (aclrtBinaryLoadFromFile(path.c_str(), nullptr, &binary)) return 2;
  int64_t dims[] = {16};
  aclTensorDesc *desc = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
  const aclTensorDesc *in[] = {desc, desc};
  const aclTensorDesc *out[] = {desc};
  if (aclopCompile("Add", 2, in, 1, out, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr)) return 3;
  void *data = nullptr;
  if (aclrtMalloc(&data, 64, ACL_MEM_MALLOC_HUGE_FIRST)) return 4;
  aclDataBuffer *buffer = aclCreateDataBuffer(data, 64);
  aclTensorDesc *inDescs[] = {desc, desc};
  aclTensorDesc *outDescs[] = {desc};
  aclDataBuffer *inputs[] = {buffer, buffer};
  aclDataBuffer *outputs[] = {buffer};
  if (aclopExecuteV2("Add", 2, inDescs, inputs, 1, outDescs, outputs, nullptr, nullptr)) return 5;
  if (aclrtSynchronizeStream(nullptr)) return 6;
  printf("exiting without aclFinalize\n");
  return 0;  // no unload, no free, no reset, no finalize
}
