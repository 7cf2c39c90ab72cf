// The model store directly: 8 threads compiling overlapping signatures compile each once
// (counted), the LRU capacity evicts the least recently used model, models in use survive
// eviction, failed compiles are never cached, and a model's kind picks its resource limit.
#include "acl/acl.h"
#include "kernel_launch.h"
#include "model_file.h"
#include "model_store.h"
#include "op_request.h"
#include "runtime_state.h"
#include "../common/temp_files.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

using namespace aclcpu;

namespace {

// A request for Exp over a 1-d tensor of `n` elements of `type`.
ResolvedRequest expRequest(int64_t n, aclDataType type = ACL_FLOAT) {
  aclTensorDesc input, output;
  input.dataType = output.dataType = type;
  input.format = output.format = ACL_FORMAT_ND;
  input.dims = output.dims = {n};
  const aclTensorDesc *inputs[] = {&input};
  const aclTensorDesc *outputs[] = {&output};
  ResolvedRequest request;
  EXPECT_EQ(resolveRequest("Exp", 1, inputs, 1, outputs, nullptr, false, request, "test"), ACL_SUCCESS);
  return request;
}

TEST(ModelStore, ConcurrentCompilesOfOverlappingSignaturesCompileEachOnce) {
  ModelStore store;
  std::vector<ResolvedRequest> requests = {expRequest(11), expRequest(12), expRequest(13)};
  std::vector<std::thread> threads;
  std::vector<std::shared_ptr<Model>> models(8);
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      std::shared_ptr<Model> model;
      for (int round = 0; round < 2; ++round)
        EXPECT_EQ(store.compile(requests[t % 3], model, "test"), ACL_SUCCESS);
      models[t] = model;
    });
  for (auto &thread : threads) thread.join();
  EXPECT_EQ(store.compilations(), 3u) << "one compile per signature";
  for (int t = 0; t < 8; ++t) EXPECT_EQ(models[t], models[t % 3]) << "every thread got the one model";
}

TEST(ModelStore, LeastRecentlyUsedModelIsEvictedAndModelsInUseSurvive) {
  setenv("ACLCPU_OP_CACHE_CAPACITY", "2", 1);
  ModelStore store;
  std::shared_ptr<Model> a, b, c, again;
  ASSERT_EQ(store.compile(expRequest(21), a, "test"), ACL_SUCCESS);
  ASSERT_EQ(store.compile(expRequest(22), b, "test"), ACL_SUCCESS);
  ASSERT_EQ(store.compile(expRequest(21), again, "test"), ACL_SUCCESS);  // a is now the most recent
  EXPECT_EQ(again, a);
  ASSERT_EQ(store.compile(expRequest(23), c, "test"), ACL_SUCCESS);     // evicts b
  std::string mismatch;
  EXPECT_EQ(store.find(expRequest(22), mismatch), nullptr);
  EXPECT_NE(store.find(expRequest(21), mismatch), nullptr);
  EXPECT_NE(store.find(expRequest(23), mismatch), nullptr);
  EXPECT_EQ(store.compilations(), 3u);
  EXPECT_NE(b->kernel->entry, nullptr) << "an evicted model stays usable while held";
  ASSERT_EQ(store.compile(expRequest(22), again, "test"), ACL_SUCCESS);
  EXPECT_EQ(store.compilations(), 4u) << "recompiled after eviction";
  unsetenv("ACLCPU_OP_CACHE_CAPACITY");
}

TEST(ModelStore, FailuresAreNotCached) {
  ModelStore store;
  std::shared_ptr<Model> model;
  for (int i = 0; i < 2; ++i) EXPECT_EQ(store.compile(expRequest(5, ACL_INT32), model, "test"), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(store.compilations(), 0u);
  std::string mismatch;
  EXPECT_EQ(store.find(expRequest(5, ACL_INT32), mismatch), nullptr);
  EXPECT_NE(mismatch.find("no model of operator type Exp"), std::string::npos) << mismatch;
}

}  // namespace

