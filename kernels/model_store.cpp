// The model store and the launch of compiled operators.
#include "model_store.h"

#include "diagnostics.h"
#include "model_file.h"
#include "kernel_launch.h"
#include "memory_checks.h"
#include "op_definitions.h"
#include "runtime_state.h"
#include "ukernels/const_panels.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace aclcpu {
namespace {

size_t cacheCapacity() {
  const char *text = getenv("ACLCPU_OP_CACHE_CAPACITY");
  long value = text ? strtol(text, nullptr, 10) : 0;
  return value > 0 ? static_cast<size_t>(value) : 512;
}

std::string dimsText(const std::vector<int64_t> &dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i) text += (i ? "," : "") + std::to_string(dims[i]);
  return text + "]";
}

// Why `model` does not serve `request` ("" if it does).
std::string difference(const ResolvedRequest &model, const ResolvedRequest &request) {
  if (model.opType != request.opType) return "op type " + model.opType;
  if (model.inputs.size() != request.inputs.size()) return "input count " + std::to_string(model.inputs.size());
  if (model.attributes != request.attributes) return "attributes";
  for (int side = 0; side < 2; ++side) {
    const auto &have = side ? model.outputs : model.inputs;
    const auto &want = side ? request.outputs : request.inputs;
    const char *what = side ? "output" : "input";
    for (size_t i = 0; i < have.size(); ++i) {
      std::string which = std::string(what) + " " + std::to_string(i);
      if (have[i].present != want[i].present) return which + " presence";
      if (!have[i].present) continue;
      if (have[i].dataType != want[i].dataType)
        return which + " data type " + std::to_string(want[i].dataType) + " vs " + std::to_string(have[i].dataType);
      if (have[i].format != want[i].format)
        return which + " format " + std::to_string(want[i].format) + " vs " + std::to_string(have[i].format);
      // A request may leave its output shapes to inference (unknown rank or -1 dims).
      if (side && want[i].unknownRank) continue;
      if (have[i].dims.size() != want[i].dims.size())
        return which + " rank " + dimsText(want[i].dims) + " vs " + dimsText(have[i].dims);
      for (size_t d = 0; d < have[i].dims.size(); ++d) {
        int64_t dim = want[i].dims[d], lo = have[i].ranges[d][0], hi = have[i].ranges[d][1];
        if (side && dim < 0) continue;
        bool fits = have[i].dims[d] < 0 ? dim >= lo && (hi < 0 || dim <= hi) : dim == have[i].dims[d];
        if (!fits) return which + " dims " + dimsText(want[i].dims) + " vs " + dimsText(have[i].dims);
      }
      if (!sameValues(have[i].constValues, want[i].constValues)) return which + " const data";
    }
  }
  return "";
}

}  // namespace

std::string outputMismatch(const ResolvedRequest &request, const std::vector<TensorSpec> &outputs) {
  if (outputs.size() != request.outputs.size())
    return request.opType + " is given " + std::to_string(request.outputs.size()) + " outputs, but the operator produces " +
           std::to_string(outputs.size());
  for (size_t i = 0; i < outputs.size() && i < request.outputs.size(); ++i) {
    const ResolvedTensor &want = request.outputs[i];
    bool sameType = toAclDataType(outputs[i].type) == want.dataType;
    bool sameRank = want.unknownRank || outputs[i].shape.size() == want.dims.size();
    bool sameDims = sameRank;
    for (size_t d = 0; sameRank && !want.unknownRank && d < want.dims.size(); ++d)
      if (want.dims[d] >= 0 && outputs[i].shape[d] >= 0 && want.dims[d] != outputs[i].shape[d]) sameDims = false;
    if (!sameType || !sameDims)
      return request.opType + " output " + std::to_string(i) + " is described as data type " +
             std::to_string(want.dataType) + " dims " + dimsText(want.dims) + ", but the operator produces data type " +
             std::to_string(toAclDataType(outputs[i].type)) + " dims " + dimsText(outputs[i].shape);
  }
  return "";
}

