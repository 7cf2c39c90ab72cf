// The scheduler's parts, tested directly: worker pool, progress counter, stream parking and
// the error a failing task leaves on its stream.
#include "event.h"
#include "handle_registry.h"
#include "kernel_launch.h"
#include "spin_wait.h"
#include "stream.h"
#include "usable_cores.h"
#include "worker_pool.h"

#include "acl/acl.h"

#include <gtest/gtest.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <thread>
#include <vector>

using namespace aclcpu;
using namespace std::chrono_literals;

namespace {

class FunctionTask : public StreamTask {
 public:
  explicit FunctionTask(std::function<TaskOutcome(Stream &)> body) : body_(std::move(body)) {}
  TaskOutcome execute(Stream &stream) override { return body_(stream); }

 private:
  std::function<TaskOutcome(Stream &)> body_;
};

std::unique_ptr<StreamTask> task(std::function<void()> body) {
  return std::make_unique<FunctionTask>([body](Stream &) {
    body();
    return TaskOutcome::Done;
  });
}

class FunctionJob : public PoolJob {
 public:
  explicit FunctionJob(std::function<void()> body) : body_(std::move(body)) {}
  void runOnPool() override { body_(); }

 private:
  std::function<void()> body_;
};

// Occupies `count` of `pool`'s workers with jobs that run until `release` is set; returns once
// they all run.
void holdWorkers(WorkerPool &pool, unsigned count, const std::atomic<bool> &release) {
  auto started = std::make_shared<std::atomic<unsigned>>(0);
  for (unsigned i = 0; i < count; ++i)
    pool.post(std::make_shared<FunctionJob>([started, &release] {
      started->fetch_add(1);
      while (!release.load()) std::this_thread::yield();
    }));
  while (started->load() < count) std::this_thread::yield();
}

class CountingJob : public PoolJob {
 public:
  explicit CountingJob(std::atomic<int> &count) : count_(count) {}
  void runOnPool() override { ++count_; }

 private:
  std::atomic<int> &count_;
};

}  // namespace

TEST(WorkerPool, RunsEveryPostedJob) {
  std::atomic<int> count{0};
  {
    WorkerPool pool(3, 20us, false);
    EXPECT_EQ(pool.numThreads(), 3u);
    for (int i = 0; i < 10000; ++i) pool.post(std::make_shared<CountingJob>(count));
    while (count.load() < 10000) std::this_thread::yield();
  }
  EXPECT_EQ(count.load(), 10000);
}

