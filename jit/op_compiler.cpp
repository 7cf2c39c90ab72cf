// Orchestrates one compile: module, pipeline (with ACLCPU_DUMP_DIR dumps), LLVM IR, object,
// load. All diagnostics are collected into the error string; nothing aborts.
#include "op_compiler.h"

#include "object_emitter.h"
#include "op_module_builder.h"

#include "aclop/AclopDialect.h"
#include "aclop/AclopOps.h"
#include "aclop/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <type_traits>
#include <unordered_map>
#include <variant>

namespace aclcpu {
namespace {

constexpr const char *kKernelName = "aclop_kernel";

const mlir::DialectRegistry &compilerRegistry() {
  static mlir::DialectRegistry *registry = [] {
    auto *dialects = new mlir::DialectRegistry();
    mlir::registerAllDialects(*dialects);
    mlir::registerAllExtensions(*dialects);
    mlir::registerAllToLLVMIRTranslations(*dialects);
    dialects->insert<mlir::aclop::AclopDialect>();
    // The pipeline is assembled from registered pass names.
    mlir::registerAllPasses();
    mlir::aclop::registerAclopPasses();
    return dialects;
  }();
  return *registry;
}

// A context per compile: compiles of different ops run concurrently without sharing one.
struct CompilerContext {
  mlir::MLIRContext context{compilerRegistry(), mlir::MLIRContext::Threading::DISABLED};
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler{&context, [this](mlir::Diagnostic &diagnostic) {
                                          llvm::raw_string_ostream out(diagnostics);
                                          if (!diagnostics.empty()) out << "\n";
                                          out << diagnostic;
                                          for (auto &note : diagnostic.getNotes()) out << "\n  note: " << note;
                                          return mlir::success();
                                        }};
  // Only the dialects the operator's module is built from: each pass loads the dialects it
  // creates ops in (its dependentDialects) when the pipeline starts. Loading every registered
  // dialect instead costs ~6 ms per context.
  CompilerContext() {
    context.loadDialect<mlir::func::FuncDialect, mlir::bufferization::BufferizationDialect,
                        mlir::aclop::AclopDialect>();
  }
};

std::string describe(const OpSpec &spec) {
  std::string text = spec.op + "(";
  for (size_t i = 0; i < spec.inputs.size(); ++i) {
    text += i ? ", " : "";
    for (int64_t d : spec.inputs[i].shape) text += (d < 0 ? std::string("?") : std::to_string(d)) + "x";
    text += elementTypeName(spec.inputs[i].type);
  }
  return text + ")";
}

// ACLCPU_DUMP_DIR/<n>-<op>: input.mlir, each pass's IR, the LLVM IR before and after -O3, the object.
struct Dump {
  std::string prefix;
  explicit Dump(const CompileOptions &options, const OpSpec &spec) {
    std::string dir = options.dumpDir;
    if (dir.empty())
      if (const char *env = getenv("ACLCPU_DUMP_DIR")) dir = env;
    if (dir.empty()) return;
    static std::atomic<int> counter{0};
    llvm::sys::fs::create_directories(dir);
    prefix = dir + "/" + std::to_string(++counter) + "-" + spec.op;
  }
  bool enabled() const { return !prefix.empty(); }
  void write(const std::string &suffix, llvm::function_ref<void(llvm::raw_ostream &)> print) const {
    if (!enabled()) return;
    std::error_code ec;
    llvm::raw_fd_ostream out(prefix + suffix, ec);
    if (!ec) print(out);
  }
};

}  // namespace

const std::string &compilerFingerprint() {
  static const std::string fingerprint = [] {
    const HostTarget &host = hostTarget();
    // Bump the aclcpu part whenever the pipeline changes the code it emits.
    return std::string("aclcpu-jit-22;llvm-") + LLVM_VERSION_STRING + ";" + host.triple + ";" + host.cpu + ";" +
           host.features + ";ukernels=" + llvm::join(host.ukernels, ",");
  }();
  return fingerprint;
}

std::unique_ptr<CompiledKernel> loadCompiledObject(std::vector<char> object, std::vector<TensorSpec> outputs,
                                                   LaunchRecipe launch, std::string &error) {
  ElfImage image;
  const auto *bytes = reinterpret_cast<const uint8_t *>(object.data());
  std::string problem = inspectElf(bytes, object.size(), image);
  BinaryLoader *loader = problem.empty() ? binaryLoaderFor(image.kind) : nullptr;
  if (loader == nullptr) {
    error = "the kernel object does not load: " + problem;
    return nullptr;
  }
  auto kernel = std::make_unique<CompiledKernel>();
  kernel->binary = loader->load(bytes, object.size(), image, /*lazy=*/false, problem);
  if (!kernel->binary) {
    error = "linking the kernel failed: " + problem;
    return nullptr;
  }
  kernel->entry = reinterpret_cast<aclcpuKernelEntry>(kernel->binary->lookup(kKernelName, problem));
  if (kernel->entry == nullptr) {
    error = "the kernel entry is missing: " + problem;
    return nullptr;
  }
  kernel->outputs = std::move(outputs);
  kernel->launch = launch;
  kernel->object = std::move(object);
  return kernel;
}

namespace {

// Everything inference reads from a spec, as text: the memo's key.
std::string inferenceKey(const OpSpec &spec) {
  std::string key = spec.op;
  for (const TensorSpec &input : spec.inputs) {
    key += "|" + std::to_string(static_cast<int>(input.type));
    for (int64_t d : input.shape) key += "," + std::to_string(d);
  }
  for (const auto &[name, value] : spec.attributes) {
    key += "|" + name + "=" + std::to_string(value.index()) + ":";
    std::visit(
        [&](const auto &v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, std::string>) {
            key += std::to_string(v.size()) + ":" + v;
          } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
            for (int64_t x : v) key += std::to_string(x) + ",";
          } else if constexpr (std::is_same_v<T, TypeValue>) {
            key += std::to_string(static_cast<int>(v.type));
          } else if constexpr (std::is_same_v<T, double>) {
            uint64_t bits;
            std::memcpy(&bits, &v, sizeof bits);
            key += std::to_string(bits);
          } else {
            key += std::to_string(v);
          }
        },
        value);
  }
  return key;
}

