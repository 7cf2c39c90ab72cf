// Packed panels of constant operands, kept across ukernel calls. An operator's input made
// constant by aclSetTensorConst holds the same values in every launch of its model, so a GEMM
// ukernel that finds its B among the registered operands packs each panel of it once and reads
// the kept panel in later calls, as libraries with pre-packed weights do (oneDNN's matmul with B
// reordered ahead). Declarations only: the ukernels' own files include this.
#pragma once

#include <cstdint>

namespace aclcpu {

// Which panel of an operand: the packing's inputs (offset, strides, depth and column ranges,
// element layout), so that equal keys hold equal bytes.
struct ConstPanelKey {
  int64_t values[8];
};

// Registers `data` (`bytes` long, constant until unregistered) and, on destruction, unregisters
// it and frees its panels: nothing may be using them by then (the owner outlives its launches).
class ConstOperand {
 public:
  ConstOperand(const void *data, int64_t bytes);
  ~ConstOperand();
  ConstOperand(const ConstOperand &) = delete;
  ConstOperand &operator=(const ConstOperand &) = delete;
  const void *data() const { return data_; }

 private:
  const void *data_;
};

// Whether `data` is a registered constant operand (one atomic load while none is).
bool isConstOperand(const void *data);

// The panel `key` of the constant operand `data`, `bytes` long and 64-byte aligned: ready to
// read (`fill` false), or for the caller to fill and then publish with constPanelFilled. Null
// while another thread fills it, once the operand's panels have used their budget, or if
// `data` is not registered: the caller then packs into its own scratch.
uint8_t *constPanel(const void *data, const ConstPanelKey &key, int64_t bytes, bool &fill);
void constPanelFilled(const void *data, const ConstPanelKey &key);

// Panels filled and reads of kept panels since the process started (for tests).
struct ConstPanelCounts {
  int64_t filled = 0, reused = 0;
};
ConstPanelCounts constPanelCounts();

}  // namespace aclcpu
