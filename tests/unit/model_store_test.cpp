// The model store directly: 8 threads compiling overlapping signatures compile each once
// (counted), the LRU capacity evicts the least recently used model, models in use survive
// eviction, and failed compiles are never cached.
#include "model_store.h"
#include "op_request.h"

#include <gtest/gtest.h>

#include <cstdlib>
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
