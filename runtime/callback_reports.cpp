// Subscriptions, report queues, the callback stream task and the host-function task.
#include "callback_reports.h"

#include "diagnostics.h"

#include <chrono>

namespace aclcpu {
namespace {

class CallbackTask : public StreamTask {
 public:
  CallbackTask(aclrtCallback fn, void *userData, bool blocking, std::shared_ptr<ReportQueue> queue)
      : fn_(fn), userData_(userData), blocking_(blocking), queue_(std::move(queue)),
        finished_(std::make_shared<std::atomic<bool>>(false)) {}

  TaskOutcome execute(Stream &stream) override {
    if (!posted_) {
      posted_ = true;
      CallbackReport report{fn_, userData_, blocking_ ? stream.shared_from_this() : nullptr, finished_};
      queue_->post(std::move(report));
    }
    if (!blocking_ || finished_->load(std::memory_order_acquire)) return TaskOutcome::Done;
    return TaskOutcome::Blocked;
  }

 private:
  aclrtCallback fn_;
  void *userData_;
  bool blocking_;
  bool posted_ = false;
  std::shared_ptr<ReportQueue> queue_;
  std::shared_ptr<std::atomic<bool>> finished_;
};

class HostFuncTask : public StreamTask {
 public:
  HostFuncTask(aclrtHostFunc fn, void *args) : fn_(fn), args_(args) {}
  TaskOutcome execute(Stream &) override {
    fn_(args_);
    return TaskOutcome::Done;
  }

 private:
  aclrtHostFunc fn_;
  void *args_;
};

}  // namespace

std::unique_ptr<StreamTask> makeHostFuncTask(aclrtHostFunc fn, void *args) {
  return std::make_unique<HostFuncTask>(fn, args);
}

void ReportQueue::post(CallbackReport report) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    reports_.push_back(std::move(report));
  }
  available_.notify_one();
}

bool ReportQueue::take(int32_t timeoutMs, CallbackReport &out) {
  std::unique_lock<std::mutex> lock(mutex_);
  auto ready = [this] { return !reports_.empty(); };
  if (timeoutMs < 0) {
    available_.wait(lock, ready);
  } else if (!available_.wait_for(lock, std::chrono::milliseconds(timeoutMs), ready)) {
    return false;
  }
  out = std::move(reports_.front());
  reports_.pop_front();
  return true;
}

bool ReportQueue::empty() {
  std::lock_guard<std::mutex> lock(mutex_);
  return reports_.empty();
}

aclError CallbackHub::subscribe(uint64_t threadId, const std::shared_ptr<Stream> &stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = subscriptions_.find(stream.get());
  if (it != subscriptions_.end())
    return reportError(ACL_ERROR_RT_STREAM_SUBSCRIBE, "aclrtSubscribeReport",
                       "the stream is already subscribed by thread %llu", static_cast<unsigned long long>(it->second));
  subscriptions_[stream.get()] = threadId;
  auto &queue = queues_[threadId];
  if (!queue) queue = std::make_shared<ReportQueue>();
  return ACL_SUCCESS;
}

aclError CallbackHub::unsubscribe(uint64_t threadId, const std::shared_ptr<Stream> &stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = subscriptions_.find(stream.get());
  if (it == subscriptions_.end() || it->second != threadId)
    return reportError(ACL_ERROR_RT_STREAM_SUBSCRIBE, "aclrtUnSubscribeReport",
                       "the stream is not subscribed by thread %llu", static_cast<unsigned long long>(threadId));
  subscriptions_.erase(it);
  return ACL_SUCCESS;
}

std::shared_ptr<ReportQueue> CallbackHub::queueForStream(const Stream *stream) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = subscriptions_.find(stream);
  if (it == subscriptions_.end()) return nullptr;
  return queues_.at(it->second);
}

std::shared_ptr<ReportQueue> CallbackHub::queueForThread(uint64_t threadId) const {
  std::lock_guard<std::mutex> lock(mutex_);
  bool subscribed = false;
  for (auto &entry : subscriptions_) subscribed |= entry.second == threadId;
  auto it = queues_.find(threadId);
  if (it == queues_.end()) return nullptr;
  // After unsubscribing, a thread may still drain reports it was sent (a blocked stream waits on them).
  if (!subscribed && it->second->empty()) return nullptr;
  return it->second;
}

void CallbackHub::forgetStream(const Stream *stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  subscriptions_.erase(stream);
}

void CallbackHub::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  subscriptions_.clear();
  queues_.clear();
}

std::unique_ptr<StreamTask> makeCallbackTask(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType,
                                             std::shared_ptr<ReportQueue> queue) {
  return std::make_unique<CallbackTask>(fn, userData, blockType == ACL_CALLBACK_BLOCK, std::move(queue));
}

void runCallbackReport(CallbackReport &report) {
  report.fn(report.userData);
  report.finished->store(true, std::memory_order_release);
  if (report.blockedStream) report.blockedStream->resume();
}

}  // namespace aclcpu
