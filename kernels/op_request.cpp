// Resolving ACL requests against the operator library, and their canonical signatures.
#include "op_request.h"

#include "diagnostics.h"
#include "op_definitions.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace aclcpu {

namespace {

// Signatures are built on every aclopExecuteV2: plain appends, no streams.
void appendNumber(std::string &out, int64_t value) { out += std::to_string(value); }
void appendNumber(std::string &out, float value) {
  char text[32];
  snprintf(text, sizeof(text), "%.9g", static_cast<double>(value));
  out += text;
}

// A value as it reads in a signature: numbers and bools as numbers, dtypes as "dtype:N", lists
// in brackets (their strings unquoted), a string alone in quotes.
void appendValue(std::string &out, int64_t value) { appendNumber(out, value); }
void appendValue(std::string &out, float value) { appendNumber(out, value); }
void appendValue(std::string &out, bool value) { out += value ? "1" : "0"; }
void appendValue(std::string &out, DataTypeValue value) {
  out += "dtype:";
  appendNumber(out, int64_t(value.type));
}
template <class Element>
void appendValue(std::string &out, const std::vector<Element> &list) {
  out += '[';
  for (size_t i = 0; i < list.size(); ++i) {
    if (i) out += ',';
    if constexpr (std::is_same_v<Element, std::string>) out += list[i];
    else appendValue(out, static_cast<const Element &>(list[i]));
  }
  out += ']';
}

void describeValue(std::string &out, const OpAttrValue &value) {
  std::visit([&](const auto &v) {
    if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::string>) out += '"' + v + '"';
    else appendValue(out, v);
  }, value);
}

void describeTensor(std::string &out, const ResolvedTensor &t) {
  if (!t.present) {
    out += "absent;";
    return;
  }
  appendNumber(out, int64_t(t.dataType));
  out += ':';
  appendNumber(out, int64_t(t.format));
  if (t.unknownRank) out += ":?rank";
  out += ":[";
  for (size_t i = 0; i < t.dims.size(); ++i) {
    if (i) out += ',';
    appendNumber(out, t.dims[i]);
  }
  out += ']';
  for (auto &range : t.ranges) {
    out += '{';
    appendNumber(out, range[0]);
    out += ',';
    appendNumber(out, range[1]);
    out += '}';
  }
  if (t.constValues && t.constValues->size() != 0) {
    out += ":const";
    appendNumber(out, int64_t(t.constValues->size()));
    out += '#';
    appendNumber(out, int64_t(t.constValues->digest()));
  }
  out += ';';
}

aclError resolveTensor(const aclTensorDesc *desc, bool allDimsDynamic, ResolvedTensor &out, const char *what, int index,
                       const char *caller) {
  if (desc == nullptr) return reportError(ACL_ERROR_INVALID_PARAM, caller, "%s description %d is NULL", what, index);
  out.dataType = desc->dataType;
  out.format = desc->format;
  out.present = desc->dataType != ACL_DT_UNDEFINED;
  bool isOutput = strcmp(what, "output") == 0;
  if (desc->unknownRank && !isOutput)
    return reportError(ACL_ERROR_OP_UNSUPPORTED_DYNAMIC, caller, "%s %d has unknown rank, which aclcpu does not compile",
                       what, index);
  out.unknownRank = desc->unknownRank;  // an output's shape may be left to inference
  // A shape whose elements or bytes overflow int64 would wrap every size computed from it
  // (a launch over 2^64 elements checked a 64-byte buffer and ran off its end).
  int64_t elements = knownElementCount(desc->dims), bytes = 0;
  const int64_t elementBytes = std::max<int64_t>(1, int64_t(aclDataTypeSize(desc->dataType)));
  if (elements < 0 || __builtin_mul_overflow(elements, elementBytes, &bytes))
    return reportError(ACL_ERROR_INVALID_PARAM, caller, "%s %d has more elements than fit in memory", what, index);
  out.dims = desc->dims;
  if (allDimsDynamic) out.givenDims = desc->dims;
  for (size_t d = 0; d < out.dims.size(); ++d) {
    std::array<int64_t, 2> range{out.dims[d], out.dims[d]};
    if (d < desc->shapeRange.size()) range = desc->shapeRange[d];
    else if (out.dims[d] < 0 || (allDimsDynamic && out.dims[d] != 1)) range = {0, -1};
    out.ranges.push_back(range);
    // ACL_OP_COMPILE_FUZZ: one kernel for every shape. A dim of 1 stays static: it may be a
    // broadcast, and a compiled kernel never broadcasts along a dynamic dim.
    if (allDimsDynamic && out.dims[d] != 1) out.dims[d] = -1;
  }
  if (desc->isConst) out.constValues = desc->constValues;
  return ACL_SUCCESS;
}

}  // namespace

