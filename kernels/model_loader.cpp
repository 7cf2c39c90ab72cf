// Validating and linking .om models.
#include "model_loader.h"

#include "diagnostics.h"
#include "model_file.h"
#include "op_description.h"

#include <set>
#include <sstream>

namespace aclcpu {
namespace {

std::set<std::string> enabledFeatures(const std::string &features) {
  std::set<std::string> enabled;
  std::stringstream list(features);
  std::string feature;
  while (std::getline(list, feature, ','))
    if (feature.size() > 1 && feature[0] == '+') enabled.insert(feature.substr(1));
  return enabled;
}

std::string architecture(const std::string &triple) { return triple.substr(0, triple.find('-')); }

}  // namespace

std::string missingTargetSupport(const std::string &triple, const std::string &features) {
  const HostTarget &host = hostTarget();
  if (architecture(triple) != architecture(host.triple))
    return "it was compiled for " + triple + ", this machine is " + host.triple;
  std::set<std::string> available = enabledFeatures(host.features);
  std::string missing;
  for (const std::string &feature : enabledFeatures(features))
    if (!available.count(feature)) missing += (missing.empty() ? "" : ",") + feature;
  return missing.empty() ? "" : "this CPU lacks the features it was compiled for: " + missing;
}

aclError loadModelBytes(const std::vector<char> &bytes, const std::string &origin, std::shared_ptr<Model> &out,
                        const char *caller) {
  ModelFile file;
  std::string error;
  if (!readModelFile(bytes, file, error))
    return reportError(ACL_ERROR_PARSE_MODEL, caller, "%s is not a valid aclcpu .om model: %s", origin.c_str(),
                       error.c_str());
  if (file.description.empty())
    return reportError(ACL_ERROR_PARSE_MODEL, caller, "%s is a compile-cache entry, not an atc model (no op description)",
                       origin.c_str());
  std::string unsupported = missingTargetSupport(file.triple, file.features);
  if (!unsupported.empty())
    return reportError(ACL_ERROR_PARSE_MODEL, caller, "%s cannot run here: %s (rebuild it with atc on this machine)",
                       origin.c_str(), unsupported.c_str());
  nlohmann::json entry = nlohmann::json::parse(file.description, nullptr, /*allow_exceptions=*/false);
  OpDescription description;
  if (!parseOpDescription(entry, description, error))
    return reportError(ACL_ERROR_PARSE_MODEL, caller, "%s: its op description is malformed: %s", origin.c_str(),
                       error.c_str());
  ResolvedRequest request;
  if (aclError code = resolveDescription(description, request, caller)) return code;
  if (request.signature() != file.signature)
    return reportError(ACL_ERROR_PARSE_MODEL, caller,
                       "%s: its op description and signature disagree (written by another aclcpu version?)",
                       origin.c_str());
  std::string mismatch = outputMismatch(request, file.outputs);
  if (!mismatch.empty() || file.outputs.size() != request.outputs.size())
    return reportError(ACL_ERROR_PARSE_MODEL, caller, "%s: its kernel's outputs disagree with its description %s",
                       origin.c_str(), mismatch.c_str());
  std::unique_ptr<CompiledKernel> kernel =
      loadCompiledObject(std::move(file.object), std::move(file.outputs), file.launch, error);
  if (!kernel) return reportError(ACL_ERROR_PARSE_MODEL, caller, "%s: %s", origin.c_str(), error.c_str());
  out = makeModel(std::move(request), std::move(kernel));
  return ACL_SUCCESS;
}

}  // namespace aclcpu