TEST(WorkerPool, WakesParkedWorkers) {
  std::atomic<int> count{0};
  WorkerPool pool(2, 0us, false);  // no spinning: every post must wake a parked worker
  for (int i = 0; i < 50; ++i) {
    std::this_thread::sleep_for(1ms);
    pool.post(std::make_shared<CountingJob>(count));
  }
  auto deadline = std::chrono::steady_clock::now() + 5s;
  while (count.load() < 50 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
  EXPECT_EQ(count.load(), 50);
}

TEST(WorkerPool, InlineModeRunsAtPost) {
  std::atomic<int> count{0};
  WorkerPool pool(4, 0us, true);
  EXPECT_EQ(pool.numThreads(), 0u);
  pool.post(std::make_shared<CountingJob>(count));
  EXPECT_EQ(count.load(), 1);
}

TEST(ProgressCounter, WaitersWakeAfterSpinning) {
  ProgressCounter counter;
  std::thread producer([&] {
    for (uint64_t i = 1; i <= 100; ++i) {
      if (i % 10 == 0) std::this_thread::sleep_for(200us);
      counter.advanceTo(i);
    }
  });
  counter.waitFor(50, 1us);
  EXPECT_GE(counter.value(), 50u);
  counter.waitFor(100, 0us);
  EXPECT_EQ(counter.value(), 100u);
  counter.advanceTo(10);  // never goes backwards
  EXPECT_EQ(counter.value(), 100u);
  producer.join();
}

// Synchronizing threads spin through typical short waits when a core is spare for them, and
// otherwise (no spare core, or waits past 25 ms) keep the configured spin.
TEST(WaitPredictor, SpinsThroughShortWaitsOnlyWithASpareCore) {
  using namespace std::chrono;
  const nanoseconds configured = microseconds(50);
  aclcpu::WaitPredictor spare(true), busy(false);
  EXPECT_EQ(spare.budget(configured), configured);  // nothing recorded yet
  for (int i = 0; i < 32; ++i) {
    spare.record(microseconds(300));
    busy.record(microseconds(300));
  }
  EXPECT_GE(spare.budget(configured), microseconds(500));
  EXPECT_LE(spare.budget(configured), microseconds(700));
  EXPECT_EQ(busy.budget(configured), configured);
  for (int i = 0; i < 32; ++i) spare.record(milliseconds(10));  // a 1024^3 f32 GEMM on one thread
  EXPECT_GE(spare.budget(configured), milliseconds(18));
  for (int i = 0; i < 32; ++i) spare.record(milliseconds(100));
  EXPECT_EQ(spare.budget(configured), configured);  // long waits park: the wake-up is noise
  for (int i = 0; i < 32; ++i) spare.record(microseconds(10));
  EXPECT_EQ(spare.budget(configured), configured);  // never below the configured spin
}

// A core is spare while fewer jobs run or wait than there are usable cores.
TEST(WorkerPool, HasASpareCoreWhileSomeWorkersAreIdle) {
  const unsigned cores = usableCores();
  WorkerPool pool(cores, 20us, false);
  EXPECT_TRUE(pool.hasSpareCore());
  std::atomic<bool> release{false};
  holdWorkers(pool, cores, release);
  EXPECT_FALSE(pool.hasSpareCore());
  release.store(true);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!pool.hasSpareCore() && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
  EXPECT_TRUE(pool.hasSpareCore());
}

// A quota counts the cores its time would keep busy, rounded up; none, or one that is not a
// positive number, limits nothing (0).
TEST(UsableCores, AQuotaInWholeCores) {
  EXPECT_EQ(coresOfQuota("100000", "100000"), 1u);
  EXPECT_EQ(coresOfQuota("150000", "100000"), 2u);
  EXPECT_EQ(coresOfQuota("50000", "100000"), 1u);
  EXPECT_EQ(coresOfQuota("400000", "100000"), 4u);
  EXPECT_EQ(coresOfQuota("max", "100000"), 0u);  // cgroup v2: no quota
  EXPECT_EQ(coresOfQuota("-1", "100000"), 0u);   // cgroup v1: no quota
  EXPECT_EQ(coresOfQuota("100000", "0"), 0u);
  EXPECT_EQ(coresOfQuota("", "100000"), 0u);
  EXPECT_EQ(coresOfQuota("12x", "100000"), 0u);
  EXPECT_EQ(coresOfQuota(nullptr, "100000"), 0u);
}

// Restricted to one CPU (as by `taskset -c N`), the process has one core whatever the machine
// has: a pool made then counts one, so a thread waiting on its one busy worker stops spinning
// (hasSpareCore) instead of taking turns with it on that CPU.
TEST(UsableCores, FollowTheAffinityMask) {
  cpu_set_t saved;
  ASSERT_EQ(sched_getaffinity(0, sizeof(saved), &saved), 0);
  const unsigned before = usableCores();
  EXPECT_LE(before, static_cast<unsigned>(CPU_COUNT(&saved)));
  int first = 0;
  while (!CPU_ISSET(first, &saved)) ++first;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof(one), &one), 0);
  EXPECT_EQ(usableCores(), 1u);
  {
    WorkerPool pool(1, 20us, false);  // its worker inherits the one CPU
    EXPECT_EQ(pool.cores(), 1u);
    EXPECT_TRUE(pool.hasSpareCore());
    std::atomic<bool> release{false};
    holdWorkers(pool, 1, release);
    EXPECT_FALSE(pool.hasSpareCore());
    release.store(true);
  }
  ASSERT_EQ(sched_setaffinity(0, sizeof(saved), &saved), 0);
  EXPECT_EQ(usableCores(), before);
}

