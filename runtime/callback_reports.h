// Host callbacks (aclrtLaunchCallback) run on the application thread that subscribed to the
// stream (aclrtSubscribeReport) when it calls aclrtProcessReport, as in CANN. A blocking
// callback parks its stream until the callback has run; a non-blocking one does not.
#pragma once

#include "acl/acl_rt.h"
#include "stream.h"

#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>

namespace aclcpu {

struct CallbackReport {
  aclrtCallback fn = nullptr;
  void *userData = nullptr;
  std::shared_ptr<Stream> blockedStream;           // set for ACL_CALLBACK_BLOCK
  std::shared_ptr<std::atomic<bool>> finished;     // set once fn has returned
};

class ReportQueue {
 public:
  void post(CallbackReport report);
  // Waits up to `timeoutMs` (-1: forever) for a report; false on timeout.
  bool take(int32_t timeoutMs, CallbackReport &out);
  bool empty();

 private:
  std::mutex mutex_;
  std::condition_variable available_;
  std::deque<CallbackReport> reports_;
};

class CallbackHub {
 public:
  aclError subscribe(uint64_t threadId, const std::shared_ptr<Stream> &stream);
  aclError unsubscribe(uint64_t threadId, const std::shared_ptr<Stream> &stream);
  // The queue of the thread subscribed to `stream`, or nullptr.
  std::shared_ptr<ReportQueue> queueForStream(const Stream *stream) const;
  std::shared_ptr<ReportQueue> queueForThread(uint64_t threadId) const;
  void forgetStream(const Stream *stream);
  void clear();

 private:
  mutable std::mutex mutex_;
  std::map<const Stream *, uint64_t> subscriptions_;
  std::map<uint64_t, std::shared_ptr<ReportQueue>> queues_;
};

std::unique_ptr<StreamTask> makeCallbackTask(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType,
                                             std::shared_ptr<ReportQueue> queue);
// A task that calls fn(args) itself, on the thread running the stream (aclrtLaunchHostFunc).
std::unique_ptr<StreamTask> makeHostFuncTask(aclrtHostFunc fn, void *args);
// Runs one report's callback and releases its stream.
void runCallbackReport(CallbackReport &report);

}  // namespace aclcpu
