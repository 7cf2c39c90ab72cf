// Kernel binaries: load, look up functions, build arguments, launch N blocks, unload.
#include "acl/acl_rt.h"
#include "diagnostics.h"
#include "kernel_launch.h"
#include "runtime_state.h"
#include "untrusted_enum.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <vector>

using namespace aclcpu;

namespace {

constexpr uint32_t kMaxBlocks = 65535;
constexpr size_t kMaxBinaryBytes = size_t(1) << 30;

struct LoadOptions {
  bool lazy = false;
};

aclError parseLoadOptions(const aclrtBinaryLoadOptions *options, LoadOptions &out, const char *caller) {
  if (options == nullptr || options->numOpt == 0) return ACL_SUCCESS;
  if (options->options == nullptr)
    return reportError(ACL_ERROR_INVALID_PARAM, caller, "options->options is NULL but numOpt is %zu", options->numOpt);
  for (size_t i = 0; i < options->numOpt; ++i) {
    const aclrtBinaryLoadOption &option = options->options[i];
    switch (untrustedEnumValue(option.type)) {
      case ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD:
        if (option.value.isLazyLoad > 1)
          return reportError(ACL_ERROR_INVALID_PARAM, caller, "isLazyLoad must be 0 or 1, not %u",
                             option.value.isLazyLoad);
        out.lazy = option.value.isLazyLoad == 1;
        break;
      case ACL_RT_BINARY_LOAD_OPT_MAGIC:
        if (option.value.magic != ACL_RT_BINARY_MAGIC_ELF_AICORE &&
            option.value.magic != ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE &&
            option.value.magic != ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE)
          return reportError(ACL_ERROR_INVALID_PARAM, caller, "magic 0x%08x is not an ACL_RT_BINARY_MAGIC_ELF_* value",
                             option.value.magic);
        break;  // every core type runs on the same CPU workers
      case ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE:
        if (option.value.cpuKernelMode < 0 || option.value.cpuKernelMode > 2)
          return reportError(ACL_ERROR_INVALID_PARAM, caller, "cpuKernelMode must be 0, 1 or 2, not %d",
                             option.value.cpuKernelMode);
        break;
      default:
        return reportError(ACL_ERROR_INVALID_PARAM, caller, "option %zu has unknown type %lld", i,
                           untrustedEnumValue(option.type));
    }
  }
  return ACL_SUCCESS;
}

aclError loadBinary(const uint8_t *data, size_t size, const aclrtBinaryLoadOptions *options, const char *origin,
                    aclrtBinHandle *out, const char *caller) {
  LoadOptions parsed;
  if (aclError error = parseLoadOptions(options, parsed, caller)) return error;
  auto binary = std::make_shared<LoadedBinary>();
  std::string problem = inspectElf(data, size, binary->image);
  if (!problem.empty()) return reportError(ACL_ERROR_INVALID_FILE, caller, "%s: %s", origin, problem.c_str());
  BinaryLoader *loader = binaryLoaderFor(binary->image.kind);
  if (loader == nullptr)
    return reportError(ACL_ERROR_API_NOT_SUPPORT, caller,
                       "%s: relocatable objects need the JIT, which this build of aclcpu does not include", origin);
  binary->code = loader->load(data, size, binary->image, parsed.lazy, problem);
  if (!binary->code) return reportError(ACL_ERROR_INVALID_FILE, caller, "%s: %s", origin, problem.c_str());
  *out = Runtime::get().binaries.add(std::move(binary));
  return ACL_SUCCESS;
}

aclError resolveFunction(aclrtFuncHandle handle, std::shared_ptr<KernelFunction> &out, const char *caller) {
  if (handle == nullptr) return reportError(ACL_ERROR_INVALID_PARAM, caller, "funcHandle is NULL");
  out = Runtime::get().functions.find(handle);
  if (!out)
    return reportError(ACL_ERROR_RT_INVALID_HANDLE, caller, "funcHandle %p is not a function of a loaded binary",
                       handle);
  return ACL_SUCCESS;
}

struct LaunchConfig {
  size_t scratchBytes = kDefaultScratchBytes;
  bool writeNumBlocks = false;
  uint32_t numBlocksOffset = 0;
  CoreKind cores = CoreKind::Vector;  // ACL_RT_ENGINE_TYPE_AIC: the cube-core limit applies
};

aclError parseLaunchConfig(const aclrtLaunchKernelCfg *cfg, LaunchConfig &out, const char *caller) {
  if (cfg == nullptr || cfg->numAttrs == 0) return ACL_SUCCESS;
  if (cfg->attrs == nullptr)
    return reportError(ACL_ERROR_INVALID_PARAM, caller, "cfg->attrs is NULL but numAttrs is %zu", cfg->numAttrs);
  for (size_t i = 0; i < cfg->numAttrs; ++i) {
    const aclrtLaunchKernelAttr &attr = cfg->attrs[i];
    const aclrtLaunchKernelAttrValue &value = attr.value;
    switch (untrustedEnumValue(attr.id)) {
      case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
        if (value.schemMode > 2)
          return reportError(ACL_ERROR_INVALID_PARAM, caller, "schemMode must be 0, 1 or 2, not %u", value.schemMode);
        break;
      case ACL_RT_LAUNCH_KERNEL_ATTR_LOCAL_MEMORY_SIZE:
        if (value.localMemorySize > kMaxScratchBytes)
          return reportError(ACL_ERROR_INVALID_PARAM, caller, "localMemorySize %u exceeds %u bytes",
                             value.localMemorySize, kMaxScratchBytes);
        out.scratchBytes = value.localMemorySize;  // becomes each worker's scratch memory
        break;
      case ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE:
        if (untrustedEnumValue(value.engineType) != ACL_RT_ENGINE_TYPE_AIC &&
            untrustedEnumValue(value.engineType) != ACL_RT_ENGINE_TYPE_AIV)
          return reportError(ACL_ERROR_INVALID_PARAM, caller, "engineType %lld is not an aclrtEngineType",
                             untrustedEnumValue(value.engineType));
        out.cores = untrustedEnumValue(value.engineType) == ACL_RT_ENGINE_TYPE_AIC ? CoreKind::Cube : CoreKind::Vector;
        break;
      case ACL_RT_LAUNCH_KERNEL_ATTR_NUMBLOCKS_OFFSET:
        out.writeNumBlocks = true;
        out.numBlocksOffset = value.numBlocksOffset;
        break;
      case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
        if (value.isBlockTaskPrefetch > 1)
          return reportError(ACL_ERROR_INVALID_PARAM, caller, "isBlockTaskPrefetch must be 0 or 1");
        break;
      case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
        if (value.isDataDump > 1) return reportError(ACL_ERROR_INVALID_PARAM, caller, "isDataDump must be 0 or 1");
        break;
      case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
      case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
        break;  // accepted; CPU kernels are not preempted
      default:
        return reportError(ACL_ERROR_INVALID_PARAM, caller, "attribute %zu has unknown id %lld", i,
                           untrustedEnumValue(attr.id));
    }
  }
  return ACL_SUCCESS;
}

aclError enqueueLaunch(const std::shared_ptr<KernelFunction> &function, uint32_t numBlocks, aclrtStream stream,
                       const LaunchConfig &config, ArgBlock args, const char *caller) {
  if (numBlocks == 0 || numBlocks > kMaxBlocks)
    return reportError(ACL_ERROR_INVALID_PARAM, caller, "numBlocks %u is outside [1, %u]", numBlocks, kMaxBlocks);
  std::shared_ptr<Stream> resolved;
  if (aclError error = resolveStream(stream, resolved, caller)) return error;
  if (config.writeNumBlocks) {
    if (config.numBlocksOffset > args.size || args.size - config.numBlocksOffset < sizeof(uint32_t))
      return reportError(ACL_ERROR_INVALID_PARAM, caller, "numBlocksOffset %u lies outside the %zu argument bytes",
                         config.numBlocksOffset, args.size);
    memcpy(args.bytes.get() + config.numBlocksOffset, &numBlocks, sizeof(numBlocks));
  }
  const uint32_t threads = launchThreads(*resolved, config.cores);
  if (launchesOnCaller(*resolved, false) && resolved->runIfIdle([&](Stream &idle) {
        runKernelCall(idle, {function->entry, args.bytes.get(), numBlocks, config.scratchBytes, function->name.c_str(),
                             threads});
      }))
    return ACL_SUCCESS;
  KernelLaunch launch;
  launch.entry = function->entry;
  launch.kernelName = function->name;
  launch.keepAlive = function->binary->shared_from_this();
  launch.args = std::move(args);
  launch.numBlocks = numBlocks;
  launch.scratchBytes = config.scratchBytes;
  launch.threads = threads;
  resolved->enqueue(makeKernelLaunchTask(std::move(launch)));
  return ACL_SUCCESS;
}

}  // namespace

