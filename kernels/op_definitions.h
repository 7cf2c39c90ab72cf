// The operator library: for each CANN operator type, its aliases, inputs, attribute schema
// (name, default) and how it maps onto an aclop operator. One table serves every op; the few
// ops whose inputs or attributes need translating (Cast, MatMul, reductions, Transpose) have a
// `translate` step.
#pragma once

#include "op_request.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace aclcpu {

// The most tensors a list takes: Concat's inputs, the Split family's outputs.
constexpr int kMaxListTensors = 64;

struct AttrSchema {
  std::string name;
  std::optional<OpAttrValue> defaultValue;  // nullopt: required
};

struct OpDefinition {
  std::string type;                  // CANN type, e.g. "MatMul"
  std::vector<std::string> aliases;  // e.g. "MatMulV2"
  std::string aclopName;             // the aclop op, e.g. "matmul"
  int minInputs = 1, maxInputs = 1;  // optional inputs beyond minInputs may be absent
  std::vector<AttrSchema> attributes;
  // Fills request.spec from the resolved request (attributes already defaulted); returns an
  // error message, or "" on success. Null: inputs and attributes pass through unchanged.
  std::function<std::string(ResolvedRequest &)> translate;
  // How many outputs the operator may have (LayerNorm 3; the Split family as many as it cuts).
  int minOutputs = 1, maxOutputs = 1;
  // A matrix product: its launches obey the cube-core resource limit, others the vector-core
  // one (core_limits.h).
  bool onCubeCores = false;
};

const OpDefinition *findOpDefinition(const std::string &type);
// Definitions kept in their own file (window_op_definitions.cpp).
std::vector<OpDefinition> convolutionDefinitions();
std::vector<OpDefinition> poolingDefinitions();
const std::vector<OpDefinition> &opDefinitions();

}  // namespace aclcpu
