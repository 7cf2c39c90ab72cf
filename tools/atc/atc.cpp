// atc: the offline operator compiler. `atc --singleop=ops.json --output=dir` compiles every entry
// of a single-op JSON file (acl-api.md, "Offline compilation") into one .om model file, named as
// Huawei's atc names it, that aclopSetModelDir / aclopLoad load without compiling.
#include "diagnostics.h"
#include "model_file.h"
#include "model_store.h"
#include "op_description.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

using namespace aclcpu;

namespace {

constexpr const char *kUsage =
    "usage: atc --singleop=<ops.json> --output=<folder> [options]\n"
    "\n"
    "Compiles every operator described in <ops.json> for this machine's CPU into one .om file in\n"
    "<folder> (created if missing). Each file is named by the entry's \"name\", or else\n"
    "<index>_<op>_<dtype>_<format>_<dims...> for each input then output, as Huawei's atc names it.\n"
    "Dims of -1 (with optional shape_range) or an output shape of [-2] produce dynamic models.\n"
    "\n"
    "options:\n"
    "  --singleop=<file>     the single-op JSON file (an array of operator descriptions)\n"
    "  --output=<folder>     where the .om files go\n"
    "  --log=<level>         debug, info, warning, error or null (default: null)\n"
    "  --soc_version=<name>  accepted and ignored: models are compiled for the host CPU\n"
    "  --help, -h            this text\n";

int usageError(const std::string &message) {
  fprintf(stderr, "atc: %s\n(run atc --help for the options)\n", message.c_str());
  return 1;
}

int inputError(const std::string &message) {
  fprintf(stderr, "atc: %s\n", message.c_str());
  return 1;
}

bool setLogLevel(const std::string &level) {
  static const std::map<std::string, const char *> levels = {
      {"debug", "0"}, {"info", "1"}, {"warning", "2"}, {"error", "3"}, {"null", "4"}};
  auto it = levels.find(level);
  if (it == levels.end()) return false;
  setenv("ASCEND_GLOBAL_LOG_LEVEL", it->second, 1);
  configureLogging();
  return true;
}

}  // namespace

int main(int argc, char **argv) {
  std::string opsFile, outputDir, logLevel = "null";
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *prefix) { return arg.substr(strlen(prefix)); };
    if (arg == "--help" || arg == "-h") {
      fputs(kUsage, stdout);
      return 0;
    }
    if (arg.rfind("--singleop=", 0) == 0) opsFile = value("--singleop=");
    else if (arg.rfind("--output=", 0) == 0) outputDir = value("--output=");
    else if (arg.rfind("--log=", 0) == 0) logLevel = value("--log=");
    else if (arg.rfind("--soc_version=", 0) == 0) continue;
    else return usageError("unknown option '" + arg + "'");
  }
  if (!setLogLevel(logLevel)) return usageError("--log must be debug, info, warning, error or null, not '" + logLevel + "'");
  if (opsFile.empty()) return usageError("--singleop=<ops.json> is required");
  if (outputDir.empty()) return usageError("--output=<folder> is required");

  std::ifstream in(opsFile);
  if (!in) return inputError("cannot read '" + opsFile + "'");
  nlohmann::json ops;
  try {
    ops = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception &error) {
    return inputError(opsFile + ": malformed JSON: " + error.what());
  }
  if (!ops.is_array() || ops.empty())
    return inputError(opsFile + ": must be a non-empty list of operator descriptions");

  // Every entry is checked before anything compiles: a typo fails in milliseconds.
  std::vector<OpDescription> descriptions(ops.size());
  std::vector<ResolvedRequest> requests(ops.size());
  for (size_t i = 0; i < ops.size(); ++i) {
    std::string error, op = ops[i].is_object() && ops[i].contains("op") ? ops[i]["op"].dump() : "?";
    if (!parseOpDescription(ops[i], descriptions[i], error))
      return inputError(opsFile + ": entry " + std::to_string(i) + " (op " + op + "): " + error);
    if (resolveDescription(descriptions[i], requests[i], "resolving") != ACL_SUCCESS)
      return inputError(opsFile + ": entry " + std::to_string(i) + " (op " + op + "): " + aclGetRecentErrMsg());
  }
  std::error_code status;
  std::filesystem::create_directories(outputDir, status);
  if (!std::filesystem::is_directory(outputDir))
    return inputError("cannot create the output folder '" + outputDir + "': " + status.message());

  int failures = 0;
  std::map<std::string, size_t> written;
  for (size_t i = 0; i < ops.size(); ++i) {
    auto start = std::chrono::steady_clock::now();
    std::string name = modelFileName(i, descriptions[i]) + ".om";
    std::unique_ptr<CompiledKernel> kernel;
    if (buildKernel(requests[i], kernel, "compiling") != ACL_SUCCESS) {
      fprintf(stderr, "atc: %s: entry %zu (%s): %s\n", opsFile.c_str(), i, descriptions[i].opType.c_str(),
              aclGetRecentErrMsg());
      ++failures;
      continue;
    }
    ModelFile file{compilerFingerprint(), requests[i].signature(), kernel->launch, kernel->outputs,
                   kernel->object,        hostTarget().triple,     hostTarget().features, ops[i].dump()};
    std::filesystem::path path = std::filesystem::path(outputDir) / name;
    if (!writeFileAtomically(path.string(), writeModelFile(file))) {
      fprintf(stderr, "atc: cannot write %s\n", path.c_str());
      ++failures;
      continue;
    }
    if (written.count(name))
      fprintf(stderr, "atc: warning: entry %zu overwrote %s of entry %zu (same name)\n", i, name.c_str(), written[name]);
    written[name] = i;
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    printf("[%zu/%zu] %-12s -> %s (%.1f ms)\n", i + 1, ops.size(), descriptions[i].opType.c_str(), path.c_str(), ms);
  }
  if (failures) {
    fprintf(stderr, "atc: %d of %zu operators failed\n", failures, ops.size());
    return 1;
  }
  printf("ATC run success: %zu model%s in %s\n", ops.size(), ops.size() == 1 ? "" : "s", outputDir.c_str());
  return 0;
}
