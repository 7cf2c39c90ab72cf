// What the operator benchmarks share: a runtime on one core with a stream, and device tensors
// (zero-filled) with their descriptions and data buffers.
#pragma once

#include "paired_runs.h"

#include "acl/acl.h"
#include "acl/acl_op.h"

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

// A plain loop built for the host's widest vectors (GCC's target_clones on x86-64): the
// anchor a compiler makes of the textbook loop.
#if defined(__x86_64__)
#define ACLCPU_WIDEST_VECTORS __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define ACLCPU_WIDEST_VECTORS
#endif

namespace aclcpu_bench {

struct Runtime {
  aclrtStream stream = nullptr;
  // `threads` worker threads a device: by default one core, like the OpenBLAS baseline; 0, one
  // per usable core (the library's default).
  explicit Runtime(unsigned threads = 1) {
    if (threads == 0) unsetenv("ACLCPU_NUM_THREADS");
    else setenv("ACLCPU_NUM_THREADS", std::to_string(threads).c_str(), 1);
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtCreateStream(&stream);
  }
  ~Runtime() {
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
  }
};

struct Tensor {
  aclTensorDesc *desc;
  void *device = nullptr;
  aclDataBuffer *buffer;
  Tensor(aclDataType type, std::vector<int64_t> dims, size_t elementSize) {
    desc = aclCreateTensorDesc(type, static_cast<int>(dims.size()), dims.data(), ACL_FORMAT_ND);
    size_t bytes = elementSize;
    for (int64_t d : dims) bytes *= static_cast<size_t>(d);
    aclrtMalloc(&device, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemset(device, bytes, 0, bytes);
    buffer = aclCreateDataBuffer(device, bytes);
  }
  ~Tensor() {
    aclDestroyDataBuffer(buffer);
    aclrtFree(device);
    aclDestroyTensorDesc(desc);
  }
};

// A host array on a 64-byte boundary, for the anchors' operands: our tensors come from
// aclrtMalloc (aligned), and OpenBLAS's 64^3 sgemm runs 6% slower on operands 16 bytes off a
// line than on aligned ones, so malloc's 16-byte alignment made its figure depend on where
// the heap happened to put them.
template <class T>
class AlignedHostArray {
 public:
  AlignedHostArray(size_t count, T value)
      : data_(static_cast<T *>(std::aligned_alloc(64, (count * sizeof(T) / 64 + 1) * 64))) {
    for (size_t i = 0; i < count; ++i) data_[i] = value;
  }
  ~AlignedHostArray() { std::free(data_); }
  AlignedHostArray(const AlignedHostArray &) = delete;
  AlignedHostArray &operator=(const AlignedHostArray &) = delete;
  T *data() const { return data_; }

 private:
  T *data_;
};

// Ours as a Contender: an operator handle whose call executes it on the runtime's stream and
// synchronizes. Subclasses own the tensors and create the handle, then bind it.
class HandleContender : public Contender {
 public:
  explicit HandleContender(const Runtime &runtime, std::string name = "aclcpu")
      : Contender(std::move(name)), runtime_(runtime) {}
  ~HandleContender() override { aclopDestroyHandle(handle_); }
  bool call() override {
    if (handle_ == nullptr) return false;
    if (aclopExecWithHandle(handle_, static_cast<int>(inputs_.size()), inputs_.data(),
                            static_cast<int>(outputs_.size()), outputs_.data(), runtime_.stream) != ACL_SUCCESS ||
        aclrtSynchronizeStream(runtime_.stream) != ACL_SUCCESS)
      return fail(aclGetRecentErrMsg());
    return true;
  }

