// Resumes parked streams at deadlines, for event waits that give up (aclrtStreamWaitEventWithTimeout,
// aclrtSetOpWaitTimeout): one thread, started on first use, asleep until the earliest deadline.
// A resume that finds its wait done, or its stream gone, does nothing.
#pragma once

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

namespace aclcpu {

class Stream;

class DeadlineTimer {
 public:
  DeadlineTimer() = default;
  ~DeadlineTimer() { shutdown(); }
  DeadlineTimer(const DeadlineTimer &) = delete;
  DeadlineTimer &operator=(const DeadlineTimer &) = delete;

  void resumeAt(std::chrono::steady_clock::time_point deadline, std::weak_ptr<Stream> stream);
  // Stops the thread and forgets every deadline (aclFinalize, once every stream has drained); a
  // later resumeAt starts it again.
  void shutdown();

 private:
  void run();

  std::mutex mutex_;
  std::condition_variable changed_;
  std::multimap<std::chrono::steady_clock::time_point, std::weak_ptr<Stream>> due_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace aclcpu