// Inference is pure in the spec but costs a context (milliseconds), and dynamic models infer on
// every aclopExecuteV2: remember recent answers, failures included.
struct InferenceResult {
  bool ok;
  std::vector<TensorSpec> outputs;
  std::string error;
};

class InferenceMemo {
 public:
  static constexpr size_t kCapacity = 4096;

  bool lookup(const std::string &key, InferenceResult &result) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(key);
    if (it == entries_.end()) return false;
    result = it->second;
    return true;
  }
  void insert(const std::string &key, InferenceResult result) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (entries_.size() >= kCapacity) entries_.clear();  // shapes in use are re-learned in one call each
    entries_.emplace(key, std::move(result));
  }

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, InferenceResult> entries_;
};

InferenceMemo &inferenceMemo() {
  static auto *memo = new InferenceMemo();  // leaked: used from finalize hooks and exit paths
  return *memo;
}

}  // namespace

bool inferOutputs(const OpSpec &spec, std::vector<TensorSpec> &outputs, std::string &error) {
  std::string key = inferenceKey(spec);
  InferenceResult result;
  if (!inferenceMemo().lookup(key, result)) {
    CompilerContext compiler;
    result.ok = static_cast<bool>(buildOpModule(compiler.context, spec, kKernelName, result.outputs));
    if (!result.ok) result.error = describe(spec) + ": " + compiler.diagnostics;
    inferenceMemo().insert(key, result);
  }
  outputs = std::move(result.outputs);
  error = std::move(result.error);
  return result.ok;
}

OperandBroadcasting operandBroadcasting(const std::string &name) {
  // Read once from the registered ops: a new op that broadcasts declares it where it is defined.
  static const auto *kinds = [] {
    auto *table = new std::unordered_map<std::string, OperandBroadcasting>();  // leaked: used on exit paths
    mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);  // the dialect alone: quick
    context.loadDialect<mlir::aclop::AclopDialect>();
    for (mlir::RegisteredOperationName op : context.getRegisteredOperations()) {
      if (op.getDialectNamespace() != mlir::aclop::AclopDialect::getDialectNamespace()) continue;
      OperandBroadcasting kind = op.hasTrait<mlir::aclop::BroadcastsOperands>() ? OperandBroadcasting::Elementwise
                                 : op.hasTrait<mlir::aclop::BroadcastsBatch>()  ? OperandBroadcasting::Batch
                                                                                : OperandBroadcasting::None;
      table->emplace(op.stripDialect().str(), kind);
    }
    return table;
  }();
  auto found = kinds->find(name);
  return found == kinds->end() ? OperandBroadcasting::None : found->second;
}