namespace {

// ACLCPU_CACHE_DIR/<hash of fingerprint and signature>.om, or "" when the cache is off.
std::string diskCachePath(const std::string &signature) {
  const char *dir = getenv("ACLCPU_CACHE_DIR");
  if (dir == nullptr || *dir == '\0') return "";
  std::string identity = compilerFingerprint() + "\n" + signature;
  char name[32];
  snprintf(name, sizeof(name), "%016llx.om", static_cast<unsigned long long>(fnv1a64(identity.data(), identity.size())));
  return std::string(dir) + "/" + name;
}

std::unique_ptr<CompiledKernel> loadFromDisk(const std::string &path, const std::string &signature) {
  std::vector<char> bytes;
  if (!readFileBytes(path, bytes)) return nullptr;
  ModelFile file;
  std::string error;
  if (!readModelFile(bytes, file, error) || file.fingerprint != compilerFingerprint() || file.signature != signature) {
    if (error.empty()) error = "compiled for another compiler, CPU or operator";
    ACLCPU_LOG_WARNING("ignoring cached model %s: %s; recompiling", path.c_str(), error.c_str());
    return nullptr;
  }
  std::unique_ptr<CompiledKernel> kernel =
      loadCompiledObject(std::move(file.object), std::move(file.outputs), file.launch, error);
  if (!kernel) ACLCPU_LOG_WARNING("ignoring cached model %s: %s; recompiling", path.c_str(), error.c_str());
  return kernel;
}

void saveToDisk(const std::string &path, const std::string &signature, const CompiledKernel &kernel) {
  std::vector<char> bytes = writeModelFile({compilerFingerprint(), signature, kernel.launch, kernel.outputs,
                                            kernel.object, hostTarget().triple, hostTarget().features, ""});
  if (!writeFileAtomically(path, bytes)) ACLCPU_LOG_WARNING("cannot write the model cache file %s", path.c_str());
}

// A compiled kernel never broadcasts along a dynamic dim (it assumes the operands agree there):
// a request that would is refused, or the kernel would read past the smaller operand. Which ops
// broadcast is the dialect's to say (its ops' traits: operandBroadcasting).
aclError checkNoDynamicBroadcast(const ResolvedRequest &request, const std::vector<std::vector<int64_t>> &inputDims,
                                 const std::vector<int64_t> &outputDims, const char *caller) {
  const OperandBroadcasting broadcasting = operandBroadcasting(request.spec.op);
  if (broadcasting == OperandBroadcasting::None) return ACL_SUCCESS;
  bool batchOnly = broadcasting == OperandBroadcasting::Batch;
  size_t operands = batchOnly ? 2 : request.spec.inputs.size();  // a bias never broadcasts
  for (size_t k = 0; k < operands; ++k) {
    const std::vector<int64_t> &compiled = request.spec.inputs[k].shape;
    const std::vector<int64_t> &actual = inputDims[request.kernelInputs[k]];
    size_t offset = outputDims.size() - compiled.size();
    for (size_t d = 0; d < (batchOnly ? std::min<size_t>(1, compiled.size()) : compiled.size()); ++d)
      if (compiled[d] < 0 && actual[d] != outputDims[batchOnly ? 0 : d + offset])
        return reportError(ACL_ERROR_INVALID_PARAM, caller,
                           "%s input %zu dim %zu is %lld but the output's is %lld: the model compiled this dim as "
                           "dynamic, and a dynamic dim never broadcasts (compile with that dim as 1 to broadcast)",
                           request.opType.c_str(), k, d, static_cast<long long>(actual[d]),
                           static_cast<long long>(outputDims[batchOnly ? 0 : d + offset]));
  }
  return ACL_SUCCESS;
}

// One of a kernel's buffers, as a launch checks it.
struct LaunchSlot {
  int64_t elements = 0;
  size_t bytes = 0;
};

// A buffer of `elements` elements of `type`. A count that overflowed (-1, knownElementCount), or
// one whose bytes would, needs the most bytes there are: no buffer holds it.
LaunchSlot launchSlot(int64_t elements, aclDataType type) {
  size_t bytes = SIZE_MAX;
  if (elements < 0 || __builtin_mul_overflow(static_cast<size_t>(elements), aclDataTypeSize(type), &bytes))
    bytes = SIZE_MAX;
  return LaunchSlot{elements, bytes};
}

// Each buffer must hold its tensor (`bytes`): no kernel ever writes past a buffer.
aclError checkBuffer(const aclDataBuffer *buffer, size_t bytes, const char *what, size_t index, const char *caller) {
  if (buffer == nullptr) return reportError(ACL_ERROR_INVALID_PARAM, caller, "%s %zu is NULL", what, index);
  if (bytes > 0 && (buffer->data == nullptr || buffer->size < bytes))
    return reportError(ACL_ERROR_INVALID_PARAM, caller, "%s %zu holds %zu bytes at %p; the tensor needs %zu", what,
                       index, buffer->size, buffer->data, bytes);
  return ACL_SUCCESS;
}

// The most elements (inputs and outputs together) a launch may touch to run on the enqueuing
// thread (Stream::runIfIdle).
constexpr int64_t kRunOnCallerElements = 32768;

// Runs `model`'s kernel over the argument block `raw` (`words` 8-byte words): a launch over at
// most 32K elements (a 64^3 GEMM, a small element-wise op) runs on the enqueuing thread when it
// is one block and its stream is idle: handing it to a worker and back cost more than the
// kernel (1-element Add, enqueue + synchronize: 1.6 -> 0.45 µs); with one usable core, so does
// every launch (launchesOnCaller). It runs from the caller's frame: the arguments are `raw`,
// and the caller holds the model, so nothing is copied or reference-counted. Anything else is
// copied into a task and enqueued.
aclError runOrEnqueue(const Model &model, aclcpuKernelEntry entry, uint32_t numBlocks, uint32_t threads,
                      int64_t touched, Stream &stream, const uint64_t *raw, size_t words, const char *caller) {
  if (launchesOnCaller(stream, touched <= kRunOnCallerElements && numBlocks == 1)) {
    KernelCall call{entry, raw, numBlocks, 0, model.request.opType.c_str(), threads};
    if (stream.runIfIdle([&](Stream &idle) { runKernelCall(idle, call); })) return ACL_SUCCESS;
  }
  ArgBlock args;
  if (aclError error = copyRawArgs(raw, 8 * words, args, caller)) return error;
  KernelLaunch launch;
  launch.entry = entry;
  launch.kernelName = model.request.opType;
  // A model with constant inputs: the launch reads their values from the model.
  launch.keepAlive = model.constOperands.empty() ? std::shared_ptr<const void>(model.kernel)
                                                 : std::shared_ptr<const void>(model.shared_from_this());
  launch.args = std::move(args);
  launch.numBlocks = numBlocks;
  launch.scratchBytes = 0;
  launch.threads = threads;
  stream.enqueue(makeKernelLaunchTask(std::move(launch)));
  return ACL_SUCCESS;
}

// launchModel for a model with a StaticLaunch: its buffers' pointers are the whole argument
// block. The same checks and messages as the general path, reading only `plan`.
aclError launchStatic(const Model &model, const StaticLaunch &plan, const aclDataBuffer *const inputs[],
                      aclDataBuffer *const outputs[], Stream &stream, const char *caller) {
  uint64_t raw[StaticLaunch::kMaxBuffers];
  DeviceRange ranges[StaticLaunch::kMaxBuffers];  // each buffer's bytes, checked against its allocation
  size_t numRanges = 0;
  for (uint32_t i = 0; i < plan.numBuffers; ++i) {
    const bool isInput = i < plan.numInputs;
    const aclDataBuffer *buffer = isInput ? inputs[plan.index[i]] : outputs[plan.index[i]];
    const char *what = isInput ? "input buffer" : "output buffer";
    if (aclError error = checkBuffer(buffer, plan.bytes[i], what, plan.index[i], caller)) return error;
    if (plan.bytes[i] > 0) ranges[numRanges++] = DeviceRange{buffer->data, plan.bytes[i], what, size_t(plan.index[i])};
    raw[i] = reinterpret_cast<uintptr_t>(plan.constData[i] ? plan.constData[i] : buffer->data);
  }
  if (aclError error = checkDeviceRanges(ranges, numRanges, caller)) return error;
  const unsigned threads = launchThreads(stream, model.cores);
  return runOrEnqueue(model, plan.entry, launchBlockCount(plan.launch, plan.outputs, threads), threads, plan.touched,
                      stream, raw, plan.numBuffers, caller);
}

}  // namespace

