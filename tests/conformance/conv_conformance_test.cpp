// Conv2D conformance against a direct plain-loop convolution: each tensor in its own format
// (NCHW / NHWC data, NCHW / NHWC / HWCN filters, ND taking data_format), strides, asymmetric
// pads, dilations, groups, bias present or absent (an ACL_DT_UNDEFINED description),
// f32/f16/bf16. Without groups the convolution runs as a product (im2col, or the input itself
// for 1x1 stride-1 filters): the cases cover each filter layout on both data layouts there, and
// shapes whose rows span several of the product's tiles. Depthwise convolutions (one input
// channel a group), and groups of a few channels, run as generics reading each window in a
// straight run, over parts of the output (the windows inside the input; the edges, whose kernel
// positions in the padding are dropped or masked): the cases cover both data layouts with every
// filter layout, channel multipliers, uneven pads, strides and dilations, windows too wide to
// unroll, padding past the window's reach, inputs smaller than the window, edges too wide to
// split a position a part, rows that vectors do not divide, and enough channels to divide over
// blocks.
#include "conformance_fixture.h"

using namespace aclcpu_test;

namespace {

struct Layout {
  aclFormat format;
  int n, c, h, w;  // positions of batch (out channels), channels, height, width
};
const Layout nchw{ACL_FORMAT_NCHW, 0, 1, 2, 3}, nhwc{ACL_FORMAT_NHWC, 0, 3, 1, 2}, hwcn{ACL_FORMAT_HWCN, 3, 2, 0, 1};

struct Conv {
  aclDataType type;
  Layout data, filter;
  int64_t batch, channels, height, width, outChannels, kh, kw;
  int64_t stride[2], dilation[2], groups;
  std::vector<int64_t> pads;  // top, bottom, left, right
  bool bias, ndWithAttribute;
};

std::vector<int64_t> place(const Layout &layout, int64_t n, int64_t c, int64_t h, int64_t w) {
  std::vector<int64_t> dims(4);
  dims[layout.n] = n, dims[layout.c] = c, dims[layout.h] = h, dims[layout.w] = w;
  return dims;
}

// Sets strides, pads, dilations (in the data's layout) and data_format: what Conv2D and
// DepthwiseConv2D share.
std::function<void(aclopAttr *)> windowAttributes(const Layout &data, const int64_t stride[2], const int64_t dilation[2],
                                                  std::vector<int64_t> pads) {
  std::vector<int64_t> strides = {1, 1, 1, 1}, dilations = {1, 1, 1, 1};
  strides[data.h] = stride[0], strides[data.w] = stride[1];
  dilations[data.h] = dilation[0], dilations[data.w] = dilation[1];
  const char *dataFormat = data.format == ACL_FORMAT_NCHW ? "NCHW" : "NHWC";
  return [=](aclopAttr *attr) {
    aclopSetAttrListInt(attr, "strides", 4, strides.data());
    aclopSetAttrListInt(attr, "pads", 4, pads.data());
    aclopSetAttrListInt(attr, "dilations", 4, dilations.data());
    aclopSetAttrString(attr, "data_format", dataFormat);
  };
}

// The call, and its reference: the sum over the window's positions inside the input.
Case convCase(const Conv &conv) {
  int64_t groupChannels = conv.channels / conv.groups;
  int64_t oh = (conv.height + conv.pads[0] + conv.pads[1] - conv.dilation[0] * (conv.kh - 1) - 1) / conv.stride[0] + 1;
  int64_t ow = (conv.width + conv.pads[2] + conv.pads[3] - conv.dilation[1] * (conv.kw - 1) - 1) / conv.stride[1] + 1;
  std::vector<HostTensor> inputs = {
      randomTensor(conv.type, place(conv.data, conv.batch, conv.channels, conv.height, conv.width), 11, -1, 1),
      randomTensor(conv.type, place(conv.filter, conv.outChannels, groupChannels, conv.kh, conv.kw), 12, -1, 1),
      conv.bias ? randomTensor(conv.type, {conv.outChannels}, 13, -1, 1) : HostTensor(ACL_DT_UNDEFINED, {})};
  Layout data = conv.data, filter = conv.filter;
  Reference reference = [=](const std::vector<HostTensor> &in, const std::vector<int64_t> &out) {
    int64_t n = out[data.n], f = out[data.c], y = out[data.h], x = out[data.w];
    int64_t group = f / (conv.outChannels / conv.groups);
    double sum = conv.bias ? in[2].at(f) : 0;
    for (int64_t c = 0; c < groupChannels; ++c)
      for (int64_t i = 0; i < conv.kh; ++i)
        for (int64_t j = 0; j < conv.kw; ++j) {
          int64_t row = y * conv.stride[0] + i * conv.dilation[0] - conv.pads[0];
          int64_t col = x * conv.stride[1] + j * conv.dilation[1] - conv.pads[2];
          if (row < 0 || row >= conv.height || col < 0 || col >= conv.width) continue;
          auto xi = place(data, n, group * groupChannels + c, row, col);
          auto wi = place(filter, f, c, i, j);
          sum += in[0].at(ravel(xi, in[0].shape)) * in[1].at(ravel(wi, in[1].shape));
        }
    return sum;
  };
  auto window = windowAttributes(data, conv.stride, conv.dilation, conv.pads);
  auto attributes = [=](aclopAttr *attr) {
    window(attr);
    aclopSetAttrInt(attr, "groups", conv.groups);
  };
  aclFormat nd = ACL_FORMAT_ND;
  return Case{"Conv2D", inputs, attributes, HostTensor(conv.type, place(data, conv.batch, conv.outChannels, oh, ow)),
              reference,
              conv.ndWithAttribute ? std::vector<aclFormat>{nd, nd, nd}
                                   : std::vector<aclFormat>{data.format, filter.format, nd},
              conv.ndWithAttribute ? nd : data.format};
}

TEST_F(Conformance, Conv2D) {
  const Conv convs[] = {
      {ACL_FLOAT, nchw, nchw, 2, 3, 7, 6, 4, 3, 3, {1, 1}, {1, 1}, 1, {1, 1, 1, 1}, true, false},
      {ACL_FLOAT, nhwc, nchw, 1, 4, 9, 8, 6, 3, 2, {2, 1}, {1, 2}, 2, {0, 1, 2, 0}, false, false},
      {ACL_FLOAT16, nhwc, hwcn, 1, 3, 5, 5, 8, 3, 3, {2, 2}, {1, 1}, 1, {1, 1, 1, 1}, false, false},
      {ACL_BF16, nchw, nhwc, 1, 2, 6, 6, 2, 2, 2, {1, 1}, {2, 2}, 2, {0, 0, 0, 0}, true, false},
      {ACL_FLOAT, nchw, nchw, 1, 1, 1, 1, 1, 1, 1, {1, 1}, {1, 1}, 1, {0, 0, 0, 0}, true, false},
      {ACL_FLOAT, nchw, nchw, 1, 3, 5, 4, 5, 3, 3, {1, 1}, {1, 1}, 1, {2, 2, 2, 2}, false, true},
      {ACL_FLOAT, nchw, nchw, 2, 16, 40, 40, 16, 3, 3, {1, 1}, {1, 1}, 1, {1, 1, 1, 1}, true, false},
      // The product form's filter layouts: NHWC (OHWI) on NHWC data, NCHW (OIHW) with dilation
      // and uneven pads on NHWC data, HWCN on NCHW data.
      {ACL_FLOAT, nhwc, nhwc, 2, 5, 8, 7, 6, 3, 2, {1, 2}, {1, 1}, 1, {1, 0, 1, 1}, true, false},
      {ACL_BF16, nhwc, nchw, 1, 6, 9, 9, 5, 3, 3, {2, 2}, {2, 1}, 1, {1, 2, 0, 1}, true, false},
      {ACL_FLOAT, nchw, hwcn, 2, 4, 6, 5, 3, 2, 3, {1, 1}, {1, 1}, 1, {0, 1, 1, 1}, false, false},
      // 1x1 with stride 1 and no padding reads the input as the patch matrix: every filter
      // layout on both data layouts (NCHW computes out channels x pixels; the HWCN filter is
      // then the transposed operand), and a 1x1 with stride 2, which needs patches.
      {ACL_FLOAT, nhwc, hwcn, 2, 8, 5, 7, 6, 1, 1, {1, 1}, {1, 1}, 1, {0, 0, 0, 0}, true, false},
      {ACL_FLOAT, nhwc, nchw, 1, 7, 3, 4, 9, 1, 1, {1, 1}, {2, 2}, 1, {0, 0, 0, 0}, false, false},
      {ACL_FLOAT16, nchw, hwcn, 2, 5, 4, 3, 7, 1, 1, {1, 1}, {1, 1}, 1, {0, 0, 0, 0}, true, false},
      {ACL_FLOAT, nchw, nhwc, 1, 9, 6, 6, 4, 1, 1, {1, 1}, {1, 1}, 1, {0, 0, 0, 0}, false, false},
      {ACL_FLOAT, nchw, nchw, 1, 4, 7, 7, 3, 1, 1, {2, 2}, {1, 1}, 1, {0, 0, 0, 0}, false, false},
      // One image in the output's layout: the epilogue reads the product's [x, y] result as it is,
      // and an f32 bias folds into the product (along its rows for NCHW, a ukernel's Cin with
      // column stride 0; along its columns for NHWC); f16 narrows in an epilogue of its own.
      {ACL_FLOAT, nchw, nchw, 1, 32, 20, 21, 40, 1, 1, {1, 1}, {1, 1}, 1, {0, 0, 0, 0}, true, false},
      {ACL_FLOAT, nchw, hwcn, 1, 24, 9, 30, 70, 1, 1, {1, 1}, {1, 1}, 1, {0, 0, 0, 0}, true, false},
      {ACL_FLOAT16, nchw, nchw, 1, 8, 6, 7, 12, 1, 1, {1, 1}, {1, 1}, 1, {0, 0, 0, 0}, true, false},
      {ACL_FLOAT, nhwc, hwcn, 1, 16, 13, 13, 64, 3, 3, {1, 1}, {1, 1}, 1, {1, 1, 1, 1}, true, false},
      {ACL_FLOAT, nhwc, hwcn, 1, 24, 28, 26, 40, 3, 3, {1, 1}, {1, 1}, 1, {1, 1, 1, 1}, true, false},
      // Rows over several of the product's tiles (M = 28 * 26 pixels per image, depth 216).
      {ACL_FLOAT, nhwc, hwcn, 2, 24, 28, 26, 40, 3, 3, {1, 1}, {1, 1}, 1, {1, 1, 1, 1}, true, false},
      {ACL_FLOAT, nchw, nchw, 1, 24, 30, 29, 33, 3, 3, {1, 1}, {1, 1}, 1, {1, 1, 1, 1}, true, false},
      // NCHW whose pixels and out channels vectors divide: the epilogue transposes the sums in
      // V x V tiles (the 40x40 case above too), f16 and bf16 narrowed there, the stem's 7x7/2.
      {ACL_FLOAT16, nchw, nchw, 1, 8, 16, 16, 32, 3, 3, {1, 1}, {1, 1}, 1, {1, 1, 1, 1}, false, false},
      {ACL_BF16, nchw, hwcn, 2, 4, 16, 8, 16, 3, 3, {1, 1}, {1, 1}, 1, {1, 1, 1, 1}, true, false},
      {ACL_FLOAT, nchw, nchw, 1, 3, 64, 64, 16, 7, 7, {2, 2}, {1, 1}, 1, {3, 3, 3, 3}, false, false},
      // Products among other nests on two blocks, each of which must read only the patches it
      // made: B stored (n, k) over 64 out channels (row panels, not 32-column strips over all
      // rows); pixels that 12-row tiles do not divide (8-row tiles, not a nest of the last 4 rows
      // over columns); a product of one 8-row tile over four column tiles (one block); a ukernel
      // product's rows by 64.
      {ACL_FLOAT, nchw, nchw, 1, 3, 40, 40, 64, 7, 7, {2, 2}, {1, 1}, 1, {3, 3, 3, 3}, false, false},
      {ACL_FLOAT, nhwc, hwcn, 1, 16, 20, 20, 64, 3, 3, {1, 1}, {1, 1}, 1, {1, 1, 1, 1}, false, false},
      {ACL_FLOAT, nhwc, hwcn, 1, 128, 4, 2, 128, 3, 3, {1, 1}, {1, 1}, 1, {1, 1, 1, 1}, false, false},
      {ACL_FLOAT, nhwc, hwcn, 1, 16, 10, 10, 64, 3, 3, {1, 1}, {1, 1}, 1, {1, 1, 1, 1}, false, false},
      // An empty batch; no out channels.
      {ACL_FLOAT, nhwc, hwcn, 0, 3, 5, 5, 4, 3, 3, {1, 1}, {1, 1}, 1, {1, 1, 1, 1}, true, false},
      {ACL_FLOAT, nchw, nchw, 1, 3, 5, 5, 0, 3, 3, {1, 1}, {1, 1}, 1, {1, 1, 1, 1}, false, false},
      // Depthwise.
      {ACL_FLOAT, nhwc, hwcn, 2, 8, 9, 7, 8, 3, 3, {1, 1}, {1, 1}, 8, {1, 1, 1, 1}, true, false},
      {ACL_FLOAT, nchw, nchw, 1, 6, 10, 11, 6, 3, 3, {2, 2}, {1, 1}, 6, {1, 0, 2, 1}, true, false},
      {ACL_FLOAT16, nchw, nchw, 2, 4, 9, 8, 8, 5, 5, {1, 1}, {2, 1}, 4, {2, 2, 2, 2}, false, false},
      {ACL_FLOAT, nhwc, nchw, 1, 5, 7, 9, 15, 3, 2, {1, 2}, {1, 1}, 5, {0, 0, 0, 0}, true, false},
      {ACL_BF16, nchw, hwcn, 1, 16, 12, 12, 16, 7, 7, {1, 1}, {1, 1}, 16, {3, 3, 3, 3}, true, false},
      {ACL_FLOAT, nhwc, nhwc, 1, 3, 12, 11, 6, 9, 9, {1, 1}, {1, 1}, 3, {4, 4, 4, 4}, true, false},
      {ACL_FLOAT, nchw, nchw, 1, 48, 40, 40, 48, 3, 3, {1, 1}, {1, 1}, 48, {1, 1, 1, 1}, true, false},
      {ACL_FLOAT, nhwc, hwcn, 1, 40, 33, 30, 40, 3, 3, {1, 1}, {1, 1}, 40, {1, 1, 1, 1}, false, false},
      {ACL_FLOAT, nchw, nchw, 0, 4, 6, 6, 4, 3, 3, {1, 1}, {1, 1}, 4, {1, 1, 1, 1}, true, false},
      // Groups of a few channels (ResNeXt's 4 in, 4 out) unroll as depthwise ones do; 6 channels
      // x 3x3 is past the unrolled window and takes the direct nest.
      {ACL_FLOAT, nchw, nchw, 1, 32, 20, 19, 32, 3, 3, {1, 1}, {1, 1}, 8, {1, 1, 1, 1}, true, false},
      {ACL_FLOAT, nhwc, hwcn, 2, 16, 9, 10, 24, 3, 3, {2, 1}, {1, 1}, 4, {1, 1, 1, 1}, true, false},
      {ACL_FLOAT, nhwc, nchw, 1, 12, 8, 7, 4, 3, 3, {1, 1}, {1, 1}, 2, {1, 1, 1, 1}, false, false},
      // One NCHW image over several blocks, out channel c reading another channel (multiplier
      // 2; groups of 3): blocks divide channels, and a padded copy would be divided otherwise.
      {ACL_FLOAT, nchw, nchw, 1, 24, 40, 40, 48, 3, 3, {1, 1}, {1, 1}, 24, {1, 1, 1, 1}, true, false},
      {ACL_FLOAT, nchw, nchw, 1, 33, 40, 40, 44, 3, 3, {1, 1}, {1, 1}, 11, {1, 1, 1, 1}, true, false},
      // The output's parts: padding past the window's reach (corners that read nothing but the
      // bias), an input smaller than the window (no middle), NCHW column edges of 4 positions
      // (one masked part each), strides with dilations and uneven pads, and rows of 20 channels
      // and of 17 columns that 8-lane vectors do not divide (a remainder nest of its own).
      {ACL_FLOAT, nchw, nchw, 1, 4, 5, 6, 4, 3, 3, {1, 1}, {1, 1}, 4, {3, 2, 3, 3}, true, false},
      {ACL_FLOAT, nhwc, hwcn, 1, 4, 5, 6, 4, 3, 3, {1, 1}, {1, 1}, 4, {3, 2, 3, 3}, true, false},
      {ACL_FLOAT, nchw, nchw, 2, 3, 2, 2, 3, 3, 3, {1, 1}, {1, 1}, 3, {1, 1, 1, 1}, true, false},
      {ACL_FLOAT, nchw, nchw, 1, 3, 7, 9, 3, 5, 5, {1, 1}, {1, 1}, 3, {4, 1, 4, 4}, true, false},
      {ACL_FLOAT, nchw, nchw, 1, 4, 11, 13, 8, 3, 3, {2, 2}, {2, 2}, 4, {2, 3, 3, 2}, false, false},
      {ACL_FLOAT, nhwc, nhwc, 1, 4, 11, 13, 4, 3, 3, {2, 2}, {2, 2}, 4, {2, 3, 3, 2}, true, false},
      {ACL_FLOAT, nhwc, hwcn, 1, 20, 7, 6, 20, 3, 3, {1, 1}, {1, 1}, 20, {1, 1, 1, 1}, true, false},
      {ACL_FLOAT16, nchw, nchw, 1, 8, 17, 17, 8, 3, 3, {1, 1}, {1, 1}, 8, {1, 1, 1, 1}, true, false},
      // NHWC with several out channels a group, viewed as [n, h, w, group, out in group]: ResNeXt's
      // groups of 4 in, 4 out (f16, bias); 2 in, 6 out with strides, dilations, uneven pads and an
      // OHWI filter (its out channels outermost).
      {ACL_FLOAT16, nhwc, hwcn, 1, 16, 9, 10, 16, 3, 3, {1, 1}, {1, 1}, 4, {1, 1, 1, 1}, true, false},
      {ACL_BF16, nhwc, nhwc, 2, 6, 11, 9, 18, 3, 3, {2, 1}, {1, 2}, 3, {0, 2, 1, 1}, true, false}};
  for (const Conv &conv : convs) check(convCase(conv));
  printf("conv2d: %d cases\n", checked_);
}

// DepthwiseConv2D: x NCHW or NHWC; the filter [kh, kw, C, M] (HWCN, or ND) or [M, C, kh, kw]
// (NCHW); output channel c * M + m.
struct Depthwise {
  aclDataType type;
  Layout data;
  aclFormat filterFormat;
  int64_t batch, channels, height, width, multiplier, kh, kw;
  int64_t stride[2], dilation[2];
  std::vector<int64_t> pads;  // top, bottom, left, right
  bool bias;
};

Case depthwiseCase(const Depthwise &dw) {
  const int64_t m = dw.multiplier, outChannels = dw.channels * m;
  int64_t oh = (dw.height + dw.pads[0] + dw.pads[1] - dw.dilation[0] * (dw.kh - 1) - 1) / dw.stride[0] + 1;
  int64_t ow = (dw.width + dw.pads[2] + dw.pads[3] - dw.dilation[1] * (dw.kw - 1) - 1) / dw.stride[1] + 1;
  const bool nchwFilter = dw.filterFormat == ACL_FORMAT_NCHW;
  std::vector<int64_t> filterDims = nchwFilter ? std::vector<int64_t>{m, dw.channels, dw.kh, dw.kw}
                                                : std::vector<int64_t>{dw.kh, dw.kw, dw.channels, m};
  std::vector<HostTensor> inputs = {
      randomTensor(dw.type, place(dw.data, dw.batch, dw.channels, dw.height, dw.width), 21, -1, 1),
      randomTensor(dw.type, filterDims, 22, -1, 1),
      dw.bias ? randomTensor(dw.type, {outChannels}, 23, -1, 1) : HostTensor(ACL_DT_UNDEFINED, {})};
  Layout data = dw.data;
  Reference reference = [=](const std::vector<HostTensor> &in, const std::vector<int64_t> &out) {
    int64_t n = out[data.n], o = out[data.c], y = out[data.h], x = out[data.w], c = o / m, q = o % m;
    double sum = dw.bias ? in[2].at(o) : 0;
    for (int64_t i = 0; i < dw.kh; ++i)
      for (int64_t j = 0; j < dw.kw; ++j) {
        int64_t row = y * dw.stride[0] + i * dw.dilation[0] - dw.pads[0];
        int64_t col = x * dw.stride[1] + j * dw.dilation[1] - dw.pads[2];
        if (row < 0 || row >= dw.height || col < 0 || col >= dw.width) continue;
        std::vector<int64_t> wi = nchwFilter ? std::vector<int64_t>{q, c, i, j} : std::vector<int64_t>{i, j, c, q};
        sum += in[0].at(ravel(place(data, n, c, row, col), in[0].shape)) * in[1].at(ravel(wi, in[1].shape));
      }
    return sum;
  };
  return Case{"DepthwiseConv2D", inputs, windowAttributes(data, dw.stride, dw.dilation, dw.pads),
              HostTensor(dw.type, place(data, dw.batch, outChannels, oh, ow)), reference,
              std::vector<aclFormat>{data.format, dw.filterFormat, ACL_FORMAT_ND}, data.format};
}

TEST_F(Conformance, DepthwiseConv2D) {
  const Depthwise cases[] = {
      {ACL_FLOAT, nhwc, ACL_FORMAT_HWCN, 2, 8, 9, 7, 1, 3, 3, {1, 1}, {1, 1}, {1, 1, 1, 1}, true},
      {ACL_FLOAT16, nhwc, ACL_FORMAT_HWCN, 1, 5, 8, 8, 2, 3, 3, {2, 2}, {1, 1}, {0, 1, 0, 1}, true},
      {ACL_FLOAT, nchw, ACL_FORMAT_NCHW, 1, 6, 10, 9, 1, 5, 3, {1, 2}, {2, 1}, {4, 4, 1, 1}, false},
      {ACL_BF16, nchw, ACL_FORMAT_HWCN, 2, 4, 7, 7, 3, 3, 3, {2, 2}, {1, 1}, {1, 1, 1, 1}, true},
      {ACL_FLOAT, nhwc, ACL_FORMAT_ND, 1, 3, 6, 5, 2, 2, 2, {1, 1}, {1, 1}, {0, 0, 0, 0}, false},
      {ACL_FLOAT, nhwc, ACL_FORMAT_NCHW, 1, 7, 6, 6, 1, 3, 3, {1, 1}, {1, 1}, {1, 1, 1, 1}, true}};
  for (const Depthwise &dw : cases) check(depthwiseCase(dw));
  printf("depthwise conv2d: %d cases\n", checked_);
}

// Compiled for dynamic shapes (ACL_OP_COMPILE_FUZZ): one kernel serves every batch, height and
// width, the pixel count and the output's size worked out at run time; the filter and the
// input's channels stay as given.
TEST_F(Conformance, Conv2DCompiledForEveryShape) {
  ASSERT_EQ(aclopSetCompileFlag(ACL_OP_COMPILE_FUZZ), ACL_SUCCESS);
  for (int64_t size : {9, 4, 17}) {
    check(convCase({ACL_FLOAT, nhwc, hwcn, size % 3 + 1, 5, size, size + 3, 6, 3, 3, {2, 1}, {1, 1}, 1, {1, 1, 0, 1},
                    true, false}));
    check(convCase({ACL_FLOAT, nchw, nchw, 2, 3, size + 1, size, 4, 3, 2, {1, 1}, {1, 2}, 1, {1, 1, 1, 1}, false,
                    false}));
    check(convCase({ACL_FLOAT, nchw, nchw, size % 2 + 1, 6, size, size, 5, 1, 1, {1, 1}, {1, 1}, 1, {0, 0, 0, 0}, true,
                    false}));
    check(convCase({ACL_FLOAT16, nhwc, nhwc, 1, 4, size, size + 1, 3, 1, 1, {1, 1}, {1, 1}, 1, {0, 0, 0, 0}, false,
                    false}));
    check(convCase({ACL_FLOAT, nchw, nchw, 2, 4, size, size + 2, 6, 3, 3, {1, 1}, {1, 1}, 2, {1, 1, 1, 1}, true,
                    false}));
    // Depthwise: the output's parts found at run time (one size with no images; at size 17, 3
    // rows for a 5x5 window with pads of 2 and 3, no middle).
    check(convCase({ACL_FLOAT, nchw, nchw, size % 3, 6, size, size + 1, 6, 3, 3, {1, 1}, {1, 1}, 6, {1, 2, 0, 1},
                    true, false}));
    check(convCase({ACL_FLOAT, nhwc, hwcn, size % 3, 5, size + 2, size, 5, 3, 3, {2, 1}, {1, 1}, 5, {1, 1, 1, 1},
                    false, false}));
    check(convCase({ACL_FLOAT, nchw, nchw, 1, 3, size % 5 + 1, size, 3, 5, 5, {2, 1}, {1, 1}, 3, {2, 3, 2, 2}, true,
                    false}));
    check(depthwiseCase({ACL_FLOAT, nhwc, ACL_FORMAT_HWCN, size % 2 + 1, 4, size, size + 1, 2, 3, 3, {1, 1}, {1, 1},
                         {1, 1, 1, 1}, true}));
    // NHWC groups of 4 in, 8 out: the [group, out in group] view with parts found at run time.
    check(convCase({ACL_FLOAT, nhwc, hwcn, size % 2 + 1, 8, size, size + 1, 16, 3, 3, {1, 1}, {1, 1}, 2, {1, 1, 1, 1},
                    true, false}));
  }
  ASSERT_EQ(aclopSetCompileFlag(ACL_OP_COMPILE_DEFAULT), ACL_SUCCESS);
}

}  // namespace