std::unique_ptr<CompiledKernel> compileOp(const OpSpec &spec, const CompileOptions &options, std::string &error) {
  auto start = std::chrono::steady_clock::now();
  CompilerContext compiler;
  auto kernel = std::make_unique<CompiledKernel>();
  auto fail = [&](const std::string &stage) -> std::unique_ptr<CompiledKernel> {
    error = describe(spec) + ": " + stage + (compiler.diagnostics.empty() ? "" : ": " + compiler.diagnostics);
    return nullptr;
  };
  mlir::OwningOpRef<mlir::ModuleOp> module = buildOpModule(compiler.context, spec, kKernelName, kernel->outputs);
  if (!module) return fail("invalid operator");
  Dump dump(options, spec);
  dump.write(".input.mlir", [&](llvm::raw_ostream &out) { module->print(out); });

  mlir::PassManager pm(&compiler.context);
  mlir::aclop::AclopToLlvmOptions pipeline;
  pipeline.vectorBits = options.vectorBits > 0 ? options.vectorBits : hostTarget().vectorBits;
  pipeline.ukernels = hostTarget().ukernels;
  pipeline.streamStores = hostTarget().streamStores;
  pipeline.fastBf16 = hostTarget().fastBf16;
  std::string pipelineErrors;
  llvm::raw_string_ostream pipelineStream(pipelineErrors);
  if (failed(mlir::aclop::buildAclopToLlvmPipeline(pm, pipeline, pipelineStream))) return fail(pipelineErrors);
  std::unique_ptr<llvm::raw_fd_ostream> passDump;
  if (dump.enabled()) {
    std::error_code ec;
    passDump = std::make_unique<llvm::raw_fd_ostream>(dump.prefix + ".passes.mlir", ec);
    if (!ec)
      pm.enableIRPrinting([](mlir::Pass *, mlir::Operation *) { return false; },
                          [](mlir::Pass *, mlir::Operation *) { return true; }, /*printModuleScope=*/true,
                          /*printAfterOnlyOnChange=*/true, /*printAfterOnlyOnFailure=*/false, *passDump);
  }
  if (failed(pm.run(*module))) return fail("lowering failed");
  auto partitioned = (*module)->getAttrOfType<mlir::DictionaryAttr>("aclop.partitioned");
  kernel->launch.partitioned = partitioned && partitioned.getAs<mlir::BoolAttr>(kKernelName) &&
                               partitioned.getAs<mlir::BoolAttr>(kKernelName).getValue();
  // The rest of the recipe, where aclop-map-to-kernel-abi recorded it for this kernel.
  auto recorded = [&](llvm::StringRef name, uint32_t &field, uint32_t most) {
    auto perKernel = (*module)->getAttrOfType<mlir::DictionaryAttr>(name);
    if (auto value = perKernel ? perKernel.getAs<mlir::IntegerAttr>(kKernelName) : mlir::IntegerAttr())
      field = static_cast<uint32_t>(std::clamp<int64_t>(value.getInt(), 1, most));
  };
  recorded("aclop.blocks_per_worker", kernel->launch.blocksPerWorker, LaunchRecipe::kMaxBlocksPerWorker);
  recorded("aclop.work_per_element", kernel->launch.workPerElement, LaunchRecipe::kMaxWorkPerElement);
  auto depths = (*module)->getAttrOfType<mlir::DictionaryAttr>("aclop.work_depth");
  auto depth = depths ? depths.getAs<mlir::DenseI64ArrayAttr>(kKernelName) : mlir::DenseI64ArrayAttr();
  if (depth && depth.size() == 3 && depth[0] >= 0 && LaunchRecipe::validWorkDepth(depth[0], depth[1], depth[2])) {
    kernel->launch.depthInput = static_cast<int32_t>(depth[0]);
    kernel->launch.depthDim = static_cast<uint32_t>(depth[1]);
    kernel->launch.depthLanes = static_cast<uint32_t>(depth[2]);
  }

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule = mlir::translateModuleToLLVMIR(*module, llvmContext, "aclop");
  if (!llvmModule) return fail("translation to LLVM IR failed");
  dump.write(".ll", [&](llvm::raw_ostream &out) { llvmModule->print(out, nullptr); });
  llvm::SmallVector<char, 0> object;
  std::string emitError;
  if (!emitHostObject(*llvmModule, object, emitError)) return fail(emitError);
  dump.write(".opt.ll", [&](llvm::raw_ostream &out) { llvmModule->print(out, nullptr); });
  dump.write(".o", [&](llvm::raw_ostream &out) { out.write(object.data(), object.size()); });

  std::string problem;
  std::unique_ptr<CompiledKernel> linked =
      loadCompiledObject(std::vector<char>(object.begin(), object.end()), kernel->outputs, kernel->launch, problem);
  if (!linked) return fail(problem);
  kernel = std::move(linked);
  kernel->compileMilliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return kernel;
}

}  // namespace aclcpu
