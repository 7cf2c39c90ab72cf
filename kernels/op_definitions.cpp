// The CANN operators aclcpu implements, as one table.
#include "op_definitions.h"

#include <algorithm>
#include <cstring>
#include <tuple>

namespace aclcpu {
namespace {

// Reads an int list from an attribute or, when the op takes it as a tensor, a const input.
std::string intList(const ResolvedRequest &request, const std::string &attribute, int inputIndex,
                    std::vector<int64_t> &out) {
  auto it = request.attributes.find(attribute);
  if (it != request.attributes.end()) {
    if (auto *list = std::get_if<std::vector<int64_t>>(&it->second)) {
      out = *list;
      return "";
    }
    return "attribute '" + attribute + "' must be a list of ints";
  }
  if (inputIndex < static_cast<int>(request.inputs.size())) {
    const ResolvedTensor &input = request.inputs[inputIndex];
    if (!input.constValues || input.constValues->size() == 0)
      return "input " + std::to_string(inputIndex) + " ('" + attribute + "') must be a const tensor (aclSetTensorConst)";
    size_t width = input.dataType == ACL_INT64 ? 8 : input.dataType == ACL_INT32 ? 4 : 0;
    if (width == 0) return "input '" + attribute + "' must be int32 or int64";
    const ConstValues &values = *input.constValues;
    for (size_t at = 0; at + width <= values.size(); at += width) {
      int64_t value = 0;
      if (width == 8) memcpy(&value, values.data() + at, 8);
      else { int32_t v; memcpy(&v, values.data() + at, 4); value = v; }
      out.push_back(value);
    }
    return "";
  }
  return "attribute '" + attribute + "' is required";
}

// Reads one int from an int attribute or, when the op takes it as a tensor, a const input.
std::string intScalar(const ResolvedRequest &request, const std::string &name, int inputIndex, int64_t &out) {
  auto it = request.attributes.find(name);
  if (it != request.attributes.end()) {
    auto *value = std::get_if<int64_t>(&it->second);
    if (value == nullptr) return "attribute '" + name + "' must be an int";
    out = *value;
    return "";
  }
  std::vector<int64_t> values;
  if (std::string error = intList(request, name, inputIndex, values); !error.empty()) return error;
  if (values.size() != 1) return "'" + name + "' must be one value, not " + std::to_string(values.size());
  out = values[0];
  return "";
}

bool boolAttr(const ResolvedRequest &request, const std::string &name) {
  auto it = request.attributes.find(name);
  return it != request.attributes.end() && std::get_if<bool>(&it->second) && std::get<bool>(it->second);
}

// An int attribute that, when set, must say how many tensors the op has (Concat's and AddN's N,
// the Split family's num_split).
std::string checkCount(const ResolvedRequest &request, const char *name, size_t count, const char *what) {
  auto it = request.attributes.find(name);
  if (it == request.attributes.end()) return "";
  auto *value = std::get_if<int64_t>(&it->second);
  if (value != nullptr && *value == static_cast<int64_t>(count)) return "";
  return std::string("attribute ") + name + " must be the number of " + what + " (" + std::to_string(count) + ")";
}

// Element-wise ops, Gelu..Neg: inputs and no attributes pass straight through.
OpDefinition elementwise(const char *type, const char *aclop, int inputs, std::vector<std::string> aliases = {}) {
  return OpDefinition{type, std::move(aliases), aclop, inputs, inputs, {}, nullptr};
}

std::string translateCast(ResolvedRequest &request) {
  const OpAttrValue &dst = request.attributes.at("dst_type");
  aclDataType target;
  if (auto *integer = std::get_if<int64_t>(&dst)) target = static_cast<aclDataType>(*integer);
  else if (auto *type = std::get_if<DataTypeValue>(&dst)) target = type->type;
  else return "attribute 'dst_type' must be an int or a data type";
  ElementType element;
  if (!toElementType(target, element)) return "dst_type " + std::to_string(target) + " is not supported";
  request.spec.attributes.push_back({"dst_type", TypeValue{element}});
  return "";
}

// MatMul / BatchMatMul: CANN spells the transposes transpose_x1/x2 (adj_x1/x2 for batches)
// and may widen the result (its output description says to what).
std::string translateProduct(ResolvedRequest &request, const char *first, const char *second) {
  if (request.inputs.size() > 3 && request.inputs[3].present) return "offset_w (quantized products) is not supported";
  request.kernelInputs = {0, 1};
  if (request.inputs.size() > 2 && request.inputs[2].present) request.kernelInputs.push_back(2);  // bias
  request.spec.attributes.push_back({"transpose_a", boolAttr(request, first)});
  request.spec.attributes.push_back({"transpose_b", boolAttr(request, second)});
  if (!request.outputs.empty() && request.outputs[0].dataType != request.inputs[0].dataType) {
    ElementType result;
    if (!toElementType(request.outputs[0].dataType, result)) return "unsupported output data type";
    request.spec.attributes.push_back({"result_type", TypeValue{result}});
  }
  return "";
}

std::string translateReduce(ResolvedRequest &request) {
  std::vector<int64_t> axes;
  if (std::string error = intList(request, "axes", 1, axes); !error.empty()) return error;
  request.kernelInputs = {0};
  request.spec.attributes.push_back({"axes", axes});
  request.spec.attributes.push_back({"keep_dims", boolAttr(request, "keep_dims")});
  return "";
}

std::string translateTranspose(ResolvedRequest &request) {
  std::vector<int64_t> perm;
  if (std::string error = intList(request, "perm", 1, perm); !error.empty()) return error;
  request.kernelInputs = {0};
  request.spec.attributes.push_back({"perm", perm});
  return "";
}

std::string translateGemm(ResolvedRequest &request) {
  request.spec.attributes.push_back({"transpose_a", boolAttr(request, "transpose_a")});
  request.spec.attributes.push_back({"transpose_b", boolAttr(request, "transpose_b")});
  // Set only when asked for: the specs (and cache keys) of other GEMMs stay as they were.
  if (boolAttr(request, "low_precision")) request.spec.attributes.push_back({"low_precision", true});
  return "";
}

std::string translateSoftmax(ResolvedRequest &request) {
  std::vector<int64_t> axes;
  if (std::string error = intList(request, "axes", 99, axes); !error.empty()) return error;
  request.spec.attributes.push_back({"axes", axes});
  return "";
}

// TensorFlow's Select: a condition of x's shape, or for x of rank > 1 a vector over x's first
// dim, which as [n, 1, ..., 1] broadcasts the same way (SelectV2 broadcasts as NumPy does).
std::string translateSelect(ResolvedRequest &request) {
  ResolvedTensor &condition = request.inputs[0];
  size_t rank = request.inputs[1].dims.size();
  if (condition.dims.size() == 1 && rank > 1) {
    condition.dims.resize(rank, 1);
    condition.ranges.resize(rank, {1, 1});
  }
  return "";
}

// A float attribute (an int one is taken as its value) passed on under the same name.
std::string passFloat(ResolvedRequest &request, const std::string &name) {
  const OpAttrValue &value = request.attributes.at(name);
  if (auto *real = std::get_if<float>(&value)) request.spec.attributes.push_back({name, double(*real)});
  else if (auto *integer = std::get_if<int64_t>(&value)) request.spec.attributes.push_back({name, double(*integer)});
  else return "attribute '" + name + "' must be a float";
  return "";
}

// LayerNorm: x, gamma, beta -> y, mean, variance.
std::string translateLayerNorm(ResolvedRequest &request) {
  for (const char *name : {"begin_norm_axis", "begin_params_axis"}) {
    int64_t axis = 0;
    if (std::string error = intScalar(request, name, 99, axis); !error.empty()) return error;
    request.spec.attributes.push_back({name, axis});
  }
  return passFloat(request, "epsilon");
}

// One int list per aclop attribute, each CANN's attribute or const input (SliceD's attributes,
// Slice's inputs 1 and 2, and the like); the kernel takes input `dataInput` alone.
std::string translateLists(ResolvedRequest &request,
                           std::initializer_list<std::tuple<const char *, int, const char *>> lists,
                           int dataInput = 0) {
  for (auto [cannName, inputIndex, aclopName] : lists) {
    std::vector<int64_t> values;
    if (std::string error = intList(request, cannName, inputIndex, values); !error.empty()) return error;
    request.spec.attributes.push_back({aclopName, values});
  }
  request.kernelInputs = {dataInput};
  return "";
}

// Concatenation: the axis is an attribute (ConcatD, ConcatV2D) or a const input, first (Concat)
// or last (ConcatV2); the other inputs are the tensors, as many as N says when it is given.
std::string translateConcat(ResolvedRequest &request, int axisInput) {
  int count = static_cast<int>(request.inputs.size());
  int64_t axis = 0;
  if (std::string error = intScalar(request, "concat_dim", axisInput, axis); !error.empty()) return error;
  request.kernelInputs.clear();
  for (int i = 0; i < count; ++i)
    if (i != axisInput) request.kernelInputs.push_back(i);
  if (std::string error = checkCount(request, "N", request.kernelInputs.size(), "tensors concatenated"); !error.empty())
    return error;
  request.spec.attributes.push_back({"axis", axis});
  return "";
}

// GatherV2 (axis a const input), GatherV2D (an attribute), Gather (axis 0); batch_dims 0 only.
std::string translateGather(ResolvedRequest &request, bool axisZero) {
  int64_t axis = 0;
  if (!axisZero)
    if (std::string error = intScalar(request, "axis", 2, axis); !error.empty()) return error;
  auto batchDims = request.attributes.find("batch_dims");
  if (batchDims != request.attributes.end()) {
    auto *value = std::get_if<int64_t>(&batchDims->second);
    if (value == nullptr || *value != 0) return "batch_dims other than 0 is not supported";
  }
  request.kernelInputs = {0, 1};
  request.spec.attributes.push_back({"axis", axis});
  return "";
}

// ArgMaxV2 / ArgMin (the dimension a const input) and ArgMaxD / ArgMinD (an attribute); the
// index type is `dtype` when set, else the output description's (int32 or int64).
std::string translateArgReduce(ResolvedRequest &request) {
  int64_t axis = 0;
  if (std::string error = intScalar(request, "dimension", 1, axis); !error.empty()) return error;
  aclDataType indexType = request.outputs.empty() ? ACL_INT64 : request.outputs[0].dataType;
  auto dtype = request.attributes.find("dtype");
  if (dtype != request.attributes.end()) {
    if (auto *integer = std::get_if<int64_t>(&dtype->second)) indexType = static_cast<aclDataType>(*integer);
    else if (auto *type = std::get_if<DataTypeValue>(&dtype->second)) indexType = type->type;
    else return "attribute 'dtype' must be a data type";
  }
  if (indexType != ACL_INT32 && indexType != ACL_INT64) return "the index type must be int32 or int64";
  request.kernelInputs = {0};
  request.spec.attributes.push_back({"axis", axis});
  request.spec.attributes.push_back({"result_type", TypeValue{indexType == ACL_INT32 ? ElementType::I32 : ElementType::I64}});
  return "";
}

// Split (split_dim a first const input), SplitD (attributes): num_split equal pieces.
// SplitV (size_splits and split_dim const inputs 1 and 2) and SplitVD (attributes): pieces of
// size_splits, one of which may be -1 (the rest). num_split, when given, is the output count.
std::string translateSplit(ResolvedRequest &request, int dataInput, int splitDimInput, bool equal) {
  int64_t axis = 0;
  if (std::string error = intScalar(request, "split_dim", splitDimInput, axis); !error.empty()) return error;
  int64_t pieces = static_cast<int64_t>(request.outputs.size());
  if (std::string error = checkCount(request, "num_split", request.outputs.size(), "outputs"); !error.empty()) return error;
  std::vector<int64_t> sizes;
  if (equal) {
    const std::vector<int64_t> &dims = request.inputs[dataInput].dims;
    int64_t rank = static_cast<int64_t>(dims.size());
    if (axis < -rank || axis >= rank) return "split_dim " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank);
    int64_t size = dims[axis < 0 ? axis + rank : axis];
    if (size < 0) return "an equal split needs a static size along split_dim";
    if (size % pieces != 0)
      return "split_dim's size " + std::to_string(size) + " does not divide into " + std::to_string(pieces) + " pieces";
    sizes.assign(pieces, size / pieces);
  } else {
    if (std::string error = intList(request, "size_splits", 1, sizes); !error.empty()) return error;
    if (static_cast<int64_t>(sizes.size()) != pieces)
      return "size_splits holds " + std::to_string(sizes.size()) + " sizes for " + std::to_string(pieces) + " outputs";
  }
  request.kernelInputs = {dataInput};
  request.spec.attributes.push_back({"axis", axis});
  request.spec.attributes.push_back({"sizes", sizes});
  return "";
}

// StridedSlice (begin, end and strides as const inputs 1-3) and StridedSliceD (attributes), as
// TensorFlow defines them. The lists' entries are first laid over the input's dims (its dense
// spec): an ellipsis_mask bit (at most one) stands for as many dims, taken whole, as the entries
// leave unnamed (an ellipsis after the last entry when none is given), a new_axis_mask bit for
// a dim of 1 in the result that reads no input dim (its begin, end, stride and other bits
// ignored), and every other entry for the next input dim. Then per input dim: a negative begin
// or end counts from the end, both are clamped into the dim, a begin_mask or end_mask bit takes
// the dim from its start or to its end (in the stride's direction), and a shrink_axis_mask bit
// takes the one element at begin and drops the dim.
std::string translateStridedSlice(ResolvedRequest &request) {
  std::vector<int64_t> begin, end, strides;
  for (auto [name, index, list] : {std::tuple{"begin", 1, &begin}, std::tuple{"end", 2, &end}, std::tuple{"strides", 3, &strides}})
    if (std::string error = intList(request, name, index, *list); !error.empty()) return error;
  int64_t masks[5] = {};
  const char *maskNames[5] = {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"};
  for (int m = 0; m < 5; ++m)
    if (std::string error = intScalar(request, maskNames[m], 99, masks[m]); !error.empty()) return error;
  const std::vector<int64_t> &dims = request.inputs[0].dims;
  const int64_t rank = static_cast<int64_t>(dims.size());
  const int64_t entries = static_cast<int64_t>(begin.size());
  if (end.size() != begin.size() || strides.size() != begin.size() || entries > 63)
    return "begin, end and strides must have one length, at most 63";
  auto bit = [&](int mask, int64_t entry) { return (masks[mask] >> entry & 1) != 0; };
  int64_t ellipses = 0, newAxes = 0, newAxesAfterEllipsis = 0;
  for (int64_t i = 0; i < entries; ++i) {
    if (bit(2, i)) ++ellipses;
    else if (bit(3, i)) ++newAxes, newAxesAfterEllipsis += ellipses;
  }
  if (ellipses > 1) return "ellipsis_mask has " + std::to_string(ellipses) + " bits set; at most one is allowed";
  if (entries - ellipses - newAxes > rank)
    return "begin, end and strides name " + std::to_string(entries - ellipses - newAxes) + " dims of an input of rank " +
           std::to_string(rank);
  // The dense spec: per input dim its entry (-1: taken whole), and the result's dims in order
  // (an input dim, or kNewAxis).
  constexpr int64_t kNewAxis = -1;
  std::vector<int64_t> entryOf, layout;
  auto takeWhole = [&](int64_t count) {
    for (int64_t k = 0; k < count; ++k) {
      layout.push_back(static_cast<int64_t>(entryOf.size()));
      entryOf.push_back(-1);
    }
  };
  for (int64_t i = 0; i < entries; ++i) {
    if (bit(2, i)) {
      // All the rank but the dims named before it and after it (the entries after it that
      // are not new axes).
      takeWhole(rank - static_cast<int64_t>(entryOf.size()) - (entries - 1 - i - newAxesAfterEllipsis));
    } else if (bit(3, i)) {
      layout.push_back(kNewAxis);
    } else {
      layout.push_back(static_cast<int64_t>(entryOf.size()));
      entryOf.push_back(i);
    }
  }
  takeWhole(rank - static_cast<int64_t>(entryOf.size()));  // no ellipsis: the dims past the entries
  std::vector<int64_t> offsets, sizes, steps, shrink;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t n = dims[d], e = entryOf[d];
    bool whole = e < 0 || (bit(0, e) && bit(1, e) && strides[e] == 1 && !bit(4, e));
    if (whole) {
      offsets.push_back(0);
      sizes.push_back(n < 0 ? -1 : n);
      steps.push_back(1);
      continue;
    }
    if (n < 0) return "dim " + std::to_string(d) + " is dynamic: it can only be taken whole";
    int64_t stride = strides[e];
    if (stride == 0) return "strides must not be 0";
    auto resolve = [&](int64_t value, bool masked, bool isBegin) {
      if (masked && isBegin) return stride > 0 ? int64_t{0} : n - 1;
      if (masked) return stride > 0 ? n : int64_t{-1};
      if (value < 0) value += n;
      return stride > 0 ? std::clamp<int64_t>(value, 0, n) : std::clamp<int64_t>(value, -1, n - 1);
    };
    int64_t first = resolve(begin[e], bit(0, e), true);
    if (bit(4, e)) {
      int64_t at = begin[e] < 0 ? begin[e] + n : begin[e];
      if (at < 0 || at >= n) return "shrink_axis_mask: begin " + std::to_string(begin[e]) + " is outside dim " + std::to_string(d);
      offsets.push_back(at);
      sizes.push_back(1);
      steps.push_back(1);
      shrink.push_back(d);
      continue;
    }
    int64_t last = resolve(end[e], bit(1, e), false);
    // Both ends lie in [-1, n], so the distance cannot overflow; a stride's magnitude past it
    // (even INT64_MIN's) takes one element.
    int64_t distance = stride > 0 ? last - first : first - last;
    uint64_t step = stride > 0 ? uint64_t(stride) : uint64_t(0) - uint64_t(stride);
    int64_t count = distance <= 0 ? 0 : int64_t((uint64_t(distance) - 1) / step + 1);
    offsets.push_back(count > 0 ? first : 0);
    sizes.push_back(count);
    steps.push_back(count > 0 ? stride : 1);
  }
  // The new axes' places in the result, whose dims are the layout's less the shrunk ones.
  std::vector<int64_t> newAxisPlaces;
  int64_t place = 0;
  for (int64_t entry : layout) {
    if (entry == kNewAxis) newAxisPlaces.push_back(place++);
    else if (std::find(shrink.begin(), shrink.end(), entry) == shrink.end()) ++place;
  }
  request.kernelInputs = {0};
  request.spec.attributes.push_back({"offsets", offsets});
  request.spec.attributes.push_back({"sizes", sizes});
  request.spec.attributes.push_back({"strides", steps});
  if (!shrink.empty()) request.spec.attributes.push_back({"shrink", shrink});
  if (!newAxisPlaces.empty()) request.spec.attributes.push_back({"new_axes", newAxisPlaces});
  return "";
}

// BiasAdd: x plus a 1-d bias along the channel dim, which data_format places last (NHWC,
// NDHWC) or second (NCHW, NCDHW); there the bias is read as [C, 1, ...] and broadcasts as Add's
// operands do.
std::string translateBiasAdd(ResolvedRequest &request) {
  auto *format = std::get_if<std::string>(&request.attributes.at("data_format"));
  if (format == nullptr) return "attribute 'data_format' must be a string";
  ResolvedTensor &bias = request.inputs[1];
  if (bias.dims.size() != 1) return "bias must be 1-d, not of rank " + std::to_string(bias.dims.size());
  size_t rank = request.inputs[0].dims.size();
  if (*format == "NCHW" || *format == "NCDHW") {
    if (rank < 2) return "x must have a channel dim (rank >= 2) for data_format " + *format;
    bias.dims.resize(rank - 1, 1);
    bias.ranges.resize(rank - 1, {1, 1});
  } else if (*format != "NHWC" && *format != "NDHWC" && *format != "ND") {
    return "data_format must be NHWC, NCHW, NDHWC, NCDHW or ND, not " + *format;
  }
  return "";
}

// Pad (zeros) and PadV3 (`mode` constant, the value an optional const input; reflect; edge):
// paddings a const [rank, 2] input of (before, after) pairs; PadD (zeros): a list_list_int
// attribute of them. MirrorPad: `mode` REFLECT or SYMMETRIC, paddings a const input.
std::string translatePad(ResolvedRequest &request) {
  std::vector<int64_t> paddings;
  auto lists = request.attributes.find("paddings");
  if (auto *pairs = lists == request.attributes.end() ? nullptr : std::get_if<std::vector<std::vector<int64_t>>>(&lists->second)) {
    for (const std::vector<int64_t> &pair : *pairs) {
      if (pair.size() != 2) return "paddings must be a list of (before, after) pairs, not of " + std::to_string(pair.size());
      paddings.insert(paddings.end(), pair.begin(), pair.end());
    }
  } else if (std::string error = intList(request, "paddings", 1, paddings); !error.empty()) {
    return error;
  }
  size_t rank = request.inputs[0].dims.size();
  if (paddings.size() != 2 * rank)
    return "paddings must hold 2 values per dim (" + std::to_string(2 * rank) + "), not " + std::to_string(paddings.size());
  std::string mode = "constant";
  if (auto found = request.attributes.find("mode"); found != request.attributes.end()) {
    auto *text = std::get_if<std::string>(&found->second);
    if (request.opType == "MirrorPad") {
      if (text == nullptr || (*text != "REFLECT" && *text != "SYMMETRIC"))
        return "mode must be \"REFLECT\" or \"SYMMETRIC\"";
      mode = *text == "REFLECT" ? "reflect" : "symmetric";
    } else {
      if (text == nullptr || (*text != "constant" && *text != "reflect" && *text != "edge"))
        return "mode must be \"constant\", \"reflect\" or \"edge\"";
      mode = *text;
    }
  }
  // Mirrored and repeated padding takes elements of the input (aclop.pad's bounds).
  for (size_t i = 0; i < rank && mode != "constant"; ++i) {
    int64_t size = request.inputs[0].dims[i], most = mode == "reflect" ? std::max<int64_t>(size - 1, 0)
                                                    : mode == "symmetric" ? size
                                                    : size == 0           ? 0
                                                                          : INT64_MAX;
    if (size >= 0 && std::max(paddings[2 * i], paddings[2 * i + 1]) > most)
      return mode + " padding of dim " + std::to_string(i) + " (size " + std::to_string(size) + ") must be at most " +
             std::to_string(most) + " a side";
  }
  if (request.attributes.count("paddings_contiguous") && !boolAttr(request, "paddings_contiguous"))
    return "paddings_contiguous = false is not supported";
  std::vector<int64_t> low, high;
  for (size_t i = 0; i < rank; ++i) {
    low.push_back(paddings[2 * i]);
    high.push_back(paddings[2 * i + 1]);
  }
  double value = 0;
  if (request.inputs.size() > 2 && request.inputs[2].present && mode == "constant") {
    const ResolvedTensor &constant = request.inputs[2];
    if (!constant.constValues || constant.constValues->size() != aclDataTypeSize(constant.dataType))
      return "constant_values must be a const tensor of one element";
    if (constant.dataType != ACL_FLOAT) return "constant_values must be float (other types are not supported)";
    float v;
    memcpy(&v, constant.constValues->data(), 4);
    value = v;
  }
  request.kernelInputs = {0};
  request.spec.attributes.push_back({"low", low});
  request.spec.attributes.push_back({"high", high});
  if (value != 0) request.spec.attributes.push_back({"value", value});
  if (mode != "constant") request.spec.attributes.push_back({"mode", mode});
  return "";
}

std::vector<OpDefinition> buildTable() {
  std::vector<OpDefinition> table = {
      elementwise("Add", "add", 2, {"AddV2"}), elementwise("Sub", "sub", 2), elementwise("Mul", "mul", 2),
      elementwise("RealDiv", "div", 2, {"Div"}), elementwise("Maximum", "maximum", 2),
      elementwise("Minimum", "minimum", 2), elementwise("Pow", "pow", 2), elementwise("Relu", "relu", 1),
      elementwise("Gelu", "gelu", 1), elementwise("Sigmoid", "sigmoid", 1), elementwise("Tanh", "tanh", 1),
      elementwise("Exp", "exp", 1), elementwise("Log", "log", 1), elementwise("Sqrt", "sqrt", 1),
      elementwise("Rsqrt", "rsqrt", 1), elementwise("Abs", "abs", 1), elementwise("Neg", "neg", 1),
      elementwise("Square", "square", 1), elementwise("Reciprocal", "reciprocal", 1, {"Inv"}),
      elementwise("Sign", "sign", 1), elementwise("Floor", "floor", 1), elementwise("Ceil", "ceil", 1),
      elementwise("Round", "round", 1), elementwise("Sin", "sin", 1), elementwise("Cos", "cos", 1),
      elementwise("Erf", "erf", 1), elementwise("Softplus", "softplus", 1),
      elementwise("Equal", "equal", 2), elementwise("NotEqual", "not_equal", 2),
      elementwise("Greater", "greater", 2), elementwise("GreaterEqual", "greater_equal", 2),
      elementwise("Less", "less", 2), elementwise("LessEqual", "less_equal", 2),
      elementwise("LogicalAnd", "logical_and", 2), elementwise("LogicalOr", "logical_or", 2),
      elementwise("LogicalNot", "logical_not", 1), elementwise("SelectV2", "select", 3),
      elementwise("SquaredDifference", "squared_difference", 2), elementwise("FloorDiv", "floor_div", 2),
      elementwise("FloorMod", "floor_mod", 2), elementwise("ClipByValue", "clip_by_value", 3),
      elementwise("Log1p", "log1p", 1), elementwise("Expm1", "expm1", 1), elementwise("ZerosLike", "zeros_like", 1),
      elementwise("OnesLike", "ones_like", 1),
  };
  table.push_back({"AddN", {}, "add_n", 1, kMaxListTensors, {}, [](ResolvedRequest &r) {
                     return checkCount(r, "N", r.inputs.size(), "inputs");
                   }});
  table.push_back({"BiasAdd", {}, "add", 2, 2, {{"data_format", OpAttrValue(std::string("NHWC"))}}, translateBiasAdd});
  table.push_back({"Select", {}, "select", 3, 3, {}, translateSelect});
  table.push_back({"Slice", {"SliceD"}, "slice", 1, 3, {}, [](ResolvedRequest &r) {
                     return translateLists(r, {{"offsets", 1, "offsets"}, {"size", 2, "sizes"}});
                   }});
  table.push_back({"StridedSlice", {"StridedSliceD"}, "strided_slice", 1, 4,
                   {{"begin_mask", OpAttrValue(int64_t{0})}, {"end_mask", OpAttrValue(int64_t{0})},
                    {"ellipsis_mask", OpAttrValue(int64_t{0})}, {"new_axis_mask", OpAttrValue(int64_t{0})},
                    {"shrink_axis_mask", OpAttrValue(int64_t{0})}},
                   translateStridedSlice});
  table.push_back({"BroadcastTo", {"BroadcastToD"}, "broadcast_to", 1, 2, {},
                   [](ResolvedRequest &r) { return translateLists(r, {{"shape", 1, "shape"}}); }});
  // Fill(dims, value): the 0-d value broadcast to the const dims.
  table.push_back({"Fill", {}, "broadcast_to", 2, 2, {},
                   [](ResolvedRequest &r) { return translateLists(r, {{"dims", 0, "shape"}}, /*dataInput=*/1); }});
  table.push_back({"Tile", {"TileD"}, "tile", 1, 2, {},
                   [](ResolvedRequest &r) { return translateLists(r, {{"multiples", 1, "multiples"}}); }});
  table.push_back({"ConcatD", {"ConcatV2D"}, "concat", 1, kMaxListTensors, {{"concat_dim", std::nullopt}},
                   [](ResolvedRequest &r) { return translateConcat(r, -1); }});
  table.push_back({"ConcatV2", {}, "concat", 2, kMaxListTensors + 1, {},
                   [](ResolvedRequest &r) { return translateConcat(r, static_cast<int>(r.inputs.size()) - 1); }});
  table.push_back({"Concat", {}, "concat", 2, kMaxListTensors + 1, {},
                   [](ResolvedRequest &r) { return translateConcat(r, 0); }});
  table.push_back({"GatherV2", {"GatherV2D"}, "gather", 2, 3, {},
                   [](ResolvedRequest &r) { return translateGather(r, false); }});
  table.push_back({"Gather", {}, "gather", 2, 2, {}, [](ResolvedRequest &r) { return translateGather(r, true); }});
  table.push_back({"Pad", {}, "pad", 2, 2, {}, translatePad});
  table.push_back({"PadV3", {}, "pad", 2, 3, {}, translatePad});
  table.push_back({"PadD", {}, "pad", 1, 1, {{"paddings", std::nullopt}}, translatePad});
  table.push_back({"MirrorPad", {}, "pad", 2, 2, {{"mode", std::nullopt}}, translatePad});
  table.push_back({"ArgMaxV2", {"ArgMaxD"}, "arg_max", 1, 2, {}, translateArgReduce});
  table.push_back({"ArgMin", {"ArgMinD"}, "arg_min", 1, 2, {}, translateArgReduce});
  table.push_back({"LeakyRelu", {}, "leaky_relu", 1, 1, {{"negative_slope", OpAttrValue(0.0f)}},
                   [](ResolvedRequest &r) { return passFloat(r, "negative_slope"); }});
  table.push_back({"Split", {}, "split", 2, 2, {}, [](ResolvedRequest &r) { return translateSplit(r, 1, 0, true); }});
  table.push_back({"SplitD", {}, "split", 1, 1, {{"split_dim", std::nullopt}},
                   [](ResolvedRequest &r) { return translateSplit(r, 0, 99, true); }});
  table.push_back({"SplitV", {"SplitVD"}, "split", 1, 3, {},
                   [](ResolvedRequest &r) { return translateSplit(r, 0, 2, false); }});
  for (size_t i = table.size() - 3; i < table.size(); ++i) table[i].maxOutputs = kMaxListTensors;
  table.push_back({"LayerNorm", {}, "layer_norm", 3, 3,
                   {{"begin_norm_axis", OpAttrValue(int64_t{0})}, {"begin_params_axis", OpAttrValue(int64_t{0})},
                    {"epsilon", OpAttrValue(1e-7f)}},
                   translateLayerNorm});
  table.back().minOutputs = table.back().maxOutputs = 3;
  table.push_back({"Cast", {}, "cast", 1, 1, {{"dst_type", std::nullopt}, {"truncate", OpAttrValue(false)}},
                   translateCast});
  table.push_back({"GEMM", {}, "gemm", 5, 5,
                   {{"transpose_a", OpAttrValue(false)}, {"transpose_b", OpAttrValue(false)},
                    {"low_precision", OpAttrValue(false)}},
                   translateGemm});
  table.push_back({"MatMul", {"MatMulV2"}, "matmul", 2, 4,
                   {{"transpose_x1", OpAttrValue(false)}, {"transpose_x2", OpAttrValue(false)}},
                   [](ResolvedRequest &r) { return translateProduct(r, "transpose_x1", "transpose_x2"); }});
  table.push_back({"BatchMatMul", {"BatchMatMulV2"}, "batch_matmul", 2, 3,
                   {{"adj_x1", OpAttrValue(false)}, {"adj_x2", OpAttrValue(false)}},
                   [](ResolvedRequest &r) { return translateProduct(r, "adj_x1", "adj_x2"); }});
  for (auto [type, aclop] : {std::pair{"ReduceSum", "reduce_sum"}, std::pair{"ReduceMax", "reduce_max"},
                             std::pair{"ReduceMean", "reduce_mean"}, std::pair{"ReduceMin", "reduce_min"},
                             std::pair{"ReduceProd", "reduce_prod"}})
    table.push_back({type, {std::string(type) + "D"}, aclop, 1, 2, {{"keep_dims", OpAttrValue(false)}},
                     translateReduce});
  table.push_back({"SoftmaxV2", {"Softmax"}, "softmax", 1, 1, {{"axes", OpAttrValue(std::vector<int64_t>{-1})}},
                   translateSoftmax});
  table.push_back({"LogSoftmaxV2", {}, "log_softmax", 1, 1, {{"axes", OpAttrValue(std::vector<int64_t>{-1})}},
                   translateSoftmax});
  table.push_back({"Transpose", {"TransposeD"}, "transpose", 1, 2, {}, translateTranspose});
  for (OpDefinition &convolution : convolutionDefinitions()) table.push_back(std::move(convolution));
  for (OpDefinition &pooling : poolingDefinitions()) table.push_back(std::move(pooling));
  for (OpDefinition &definition : table)
    definition.onCubeCores = definition.type == "GEMM" || definition.type == "MatMul" ||
                             definition.type == "BatchMatMul" || definition.type == "Conv2D" ||
                             definition.type == "DepthwiseConv2D";
  return table;
}

}  // namespace

const std::vector<OpDefinition> &opDefinitions() {
  static const std::vector<OpDefinition> table = buildTable();
  return table;
}

const OpDefinition *findOpDefinition(const std::string &type) {
  for (const OpDefinition &definition : opDefinitions()) {
    if (definition.type == type) return &definition;
    for (const std::string &alias : definition.aliases)
      if (alias == type) return &definition;
  }
  return nullptr;
}

}  // namespace aclcpu
