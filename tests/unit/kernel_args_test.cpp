// Error paths of loading, function lookup, argument building and launching.
#include "kernel_fixture.h"

#include <elf.h>

#include <cstring>

using namespace aclcpu_test;

using KernelErrors = KernelTest;

TEST_F(KernelErrors, BadFilesAreInvalidFile) {
  aclrtBinHandle binary = nullptr;
  EXPECT_EQ(aclrtBinaryLoadFromFile("/nonexistent/kernel.o", nullptr, &binary), ACL_ERROR_INVALID_FILE);
  EXPECT_NE(recentError().find("/nonexistent/kernel.o"), std::string::npos);
  TempFile empty("");
  EXPECT_EQ(aclrtBinaryLoadFromFile(empty.path(), nullptr, &binary), ACL_ERROR_INVALID_FILE);
  EXPECT_NE(recentError().find("empty"), std::string::npos);
  TempFile text("this is not an ELF file at all, just some text that is long enough to be read");
  EXPECT_EQ(aclrtBinaryLoadFromFile(text.path(), nullptr, &binary), ACL_ERROR_INVALID_FILE);
  EXPECT_NE(recentError().find("not an ELF"), std::string::npos);
  aclError directory = aclrtBinaryLoadFromFile("/tmp", nullptr, &binary);
  EXPECT_TRUE(directory == ACL_ERROR_INVALID_FILE || directory == ACL_ERROR_INVALID_FILE_SIZE) << directory;

  auto object = readFile(kernelPath("vector_add.o"));
  ASSERT_GT(object.size(), 1000u);
  EXPECT_EQ(aclrtBinaryLoadFromData(object.data(), 40, nullptr, &binary), ACL_ERROR_INVALID_FILE) << "truncated";
  EXPECT_EQ(aclrtBinaryLoadFromData(object.data(), object.size() / 2, nullptr, &binary), ACL_ERROR_INVALID_FILE);
  EXPECT_NE(recentError().find("truncated"), std::string::npos) << recentError();
  auto foreign = object;
  uint16_t arm = EM_ARM;
  memcpy(foreign.data() + offsetof(Elf64_Ehdr, e_machine), &arm, 2);
  EXPECT_EQ(aclrtBinaryLoadFromData(foreign.data(), foreign.size(), nullptr, &binary), ACL_ERROR_INVALID_FILE);
  EXPECT_NE(recentError().find("built for ARM"), std::string::npos) << recentError();
  auto executable = object;
  uint16_t exec = ET_EXEC;
  memcpy(executable.data() + offsetof(Elf64_Ehdr, e_type), &exec, 2);
  EXPECT_EQ(aclrtBinaryLoadFromData(executable.data(), executable.size(), nullptr, &binary), ACL_ERROR_INVALID_FILE);

  EXPECT_EQ(aclrtBinaryLoadFromData(nullptr, 100, nullptr, &binary), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtBinaryLoadFromData(object.data(), 0, nullptr, &binary), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtBinaryLoadFromData(object.data(), object.size(), nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtBinaryLoadFromFile(nullptr, nullptr, &binary), ACL_ERROR_INVALID_PARAM);
}

TEST_F(KernelErrors, BinariesFromMemoryLoadBothKinds) {
  for (const char *file : {"vector_add.o", "example_kernels.so"}) {
    auto bytes = readFile(kernelPath(file));
    aclrtBinHandle binary = nullptr;
    ASSERT_EQ(aclrtBinaryLoadFromData(bytes.data(), bytes.size(), nullptr, &binary), ACL_SUCCESS) << file;
    bytes.assign(bytes.size(), 0);  // the runtime keeps its own copy
    aclrtFuncHandle func = nullptr;
    EXPECT_EQ(aclrtBinaryGetFunction(binary, "add_custom", &func), ACL_SUCCESS) << file;
    EXPECT_EQ(aclrtBinaryUnLoad(binary), ACL_SUCCESS);
  }
}

TEST_F(KernelErrors, LoadOptionsAreValidated) {
  aclrtBinaryLoadOption option{};
  aclrtBinaryLoadOptions options{&option, 1};
  aclrtBinHandle binary = nullptr;
  std::string path = kernelPath("vector_add.o");
  option.type = ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD;
  option.value.isLazyLoad = 2;
  EXPECT_EQ(aclrtBinaryLoadFromFile(path.c_str(), &options, &binary), ACL_ERROR_INVALID_PARAM);
  option.type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
  option.value.magic = 0x1234;
  EXPECT_EQ(aclrtBinaryLoadFromFile(path.c_str(), &options, &binary), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("magic"), std::string::npos);
  option.type = ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE;
  option.value.cpuKernelMode = 9;
  EXPECT_EQ(aclrtBinaryLoadFromFile(path.c_str(), &options, &binary), ACL_ERROR_INVALID_PARAM);
  option.type = static_cast<aclrtBinaryLoadOptionType>(99);
  EXPECT_EQ(aclrtBinaryLoadFromFile(path.c_str(), &options, &binary), ACL_ERROR_INVALID_PARAM);
  aclrtBinaryLoadOptions noArray{nullptr, 2};
  EXPECT_EQ(aclrtBinaryLoadFromFile(path.c_str(), &noArray, &binary), ACL_ERROR_INVALID_PARAM);

  aclrtBinaryLoadOption valid[2] = {};
  valid[0].type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
  valid[0].value.magic = ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE;
  valid[1].type = ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD;
  valid[1].value.isLazyLoad = 1;
  aclrtBinaryLoadOptions good{valid, 2};
  ASSERT_EQ(aclrtBinaryLoadFromFile(path.c_str(), &good, &binary), ACL_SUCCESS) << recentError();
  EXPECT_EQ(aclrtBinaryUnLoad(binary), ACL_SUCCESS);
}

TEST_F(KernelErrors, ObjectsThatCannotBeLinkedAreRefused) {
  aclrtBinHandle binary = nullptr;
  EXPECT_EQ(aclrtBinaryLoadFromFile(kernelPath("with_constructor.o").c_str(), nullptr, &binary),
            ACL_ERROR_INVALID_FILE);
  EXPECT_NE(recentError().find("constructors"), std::string::npos) << recentError();

  EXPECT_EQ(aclrtBinaryLoadFromFile(kernelPath("unresolved.o").c_str(), nullptr, &binary), ACL_ERROR_INVALID_FILE);
  EXPECT_NE(recentError().find("aclcpu_test_function_that_does_not_exist"), std::string::npos) << recentError();
  // Lazily loaded, the missing symbol shows up when the function is looked up.
  aclrtBinaryLoadOption lazy{};
  lazy.type = ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD;
  lazy.value.isLazyLoad = 1;
  aclrtBinaryLoadOptions options{&lazy, 1};
  ASSERT_EQ(aclrtBinaryLoadFromFile(kernelPath("unresolved.o").c_str(), &options, &binary), ACL_SUCCESS);
  aclrtFuncHandle func = nullptr;
  EXPECT_EQ(aclrtBinaryGetFunction(binary, "needs_missing_symbol", &func), ACL_ERROR_KERNEL_NOT_FOUND);
  EXPECT_NE(recentError().find("aclcpu_test_function_that_does_not_exist"), std::string::npos) << recentError();
  EXPECT_EQ(aclrtBinaryUnLoad(binary), ACL_SUCCESS);

  aclrtBinHandle future = load("abi_mismatch.o");
  EXPECT_EQ(aclrtBinaryGetFunction(future, "future_kernel", &func), ACL_ERROR_INVALID_FILE);
  EXPECT_NE(recentError().find("ABI 2"), std::string::npos) << recentError();
}

TEST_F(KernelErrors, FunctionLookup) {
  aclrtBinHandle binary = load("test_kernels.o");
  aclrtFuncHandle first = nullptr, second = nullptr;
  ASSERT_EQ(aclrtBinaryGetFunction(binary, "mark_blocks", &first), ACL_SUCCESS);
  ASSERT_EQ(aclrtBinaryGetFunction(binary, "mark_blocks", &second), ACL_SUCCESS);
  EXPECT_EQ(first, second);
  EXPECT_EQ(aclrtBinaryGetFunction(binary, "no_such_kernel", &first), ACL_ERROR_KERNEL_NOT_FOUND);
  EXPECT_NE(recentError().find("'no_such_kernel'"), std::string::npos);
  EXPECT_EQ(aclrtBinaryGetFunction(binary, "mark_blocks__aclcpu_abi", &first), ACL_ERROR_KERNEL_NOT_FOUND)
      << "a data symbol is not a function";
  EXPECT_EQ(aclrtBinaryGetFunction(binary, nullptr, &first), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtBinaryGetFunction(binary, "mark_blocks", nullptr), ACL_ERROR_INVALID_PARAM);
  int bogus = 0;
  EXPECT_EQ(aclrtBinaryGetFunction(&bogus, "mark_blocks", &first), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtBinaryUnLoad(&bogus), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtBinaryUnLoad(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(KernelErrors, ArgumentBuilding) {
  aclrtBinHandle binary = load("test_kernels.o");
  aclrtFuncHandle marks = function(binary, "mark_blocks"), fail = function(binary, "fail_at_block");
  aclrtArgsHandle args = nullptr;
  EXPECT_EQ(aclrtKernelArgsInit(nullptr, &args), ACL_ERROR_INVALID_PARAM);
  int bogus[64] = {};
  EXPECT_EQ(aclrtKernelArgsInit(bogus, &args), ACL_ERROR_RT_INVALID_HANDLE);
  ASSERT_EQ(aclrtKernelArgsInit(marks, &args), ACL_SUCCESS);
  aclrtParamHandle param = nullptr;
  uint64_t value = 1;
  EXPECT_EQ(aclrtKernelArgsAppend(bogus, &value, 8, &param), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtKernelArgsAppend(nullptr, &value, 8, &param), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtKernelArgsAppend(args, nullptr, 8, &param), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtKernelArgsAppend(args, &value, 0, &param), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtKernelArgsAppend(args, &value, 8, nullptr), ACL_ERROR_INVALID_PARAM);
  for (int i = 0; i < 128; ++i) ASSERT_EQ(aclrtKernelArgsAppend(args, &value, 8, &param), ACL_SUCCESS) << i;
  EXPECT_EQ(aclrtKernelArgsAppend(args, &value, 8, &param), ACL_ERROR_INVALID_PARAM) << "129th parameter";
  EXPECT_NE(recentError().find("128"), std::string::npos);
  EXPECT_EQ(aclrtKernelArgsParaUpdate(args, param, &value, 4), ACL_ERROR_INVALID_PARAM) << "size differs";
  EXPECT_EQ(aclrtKernelArgsParaUpdate(args, bogus, &value, 8), ACL_ERROR_INVALID_PARAM) << "not this handle's";
  EXPECT_EQ(aclrtKernelArgsParaUpdate(args, param, nullptr, 8), ACL_ERROR_INVALID_PARAM);
  void *buffer = nullptr;
  EXPECT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(args, param, 16, &buffer), ACL_ERROR_INVALID_PARAM)
      << "not a placeholder";

  aclrtArgsHandle withPlaceholder = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(fail, &withPlaceholder), ACL_SUCCESS);
  aclrtParamHandle placeholder = nullptr;
  ASSERT_EQ(aclrtKernelArgsAppendPlaceHolder(withPlaceholder, &placeholder), ACL_SUCCESS);
  EXPECT_EQ(aclrtKernelArgsFinalize(withPlaceholder), ACL_ERROR_INVALID_PARAM) << "placeholder without a buffer";
  EXPECT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(withPlaceholder, placeholder, 0, &buffer), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(withPlaceholder, placeholder, 32, &buffer), ACL_SUCCESS);
  void *same = nullptr;
  ASSERT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(withPlaceholder, placeholder, 16, &same), ACL_SUCCESS);
  EXPECT_EQ(same, buffer);
  EXPECT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(withPlaceholder, placeholder, 64, &same), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtKernelArgsAppend(withPlaceholder, &value, 8, &param), ACL_ERROR_INVALID_PARAM)
      << "appending after placeholder data";
  EXPECT_EQ(aclrtKernelArgsParaUpdate(withPlaceholder, placeholder, &value, 8), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtKernelArgsFinalize(withPlaceholder), ACL_SUCCESS);
  EXPECT_EQ(aclrtKernelArgsFinalize(bogus), ACL_ERROR_RT_INVALID_HANDLE);

  // Launch checks.
  EXPECT_EQ(aclrtLaunchKernelWithConfig(marks, 1, stream_, nullptr, withPlaceholder, nullptr),
            ACL_ERROR_INVALID_PARAM) << "args of another kernel";
  EXPECT_NE(recentError().find("fail_at_block"), std::string::npos);
  EXPECT_EQ(aclrtLaunchKernelWithConfig(fail, 0, stream_, nullptr, withPlaceholder, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtLaunchKernelWithConfig(fail, 65536, stream_, nullptr, withPlaceholder, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtLaunchKernelWithConfig(fail, 1, stream_, nullptr, withPlaceholder, bogus), ACL_ERROR_INVALID_PARAM)
      << "reserve must be NULL";
  EXPECT_EQ(aclrtLaunchKernelWithConfig(fail, 1, bogus, nullptr, withPlaceholder, nullptr),
            ACL_ERROR_RT_INVALID_HANDLE);
  aclrtLaunchKernelAttr attr{};
  attr.id = static_cast<aclrtLaunchKernelAttrId>(42);
  aclrtLaunchKernelCfg cfg{&attr, 1};
  EXPECT_EQ(aclrtLaunchKernelWithConfig(fail, 1, stream_, &cfg, withPlaceholder, nullptr), ACL_ERROR_INVALID_PARAM);
  attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE;
  attr.value.engineType = static_cast<aclrtEngineType>(7);
  EXPECT_EQ(aclrtLaunchKernelWithConfig(fail, 1, stream_, &cfg, withPlaceholder, nullptr), ACL_ERROR_INVALID_PARAM);
  attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_LOCAL_MEMORY_SIZE;
  attr.value.localMemorySize = 1u << 30;
  EXPECT_EQ(aclrtLaunchKernelWithConfig(fail, 1, stream_, &cfg, withPlaceholder, nullptr), ACL_ERROR_INVALID_PARAM);
  aclrtLaunchKernelCfg noAttrs{nullptr, 3};
  EXPECT_EQ(aclrtLaunchKernelWithConfig(fail, 1, stream_, &noAttrs, withPlaceholder, nullptr),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << "nothing was launched";
}

TEST_F(KernelErrors, ArgumentsInUserMemory) {
  aclrtFuncHandle func = function(load("affine_placeholder.o"), "affine_custom");
  size_t handleBytes = 0, dataBytes = 0;
  ASSERT_EQ(aclrtKernelArgsGetHandleMemSize(func, &handleBytes), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsGetMemSize(func, 2 * sizeof(void *) + 12, &dataBytes), ACL_SUCCESS);
  EXPECT_GE(dataBytes, 2 * sizeof(void *) + 12);
  EXPECT_EQ(aclrtKernelArgsGetHandleMemSize(func, nullptr), ACL_ERROR_INVALID_PARAM);
  std::vector<uint64_t> handleMemory(handleBytes / 8 + 1), dataMemory(dataBytes / 8 + 1);
  aclrtArgsHandle args = handleMemory.data();
  EXPECT_EQ(aclrtKernelArgsInitByUserMem(func, args, nullptr, dataBytes), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtKernelArgsInitByUserMem(func, reinterpret_cast<char *>(args) + 1, dataMemory.data(), dataBytes),
            ACL_ERROR_INVALID_PARAM) << "misaligned handle memory";
  ASSERT_EQ(aclrtKernelArgsInitByUserMem(func, args, dataMemory.data(), dataBytes), ACL_SUCCESS);

  const uint32_t n = 100;
  std::vector<float> x(n);
  for (uint32_t i = 0; i < n; ++i) x[i] = float(i);
  float *dx = deviceArray<float>(n), *dy = deviceArray<float>(n);
  ASSERT_EQ(aclrtMemcpy(dx, n * 4, x.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  append(args, dx);
  append(args, dy);
  aclrtParamHandle placeholder = nullptr;
  ASSERT_EQ(aclrtKernelArgsAppendPlaceHolder(args, &placeholder), ACL_SUCCESS);
  void *buffer = nullptr;
  ASSERT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(args, placeholder, 12, &buffer), ACL_SUCCESS);
  EXPECT_GE(static_cast<void *>(buffer), static_cast<void *>(dataMemory.data()));
  EXPECT_LT(static_cast<char *>(buffer), reinterpret_cast<char *>(dataMemory.data()) + dataBytes)
      << "placeholder data lives in the user's memory";
  const float scale = -1.0f, bias = 0.25f;
  memcpy(buffer, &scale, 4);
  memcpy(static_cast<char *>(buffer) + 4, &bias, 4);
  memcpy(static_cast<char *>(buffer) + 8, &n, 4);
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithConfig(func, 3, stream_, nullptr, args, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  std::vector<float> y(n);
  ASSERT_EQ(aclrtMemcpy(y.data(), n * 4, dy, n * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(y[i], -float(i) + 0.25f);

  // Too little user memory is an error, not an overflow.
  std::vector<uint64_t> small(handleBytes / 8 + 1), tiny(2);
  ASSERT_EQ(aclrtKernelArgsInitByUserMem(func, small.data(), tiny.data(), 16), ACL_SUCCESS);
  append(small.data(), dx);
  append(small.data(), dy);
  aclrtParamHandle extra = nullptr;
  EXPECT_EQ(aclrtKernelArgsAppend(small.data(), &dx, 8, &extra), ACL_ERROR_INVALID_PARAM);
}

TEST_F(KernelErrors, EverythingNeedsInit) {
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream_), ACL_ERROR_RT_INVALID_HANDLE) << "streams go with their context";
  stream_ = nullptr;
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  aclrtBinHandle binary = nullptr;
  EXPECT_EQ(aclrtBinaryLoadFromFile(kernelPath("vector_add.o").c_str(), nullptr, &binary), ACL_ERROR_UNINITIALIZE);
  aclrtArgsHandle args = nullptr;
  EXPECT_EQ(aclrtKernelArgsInit(nullptr, &args), ACL_ERROR_UNINITIALIZE);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
}
