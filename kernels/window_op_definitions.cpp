// CANN's windowed operators: Conv2D and DepthwiseConv2D -> aclop.conv2d; MaxPool, AvgPool,
// MaxPoolV3 and AvgPoolV2 -> aclop.pool2d. Each tensor's own format says how to read its dims (an NHWC input with an
// NCHW filter is normal); an ND tensor takes the data_format attribute's layout. Per-dim lists
// (strides, dilations, ksize) come in the input's layout order, pads as [top, bottom, left, right].
#include "op_definitions.h"

#include <algorithm>

namespace aclcpu {
namespace {

const char *formatName(aclFormat format) {
  switch (format) {
    case ACL_FORMAT_NCHW: return "NCHW";
    case ACL_FORMAT_NHWC: return "NHWC";
    case ACL_FORMAT_HWCN: return "HWCN";
    default: return nullptr;
  }
}

template <typename T>
const T *attribute(const ResolvedRequest &request, const char *name) {
  auto it = request.attributes.find(name);
  return it == request.attributes.end() ? nullptr : std::get_if<T>(&it->second);
}

// The layout input x is read in (its own format, or data_format when it is ND), which output y
// must have too unless it is ND.
std::string dataLayout(const ResolvedRequest &request, std::string &layout) {
  const std::string *dataFormat = attribute<std::string>(request, "data_format");
  if (dataFormat == nullptr || (*dataFormat != "NCHW" && *dataFormat != "NHWC"))
    return "attribute 'data_format' must be \"NCHW\" or \"NHWC\"";
  const ResolvedTensor &x = request.inputs[0], &y = request.outputs[0];
  layout = x.format == ACL_FORMAT_ND ? *dataFormat : formatName(x.format) ? formatName(x.format) : "";
  if (layout != "NCHW" && layout != "NHWC") return "input x must be NCHW, NHWC or ND (then data_format applies)";
  if (y.format != ACL_FORMAT_ND && (formatName(y.format) == nullptr || layout != formatName(y.format)))
    return "output y must have the input's format (" + layout + ") or ND";
  return "";
}

std::string translateConv2D(ResolvedRequest &request) {
  if (request.inputs.size() > 3 && request.inputs[3].present) return "offset_w (quantized convolution) is not supported";
  std::string layout;
  if (std::string error = dataLayout(request, layout); !error.empty()) return error;
  const ResolvedTensor &filter = request.inputs[1];
  std::string filterLayout = filter.format == ACL_FORMAT_ND ? layout : formatName(filter.format) ? formatName(filter.format) : "";
  if (filterLayout.empty()) return "the filter must be NCHW, NHWC, HWCN or ND (then the input's layout applies)";
  const auto *strides = attribute<std::vector<int64_t>>(request, "strides");
  const auto *pads = attribute<std::vector<int64_t>>(request, "pads");
  const auto *dilations = attribute<std::vector<int64_t>>(request, "dilations");
  const auto *groups = attribute<int64_t>(request, "groups");
  const auto *offset = attribute<int64_t>(request, "offset_x");
  if (strides == nullptr || strides->size() != 4) return "attribute 'strides' must be 4 ints in the input's layout";
  if (dilations == nullptr || dilations->size() != 4) return "attribute 'dilations' must be 4 ints in the input's layout";
  if (pads == nullptr || pads->size() != 4) return "attribute 'pads' must be 4 ints [top, bottom, left, right]";
  if (groups == nullptr) return "attribute 'groups' must be an int";
  if (offset == nullptr || *offset != 0) return "attribute 'offset_x' must be 0 (quantized convolution is not supported)";
  size_t h = layout == "NCHW" ? 2 : 1, w = h + 1;
  // Under ACL_OP_COMPILE_FUZZ one kernel serves every batch, height and width; the filter (and
  // with it the bias and the input's channels) stays as given: the lowering is built around it.
  for (ResolvedTensor *tensor : {&request.inputs[0], &request.inputs[1]})
    for (size_t d = 0; d < tensor->dims.size(); ++d)
      if (tensor == &request.inputs[1] || d == (layout == "NCHW" ? 1u : 3u)) tensor->keepStatic(d);
  if (request.inputs.size() > 2) request.inputs[2].keepStatic(0);
  request.kernelInputs = {0, 1};
  if (request.inputs.size() > 2 && request.inputs[2].present) request.kernelInputs.push_back(2);
  request.spec.attributes.push_back({"strides", std::vector<int64_t>{(*strides)[h], (*strides)[w]}});
  request.spec.attributes.push_back({"pads", *pads});
  request.spec.attributes.push_back({"dilations", std::vector<int64_t>{(*dilations)[h], (*dilations)[w]}});
  request.spec.attributes.push_back({"groups", *groups});
  request.spec.attributes.push_back({"data_format", layout});
  request.spec.attributes.push_back({"filter_format", filterLayout});
  return "";
}

// DepthwiseConv2D is Conv2D with a group per input channel. Its filter is [kh, kw, C, M] (HWCN;
// ND reads as HWCN) or [M, C, kh, kw] (NCHW), M the channel multiplier, and output channel
// c * M + m takes filter (c, m): the HWCN filter is, as stored, Conv2D's HWCN filter [kh, kw, 1,
// C * M]; the NCHW one is Conv2D's [C, 1, kh, kw] when M is 1 (with M above 1 its output
// channels would not be one dim of it: refused).
std::string translateDepthwiseConv2D(ResolvedRequest &request) {
  std::string layout;
  if (std::string error = dataLayout(request, layout); !error.empty()) return error;
  ResolvedTensor &x = request.inputs[0], &filter = request.inputs[1];
  if (x.dims.size() != 4 || filter.dims.size() != 4) return "x and the filter must be 4-d";
  const size_t c = layout == "NCHW" ? 1 : 3;
  x.keepStatic(c);
  for (size_t d = 0; d < 4; ++d) filter.keepStatic(d);
  const std::vector<int64_t> &f = filter.dims;
  if (std::any_of(f.begin(), f.end(), [](int64_t d) { return d < 0; })) return "the filter's dims must be known";
  const bool hwcn = filter.format == ACL_FORMAT_HWCN || filter.format == ACL_FORMAT_ND;
  if (!hwcn && filter.format != ACL_FORMAT_NCHW)
    return "the filter must be HWCN ([kh, kw, C, multiplier]), NCHW ([multiplier, C, kh, kw]) or ND (read as HWCN)";
  const int64_t channels = hwcn ? f[2] : f[1], multiplier = hwcn ? f[3] : f[0];
  if (x.dims[c] != channels)
    return "the filter is for " + std::to_string(channels) + " input channels, x has " + std::to_string(x.dims[c]);
  if (channels == 0) return "x has no channels";
  if (!hwcn && multiplier != 1)
    return "an NCHW filter with a channel multiplier above 1 is not supported (give it as HWCN)";
  const std::vector<int64_t> conv =
      hwcn ? std::vector<int64_t>{f[0], f[1], 1, channels * multiplier} : std::vector<int64_t>{channels, 1, f[2], f[3]};
  filter.dims = conv;
  if (!filter.givenDims.empty()) filter.givenDims = conv;
  filter.ranges.clear();
  for (int64_t d : conv) filter.ranges.push_back({d, d});
  filter.format = hwcn ? ACL_FORMAT_HWCN : ACL_FORMAT_NCHW;
  request.attributes["groups"] = channels;
  return translateConv2D(request);
}

// TensorFlow's MaxPool / AvgPool take `padding` "SAME" or "VALID"; MaxPoolV3 / AvgPoolV2 take
// `padding_mode` (also "CALCULATED": `pads` and `ceil_mode`) and `global_pooling` (the window is
// the whole plane: a ReduceMean or ReduceMax over height and width, whose loops read each
// plane in one run; with a divisor_override, a window of the plane's static size), and AvgPoolV2
// `exclusive` and `divisor_override`.
std::string translatePool(ResolvedRequest &request, const char *mode, bool v2) {
  std::string layout;
  if (std::string error = dataLayout(request, layout); !error.empty()) return error;
  const auto *ksize = attribute<std::vector<int64_t>>(request, "ksize");
  const auto *strides = attribute<std::vector<int64_t>>(request, "strides");
  if (ksize == nullptr || ksize->size() != 4) return "attribute 'ksize' must be 4 ints in the input's layout";
  if (strides == nullptr || strides->size() != 4) return "attribute 'strides' must be 4 ints in the input's layout";
  size_t c = layout == "NCHW" ? 1 : 3, h = layout == "NCHW" ? 2 : 1, w = h + 1;
  if ((*ksize)[0] != 1 || (*ksize)[c] != 1 || (*strides)[0] != 1 || (*strides)[c] != 1)
    return "ksize and strides must be 1 along N and C (pooling is over height and width)";
  std::vector<int64_t> window{(*ksize)[h], (*ksize)[w]}, stride{(*strides)[h], (*strides)[w]}, pads{0, 0, 0, 0};
  const std::string *padding = attribute<std::string>(request, v2 ? "padding_mode" : "padding");
  bool calculated = v2 && padding != nullptr && *padding == "CALCULATED";
  if (padding == nullptr || (*padding != "SAME" && *padding != "VALID" && !calculated))
    return v2 ? "attribute 'padding_mode' must be \"CALCULATED\", \"SAME\" or \"VALID\""
              : "attribute 'padding' must be \"SAME\" or \"VALID\"";
  std::string paddingMode = *padding;
  const bool *ceilMode = attribute<bool>(request, "ceil_mode"), *global = attribute<bool>(request, "global_pooling");
  if (calculated) {
    const auto *explicitPads = attribute<std::vector<int64_t>>(request, "pads");
    if (explicitPads == nullptr || explicitPads->size() != 4)
      return "attribute 'pads' must be 4 ints [top, bottom, left, right]";
    pads = *explicitPads;
  }
  const bool average = std::string(mode) == "avg";
  const bool *exclusive = attribute<bool>(request, "exclusive");
  const int64_t *divisor = attribute<int64_t>(request, "divisor_override");
  if (average && v2 && exclusive == nullptr) return "attribute 'exclusive' must be a bool";
  if (average && v2 && (divisor == nullptr || *divisor < 0)) return "attribute 'divisor_override' must be an int >= 0";
  const int64_t divisorOverride = average && v2 ? *divisor : 0;
  request.kernelInputs = {0};
  if (global != nullptr && *global) {
    const ResolvedTensor &x = request.inputs[0];
    if (x.dims.size() != 4) return "x must be 4-d";
    if (divisorOverride == 0) {  // a mean or maximum over the plane: the reductions, any height and width
      const aclDataType type = x.dataType;
      if (average && type != ACL_FLOAT && type != ACL_FLOAT16 && type != ACL_BF16 && type != ACL_DOUBLE)
        return "average pooling takes float inputs";
      request.spec.op = average ? "reduce_mean" : "reduce_max";
      request.spec.attributes.push_back({"axes", std::vector<int64_t>{int64_t(h), int64_t(w)}});
      request.spec.attributes.push_back({"keep_dims", true});
      return "";
    }
    if (x.dims[h] < 0 || x.dims[w] < 0) return "global_pooling with divisor_override needs a static height and width";
    window = {std::max<int64_t>(x.dims[h], 1), std::max<int64_t>(x.dims[w], 1)};
    stride = {1, 1};
    pads = {0, 0, 0, 0};
    paddingMode = "VALID";
  }
  request.spec.attributes.push_back({"mode", std::string(mode)});
  request.spec.attributes.push_back({"window", window});
  request.spec.attributes.push_back({"strides", stride});
  request.spec.attributes.push_back({"padding_mode", paddingMode});
  request.spec.attributes.push_back({"pads", pads});
  request.spec.attributes.push_back({"ceil_mode", paddingMode == "CALCULATED" && ceilMode != nullptr && *ceilMode});
  request.spec.attributes.push_back({"data_format", layout});
  if (average && v2) {
    request.spec.attributes.push_back({"exclusive", *exclusive});
    request.spec.attributes.push_back({"divisor_override", divisorOverride});
  }
  return "";
}

}  // namespace

std::vector<OpDefinition> poolingDefinitions() {
  const std::vector<AttrSchema> tensorflow = {
      {"ksize", std::nullopt}, {"strides", std::nullopt}, {"padding", std::nullopt},
      {"data_format", OpAttrValue(std::string("NHWC"))}};
  std::vector<AttrSchema> v3 = {{"ksize", std::nullopt},
                                {"strides", std::nullopt},
                                {"padding_mode", OpAttrValue(std::string("CALCULATED"))},
                                {"pads", OpAttrValue(std::vector<int64_t>{0, 0, 0, 0})},
                                {"data_format", OpAttrValue(std::string("NCHW"))},
                                {"global_pooling", OpAttrValue(false)},
                                {"ceil_mode", OpAttrValue(false)}};
  std::vector<AttrSchema> v2 = v3;
  v2.push_back({"exclusive", OpAttrValue(true)});
  v2.push_back({"divisor_override", OpAttrValue(int64_t{0})});
  auto pool = [](const char *mode, bool v2) {
    return [mode, v2](ResolvedRequest &r) { return translatePool(r, mode, v2); };
  };
  return {{"MaxPool", {}, "pool2d", 1, 1, tensorflow, pool("max", false)},
          {"AvgPool", {}, "pool2d", 1, 1, tensorflow, pool("avg", false)},
          {"MaxPoolV3", {}, "pool2d", 1, 1, v3, pool("max", true)},
          {"AvgPoolV2", {}, "pool2d", 1, 1, v2, pool("avg", true)}};
}

std::vector<OpDefinition> convolutionDefinitions() {
  return {{"Conv2D",
           {},
           "conv2d",
           2,
           4,
           {{"strides", std::nullopt},
            {"pads", std::nullopt},
            {"dilations", OpAttrValue(std::vector<int64_t>{1, 1, 1, 1})},
            {"groups", OpAttrValue(int64_t{1})},
            {"data_format", OpAttrValue(std::string("NHWC"))},
            {"offset_x", OpAttrValue(int64_t{0})}},
           translateConv2D},
          {"DepthwiseConv2D",
           {},
           "conv2d",
           2,
           4,
           {{"strides", std::nullopt},
            {"pads", std::nullopt},
            {"dilations", OpAttrValue(std::vector<int64_t>{1, 1, 1, 1})},
            {"data_format", OpAttrValue(std::string("NHWC"))},
            {"offset_x", OpAttrValue(int64_t{0})}},
           translateDepthwiseConv2D}};
}

}  // namespace aclcpu
