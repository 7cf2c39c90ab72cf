// CANN Conv2D -> aclop.conv2d. Each tensor's own format says how to read its dims (an NHWC
// input with an NCHW filter is normal); an ND tensor takes the data_format attribute's layout.
// strides and dilations come in the input's layout order, pads as [top, bottom, left, right].
#include "op_definitions.h"

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

std::string translateConv2D(ResolvedRequest &request) {
  if (request.inputs.size() > 3 && request.inputs[3].present) return "offset_w (quantized convolution) is not supported";
  const std::string *dataFormat = attribute<std::string>(request, "data_format");
  if (dataFormat == nullptr || (*dataFormat != "NCHW" && *dataFormat != "NHWC"))
    return "attribute 'data_format' must be \"NCHW\" or \"NHWC\"";
  const ResolvedTensor &x = request.inputs[0], &filter = request.inputs[1], &y = request.outputs[0];
  std::string layout = x.format == ACL_FORMAT_ND ? *dataFormat : formatName(x.format) ? formatName(x.format) : "";
  if (layout != "NCHW" && layout != "NHWC") return "input x must be NCHW, NHWC or ND (then data_format applies)";
  std::string filterLayout = filter.format == ACL_FORMAT_ND ? layout : formatName(filter.format) ? formatName(filter.format) : "";
  if (filterLayout.empty()) return "the filter must be NCHW, NHWC, HWCN or ND (then the input's layout applies)";
  if (y.format != ACL_FORMAT_ND && (formatName(y.format) == nullptr || layout != formatName(y.format)))
    return "output y must have the input's format (" + layout + ") or ND";
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

}  // namespace

OpDefinition conv2dDefinition() {
  return {"Conv2D",
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
          translateConv2D};
}

}  // namespace aclcpu
