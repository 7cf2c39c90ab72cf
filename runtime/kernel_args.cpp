// Building, updating and snapshotting kernel argument blocks.
#include "kernel_args.h"

#include "block_recycler.h"

#include "diagnostics.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <unordered_set>

namespace aclcpu {
namespace {

constexpr uint64_t kArgsMagic = 0x61636c6370754172ull;  // "aclcpuAr"
constexpr size_t kPlaceholderAlignment = 64;
constexpr size_t kMaxArgBytes = 1u << 20;

// Every live argument handle, so a stray pointer is rejected before its memory is read.
std::mutex registryMutex;
std::unordered_set<const void *> liveArgs;

void registerArgs(const KernelArgs *args) {
  std::lock_guard<std::mutex> lock(registryMutex);
  liveArgs.insert(args);
}

size_t alignUp(size_t value, size_t alignment) { return (value + alignment - 1) / alignment * alignment; }

size_t paramAlignment(size_t size) {
  size_t alignment = 1;
  while (alignment < 8 && size % (alignment * 2) == 0) alignment *= 2;
  return alignment;
}

// Makes room for `bytes` more argument bytes at `offset`; runtime-owned blocks grow.
bool reserve(KernelArgs &args, size_t end) {
  if (end <= args.capacity) return true;
  if (args.userMemory || end > kMaxArgBytes) return false;
  size_t capacity = std::max<size_t>(256, args.capacity * 2);
  while (capacity < end) capacity *= 2;
  auto *grown = static_cast<uint8_t *>(realloc(args.data, capacity));
  if (grown == nullptr) return false;
  memset(grown + args.capacity, 0, capacity - args.capacity);
  args.data = grown;
  args.capacity = capacity;
  return true;
}

KernelParam *resolveParam(KernelArgs &args, aclrtParamHandle handle) {
  auto *param = static_cast<KernelParam *>(handle);
  if (param < args.params || param >= args.params + args.paramCount) return nullptr;
  return param;
}

aclError addParam(KernelArgs &args, size_t size, bool isPlaceholder, aclrtParamHandle *out, const char *caller) {
  if (args.paramCount == kMaxKernelParams)
    return reportError(ACL_ERROR_INVALID_PARAM, caller, "a kernel takes at most %zu parameters", kMaxKernelParams);
  if (args.argumentsClosed)
    return reportError(ACL_ERROR_INVALID_PARAM, caller,
                       "parameters must all be appended before the first aclrtKernelArgsGetPlaceHolderBuffer");
  size_t offset = alignUp(args.size, paramAlignment(size));
  if (!reserve(args, offset + size))
    return reportError(ACL_ERROR_INVALID_PARAM, caller,
                       "the arguments (%zu bytes) do not fit the argument memory (%zu bytes)", offset + size,
                       args.userMemory ? args.capacity : kMaxArgBytes);
  KernelParam &param = args.params[args.paramCount++];
  param = KernelParam{};
  param.offset = static_cast<uint32_t>(offset);
  param.size = static_cast<uint32_t>(size);
  param.isPlaceholder = isPlaceholder;
  args.size = offset + size;
  args.finalized = false;
  *out = &param;
  return ACL_SUCCESS;
}

}  // namespace

size_t kernelArgsHandleBytes() { return sizeof(KernelArgs); }

size_t kernelArgsDataBytes(size_t userArgsSize) {
  // Room for alignment padding of every parameter and placeholder buffer.
  return userArgsSize + kMaxKernelParams * kPlaceholderAlignment;
}

std::unique_ptr<KernelArgs> createRuntimeArgs(KernelFunction *function) {
  auto args = std::make_unique<KernelArgs>();
  args->magic = kArgsMagic;
  args->function = function;
  registerArgs(args.get());
  return args;
}

void forgetArgs(const void *handle) {
  std::lock_guard<std::mutex> lock(registryMutex);
  liveArgs.erase(handle);
}

void releaseRuntimeArgs(KernelArgs *args) {
  forgetArgs(args);
  for (uint32_t i = 0; i < args->paramCount; ++i) free(args->params[i].placeholderData);
  free(args->data);
  args->magic = 0;
}

aclError initUserArgs(KernelFunction *function, void *handleMemory, void *userMemory, size_t bytes,
                      const char *caller) {
  if (handleMemory == nullptr || userMemory == nullptr)
    return reportError(ACL_ERROR_INVALID_PARAM, caller, "%s is NULL", handleMemory ? "userHostMem" : "argsHandle");
  if (reinterpret_cast<uintptr_t>(handleMemory) % alignof(KernelArgs) != 0)
    return reportError(ACL_ERROR_INVALID_PARAM, caller, "argsHandle memory %p is not %zu-byte aligned", handleMemory,
                       alignof(KernelArgs));
  if (bytes == 0) return reportError(ACL_ERROR_INVALID_PARAM, caller, "actualArgsSize is 0");
  auto *args = new (handleMemory) KernelArgs();
  args->magic = kArgsMagic;
  args->function = function;
  args->data = static_cast<uint8_t *>(userMemory);
  args->capacity = bytes;
  args->userMemory = true;
  memset(args->data, 0, bytes);
  registerArgs(args);
  return ACL_SUCCESS;
}

KernelArgs *resolveArgs(aclrtArgsHandle handle, const char *caller, aclError &error) {
  error = ACL_SUCCESS;
  if (handle == nullptr) {
    error = reportError(ACL_ERROR_INVALID_PARAM, caller, "argsHandle is NULL");
    return nullptr;
  }
  auto *args = static_cast<KernelArgs *>(handle);
  bool live;
  {
    std::lock_guard<std::mutex> lock(registryMutex);
    live = liveArgs.count(handle) != 0;
  }
  if (!live || args->magic != kArgsMagic) {
    error = reportError(ACL_ERROR_RT_INVALID_HANDLE, caller,
                        "%p is not an argument handle from aclrtKernelArgsInit or aclrtKernelArgsInitByUserMem", handle);
    return nullptr;
  }
  return args;
}

aclError appendParam(KernelArgs &args, const void *param, size_t size, aclrtParamHandle *out, const char *caller) {
  if (param == nullptr || out == nullptr)
    return reportError(ACL_ERROR_INVALID_PARAM, caller, "%s is NULL", param ? "paramHandle" : "param");
  if (size == 0) return reportError(ACL_ERROR_INVALID_PARAM, caller, "paramSize is 0");
  if (aclError error = addParam(args, size, false, out, caller)) return error;
  const auto *entry = static_cast<KernelParam *>(*out);
  memcpy(args.data + entry->offset, param, size);
  return ACL_SUCCESS;
}

aclError appendPlaceholder(KernelArgs &args, aclrtParamHandle *out, const char *caller) {
  if (out == nullptr) return reportError(ACL_ERROR_INVALID_PARAM, caller, "paramHandle is NULL");
  return addParam(args, sizeof(void *), true, out, caller);
}

aclError placeholderBuffer(KernelArgs &args, aclrtParamHandle handle, size_t size, void **out, const char *caller) {
  if (out == nullptr) return reportError(ACL_ERROR_INVALID_PARAM, caller, "bufferAddr is NULL");
  if (size == 0) return reportError(ACL_ERROR_INVALID_PARAM, caller, "dataSize is 0");
  KernelParam *param = resolveParam(args, handle);
  if (param == nullptr || !param->isPlaceholder)
    return reportError(ACL_ERROR_INVALID_PARAM, caller, "paramHandle %p is not a placeholder of this argument handle",
                       handle);
  if (param->placeholderData != nullptr) {
    if (size > param->placeholderSize)
      return reportError(ACL_ERROR_INVALID_PARAM, caller,
                         "the placeholder already has a %zu-byte buffer; %zu bytes were asked for",
                         param->placeholderSize, size);
    *out = param->placeholderData;
    return ACL_SUCCESS;
  }
  args.argumentsClosed = true;
  if (args.userMemory) {
    if (args.placeholderCursor == 0) args.placeholderCursor = alignUp(args.size, kPlaceholderAlignment);
    size_t start = alignUp(args.placeholderCursor, kPlaceholderAlignment);
    if (start > args.capacity || size > args.capacity - start)
      return reportError(ACL_ERROR_INVALID_PARAM, caller,
                         "the placeholder data (%zu bytes) does not fit the argument memory (%zu bytes)", size,
                         args.capacity);
    param->placeholderData = args.data + start;
    args.placeholderCursor = start + size;
  } else {
    param->placeholderData = static_cast<uint8_t *>(aligned_alloc(kPlaceholderAlignment, alignUp(size, kPlaceholderAlignment)));
    if (param->placeholderData == nullptr) return reportError(ACL_ERROR_BAD_ALLOC, caller, "out of memory");
    memset(param->placeholderData, 0, size);
  }
  param->placeholderSize = size;
  args.finalized = false;
  *out = param->placeholderData;
  return ACL_SUCCESS;
}

aclError updateParam(KernelArgs &args, aclrtParamHandle handle, const void *value, size_t size, const char *caller) {
  if (value == nullptr) return reportError(ACL_ERROR_INVALID_PARAM, caller, "param is NULL");
  KernelParam *param = resolveParam(args, handle);
  if (param == nullptr)
    return reportError(ACL_ERROR_INVALID_PARAM, caller, "paramHandle %p is not a parameter of this argument handle",
                       handle);
  if (param->isPlaceholder)
    return reportError(ACL_ERROR_INVALID_PARAM, caller,
                       "a placeholder is updated through its buffer (aclrtKernelArgsGetPlaceHolderBuffer)");
  if (size != param->size)
    return reportError(ACL_ERROR_INVALID_PARAM, caller, "paramSize %zu differs from the appended size %u", size,
                       param->size);
  memcpy(args.data + param->offset, value, size);
  args.finalized = false;  // a launch needs aclrtKernelArgsFinalize again
  return ACL_SUCCESS;
}

aclError finalizeArgs(KernelArgs &args, const char *caller) {
  for (uint32_t i = 0; i < args.paramCount; ++i)
    if (args.params[i].isPlaceholder && args.params[i].placeholderData == nullptr)
      return reportError(ACL_ERROR_INVALID_PARAM, caller,
                         "parameter %u is a placeholder without a buffer (aclrtKernelArgsGetPlaceHolderBuffer)", i);
  args.finalized = true;
  return ACL_SUCCESS;
}

namespace {

BlockRecycler &argBlocks() {
  static BlockRecycler *recycler = new BlockRecycler(kRecycledArgBytes, kPlaceholderAlignment, 4096);
  return *recycler;
}

// `total` bytes (at least one alignment unit), recycled when small.
bool allocateArgBytes(size_t total, ArgBlock &out) {
  total = std::max(alignUp(total, kPlaceholderAlignment), kPlaceholderAlignment);
  bool recycled = total <= kRecycledArgBytes;
  void *bytes = recycled ? argBlocks().take() : aligned_alloc(kPlaceholderAlignment, total);
  out.bytes = std::unique_ptr<uint8_t, ArgBlock::Free>(static_cast<uint8_t *>(bytes), ArgBlock::Free{recycled});
  return bytes != nullptr;
}

}  // namespace

void ArgBytesFree::operator()(uint8_t *p) const {
  if (recycled) argBlocks().give(p);
  else free(p);
}

aclError snapshotArgs(const KernelArgs &args, ArgBlock &out, const char *caller) {
  if (!args.finalized)
    return reportError(ACL_ERROR_INVALID_PARAM, caller,
                       "the arguments are not finalized (aclrtKernelArgsFinalize, also after every ParaUpdate)");
  size_t total = alignUp(args.size, kPlaceholderAlignment);
  for (uint32_t i = 0; i < args.paramCount; ++i)
    if (args.params[i].isPlaceholder) total += alignUp(args.params[i].placeholderSize, kPlaceholderAlignment);
  if (!allocateArgBytes(total, out)) return reportError(ACL_ERROR_BAD_ALLOC, caller, "out of memory");
  uint8_t *bytes = out.bytes.get();
  out.size = args.size;
  if (args.size) memcpy(bytes, args.data, args.size);
  // Placeholder data goes after all arguments; each slot gets the address of its copy.
  size_t cursor = alignUp(args.size, kPlaceholderAlignment);
  for (uint32_t i = 0; i < args.paramCount; ++i) {
    const KernelParam &param = args.params[i];
    if (!param.isPlaceholder) continue;
    memcpy(bytes + cursor, param.placeholderData, param.placeholderSize);
    void *address = bytes + cursor;
    memcpy(bytes + param.offset, &address, sizeof(address));
    cursor += alignUp(param.placeholderSize, kPlaceholderAlignment);
  }
  return ACL_SUCCESS;
}

aclError copyRawArgs(const void *data, size_t size, ArgBlock &out, const char *caller) {
  if (size > kMaxArgBytes)
    return reportError(ACL_ERROR_INVALID_PARAM, caller, "argsSize %zu exceeds %zu bytes", size, kMaxArgBytes);
  if (data == nullptr && size != 0) return reportError(ACL_ERROR_INVALID_PARAM, caller, "argsData is NULL");
  if (!allocateArgBytes(size, out)) return reportError(ACL_ERROR_BAD_ALLOC, caller, "out of memory");
  out.size = size;
  if (size) memcpy(out.bytes.get(), data, size);
  return ACL_SUCCESS;
}

}  // namespace aclcpu
