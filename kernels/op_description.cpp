// Parsing atc's single-op JSON entries into ACL tensor descriptions and attributes.
#include "op_description.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <utility>

namespace aclcpu {
namespace {

using nlohmann::json;

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

bool dataTypeNamed(const std::string &name, aclDataType &out) {
  static const std::pair<const char *, aclDataType> names[] = {
      {"bool", ACL_BOOL},     {"int8", ACL_INT8},       {"uint8", ACL_UINT8},     {"int16", ACL_INT16},
      {"uint16", ACL_UINT16}, {"int32", ACL_INT32},     {"uint32", ACL_UINT32},   {"int64", ACL_INT64},
      {"uint64", ACL_UINT64}, {"float16", ACL_FLOAT16}, {"fp16", ACL_FLOAT16},    {"half", ACL_FLOAT16},
      {"float", ACL_FLOAT},   {"float32", ACL_FLOAT},   {"fp32", ACL_FLOAT},      {"double", ACL_DOUBLE},
      {"float64", ACL_DOUBLE}, {"bf16", ACL_BF16},      {"bfloat16", ACL_BF16},   {"undefined", ACL_DT_UNDEFINED}};
  std::string key = lower(name);
  if (key.rfind("dt_", 0) == 0) key = key.substr(3);  // data_type attributes spell them DT_FLOAT
  for (auto &[text, type] : names)
    if (key == text) {
      out = type;
      return true;
    }
  return false;
}

// An integer data type as the JSON may give it; checked before it becomes an enum value.
bool dataTypeNumbered(int64_t value, aclDataType &out) {
  static const aclDataType known[] = {ACL_FLOAT, ACL_FLOAT16, ACL_INT8,  ACL_INT32,  ACL_UINT8,  ACL_INT16, ACL_UINT16,
                                      ACL_UINT32, ACL_INT64, ACL_UINT64, ACL_DOUBLE, ACL_BOOL, ACL_BF16};
  for (aclDataType type : known)
    if (static_cast<int64_t>(type) == value) {
      out = type;
      return true;
    }
  return false;
}

// A data type attribute's value: a name (DT_FLOAT, float) or its number.
bool dataTypeOf(const json &value, aclDataType &out) {
  if (value.is_string()) return dataTypeNamed(value.get<std::string>(), out);
  return value.is_number_integer() && dataTypeNumbered(value.get<int64_t>(), out);
}

bool formatNamed(const std::string &name, aclFormat &out) {
  static const std::pair<const char *, aclFormat> names[] = {
      {"nd", ACL_FORMAT_ND},       {"nchw", ACL_FORMAT_NCHW},         {"nhwc", ACL_FORMAT_NHWC},
      {"nc1hwc0", ACL_FORMAT_NC1HWC0}, {"fractal_z", ACL_FORMAT_FRACTAL_Z}, {"fractal_nz", ACL_FORMAT_FRACTAL_NZ},
      {"hwcn", ACL_FORMAT_HWCN},   {"ndhwc", ACL_FORMAT_NDHWC},       {"ncdhw", ACL_FORMAT_NCDHW},
      {"nc", ACL_FORMAT_NC},       {"ncl", ACL_FORMAT_NCL},           {"reserved", ACL_FORMAT_UNDEFINED},
      {"undefined", ACL_FORMAT_UNDEFINED}};
  std::string key = lower(name);
  for (auto &[text, format] : names)
    if (key == text) {
      out = format;
      return true;
    }
  return false;
}

// One element of a const_value list, stored in the tensor's own data type.
bool appendConstElement(const json &value, aclDataType type, std::vector<uint8_t> &bytes) {
  if (!value.is_number() && !value.is_boolean()) return false;
  double number = value.is_boolean() ? (value.get<bool>() ? 1.0 : 0.0) : value.get<double>();
  auto put = [&](auto element) {
    const auto *raw = reinterpret_cast<const uint8_t *>(&element);
    bytes.insert(bytes.end(), raw, raw + sizeof(element));
    return true;
  };
  bool integral = value.is_number_integer() || value.is_boolean();
  switch (type) {
    case ACL_FLOAT: return put(static_cast<float>(number));
    case ACL_DOUBLE: return put(number);
    case ACL_FLOAT16: return put(aclFloatToFloat16(static_cast<float>(number)));
    case ACL_BF16: {
      float f = static_cast<float>(number);
      uint32_t bits;
      memcpy(&bits, &f, 4);
      return put(static_cast<uint16_t>((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16));
    }
    case ACL_BOOL: return integral && put(static_cast<uint8_t>(number != 0));
    case ACL_INT8: return integral && put(static_cast<int8_t>(value.get<int64_t>()));
    case ACL_UINT8: return integral && put(static_cast<uint8_t>(value.get<int64_t>()));
    case ACL_INT16: return integral && put(static_cast<int16_t>(value.get<int64_t>()));
    case ACL_UINT16: return integral && put(static_cast<uint16_t>(value.get<int64_t>()));
    case ACL_INT32: return integral && put(static_cast<int32_t>(value.get<int64_t>()));
    case ACL_UINT32: return integral && put(static_cast<uint32_t>(value.get<int64_t>()));
    case ACL_INT64: return integral && put(value.get<int64_t>());
    case ACL_UINT64: return integral && put(value.get<uint64_t>());
    default: return false;
  }
}

bool fail(std::string &error, const std::string &field, const std::string &message) {
  error = field + ": " + message;
  return false;
}

bool parseTensor(const json &in, aclTensorDesc &out, const std::string &field, std::string &error) {
  if (!in.is_object()) return fail(error, field, "must be an object");
  if (!in.contains("type") || !in["type"].is_string()) return fail(error, field + ".type", "missing or not a string");
  if (!dataTypeNamed(in["type"].get<std::string>(), out.dataType))
    return fail(error, field + ".type", "unknown data type '" + in["type"].get<std::string>() + "'");
  out.format = out.dataType == ACL_DT_UNDEFINED ? ACL_FORMAT_UNDEFINED : ACL_FORMAT_ND;
  if (in.contains("format")) {
    if (!in["format"].is_string() || !formatNamed(in["format"].get<std::string>(), out.format))
      return fail(error, field + ".format", "unknown format " + in["format"].dump());
  }
  if (out.dataType == ACL_DT_UNDEFINED) return true;  // an absent optional input
  if (!in.contains("shape") || !in["shape"].is_array()) return fail(error, field + ".shape", "missing or not a list");
  size_t unknown = 0;
  for (const json &dim : in["shape"]) {
    if (!dim.is_number_integer() || dim.get<int64_t>() < -2)
      return fail(error, field + ".shape", "dims are integers >= -1 (or [-2] for an unknown rank)");
    int64_t d = dim.get<int64_t>();
    if (d == -2) {
      if (in["shape"].size() != 1) return fail(error, field + ".shape", "-2 (unknown rank) must be the only dim");
      out.unknownRank = true;
      return true;
    }
    unknown += d == -1;
    out.dims.push_back(d);
  }
  if (out.dims.size() > 64) return fail(error, field + ".shape", "more than 64 dims");
  if (in.contains("shape_range")) {
    const json &ranges = in["shape_range"];
    // One [lo, hi] per -1 dim (atc's form), or one per dim.
    if (!ranges.is_array() || (ranges.size() != unknown && ranges.size() != out.dims.size()))
      return fail(error, field + ".shape_range", "needs one [lo, hi] per -1 dim");
    bool perDim = ranges.size() == out.dims.size();
    size_t next = 0;
    for (size_t d = 0; d < out.dims.size(); ++d) {
      std::array<int64_t, 2> range{out.dims[d], out.dims[d]};
      if (perDim || out.dims[d] < 0) {
        const json &r = ranges[next++];
        if (!r.is_array() || r.size() != 2 || !r[0].is_number_integer() || !r[1].is_number_integer())
          return fail(error, field + ".shape_range", "each range is [lo, hi]");
        range = {r[0].get<int64_t>(), r[1].get<int64_t>()};
        if (range[0] < 0 || (range[1] != -1 && range[1] < range[0]))
          return fail(error, field + ".shape_range", "a range is [lo >= 0, hi >= lo or -1]");
        if (out.dims[d] >= 0 && (range[0] > out.dims[d] || (range[1] != -1 && range[1] < out.dims[d])))
          return fail(error, field + ".shape_range", "the range of a static dim must contain it");
      }
      out.shapeRange.push_back(range);
    }
  }
  bool isConst = in.contains("is_const") && in["is_const"].is_boolean() && in["is_const"].get<bool>();
  if (isConst) {
    if (!in.contains("const_value") || !in["const_value"].is_array())
      return fail(error, field + ".const_value", "a const tensor needs a const_value list");
    int64_t count = staticElementCount(out);
    if (count < 0 || static_cast<size_t>(count) != in["const_value"].size())
      return fail(error, field + ".const_value", "needs one value per element of a static shape");
    std::vector<uint8_t> bytes;
    for (const json &value : in["const_value"])
      if (!appendConstElement(value, out.dataType, bytes))
        return fail(error, field + ".const_value", "value " + value.dump() + " does not fit the data type");
    out.constValues = std::make_shared<const ConstValues>(bytes);
    out.isConst = true;
  }
  return true;
}

template <typename T>
bool listOf(const json &value, std::vector<T> &out, bool (json::*is)() const) {
  if (!value.is_array()) return false;
  for (const json &item : value) {
    if (!(item.*is)()) return false;
    out.push_back(item.get<T>());
  }
  return true;
}

bool parseAttribute(const json &in, aclopAttr &attr, const std::string &field, std::string &error) {
  if (!in.is_object()) return fail(error, field, "must be an object");
  for (const char *key : {"name", "type"})
    if (!in.contains(key) || !in[key].is_string()) return fail(error, field + "." + key, "missing or not a string");
  if (!in.contains("value")) return fail(error, field + ".value", "missing");
  std::string name = in["name"], type = in["type"];
  const json &value = in["value"];
  std::string where = field + ".value";
  OpAttrValue parsed;
  if (type == "bool" && value.is_boolean()) {
    parsed = value.get<bool>();
  } else if (type == "int" && value.is_number_integer()) {
    parsed = value.get<int64_t>();
  } else if (type == "float" && value.is_number()) {
    parsed = value.get<float>();
  } else if (type == "string" && value.is_string()) {
    parsed = value.get<std::string>();
  } else if (type == "data_type" && (value.is_string() || value.is_number_integer())) {
    aclDataType dataType = ACL_DT_UNDEFINED;
    if (!dataTypeOf(value, dataType)) return fail(error, where, "unknown data type " + value.dump());
    parsed = DataTypeValue{dataType};
  } else if (type == "list_int") {
    std::vector<int64_t> list;
    if (!listOf(value, list, &json::is_number_integer)) return fail(error, where, "must be a list of integers");
    parsed = std::move(list);
  } else if (type == "list_float") {
    std::vector<float> list;
    if (!listOf(value, list, &json::is_number)) return fail(error, where, "must be a list of numbers");
    parsed = std::move(list);
  } else if (type == "list_bool") {
    std::vector<bool> list;
    if (!listOf(value, list, &json::is_boolean)) return fail(error, where, "must be a list of booleans");
    parsed = std::move(list);
  } else if (type == "list_string") {
    std::vector<std::string> list;
    if (!listOf(value, list, &json::is_string)) return fail(error, where, "must be a list of strings");
    parsed = std::move(list);
  } else if (type == "list_list_int") {
    std::vector<std::vector<int64_t>> lists;
    bool valid = value.is_array();
    for (size_t i = 0; valid && i < value.size(); ++i) valid = listOf(value[i], lists.emplace_back(), &json::is_number_integer);
    if (!valid) return fail(error, where, "must be a list of lists of integers");
    parsed = std::move(lists);
  } else if (type == "list_data_type") {
    if (!value.is_array()) return fail(error, where, "must be a list of data types");
    std::vector<DataTypeValue> types;
    for (const json &item : value) {
      aclDataType dataType = ACL_DT_UNDEFINED;
      if (!dataTypeOf(item, dataType)) return fail(error, where, "unknown data type " + item.dump());
      types.push_back(DataTypeValue{dataType});
    }
    parsed = std::move(types);
  } else if (type == "bool" || type == "int" || type == "float" || type == "string" || type == "data_type") {
    return fail(error, where, value.dump() + " is not a " + type);
  } else {
    return fail(error, field + ".type", "unknown attribute type '" + type + "'");
  }
  attr.values[name] = std::move(parsed);  // a later attribute of the same name replaces it
  return true;
}

bool parseTensorList(const json &entry, const char *key, std::vector<aclTensorDesc> &out, bool required,
                     std::string &error) {
  if (!entry.contains(key)) return required ? fail(error, key, "missing") : true;
  if (!entry[key].is_array()) return fail(error, key, "must be a list");
  for (size_t i = 0; i < entry[key].size(); ++i) {
    out.emplace_back();
    if (!parseTensor(entry[key][i], out.back(), std::string(key) + "[" + std::to_string(i) + "]", error)) return false;
  }
  return true;
}

void appendTensorName(std::string &out, const aclTensorDesc &tensor) {
  out += "_" + std::to_string(static_cast<int>(tensor.dataType)) + "_" + std::to_string(static_cast<int>(tensor.format));
  if (tensor.unknownRank) out += "_-2";
  for (int64_t d : tensor.dims) out += "_" + std::to_string(d);
}

}  // namespace

bool parseOpDescription(const json &entry, OpDescription &out, std::string &error) {
  out = OpDescription{};
  if (!entry.is_object()) return fail(error, "entry", "must be an object");
  if (!entry.contains("op") || !entry["op"].is_string() || entry["op"].get<std::string>().empty())
    return fail(error, "op", "missing or not a non-empty string");
  out.opType = entry["op"];
  if (entry.contains("name")) {
    if (!entry["name"].is_string() || entry["name"].get<std::string>().empty() ||
        entry["name"].get<std::string>().find('/') != std::string::npos)
      return fail(error, "name", "must be a non-empty file name without '/'");
    out.name = entry["name"];
  }
  if (!parseTensorList(entry, "input_desc", out.inputs, false, error)) return false;
  if (!parseTensorList(entry, "output_desc", out.outputs, true, error)) return false;
  if (entry.contains("attr")) {
    if (!entry["attr"].is_array()) return fail(error, "attr", "must be a list");
    for (size_t i = 0; i < entry["attr"].size(); ++i)
      if (!parseAttribute(entry["attr"][i], out.attr, "attr[" + std::to_string(i) + "]", error)) return false;
  }
  return true;
}

aclError resolveDescription(const OpDescription &description, ResolvedRequest &out, const char *caller) {
  std::vector<const aclTensorDesc *> inputs, outputs;
  for (const aclTensorDesc &desc : description.inputs) inputs.push_back(&desc);
  for (const aclTensorDesc &desc : description.outputs) outputs.push_back(&desc);
  return resolveRequest(description.opType.c_str(), static_cast<int>(inputs.size()), inputs.data(),
                        static_cast<int>(outputs.size()), outputs.data(), &description.attr, false, out, caller);
}

std::string modelFileName(size_t index, const OpDescription &description) {
  if (!description.name.empty()) return description.name;
  std::string name = std::to_string(index) + "_" + description.opType;
  for (const aclTensorDesc &tensor : description.inputs) appendTensorName(name, tensor);
  for (const aclTensorDesc &tensor : description.outputs) appendTensorName(name, tensor);
  return name.substr(0, 128);
}

}  // namespace aclcpu