namespace {

// A temporary folder that is the disk cache while it exists.
struct TempDir : TempFolder {
  TempDir() { setenv("ACLCPU_CACHE_DIR", path.c_str(), 1); }
  ~TempDir() { unsetenv("ACLCPU_CACHE_DIR"); }
};

}  // namespace

TEST(DiskCache, ANewProcessLinksCachedModelsWithoutCompiling) {
  TempDir cache;
  std::shared_ptr<Model> first, second;
  {
    ModelStore store;
    ASSERT_EQ(store.compile(expRequest(31), first, "test"), ACL_SUCCESS);
    EXPECT_EQ(store.compilations(), 1u);
  }
  ASSERT_EQ(cache.files().size(), 1u) << "one model file, written atomically (no temp file left)";
  ModelStore fresh;  // as a new process would start
  ASSERT_EQ(fresh.compile(expRequest(31), second, "test"), ACL_SUCCESS);
  EXPECT_EQ(fresh.compilations(), 0u);
  EXPECT_EQ(fresh.diskCacheHits(), 1u);
  EXPECT_EQ(second->kernel->outputs[0].shape, first->kernel->outputs[0].shape);
  EXPECT_EQ(second->kernel->launch.partitioned, first->kernel->launch.partitioned);
  EXPECT_EQ(second->kernel->launch.blocksPerWorker, first->kernel->launch.blocksPerWorker);
  EXPECT_EQ(second->kernel->launch.workPerElement, first->kernel->launch.workPerElement);
  EXPECT_NE(second->kernel->entry, nullptr);
}

TEST(DiskCache, CorruptTruncatedOrForeignFilesAreRecompiledNeverRun) {
  TempDir cache;
  std::shared_ptr<Model> model;
  {
    ModelStore store;
    ASSERT_EQ(store.compile(expRequest(41), model, "test"), ACL_SUCCESS);
  }
  std::string path = cache.files().at(0);
  std::vector<char> good = readBytes(path);
  ModelFile parsed;
  std::string error;
  ASSERT_TRUE(readModelFile(good, parsed, error)) << error;
  std::vector<std::vector<char>> bad;
  auto flipped = good;
  flipped[good.size() / 2] ^= 0x10;  // inside the object: only the checksum can tell
  bad.push_back(flipped);
  bad.push_back(std::vector<char>(good.begin(), good.begin() + good.size() / 3));
  ModelFile foreign = parsed;
  foreign.fingerprint = "another compiler";
  bad.push_back(writeModelFile(foreign));
  ModelFile lying = parsed;  // intact, but its outputs disagree with its own signature
  lying.outputs[0].shape = {99};
  bad.push_back(writeModelFile(lying));
  for (const auto &bytes : bad) {
    writeBytes(path, bytes);
    ModelStore store;
    ASSERT_EQ(store.compile(expRequest(41), model, "test"), ACL_SUCCESS);
    EXPECT_EQ(store.compilations(), 1u) << "recompiled";
    EXPECT_EQ(store.diskCacheHits(), 0u);
    EXPECT_TRUE(readModelFile(readBytes(path), parsed, error)) << "and the file was rewritten: " << error;
  }
}