extern "C" aclError aclrtBinaryLoadFromData(const void *data, size_t length, const aclrtBinaryLoadOptions *options,
                                            aclrtBinHandle *binHandle) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(binHandle);
  if (data == nullptr || length == 0)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "data is %s", data ? "empty (length 0)" : "NULL");
  return loadBinary(static_cast<const uint8_t *>(data), length, options, "binary from memory", binHandle, __func__);
}

extern "C" aclError aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options,
                                            aclrtBinHandle *binHandle) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(binPath);
  ACLCPU_CHECK_NOT_NULL(binHandle);
  std::ifstream file(binPath, std::ios::binary | std::ios::ate);
  if (!file) return ACLCPU_FAIL(ACL_ERROR_INVALID_FILE, "cannot open '%s'", binPath);
  std::streamoff size = file.tellg();
  if (size <= 0) return ACLCPU_FAIL(ACL_ERROR_INVALID_FILE, "'%s' is empty (or not a regular file)", binPath);
  if (static_cast<uint64_t>(size) > kMaxBinaryBytes)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_FILE_SIZE, "'%s' is larger than 1 GiB", binPath);
  std::vector<uint8_t> bytes(static_cast<size_t>(size));
  file.seekg(0);
  if (!file.read(reinterpret_cast<char *>(bytes.data()), size))
    return ACLCPU_FAIL(ACL_ERROR_INVALID_FILE, "cannot read '%s'", binPath);
  return loadBinary(bytes.data(), bytes.size(), options, binPath, binHandle, __func__);
}