uint32_t launchBlockCount(const LaunchRecipe &recipe, int64_t outputs, unsigned workers, int64_t depth) {
  if (!recipe.partitioned) return 1;
  int64_t most = int64_t(recipe.blocksPerWorker) * std::max(1u, workers);
  int64_t work = recipe.workPerElement;
  if (recipe.depthInput >= 0 && depth > 0)
    work = std::clamp<int64_t>((depth + recipe.depthLanes - 1) / recipe.depthLanes, 1,
                               LaunchRecipe::kMaxWorkPerElement);
  return static_cast<uint32_t>(std::clamp<int64_t>(outputs * work / 16384, 1, most));
}

// Never destroyed: compiled kernels must be released while LLVM is alive, which aclFinalize
// does (below); a process that exits without it just leaves them.
ModelStore &modelStore() {
  static ModelStore *store = new ModelStore();
  return *store;
}

namespace {
const bool releaseAtFinalize = (registerFinalizeHook([] { modelStore().clear(); }), true);
}  // namespace

aclError buildKernel(const ResolvedRequest &request, std::unique_ptr<CompiledKernel> &kernel, const char *caller) {
  // Inference gives the outputs before any compile work, so a wrong output description fails fast.
  std::string error;
  std::vector<TensorSpec> outputs;
  if (!inferOutputs(request.spec, outputs, error))
    return reportError(ACL_ERROR_INVALID_PARAM, caller, "%s: %s", request.opType.c_str(), error.c_str());
  std::string mismatch = outputMismatch(request, outputs);
  if (!mismatch.empty()) return reportError(ACL_ERROR_OP_OUTPUT_NOT_MATCH, caller, "%s", mismatch.c_str());
  kernel = compileOp(request.spec, CompileOptions{}, error);
  if (!kernel)
    return reportError(ACL_ERROR_INTERNAL_ERROR, caller, "compiling %s failed: %s", request.opType.c_str(), error.c_str());
  return ACL_SUCCESS;
}

