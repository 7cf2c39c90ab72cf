// Loading atc's .om files as models: the container is validated, this CPU must have every
// feature the code was generated for, the atc entry inside is resolved against the operator
// library exactly as atc resolved it, and the object is linked. Nothing in a rejected file runs.
#pragma once

#include "model_store.h"

#include <string>
#include <vector>

namespace aclcpu {

// On failure returns ACL_ERROR_PARSE_MODEL (or the resolving error) with a message naming
// `origin` (a file name, or "model in memory").
aclError loadModelBytes(const std::vector<char> &bytes, const std::string &origin, std::shared_ptr<Model> &out,
                        const char *caller);

// The CPU features the model needs that this machine lacks, comma-separated ("" if none), or
// the target mismatch when the triples' architectures differ.
std::string missingTargetSupport(const std::string &triple, const std::string &features);

}  // namespace aclcpu