 protected:
  // `handle` null: its creation failed, and the recent error says why.
  void bind(aclopHandle *handle, std::vector<const aclDataBuffer *> inputs, std::vector<aclDataBuffer *> outputs) {
    handle_ = handle;
    inputs_ = std::move(inputs);
    outputs_ = std::move(outputs);
    if (handle_ == nullptr) fail(aclGetRecentErrMsg());
  }
  void bind(aclopHandle *handle, std::vector<const aclDataBuffer *> inputs, aclDataBuffer *output) {
    bind(handle, std::move(inputs), std::vector<aclDataBuffer *>{output});
  }
  // Compiles `opType` over the descriptions (and attributes, if any) and binds a handle of it.
  void compileAndBind(const char *opType, std::vector<const aclTensorDesc *> inDescs,
                      std::vector<const aclTensorDesc *> outDescs, std::vector<const aclDataBuffer *> inputs,
                      std::vector<aclDataBuffer *> outputs, const aclopAttr *attr = nullptr) {
    const int count = static_cast<int>(inDescs.size()), outCount = static_cast<int>(outDescs.size());
    aclopHandle *handle = nullptr;
    if (aclopCompile(opType, count, inDescs.data(), outCount, outDescs.data(), attr, ACL_ENGINE_SYS, ACL_COMPILE_SYS,
                     nullptr) != ACL_SUCCESS ||
        aclopCreateHandle(opType, count, inDescs.data(), outCount, outDescs.data(), attr, &handle) != ACL_SUCCESS)
      handle = nullptr;
    bind(handle, std::move(inputs), std::move(outputs));
  }
  void compileAndBind(const char *opType, std::vector<const aclTensorDesc *> inDescs, const aclTensorDesc *outDesc,
                      std::vector<const aclDataBuffer *> inputs, aclDataBuffer *output,
                      const aclopAttr *attr = nullptr) {
    compileAndBind(opType, std::move(inDescs), std::vector<const aclTensorDesc *>{outDesc}, std::move(inputs),
                   std::vector<aclDataBuffer *>{output}, attr);
  }

 private:
  const Runtime &runtime_;
  aclopHandle *handle_ = nullptr;
  std::vector<const aclDataBuffer *> inputs_;
  std::vector<aclDataBuffer *> outputs_;
};

// `Base` (a HandleContender) on one of the runtime's workers: each call's launches obey a
// stream's cube-core limit of 1 (aclrtSetStreamResLimit, aclrtUseStreamResInCurrentThread), so
// one process runs the same operator on every worker and on one, side by side.
template <class Base>
class OnOneWorker : public Base {
 public:
  template <class... Args>
  explicit OnOneWorker(Args &&...args) : Base(std::forward<Args>(args)...) {
    if (aclrtCreateStream(&limits_) != ACL_SUCCESS ||
        aclrtSetStreamResLimit(limits_, ACL_RT_DEV_RES_CUBE_CORE, 1) != ACL_SUCCESS)
      this->fail(aclGetRecentErrMsg());
  }
  ~OnOneWorker() override { aclrtDestroyStream(limits_); }
  bool call() override {
    if (!this->error().empty()) return false;
    if (aclrtUseStreamResInCurrentThread(limits_) != ACL_SUCCESS) return this->fail(aclGetRecentErrMsg());
    bool done = Base::call();
    aclrtUnuseStreamResInCurrentThread(limits_);
    return done;
  }

 private:
  aclrtStream limits_ = nullptr;
};

// memcpy of `bytes` between device buffers (traffic: twice that).
class MemcpyRun : public Contender {
 public:
  explicit MemcpyRun(size_t bytes)
      : Contender("memcpy"), bytes_(bytes), from_(ACL_UINT8, {int64_t(bytes)}, 1), to_(ACL_UINT8, {int64_t(bytes)}, 1) {}
  bool call() override {
    memcpy(to_.device, from_.device, bytes_);
    benchmark::ClobberMemory();
    return true;
  }

 private:
  size_t bytes_;
  Tensor from_, to_;
};

// Each benchmark iteration calls `enqueue` (returning an aclError) and synchronizes `stream`:
// what a caller that needs the result pays. A failed call skips the benchmark.
template <class Enqueue>
void runSynchronized(benchmark::State &state, aclrtStream stream, Enqueue enqueue) {
  for (auto _ : state) {
    if (enqueue() != ACL_SUCCESS) return state.SkipWithError(aclGetRecentErrMsg());
    aclrtSynchronizeStream(stream);
  }
}

// Runs `handle` once per benchmark iteration (runSynchronized), then destroys it.
template <size_t Inputs>
void runHandle(benchmark::State &state, const Runtime &runtime, aclopHandle *handle,
               const aclDataBuffer *const (&inputs)[Inputs], aclDataBuffer *output) {
  aclDataBuffer *outputs[] = {output};
  runSynchronized(state, runtime.stream, [&] {
    return aclopExecWithHandle(handle, static_cast<int>(Inputs), inputs, 1, outputs, runtime.stream);
  });
  aclopDestroyHandle(handle);
}

}  // namespace aclcpu_bench