// A synchronizing thread that stops spinning because no core is spare (every core held by a
// job) parks, and still returns once the stream's tasks complete.
TEST(Stream, ASynchronizeWithNoSpareCoreParksAndWakes) {
  const unsigned cores = usableCores();
  WorkerPool pool(cores + 1, 20us, false);  // one worker left for the stream
  std::atomic<bool> release{false};
  holdWorkers(pool, cores, release);
  auto stream = std::make_shared<Stream>(pool, 0, std::chrono::seconds(10));
  std::atomic<int> ran{0};
  stream->enqueue(task([&] {
    std::this_thread::sleep_for(5ms);
    ran.store(3);
  }));
  EXPECT_FALSE(pool.hasSpareCore());
  EXPECT_EQ(stream->synchronize(), ACL_SUCCESS);
  EXPECT_EQ(ran.load(), 3);
  release.store(true);
}

// Which thread ran each block of a launch, in which worker slot.
struct BlockRecord {
  std::thread::id thread;
  uint32_t worker = 0, workers = 0;
};

// A launch the test thread is to join: each block records where it ran, and a block on a pool
// worker holds until one has run on the test thread (or 10 s from the launch's making have
// passed), so the test thread finds blocks left however late the machine lets it arrive.
struct JoinedLaunch {
  static constexpr uint32_t kBlocks = 8;
  BlockRecord records[kBlocks];
  std::thread::id joiner = std::this_thread::get_id();
  std::atomic<int> begun{0};
  std::atomic<bool> joined{false};
  const std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
};

int32_t recordBlockOnceJoined(const void *args, const aclcpuBlockCtx *ctx) {
  auto *launch = static_cast<JoinedLaunch *>(const_cast<void *>(args));
  launch->begun.fetch_add(1);
  launch->records[ctx->blockIdx] = {std::this_thread::get_id(), ctx->workerIdx, ctx->workerNum};
  if (std::this_thread::get_id() == launch->joiner) {
    launch->joined.store(true);
    return 0;
  }
  while (!launch->joined.load() && std::chrono::steady_clock::now() < launch->deadline)
    std::this_thread::sleep_for(100us);
  return 0;
}

// Some of a launch's blocks ran on this thread in the launch's slot for a thread outside the
// pool, the others (if any: this thread may claim them all before the launch's worker starts)
// on pool workers in their own slots.
void expectSomeBlocksRanHere(const JoinedLaunch &launch) {
  int here = 0;
  for (const BlockRecord &record : launch.records) {
    if (record.thread == std::this_thread::get_id()) {
      ++here;
      EXPECT_EQ(record.worker, record.workers - 1);  // the outside slot
    } else {
      EXPECT_LT(record.worker, 2u);  // a pool worker's own slot
    }
  }
  EXPECT_GE(here, 1) << "the waiting thread ran none of the launch's blocks";
}

// A task that makes `launch`'s blocks on `stream` once the test thread waits.
std::unique_ptr<StreamTask> launchLater(WorkerPool &pool, Stream &stream, JoinedLaunch &launch, int32_t &status) {
  return task([&pool, &stream, &launch, &status] {
    std::this_thread::sleep_for(20ms);  // the test thread is waiting by then
    uint32_t faultBlock = 0;
    status = runBlocks(pool, recordBlockOnceJoined, &launch, JoinedLaunch::kBlocks, 0, faultBlock, &stream);
  });
}

// A thread synchronizing on a stream while a launch on it hands out its blocks runs some of
// them itself (Stream::offerToWaiter), in the launch's slot for a thread outside the pool,
// instead of a parked worker being woken for them.
TEST(Stream, ASynchronizingThreadRunsBlocksOfTheLaunch) {
  if (usableCores() < 2) GTEST_SKIP() << "the waiting thread spins only with a spare core";
  WorkerPool pool(2, 20us, false);
  auto stream = std::make_shared<Stream>(pool, 0, std::chrono::seconds(10));  // spins throughout
  JoinedLaunch launch;
  int32_t status = -1;
  stream->enqueue(launchLater(pool, *stream, launch, status));
  EXPECT_EQ(stream->synchronize(), ACL_SUCCESS);
  EXPECT_EQ(status, 0);
  expectSomeBlocksRanHere(launch);
}