void ModelStore::addLoaded(std::shared_ptr<Model> model) {
  std::lock_guard<std::mutex> lock(mutex_);
  loaded_[model->request.signature()] = std::move(model);
  generation_.fetch_add(1, std::memory_order_acq_rel);
}

size_t ModelStore::loadedModels() {
  std::lock_guard<std::mutex> lock(mutex_);
  return loaded_.size();
}

void ModelStore::insertLocked(const std::string &key, std::shared_ptr<Model> model) {
  recency_.push_front(key);
  models_[key] = Entry{std::move(model), recency_.begin()};
  generation_.fetch_add(1, std::memory_order_acq_rel);
  while (models_.size() > cacheCapacity()) {
    auto victim = models_.find(recency_.back());
    if (victim->second.model->usedUnseen.exchange(false)) {  // used since it was last ordered
      recency_.splice(recency_.begin(), recency_, victim->second.recency);
      continue;
    }
    models_.erase(victim);
    recency_.pop_back();
  }
}

aclError ModelStore::compile(const ResolvedRequest &request, std::shared_ptr<Model> &out, const char *caller) {
  std::string key = request.signature();
  {
    std::unique_lock<std::mutex> lock(mutex_);
    if (auto loaded = loaded_.find(key); loaded != loaded_.end()) {
      out = loaded->second;
      return ACL_SUCCESS;
    }
    for (;;) {
      auto it = models_.find(key);
      if (it != models_.end()) {
        recency_.splice(recency_.begin(), recency_, it->second.recency);
        out = it->second.model;
        return ACL_SUCCESS;
      }
      if (!inFlight_.count(key)) break;
      compiled_.wait(lock);  // another thread compiles this signature: wait for its result
    }
    inFlight_[key] = true;
  }
  auto finish = [&](std::shared_ptr<Model> model) {
    std::lock_guard<std::mutex> lock(mutex_);
    inFlight_.erase(key);
    if (model) insertLocked(key, std::move(model));
    compiled_.notify_all();
  };
  // A disk-cached kernel knows its outputs; one that disagrees with its own signature is not
  // trusted.
  std::string cachePath = diskCachePath(key);
  std::unique_ptr<CompiledKernel> kernel = cachePath.empty() ? nullptr : loadFromDisk(cachePath, key);
  if (kernel && !outputMismatch(request, kernel->outputs).empty()) kernel.reset();
  if (kernel) {
    diskHits_.fetch_add(1);
  } else {
    if (aclError error = buildKernel(request, kernel, caller)) {
      finish(nullptr);
      return error;
    }
    compilations_.fetch_add(1);
    if (!cachePath.empty()) saveToDisk(cachePath, key, *kernel);
  }
  std::shared_ptr<Model> model = makeModel(request, std::move(kernel));
  out = model;
  finish(model);
  return ACL_SUCCESS;
}

