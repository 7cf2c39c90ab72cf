// SoftmaxV2 and LogSoftmaxV2 over trailing axes run row by row (an f32 or f64 softmax row keeps
// its exponentials in the output and scales them there, an f16 or bf16 one in an f32 row on the
// stack unless the row is longer than 4096): ranks 2 and 3, one and two reduced axes,
// rows that end in a partial vector, wide rows, single-element and empty rows, no rows, rows
// enough to divide over blocks, a million rows, every float type, and one kernel for every
// shape under ACL_OP_COMPILE_FUZZ; against a double-precision reference.
#include "conformance_fixture.h"

using namespace aclcpu_test;

namespace {

// Softmax of `shape` over its trailing `reduced` dims, values uniform in [-range, range].
Case softmaxCase(const char *op, aclDataType type, std::vector<int64_t> shape, int reduced, double range) {
  const bool log = std::string(op) == "LogSoftmaxV2";
  std::vector<int64_t> axes;
  for (int i = reduced; i > 0; --i) axes.push_back(-i);
  int64_t rowLength = 1;
  for (int i = 0; i < reduced; ++i) rowLength *= shape[shape.size() - 1 - i];
  return Case{op, {randomTensor(type, shape, 31, -range, range)},
              [axes](aclopAttr *attr) { aclopSetAttrListInt(attr, "axes", int(axes.size()), axes.data()); },
              HostTensor(type, shape),
              [log, rowLength](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                int64_t flat = ravel(index, in[0].shape), first = flat / rowLength * rowLength;
                double max = -1e300, sum = 0;
                for (int64_t j = 0; j < rowLength; ++j) max = std::max(max, in[0].at(first + j));
                for (int64_t j = 0; j < rowLength; ++j) sum += std::exp(in[0].at(first + j) - max);
                double x = in[0].at(flat);
                return log ? x - max - std::log(sum) : std::exp(x - max) / sum;
              }};
}

TEST_F(Conformance, SoftmaxOverTrailingAxes) {
  for (const char *op : {"SoftmaxV2", "LogSoftmaxV2"}) {
    for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}) {
      check(softmaxCase(op, type, {3, 5, 129}, 1, 6));
      check(softmaxCase(op, type, {4, 6, 33}, 2, 6));
    }
    check(softmaxCase(op, ACL_FLOAT, {2, 4099}, 1, 30));  // exponentials down to e^-60
    check(softmaxCase(op, ACL_FLOAT16, {2, 4097}, 1, 8));  // past the stack's f32 row: exp taken twice
    check(softmaxCase(op, ACL_FLOAT, {40, 2000}, 1, 4));   // rows over several blocks
    check(softmaxCase(op, ACL_FLOAT, {37, 1}, 1, 4));      // single-element rows: 1 (log: 0)
    check(softmaxCase(op, ACL_FLOAT, {3, 0}, 1, 4));       // empty rows
    check(softmaxCase(op, ACL_FLOAT, {0, 8}, 1, 4));       // no rows
  }
  // A million rows: a row's statistics are allocated once per call, not once per row on a
  // stack nothing unwinds until the kernel returns (64 MiB of it overflowed the worker's).
  check(softmaxCase("SoftmaxV2", ACL_FLOAT, {1 << 20, 2}, 1, 4));
  printf("softmax over trailing axes: %d cases\n", checked_);
}

// Rows holding NaN and infinities, as the reference's formula treats them: a NaN, or +inf (inf -
// inf), makes every result of its row NaN; -inf gives 0 (log: -inf) beside finite neighbours, and
// a row of -inf only is NaN. The shift skips NaN (as the reference's std::max does after the
// first element): the NaN reaches every result through the sum all the same. At the start,
// middle and end (a partial vector) of 37-long rows.
TEST_F(Conformance, SoftmaxRowsWithNanAndInfinities) {
  const double inf = INFINITY, nan = std::nan("");
  const std::vector<std::pair<int64_t, double>> specials[] = {
      {}, {{5, nan}}, {{36, nan}}, {{0, inf}}, {{36, inf}}, {{0, -inf}, {20, -inf}, {36, -inf}}, {{-1, -inf}}};
  const int64_t rows = int64_t(std::size(specials)), length = 37;
  for (const char *op : {"SoftmaxV2", "LogSoftmaxV2"})
    for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE}) {
      Case c = softmaxCase(op, type, {rows, length}, 1, 6);
      for (int64_t r = 0; r < rows; ++r)
        for (const auto &[at, value] : specials[r]) {
          if (at >= 0) c.inputs[0].set(r * length + at, value);
          else
            for (int64_t j = 0; j < length; ++j) c.inputs[0].set(r * length + j, value);
        }
      check(c);
    }
}

TEST_F(Conformance, SoftmaxCompiledForEveryShape) {
  ASSERT_EQ(aclopSetCompileFlag(ACL_OP_COMPILE_FUZZ), ACL_SUCCESS);
  using Shape = std::vector<int64_t>;
  for (const Shape &shape : {Shape{5, 77}, Shape{17, 8}, Shape{1, 300}}) {
    check(softmaxCase("SoftmaxV2", ACL_FLOAT, shape, 1, 8));
    check(softmaxCase("LogSoftmaxV2", ACL_FLOAT16, shape, 1, 8));
  }
  ASSERT_EQ(aclopSetCompileFlag(ACL_OP_COMPILE_DEFAULT), ACL_SUCCESS);
}

}  // namespace
