//===- WindowParts.cpp - sliding-window outputs written in parts ----------===//
#include "WindowParts.h"
#include "LinalgBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

namespace mlir::aclop {

// Edges of at most this many positions are split into parts of one position each, where every
// kernel position reads inside the input or nowhere: NCHW's columns, whose masked reads would be
// gathers (7x7 depthwise with pads of 3, 1x32x56x56, one core: masked edges 16.8 GFLOP/s, a
// column a part 22.3).
constexpr int64_t kEdgePositions = 3;

std::optional<int64_t> staticSize(int64_t size) {
  return ShapedType::isDynamic(size) ? std::nullopt : std::optional<int64_t>(size);
}

// [begin, end): position * stride - padBefore >= 0 and position * stride - padBefore + dilation *
// (kernel - 1) <= size - 1, within [0, outSize).
SmallVector<AxisPart> axisParts(OpBuilder &b, Location loc, const WindowAxis &a, bool edgePositions) {
  Value zero = constantIndex(b, loc, 0);
  Value outEnd = a.outSize ? constantIndex(b, loc, *a.outSize) : a.outSizeValue;
  if (!a.padBefore || !a.padAfter) return {AxisPart{zero, outEnd, false, std::nullopt, std::nullopt}};
  int64_t padBefore = *a.padBefore, padAfter = *a.padAfter;
  if (padBefore == 0 && padAfter == 0) return {AxisPart{zero, outEnd, true, std::nullopt, std::nullopt}};
  int64_t reach = a.dilation * (a.kernel - 1), firstInside = (padBefore + a.stride - 1) / a.stride;
  if (!a.size || !a.outSize) {
    Value begin = arith::MinSIOp::create(b, loc, constantIndex(b, loc, firstInside), outEnd);
    Value lastStart = arith::SubIOp::create(b, loc, a.sizeValue, constantIndex(b, loc, 1 - padBefore + reach));
    Value last = arith::FloorDivSIOp::create(b, loc, lastStart, constantIndex(b, loc, a.stride));
    Value end = arith::AddIOp::create(b, loc, last, constantIndex(b, loc, 1));
    end = arith::MinSIOp::create(b, loc, arith::MaxSIOp::create(b, loc, end, begin), outEnd);
    // Without padding before (after), no position starts (ends) outside: that edge is empty.
    SmallVector<AxisPart> parts;
    if (padBefore) parts.push_back({zero, begin, false, std::nullopt, std::nullopt});
    parts.push_back({padBefore ? begin : zero, padAfter ? end : outEnd, true, std::nullopt, std::nullopt});
    if (padAfter) parts.push_back({end, outEnd, false, std::nullopt, std::nullopt});
    return parts;
  }
  int64_t out = *a.outSize, begin = std::min(firstInside, out);
  int64_t end = std::clamp<int64_t>(llvm::divideFloorSigned(*a.size - 1 + padBefore - reach, a.stride) + 1, begin, out);
  SmallVector<AxisPart> parts;
  auto add = [&](int64_t first, int64_t last, bool middle) {
    if (first < last) parts.push_back({constantIndex(b, loc, first), constantIndex(b, loc, last), middle, first, last});
  };
  auto addEdge = [&](int64_t first, int64_t last) {
    if (!edgePositions || last - first > kEdgePositions) return add(first, last, false);
    for (int64_t position = first; position < last; ++position) add(position, position + 1, false);
  };
  addEdge(0, begin);
  add(begin, end, true);
  addEdge(end, out);
  if (parts.empty()) parts.push_back({zero, zero, true, 0, 0});  // no output along the axis
  return parts;
}

Reach reachOf(const WindowAxis &a, const AxisPart &part, int64_t k) {
  if (part.middle) return Reach::Inside;
  if (!part.staticFirst || !a.size) return Reach::Masked;
  int64_t offset = k * a.dilation - *a.padBefore;
  int64_t first = *part.staticFirst * a.stride + offset, last = (*part.staticEnd - 1) * a.stride + offset;
  if (first >= 0 && last < *a.size) return Reach::Inside;
  if (last < 0 || first >= *a.size) return Reach::Outside;
  return Reach::Masked;
}

Value partPosition(OpBuilder &b, Location loc, int64_t dim, Value first) {
  Value index = linalg::IndexOp::create(b, loc, dim);
  return isZeroInteger(first) ? index : arith::AddIOp::create(b, loc, index, first).getResult();
}

Value writeWindowParts(
    OpBuilder &b, Location loc, Value init, int64_t rowDim, int64_t columnDim, ArrayRef<AxisPart> rows,
    ArrayRef<AxisPart> columns,
    function_ref<Value(OpBuilder &, Location, Value part, const AxisPart &row, const AxisPart &column)> write) {
  // No output (an empty batch, say): one nest that runs no iteration (a slice at offset 0 of a
  // static 0 does not verify).
  if (llvm::is_contained(tensorType(init).getShape(), 0)) {
    Value zero = constantIndex(b, loc, 0);
    AxisPart whole{zero, zero, false, std::nullopt, std::nullopt};
    return write(b, loc, init, whole, whole);
  }
  if (rows.size() == 1 && columns.size() == 1) return write(b, loc, init, rows.front(), columns.front());
  auto bounds = [](ArrayRef<AxisPart> parts) {
    SmallVector<Value> values{parts.front().first};
    for (const AxisPart &part : parts) values.push_back(part.end);
    return values;
  };
  return writeInParts(b, loc, init, {rowDim, columnDim}, {bounds(rows), bounds(columns)},
                      [&](OpBuilder &b, Location loc, Value part, ArrayRef<size_t> index) {
                        return write(b, loc, part, rows[index[0]], columns[index[1]]);
                      });
}

} // namespace mlir::aclop
