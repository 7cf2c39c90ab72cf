// Per-thread recent error messages and the CANN-compatible logger.
#include "diagnostics.h"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
#include <unistd.h>

namespace aclcpu {
namespace {

thread_local std::string recentError;
thread_local bool hasRecentError = false;

std::atomic<int> logThreshold{static_cast<int>(LogLevel::Error)};
std::mutex logMutex;
FILE *logSink = nullptr;  // nullptr: logs are dropped, as CANN does when no log target is set.
bool ownsLogSink = false;

const char *levelName(LogLevel level) {
  switch (level) {
    case LogLevel::Debug: return "DEBUG";
    case LogLevel::Info: return "INFO";
    case LogLevel::Warning: return "WARNING";
    case LogLevel::Error: return "ERROR";
    case LogLevel::Off: break;
  }
  return "?";
}

void vlog(LogLevel level, const char *format, va_list args) {
  char body[2048];
  vsnprintf(body, sizeof(body), format, args);
  std::lock_guard<std::mutex> lock(logMutex);
  if (logSink == nullptr) return;
  fprintf(logSink, "[%s] ACLCPU(%d): %s\n", levelName(level), static_cast<int>(getpid()), body);
  fflush(logSink);
}

}  // namespace

void configureLogging() {
  int level = static_cast<int>(LogLevel::Error);
  if (const char *env = getenv("ASCEND_GLOBAL_LOG_LEVEL")) {
    char *end = nullptr;
    long parsed = strtol(env, &end, 10);
    if (end != env && *end == '\0' && parsed >= 0 && parsed <= 4) level = static_cast<int>(parsed);
  }
  logThreshold.store(level);
  std::lock_guard<std::mutex> lock(logMutex);
  if (ownsLogSink && logSink) fclose(logSink);
  logSink = nullptr;
  ownsLogSink = false;
  const char *toStdout = getenv("ASCEND_SLOG_PRINT_TO_STDOUT");
  if (toStdout && strcmp(toStdout, "1") == 0) {
    logSink = stdout;
  } else if (const char *dir = getenv("ASCEND_PROCESS_LOG_PATH")) {
    std::string path = std::string(dir) + "/aclcpu-" + std::to_string(getpid()) + ".log";
    logSink = fopen(path.c_str(), "a");
    ownsLogSink = logSink != nullptr;
  }
}

bool logEnabled(LogLevel level) {
  return static_cast<int>(level) >= logThreshold.load(std::memory_order_relaxed) && level != LogLevel::Off;
}

void logMessage(LogLevel level, const char *format, ...) {
  if (!logEnabled(level)) return;
  va_list args;
  va_start(args, format);
  vlog(level, format, args);
  va_end(args);
}

aclError reportError(aclError code, const char *function, const char *format, ...) {
  char body[1536];
  va_list args;
  va_start(args, format);
  vsnprintf(body, sizeof(body), format, args);
  va_end(args);
  setRecentError(std::string(function) + ": " + body + " (error " + std::to_string(code) + ")");
  logMessage(LogLevel::Error, "%s", recentError.c_str());
  return code;
}

void setRecentError(const std::string &message) {
  recentError = message;
  hasRecentError = true;
}

}  // namespace aclcpu

extern "C" const char *aclGetRecentErrMsg(void) {
  return aclcpu::hasRecentError ? aclcpu::recentError.c_str() : nullptr;
}
