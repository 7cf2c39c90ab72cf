// Compiled and loaded operator models and how requests find them. With ACLCPU_CACHE_DIR set,
// compiled models are also kept on disk (atomically written model files, see model_file.h) and a
// new process links them without compiling; a corrupt or foreign file is recompiled, never run.
// Models loaded from .om files (aclopSetModelDir, aclopLoad) are pinned and looked up first.
// Static models match by full signature; dynamic ones by op type, dtypes, formats and
// attributes with every request dim inside the model's range. Compiled models live in an LRU
// cache (ACLCPU_OP_CACHE_CAPACITY, default 512) with single-flight compiles: concurrent compiles
// of one signature wait for one compile, and failures are never cached. Handles and queued
// launches keep their model alive past eviction.
#pragma once

#include "core_limits.h"
#include "op_compiler.h"
#include "op_request.h"

#include <atomic>
#include <condition_variable>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

namespace aclcpu {

class ConstOperand;  // const_panels.h

// What a launch of a model with no dynamic dim needs, worked out once by makeModel and kept
// together: a launch right after a kernel that filled L1 (a 64^3 GEMM's operands are 48 KiB)
// reads every line it touches from L2, and these facts were spread over the request, the
// kernel and a vector of sizes.
struct StaticLaunch {
  static constexpr size_t kMaxBuffers = 16;  // a kernel's arguments, inputs and outputs
  aclcpuKernelEntry entry = nullptr;
  LaunchRecipe launch;                       // the kernel's
  uint32_t numInputs = 0, numBuffers = 0;    // the kernel's inputs, then its outputs
  int64_t touched = 0;                       // elements of every buffer
  int64_t outputs = 1;                       // elements of all the outputs together
  int32_t index[kMaxBuffers] = {};           // the request's input index, or the output's
  size_t bytes[kMaxBuffers] = {};            // each buffer's size
  const void *constData[kMaxBuffers] = {};   // a constant input's values (Model::constInputs)
};

struct Model : std::enable_shared_from_this<Model> {
  ResolvedRequest request;
  std::shared_ptr<CompiledKernel> kernel;
  // The kernel reads a constant input (aclSetTensorConst, all its values given) from the
  // request's copy of them, whatever buffer a launch passes: those copies are registered as
  // constant operands, whose packed panels a GEMM ukernel keeps across launches. Per request
  // input, its values or null. Launches keep the model alive while they may read them.
  std::vector<const void *> constInputs;
  std::vector<std::unique_ptr<ConstOperand>> constOperands;
  // Set when the model has no dynamic dim and at most StaticLaunch::kMaxBuffers buffers.
  std::optional<StaticLaunch> staticLaunch;
  // Which resource limit its launches obey (a product's, the cube cores'; others the vector's).
  CoreKind cores = CoreKind::Vector;
  // Set by launches that found the model without the store (request_memo.h): eviction gives
  // such a model a second chance rather than dropping a model in use.
  std::atomic<bool> usedUnseen{false};

  void markUsed() {
    if (!usedUnseen.load(std::memory_order_relaxed)) usedUnseen.store(true, std::memory_order_relaxed);
  }
  ~Model();
};

// The blocks a launch of `recipe` over `outputs` output elements divides into on `workers`
// workers: ~16K element-wise elements of work a block (a product's element is worth its depth
// in vector FMAs; `depth`, a dynamic depth as launched, where the recipe reads one), at most the
// recipe's blocks per worker.
uint32_t launchBlockCount(const LaunchRecipe &recipe, int64_t outputs, unsigned workers, int64_t depth = 0);

// A model of `request` running `kernel`.
std::shared_ptr<Model> makeModel(ResolvedRequest request, std::shared_ptr<CompiledKernel> kernel);

class ModelStore {
 public:
  // Finds or compiles the model of `request`.
  aclError compile(const ResolvedRequest &request, std::shared_ptr<Model> &out, const char *caller);
  // The model a request runs on, or nullptr with `mismatch` saying what differed.
  std::shared_ptr<Model> find(const ResolvedRequest &request, std::string &mismatch);
  // A model loaded from an .om file: kept until aclFinalize (never evicted), found first.
  void addLoaded(std::shared_ptr<Model> model);
  size_t loadedModels();
  uint64_t compilations() const { return compilations_.load(); }
  uint64_t diskCacheHits() const { return diskHits_.load(); }
  // Changes whenever what find() returns may change (a model added, evicted or cleared).
  uint64_t generation() const { return generation_.load(std::memory_order_acquire); }
  void clear();

 private:
  struct Entry {
    std::shared_ptr<Model> model;
    std::list<std::string>::iterator recency;
  };
  void insertLocked(const std::string &key, std::shared_ptr<Model> model);

  std::mutex mutex_;
  std::condition_variable compiled_;
  std::map<std::string, Entry> models_;
  std::list<std::string> recency_;  // most recent first
  std::map<std::string, std::shared_ptr<Model>> loaded_;
  std::map<std::string, bool> inFlight_;
  std::atomic<uint64_t> compilations_{0};
  std::atomic<uint64_t> diskHits_{0};
  std::atomic<uint64_t> generation_{1};
};

ModelStore &modelStore();

// Infers the request's outputs, checks its output descriptions, and compiles its kernel.
aclError buildKernel(const ResolvedRequest &request, std::unique_ptr<CompiledKernel> &kernel, const char *caller);

// How the request's output descriptions disagree with what the operator produces, or "" (dims
// the request leaves unknown, or that are dynamic, agree with anything).
std::string outputMismatch(const ResolvedRequest &request, const std::vector<TensorSpec> &outputs);

// Enqueues `model` on `stream` with the caller's buffers; `inputDims` / `outputDims` are the
// request's actual dims (needed for dynamic models). Checks every buffer against its size.
aclError launchModel(const Model &model, const std::vector<std::vector<int64_t>> &inputDims,
                     const std::vector<std::vector<int64_t>> &outputDims, const aclDataBuffer *const inputs[],
                     aclDataBuffer *const outputs[], aclrtStream stream, const char *caller);

}  // namespace aclcpu