std::shared_ptr<Model> ModelStore::find(const ResolvedRequest &request, std::string &mismatch) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string key = request.signature();
  if (auto loaded = loaded_.find(key); loaded != loaded_.end()) return loaded->second;
  auto exact = models_.find(key);
  if (exact != models_.end()) {
    recency_.splice(recency_.begin(), recency_, exact->second.recency);
    return exact->second.model;
  }
  std::string closest;
  for (auto &[signature, model] : loaded_) {
    if (model->request.opType != request.opType) continue;
    std::string why = difference(model->request, request);
    if (why.empty()) return model;
    if (closest.empty()) closest = why;
  }
  for (auto &[signature, entry] : models_) {
    const ResolvedRequest &model = entry.model->request;
    if (model.opType != request.opType) continue;
    std::string why = difference(model, request);
    if (why.empty()) {  // dims within a dynamic model's ranges, or outputs left to inference
      recency_.splice(recency_.begin(), recency_, entry.recency);
      return entry.model;
    }
    if (closest.empty()) closest = why;
  }
  mismatch = closest.empty() ? "no model of operator type " + request.opType + " was compiled or loaded"
                             : "the " + request.opType + " models differ (" + closest + ")";
  return nullptr;
}

void ModelStore::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  models_.clear();
  recency_.clear();
  loaded_.clear();
  generation_.fetch_add(1, std::memory_order_acq_rel);
}

Model::~Model() = default;

