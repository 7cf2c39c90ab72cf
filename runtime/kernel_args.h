// The argument block of one kernel (aclrtKernelArgs*): parameters appended left to right at
// their natural alignment (at most 8; see include/aclcpu/kernel.h), placeholders as 8-byte
// pointer slots whose data the runtime copies and links in at launch. The state lives either
// in runtime-owned memory (aclrtKernelArgsInit) or, trivially constructible, in memory the
// application provides (aclrtKernelArgsInitByUserMem).
#pragma once

#include "acl/acl_rt.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>

namespace aclcpu {

struct KernelFunction;

constexpr size_t kMaxKernelParams = 128;

struct KernelParam {
  uint32_t offset = 0;
  uint32_t size = 0;
  bool isPlaceholder = false;
  uint8_t *placeholderData = nullptr;  // set by aclrtKernelArgsGetPlaceHolderBuffer
  size_t placeholderSize = 0;
};

struct KernelArgs {
  uint64_t magic = 0;
  KernelFunction *function = nullptr;
  uint8_t *data = nullptr;  // the argument bytes (and, in user memory, placeholder data after them)
  size_t capacity = 0;
  size_t size = 0;
  size_t placeholderCursor = 0;  // user memory: next free byte for placeholder data
  bool userMemory = false;
  bool finalized = false;
  bool argumentsClosed = false;  // after the first placeholder buffer, no more appends
  uint32_t paramCount = 0;
  KernelParam params[kMaxKernelParams];
};

// Argument bytes copied for one launch, placeholder data included and linked in. Blocks of up
// to kRecycledArgBytes come from a BlockRecycler (no heap traffic per launch once warm).
struct ArgBytesFree {
  bool recycled = false;
  void operator()(uint8_t *p) const;
};
struct ArgBlock {
  using Free = ArgBytesFree;
  std::unique_ptr<uint8_t, Free> bytes;
  size_t size = 0;
};
constexpr size_t kRecycledArgBytes = 1024;

// Bytes the application must provide for the handle and for `userArgsSize` bytes of arguments.
size_t kernelArgsHandleBytes();
size_t kernelArgsDataBytes(size_t userArgsSize);

std::unique_ptr<KernelArgs> createRuntimeArgs(KernelFunction *function);
void releaseRuntimeArgs(KernelArgs *args);
// Drops an application-memory handle from the table of live handles (its function is unloaded).
void forgetArgs(const void *handle);
aclError initUserArgs(KernelFunction *function, void *handleMemory, void *userMemory, size_t bytes,
                      const char *caller);
// Validates an application-supplied handle; nullptr with an error reported if it is not one.
KernelArgs *resolveArgs(aclrtArgsHandle handle, const char *caller, aclError &error);

aclError appendParam(KernelArgs &args, const void *param, size_t size, aclrtParamHandle *out, const char *caller);
aclError appendPlaceholder(KernelArgs &args, aclrtParamHandle *out, const char *caller);
aclError placeholderBuffer(KernelArgs &args, aclrtParamHandle param, size_t size, void **out, const char *caller);
aclError updateParam(KernelArgs &args, aclrtParamHandle param, const void *value, size_t size, const char *caller);
aclError finalizeArgs(KernelArgs &args, const char *caller);

// Copies finalized arguments for a launch.
aclError snapshotArgs(const KernelArgs &args, ArgBlock &out, const char *caller);
aclError copyRawArgs(const void *data, size_t size, ArgBlock &out, const char *caller);

}  // namespace aclcpu
