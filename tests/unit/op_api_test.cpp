// The single-operator API end to end through libascendcl.so: compile, execute, handles,
// dynamic shapes, shape inference, Cast and the cblas wrappers, and their error paths.
#include "op_fixture.h"
#include "../common/host_tensor.h"

#include "acl/ops/acl_cblas.h"

#include <cmath>
#include <functional>
#include <thread>

#include <pthread.h>
#include <vector>

using namespace aclcpu_test;

namespace {

// Element (i, j) of op(a) * op(b), op(a) m x k and op(b) k x n, in float.
float gemmReference(const std::vector<float> &a, const std::vector<float> &b, bool ta, bool tb, int m, int n, int k, int i,
                    int j) {
  float sum = 0;
  for (int p = 0; p < k; ++p) sum += (ta ? a[p * m + i] : a[i * k + p]) * (tb ? b[j * k + p] : b[p * n + j]);
  return sum;
}

// The output of a 2x3 by 3x4 MatMul checked against x times y.
void expectSmallProduct(DeviceTensor<float> &out, const std::vector<float> &x, const std::vector<float> &y) {
  auto z = out.read();
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_NEAR(z[i * 4 + j], gemmReference(x, y, false, false, 2, 4, 3, i, j), 1e-5);
}

// Holds `stream` at a gate until open(): an event it waits for, recorded on another stream
// behind a blocking callback that open() lets this thread process.
class StreamGate {
 public:
  explicit StreamGate(aclrtStream stream) {
    EXPECT_EQ(aclrtCreateEvent(&event_), ACL_SUCCESS);
    EXPECT_EQ(aclrtCreateStream(&other_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSubscribeReport(thisThread(), other_), ACL_SUCCESS);
    EXPECT_EQ(aclrtLaunchCallback([](void *) {}, nullptr, ACL_CALLBACK_BLOCK, other_), ACL_SUCCESS);
    EXPECT_EQ(aclrtRecordEvent(event_, other_), ACL_SUCCESS);
    EXPECT_EQ(aclrtStreamWaitEvent(stream, event_), ACL_SUCCESS);
  }
  ~StreamGate() {
    EXPECT_EQ(aclrtUnSubscribeReport(thisThread(), other_), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(other_), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(event_), ACL_SUCCESS);
  }
  void open() { EXPECT_EQ(aclrtProcessReport(1000), ACL_SUCCESS); }  // the other stream records the event

 private:
  static uint64_t thisThread() { return static_cast<uint64_t>(pthread_self()); }
  aclrtEvent event_ = nullptr;
  aclrtStream other_ = nullptr;
};

TEST_F(OpApiTest, CompileThenExecuteV2WithBroadcasting) {
  Desc a = desc(ACL_FLOAT, {4, 3}), b = desc(ACL_FLOAT, {3}), out = desc(ACL_FLOAT, {4, 3});
  const aclTensorDesc *inputs[] = {a.get(), b.get()};
  const aclTensorDesc *outputs[] = {out.get()};
  ASSERT_EQ(aclopCompile("Add", 2, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr), ACL_SUCCESS)
      << recentError();
  auto x = randomFloats(12, 1), y = randomFloats(3, 2);
  DeviceTensor<float> dx(x), dy(y), dz(std::vector<float>(12));
  ASSERT_EQ(executeV2("Add", {a.get(), b.get()}, {dx.buffer, dy.buffer}, {out.get()}, {dz.buffer}), ACL_SUCCESS)
      << recentError();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  auto z = dz.read();
  for (int i = 0; i < 12; ++i) EXPECT_EQ(z[i], x[i] + y[i % 3]) << i;
}

TEST_F(OpApiTest, CompileAndExecuteInOneCall) {
  Desc a = desc(ACL_FLOAT16, {9}), out = desc(ACL_FLOAT16, {9});
  std::vector<uint16_t> x(9);
  for (int i = 0; i < 9; ++i) x[i] = aclFloatToFloat16(0.25f * float(i) - 1.0f);
  DeviceTensor<uint16_t> dx(x), dy(std::vector<uint16_t>(9));
  const aclTensorDesc *inputs[] = {a.get()};
  const aclTensorDesc *outputs[] = {out.get()};
  const aclDataBuffer *inBuffers[] = {dx.buffer};
  aclDataBuffer *outBuffers[] = {dy.buffer};
  ASSERT_EQ(aclopCompileAndExecute("Relu", 1, inputs, inBuffers, 1, outputs, outBuffers, nullptr, ACL_ENGINE_SYS,
                                   ACL_COMPILE_SYS, nullptr, stream_),
            ACL_SUCCESS) << recentError();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  auto y = dy.read();
  for (int i = 0; i < 9; ++i) EXPECT_EQ(aclFloat16ToFloat(y[i]), std::max(0.0f, aclFloat16ToFloat(x[i]))) << i;
  EXPECT_EQ(aclopCompileAndExecute("Relu", 1, inputs, nullptr, 1, outputs, outBuffers, nullptr, ACL_ENGINE_SYS,
                                   ACL_COMPILE_SYS, nullptr, stream_),
            ACL_ERROR_INVALID_PARAM);
}

// Regression: const inputs are part of the signature by value, not just by size. The input is
// square so that only the const axis tells the two models apart.
TEST_F(OpApiTest, ConstInputsWithDifferentValuesAreDifferentModels) {
  const int rows = 5, cols = 5;
  auto x = randomFloats(rows * cols, 16);
  DeviceTensor<float> dx(x);
  Desc in = desc(ACL_FLOAT, {rows, cols});
  for (int32_t axis : {1, 0}) {
    Desc axes = desc(ACL_INT32, {1}), out = desc(ACL_FLOAT, {axis == 1 ? rows : cols});
    ASSERT_EQ(aclSetTensorConst(axes.get(), &axis, sizeof(axis)), ACL_SUCCESS);
    const aclTensorDesc *inputs[] = {in.get(), axes.get()};
    const aclTensorDesc *outputs[] = {out.get()};
    ASSERT_EQ(aclopCompile("ReduceSum", 2, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
              ACL_SUCCESS) << recentError();
    DeviceTensor<int32_t> daxes(std::vector<int32_t>{axis});
    DeviceTensor<float> dsum{std::vector<float>(axis == 1 ? rows : cols)};
    ASSERT_EQ(executeV2("ReduceSum", {in.get(), axes.get()}, {dx.buffer, daxes.buffer}, {out.get()}, {dsum.buffer}),
              ACL_SUCCESS)
        << recentError();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    auto sums = dsum.read();
    for (size_t i = 0; i < sums.size(); ++i) {
      float expected = 0;
      for (int j = 0; j < (axis == 1 ? cols : rows); ++j) expected += axis == 1 ? x[i * cols + j] : x[j * cols + i];
      EXPECT_NEAR(sums[i], expected, 1e-4) << "axis " << axis << " element " << i;
    }
  }
}

TEST_F(OpApiTest, ExecuteWithoutAMatchingModelIsOpNotFound) {
  Desc a = desc(ACL_FLOAT, {5}), out = desc(ACL_FLOAT, {5});
  const aclTensorDesc *inputs[] = {a.get()};
  const aclTensorDesc *outputs[] = {out.get()};
  ASSERT_EQ(aclopCompile("Exp", 1, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr), ACL_SUCCESS);
  Desc other = desc(ACL_FLOAT, {6}), otherOut = desc(ACL_FLOAT, {6});
  DeviceTensor<float> x(std::vector<float>(6)), y(std::vector<float>(6));
  EXPECT_EQ(executeV2("Exp", {other.get()}, {x.buffer}, {otherOut.get()}, {y.buffer}), ACL_ERROR_OP_NOT_FOUND);
  EXPECT_NE(recentError().find("input 0 dims [6] vs [5]"), std::string::npos) << recentError();
  EXPECT_EQ(executeV2("Log", {other.get()}, {x.buffer}, {otherOut.get()}, {y.buffer}), ACL_ERROR_OP_NOT_FOUND);
  EXPECT_NE(recentError().find("no model of operator type Log"), std::string::npos) << recentError();
  aclopHandle *handle = nullptr;
  const aclTensorDesc *constIn[] = {other.get()};
  const aclTensorDesc *constOut[] = {otherOut.get()};
  EXPECT_EQ(aclopCreateHandle("Exp", 1, constIn, 1, constOut, nullptr, &handle), ACL_ERROR_OP_NOT_FOUND);
}

TEST_F(OpApiTest, HandlesRunOnSeveralStreams) {
  Desc a = desc(ACL_FLOAT, {64}), out = desc(ACL_FLOAT, {64});
  const aclTensorDesc *inputs[] = {a.get()};
  const aclTensorDesc *outputs[] = {out.get()};
  ASSERT_EQ(aclopCompile("Neg", 1, inputs, 1, outputs, nullptr, ACL_ENGINE_AICORE, ACL_COMPILE_SYS, nullptr), ACL_SUCCESS);
  aclopHandle *handle = nullptr;
  ASSERT_EQ(aclopCreateHandle("Neg", 1, inputs, 1, outputs, nullptr, &handle), ACL_SUCCESS);
  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  auto x = randomFloats(64, 3);
  DeviceTensor<float> dx(x), y1(std::vector<float>(64)), y2(std::vector<float>(64));
  const aclDataBuffer *in[] = {dx.buffer};
  aclDataBuffer *out1[] = {y1.buffer};
  aclDataBuffer *out2[] = {y2.buffer};
  for (int i = 0; i < 10; ++i) {
    ASSERT_EQ(aclopExecWithHandle(handle, 1, in, 1, out1, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclopExecWithHandle(handle, 1, in, 1, out2, other), ACL_SUCCESS);
  }
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS);
  auto r1 = y1.read(), r2 = y2.read();
  for (int i = 0; i < 64; ++i) {
    EXPECT_EQ(r1[i], -x[i]);
    EXPECT_EQ(r2[i], -x[i]);
  }
  EXPECT_EQ(aclopExecWithHandle(handle, 2, in, 1, out1, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopExecWithHandle(nullptr, 1, in, 1, out1, stream_), ACL_ERROR_INVALID_PARAM);
  // A buffer smaller than its tensor is refused, never overrun.
  DeviceTensor<float> small(std::vector<float>(10));
  aclDataBuffer *tooSmall[] = {small.buffer};
  EXPECT_EQ(aclopExecWithHandle(handle, 1, in, 1, tooSmall, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("output buffer 0 holds 40 bytes"), std::string::npos) << recentError();
  const aclDataBuffer *smallInput[] = {small.buffer}, *nullInput[] = {nullptr};
  EXPECT_EQ(aclopExecWithHandle(handle, 1, smallInput, 1, out1, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("input buffer 0 holds 40 bytes"), std::string::npos) << recentError();
  EXPECT_EQ(aclopExecWithHandle(handle, 1, nullInput, 1, out1, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("input buffer 0 is NULL"), std::string::npos) << recentError();
  aclopDestroyHandle(handle);
  aclopDestroyHandle(nullptr);
  EXPECT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
}

TEST_F(OpApiTest, AttributeDefaultsApplyOnBothSides) {
  // Compiled with no attributes; executed with the defaults spelled out (and the reverse).
  Desc a = desc(ACL_FLOAT, {2, 3}), b = desc(ACL_FLOAT, {3, 4}), out = desc(ACL_FLOAT, {2, 4});
  const aclTensorDesc *inputs[] = {a.get(), b.get()};
  const aclTensorDesc *outputs[] = {out.get()};
  ASSERT_EQ(aclopCompile("MatMulV2", 2, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr), ACL_SUCCESS)
      << recentError();
  aclopAttr *attr = aclopCreateAttr();
  aclopSetAttrBool(attr, "transpose_x1", 0);
  aclopSetAttrBool(attr, "transpose_x2", 0);
  aclopHandle *handle = nullptr;
  EXPECT_EQ(aclopCreateHandle("MatMul", 2, inputs, 1, outputs, attr, &handle), ACL_SUCCESS) << recentError();
  auto x = randomFloats(6, 4), y = randomFloats(12, 5);
  DeviceTensor<float> dx(x), dy(y), dz(std::vector<float>(8));
  const aclDataBuffer *in[] = {dx.buffer, dy.buffer};
  aclDataBuffer *outBuffers[] = {dz.buffer};
  ASSERT_EQ(aclopExecWithHandle(handle, 2, in, 1, outBuffers, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  expectSmallProduct(dz, x, y);
  aclopSetAttrBool(attr, "transpose_x1", 1);
  aclopHandle *other = nullptr;
  EXPECT_EQ(aclopCreateHandle("MatMul", 2, inputs, 1, outputs, attr, &other), ACL_ERROR_OP_NOT_FOUND);
  aclopDestroyHandle(handle);
  aclopDestroyAttr(attr);
}

// A repeated ExecuteV2 is answered from a per-thread memo (request_memo.h) keyed by the
// descriptions' and attributes' contents: changing either in place must select another model.
TEST_F(OpApiTest, RepeatedExecuteV2FollowsChangedDescriptionsAndAttributes) {
  Desc a = desc(ACL_FLOAT, {2, 3}), b = desc(ACL_FLOAT, {3, 4}), out = desc(ACL_FLOAT, {2, 4});
  const aclTensorDesc *inputs[] = {a.get(), b.get()};
  const aclTensorDesc *outputs[] = {out.get()};
  ASSERT_EQ(aclopCompile("MatMul", 2, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr), ACL_SUCCESS)
      << recentError();
  aclopAttr *attr = aclopCreateAttr();
  aclopSetAttrBool(attr, "transpose_x1", 0);
  auto x = randomFloats(6, 4), y = randomFloats(12, 5);
  DeviceTensor<float> dx(x), dy(y), dz(std::vector<float>(8));
  aclTensorDesc *inDescs[] = {a.get(), b.get()};
  aclTensorDesc *outDescs[] = {out.get()};
  aclDataBuffer *in[] = {dx.buffer, dy.buffer};
  aclDataBuffer *outBuffers[] = {dz.buffer};
  for (int round = 0; round < 3; ++round)
    ASSERT_EQ(aclopExecuteV2("MatMul", 2, inDescs, in, 1, outDescs, outBuffers, attr, stream_), ACL_SUCCESS)
        << recentError();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  expectSmallProduct(dz, x, y);
  aclopSetAttrBool(attr, "transpose_x1", 1);
  EXPECT_EQ(aclopExecuteV2("MatMul", 2, inDescs, in, 1, outDescs, outBuffers, attr, stream_), ACL_ERROR_OP_NOT_FOUND);
  aclopSetAttrBool(attr, "transpose_x1", 0);
  EXPECT_EQ(aclopExecuteV2("MatMul", 2, inDescs, in, 1, outDescs, outBuffers, attr, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclopExecuteV2("MatMul", 2, inDescs, in, 1, outDescs, outBuffers, nullptr, stream_), ACL_SUCCESS)
      << "no attributes: the defaults, which the model has";
  ASSERT_EQ(aclSetTensorConst(b.get(), y.data(), y.size() * sizeof(float)), ACL_SUCCESS);
  EXPECT_EQ(aclopExecuteV2("MatMul", 2, inDescs, in, 1, outDescs, outBuffers, attr, stream_), ACL_ERROR_OP_NOT_FOUND)
      << "a const input is another model";
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  aclopDestroyAttr(attr);
}

// ExecuteV2 with a constant input computes with the values the description was last given
// (aclSetTensorConst copies them): the same values given again find the model, others do not
// until compiled, and the buffer passed for the input is never read.
TEST_F(OpApiTest, RepeatedExecuteV2FollowsAConstantsValues) {
  Desc a = desc(ACL_FLOAT, {2, 3}), b = desc(ACL_FLOAT, {3, 4}), out = desc(ACL_FLOAT, {2, 4});
  auto x = randomFloats(6, 31), y = randomFloats(12, 32), other = randomFloats(12, 33);
  DeviceTensor<float> dx(x), unread(std::vector<float>(12, 0.0f)), dz(std::vector<float>(8));
  aclTensorDesc *inDescs[] = {a.get(), b.get()};
  aclTensorDesc *outDescs[] = {out.get()};
  aclDataBuffer *in[] = {dx.buffer, unread.buffer};
  aclDataBuffer *outBuffers[] = {dz.buffer};
  auto compileWith = [&](std::vector<float> values) {
    ASSERT_EQ(aclSetTensorConst(b.get(), values.data(), values.size() * sizeof(float)), ACL_SUCCESS);
    const aclTensorDesc *inputs[] = {a.get(), b.get()};
    const aclTensorDesc *outputs[] = {out.get()};
    ASSERT_EQ(aclopCompile("MatMul", 2, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
              ACL_SUCCESS)
        << recentError();
  };
  auto expectProductWith = [&](const std::vector<float> &values) {
    for (int round = 0; round < 2; ++round)  // the second from the memo
      ASSERT_EQ(aclopExecuteV2("MatMul", 2, inDescs, in, 1, outDescs, outBuffers, nullptr, stream_), ACL_SUCCESS)
          << recentError();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    expectSmallProduct(dz, x, values);
  };
  std::vector<float> given = y;
  compileWith(given);
  given.assign(12, 7.0f);  // the description holds its own copy
  expectProductWith(y);
  ASSERT_EQ(aclSetTensorConst(b.get(), y.data(), y.size() * sizeof(float)), ACL_SUCCESS);
  expectProductWith(y);  // equal values given again: the same model
  ASSERT_EQ(aclSetTensorConst(b.get(), other.data(), other.size() * sizeof(float)), ACL_SUCCESS);
  EXPECT_EQ(aclopExecuteV2("MatMul", 2, inDescs, in, 1, outDescs, outBuffers, nullptr, stream_), ACL_ERROR_OP_NOT_FOUND)
      << "other values are another model";
  compileWith(other);
  expectProductWith(other);
  ASSERT_EQ(aclSetTensorConst(b.get(), y.data(), y.size() * sizeof(float)), ACL_SUCCESS);
  expectProductWith(y);  // both models are in the store
}

// Memoized ExecuteV2 requests follow the model store: a model used only through the memo still
// counts as recently used, and an evicted model is not found even while a handle keeps it alive.
TEST_F(OpApiTest, RepeatedExecuteV2FollowsTheModelStore) {
  ScopedEnv capacity("ACLCPU_OP_CACHE_CAPACITY", "2");
  std::vector<Desc> descs;
  for (int64_t n : {31, 32, 33}) descs.push_back(desc(ACL_FLOAT, {n}));
  auto compile = [&](int which) {
    const aclTensorDesc *io[] = {descs[which].get()};
    return aclopCompile("Exp", 1, io, 1, io, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr);
  };
  auto x = randomFloats(33, 7);
  DeviceTensor<float> dx(x), dy(std::vector<float>(33));
  auto execute = [&](int which) { return executeV2("Exp", {descs[which].get()}, {dx.buffer}, {descs[which].get()}, {dy.buffer}); };
  ASSERT_EQ(compile(0), ACL_SUCCESS) << recentError();
  ASSERT_EQ(compile(1), ACL_SUCCESS) << recentError();
  aclopHandle *handle = nullptr;
  const aclTensorDesc *io[] = {descs[1].get()};
  ASSERT_EQ(aclopCreateHandle("Exp", 1, io, 1, io, nullptr, &handle), ACL_SUCCESS);
  ASSERT_EQ(execute(0), ACL_SUCCESS) << recentError();
  ASSERT_EQ(execute(1), ACL_SUCCESS) << recentError();
  ASSERT_EQ(execute(0), ACL_SUCCESS) << recentError();  // from the memo: the store's order is unchanged
  ASSERT_EQ(compile(2), ACL_SUCCESS) << recentError();  // evicts the least recently used: Exp[32]
  EXPECT_EQ(execute(0), ACL_SUCCESS) << recentError();
  EXPECT_EQ(execute(1), ACL_ERROR_OP_NOT_FOUND) << "evicted, though its handle holds it";
  EXPECT_EQ(execute(2), ACL_SUCCESS) << recentError();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  auto y = dy.read();
  for (int i = 0; i < 33; ++i) EXPECT_NEAR(y[i], std::exp(x[i]), 1e-6f * std::exp(x[i]) + 1e-7f) << i;
  aclopDestroyHandle(handle);
}

// aclopExecute (CANN's first execute, deprecated there): the same lookup and launch as
// aclopExecuteV2, its descriptions const, so a dynamic model's output shape is not written back.
TEST_F(OpApiTest, DeprecatedExecuteRunsAndLeavesItsDescriptions) {
  ASSERT_EQ(aclopSetCompileFlag(ACL_OP_COMPILE_FUZZ), ACL_SUCCESS);
  Desc a = desc(ACL_FLOAT, {4, 8}), out = desc(ACL_FLOAT, {4, 8});
  const aclTensorDesc *inputs[] = {a.get(), a.get()};
  const aclTensorDesc *outputs[] = {out.get()};
  ASSERT_EQ(aclopCompile("Sub", 2, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr), ACL_SUCCESS)
      << recentError();
  Desc x = desc(ACL_FLOAT, {5, 8}), z = desc(ACL_FLOAT, {-1, -1});
  auto left = randomFloats(40, 7), right = randomFloats(40, 8);
  DeviceTensor<float> dx(left), dy(right), dz(std::vector<float>(40));
  const aclTensorDesc *in[] = {x.get(), x.get()};
  const aclDataBuffer *buffers[] = {dx.buffer, dy.buffer};
  const aclTensorDesc *outDescs[] = {z.get()};
  aclDataBuffer *outBuffers[] = {dz.buffer};
  for (int call = 0; call < 2; ++call)  // the second from the memo
    ASSERT_EQ(aclopExecute("Sub", 2, in, buffers, 1, outDescs, outBuffers, nullptr, stream_), ACL_SUCCESS)
        << recentError();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  int64_t dim = 0;
  ASSERT_EQ(aclGetTensorDescDimV2(z.get(), 0, &dim), ACL_SUCCESS);
  EXPECT_EQ(dim, -1) << "a const description is not written";
  auto result = dz.read();
  for (int i = 0; i < 40; ++i) ASSERT_EQ(result[i], left[i] - right[i]) << i;
  EXPECT_EQ(aclopExecute("Sub", 2, in, nullptr, 1, outDescs, outBuffers, nullptr, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopExecute("Div", 2, in, buffers, 1, outDescs, outBuffers, nullptr, stream_), ACL_ERROR_OP_NOT_FOUND);
  EXPECT_NE(recentError().find("aclopExecute"), std::string::npos) << recentError();
}

TEST_F(OpApiTest, FuzzCompileServesManyShapesAndWritesOutputShapes) {
  ASSERT_EQ(aclopSetCompileFlag(ACL_OP_COMPILE_FUZZ), ACL_SUCCESS);
  Desc a = desc(ACL_FLOAT, {4, 8}), out = desc(ACL_FLOAT, {4, 8});
  const aclTensorDesc *inputs[] = {a.get(), a.get()};
  const aclTensorDesc *outputs[] = {out.get()};
  ASSERT_EQ(aclopCompile("Mul", 2, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr), ACL_SUCCESS)
      << recentError();
  for (int64_t rows : {7, 1, 100}) {
    Desc x = desc(ACL_FLOAT, {rows, 8}), y = desc(ACL_FLOAT, {rows, 8}), z = desc(ACL_FLOAT, {-1, -1});
    auto values = randomFloats(rows * 8, 6);
    DeviceTensor<float> dx(values), dz(std::vector<float>(rows * 8));
    ASSERT_EQ(executeV2("Mul", {x.get(), y.get()}, {dx.buffer, dx.buffer}, {z.get()}, {dz.buffer}), ACL_SUCCESS)
        << recentError();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    int64_t dim = 0;
    ASSERT_EQ(aclGetTensorDescDimV2(z.get(), 0, &dim), ACL_SUCCESS);
    EXPECT_EQ(dim, rows) << "the output shape is written back";
    auto result = dz.read();
    for (int64_t i = 0; i < rows * 8; ++i) ASSERT_EQ(result[i], values[i] * values[i]);
  }
}

// A compiled kernel never broadcasts along a dynamic dim: FUZZ keeps broadcasting 1s static,
// and a request that would broadcast along a dynamic dim is refused instead of overrunning.
TEST_F(OpApiTest, DynamicDimsNeverBroadcast) {
  ASSERT_EQ(aclopSetCompileFlag(ACL_OP_COMPILE_FUZZ), ACL_SUCCESS);
  Desc column = desc(ACL_FLOAT, {4, 1}), row = desc(ACL_FLOAT, {1, 8}), grid = desc(ACL_FLOAT, {4, 8});
  const aclTensorDesc *inputs[] = {column.get(), row.get()};
  const aclTensorDesc *outputs[] = {grid.get()};
  ASSERT_EQ(aclopCompile("Add", 2, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr), ACL_SUCCESS)
      << recentError();
  ASSERT_EQ(aclopSetCompileFlag(ACL_OP_COMPILE_DEFAULT), ACL_SUCCESS);
  {
    // The same broadcast at other sizes runs on the fuzzy model.
    Desc c = desc(ACL_FLOAT, {3, 1}), r = desc(ACL_FLOAT, {1, 5}), g = desc(ACL_FLOAT, {-1, -1});
    auto x = randomFloats(3, 20), y = randomFloats(5, 21);
    DeviceTensor<float> dx(x), dy(y), dz(std::vector<float>(15));
    ASSERT_EQ(executeV2("Add", {c.get(), r.get()}, {dx.buffer, dy.buffer}, {g.get()}, {dz.buffer}), ACL_SUCCESS)
        << recentError();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    auto z = dz.read();
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 5; ++j) EXPECT_EQ(z[i * 5 + j], x[i] + y[j]) << i << "," << j;
  }
  // A model with both operands fully dynamic: equal shapes run, broadcasting shapes are refused.
  Desc any = desc(ACL_FLOAT, {-1, -1});
  const aclTensorDesc *anyInputs[] = {any.get(), any.get()};
  const aclTensorDesc *anyOutputs[] = {any.get()};
  ASSERT_EQ(aclopCompile("Mul", 2, anyInputs, 1, anyOutputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr), ACL_SUCCESS)
      << recentError();
  Desc small = desc(ACL_FLOAT, {3, 1}), big = desc(ACL_FLOAT, {3, 5}), out = desc(ACL_FLOAT, {3, 5});
  DeviceTensor<float> ds(std::vector<float>(3, 1.0f)), db(std::vector<float>(15, 2.0f)), dout(std::vector<float>(15));
  EXPECT_EQ(executeV2("Mul", {small.get(), big.get()}, {ds.buffer, db.buffer}, {out.get()}, {dout.buffer}),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("never broadcasts"), std::string::npos) << recentError();
  // The comparisons, logical ops, SelectV2, ClipByValue and the other binary ops broadcast the
  // same way (a bool is a byte: the [3, 1] operand reads ds, the [3, 5] ones db).
  Desc anyBool = desc(ACL_BOOL, {-1, -1}), smallBool = desc(ACL_BOOL, {3, 1}), bigBool = desc(ACL_BOOL, {3, 5});
  struct Broadcasting {
    const char *op;
    std::vector<aclTensorDesc *> compiled, refused;
    std::vector<aclDataBuffer *> buffers;
    aclTensorDesc *output, *refusedOutput;
  };
  const Broadcasting ops[] = {
      {"Greater", {any.get(), any.get()}, {small.get(), big.get()}, {ds.buffer, db.buffer}, anyBool.get(), bigBool.get()},
      {"LogicalAnd", {anyBool.get(), anyBool.get()}, {bigBool.get(), smallBool.get()}, {db.buffer, ds.buffer},
       anyBool.get(), bigBool.get()},
      {"SelectV2", {anyBool.get(), any.get(), any.get()}, {smallBool.get(), big.get(), big.get()},
       {ds.buffer, db.buffer, db.buffer}, any.get(), out.get()},
      {"ClipByValue", {any.get(), any.get(), any.get()}, {big.get(), small.get(), big.get()},
       {db.buffer, ds.buffer, db.buffer}, any.get(), out.get()},
      {"FloorMod", {any.get(), any.get()}, {big.get(), small.get()}, {db.buffer, ds.buffer}, any.get(), out.get()}};
  for (const Broadcasting &op : ops) {
    SCOPED_TRACE(op.op);
    std::vector<const aclTensorDesc *> compiled(op.compiled.begin(), op.compiled.end());
    const aclTensorDesc *output = op.output;
    ASSERT_EQ(aclopCompile(op.op, int(compiled.size()), compiled.data(), 1, &output, nullptr, ACL_ENGINE_SYS,
                           ACL_COMPILE_SYS, nullptr),
              ACL_SUCCESS)
        << recentError();
    EXPECT_EQ(executeV2(op.op, op.refused, op.buffers, {op.refusedOutput}, {dout.buffer}), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(recentError().find("never broadcasts"), std::string::npos) << recentError();
  }
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

TEST_F(OpApiTest, HandlesOnDynamicModelsCheckTheirShapes) {
  Desc a = desc(ACL_FLOAT, {2, -1}), b = desc(ACL_FLOAT, {-1, 3}), out = desc(ACL_FLOAT, {2, 3});
  const aclTensorDesc *inputs[] = {a.get(), b.get()};
  const aclTensorDesc *outputs[] = {out.get()};
  ASSERT_EQ(aclopCompile("MatMul", 2, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr), ACL_SUCCESS)
      << recentError();
  Desc a4 = desc(ACL_FLOAT, {2, 4}), b5 = desc(ACL_FLOAT, {5, 3}), b4 = desc(ACL_FLOAT, {4, 3}), open = desc(ACL_FLOAT, {-1, -1});
  const aclTensorDesc *mismatched[] = {a4.get(), b5.get()};
  const aclTensorDesc *matched[] = {a4.get(), b4.get()};
  const aclTensorDesc *openOutputs[] = {open.get()};
  aclopHandle *handle = nullptr;
  EXPECT_EQ(aclopCreateHandle("MatMul", 2, mismatched, 1, outputs, nullptr, &handle), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("contraction sizes"), std::string::npos) << recentError();
  ASSERT_EQ(aclopCreateHandle("MatMul", 2, matched, 1, openOutputs, nullptr, &handle), ACL_SUCCESS) << recentError();
  auto x = randomFloats(8, 22), y = randomFloats(12, 23);
  DeviceTensor<float> dx(x), dy(y), dz(std::vector<float>(6));
  const aclDataBuffer *in[] = {dx.buffer, dy.buffer};
  aclDataBuffer *outBuffers[] = {dz.buffer};
  ASSERT_EQ(aclopExecWithHandle(handle, 2, in, 1, outBuffers, stream_), ACL_SUCCESS) << recentError();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  auto z = dz.read();
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(z[i * 3 + j], gemmReference(x, y, false, false, 2, 3, 4, i, j), 1e-5);
  aclopDestroyHandle(handle);
}

TEST_F(OpApiTest, ShapeRangesBoundDynamicModels) {
  Desc a = desc(ACL_FLOAT, {-1}), out = desc(ACL_FLOAT, {-1});
  int64_t range[1][2] = {{1, 16}};
  ASSERT_EQ(aclSetTensorShapeRange(a.get(), 1, range), ACL_SUCCESS);
  ASSERT_EQ(aclSetTensorShapeRange(out.get(), 1, range), ACL_SUCCESS);
  const aclTensorDesc *inputs[] = {a.get()};
  const aclTensorDesc *outputs[] = {out.get()};
  ASSERT_EQ(aclopCompile("Relu", 1, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr), ACL_SUCCESS)
      << recentError();
  for (int64_t n : {10, 20}) {
    Desc x = desc(ACL_FLOAT, {n}), y = desc(ACL_FLOAT, {n});
    DeviceTensor<float> dx(randomFloats(n, 7)), dy{std::vector<float>(n)};
    aclError error = executeV2("Relu", {x.get()}, {dx.buffer}, {y.get()}, {dy.buffer});
    EXPECT_EQ(error, n <= 16 ? ACL_SUCCESS : ACL_ERROR_OP_NOT_FOUND) << n << ": " << recentError();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);  // before the buffers are freed
  }
}

TEST_F(OpApiTest, InferShape) {
  Desc a = desc(ACL_FLOAT, {3, 1}), b = desc(ACL_FLOAT, {1, 4}), out = desc(ACL_FLOAT, {-2});
  aclTensorDesc *inputs[] = {a.get(), b.get()};
  aclTensorDesc *outputs[] = {out.get()};
  ASSERT_EQ(aclopInferShape("Add", 2, inputs, nullptr, 1, outputs, nullptr), ACL_SUCCESS) << recentError();
  ASSERT_EQ(aclGetTensorDescNumDims(out.get()), 2u);
  int64_t d0 = 0, d1 = 0;
  aclGetTensorDescDimV2(out.get(), 0, &d0);
  aclGetTensorDescDimV2(out.get(), 1, &d1);
  EXPECT_EQ(d0, 3);
  EXPECT_EQ(d1, 4);

  Desc x = desc(ACL_FLOAT16, {-1, 6, 5}), reduced = desc(ACL_FLOAT16, {});
  aclopAttr *attr = aclopCreateAttr();
  int64_t axes[] = {1};
  aclopSetAttrListInt(attr, "axes", 1, axes);
  aclopSetAttrBool(attr, "keep_dims", 1);
  aclTensorDesc *in2[] = {x.get()};
  aclTensorDesc *out2[] = {reduced.get()};
  ASSERT_EQ(aclopInferShape("ReduceSumD", 1, in2, nullptr, 1, out2, attr), ACL_SUCCESS) << recentError();
  ASSERT_EQ(aclGetTensorDescNumDims(reduced.get()), 3u);
  aclGetTensorDescDimV2(reduced.get(), 0, &d0);
  aclGetTensorDescDimV2(reduced.get(), 1, &d1);
  EXPECT_EQ(d0, -1);
  EXPECT_EQ(d1, 1);
  int64_t bad[] = {7};
  aclopSetAttrListInt(attr, "axes", 1, bad);
  EXPECT_EQ(aclopInferShape("ReduceSumD", 1, in2, nullptr, 1, out2, attr), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("axis 7 is out of range for rank 3"), std::string::npos) << recentError();
  aclopDestroyAttr(attr);
}

TEST_F(OpApiTest, InferShapeWithRangesAndUnknownRank) {
  // [?, 8] with rows in [2, 10] times [8, 3] -> [?, 3] with rows in [2, 10].
  Desc a = desc(ACL_FLOAT, {-1, 8}), b = desc(ACL_FLOAT, {8, 3}), out = desc(ACL_FLOAT, {-2});
  int64_t range[2][2] = {{2, 10}, {8, 8}};
  ASSERT_EQ(aclSetTensorShapeRange(a.get(), 2, range), ACL_SUCCESS);
  aclTensorDesc *inputs[] = {a.get(), b.get()};
  aclTensorDesc *outputs[] = {out.get()};
  ASSERT_EQ(aclopInferShape("MatMul", 2, inputs, nullptr, 1, outputs, nullptr), ACL_SUCCESS) << recentError();
  int64_t dim = 0, bounds[2] = {};
  ASSERT_EQ(aclGetTensorDescDimV2(out.get(), 0, &dim), ACL_SUCCESS);
  EXPECT_EQ(dim, -1);
  ASSERT_EQ(aclGetTensorDescDimRange(out.get(), 0, 2, bounds), ACL_SUCCESS);
  EXPECT_EQ(bounds[0], 2);
  EXPECT_EQ(bounds[1], 10);
  ASSERT_EQ(aclGetTensorDescDimRange(out.get(), 1, 2, bounds), ACL_SUCCESS);
  EXPECT_EQ(bounds[0], 3);
  EXPECT_EQ(bounds[1], 3);
  // An open upper bound stays open.
  Desc open = desc(ACL_FLOAT, {-1}), openOut = desc(ACL_FLOAT, {-2});
  int64_t openRange[1][2] = {{1, -1}};
  ASSERT_EQ(aclSetTensorShapeRange(open.get(), 1, openRange), ACL_SUCCESS);
  aclTensorDesc *openIn[] = {open.get()};
  aclTensorDesc *openOutputs[] = {openOut.get()};
  ASSERT_EQ(aclopInferShape("Exp", 1, openIn, nullptr, 1, openOutputs, nullptr), ACL_SUCCESS) << recentError();
  ASSERT_EQ(aclGetTensorDescDimRange(openOut.get(), 0, 2, bounds), ACL_SUCCESS);
  EXPECT_EQ(bounds[0], 1);
  EXPECT_EQ(bounds[1], -1);
  // Unknown rank in, unknown rank out.
  Desc anyRank = desc(ACL_FLOAT, {-2}), anyOut = desc(ACL_FLOAT, {4});
  aclTensorDesc *anyIn[] = {anyRank.get()};
  aclTensorDesc *anyOutputs[] = {anyOut.get()};
  ASSERT_EQ(aclopInferShape("Relu", 1, anyIn, nullptr, 1, anyOutputs, nullptr), ACL_SUCCESS) << recentError();
  EXPECT_EQ(aclGetTensorDescNumDims(anyOut.get()), static_cast<size_t>(ACL_UNKNOWN_RANK));
}

TEST_F(OpApiTest, CompileErrors) {
  Desc a = desc(ACL_FLOAT, {3}), out = desc(ACL_FLOAT, {3}), wrong = desc(ACL_FLOAT16, {3});
  const aclTensorDesc *inputs[] = {a.get()};
  const aclTensorDesc *outputs[] = {out.get()};
  const aclTensorDesc *wrongOutputs[] = {wrong.get()};
  EXPECT_EQ(aclopCompile("NoSuchOp", 1, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_ERROR_OP_NOT_FOUND);
  EXPECT_EQ(aclopCompile("Add", 1, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_ERROR_OP_INPUT_NOT_MATCH);
  EXPECT_EQ(aclopCompile("Exp", 1, inputs, 1, wrongOutputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_ERROR_OP_OUTPUT_NOT_MATCH);
  EXPECT_NE(recentError().find("the operator produces"), std::string::npos) << recentError();
  EXPECT_EQ(aclopCompile("Exp", 1, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_UNREGISTERED, "/opp"),
            ACL_ERROR_API_NOT_SUPPORT);
  EXPECT_EQ(aclopCompile("Exp", 1, inputs, 1, outputs, nullptr, static_cast<aclopEngineType>(9), ACL_COMPILE_SYS, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopCompile("Cast", 1, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_ERROR_OP_ATTR_NOT_MATCH) << "dst_type is required";
  Desc ints = desc(ACL_INT32, {3});
  const aclTensorDesc *intInputs[] = {ints.get()};
  const aclTensorDesc *intOutputs[] = {ints.get()};
  EXPECT_EQ(aclopCompile("Exp", 1, intInputs, 1, intOutputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("input has element type i32"), std::string::npos) << recentError();
  EXPECT_EQ(aclopCompile(nullptr, 1, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_ERROR_INVALID_PARAM);
  // AddN's N counts its inputs; BiasAdd takes a 1-d bias and a known data_format.
  const aclTensorDesc *pair[] = {a.get(), a.get()};
  aclopAttr *n = aclopCreateAttr();
  aclopSetAttrInt(n, "N", 3);
  EXPECT_EQ(aclopCompile("AddN", 2, pair, 1, outputs, n, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_ERROR_OP_ATTR_NOT_MATCH);
  EXPECT_NE(recentError().find("attribute N must be the number of inputs (2)"), std::string::npos) << recentError();
  aclopDestroyAttr(n);
  Desc x = desc(ACL_FLOAT, {2, 3, 4}), matrixBias = desc(ACL_FLOAT, {3, 4});
  const aclTensorDesc *biasInputs[] = {x.get(), a.get()}, *matrixInputs[] = {x.get(), matrixBias.get()};
  const aclTensorDesc *biasOutputs[] = {x.get()};
  aclopAttr *format = aclopCreateAttr();
  aclopSetAttrString(format, "data_format", "NCWH");
  EXPECT_EQ(aclopCompile("BiasAdd", 2, biasInputs, 1, biasOutputs, format, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_ERROR_OP_ATTR_NOT_MATCH);
  EXPECT_NE(recentError().find("data_format must be"), std::string::npos) << recentError();
  aclopSetAttrString(format, "data_format", "NCHW");
  EXPECT_EQ(aclopCompile("BiasAdd", 2, biasInputs, 1, biasOutputs, format, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_SUCCESS) << recentError();  // a bias of 3 along dim 1
  EXPECT_EQ(aclopCompile("BiasAdd", 2, matrixInputs, 1, biasOutputs, format, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_ERROR_OP_ATTR_NOT_MATCH);
  EXPECT_NE(recentError().find("bias must be 1-d"), std::string::npos) << recentError();
  aclopDestroyAttr(format);
  // StridedSliceD: specs TensorFlow refuses are refused: two ellipses, more dims named than the
  // input has (new axes and the ellipsis name none).
  aclopAttr *strided = aclopCreateAttr();
  int64_t begin[] = {0, 0, 0}, end[] = {2, 2, 2}, strides[] = {1, 1, 1};
  aclopSetAttrListInt(strided, "begin", 3, begin);
  aclopSetAttrListInt(strided, "end", 3, end);
  aclopSetAttrListInt(strided, "strides", 3, strides);
  aclopSetAttrInt(strided, "ellipsis_mask", 5);
  EXPECT_EQ(aclopCompile("StridedSliceD", 1, inputs, 1, outputs, strided, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_ERROR_OP_ATTR_NOT_MATCH);
  EXPECT_NE(recentError().find("ellipsis_mask has 2 bits set; at most one is allowed"), std::string::npos)
      << recentError();
  aclopSetAttrInt(strided, "ellipsis_mask", 0);
  EXPECT_EQ(aclopCompile("StridedSliceD", 1, inputs, 1, outputs, strided, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_ERROR_OP_ATTR_NOT_MATCH);
  EXPECT_NE(recentError().find("name 3 dims of an input of rank 1"), std::string::npos) << recentError();
  aclopSetAttrInt(strided, "new_axis_mask", 6);  // [0:2, None, None] on 3: 2 x 1 x 1
  Desc slicedWithNewAxis = desc(ACL_FLOAT, {2, 1, 1});
  const aclTensorDesc *slicedOutputs[] = {slicedWithNewAxis.get()};
  EXPECT_EQ(aclopCompile("StridedSliceD", 1, inputs, 1, slicedOutputs, strided, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_SUCCESS) << recentError();
  aclopDestroyAttr(strided);
  EXPECT_EQ(aclSetCompileopt(ACL_PRECISION_MODE, "allow_fp32_to_fp16"), ACL_SUCCESS);
  EXPECT_EQ(aclSetCompileopt(ACL_PRECISION_MODE, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopSetCompileFlag(static_cast<aclOpCompileFlag>(5)), ACL_ERROR_INVALID_PARAM);
}

// Operators with several outputs: their counts are checked, and aclopInferShape writes each.
TEST_F(OpApiTest, MultiOutputOperators) {
  Desc x = desc(ACL_FLOAT, {2, 3, 8}), params = desc(ACL_FLOAT, {8}), y = desc(ACL_FLOAT, {2, 3, 8}),
       statistics = desc(ACL_FLOAT, {2, 3, 1});
  const aclTensorDesc *normInputs[] = {x.get(), params.get(), params.get()};
  const aclTensorDesc *normOutputs[] = {y.get(), statistics.get(), statistics.get()};
  aclopAttr *attr = aclopCreateAttr();
  aclopSetAttrInt(attr, "begin_norm_axis", -1);
  aclopSetAttrInt(attr, "begin_params_axis", -1);
  EXPECT_EQ(aclopCompile("LayerNorm", 3, normInputs, 1, normOutputs, attr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_ERROR_OP_OUTPUT_NOT_MATCH);
  EXPECT_NE(recentError().find("LayerNorm has 3 outputs, not 1"), std::string::npos) << recentError();
  Desc wrongStatistics = desc(ACL_FLOAT, {2, 1, 1});
  const aclTensorDesc *wrongOutputs[] = {y.get(), wrongStatistics.get(), statistics.get()};
  EXPECT_EQ(aclopCompile("LayerNorm", 3, normInputs, 3, wrongOutputs, attr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_ERROR_OP_OUTPUT_NOT_MATCH);
  EXPECT_NE(recentError().find("output 1 is described as"), std::string::npos) << recentError();
  // Inference writes every output: here from a dynamic batch.
  Desc dynamicX = desc(ACL_FLOAT, {-1, 3, 8}), open[] = {desc(ACL_FLOAT, {-2}), desc(ACL_FLOAT, {-2}), desc(ACL_FLOAT, {-2})};
  aclTensorDesc *inferInputs[] = {dynamicX.get(), params.get(), params.get()};
  aclTensorDesc *inferOutputs[] = {open[0].get(), open[1].get(), open[2].get()};
  ASSERT_EQ(aclopInferShape("LayerNorm", 3, inferInputs, nullptr, 3, inferOutputs, attr), ACL_SUCCESS) << recentError();
  for (int o = 0; o < 3; ++o) {
    ASSERT_EQ(aclGetTensorDescNumDims(open[o].get()), 3u);
    int64_t dims[3] = {};
    for (int d = 0; d < 3; ++d) aclGetTensorDescDimV2(open[o].get(), d, &dims[d]);
    EXPECT_EQ(dims[0], -1);
    EXPECT_EQ(dims[1], 3);
    EXPECT_EQ(dims[2], o == 0 ? 8 : 1) << "output " << o;
  }
  aclopDestroyAttr(attr);

  // The Split family: as many outputs as num_split says, at most 64.
  Desc whole = desc(ACL_INT32, {4, 6}), piece = desc(ACL_INT32, {4, 2});
  const aclTensorDesc *splitInputs[] = {whole.get()};
  std::vector<const aclTensorDesc *> pieces(65, piece.get());
  aclopAttr *split = aclopCreateAttr();
  aclopSetAttrInt(split, "split_dim", 1);
  aclopSetAttrInt(split, "num_split", 2);
  EXPECT_EQ(aclopCompile("SplitD", 1, splitInputs, 3, pieces.data(), split, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_ERROR_OP_ATTR_NOT_MATCH);
  EXPECT_NE(recentError().find("num_split must be the number of outputs (3)"), std::string::npos) << recentError();
  EXPECT_EQ(aclopCompile("SplitD", 1, splitInputs, 65, pieces.data(), split, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_ERROR_OP_OUTPUT_NOT_MATCH);
  EXPECT_NE(recentError().find("SplitD has 1 to 64 outputs, not 65"), std::string::npos) << recentError();
  aclopSetAttrInt(split, "num_split", 4);
  EXPECT_EQ(aclopCompile("SplitD", 1, splitInputs, 4, pieces.data(), split, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_ERROR_OP_ATTR_NOT_MATCH);
  EXPECT_NE(recentError().find("does not divide into 4 pieces"), std::string::npos) << recentError();
  int64_t sizes[] = {1, 2, 4};
  aclopSetAttrListInt(split, "size_splits", 3, sizes);
  aclopSetAttrInt(split, "num_split", 3);
  EXPECT_EQ(aclopCompile("SplitVD", 1, splitInputs, 3, pieces.data(), split, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(recentError().find("sizes sum to 7, not the split dim's 6"), std::string::npos) << recentError();
  aclopDestroyAttr(split);
}

TEST_F(OpApiTest, ConcurrentCompilesOfOneSignature) {
  Desc a = desc(ACL_FLOAT, {123}), out = desc(ACL_FLOAT, {123});
  const aclTensorDesc *inputs[] = {a.get()};
  const aclTensorDesc *outputs[] = {out.get()};
  std::vector<std::thread> threads;
  std::vector<aclError> results(8, -1);
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      results[t] = aclopCompile("Sigmoid", 1, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr);
    });
  for (auto &thread : threads) thread.join();
  for (aclError result : results) EXPECT_EQ(result, ACL_SUCCESS);
}

// Integer Pow is integer arithmetic: products wrap modulo 2^32, and a negative exponent gives
// the truncated quotient 1 / base^-e (0 unless the base is 1 or -1).
TEST_F(OpApiTest, IntegerPowWrapsAndTruncates) {
  std::vector<int32_t> base, exponent;
  for (int32_t b : {-7, -3, -2, -1, 1, 2, 3, 5, 10, 46341})
    for (int32_t e : {-3, -1, 0, 1, 2, 3, 7, 31, 40}) {
      base.push_back(b);
      exponent.push_back(e);
    }
  base.push_back(0), exponent.push_back(0);  // 0^0 = 1
  base.push_back(0), exponent.push_back(5);
  int64_t n = static_cast<int64_t>(base.size());
  Desc x = desc(ACL_INT32, {n}), y = desc(ACL_INT32, {n}), z = desc(ACL_INT32, {n});
  const aclTensorDesc *inputs[] = {x.get(), y.get()};
  const aclTensorDesc *outputs[] = {z.get()};
  ASSERT_EQ(aclopCompile("Pow", 2, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr), ACL_SUCCESS)
      << recentError();
  DeviceTensor<int32_t> dx(base), dy(exponent), dz{std::vector<int32_t>(n)};
  ASSERT_EQ(executeV2("Pow", {x.get(), y.get()}, {dx.buffer, dy.buffer}, {z.get()}, {dz.buffer}), ACL_SUCCESS)
      << recentError();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  auto result = dz.read();
  for (int64_t i = 0; i < n; ++i) {
    uint32_t expected = 1;
    if (exponent[i] < 0) expected = base[i] == 1 ? 1 : base[i] == -1 ? (exponent[i] % 2 ? -1u : 1u) : 0;
    for (int32_t k = 0; k < exponent[i]; ++k) expected *= static_cast<uint32_t>(base[i]);
    EXPECT_EQ(result[i], static_cast<int32_t>(expected)) << base[i] << "^" << exponent[i];
  }
}

TEST_F(OpApiTest, CastAndCastHandles) {
  std::vector<float> x = {1.5f, -2.75f, 65504.0f, 3e9f, 0.1f};
  Desc src = desc(ACL_FLOAT, {5}), half = desc(ACL_FLOAT16, {5}), ints = desc(ACL_INT32, {5});
  DeviceTensor<float> dx(x);
  DeviceTensor<uint16_t> dh(std::vector<uint16_t>(5));
  DeviceTensor<int32_t> di(std::vector<int32_t>(5));
  ASSERT_EQ(aclopCast(src.get(), dx.buffer, half.get(), dh.buffer, 0, stream_), ACL_SUCCESS) << recentError();
  aclopHandle *handle = nullptr;
  ASSERT_EQ(aclopCreateHandleForCast(src.get(), ints.get(), 0, &handle), ACL_SUCCESS) << recentError();
  const aclDataBuffer *in[] = {dx.buffer};
  aclDataBuffer *out[] = {di.buffer};
  ASSERT_EQ(aclopExecWithHandle(handle, 1, in, 1, out, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  auto h = dh.read();
  auto i = di.read();
  for (int k = 0; k < 5; ++k) EXPECT_EQ(h[k], aclFloatToFloat16(x[k])) << k;
  EXPECT_EQ(i, (std::vector<int32_t>{1, -2, 65504, 2147483647, 0}));
  aclopDestroyHandle(handle);
  EXPECT_EQ(aclopCast(nullptr, dx.buffer, half.get(), dh.buffer, 0, stream_), ACL_ERROR_INVALID_PARAM);
  // Under ACL_OP_COMPILE_FUZZ a Cast compiles for every shape and runs on this one (it was
  // launched with the dynamic model's -1 dims, and its handle refused).
  ASSERT_EQ(aclopSetCompileFlag(ACL_OP_COMPILE_FUZZ), ACL_SUCCESS);
  DeviceTensor<uint16_t> fuzzed(std::vector<uint16_t>(5));
  ASSERT_EQ(aclopCast(src.get(), dx.buffer, half.get(), fuzzed.buffer, 0, stream_), ACL_SUCCESS) << recentError();
  ASSERT_EQ(aclopCreateHandleForCast(src.get(), ints.get(), 0, &handle), ACL_SUCCESS) << recentError();
  DeviceTensor<int32_t> fuzzedInts(std::vector<int32_t>(5));
  aclDataBuffer *fuzzedOut[] = {fuzzedInts.buffer};
  ASSERT_EQ(aclopExecWithHandle(handle, 1, in, 1, fuzzedOut, stream_), ACL_SUCCESS) << recentError();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(fuzzed.read(), h);
  EXPECT_EQ(fuzzedInts.read(), i);
  aclopDestroyHandle(handle);
}

// Outputs of 32 MiB and more are stored non-temporally when their base is 64-byte aligned
// (aclop-stream-stores) and plainly otherwise: both give the same values, f16 outputs included
// (written by vmovntdq). The misaligned outputs start 4 bytes into an allocation.
TEST_F(OpApiTest, LargeOutputsAlignedOrNot) {
  const int64_t n = (32 << 20) / 2 + 16;  // 32 MiB of f16 (and 64 MiB of f32)
  std::vector<float> x(n);
  for (int64_t i = 0; i < n; ++i) x[i] = static_cast<float>(i % 4099) * 0.25f - 300.0f;
  DeviceTensor<float> dx(x);
  DeviceTensor<float> sum(std::vector<float>(n + 1));
  DeviceTensor<uint16_t> half(std::vector<uint16_t>(n + 2));
  Desc f32 = desc(ACL_FLOAT, {n}), f16 = desc(ACL_FLOAT16, {n});
  const aclTensorDesc *addIn[] = {f32.get(), f32.get()};
  const aclTensorDesc *addOut[] = {f32.get()};
  ASSERT_EQ(aclopCompile("Add", 2, addIn, 1, addOut, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr), ACL_SUCCESS)
      << recentError();
  for (size_t offset : {size_t(0), size_t(4)}) {
    SCOPED_TRACE(offset);
    aclDataBuffer *sumOut = aclCreateDataBuffer(static_cast<char *>(sum.device) + offset, n * 4);
    aclDataBuffer *halfOut = aclCreateDataBuffer(static_cast<char *>(half.device) + offset, n * 2);
    ASSERT_EQ(executeV2("Add", {f32.get(), f32.get()}, {dx.buffer, dx.buffer}, {f32.get()}, {sumOut}), ACL_SUCCESS)
        << recentError();
    ASSERT_EQ(aclopCast(f32.get(), dx.buffer, f16.get(), halfOut, 0, stream_), ACL_SUCCESS) << recentError();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<float> sums = sum.read();
    std::vector<uint16_t> halves = half.read();
    const float *s = reinterpret_cast<const float *>(reinterpret_cast<const char *>(sums.data()) + offset);
    const uint16_t *h = reinterpret_cast<const uint16_t *>(reinterpret_cast<const char *>(halves.data()) + offset);
    int64_t wrong = 0;
    for (int64_t i = 0; i < n; ++i) wrong += s[i] != x[i] + x[i] || h[i] != aclFloatToFloat16(x[i]);
    EXPECT_EQ(wrong, 0);
    aclDestroyDataBuffer(sumOut);
    aclDestroyDataBuffer(halfOut);
  }
}

// Checked mode (ACLCPU_CHECK=1) with a handle of a 16-element f32 Abs.
class OpApiCheckedMode : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    Desc a = desc(ACL_FLOAT, {16}), out = desc(ACL_FLOAT, {16});
    const aclTensorDesc *inputs[] = {a.get()};
    const aclTensorDesc *outputs[] = {out.get()};
    ASSERT_EQ(aclopCompile("Abs", 1, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclopCreateHandle("Abs", 1, inputs, 1, outputs, nullptr, &handle), ACL_SUCCESS);
  }
  void TearDown() override {
    aclopDestroyHandle(handle);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  }
  ScopedEnv check_{"ACLCPU_CHECK", "1"};
  aclopHandle *handle = nullptr;
};

TEST_F(OpApiCheckedMode, OperatorBuffersMustBeDeviceAllocations) {
  {
    std::vector<float> host(16, -1.0f);
    DeviceTensor<float> device(host), result(std::vector<float>(16));
    aclDataBuffer *stray = aclCreateDataBuffer(host.data(), 64);
    const aclDataBuffer *strayIn[] = {stray};
    aclDataBuffer *outBuffers[] = {result.buffer};
    EXPECT_EQ(aclopExecWithHandle(handle, 1, strayIn, 1, outBuffers, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(recentError().find("checked mode: input buffer 0"), std::string::npos) << recentError();
    const aclDataBuffer *goodIn[] = {device.buffer};
    EXPECT_EQ(aclopExecWithHandle(handle, 1, goodIn, 1, outBuffers, nullptr), ACL_SUCCESS) << recentError();
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    EXPECT_EQ(result.read(), std::vector<float>(16, 1.0f));
    // The same buffers pass again without lookups (the thread remembers its last checked list),
    // until an allocation is freed: then the freed one is refused.
    void *freed = nullptr;
    ASSERT_EQ(aclrtMalloc(&freed, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclDataBuffer *freedBuffer = aclCreateDataBuffer(freed, 64);
    const aclDataBuffer *freedIn[] = {freedBuffer};
    EXPECT_EQ(aclopExecWithHandle(handle, 1, freedIn, 1, outBuffers, nullptr), ACL_SUCCESS) << recentError();
    EXPECT_EQ(aclopExecWithHandle(handle, 1, freedIn, 1, outBuffers, nullptr), ACL_SUCCESS) << recentError();
    ASSERT_EQ(aclrtFree(freed), ACL_SUCCESS);
    EXPECT_EQ(aclopExecWithHandle(handle, 1, freedIn, 1, outBuffers, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(recentError().find("checked mode: input buffer 0"), std::string::npos) << recentError();
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    aclDestroyDataBuffer(freedBuffer);
    aclDestroyDataBuffer(stray);
  }
}

// Mapped host memory (aclrtHostRegister) is device-accessible: checked mode lets operators read
// and write it through its device address, within the registration, while it is registered.
TEST_F(OpApiCheckedMode, MappedHostMemoryServesOperators) {
  {
    float *page = static_cast<float *>(aligned_alloc(4096, 4096));
    for (int i = 0; i < 1024; ++i) page[i] = -float(i);
    void *mapped = nullptr;
    ASSERT_EQ(aclrtHostRegister(page, 4096, ACL_HOST_REGISTER_MAPPED, &mapped), ACL_SUCCESS) << recentError();
    float *deviceView = static_cast<float *>(mapped);
    // Input at the page's start, output in its last 64 bytes.
    aclDataBuffer *in = aclCreateDataBuffer(deviceView, 64), *out1 = aclCreateDataBuffer(deviceView + 1008, 64);
    const aclDataBuffer *ins[] = {in};
    aclDataBuffer *outs[] = {out1};
    EXPECT_EQ(aclopExecWithHandle(handle, 1, ins, 1, outs, nullptr), ACL_SUCCESS) << recentError();
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    for (int i = 0; i < 16; ++i) EXPECT_EQ(page[1008 + i], float(i)) << i;
    // A buffer running past the registration is refused.
    aclDataBuffer *past = aclCreateDataBuffer(deviceView + 1012, 64);
    aclDataBuffer *pastOuts[] = {past};
    EXPECT_EQ(aclopExecWithHandle(handle, 1, ins, 1, pastOuts, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(recentError().find("checked mode: output buffer 0"), std::string::npos) << recentError();
    // Unregistered, it is stray host memory again.
    ASSERT_EQ(aclrtHostUnregister(page), ACL_SUCCESS);
    EXPECT_EQ(aclopExecWithHandle(handle, 1, ins, 1, outs, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(recentError().find("checked mode: input buffer 0"), std::string::npos) << recentError();
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    aclDestroyDataBuffer(in);
    aclDestroyDataBuffer(out1);
    aclDestroyDataBuffer(past);
    free(page);
  }
}

// One FUZZ-compiled f32 MatMul (every dim dynamic) serves shapes that are whole register tiles,
// ragged ones and ones smaller than a tile, with either operand transposed.
TEST_F(OpApiTest, DynamicMatMulServesRaggedAndWholeTiles) {
  ASSERT_EQ(aclopSetCompileFlag(ACL_OP_COMPILE_FUZZ), ACL_SUCCESS);
  for (bool tb : {false, true}) {
    aclopAttr *attr = aclopCreateAttr();
    aclopSetAttrBool(attr, "transpose_x2", tb);
    Desc a0 = desc(ACL_FLOAT, {16, 16}), b0 = desc(ACL_FLOAT, {16, 16}), c0 = desc(ACL_FLOAT, {16, 16});
    const aclTensorDesc *inputs[] = {a0.get(), b0.get()};
    const aclTensorDesc *outputs[] = {c0.get()};
    ASSERT_EQ(aclopCompile("MatMul", 2, inputs, 1, outputs, attr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr), ACL_SUCCESS)
        << recentError();
    struct Shape {
      int m, n, k;
    };
    for (Shape shape : {Shape{64, 64, 64}, Shape{9, 33, 17}, Shape{130, 200, 70}, Shape{3, 5, 2}, Shape{8, 32, 1}}) {
      auto a = randomFloats(shape.m * shape.k, 30), b = randomFloats(shape.k * shape.n, 31);
      Desc da = desc(ACL_FLOAT, {shape.m, shape.k});
      Desc db = desc(ACL_FLOAT, tb ? std::vector<int64_t>{shape.n, shape.k} : std::vector<int64_t>{shape.k, shape.n});
      Desc dc = desc(ACL_FLOAT, {-1, -1});
      DeviceTensor<float> xa(a), xb(b), xc(std::vector<float>(shape.m * shape.n));
      aclTensorDesc *in[] = {da.get(), db.get()};
      aclTensorDesc *out[] = {dc.get()};
      aclDataBuffer *inBuffers[] = {xa.buffer, xb.buffer};
      aclDataBuffer *outBuffers[] = {xc.buffer};
      ASSERT_EQ(aclopExecuteV2("MatMul", 2, in, inBuffers, 1, out, outBuffers, attr, stream_), ACL_SUCCESS)
          << shape.m << "x" << shape.n << "x" << shape.k << ": " << recentError();
      ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
      auto c = xc.read();
      for (int i = 0; i < shape.m; ++i)
        for (int j = 0; j < shape.n; ++j)
          ASSERT_NEAR(c[i * shape.n + j], gemmReference(a, b, false, tb, shape.m, shape.n, shape.k, i, j),
                      1e-5 * (shape.k + 1))
              << shape.m << "x" << shape.n << "x" << shape.k << " tb=" << tb << " at " << i << "," << j;
    }
    aclopDestroyAttr(attr);
  }
}

// One FUZZ-compiled GEMM (every dim dynamic) with alpha and beta: the ukernel-fused path (row
// tiles over the block count, the epilogue in the call) on shapes smaller than a block, ragged
// ones and ones deeper than a packed panel.
TEST_F(OpApiTest, DynamicGemmScalesAndAddsC) {
  ASSERT_EQ(aclopSetCompileFlag(ACL_OP_COMPILE_FUZZ), ACL_SUCCESS);
  Desc a0 = desc(ACL_FLOAT, {16, 16}), scalar = desc(ACL_FLOAT, {});
  const aclTensorDesc *inputs[] = {a0.get(), a0.get(), a0.get(), scalar.get(), scalar.get()};
  const aclTensorDesc *outputs[] = {a0.get()};
  ASSERT_EQ(aclopCompile("GEMM", 5, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr), ACL_SUCCESS)
      << recentError();
  struct Shape {
    int m, n, k;
  };
  for (Shape shape : {Shape{3, 5, 2}, Shape{9, 33, 17}, Shape{300, 40, 270}}) {
    auto a = randomFloats(shape.m * shape.k, 32), b = randomFloats(shape.k * shape.n, 33);
    auto c = randomFloats(shape.m * shape.n, 34);
    Desc da = desc(ACL_FLOAT, {shape.m, shape.k}), db = desc(ACL_FLOAT, {shape.k, shape.n});
    Desc dc = desc(ACL_FLOAT, {shape.m, shape.n}), dout = desc(ACL_FLOAT, {-1, -1});
    DeviceTensor<float> xa(a), xb(b), xc(c), alpha(std::vector<float>{1.5f}), beta(std::vector<float>{-0.5f});
    DeviceTensor<float> xout(std::vector<float>(shape.m * shape.n));
    ASSERT_EQ(executeV2("GEMM", {da.get(), db.get(), dc.get(), scalar.get(), scalar.get()},
                        {xa.buffer, xb.buffer, xc.buffer, alpha.buffer, beta.buffer}, {dout.get()}, {xout.buffer}),
              ACL_SUCCESS)
        << recentError();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    auto out = xout.read();
    for (int i = 0; i < shape.m; ++i)
      for (int j = 0; j < shape.n; ++j)
        ASSERT_NEAR(out[i * shape.n + j],
                    1.5f * gemmReference(a, b, false, false, shape.m, shape.n, shape.k, i, j) - 0.5f * c[i * shape.n + j],
                    1e-5 * (shape.k + 1))
            << shape.m << "x" << shape.n << "x" << shape.k << " at " << i << "," << j;
  }
}

// Under ACL_OP_COMPILE_FUZZ too: one dynamic GEMM a transpose pair, launched with these dims.
TEST_F(OpApiTest, GemmExAllTransposesWithScalarsInDeviceMemory) {
  const int m = 33, n = 17, k = 9;
  for (aclOpCompileFlag flag : {ACL_OP_COMPILE_DEFAULT, ACL_OP_COMPILE_FUZZ})
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      ASSERT_EQ(aclopSetCompileFlag(flag), ACL_SUCCESS);
      auto a = randomFloats(m * k, 8), b = randomFloats(k * n, 9), c = randomFloats(m * n, 10);
      DeviceTensor<float> da(a), db(b), dc(c), alpha(std::vector<float>{2.0f}), beta(std::vector<float>{0.5f});
      ASSERT_EQ(aclblasGemmEx(ta ? ACL_TRANS_T : ACL_TRANS_N, tb ? ACL_TRANS_T : ACL_TRANS_N, ACL_TRANS_N, m, n, k,
                              alpha.device, da.device, -1, ACL_FLOAT, db.device, tb ? k : n, ACL_FLOAT, beta.device,
                              dc.device, n, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream_),
                ACL_SUCCESS) << recentError();
      ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
      auto result = dc.read();
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j)
          ASSERT_NEAR(result[i * n + j], 2 * gemmReference(a, b, ta, tb, m, n, k, i, j) + 0.5f * c[i * n + j], 1e-4)
              << flag << ta << tb << " " << i << "," << j;
    }
}

// aclblasGemmEx and aclopCast remember the models of a thread's recent calls (request_memo.h).
// Alternating calls that differ only in a transpose, or only in the destination type, must
// each get their own model once both are compiled (a memo hit needs no compile since).
TEST_F(OpApiTest, AlternatingGemmExAndCastCallsKeepTheirOwnModels) {
  const int m = 5, n = 6, k = 7;
  auto a = randomFloats(m * k, 40), b = randomFloats(k * n, 41);
  DeviceTensor<float> da(a), db(b), alpha(std::vector<float>{1.0f}), beta(std::vector<float>{0.0f});
  std::vector<float> x = {1.5f, -2.75f, 3e9f, 0.1f};
  Desc src = desc(ACL_FLOAT, {4}), half = desc(ACL_FLOAT16, {4}), ints = desc(ACL_INT32, {4});
  DeviceTensor<float> dx(x);
  for (int round = 0; round < 3; ++round)
    for (bool tb : {false, true}) {
      DeviceTensor<float> dc(std::vector<float>(m * n));
      ASSERT_EQ(aclblasGemmEx(ACL_TRANS_N, tb ? ACL_TRANS_T : ACL_TRANS_N, ACL_TRANS_N, m, n, k, alpha.device, da.device,
                              -1, ACL_FLOAT, db.device, -1, ACL_FLOAT, beta.device, dc.device, -1, ACL_FLOAT,
                              ACL_COMPUTE_HIGH_PRECISION, stream_),
                ACL_SUCCESS) << recentError();
      DeviceTensor<uint16_t> dh(std::vector<uint16_t>(4));
      DeviceTensor<int32_t> di(std::vector<int32_t>(4));
      ASSERT_EQ(aclopCast(src.get(), dx.buffer, half.get(), dh.buffer, 0, stream_), ACL_SUCCESS) << recentError();
      ASSERT_EQ(aclopCast(src.get(), dx.buffer, ints.get(), di.buffer, 0, stream_), ACL_SUCCESS) << recentError();
      ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
      auto c = dc.read();
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j)
          ASSERT_NEAR(c[i * n + j], gemmReference(a, b, false, tb, m, n, k, i, j), 1e-4) << round << tb << i << j;
      auto h = dh.read();
      for (int e = 0; e < 4; ++e) EXPECT_EQ(h[e], aclFloatToFloat16(x[e])) << round << " " << e;
      EXPECT_EQ(di.read(), (std::vector<int32_t>{1, -2, 2147483647, 0})) << round;
    }
}

TEST_F(OpApiTest, GemmHandlesHgemmS8gemmAndGemv) {
  const int m = 8, n = 5, k = 7;
  // fp16 in, fp16 out through a handle.
  std::vector<uint16_t> a(m * k), b(k * n), c(m * n, 0);
  std::vector<float> af(m * k), bf(k * n);
  auto ra = randomFloats(m * k, 11), rb = randomFloats(k * n, 12);
  for (int i = 0; i < m * k; ++i) { a[i] = aclFloatToFloat16(ra[i]); af[i] = aclFloat16ToFloat(a[i]); }
  for (int i = 0; i < k * n; ++i) { b[i] = aclFloatToFloat16(rb[i]); bf[i] = aclFloat16ToFloat(b[i]); }
  DeviceTensor<uint16_t> da(a), db(b), dc(c), one(std::vector<uint16_t>{aclFloatToFloat16(1)}),
      zero(std::vector<uint16_t>{aclFloatToFloat16(0)});
  aclopHandle *handle = nullptr;
  ASSERT_EQ(aclblasCreateHandleForHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, ACL_COMPUTE_HIGH_PRECISION, &handle),
            ACL_SUCCESS) << recentError();
  const aclDataBuffer *in[] = {da.buffer, db.buffer, dc.buffer, one.buffer, zero.buffer};
  aclDataBuffer *out[] = {dc.buffer};
  ASSERT_EQ(aclopExecWithHandle(handle, 5, in, 1, out, stream_), ACL_SUCCESS) << recentError();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  auto result = dc.read();
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      EXPECT_NEAR(aclFloat16ToFloat(result[i * n + j]), gemmReference(af, bf, false, false, m, n, k, i, j), 2e-2);
  aclopDestroyHandle(handle);

  // int8 in, int32 out.
  std::vector<int8_t> ia(m * k), ib(k * n);
  for (int i = 0; i < m * k; ++i) ia[i] = static_cast<int8_t>(i * 37 % 255 - 127);
  for (int i = 0; i < k * n; ++i) ib[i] = static_cast<int8_t>(i * 53 % 255 - 127);
  DeviceTensor<int8_t> dia(ia), dib(ib);
  DeviceTensor<int32_t> dic(std::vector<int32_t>(m * n, 5)), ialpha(std::vector<int32_t>{1}), ibeta(std::vector<int32_t>{1});
  ASSERT_EQ(aclblasS8gemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, static_cast<const int32_t *>(ialpha.device),
                          static_cast<const int8_t *>(dia.device), k, static_cast<const int8_t *>(dib.device), n,
                          static_cast<const int32_t *>(ibeta.device), static_cast<int32_t *>(dic.device), n,
                          ACL_COMPUTE_HIGH_PRECISION, stream_),
            ACL_SUCCESS) << recentError();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  auto ic = dic.read();
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      int32_t expected = 5;
      for (int p = 0; p < k; ++p) expected += ia[i * k + p] * ib[p * n + j];
      EXPECT_EQ(ic[i * n + j], expected);
    }

  // y = A^T x with A of 6 x 4.
  auto ga = randomFloats(24, 13), gx = randomFloats(6, 14);
  DeviceTensor<float> dga(ga), dgx(gx), dy(std::vector<float>(4)), alpha(std::vector<float>{1}), beta(std::vector<float>{0});
  ASSERT_EQ(aclblasGemvEx(ACL_TRANS_T, 6, 4, alpha.device, dga.device, 4, ACL_FLOAT, dgx.device, 1, ACL_FLOAT, beta.device,
                          dy.device, 1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream_),
            ACL_SUCCESS) << recentError();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  auto y = dy.read();
  for (int j = 0; j < 4; ++j) {
    float expected = 0;
    for (int i = 0; i < 6; ++i) expected += ga[i * 4 + j] * gx[i];
    EXPECT_NEAR(y[j], expected, 1e-5);
  }
}

// Strided operands: lda/ldb/ldc above the row length and vector increments above 1. Padding
// holds NaN in A and B (a read of it would show in the result) and a sentinel in C and y
// (it must survive).
TEST_F(OpApiTest, GemmExStridedOperandsAndGemvIncrements) {
  const int m = 7, n = 5, k = 6, pad = 3;
  const float nan = std::nanf(""), sentinel = 777.0f;
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      int rowsA = ta ? k : m, colsA = ta ? m : k, rowsB = tb ? n : k, colsB = tb ? k : n;
      int lda = colsA + pad, ldb = colsB + pad + 1, ldc = n + pad;
      auto a = randomFloats(m * k, 20), b = randomFloats(k * n, 21), c = randomFloats(m * n, 22);
      std::vector<float> sa(rowsA * lda, nan), sb(rowsB * ldb, nan), sc(m * ldc, sentinel);
      for (int r = 0; r < rowsA; ++r)
        for (int j = 0; j < colsA; ++j) sa[r * lda + j] = a[r * colsA + j];
      for (int r = 0; r < rowsB; ++r)
        for (int j = 0; j < colsB; ++j) sb[r * ldb + j] = b[r * colsB + j];
      for (int r = 0; r < m; ++r)
        for (int j = 0; j < n; ++j) sc[r * ldc + j] = c[r * n + j];
      DeviceTensor<float> da(sa), db(sb), dc(sc), alpha(std::vector<float>{1.5f}), beta(std::vector<float>{-0.5f});
      ASSERT_EQ(aclblasGemmEx(ta ? ACL_TRANS_T : ACL_TRANS_N, tb ? ACL_TRANS_T : ACL_TRANS_N, ACL_TRANS_N, m, n, k,
                              alpha.device, da.device, lda, ACL_FLOAT, db.device, ldb, ACL_FLOAT, beta.device,
                              dc.device, ldc, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream_),
                ACL_SUCCESS) << recentError();
      ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
      auto result = dc.read();
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < ldc; ++j) {
          float expected = j < n ? 1.5f * gemmReference(a, b, ta, tb, m, n, k, i, j) - 0.5f * c[i * n + j] : sentinel;
          ASSERT_NEAR(result[i * ldc + j], expected, 1e-4) << ta << tb << " " << i << "," << j;
        }
    }
  // y = 2 * A x + y with A of 4 x 6 (lda 8), x every 2nd element, y every 3rd.
  const int rows = 4, cols = 6, lda = 8, incx = 2, incy = 3;
  auto a = randomFloats(rows * cols, 23), x = randomFloats(cols, 24), y = randomFloats(rows, 25);
  std::vector<float> sa(rows * lda, nan), sx(cols * incx, nan), sy(rows * incy, sentinel);
  for (int r = 0; r < rows; ++r)
    for (int j = 0; j < cols; ++j) sa[r * lda + j] = a[r * cols + j];
  for (int j = 0; j < cols; ++j) sx[j * incx] = x[j];
  for (int r = 0; r < rows; ++r) sy[r * incy] = y[r];
  DeviceTensor<float> da(sa), dx(sx), dy(sy), two(std::vector<float>{2}), one(std::vector<float>{1});
  ASSERT_EQ(aclblasGemvEx(ACL_TRANS_N, rows, cols, two.device, da.device, lda, ACL_FLOAT, dx.device, incx, ACL_FLOAT,
                          one.device, dy.device, incy, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream_),
            ACL_SUCCESS) << recentError();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  auto result = dy.read();
  for (int i = 0; i < rows * incy; ++i) {
    float expected = sentinel;
    if (i % incy == 0) {
      expected = y[i / incy];
      for (int j = 0; j < cols; ++j) expected += 2 * a[(i / incy) * cols + j] * x[j];
    }
    ASSERT_NEAR(result[i], expected, 1e-4) << i;
  }
  EXPECT_EQ(aclblasGemvEx(ACL_TRANS_N, rows, cols, two.device, da.device, lda, ACL_FLOAT, dx.device, 0, ACL_FLOAT,
                          one.device, dy.device, 1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclblasGemvEx(ACL_TRANS_N, rows, cols, two.device, da.device, lda, ACL_FLOAT, dx.device, -1, ACL_FLOAT,
                          one.device, dy.device, 1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream_),
            ACL_ERROR_API_NOT_SUPPORT);
}

TEST_F(OpApiTest, GemmErrors) {
  float scalar = 1;
  EXPECT_EQ(aclblasGemmEx(ACL_TRANS_NZ, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 2, &scalar, &scalar, -1, ACL_FLOAT, &scalar, -1,
                          ACL_FLOAT, &scalar, &scalar, -1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream_),
            ACL_ERROR_API_NOT_SUPPORT);
  EXPECT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_T, 2, 2, 2, &scalar, &scalar, -1, ACL_FLOAT, &scalar, -1,
                          ACL_FLOAT, &scalar, &scalar, -1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream_),
            ACL_ERROR_API_NOT_SUPPORT);
  EXPECT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 2, &scalar, &scalar, 1, ACL_FLOAT, &scalar, -1,
                          ACL_FLOAT, &scalar, &scalar, -1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream_),
            ACL_ERROR_INVALID_PARAM) << "lda below the row length";
  EXPECT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, -1, 2, 2, &scalar, &scalar, -1, ACL_FLOAT, &scalar, -1,
                          ACL_FLOAT, &scalar, &scalar, -1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 2, &scalar, &scalar, -1, ACL_INT16, &scalar, -1,
                          ACL_INT16, &scalar, &scalar, -1, ACL_INT32, ACL_COMPUTE_HIGH_PRECISION, stream_),
            ACL_ERROR_INVALID_PARAM) << "int16 products are not supported";
  EXPECT_NE(recentError().find("integer products take i8 inputs"), std::string::npos) << recentError();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

TEST_F(OpApiTest, SoftmaxDefaultsAndConstAxesInputs) {
  const int rows = 3, cols = 50;
  auto x = randomFloats(rows * cols, 15);
  Desc in = desc(ACL_FLOAT, {rows, cols}), out = desc(ACL_FLOAT, {rows, cols});
  const aclTensorDesc *inputs[] = {in.get()};
  const aclTensorDesc *outputs[] = {out.get()};
  ASSERT_EQ(aclopCompile("SoftmaxV2", 1, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr), ACL_SUCCESS)
      << recentError();
  DeviceTensor<float> dx(x), dy(std::vector<float>(rows * cols));
  ASSERT_EQ(executeV2("SoftmaxV2", {in.get()}, {dx.buffer}, {out.get()}, {dy.buffer}), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  auto y = dy.read();
  for (int r = 0; r < rows; ++r) {
    double sum = 0;
    for (int c = 0; c < cols; ++c) sum += y[r * cols + c];
    EXPECT_NEAR(sum, 1.0, 1e-5) << "axes default to the last dimension";
  }
  // ReduceSum with its axes as a const input tensor.
  Desc axes = desc(ACL_INT32, {1}), reduced = desc(ACL_FLOAT, {rows});
  int32_t axis = 1;
  ASSERT_EQ(aclSetTensorConst(axes.get(), &axis, sizeof(axis)), ACL_SUCCESS);
  const aclTensorDesc *sumInputs[] = {in.get(), axes.get()};
  const aclTensorDesc *sumOutputs[] = {reduced.get()};
  ASSERT_EQ(aclopCompile("ReduceSum", 2, sumInputs, 1, sumOutputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_SUCCESS) << recentError();
  aclopHandle *handle = nullptr;
  ASSERT_EQ(aclopCreateHandle("ReduceSum", 2, sumInputs, 1, sumOutputs, nullptr, &handle), ACL_SUCCESS);
  DeviceTensor<int32_t> daxes(std::vector<int32_t>{1});
  DeviceTensor<float> dsum{std::vector<float>(rows)};
  const aclDataBuffer *in2[] = {dx.buffer, daxes.buffer};
  aclDataBuffer *out2[] = {dsum.buffer};
  ASSERT_EQ(aclopExecWithHandle(handle, 2, in2, 1, out2, stream_), ACL_SUCCESS) << recentError();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  auto sums = dsum.read();
  for (int r = 0; r < rows; ++r) {
    float expected = 0;
    for (int c = 0; c < cols; ++c) expected += x[r * cols + c];
    EXPECT_NEAR(sums[r], expected, 1e-4);
  }
  aclopDestroyHandle(handle);
}

// f32 Add over `n` elements, compiled, with a handle bound to it; null (and the recent error
// set) on failure.
aclopHandle *addHandle(int64_t n) {
  Desc x = desc(ACL_FLOAT, {n});
  const aclTensorDesc *inputs[] = {x.get(), x.get()};
  const aclTensorDesc *outputs[] = {x.get()};
  aclopHandle *handle = nullptr;
  if (aclopCompile("Add", 2, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr) != ACL_SUCCESS ||
      aclopCreateHandle("Add", 2, inputs, 1, outputs, nullptr, &handle) != ACL_SUCCESS)
    return nullptr;
  return handle;
}

}  // namespace

// A small launch runs on the enqueuing thread only when its stream is idle: behind an event
// wait it queues like any other task, and runs once the event is recorded.
TEST_F(OpApiTest, SmallLaunchesKeepStreamOrder) {
  aclopHandle *handle = addHandle(8);
  ASSERT_NE(handle, nullptr) << recentError();
  DeviceTensor<float> a(std::vector<float>(8, 1.0f)), out(std::vector<float>(8, 0.0f));
  const aclDataBuffer *in[] = {a.buffer, a.buffer};
  aclDataBuffer *result[] = {out.buffer};
  // Idle stream: done (on this thread or not) by the time synchronize returns.
  ASSERT_EQ(aclopExecWithHandle(handle, 2, in, 1, result, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(out.read()[7], 2.0f);
  // Behind an event recorded after a blocking callback the launch waits, then runs in order.
  {
    StreamGate gate(stream_);
    DeviceTensor<float> later(std::vector<float>(8, 0.0f));
    aclDataBuffer *laterResult[] = {later.buffer};
    ASSERT_EQ(aclopExecWithHandle(handle, 2, in, 1, laterResult, stream_), ACL_SUCCESS);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(later.read()[7], 0.0f) << "ran before the event it waits for";
    gate.open();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(later.read()[7], 2.0f);
  }
  aclopDestroyHandle(handle);
}

// A MatMul whose B is constant (aclSetTensorConst, all its values): every launch computes with
// those values, not the buffer passed for B (the GEMM ukernel keeps its packed panels of them
// across launches), and a launch
// queued behind a blocked stream still reads them after its handle is destroyed and its model
// evicted from the store.
TEST_F(OpApiTest, AConstantBIsReadFromItsValuesAfterItsModelIsGone) {
  ScopedEnv capacity("ACLCPU_OP_CACHE_CAPACITY", "1");
  const int m = 20, n = 520, k = 600;  // the f32 ukernel's packed path, where it exists
  Desc a = desc(ACL_FLOAT, {m, k}), b = desc(ACL_FLOAT, {k, n}), out = desc(ACL_FLOAT, {m, n});
  auto x = randomFloats(size_t(m) * k, 21), y = randomFloats(size_t(k) * n, 22);
  ASSERT_EQ(aclSetTensorConst(b.get(), y.data(), y.size() * sizeof(float)), ACL_SUCCESS);
  // The buffer passed for B is not read: the launch computes with the values B was declared with.
  DeviceTensor<float> dx(x), dy(std::vector<float>(y.size(), 0.0f)), dz(std::vector<float>(size_t(m) * n));
  const aclTensorDesc *inputs[] = {a.get(), b.get()};
  const aclTensorDesc *outputs[] = {out.get()};
  ASSERT_EQ(aclopCompile("MatMul", 2, inputs, 1, outputs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_SUCCESS)
      << recentError();
  aclopHandle *handle = nullptr;
  ASSERT_EQ(aclopCreateHandle("MatMul", 2, inputs, 1, outputs, nullptr, &handle), ACL_SUCCESS) << recentError();
  const aclDataBuffer *in[] = {dx.buffer, dy.buffer};
  aclDataBuffer *result[] = {dz.buffer};
  auto expectProduct = [&] {
    auto z = dz.read();
    for (int i = 0; i < m; i += 3)
      for (int j = 0; j < n; j += 7)
        ASSERT_NEAR(z[size_t(i) * n + j], gemmReference(x, y, false, false, m, n, k, i, j), 1e-3) << i << "," << j;
  };
  for (int round = 0; round < 2; ++round) {
    ASSERT_EQ(aclopExecWithHandle(handle, 2, in, 1, result, stream_), ACL_SUCCESS) << recentError();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    expectProduct();
  }
  // Blocked behind a callback on another stream, the launch outlives the handle and the model.
  StreamGate gate(stream_);
  DeviceTensor<float> cleared(std::vector<float>(size_t(m) * n));
  ASSERT_EQ(aclrtMemcpy(dz.device, dz.bytes, cleared.read().data(), dz.bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclopExecWithHandle(handle, 2, in, 1, result, stream_), ACL_SUCCESS) << recentError();
  aclopDestroyHandle(handle);
  Desc other1 = desc(ACL_FLOAT, {7});
  const aclTensorDesc *io[] = {other1.get()};
  ASSERT_EQ(aclopCompile("Exp", 1, io, 1, io, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr), ACL_SUCCESS)
      << "evicts the MatMul: " << recentError();
  gate.open();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  expectProduct();
}

// A shape whose element count, or byte size, overflows 64 bits is refused wherever a request is
// resolved: its sizes would wrap (2^64 elements to 0, and a launch over them checked a 64-byte
// buffer, then ran off its end).
// Pooling and convolution refuse what they cannot compute, saying why: windows over N or C, an
// unknown padding, a pad as wide as the window, averages of integers, a divisor_override over a
// plane of unknown size, and a convolution whose every window would lie in padding.
TEST_F(OpApiTest, WindowOpsRefuseWhatTheyCannotCompute) {
  Desc x = desc(ACL_FLOAT, {1, 4, 6, 6}), y = desc(ACL_FLOAT, {1, 4, 3, 3});
  const aclTensorDesc *inputs[] = {x.get()}, *outputs[] = {y.get()};
  auto compile = [&](const char *op, const aclTensorDesc *const *in, const aclTensorDesc *const *out,
                     const std::function<void(aclopAttr *)> &set) {
    aclopAttr *attr = aclopCreateAttr();
    int64_t ksize[] = {1, 1, 2, 2}, strides[] = {1, 1, 2, 2};
    aclopSetAttrListInt(attr, "ksize", 4, ksize);
    aclopSetAttrListInt(attr, "strides", 4, strides);
    aclopSetAttrString(attr, "padding", "VALID");
    aclopSetAttrString(attr, "data_format", "NCHW");
    set(attr);
    aclError result = aclopCompile(op, 1, in, 1, out, attr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr);
    aclopDestroyAttr(attr);
    return result;
  };
  ASSERT_EQ(compile("MaxPool", inputs, outputs, [](aclopAttr *) {}), ACL_SUCCESS) << recentError();
  EXPECT_EQ(compile("MaxPool", inputs, outputs,
                    [](aclopAttr *attr) {
                      int64_t overChannels[] = {1, 2, 2, 2};
                      aclopSetAttrListInt(attr, "ksize", 4, overChannels);
                    }),
            ACL_ERROR_OP_ATTR_NOT_MATCH);
  EXPECT_NE(recentError().find("ksize and strides must be 1 along N and C"), std::string::npos) << recentError();
  EXPECT_EQ(compile("AvgPool", inputs, outputs, [](aclopAttr *attr) { aclopSetAttrString(attr, "padding", "FULL"); }),
            ACL_ERROR_OP_ATTR_NOT_MATCH);
  EXPECT_NE(recentError().find("'padding' must be \"SAME\" or \"VALID\""), std::string::npos) << recentError();
  EXPECT_EQ(compile("MaxPoolV3", inputs, outputs,
                    [](aclopAttr *attr) {
                      int64_t pads[] = {2, 0, 0, 0};
                      aclopSetAttrListInt(attr, "pads", 4, pads);
                    }),
            ACL_ERROR_INVALID_PARAM);  // as every shape inference refuses
  EXPECT_NE(recentError().find("each pad must be smaller than the window"), std::string::npos) << recentError();
  Desc ints = desc(ACL_INT32, {1, 4, 6, 6}), intOut = desc(ACL_INT32, {1, 4, 3, 3});
  const aclTensorDesc *intInputs[] = {ints.get()}, *intOutputs[] = {intOut.get()};
  EXPECT_EQ(compile("MaxPool", intInputs, intOutputs, [](aclopAttr *) {}), ACL_SUCCESS) << recentError();
  EXPECT_NE(compile("AvgPool", intInputs, intOutputs, [](aclopAttr *) {}), ACL_SUCCESS);
  EXPECT_NE(recentError().find("allowed: f16, bf16, f32, f64"), std::string::npos) << recentError();
  Desc unknownHeight = desc(ACL_FLOAT, {1, 4, -1, 6}), pooled = desc(ACL_FLOAT, {1, 4, 1, 1});
  int64_t ranges[4][2] = {{1, 1}, {4, 4}, {1, 16}, {6, 6}};
  ASSERT_EQ(aclSetTensorShapeRange(unknownHeight.get(), 4, ranges), ACL_SUCCESS);
  const aclTensorDesc *dynamicInputs[] = {unknownHeight.get()}, *pooledOutputs[] = {pooled.get()};
  EXPECT_EQ(compile("MaxPoolV3", dynamicInputs, pooledOutputs,
                    [](aclopAttr *attr) { aclopSetAttrBool(attr, "global_pooling", true); }),
            ACL_SUCCESS)
      << recentError();  // a maximum over each plane, whatever its height
  EXPECT_EQ(compile("AvgPoolV2", dynamicInputs, pooledOutputs,
                    [](aclopAttr *attr) {
                      aclopSetAttrBool(attr, "global_pooling", true);
                      aclopSetAttrInt(attr, "divisor_override", 9);
                    }),
            ACL_ERROR_OP_ATTR_NOT_MATCH);
  EXPECT_NE(recentError().find("global_pooling with divisor_override needs a static height and width"),
            std::string::npos)
      << recentError();
  EXPECT_NE(compile("AvgPoolV2", intInputs, intOutputs,
                    [](aclopAttr *attr) { aclopSetAttrBool(attr, "global_pooling", true); }),
            ACL_SUCCESS);
  EXPECT_NE(recentError().find("average pooling takes float inputs"), std::string::npos) << recentError();
  // Conv2D over an input of height 0 with pads that would make windows of padding alone.
  Desc empty = desc(ACL_FLOAT, {1, 2, 0, 4}), filter = desc(ACL_FLOAT, {3, 2, 3, 3}), convOut = desc(ACL_FLOAT, {1, 3, 2, 4});
  const aclTensorDesc *convInputs[] = {empty.get(), filter.get()}, *convOutputs[] = {convOut.get()};
  aclopAttr *conv = aclopCreateAttr();
  int64_t ones[] = {1, 1, 1, 1}, pads[] = {2, 2, 1, 1};
  aclopSetAttrListInt(conv, "strides", 4, ones);
  aclopSetAttrListInt(conv, "pads", 4, pads);
  aclopSetAttrString(conv, "data_format", "NCHW");
  EXPECT_NE(aclopCompile("Conv2D", 2, convInputs, 1, convOutputs, conv, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_SUCCESS);
  EXPECT_NE(recentError().find("the input's height and width must not be 0"), std::string::npos) << recentError();
  // DepthwiseConv2D: an NCHW filter [multiplier, C, kh, kw] with a multiplier above 1 (its
  // output channels c * M + m are not one dim of it), and a filter for other channels.
  Desc dwX = desc(ACL_FLOAT, {1, 2, 5, 5}), dwOut = desc(ACL_FLOAT, {1, 4, 5, 5});
  Desc mchw = desc(ACL_FLOAT, {2, 2, 3, 3}, ACL_FORMAT_NCHW);
  Desc otherChannels = desc(ACL_FLOAT, {3, 3, 3, 1}, ACL_FORMAT_HWCN);
  int64_t samePads[] = {1, 1, 1, 1};
  aclopSetAttrListInt(conv, "pads", 4, samePads);
  const aclTensorDesc *multiplied[] = {dwX.get(), mchw.get()}, *dwOutputs[] = {dwOut.get()};
  EXPECT_EQ(
      aclopCompile("DepthwiseConv2D", 2, multiplied, 1, dwOutputs, conv, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
      ACL_ERROR_OP_ATTR_NOT_MATCH);
  EXPECT_NE(recentError().find("an NCHW filter with a channel multiplier above 1 is not supported"), std::string::npos)
      << recentError();
  const aclTensorDesc *mismatched[] = {dwX.get(), otherChannels.get()};
  EXPECT_EQ(
      aclopCompile("DepthwiseConv2D", 2, mismatched, 1, dwOutputs, conv, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
      ACL_ERROR_OP_ATTR_NOT_MATCH);
  EXPECT_NE(recentError().find("the filter is for 3 input channels, x has 2"), std::string::npos) << recentError();
  aclopDestroyAttr(conv);
}

// Mirrored padding takes elements of the input: reflect at most size - 1 a side, symmetric at
// most size; a mode the operator does not know is refused by name.
TEST_F(OpApiTest, MirroredPaddingPastTheInputIsRefused) {
  Desc x = desc(ACL_FLOAT, {3, 4});
  auto compile = [&](const char *op, const char *mode, std::vector<int32_t> paddings, std::vector<int64_t> out) {
    Desc pads = desc(ACL_INT32, {2, 2}), y = desc(ACL_FLOAT, out);
    EXPECT_EQ(aclSetTensorConst(pads.get(), paddings.data(), paddings.size() * sizeof(int32_t)), ACL_SUCCESS);
    const aclTensorDesc *inputs[] = {x.get(), pads.get()}, *outputs[] = {y.get()};
    aclopAttr *attr = aclopCreateAttr();
    aclopSetAttrString(attr, "mode", mode);
    aclError result = aclopCompile(op, 2, inputs, 1, outputs, attr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr);
    aclopDestroyAttr(attr);
    return result;
  };
  EXPECT_EQ(compile("MirrorPad", "REFLECT", {2, 2, 3, 3}, {7, 10}), ACL_SUCCESS) << recentError();
  EXPECT_EQ(compile("MirrorPad", "REFLECT", {3, 0, 0, 0}, {6, 4}), ACL_ERROR_OP_ATTR_NOT_MATCH);
  EXPECT_NE(recentError().find("reflect padding of dim 0 (size 3) must be at most 2 a side"), std::string::npos)
      << recentError();
  EXPECT_EQ(compile("MirrorPad", "SYMMETRIC", {0, 0, 4, 4}, {3, 12}), ACL_SUCCESS) << recentError();
  EXPECT_EQ(compile("MirrorPad", "SYMMETRIC", {0, 0, 5, 0}, {3, 9}), ACL_ERROR_OP_ATTR_NOT_MATCH);
  EXPECT_NE(recentError().find("symmetric padding of dim 1 (size 4) must be at most 4 a side"), std::string::npos)
      << recentError();
  EXPECT_EQ(compile("MirrorPad", "reflect", {1, 1, 1, 1}, {5, 6}), ACL_ERROR_OP_ATTR_NOT_MATCH);
  EXPECT_NE(recentError().find("mode must be \"REFLECT\" or \"SYMMETRIC\""), std::string::npos) << recentError();
  EXPECT_EQ(compile("PadV3", "edge", {9, 9, 0, 0}, {21, 4}), ACL_SUCCESS) << recentError();
  EXPECT_EQ(compile("PadV3", "circular", {1, 1, 1, 1}, {5, 6}), ACL_ERROR_OP_ATTR_NOT_MATCH);
  EXPECT_NE(recentError().find("mode must be \"constant\", \"reflect\" or \"edge\""), std::string::npos)
      << recentError();
}

TEST_F(OpApiTest, AShapeWhoseSizeOverflowsIsRefused) {
  for (std::vector<int64_t> dims : {std::vector<int64_t>{int64_t(1) << 33, int64_t(1) << 31},   // elements
                                    std::vector<int64_t>{int64_t(1) << 31, int64_t(1) << 31}}) {  // f32 bytes
    Desc huge = desc(ACL_FLOAT, dims);
    EXPECT_EQ(aclGetTensorDescSize(huge.get()), 0u) << "a size that does not fit, not a wrapped one";
    const aclTensorDesc *io[] = {huge.get(), huge.get()};
    EXPECT_EQ(aclopCompile("Add", 2, io, 1, io, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("more elements than fit in memory"), std::string::npos)
        << aclGetRecentErrMsg();
    aclopHandle *handle = nullptr;
    EXPECT_EQ(aclopCreateHandle("Add", 2, io, 1, io, nullptr, &handle), ACL_ERROR_INVALID_PARAM);
    DeviceTensor<float> small(std::vector<float>(16, 1.0f));
    EXPECT_EQ(executeV2("Add", {huge.get(), huge.get()}, {small.buffer, small.buffer}, {huge.get()}, {small.buffer}),
              ACL_ERROR_INVALID_PARAM);
  }
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

// A stream is looked up from a per-thread cache on every launch and synchronize: once
// destroyed, both refuse it, however often it was used before.
TEST_F(OpApiTest, LaunchOnDestroyedStreamIsRefused) {
  aclopHandle *handle = addHandle(8);
  ASSERT_NE(handle, nullptr) << recentError();
  DeviceTensor<float> a(std::vector<float>(8, 1.0f)), out(std::vector<float>(8, 0.0f));
  const aclDataBuffer *in[] = {a.buffer, a.buffer};
  aclDataBuffer *result[] = {out.buffer};
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(aclopExecWithHandle(handle, 2, in, 1, result, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  }
  ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclopExecWithHandle(handle, 2, in, 1, result, stream), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_NE(recentError().find("not a live stream"), std::string::npos) << recentError();
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_INVALID_HANDLE);
  // The default stream (NULL) still works.
  ASSERT_EQ(aclopExecWithHandle(handle, 2, in, 1, result, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(out.read()[0], 2.0f);
  aclopDestroyHandle(handle);
}

// Threads launching small operators on one stream: each launch runs on its caller when the
// stream is idle and queues otherwise, but two never run at once and none is lost. Every
// launch adds one to x in place (8192 elements: long enough for two runs to overlap if they
// could), so x counts them.
TEST_F(OpApiTest, ConcurrentSmallLaunchesOnOneStreamRunOneAtATime) {
  aclopHandle *handle = addHandle(8192);
  ASSERT_NE(handle, nullptr) << recentError();
  DeviceTensor<float> counts(std::vector<float>(8192, 0.0f)), one(std::vector<float>(8192, 1.0f));
  const aclDataBuffer *in[] = {counts.buffer, one.buffer};
  aclDataBuffer *result[] = {counts.buffer};
  constexpr int kThreads = 2, kLaunches = 5000;
  std::atomic<int> failures{0};
  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      if (aclrtSetCurrentContext(context) != ACL_SUCCESS) failures.fetch_add(1);
      for (int i = 0; i < kLaunches; ++i) {
        if (aclopExecWithHandle(handle, 2, in, 1, result, stream_) != ACL_SUCCESS) failures.fetch_add(1);
        if ((i + t) % 7 == 0 && aclrtSynchronizeStream(stream_) != ACL_SUCCESS) failures.fetch_add(1);
      }
    });
  for (std::thread &thread : threads) thread.join();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(failures.load(), 0);
  for (float count : counts.read()) EXPECT_EQ(count, float(kThreads * kLaunches));
  aclopDestroyHandle(handle);
}

// Products and element-wise ops under resource limits of one thread: fewer, larger blocks, the
// same results (a launch's blocks split rows and elements, never the depth).
TEST_F(OpApiTest, LimitedLaunchesComputeTheSame) {
  const int m = 192, n = 160, k = 96, count = 1 << 18;
  auto x = randomFloats(m * k, 11), y = randomFloats(k * n, 12), v = randomFloats(count, 13);
  DeviceTensor<float> dx(x), dy(y), dv(v), product{std::vector<float>(m * n)}, sum{std::vector<float>(count)};
  Desc a = desc(ACL_FLOAT, {m, k}), b = desc(ACL_FLOAT, {k, n}), c = desc(ACL_FLOAT, {m, n}),
       flat = desc(ACL_FLOAT, {count});
  const aclTensorDesc *productIn[] = {a.get(), b.get()}, *productOut[] = {c.get()};
  const aclTensorDesc *addIn[] = {flat.get(), flat.get()}, *addOut[] = {flat.get()};
  ASSERT_EQ(aclopCompile("MatMul", 2, productIn, 1, productOut, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr),
            ACL_SUCCESS)
      << recentError();
  ASSERT_EQ(aclopCompile("Add", 2, addIn, 1, addOut, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr), ACL_SUCCESS);
  auto run = [&] {
    ASSERT_EQ(executeV2("MatMul", {a.get(), b.get()}, {dx.buffer, dy.buffer}, {c.get()}, {product.buffer}), ACL_SUCCESS)
        << recentError();
    ASSERT_EQ(executeV2("Add", {flat.get(), flat.get()}, {dv.buffer, dv.buffer}, {flat.get()}, {sum.buffer}),
              ACL_SUCCESS)
        << recentError();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  };
  run();
  const std::vector<float> unlimitedProduct = product.read(), unlimitedSum = sum.read();
  ASSERT_EQ(aclrtSetStreamResLimit(stream_, ACL_RT_DEV_RES_CUBE_CORE, 1), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetStreamResLimit(stream_, ACL_RT_DEV_RES_VECTOR_CORE, 1), ACL_SUCCESS);
  ASSERT_EQ(aclrtUseStreamResInCurrentThread(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(product.device, product.bytes, 0xFF, product.bytes), ACL_SUCCESS);  // NaNs
  ASSERT_EQ(aclrtMemset(sum.device, sum.bytes, 0xFF, sum.bytes), ACL_SUCCESS);
  run();
  ASSERT_EQ(aclrtUnuseStreamResInCurrentThread(stream_), ACL_SUCCESS);
  EXPECT_EQ(product.read(), unlimitedProduct);
  EXPECT_EQ(sum.read(), unlimitedSum);
  for (int i = 0; i < m; i += 37)
    for (int j = 0; j < n; j += 29)
      EXPECT_NEAR(unlimitedProduct[i * n + j], gemmReference(x, y, false, false, m, n, k, i, j), 1e-4) << i << "," << j;
}
