// Error reporting and logging shared by every public entry point: the per-thread recent error
// message behind aclGetRecentErrMsg, and CANN-style log levels from ASCEND_GLOBAL_LOG_LEVEL.
#pragma once

#include "acl/acl_base.h"

#include <string>

namespace aclcpu {

enum class LogLevel { Debug = 0, Info = 1, Warning = 2, Error = 3, Off = 4 };

// Re-reads ASCEND_GLOBAL_LOG_LEVEL, ASCEND_SLOG_PRINT_TO_STDOUT and ASCEND_PROCESS_LOG_PATH.
void configureLogging();
bool logEnabled(LogLevel level);
void logMessage(LogLevel level, const char *format, ...) __attribute__((format(printf, 2, 3)));

// Records "<function>: <message>" as this thread's recent error, logs it, and returns `code`.
aclError reportError(aclError code, const char *function, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
// Records an already formatted message (e.g. an error carried by a stream task).
void setRecentError(const std::string &message);

}  // namespace aclcpu

#define ACLCPU_FAIL(code, ...) ::aclcpu::reportError((code), __func__, __VA_ARGS__)
#define ACLCPU_LOG_DEBUG(...)                                                                       \
  do {                                                                                              \
    if (::aclcpu::logEnabled(::aclcpu::LogLevel::Debug))                                            \
      ::aclcpu::logMessage(::aclcpu::LogLevel::Debug, __VA_ARGS__);                                 \
  } while (0)
#define ACLCPU_LOG_WARNING(...) ::aclcpu::logMessage(::aclcpu::LogLevel::Warning, __VA_ARGS__)
#define ACLCPU_CHECK_NOT_NULL(arg)                                                                  \
  do {                                                                                              \
    if ((arg) == nullptr) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "argument '%s' is NULL", #arg); \
  } while (0)
