// Pooling conformance: MaxPool, AvgPool (TensorFlow's SAME / VALID), MaxPoolV3 and AvgPoolV2
// (CALCULATED pads, ceil_mode, global_pooling, exclusive, divisor_override) against a direct
// plain loop that counts window positions, over layouts, dtypes, odd and empty shapes.
#include <fstream>
#include <iterator>
#include <limits>

#include "../common/temp_files.h"
#include "conformance_fixture.h"

using namespace aclcpu_test;

namespace {

struct Pool {
  const char *op;
  aclDataType type;
  aclFormat format;  // NCHW or NHWC; ND (with data_format) when `nd`
  int64_t batch, channels, height, width;
  int64_t kh, kw, sh, sw;
  const char *padding;                       // SAME, VALID or (V2/V3) CALCULATED
  std::vector<int64_t> pads = {0, 0, 0, 0};  // top, bottom, left, right: CALCULATED only
  bool ceilMode = false, global = false, exclusive = true, nd = false;
  int64_t divisorOverride = 0;
};

bool isV2(const Pool &p) { return std::string(p.op) == "MaxPoolV3" || std::string(p.op) == "AvgPoolV2"; }
bool isAverage(const Pool &p) { return std::string(p.op).find("Avg") == 0; }

// One axis as CANN's operator pages define it: the output size and the padding around it.
struct Axis {
  int64_t in, window, stride, before, after, out;
};

Axis axisOf(const Pool &p, int64_t in, int64_t window, int64_t stride, int64_t before, int64_t after) {
  Axis a{in, window, stride, 0, 0, 0};
  std::string padding = p.padding;
  if (p.global) {
    a = {in, in, 1, 0, 0, 1};
  } else if (padding == "SAME") {
    a.out = (in + stride - 1) / stride;
    int64_t total = std::max<int64_t>((a.out - 1) * stride + window - in, 0);
    a.before = total / 2, a.after = total - total / 2;
  } else if (padding == "VALID") {
    a.out = (in + stride - window) / stride;
  } else {
    a.before = before, a.after = after;
    int64_t span = in + before + after - window;
    a.out = (p.ceilMode ? (span + stride - 1) / stride : span / stride) + 1;
    if (p.ceilMode && (a.out - 1) * stride >= in + before) --a.out;
  }
  if (in == 0) a.out = 0;
  return a;
}

// The call, and its reference: a plain loop over the window that counts the positions inside
// the input (and inside the padded input, for averages that count the padding).
Case poolCase(const Pool &p) {
  const aclFormat nchw = ACL_FORMAT_NCHW;
  const bool isNchw = p.format == nchw;
  auto place = [isNchw](int64_t n, int64_t c, int64_t h, int64_t w) {
    return isNchw ? std::vector<int64_t>{n, c, h, w} : std::vector<int64_t>{n, h, w, c};
  };
  Axis rows = axisOf(p, p.height, p.kh, p.sh, p.pads[0], p.pads[1]);
  Axis cols = axisOf(p, p.width, p.kw, p.sw, p.pads[2], p.pads[3]);
  bool average = isAverage(p);
  Reference reference = [=](const std::vector<HostTensor> &in, const std::vector<int64_t> &out) {
    int64_t n = out[0], c = isNchw ? out[1] : out[3], y = isNchw ? out[2] : out[1], x = isNchw ? out[3] : out[2];
    double best = -std::numeric_limits<double>::infinity(), sum = 0;
    int64_t inside = 0, insidePadded = 0;
    for (int64_t i = 0; i < rows.window; ++i)
      for (int64_t j = 0; j < cols.window; ++j) {
        int64_t row = y * rows.stride + i - rows.before, col = x * cols.stride + j - cols.before;
        bool inPadded =
            row >= -rows.before && row < rows.in + rows.after && col >= -cols.before && col < cols.in + cols.after;
        insidePadded += inPadded;
        if (row < 0 || row >= rows.in || col < 0 || col >= cols.in) continue;
        double value = in[0].at(ravel(place(n, c, row, col), in[0].shape));
        best = std::max(best, value);
        sum += value;
        ++inside;
      }
    if (!average) return best;
    double divisor = p.divisorOverride ? double(p.divisorOverride)
                     : p.exclusive     ? double(inside)
                                       : double(insidePadded);
    return sum / divisor;
  };
  std::vector<int64_t> ksize = place(1, 1, p.kh, p.kw), strides = place(1, 1, p.sh, p.sw);
  auto attributes = [=](aclopAttr *attr) {
    aclopSetAttrListInt(attr, "ksize", 4, ksize.data());
    aclopSetAttrListInt(attr, "strides", 4, strides.data());
    aclopSetAttrString(attr, isV2(p) ? "padding_mode" : "padding", p.padding);
    aclopSetAttrString(attr, "data_format", isNchw ? "NCHW" : "NHWC");
    if (!isV2(p)) return;
    aclopSetAttrListInt(attr, "pads", 4, p.pads.data());
    aclopSetAttrBool(attr, "ceil_mode", p.ceilMode);
    aclopSetAttrBool(attr, "global_pooling", p.global);
    if (!average) return;
    aclopSetAttrBool(attr, "exclusive", p.exclusive);
    aclopSetAttrInt(attr, "divisor_override", p.divisorOverride);
  };
  double lo = p.type == ACL_UINT8 ? 0 : -50, hi = 50;
  aclFormat format = p.nd ? ACL_FORMAT_ND : p.format;
  return Case{p.op,       {randomTensor(p.type, place(p.batch, p.channels, p.height, p.width), 21, lo, hi)},
              attributes, HostTensor(p.type, place(p.batch, p.channels, rows.out, cols.out)),
              reference,  {format},
              format};
}

TEST_F(Conformance, Pooling) {
  const aclFormat nchw = ACL_FORMAT_NCHW, nhwc = ACL_FORMAT_NHWC;
  std::vector<Pool> pools = {
      {"MaxPool", ACL_FLOAT, nhwc, 2, 5, 7, 9, 3, 3, 2, 2, "SAME"},
      {"MaxPool", ACL_FLOAT16, nchw, 1, 3, 8, 8, 2, 2, 2, 2, "VALID"},
      {"MaxPool", ACL_BF16, nhwc, 1, 4, 6, 5, 3, 2, 1, 2, "SAME"},
      {"MaxPool", ACL_INT32, nhwc, 1, 4, 6, 5, 3, 2, 1, 2, "SAME"},
      {"MaxPool", ACL_INT8, nchw, 2, 2, 7, 6, 2, 3, 3, 1, "VALID"},
      {"MaxPool", ACL_UINT8, nhwc, 1, 3, 5, 5, 3, 3, 1, 1, "SAME"},
      {"MaxPool", ACL_FLOAT, nhwc, 0, 3, 5, 5, 3, 3, 2, 2, "SAME"},     // empty batch
      {"MaxPool", ACL_FLOAT, nhwc, 1, 2, 5, 6, 1, 1, 3, 2, "SAME"},     // stride > window
      {"MaxPool", ACL_FLOAT, nhwc, 2, 16, 33, 33, 3, 3, 2, 2, "SAME"},  // several blocks
      {"AvgPool", ACL_FLOAT, nhwc, 2, 5, 7, 9, 3, 3, 2, 2, "SAME"},
      {"AvgPool", ACL_BF16, nchw, 1, 4, 10, 7, 2, 2, 2, 2, "VALID"},
      {"AvgPool", ACL_FLOAT16, nchw, 1, 3, 6, 6, 3, 3, 1, 1, "SAME", {0, 0, 0, 0}, false, false, true, true},
      {"AvgPool", ACL_DOUBLE, nhwc, 1, 2, 5, 4, 2, 2, 1, 1, "VALID"},
      {"AvgPool", ACL_FLOAT, nhwc, 1, 1, 1, 1, 1, 1, 1, 1, "VALID"},
      {"MaxPoolV3", ACL_FLOAT, nchw, 1, 3, 7, 7, 3, 3, 2, 2, "CALCULATED", {1, 1, 1, 1}},
      {"MaxPoolV3", ACL_FLOAT, nchw, 1, 3, 7, 8, 3, 2, 2, 3, "CALCULATED", {1, 0, 0, 1}, true},
      {"MaxPoolV3", ACL_FLOAT16, nhwc, 2, 3, 5, 6, 2, 2, 2, 2, "SAME"},
      {"MaxPoolV3", ACL_FLOAT, nchw, 1, 2, 0, 5, 3, 3, 1, 1, "CALCULATED", {2, 2, 1, 1}},  // no rows: no windows
      {"MaxPoolV3", ACL_FLOAT16, nhwc, 2, 3, 5, 6, 2, 2, 2, 2, "CALCULATED", {0, 0, 0, 0}, false, true},
      {"AvgPoolV2", ACL_FLOAT, nchw, 2, 3, 9, 6, 3, 3, 2, 2, "CALCULATED", {1, 1, 1, 1}, true, false, false},
      {"AvgPoolV2", ACL_FLOAT, nchw, 1, 2, 8, 7, 3, 3, 2, 2, "CALCULATED", {1, 2, 0, 1}, false, false, true},
      {"AvgPoolV2", ACL_FLOAT, nchw, 1, 2, 8, 7, 3, 3, 2, 2, "CALCULATED", {1, 2, 0, 1}, true, false, false},
      {"AvgPoolV2", ACL_FLOAT, nhwc, 1, 3, 6, 7, 2, 3, 2, 2, "SAME", {0, 0, 0, 0}, false, false, true, false, 4},
      {"AvgPoolV2", ACL_FLOAT, nchw, 2, 16, 7, 7, 7, 7, 1, 1, "CALCULATED", {0, 0, 0, 0}, false, true},
      {"AvgPoolV2", ACL_BF16, nhwc, 2, 5, 6, 3, 1, 1, 1, 1, "SAME", {0, 0, 0, 0}, false, true},
      {"AvgPoolV2", ACL_FLOAT, nchw, 1, 4, 5, 6, 1, 1, 1, 1, "VALID", {0, 0, 0, 0}, false, true, true, false, 7},
      {"MaxPoolV3", ACL_INT8, nchw, 2, 3, 5, 4, 1, 1, 1, 1, "CALCULATED", {0, 0, 0, 0}, false, true},
      {"MaxPool", ACL_FLOAT, nchw, 1, 2, 9, 9, 5, 5, 2, 2, "SAME"},  // a window of 25: reduction loops
      {"AvgPoolV2", ACL_FLOAT16, nhwc, 1, 3, 11, 10, 5, 4, 3, 2, "CALCULATED", {2, 1, 0, 3}, true, false, false},
      {"AvgPoolV2", ACL_FLOAT16, nhwc, 1, 8, 9, 9, 3, 3, 2, 2, "VALID", {0, 0, 0, 0}, false, false, false},
      // The output's parts (WindowParts): NCHW column edges a column a part, with rows that 8-lane
      // vectors do not divide; edges of 2 positions, exclusive and not; ceil mode's last window
      // past an unpadded input; an input smaller than the window.
      {"MaxPool", ACL_FLOAT, nchw, 1, 3, 9, 19, 3, 3, 1, 1, "SAME"},
      {"AvgPoolV2", ACL_FLOAT, nchw, 1, 2, 7, 10, 5, 5, 1, 1, "CALCULATED", {2, 2, 2, 2}, false, false, true},
      {"AvgPoolV2", ACL_FLOAT, nchw, 1, 2, 7, 10, 5, 5, 1, 1, "CALCULATED", {2, 2, 2, 2}, false, false, false},
      {"MaxPoolV3", ACL_FLOAT, nchw, 1, 2, 7, 7, 2, 2, 2, 2, "CALCULATED", {0, 0, 0, 0}, true},
      {"AvgPoolV2", ACL_FLOAT, nhwc, 1, 3, 7, 9, 3, 3, 2, 2, "CALCULATED", {0, 0, 0, 0}, true, false, false},
      {"MaxPool", ACL_FLOAT, nhwc, 1, 3, 2, 2, 3, 3, 1, 1, "SAME"},
      {"AvgPool", ACL_FLOAT, nchw, 1, 3, 2, 2, 3, 3, 1, 1, "SAME"},
      // NCHW windows at a stride along whole vectors of the output's rows: each read is one load
      // of stride x lanes elements and a shuffle (aclop-lower-strided-gathers), except where that
      // load would pass the input's end (the last vector's second column: the gather remains).
      // Strides 2 and 3, 8, 16 and 32 lanes, a row ending in a partial vector.
      {"MaxPool", ACL_FLOAT, nchw, 2, 3, 6, 32, 2, 2, 2, 2, "VALID"},
      {"AvgPool", ACL_FLOAT, nchw, 1, 2, 6, 35, 2, 2, 2, 2, "VALID"},
      {"AvgPool", ACL_FLOAT16, nchw, 1, 2, 6, 48, 3, 3, 3, 3, "VALID"},
      {"MaxPool", ACL_INT8, nchw, 1, 2, 4, 64, 2, 2, 2, 2, "VALID"},
  };
  for (const Pool &p : pools) check(poolCase(p));
  printf("pooling: %d cases\n", checked_);
}

// The rewrite above, in libascendcl's own JIT: its index vectors' constants are matched through
// the ConstantLike trait, a query that once failed only there (runtime/libascendcl.map says why),
// leaving every strided read a gather while op-opt's lit tests passed. The IR dump holds the
// pass's output only where the pass changed the IR.
TEST_F(Conformance, StridedPoolingReadsAreRewrittenInTheLibrary) {
  TempFolder dumps;
  ScopedEnv dump("ACLCPU_DUMP_DIR", dumps.path.c_str());
  check(poolCase({"MaxPool", ACL_FLOAT, ACL_FORMAT_NCHW, 1, 3, 4, 40, 2, 2, 2, 2, "VALID"}));
  std::string passes;
  for (const std::string &file : dumps.files())
    if (file.size() > 12 && file.compare(file.size() - 12, 12, ".passes.mlir") == 0) {
      std::ifstream in(file);
      passes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
  ASSERT_FALSE(passes.empty()) << "no pass dump in " << dumps.path;
  EXPECT_NE(passes.find("(aclop-lower-strided-gathers)"), std::string::npos);
}

// Under ACL_OP_COMPILE_FUZZ one kernel serves every batch, height and width: SAME padding and
// ceil_mode's output sizes are worked out at run time.
TEST_F(Conformance, PoolingCompiledForEveryShape) {
  ASSERT_EQ(aclopSetCompileFlag(ACL_OP_COMPILE_FUZZ), ACL_SUCCESS);
  for (int64_t size : {9, 4, 17}) {
    check(poolCase({"MaxPool", ACL_FLOAT, ACL_FORMAT_NHWC, size % 3 + 2, 5, size, size + 3, 3, 3, 2, 2, "SAME"}));
    check(poolCase({"AvgPoolV2",
                    ACL_FLOAT,
                    ACL_FORMAT_NCHW,
                    2,
                    3,
                    size,
                    size - 1,
                    3,
                    2,
                    2,
                    2,
                    "CALCULATED",
                    {1, 1, 0, 1},
                    true,
                    false,
                    false}));
    check(poolCase({"AvgPool", ACL_FLOAT16, ACL_FORMAT_NHWC, 3, 4, size + 1, size, 2, 3, 1, 2, "SAME"}));
    check(poolCase({"MaxPool", ACL_FLOAT, ACL_FORMAT_NCHW, 1, 2, size, size + 2, 5, 4, 2, 3, "SAME"}));
    check(poolCase({"AvgPoolV2", ACL_FLOAT, ACL_FORMAT_NCHW, 2, 3, size, size - 2, 1, 1, 1, 1, "VALID",
                    {0, 0, 0, 0}, false, true}));
  }
  ASSERT_EQ(aclopSetCompileFlag(ACL_OP_COMPILE_DEFAULT), ACL_SUCCESS);
}

}  // namespace