std::shared_ptr<Model> makeModel(ResolvedRequest request, std::shared_ptr<CompiledKernel> kernel) {
  auto model = std::make_shared<Model>();
  model->request = std::move(request);
  model->kernel = std::move(kernel);
  const OpDefinition *definition = findOpDefinition(model->request.opType);
  model->cores = definition != nullptr && definition->onCubeCores ? CoreKind::Cube : CoreKind::Vector;
  const ResolvedRequest &resolved = model->request;
  const CompiledKernel &compiled = *model->kernel;
  model->constInputs.assign(resolved.inputs.size(), nullptr);
  for (size_t k = 0; k < resolved.kernelInputs.size(); ++k) {
    const ResolvedTensor &input = resolved.inputs[resolved.kernelInputs[k]];
    const TensorSpec &spec = resolved.spec.inputs[k];
    if (!input.constValues || input.constValues->size() == 0 || !spec.isStatic() ||
        input.constValues->size() != launchSlot(spec.elementCount(), input.dataType).bytes)
      continue;
    const void *values = input.constValues->data();
    model->constOperands.push_back(std::make_unique<ConstOperand>(values, int64_t(input.constValues->size())));
    model->constInputs[resolved.kernelInputs[k]] = values;
  }
  StaticLaunch plan;
  plan.entry = compiled.entry;
  plan.launch = compiled.launch;
  plan.numInputs = static_cast<uint32_t>(resolved.kernelInputs.size());
  auto add = [&](const TensorSpec &spec, aclDataType type, int32_t index) {
    if (!spec.isStatic() || plan.numBuffers == StaticLaunch::kMaxBuffers) return false;
    LaunchSlot slot = launchSlot(spec.elementCount(), type);
    plan.touched += slot.elements;
    plan.index[plan.numBuffers] = index;
    plan.bytes[plan.numBuffers++] = slot.bytes;
    return true;
  };
  auto addInput = [&](const TensorSpec &spec, aclDataType type, int32_t index) {
    if (!add(spec, type, index)) return false;
    plan.constData[plan.numBuffers - 1] = model->constInputs[index];
    return true;
  };
  bool isStatic = true;
  for (size_t k = 0; k < resolved.kernelInputs.size() && isStatic; ++k) {
    int index = resolved.kernelInputs[k];
    isStatic = addInput(resolved.spec.inputs[k], resolved.inputs[index].dataType, index);
  }
  for (size_t i = 0; i < compiled.outputs.size() && isStatic; ++i)
    isStatic = add(compiled.outputs[i], resolved.outputs[i].dataType, static_cast<int32_t>(i));
  if (isStatic) {
    plan.outputs = 0;  // the launch's work: every output's elements (a split's pieces together)
    for (const TensorSpec &output : compiled.outputs) plan.outputs += output.elementCount();
  }
  if (isStatic) model->staticLaunch = plan;
  return model;
}

