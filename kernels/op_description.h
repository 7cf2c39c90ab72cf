// An operator described the way `atc --singleop` JSON files describe it (acl-api.md, "Offline
// compilation"): op type, tensor descriptions, attributes. atc parses its input with this, and
// every .om file carries its entry so that loading resolves it exactly as atc did.
#pragma once

#include "op_request.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace aclcpu {

struct OpDescription {
  std::string opType;
  std::string name;  // optional: the .om file's name
  std::vector<aclTensorDesc> inputs, outputs;
  aclopAttr attr;
};

// Parses one entry of a single-op JSON array. On failure returns false with `error` naming the
// field ("input_desc[1].type: ..."), never throws.
bool parseOpDescription(const nlohmann::json &entry, OpDescription &out, std::string &error);

// Resolves a parsed description against the operator library (what aclopCompile does with the
// same descriptions and attributes).
aclError resolveDescription(const OpDescription &description, ResolvedRequest &out, const char *caller);

// The file name atc gives entry `index` (without ".om"): its `name`, else `<index>_<op>` and,
// for each input then output, `_<dtype>_<format>_<dims...>`, cut to 128 characters.
std::string modelFileName(size_t index, const OpDescription &description);

}  // namespace aclcpu