TEST(ModelFileFormat, EveryByteFlipAndTruncationIsRejected) {
  ModelFile file{"fingerprint", "Exp|in:...", {true, 1, 36}, {{ElementType::F16, {3, -1}}}, std::vector<char>(200, 'x'),
                 "x86_64-unknown-linux-gnu", "+avx2,-avx512f", R"({"op":"Exp"})"};
  std::vector<char> good = writeModelFile(file);
  ModelFile back;
  std::string error;
  ASSERT_TRUE(readModelFile(good, back, error)) << error;
  EXPECT_EQ(back.signature, file.signature);
  EXPECT_TRUE(back.launch.partitioned);
  EXPECT_EQ(back.launch.blocksPerWorker, 1u);
  EXPECT_EQ(back.launch.workPerElement, 36u);
  EXPECT_EQ(back.outputs[0].shape, (std::vector<int64_t>{3, -1}));
  EXPECT_EQ(back.object, file.object);
  EXPECT_EQ(back.triple, file.triple);
  EXPECT_EQ(back.features, file.features);
  EXPECT_EQ(back.description, file.description);
  for (size_t i = 0; i < good.size(); ++i) {
    auto mutated = good;
    mutated[i] ^= 0x01;
    EXPECT_FALSE(readModelFile(mutated, back, error)) << "byte " << i;
  }
  for (size_t length = 0; length < good.size(); ++length)
    EXPECT_FALSE(readModelFile(std::vector<char>(good.begin(), good.begin() + length), back, error)) << length;
}

// A recipe out of range (no work, or more blocks per worker than a launch makes) is a corrupt
// file: rejected, never run with a block count it implies.
TEST(ModelFileFormat, ARecipeOutOfRangeIsRejected) {
  ModelFile file{"fingerprint", "Exp|in:...", {true, 1, 1}, {{ElementType::F32, {4}}}, std::vector<char>(16, 'x'),
                 "x86_64-unknown-linux-gnu", "+avx2", ""};
  ModelFile back;
  std::string error;
  for (LaunchRecipe recipe : {LaunchRecipe{true, 0, 1}, LaunchRecipe{true, LaunchRecipe::kMaxBlocksPerWorker + 1, 1},
                              LaunchRecipe{true, 1, 0}, LaunchRecipe{true, 1, LaunchRecipe::kMaxWorkPerElement + 1}}) {
    ModelFile bad = file;
    bad.launch = recipe;
    EXPECT_FALSE(readModelFile(writeModelFile(bad), back, error))
        << recipe.blocksPerWorker << " " << recipe.workPerElement;
    EXPECT_EQ(error, "malformed header");
  }
  // Where a dynamic depth is read: an input, dim and lane count a kernel can have.
  for (auto [input, dim, lanes] : {std::tuple{-2, 0u, 1u}, {LaunchRecipe::kMaxDepthInput + 1, 0u, 1u},
                                   {0, LaunchRecipe::kMaxDepthDim + 1, 1u}, {0, 1u, 0u},
                                   {0, 1u, LaunchRecipe::kMaxDepthLanes + 1}}) {
    ModelFile bad = file;
    bad.launch.depthInput = input;
    bad.launch.depthDim = dim;
    bad.launch.depthLanes = lanes;
    EXPECT_FALSE(readModelFile(writeModelFile(bad), back, error)) << input << " " << dim << " " << lanes;
    EXPECT_EQ(error, "malformed header");
  }
  ModelFile dynamicDepth = file;
  dynamicDepth.launch.depthInput = 1;
  dynamicDepth.launch.depthDim = 2;
  dynamicDepth.launch.depthLanes = 16;
  ASSERT_TRUE(readModelFile(writeModelFile(dynamicDepth), back, error)) << error;
  EXPECT_EQ(back.launch.depthInput, 1);
  EXPECT_EQ(back.launch.depthDim, 2u);
  EXPECT_EQ(back.launch.depthLanes, 16u);
  EXPECT_TRUE(readModelFile(writeModelFile(file), back, error)) << error;
  EXPECT_EQ(back.launch.depthInput, -1);
}

