// Several implementations of one operation measured side by side in one process: each
// benchmark iteration is a round in which every contender runs a batch of calls (~20 ms), in an
// order rotated every round. This VM's speed drifts by several percent within minutes and
// jumps between two levels for seconds at a time, so figures taken in separate runs, even
// seconds apart, moved ratios near 1.0 by several percent; batches milliseconds apart see the
// same machine.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace aclcpu_bench {

// One implementation of an operation, set up once (its buffers, handle or plan) and then called
// repeatedly; each call completes the operation (a stream is synchronized).
class Contender {
 public:
  explicit Contender(std::string name) : name_(std::move(name)) {}
  virtual ~Contender() = default;
  // One operation; false, with error() saying why, if it failed (or its setup did).
  virtual bool call() = 0;
  const std::string &name() const { return name_; }
  const std::string &error() const { return error_; }
  std::string label;  // which kernels ran, where the library says

 protected:
  bool fail(std::string error) {
    error_ = std::move(error);
    return false;
  }

 private:
  std::string name_, error_;
};

// The value a fraction `q` of the way through `values` (sorted here).
inline double quantile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  return values[static_cast<size_t>(std::lround(q * static_cast<double>(values.size() - 1)))];
}

inline void skip(benchmark::State &state, const Contender &contender) {
  state.SkipWithError((contender.name() + ": " + contender.error()).c_str());
}

// Calls `contender` once per benchmark iteration; `counter` = opsPerCall per call, per second.
inline void runAlone(benchmark::State &state, Contender &contender, double opsPerCall, const char *counter) {
  for (auto _ : state)
    if (!contender.call()) return skip(state, contender);
  state.counters[counter] = benchmark::Counter(opsPerCall * static_cast<double>(state.iterations()),
                                               benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
  state.SetLabel(contender.label);
}

// Runs `contenders` in rounds, one per benchmark iteration (set them with ->Iterations). Counters:
// "<name> <unit>", each contender's median batch rate (opsPerCall per call, in units of 1e9 per
// second); "vs <name>" and "vs <name> q1" / "q3", the first contender's rate over that one's,
// round by round: the median and the quartiles of those ratios.
inline void runPaired(benchmark::State &state, const std::vector<std::unique_ptr<Contender>> &contenders,
                      double opsPerCall, const std::string &unit) {
  using Clock = std::chrono::steady_clock;
  constexpr double kBatchSeconds = 0.02;
  auto secondsSince = [](Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); };
  const size_t count = contenders.size();
  // Calls per batch: ~kBatchSeconds each, timed over a quarter of that after a first call (which
  // may compile, allocate or fault in pages).
  std::vector<long> calls(count);
  for (size_t i = 0; i < count; ++i) {
    if (!contenders[i]->call()) return skip(state, *contenders[i]);
    long timed = 0;
    Clock::time_point start = Clock::now();
    do {
      if (!contenders[i]->call()) return skip(state, *contenders[i]);
      ++timed;
    } while (secondsSince(start) < kBatchSeconds / 4);
    calls[i] = std::max(1L, std::lround(kBatchSeconds / (secondsSince(start) / static_cast<double>(timed))));
  }
  std::vector<std::vector<double>> rates(count);
  size_t round = 0;
  for (auto _ : state) {
    for (size_t turn = 0; turn < count; ++turn) {
      const size_t i = (turn + round) % count;
      Clock::time_point start = Clock::now();
      for (long c = 0; c < calls[i]; ++c)
        if (!contenders[i]->call()) return skip(state, *contenders[i]);
      rates[i].push_back(opsPerCall * static_cast<double>(calls[i]) / secondsSince(start) / 1e9);
    }
    ++round;
  }
  if (round == 0) return;
  std::string labels;
  for (size_t i = 0; i < count; ++i) {
    state.counters[contenders[i]->name() + " " + unit] = quantile(rates[i], 0.5);
    if (!contenders[i]->label.empty()) labels += (labels.empty() ? "" : "; ") + contenders[i]->label;
    if (i == 0) continue;
    std::vector<double> ratios(round);
    for (size_t r = 0; r < round; ++r) ratios[r] = rates[0][r] / rates[i][r];
    const std::string name = "vs " + contenders[i]->name();
    state.counters[name] = quantile(ratios, 0.5);
    state.counters[name + " q1"] = quantile(ratios, 0.25);
    state.counters[name + " q3"] = quantile(ratios, 0.75);
  }
  state.SetLabel(labels);
}

}  // namespace aclcpu_bench