// So does a thread synchronizing on an event recorded after the launch (through the stream of
// the record), where it used to spin beside the workers and leave the block to a parked one.
TEST(Event, ASynchronizingThreadRunsBlocksOfALaunchBeforeIt) {
  if (usableCores() < 2) GTEST_SKIP() << "the waiting thread spins only with a spare core";
  WorkerPool pool(2, 20us, false);
  auto stream = std::make_shared<Stream>(pool, 0, std::chrono::seconds(10));
  auto event = std::make_shared<Event>(20us, EventOrigin::Plain, 0u, 0u);
  JoinedLaunch launch;
  int32_t status = -1;
  stream->enqueue(launchLater(pool, *stream, launch, status));
  uint64_t generation = event->beginRecord(stream);
  stream->enqueue(event->recordTask(generation));
  event->synchronize(generation);
  EXPECT_TRUE(event->isComplete(generation));
  EXPECT_EQ(status, 0);
  expectSomeBlocksRanHere(launch);
  EXPECT_EQ(stream->synchronize(), ACL_SUCCESS);
}

// A thread that starts waiting while a launch runs (an event's waiter records and waits after
// enqueuing) still takes blocks of it: with no waiter at its start, the launch's offer stays
// open beside the helper it posts to the pool (here held busy, so the launch's worker would
// otherwise run every block alone).
TEST(Event, AWaiterArrivingDuringALaunchRunsSomeOfItsBlocks) {
  WorkerPool pool(2, 20us, false);
  std::atomic<bool> release{false};
  holdWorkers(pool, 1, release);
  auto stream = std::make_shared<Stream>(pool, 0, std::chrono::seconds(10));
  auto event = std::make_shared<Event>(20us, EventOrigin::Plain, 0u, 0u);
  JoinedLaunch launch;
  int32_t status = -1;
  stream->enqueue(task([&] {
    uint32_t faultBlock = 0;
    status = runBlocks(pool, recordBlockOnceJoined, &launch, JoinedLaunch::kBlocks, 0, faultBlock, stream.get());
  }));
  while (launch.begun.load() == 0) std::this_thread::yield();  // the launch's worker is in its first block
  uint64_t generation = event->beginRecord(stream);
  stream->enqueue(event->recordTask(generation));
  event->synchronize(generation);
  release.store(true);
  EXPECT_EQ(status, 0);
  expectSomeBlocksRanHere(launch);
  EXPECT_EQ(stream->synchronize(), ACL_SUCCESS);
}