// Blocks hold ~16K element-wise elements of work: a product's output element counts its depth
// in vector FMAs, so a 128^3 f32 GEMM (16K outputs, 8 each on 512-bit vectors) fills two
// workers where counting outputs alone gave it one; 64^3 (4 each) stays one block.
TEST(LaunchBlocks, AProductsBlocksCountItsDepth) {
  LaunchRecipe gemm{true, 1, 8};
  EXPECT_EQ(launchBlockCount(gemm, 128 * 128, 2), 2u);
  EXPECT_EQ(launchBlockCount(gemm, 128 * 128, 1), 1u) << "one block per worker";
  EXPECT_EQ(launchBlockCount(LaunchRecipe{true, 1, 4}, 64 * 64, 2), 1u);
  EXPECT_EQ(launchBlockCount(LaunchRecipe{true, 1, 256}, 4096, 2), 2u) << "M = 1, N = K = 4096";
  LaunchRecipe add{true, 4, 1};
  EXPECT_EQ(launchBlockCount(add, 16383, 2), 1u);
  EXPECT_EQ(launchBlockCount(add, 3 * 16384, 2), 3u);
  EXPECT_EQ(launchBlockCount(add, 1 << 30, 2), 8u) << "four blocks per worker";
  EXPECT_EQ(launchBlockCount(LaunchRecipe{false, 4, 1}, 1 << 30, 2), 1u) << "not partitioned";
  // A dynamic depth counts as launched: M = 1, N = K = 4096 over 16 lanes is two blocks.
  LaunchRecipe dynamicDepth{true, 1, 1, 0, 1, 16};
  EXPECT_EQ(launchBlockCount(dynamicDepth, 4096, 2, 4096), 2u);
  EXPECT_EQ(launchBlockCount(dynamicDepth, 4096, 2, 64), 1u);
  EXPECT_EQ(launchBlockCount(dynamicDepth, 4096, 2, 0), 1u) << "an empty depth: the recipe's work per element";
}

// A model's kind picks the resource limit its launches obey: products the cube cores', others
// the vector cores' (core_limits.h), through the limit the launching thread sees.
TEST(LaunchThreads, ProductsObeyTheCubeLimitOthersTheVectorLimit) {
  setenv("ACLCPU_NUM_THREADS", "4", 1);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  unsetenv("ACLCPU_NUM_THREADS");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclTensorDesc a, b, c;
  a.dataType = b.dataType = c.dataType = ACL_FLOAT;
  a.dims = {8, 16};
  b.dims = {16, 4};
  c.dims = {8, 4};
  const aclTensorDesc *inputs[] = {&a, &b};
  const aclTensorDesc *outputs[] = {&c};
  ResolvedRequest product;
  ASSERT_EQ(resolveRequest("MatMulV2", 2, inputs, 1, outputs, nullptr, false, product, "test"), ACL_SUCCESS);
  auto matmul = makeModel(std::move(product), std::make_shared<CompiledKernel>());
  auto exp = makeModel(expRequest(64), std::make_shared<CompiledKernel>());
  EXPECT_EQ(matmul->cores, CoreKind::Cube);
  EXPECT_EQ(exp->cores, CoreKind::Vector);

  Stream *stream = nullptr;
  ASSERT_EQ(borrowStream(nullptr, stream, "test"), ACL_SUCCESS);
  EXPECT_EQ(launchThreads(*stream, matmul->cores), 4u);
  ASSERT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 1), ACL_SUCCESS);
  EXPECT_EQ(launchThreads(*stream, matmul->cores), 1u);
  EXPECT_EQ(launchThreads(*stream, exp->cores), 4u);
  ASSERT_EQ(aclrtSetStreamResLimit(nullptr, ACL_RT_DEV_RES_VECTOR_CORE, 3), ACL_SUCCESS);
  EXPECT_EQ(launchThreads(*stream, exp->cores), 4u) << "until the thread uses the stream's limits";
  ASSERT_EQ(aclrtUseStreamResInCurrentThread(nullptr), ACL_SUCCESS);
  EXPECT_EQ(launchThreads(*stream, exp->cores), 3u);
  EXPECT_EQ(launchThreads(*stream, matmul->cores), 1u) << "the stream sets no cube limit: the device's";
  ASSERT_EQ(aclrtUnuseStreamResInCurrentThread(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}