extern "C" aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName,
                                           aclrtFuncHandle *funcHandle) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(binHandle);
  ACLCPU_CHECK_NOT_NULL(kernelName);
  ACLCPU_CHECK_NOT_NULL(funcHandle);
  auto binary = Runtime::get().binaries.find(binHandle);
  if (!binary) return ACLCPU_FAIL(ACL_ERROR_RT_INVALID_HANDLE, "binHandle %p is not a loaded binary", binHandle);
  std::lock_guard<std::mutex> lock(binary->mutex);
  auto existing = binary->functions.find(kernelName);
  if (existing != binary->functions.end()) {
    *funcHandle = existing->second.get();
    return ACL_SUCCESS;
  }
  const auto &functions = binary->image.functions;
  if (std::find(functions.begin(), functions.end(), kernelName) == functions.end())
    return ACLCPU_FAIL(ACL_ERROR_KERNEL_NOT_FOUND, "the binary exports no function named '%s' (%zu functions exported)",
                       kernelName, functions.size());
  std::string problem;
  void *entry = binary->code->lookup(kernelName, problem);
  if (entry == nullptr)
    return ACLCPU_FAIL(ACL_ERROR_KERNEL_NOT_FOUND, "cannot link kernel '%s': %s", kernelName, problem.c_str());
  // Kernels written with ACLCPU_KERNEL carry their ABI version; a different one is refused.
  std::string abiSymbol = std::string(kernelName) + ACLCPU_KERNEL_ABI_SUFFIX;
  const auto &data = binary->image.dataSymbols;
  if (std::find(data.begin(), data.end(), abiSymbol) != data.end()) {
    const void *version = binary->code->lookup(abiSymbol, problem);
    uint32_t abi = 0;
    if (version != nullptr) memcpy(&abi, version, sizeof(abi));
    if (abi != ACLCPU_KERNEL_ABI_VERSION)
      return ACLCPU_FAIL(ACL_ERROR_INVALID_FILE, "kernel '%s' was built for kernel ABI %u; this runtime has ABI %u",
                         kernelName, abi, ACLCPU_KERNEL_ABI_VERSION);
  }
  auto function = std::make_shared<KernelFunction>();
  function->binary = binary.get();
  function->name = kernelName;
  function->entry = reinterpret_cast<aclcpuKernelEntry>(entry);
  binary->functions[kernelName] = function;
  *funcHandle = Runtime::get().functions.add(std::move(function));
  return ACL_SUCCESS;
}

extern "C" aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(binHandle);
  auto &runtime = Runtime::get();
  auto binary = runtime.binaries.remove(binHandle);
  if (!binary) return ACLCPU_FAIL(ACL_ERROR_RT_INVALID_HANDLE, "binHandle %p is not a loaded binary", binHandle);
  std::lock_guard<std::mutex> lock(binary->mutex);
  for (auto &entry : binary->functions) runtime.functions.removeObject(entry.second);
  // Queued launches hold the binary: its code is released after the last of them has run.
  return ACL_SUCCESS;
}

