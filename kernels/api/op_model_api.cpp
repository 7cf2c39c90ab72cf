// aclopSetModelDir and aclopLoad: models compiled offline by atc (.om files) join the model
// store without compiling. A file that does not load is skipped with its reason logged.
#include "diagnostics.h"
#include "model_file.h"
#include "model_loader.h"
#include "runtime_state.h"

#include "acl/acl_op.h"

#include <atomic>
#include <filesystem>

using namespace aclcpu;

namespace {

// Files in the model folder and two levels of subfolders below it are scanned.
constexpr int kMaxScanDepth = 2;

std::atomic<bool> modelDirSet{false};
const bool forgetModelDirAtFinalize = (registerFinalizeHook([] { modelDirSet.store(false); }), true);

}  // namespace

extern "C" aclError aclopSetModelDir(const char *modelDir) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(modelDir);
  namespace fs = std::filesystem;
  std::error_code status;
  if (!fs::is_directory(modelDir, status))
    return ACLCPU_FAIL(ACL_ERROR_READ_MODEL_FAILURE, "'%s' is not a readable folder", modelDir);
  if (modelDirSet.exchange(true))
    return ACLCPU_FAIL(ACL_ERROR_REPEAT_INITIALIZE, "the model folder was already set (call it once per aclInit)");
  fs::recursive_directory_iterator it(modelDir, fs::directory_options::skip_permission_denied, status), end;
  if (status) {
    modelDirSet.store(false);
    return ACLCPU_FAIL(ACL_ERROR_READ_MODEL_FAILURE, "cannot list '%s': %s", modelDir, status.message().c_str());
  }
  size_t loaded = 0, rejected = 0;
  for (; it != end; it.increment(status)) {
    if (status) {
      ACLCPU_LOG_WARNING("aclopSetModelDir: stopped scanning part of '%s': %s", modelDir, status.message().c_str());
      break;
    }
    if (it->is_directory(status) && it.depth() >= kMaxScanDepth) it.disable_recursion_pending();
    if (!it->is_regular_file(status) || it->path().extension() != ".om") continue;
    std::vector<char> bytes;
    if (!readFileBytes(it->path().string(), bytes)) {
      ACLCPU_LOG_WARNING("aclopSetModelDir: skipping unreadable file %s", it->path().c_str());
      ++rejected;
      continue;
    }
    std::shared_ptr<Model> model;
    if (loadModelBytes(bytes, it->path().string(), model, __func__) != ACL_SUCCESS) {
      ++rejected;  // the reason is logged and left in aclGetRecentErrMsg
      continue;
    }
    modelStore().addLoaded(std::move(model));
    ++loaded;
  }
  ACLCPU_LOG_DEBUG("aclopSetModelDir: %zu models loaded from '%s', %zu files rejected", loaded, modelDir, rejected);
  if (loaded == 0) ACLCPU_LOG_WARNING("aclopSetModelDir: no loadable .om model in '%s'", modelDir);
  return ACL_SUCCESS;
}

extern "C" aclError aclopLoad(const void *model, size_t modelSize) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(model);
  if (modelSize == 0) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "modelSize is 0");
  const char *bytes = static_cast<const char *>(model);
  std::shared_ptr<Model> loaded;
  if (aclError error = loadModelBytes(std::vector<char>(bytes, bytes + modelSize), "model in memory", loaded, __func__))
    return error;
  modelStore().addLoaded(std::move(loaded));
  return ACL_SUCCESS;
}
