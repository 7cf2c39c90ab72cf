// The deadline thread: sleeps until the earliest deadline, then resumes that stream.
#include "deadline_timer.h"

#include "stream.h"

#include <vector>

namespace aclcpu {

void DeadlineTimer::shutdown() {
  std::thread stopped;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    stopped = std::move(thread_);
  }
  changed_.notify_all();
  if (stopped.joinable()) stopped.join();
  std::lock_guard<std::mutex> lock(mutex_);
  due_.clear();
  stopping_ = false;
}

void DeadlineTimer::resumeAt(std::chrono::steady_clock::time_point deadline, std::weak_ptr<Stream> stream) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    due_.emplace(deadline, std::move(stream));
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  }
  changed_.notify_all();
}

void DeadlineTimer::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    if (due_.empty()) {
      changed_.wait(lock);
      continue;
    }
    auto earliest = due_.begin()->first;
    if (std::chrono::steady_clock::now() < earliest) {
      changed_.wait_until(lock, earliest);
      continue;
    }
    std::vector<std::shared_ptr<Stream>> ready;
    auto now = std::chrono::steady_clock::now();
    while (!due_.empty() && due_.begin()->first <= now) {
      if (auto stream = due_.begin()->second.lock()) ready.push_back(std::move(stream));
      due_.erase(due_.begin());
    }
    lock.unlock();
    for (auto &stream : ready) stream->resume();
    ready.clear();  // a stream's last reference may go here: not under the lock
    lock.lock();
  }
}

}  // namespace aclcpu
