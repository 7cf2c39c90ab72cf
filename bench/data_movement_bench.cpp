// Comparisons, selection, data movement and reductions on one core, 16M-element f32 tensors (64 MiB),
// through handles, side by side (paired_runs.h) with memcpy moving the same bytes. Every figure
// is GB/s of traffic: the bytes an operator must read plus those it writes.
#include "bench_support.h"

#include "acl/acl_op.h"

#include <benchmark/benchmark.h>

#include <cstring>
#include <functional>
#include <memory>
#include <vector>

namespace {

using aclcpu_bench::Contender;
using aclcpu_bench::HandleContender;
using aclcpu_bench::MemcpyRun;
using aclcpu_bench::Runtime;
using aclcpu_bench::Tensor;

constexpr int64_t kRows = 4096, kColumns = 4096;  // 16M elements
constexpr int kPairedRounds = 15;

struct Shape {
  aclDataType type;
  std::vector<int64_t> dims;
  size_t elementSize;
  double bytes() const {
    double n = double(elementSize);
    for (int64_t d : dims) n *= double(d);
    return n;
  }
};

// One operator case: its inputs (const ones hold `constValues`), output and attributes.
struct MovementCase {
  const char *name, *op;
  std::vector<Shape> inputs;
  Shape output;
  std::function<void(aclopAttr *)> attributes;
  std::vector<std::vector<int64_t>> constValues;  // per input; empty: a data input
  double traffic() const {  // data inputs read whole (a slice reads what it keeps) plus the output
    double read = 0;
    for (size_t i = 0; i < inputs.size(); ++i)
      if (i >= constValues.size() || constValues[i].empty()) read += inputs[i].bytes();
    return (std::string(op) == "SliceD" ? output.bytes() : read) + output.bytes();
  }
};

void reduceOver(aclopAttr *attr, int64_t axis) {
  aclopSetAttrListInt(attr, "axes", 1, &axis);
  aclopSetAttrBool(attr, "keep_dims", false);
}

void setPerm(aclopAttr *attr, std::vector<int64_t> perm) {
  aclopSetAttrListInt(attr, "perm", int(perm.size()), perm.data());
}

// Built at first use (GCC 12 mistakes a static array of these for uninitialized).
const std::vector<MovementCase> &movementCases() {
  static const std::vector<MovementCase> cases = {
    {"Greater f32 -> bool", "Greater", {{ACL_FLOAT, {kRows, kColumns}, 4}, {ACL_FLOAT, {kRows, kColumns}, 4}},
     {ACL_BOOL, {kRows, kColumns}, 1}, nullptr, {}},
    {"SelectV2 f32", "SelectV2",
     {{ACL_BOOL, {kRows, kColumns}, 1}, {ACL_FLOAT, {kRows, kColumns}, 4}, {ACL_FLOAT, {kRows, kColumns}, 4}},
     {ACL_FLOAT, {kRows, kColumns}, 4}, nullptr, {}},
    {"ConcatV2D f32, last axis", "ConcatV2D", {{ACL_FLOAT, {kRows, kColumns / 2}, 4}, {ACL_FLOAT, {kRows, kColumns / 2}, 4}},
     {ACL_FLOAT, {kRows, kColumns}, 4},
     [](aclopAttr *attr) {
       aclopSetAttrInt(attr, "concat_dim", -1);
       aclopSetAttrInt(attr, "N", 2);
     },
     {}},
    {"SliceD f32, half of each row", "SliceD", {{ACL_FLOAT, {kRows, 2 * kColumns}, 4}}, {ACL_FLOAT, {kRows, kColumns}, 4},
     [](aclopAttr *attr) {
       const int64_t offsets[] = {0, kColumns / 2}, size[] = {kRows, kColumns};
       aclopSetAttrListInt(attr, "offsets", 2, offsets);
       aclopSetAttrListInt(attr, "size", 2, size);
     },
     {}},
    {"GatherV2D f32 rows", "GatherV2D", {{ACL_FLOAT, {kRows, kColumns}, 4}, {ACL_INT32, {kRows}, 4}},
     {ACL_FLOAT, {kRows, kColumns}, 4}, [](aclopAttr *attr) { aclopSetAttrInt(attr, "axis", 0); }, {}},
    {"Pad f32, 8 each side", "Pad", {{ACL_FLOAT, {kRows - 16, kColumns - 16}, 4}, {ACL_INT64, {2, 2}, 8}},
     {ACL_FLOAT, {kRows, kColumns}, 4}, nullptr, {{}, {8, 8, 8, 8}}},
    // Rows not padded: the output filled, then the input copied into it.
    {"Pad f32, 8 each side of each row", "Pad", {{ACL_FLOAT, {kRows, kColumns - 16}, 4}, {ACL_INT64, {2, 2}, 8}},
     {ACL_FLOAT, {kRows, kColumns}, 4}, nullptr, {{}, {0, 0, 8, 8}}},
    // Reductions over the rows (a row of accumulators updated in memory) and along them.
    {"ReduceSumD f32, axis 0", "ReduceSumD", {{ACL_FLOAT, {kRows, kColumns}, 4}}, {ACL_FLOAT, {kColumns}, 4},
     [](aclopAttr *attr) { reduceOver(attr, 0); }, {}},
    {"ReduceSumD f32, axis 1", "ReduceSumD", {{ACL_FLOAT, {kRows, kColumns}, 4}}, {ACL_FLOAT, {kRows}, 4},
     [](aclopAttr *attr) { reduceOver(attr, 1); }, {}},
    {"ReduceMaxD f32, axis 0", "ReduceMaxD", {{ACL_FLOAT, {kRows, kColumns}, 4}}, {ACL_FLOAT, {kColumns}, 4},
     [](aclopAttr *attr) { reduceOver(attr, 0); }, {}},
    {"ReduceMaxD f32, axis 1", "ReduceMaxD", {{ACL_FLOAT, {kRows, kColumns}, 4}}, {ACL_FLOAT, {kRows}, 4},
     [](aclopAttr *attr) { reduceOver(attr, 1); }, {}},
    // The index of each row's largest element (a classifier's or a decoder's last step), and of
    // each column's.
    {"ArgMaxD f32 -> i32, axis 1", "ArgMaxD", {{ACL_FLOAT, {kRows, kColumns}, 4}}, {ACL_INT32, {kRows}, 4},
     [](aclopAttr *attr) { aclopSetAttrInt(attr, "dimension", 1); }, {}},
    {"ArgMaxD f32 -> i32, axis 0", "ArgMaxD", {{ACL_FLOAT, {kRows, kColumns}, 4}}, {ACL_INT32, {kColumns}, 4},
     [](aclopAttr *attr) { aclopSetAttrInt(attr, "dimension", 0); }, {}},
    {"MirrorPad f32 REFLECT, 8 each side", "MirrorPad", {{ACL_FLOAT, {kRows - 16, kColumns - 16}, 4}, {ACL_INT64, {2, 2}, 8}},
     {ACL_FLOAT, {kRows, kColumns}, 4}, [](aclopAttr *attr) { aclopSetAttrString(attr, "mode", "REFLECT"); },
     {{}, {8, 8, 8, 8}}},
    // A 2-D transpose, attention's head split ([tokens, heads, 512] -> [heads, tokens, 512],
    // rows moved whole), a per-head 2-D transpose, and an f16 2-D transpose.
    {"TransposeD f32 4096x4096, perm (1, 0)", "TransposeD", {{ACL_FLOAT, {kRows, kColumns}, 4}},
     {ACL_FLOAT, {kColumns, kRows}, 4}, [](aclopAttr *attr) { setPerm(attr, {1, 0}); }, {}},
    {"TransposeD f32 2048x16x512, perm (1, 0, 2)", "TransposeD", {{ACL_FLOAT, {2048, 16, 512}, 4}},
     {ACL_FLOAT, {16, 2048, 512}, 4}, [](aclopAttr *attr) { setPerm(attr, {1, 0, 2}); }, {}},
    {"TransposeD f32 16x2048x512, perm (0, 2, 1)", "TransposeD", {{ACL_FLOAT, {16, 2048, 512}, 4}},
     {ACL_FLOAT, {16, 512, 2048}, 4}, [](aclopAttr *attr) { setPerm(attr, {0, 2, 1}); }, {}},
    {"TransposeD f16 4096x4096, perm (1, 0)", "TransposeD", {{ACL_FLOAT16, {kRows, kColumns}, 2}},
     {ACL_FLOAT16, {kColumns, kRows}, 2}, [](aclopAttr *attr) { setPerm(attr, {1, 0}); }, {}},
    // Reductions over rows of 64 (a row of accumulators carried in registers), and over the
    // middle dims of NHWC images (a global average pooling's sums).
    {"ReduceSumD f32 262144x64, axis 0", "ReduceSumD", {{ACL_FLOAT, {kRows * kColumns / 64, 64}, 4}},
     {ACL_FLOAT, {64}, 4}, [](aclopAttr *attr) { reduceOver(attr, 0); }, {}},
    {"ReduceMeanD f32 16x32x32x1024, axes (1, 2)", "ReduceMeanD", {{ACL_FLOAT, {16, 32, 32, 1024}, 4}},
     {ACL_FLOAT, {16, 1024}, 4},
     [](aclopAttr *attr) {
       const int64_t axes[] = {1, 2};
       aclopSetAttrListInt(attr, "axes", 2, axes);
       aclopSetAttrBool(attr, "keep_dims", false);
     },
     {}},
  };
  return cases;
}
constexpr int kCaseCount = 20;

class MovementRun : public HandleContender {
 public:
  MovementRun(const Runtime &runtime, const MovementCase &c)
      : HandleContender(runtime), out_(c.output.type, c.output.dims, c.output.elementSize) {
    std::vector<const aclTensorDesc *> descs;
    std::vector<const aclDataBuffer *> buffers;
    for (size_t i = 0; i < c.inputs.size(); ++i) {
      const Shape &shape = c.inputs[i];
      inputs_.push_back(std::make_unique<Tensor>(shape.type, shape.dims, shape.elementSize));
      if (i < c.constValues.size() && !c.constValues[i].empty())
        aclSetTensorConst(inputs_.back()->desc, const_cast<int64_t *>(c.constValues[i].data()), c.constValues[i].size() * 8);
      descs.push_back(inputs_.back()->desc);
      buffers.push_back(inputs_.back()->buffer);
    }
    if (std::string(c.op) == "GatherV2D") {  // rows in reverse: every index in range
      std::vector<int32_t> rows(kRows);
      for (int64_t i = 0; i < kRows; ++i) rows[i] = int32_t(kRows - 1 - i);
      aclrtMemcpy(inputs_[1]->device, rows.size() * 4, rows.data(), rows.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE);
    }
    aclopAttr *attr = aclopCreateAttr();
    if (c.attributes) c.attributes(attr);
    compileAndBind(c.op, descs, out_.desc, buffers, out_.buffer, attr);
    aclopDestroyAttr(attr);
    label = c.name;
  }

 private:
  std::vector<std::unique_ptr<Tensor>> inputs_;
  Tensor out_;
};

void BM_PairedMovement(benchmark::State &state) {
  const MovementCase &c = movementCases()[state.range(0)];
  Runtime runtime;
  std::vector<std::unique_ptr<Contender>> contenders;
  contenders.push_back(std::make_unique<MovementRun>(runtime, c));
  contenders.push_back(std::make_unique<MemcpyRun>(size_t(c.traffic()) / 2));
  aclcpu_bench::runPaired(state, contenders, c.traffic(), "GB/s");
}
BENCHMARK(BM_PairedMovement)
    ->DenseRange(0, kCaseCount - 1)
    ->Iterations(kPairedRounds)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
