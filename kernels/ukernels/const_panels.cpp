// The registry of constant operands and their kept panels. Compiled for the baseline CPU, like
// ukernels.cpp.
#include "const_panels.h"

#include <array>
#include <atomic>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

namespace aclcpu {
namespace {

struct FreeDeleter {
  void operator()(uint8_t *p) const { std::free(p); }
};

struct Panel {
  std::unique_ptr<uint8_t, FreeDeleter> bytes;
  bool ready = false;
};

// A constant operand's panels. They may take a few times its own size: f16 and bf16 panels
// widen to f32, and a product split into other blocks, or with other rows, packs other panels.
struct Operand {
  int64_t budget = 0, used = 0;
  std::map<std::array<int64_t, 8>, Panel> panels;
};

struct Registry {
  std::mutex mutex;
  std::map<const void *, Operand> operands;
  std::atomic<int> count{0};
  std::atomic<int64_t> filled{0}, reused{0};
};

// Never destroyed: ukernels may run while statics are torn down at exit.
Registry &registry() {
  static Registry *instance = new Registry();
  return *instance;
}

std::array<int64_t, 8> keyOf(const ConstPanelKey &key) {
  std::array<int64_t, 8> values;
  for (size_t i = 0; i < values.size(); ++i) values[i] = key.values[i];
  return values;
}

}  // namespace

ConstOperand::ConstOperand(const void *data, int64_t bytes) : data_(data) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  Operand &operand = r.operands[data];
  operand.budget = 4 * bytes + (int64_t{1} << 20);
  r.count.store(static_cast<int>(r.operands.size()), std::memory_order_release);
}

ConstOperand::~ConstOperand() {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.operands.erase(data_);
  r.count.store(static_cast<int>(r.operands.size()), std::memory_order_release);
}

bool isConstOperand(const void *data) {
  Registry &r = registry();
  if (r.count.load(std::memory_order_acquire) == 0) return false;
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.operands.count(data) != 0;
}

uint8_t *constPanel(const void *data, const ConstPanelKey &key, int64_t bytes, bool &fill) {
  Registry &r = registry();
  fill = false;
  std::lock_guard<std::mutex> lock(r.mutex);
  auto found = r.operands.find(data);
  if (found == r.operands.end()) return nullptr;
  Operand &operand = found->second;
  auto [at, inserted] = operand.panels.try_emplace(keyOf(key));
  Panel &panel = at->second;
  if (!inserted) {
    if (!panel.ready) return nullptr;
    r.reused.fetch_add(1, std::memory_order_relaxed);
    return panel.bytes.get();
  }
  const int64_t rounded = (bytes + 63) / 64 * 64;
  if (operand.used + rounded > operand.budget) {
    operand.panels.erase(at);
    return nullptr;
  }
  panel.bytes.reset(static_cast<uint8_t *>(std::aligned_alloc(64, static_cast<size_t>(rounded))));
  if (!panel.bytes) {
    operand.panels.erase(at);
    return nullptr;
  }
  operand.used += rounded;
  fill = true;
  return panel.bytes.get();
}

void constPanelFilled(const void *data, const ConstPanelKey &key) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto found = r.operands.find(data);
  if (found == r.operands.end()) return;
  auto panel = found->second.panels.find(keyOf(key));
  if (panel == found->second.panels.end()) return;
  panel->second.ready = true;
  r.filled.fetch_add(1, std::memory_order_relaxed);
}

ConstPanelCounts constPanelCounts() {
  Registry &r = registry();
  return ConstPanelCounts{r.filled.load(std::memory_order_relaxed), r.reused.load(std::memory_order_relaxed)};
}

}  // namespace aclcpu