namespace {

// launchModel for a model with dynamic dims. Out of line: its argument block (dynamic sizes
// included) takes an 8 KiB frame, which the static path need not touch.
__attribute__((noinline)) aclError launchDynamic(const Model &model, const std::vector<std::vector<int64_t>> &inputDims,
                                                 const std::vector<std::vector<int64_t>> &outputDims,
                                                 const aclDataBuffer *const inputs[], aclDataBuffer *const outputs[],
                                                 Stream *resolved, const char *caller) {
  const ResolvedRequest &request = model.request;
  const CompiledKernel &kernel = *model.kernel;
  if (!outputDims.empty())
    if (aclError error = checkNoDynamicBroadcast(request, inputDims, outputDims[0], caller)) return error;
  // The argument block: pointers, then dynamic sizes, built on the stack (the block and the
  // task come from recyclers).
  constexpr size_t kMaxPointers = kMaxListTensors + 8, kMaxDynamicSizes = 256;  // a list and the rest
  uint64_t raw[kMaxPointers + kMaxDynamicSizes];
  DeviceRange ranges[kMaxPointers];  // each buffer's bytes, checked against its allocation
  int64_t dynamicSizes[kMaxDynamicSizes];
  size_t numPointers = 0, numDynamicSizes = 0, numRanges = 0;
  int64_t touched = 0;  // elements of every tensor: how long the launch will take, roughly
  // A buffer (`slot` its size) and the values of its dynamic dims (`compiled`: its dims as
  // compiled, `actual`: as given).
  auto add = [&](const aclDataBuffer *buffer, LaunchSlot slot, const std::vector<int64_t> &compiled,
                 const std::vector<int64_t> &actual, const char *what, size_t index) -> aclError {
    touched += slot.elements;
    if (aclError error = checkBuffer(buffer, slot.bytes, what, index, caller)) return error;
    if (numPointers == kMaxPointers)
      return reportError(ACL_ERROR_INVALID_PARAM, caller, "more than %zu tensors", kMaxPointers);
    if (slot.bytes > 0) ranges[numRanges++] = DeviceRange{buffer->data, slot.bytes, what, index};
    raw[numPointers++] = reinterpret_cast<uintptr_t>(buffer->data);
    for (size_t d = 0; d < compiled.size(); ++d) {
      if (compiled[d] >= 0) continue;
      if (numDynamicSizes == kMaxDynamicSizes)
        return reportError(ACL_ERROR_INVALID_PARAM, caller, "more than %zu dynamic dims", kMaxDynamicSizes);
      dynamicSizes[numDynamicSizes++] = actual[d];
    }
    return ACL_SUCCESS;
  };
  for (size_t k = 0; k < request.kernelInputs.size(); ++k) {
    int index = request.kernelInputs[k];
    LaunchSlot slot = launchSlot(knownElementCount(inputDims[index]), request.inputs[index].dataType);
    if (aclError error = add(inputs[index], slot, request.spec.inputs[k].shape, inputDims[index], "input buffer", index))
      return error;
    if (const void *values = model.constInputs[index]) raw[numPointers - 1] = reinterpret_cast<uintptr_t>(values);
  }
  for (size_t i = 0; i < kernel.outputs.size(); ++i)
    if (aclError error = add(outputs[i], launchSlot(knownElementCount(outputDims[i]), request.outputs[i].dataType),
                             kernel.outputs[i].shape, outputDims[i], "output buffer", i))
      return error;
  // A buffer inside a device allocation must fit it (checked mode: must lie inside one).
  if (aclError error = checkDeviceRanges(ranges, numRanges, caller)) return error;
  memcpy(raw + numPointers, dynamicSizes, 8 * numDynamicSizes);
  int64_t outputElements = outputDims.empty() ? 1 : 0;
  for (const std::vector<int64_t> &dims : outputDims) outputElements += knownElementCount(dims);
  int64_t depth = 0;  // a product's dynamic depth, where the recipe says which input dim holds it
  if (const LaunchRecipe &recipe = kernel.launch; recipe.depthInput >= 0) {
    size_t input = static_cast<size_t>(recipe.depthInput);
    if (input < request.kernelInputs.size() && recipe.depthDim < inputDims[request.kernelInputs[input]].size())
      depth = inputDims[request.kernelInputs[input]][recipe.depthDim];
  }
  const unsigned threads = launchThreads(*resolved, model.cores);
  uint32_t numBlocks = launchBlockCount(kernel.launch, outputElements, threads, depth);
  return runOrEnqueue(model, kernel.entry, numBlocks, threads, touched, *resolved, raw, numPointers + numDynamicSizes,
                      caller);
}

}  // namespace

aclError launchModel(const Model &model, const std::vector<std::vector<int64_t>> &inputDims,
                     const std::vector<std::vector<int64_t>> &outputDims, const aclDataBuffer *const inputs[],
                     aclDataBuffer *const outputs[], aclrtStream stream, const char *caller) {
  Stream *resolved;
  if (aclError error = borrowStream(stream, resolved, caller)) return error;
  if (model.staticLaunch) return launchStatic(model, *model.staticLaunch, inputs, outputs, *resolved, caller);
  return launchDynamic(model, inputDims, outputDims, inputs, outputs, resolved, caller);
}

}  // namespace aclcpu