extern "C" aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle *argsHandle) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(argsHandle);
  std::shared_ptr<KernelFunction> function;
  if (aclError error = resolveFunction(funcHandle, function, __func__)) return error;
  auto args = createRuntimeArgs(function.get());
  *argsHandle = args.get();
  std::lock_guard<std::mutex> lock(function->mutex);
  function->runtimeArgs.push_back(std::move(args));
  return ACL_SUCCESS;
}

extern "C" aclError aclrtKernelArgsInitByUserMem(aclrtFuncHandle funcHandle, aclrtArgsHandle argsHandle,
                                                 void *userHostMem, size_t actualArgsSize) {
  ACLCPU_REQUIRE_INIT();
  std::shared_ptr<KernelFunction> function;
  if (aclError error = resolveFunction(funcHandle, function, __func__)) return error;
  if (aclError error = initUserArgs(function.get(), argsHandle, userHostMem, actualArgsSize, __func__)) return error;
  std::lock_guard<std::mutex> lock(function->mutex);
  function->userArgs.push_back(argsHandle);
  return ACL_SUCCESS;
}

extern "C" aclError aclrtKernelArgsGetMemSize(aclrtFuncHandle funcHandle, size_t userArgsSize,
                                              size_t *actualArgsSize) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(actualArgsSize);
  std::shared_ptr<KernelFunction> function;
  if (aclError error = resolveFunction(funcHandle, function, __func__)) return error;
  *actualArgsSize = kernelArgsDataBytes(userArgsSize);
  return ACL_SUCCESS;
}

extern "C" aclError aclrtKernelArgsGetHandleMemSize(aclrtFuncHandle funcHandle, size_t *memSize) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(memSize);
  std::shared_ptr<KernelFunction> function;
  if (aclError error = resolveFunction(funcHandle, function, __func__)) return error;
  *memSize = kernelArgsHandleBytes();
  return ACL_SUCCESS;
}

#define ACLCPU_RESOLVE_ARGS(handle, name)                         \
  aclError name##Error = ACL_SUCCESS;                             \
  KernelArgs *name = resolveArgs(handle, __func__, name##Error); \
  if (name == nullptr) return name##Error

extern "C" aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void *param, size_t paramSize,
                                          aclrtParamHandle *paramHandle) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_RESOLVE_ARGS(argsHandle, args);
  return appendParam(*args, param, paramSize, paramHandle, __func__);
}

extern "C" aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle, aclrtParamHandle *paramHandle) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_RESOLVE_ARGS(argsHandle, args);
  return appendPlaceholder(*args, paramHandle, __func__);
}

extern "C" aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle,
                                                        size_t dataSize, void **bufferAddr) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_RESOLVE_ARGS(argsHandle, args);
  return placeholderBuffer(*args, paramHandle, dataSize, bufferAddr, __func__);
}

extern "C" aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle, void *param,
                                              size_t paramSize) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_RESOLVE_ARGS(argsHandle, args);
  return updateParam(*args, paramHandle, param, paramSize, __func__);
}

extern "C" aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_RESOLVE_ARGS(argsHandle, args);
  return finalizeArgs(*args, __func__);
}

extern "C" aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                                aclrtLaunchKernelCfg *cfg, aclrtArgsHandle argsHandle,
                                                void *reserve) {
  ACLCPU_REQUIRE_INIT();
  if (reserve != nullptr) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "reserve must be NULL");
  std::shared_ptr<KernelFunction> function;
  if (aclError error = resolveFunction(funcHandle, function, __func__)) return error;
  ACLCPU_RESOLVE_ARGS(argsHandle, args);
  if (args->function != function.get())
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "argsHandle was built for kernel '%s', not '%s'",
                       args->function->name.c_str(), function->name.c_str());
  LaunchConfig config;
  if (aclError error = parseLaunchConfig(cfg, config, __func__)) return error;
  ArgBlock block;
  if (aclError error = snapshotArgs(*args, block, __func__)) return error;
  return enqueueLaunch(function, numBlocks, stream, config, std::move(block), __func__);
}

extern "C" aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData,
                                      size_t argsSize, aclrtStream stream) {
  ACLCPU_REQUIRE_INIT();
  std::shared_ptr<KernelFunction> function;
  if (aclError error = resolveFunction(funcHandle, function, __func__)) return error;
  ArgBlock block;
  if (aclError error = copyRawArgs(argsData, argsSize, block, __func__)) return error;
  return enqueueLaunch(function, numBlocks, stream, LaunchConfig{}, std::move(block), __func__);
}