TEST(Stream, RunsTasksInOrderAndReportsTheFirstError) {
  WorkerPool pool(2, 20us, false);
  auto stream = std::make_shared<Stream>(pool, 0, 20us);
  std::vector<int> order;
  for (int i = 0; i < 5; ++i) stream->enqueue(task([&order, i] { order.push_back(i); }));
  stream->enqueue(std::make_unique<FunctionTask>([](Stream &s) {
    s.recordError(ACL_ERROR_RT_AICORE_EXCEPTION, "kernel 'demo' returned 3");
    return TaskOutcome::Done;
  }));
  stream->enqueue(std::make_unique<FunctionTask>([](Stream &s) {
    s.recordError(ACL_ERROR_RT_INTERNAL_ERROR, "a later failure");
    return TaskOutcome::Done;
  }));
  stream->enqueue(task([&order] { order.push_back(5); }));
  EXPECT_EQ(stream->synchronize(), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_STREQ(aclGetRecentErrMsg(), "kernel 'demo' returned 3");
  EXPECT_EQ(stream->synchronize(), ACL_SUCCESS) << "an error is reported once";
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(stream->completed().value(), 8u);
}

TEST(Stream, BlockedTaskParksAndResumes) {
  for (bool runInline : {false, true}) {
    WorkerPool pool(1, 20us, runInline);
    auto stream = std::make_shared<Stream>(pool, 0, 20us);
    std::atomic<bool> open{false};
    std::atomic<int> attempts{0};
    int after = 0;
    stream->enqueue(std::make_unique<FunctionTask>([&](Stream &) {
      ++attempts;
      return open.load() ? TaskOutcome::Done : TaskOutcome::Blocked;
    }));
    stream->enqueue(task([&] { after = 1; }));
    std::this_thread::sleep_for(5ms);
    EXPECT_EQ(after, 0);
    EXPECT_EQ(attempts.load(), 1) << "a parked stream is not polled";
    open = true;
    stream->resume();
    stream->synchronize();
    EXPECT_EQ(after, 1);
    EXPECT_EQ(attempts.load(), 2);
  }
}

// A task enqueued from another thread while a caller's run (runIfIdle) holds the stream must
// still be posted once the run ends, with nothing enqueued after it to post the stream instead.
TEST(Stream, TaskEnqueuedDuringACallersRunIsPosted) {
  WorkerPool pool(1, 20us, false);
  auto stream = std::make_shared<Stream>(pool, 0, 20us);
  std::atomic<bool> running{false};
  std::atomic<int> ran{0};
  std::thread caller([&] {
    EXPECT_TRUE(stream->runIfIdle([&](Stream &) {
      running = true;
      // Hold the stream until the other thread has queued its task and looked at the state.
      while (stream->enqueuedCount() == 0) cpuRelax();
      std::this_thread::sleep_for(2ms);
    }));
  });
  while (!running) cpuRelax();
  EXPECT_FALSE(stream->runIfIdle([](Stream &) {})) << "the stream is held";
  stream->enqueue(task([&] { ++ran; }));
  caller.join();
  EXPECT_TRUE(spinUntil([&] { return ran.load() == 1; }, 5s)) << "the task was never posted";
  stream->enqueue(task([] {}));  // posts a stream left idle with a task, so the test can end
  stream->synchronize();
}

TEST(Event, GenerationsCompleteInOrderAndWakeWaiters) {
  WorkerPool pool(2, 20us, false);
  auto recorder = std::make_shared<Stream>(pool, 0, 20us);
  auto waiter = std::make_shared<Stream>(pool, 0, 20us);
  auto event = std::make_shared<Event>(20us, EventOrigin::Plain, 0u, 0u);
  EXPECT_EQ(event->latestGeneration(), 0u);
  std::atomic<bool> gate{false};
  recorder->enqueue(std::make_unique<FunctionTask>(
      [&](Stream &) { return gate.load() ? TaskOutcome::Done : TaskOutcome::Blocked; }));
  uint64_t generation = event->beginRecord(recorder);
  recorder->enqueue(event->recordTask(generation));
  int seen = 0;
  waiter->enqueue(event->waitTask(generation));
  waiter->enqueue(task([&] { seen = 1; }));
  std::this_thread::sleep_for(5ms);
  EXPECT_FALSE(event->isComplete(generation));
  EXPECT_EQ(seen, 0);
  gate = true;
  recorder->resume();
  waiter->synchronize();
  EXPECT_EQ(seen, 1);
  EXPECT_TRUE(event->isComplete(generation));
  std::chrono::steady_clock::time_point when;
  EXPECT_TRUE(event->completedTimestamp(when));
}

// Registry lookups come from per-thread caches (weak for find, strong for borrow) that must
// never answer for a removed object, nor for an old object at a reused address.
TEST(HandleRegistry, CachedLookupsFollowRemovals) {
  aclcpu::HandleRegistry<int> registry;
  auto first = std::make_shared<int>(1);
  void *handle = registry.add(first);
  EXPECT_EQ(registry.find(handle), first);
  EXPECT_EQ(registry.borrow(handle), first.get());
  EXPECT_EQ(registry.borrow(handle), first.get()) << "a cached borrow";
  EXPECT_EQ(registry.remove(handle), first);
  EXPECT_EQ(registry.find(handle), nullptr);
  EXPECT_EQ(registry.borrow(handle), nullptr);
  // The same handle registered again (an address reused) is the new object.
  auto second = std::make_shared<int>(2);
  std::shared_ptr<int> sameAddress(second, first.get());  // aliases first's address
  registry.add(sameAddress);
  EXPECT_EQ(registry.borrow(handle), first.get());
  std::shared_ptr<int> found = registry.find(handle);
  EXPECT_TRUE(!found.owner_before(second) && !second.owner_before(found)) << "not the removed registration";
  found.reset();
  // A borrowed object outlives its removal while this thread's cache holds it.
  std::weak_ptr<int> watch = second;
  registry.remove(handle);
  second.reset();
  sameAddress.reset();
  EXPECT_FALSE(watch.expired()) << "held by this thread's borrows";
  EXPECT_EQ(registry.borrow(handle), nullptr);
  std::vector<std::shared_ptr<int>> others;
  for (int i = 0; i < 4; ++i) registry.borrow(registry.add(others.emplace_back(std::make_shared<int>(i))));
  EXPECT_TRUE(watch.expired()) << "four other borrows evict it";
}