void ResolvedTensor::keepStatic(size_t d) {
  if (d >= givenDims.size() || d >= dims.size() || givenDims[d] < 0) return;
  dims[d] = givenDims[d];
  if (d < ranges.size()) ranges[d] = {givenDims[d], givenDims[d]};
}

bool ResolvedRequest::isDynamic() const {
  for (const auto &tensors : {&inputs, &outputs})
    for (const ResolvedTensor &t : *tensors)
      for (int64_t d : t.dims)
        if (d < 0) return true;
  return false;
}

std::string ResolvedRequest::signature() const {
  std::string out;
  out.reserve(128);
  out += opType;
  out += "|in:";
  for (const ResolvedTensor &t : inputs) describeTensor(out, t);
  out += "|out:";
  for (const ResolvedTensor &t : outputs) describeTensor(out, t);
  out += "|attr:";
  for (const auto &[name, value] : attributes) {
    out += name;
    out += '=';
    describeValue(out, value);
    out += ';';
  }
  return out;
}

aclError resolveRequest(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[], int numOutputs,
                        const aclTensorDesc *const outputDesc[], const aclopAttr *attr, bool allDimsDynamic,
                        ResolvedRequest &out, const char *caller) {
  if (opType == nullptr) return reportError(ACL_ERROR_INVALID_PARAM, caller, "opType is NULL");
  const OpDefinition *definition = findOpDefinition(opType);
  if (definition == nullptr)
    return reportError(ACL_ERROR_OP_NOT_FOUND, caller, "operator type '%s' is not in aclcpu's operator library", opType);
  if (numInputs < definition->minInputs || numInputs > definition->maxInputs)
    return reportError(ACL_ERROR_OP_INPUT_NOT_MATCH, caller, "%s takes %d to %d inputs, not %d", opType,
                       definition->minInputs, definition->maxInputs, numInputs);
  if (numOutputs < definition->minOutputs || numOutputs > definition->maxOutputs) {
    if (definition->minOutputs == definition->maxOutputs)
      return reportError(ACL_ERROR_OP_OUTPUT_NOT_MATCH, caller, "%s has %d output%s, not %d", opType,
                         definition->minOutputs, definition->minOutputs == 1 ? "" : "s", numOutputs);
    return reportError(ACL_ERROR_OP_OUTPUT_NOT_MATCH, caller, "%s has %d to %d outputs, not %d", opType,
                       definition->minOutputs, definition->maxOutputs, numOutputs);
  }
  if ((numInputs > 0 && inputDesc == nullptr) || outputDesc == nullptr)
    return reportError(ACL_ERROR_INVALID_PARAM, caller, "%s is NULL", outputDesc ? "inputDesc" : "outputDesc");
  out = ResolvedRequest{};
  out.opType = definition->type;
  out.inputs.resize(numInputs);
  out.outputs.resize(numOutputs);
  for (int i = 0; i < numInputs; ++i)
    if (aclError error = resolveTensor(inputDesc[i], allDimsDynamic, out.inputs[i], "input", i, caller)) return error;
  for (int i = 0; i < numOutputs; ++i)
    if (aclError error = resolveTensor(outputDesc[i], allDimsDynamic, out.outputs[i], "output", i, caller)) return error;
  for (int i = 0; i < definition->minInputs; ++i)
    if (!out.inputs[i].present)
      return reportError(ACL_ERROR_OP_INPUT_NOT_MATCH, caller, "%s input %d is required (it is ACL_DT_UNDEFINED)", opType, i);
  // Attributes: what the request set, then the schema's defaults (applied here so that a
  // request that omits an attribute matches a model compiled with its default, and back).
  if (attr != nullptr) out.attributes = attr->values;
  for (const AttrSchema &schema : definition->attributes) {
    if (out.attributes.count(schema.name)) continue;
    if (!schema.defaultValue)
      return reportError(ACL_ERROR_OP_ATTR_NOT_MATCH, caller, "%s needs attribute '%s'", opType, schema.name.c_str());
    out.attributes[schema.name] = *schema.defaultValue;
  }
  out.spec.op = definition->aclopName;
  for (int i = 0; i < numInputs; ++i) out.kernelInputs.push_back(i);
  if (definition->translate) {
    std::string problem = definition->translate(out);
    if (!problem.empty()) return reportError(ACL_ERROR_OP_ATTR_NOT_MATCH, caller, "%s: %s", opType, problem.c_str());
  }
  for (int index : out.kernelInputs) {
    const ResolvedTensor &input = out.inputs[index];
    ElementType element;
    if (!toElementType(input.dataType, element))
      return reportError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, caller, "%s input %d has data type %d, which aclcpu does not support",
                         opType, index, input.dataType);
    out.spec.inputs.push_back({element, input.dims});
  }
  return ACL_SUCCESS;
}

}  // namespace aclcpu
