//===- WindowParts.h - sliding-window outputs written in parts --*- C++ -*-===//
//
// Sliding-window ops (grouped Conv2D, pooling) read each output element's window from the
// input, and a window position in the padding reads as zero (the combination's identity). A
// masked read costs a select a vector, and along the loop that walks it (NCHW's columns) a
// gather. So the output is written in parts: along each padded axis, the positions whose windows
// lie inside the input read with no mask, and the edges around them drop the kernel positions
// that fall in the padding where the shapes are static, and read masked where they are not.
//
//===----------------------------------------------------------------------===//
#ifndef ACLOP_CONVERSION_WINDOWPARTS_H
#define ACLOP_CONVERSION_WINDOWPARTS_H

#include "mlir/IR/Builders.h"

#include <optional>

namespace mlir::aclop {

// One spatial axis of a window op.
struct WindowAxis {
  // The padding, when static (SAME pooling over an input sized at run time has it only then).
  std::optional<int64_t> padBefore, padAfter;
  int64_t stride, dilation, kernel;
  std::optional<int64_t> size, outSize;  // the input's and the output's, when static
  Value sizeValue, outSizeValue;         // index values
};

// `size` unless it is dynamic.
std::optional<int64_t> staticSize(int64_t size);

// A part [first, end) of the output along one axis. In the `middle` part every window lies
// inside the input; elsewhere, static bounds (and a static input) tell each kernel position's
// reads apart at compile time (reachOf).
struct AxisPart {
  Value first, end;
  bool middle;
  std::optional<int64_t> staticFirst, staticEnd;
};

// The parts of axis `a`: [0, begin), [begin, end) and [end, outSize), where [begin, end) are the
// output positions whose windows lie inside the input, leaving out parts known to be empty; with
// `edgePositions`, static edges of a few positions are split into parts of one position each.
// One part, masked, where the padding is known only at run time.
SmallVector<AxisPart> axisParts(OpBuilder &b, Location loc, const WindowAxis &a, bool edgePositions);

// Where kernel position `k` of axis `a` reads for every position of `part`: inside the input,
// outside it (the position is dropped), or either (the read is masked).
enum class Reach { Inside, Outside, Masked };
Reach reachOf(const WindowAxis &a, const AxisPart &part, int64_t k);

// Inside a part's generic, the output position of its dim `dim`, whose part starts at `first`:
// linalg.index(dim), shifted by `first` unless that is 0.
Value partPosition(OpBuilder &b, Location loc, int64_t dim, Value first);

// `init` written part by part, the grid of `rows` (along dim `rowDim`) by `columns` (along
// `columnDim`), each by `write` (writeInParts). An output with no elements is one part.
Value writeWindowParts(
    OpBuilder &b, Location loc, Value init, int64_t rowDim, int64_t columnDim, ArrayRef<AxisPart> rows,
    ArrayRef<AxisPart> columns,
    function_ref<Value(OpBuilder &, Location, Value part, const AxisPart &row, const AxisPart &column)> write);

} // namespace mlir::aclop

#endif // ACLOP_CONVERSION_WINDOWPARTS_H
