//===- Pool2DToLinalg.cpp - aclop.pool2d -> linalg ------------------------===//
//
// As conv2d's: the input is read with tensor.extract at each window position and positions in
// the padding read as the combination's identity, so no padded copy is made. A small window is
// read in a straight run per output element, over the output's parts (WindowParts: where the
// windows lie inside the input no read is masked; 3x3/2 SAME max pooling, NHWC f32, 16 -> 26
// GB/s); a large one is a pair of reduction loops, whose bounds a constant of the window's shape
// gives (linalg's pooling ops take a tensor.empty for this; a constant becomes a global, never an
// allocation). Averages divide by a count worked out from each output element's position.
//
//===----------------------------------------------------------------------===//

#include "LinalgBuilders.h"
#include "ScalarOps.h"
#include "WindowParts.h"
#include "aclop/AclopOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::aclop;

namespace {

// One spatial axis of the pooling, as index values computed once per kernel (SAME padding
// depends on the input's size, which may be dynamic).
struct PoolAxis {
  Value size, padBefore, padAfter, outputSize;
  int64_t window, stride;
};

PoolAxis poolAxis(OpBuilder &b, Location loc, Pool2DOp op, Value input, int64_t dimIndex, unsigned axis) {
  PoolAxis a;
  a.window = op.getWindow()[axis];
  a.stride = op.getStrides()[axis];
  a.size = dim(b, loc, input, dimIndex);
  Value zero = constantIndex(b, loc, 0), one = constantIndex(b, loc, 1), stride = constantIndex(b, loc, a.stride);
  Value window = constantIndex(b, loc, a.window);
  if (op.getPaddingMode() == "SAME") {
    // TensorFlow's rule: out = ceil(in / stride), the padding it takes split evenly, the odd one after.
    a.outputSize = arith::CeilDivSIOp::create(b, loc, a.size, stride);
    Value last = arith::MulIOp::create(b, loc, arith::SubIOp::create(b, loc, a.outputSize, one), stride);
    Value needed = arith::SubIOp::create(b, loc, arith::AddIOp::create(b, loc, last, window), a.size);
    Value total = arith::MaxSIOp::create(b, loc, needed, zero);
    a.padBefore = arith::DivSIOp::create(b, loc, total, constantIndex(b, loc, 2));
    a.padAfter = arith::SubIOp::create(b, loc, total, a.padBefore);
    return a;
  }
  a.padBefore = constantIndex(b, loc, op.getPads()[2 * axis]);
  a.padAfter = constantIndex(b, loc, op.getPads()[2 * axis + 1]);
  Value padded = arith::AddIOp::create(b, loc, arith::AddIOp::create(b, loc, a.size, a.padBefore), a.padAfter);
  Value span = arith::SubIOp::create(b, loc, padded, window);
  if (!op.getCeilMode()) {
    a.outputSize = arith::AddIOp::create(b, loc, arith::DivSIOp::create(b, loc, span, stride), one);
  } else {  // rounded up, less a window that would start in the bottom (right) padding
    Value out = arith::AddIOp::create(b, loc, arith::CeilDivSIOp::create(b, loc, span, stride), one);
    Value lastStart = arith::MulIOp::create(b, loc, arith::SubIOp::create(b, loc, out, one), stride);
    Value startsInPadding = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, lastStart,
                                                  arith::AddIOp::create(b, loc, a.size, a.padBefore));
    a.outputSize = arith::SelectOp::create(b, loc, startsInPadding, arith::SubIOp::create(b, loc, out, one), out);
  }
  // An empty axis has no windows (inference says the same), so nothing reads the empty input.
  Value empty = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, a.size, zero);
  a.outputSize = arith::SelectOp::create(b, loc, empty, zero, a.outputSize);
  return a;
}

// `a` as the output's parts see it (WindowParts), its padding where that is static: TensorFlow's
// SAME split, or the pads given; after the input, what the last window reaches past it (in ceil
// mode that can be more than the pads given).
WindowAxis windowAxis(Pool2DOp op, const PoolAxis &a, RankedTensorType inputType, RankedTensorType resultType,
                      int64_t dimIndex, unsigned axis) {
  std::optional<int64_t> size = staticSize(inputType.getDimSize(dimIndex));
  std::optional<int64_t> out = staticSize(resultType.getDimSize(dimIndex));
  std::optional<int64_t> before, after;
  if (size && out) {
    before = op.getPaddingMode() == "SAME" ? std::max<int64_t>((*out - 1) * a.stride + a.window - *size, 0) / 2
                                           : op.getPads()[2 * axis];
    after = std::max<int64_t>((*out - 1) * a.stride + a.window - *size - *before, 0);
  } else if (op.getPaddingMode() != "SAME" && !op.getCeilMode()) {
    before = op.getPads()[2 * axis];
    after = op.getPads()[2 * axis + 1];
  }
  return WindowAxis{before, after, a.stride, 1, a.window, size, out, a.size, a.outputSize};
}

// The elements an average divides by at output position `out` along one axis: the window's
// elements inside the input (exclusive), or inside the padded input.
Value windowCount(OpBuilder &b, Location loc, const PoolAxis &a, Value out, bool exclusive) {
  Value start = windowPosition(b, loc, out, constantIndex(b, loc, 0), a.stride, 1, a.padBefore);
  Value end = arith::AddIOp::create(b, loc, start, constantIndex(b, loc, a.window));
  if (!exclusive) {
    Value paddedEnd = arith::AddIOp::create(b, loc, a.size, a.padAfter);
    return arith::SubIOp::create(b, loc, arith::MinSIOp::create(b, loc, end, paddedEnd), start);
  }
  Value first = arith::MaxSIOp::create(b, loc, start, constantIndex(b, loc, 0));
  return arith::SubIOp::create(b, loc, arith::MinSIOp::create(b, loc, end, a.size), first);
}

// Windows of at most this many elements are read in one straight run per output element
// (3x3 max pooling, NHWC f32, 2.5 -> 16 GB/s against the window loops); larger ones (global
// pooling) are reduction loops.
constexpr int64_t kUnrolledWindow = 16;

struct Pool2DPattern : OpConversionPattern<Pool2DOp> {
  using OpConversionPattern::OpConversionPattern;

  // What every form shares: the op's types, layout and axes.
  struct Pooling {
    Value input;
    Type element, accType;
    bool isUnsigned, isMax, exclusive;
    int64_t divisorOverride;
    Combine combine;
    ConvLayout data;
    PoolAxis rows, cols;

    // The element a window position reads, in the accumulator type; padding reads as the
    // combination's identity (-0.0 for float sums: x + -0.0 is x for every x), so that no
    // accumulator is kept or stored conditionally. `outputIndex(d)` is output dim d's index.
    // `rowsInside`/`columnsInside`: the caller's window rows/columns all lie inside the input,
    // and are read with no mask.
    Value read(OpBuilder &b, Location l, function_ref<Value(int64_t)> outputIndex, Value windowRow,
               Value windowColumn, bool rowsInside = false, bool columnsInside = false) const {
      Value row = windowPosition(b, l, outputIndex(data.h), windowRow, rows.stride, 1, rows.padBefore);
      Value col = windowPosition(b, l, outputIndex(data.w), windowColumn, cols.stride, 1, cols.padBefore);
      Value valid;
      SmallVector<Value> indices(4);
      indices[data.n] = outputIndex(data.n);
      indices[data.c] = outputIndex(data.c);
      indices[data.h] = rowsInside ? row : maskedIndex(b, l, row, rows.size, valid);
      indices[data.w] = columnsInside ? col : maskedIndex(b, l, col, cols.size, valid);
      Value x = castScalar(b, l, tensor::ExtractOp::create(b, l, input, indices), element, accType, true);
      if (!valid) return x;
      Value neutral = arith::ConstantOp::create(b, l, isMax || !isa<FloatType>(accType)
                                                          ? identityOf(b, combine, accType, isUnsigned)
                                                          : b.getFloatAttr(accType, -0.0));
      return arith::SelectOp::create(b, l, valid, x, neutral);
    }

    // The result element from the combined window: an average divided, narrowed to the element type.
    Value finish(OpBuilder &b, Location l, Value acc, function_ref<Value(int64_t)> outputIndex) const {
      if (!isMax) {
        Value divisor;
        if (divisorOverride != 0) {
          divisor = arith::ConstantOp::create(b, l, b.getFloatAttr(accType, static_cast<double>(divisorOverride)));
        } else {
          Value count = arith::MulIOp::create(b, l, windowCount(b, l, rows, outputIndex(data.h), exclusive),
                                              windowCount(b, l, cols, outputIndex(data.w), exclusive));
          Value asInt = arith::IndexCastOp::create(b, l, b.getI64Type(), count);
          divisor = arith::SIToFPOp::create(b, l, accType, asInt);
        }
        acc = arith::DivFOp::create(b, l, acc, divisor);
      }
      return castScalar(b, l, acc, accType, element, true);
    }
  };

  // A small window: a parallel generic over each part of the output (WindowParts), each
  // element's window read in a straight run into an accumulator in registers, divided and
  // narrowed there, and stored once. The innermost loop walks the output's last dim (channels in
  // NHWC), which LLVM vectorizes; NCHW's column edges are a column a part.
  static Value unrolledWindows(OpBuilder &rewriter, Location loc, const Pooling &p, Value init,
                               const WindowAxis &rows, const WindowAxis &columns) {
    AffineMap identity = rewriter.getMultiDimIdentityMap(4);
    auto writePart = [&](OpBuilder &b, Location loc, Value part, const AxisPart &rowPart,
                         const AxisPart &columnPart) -> Value {
      auto pool = linalg::GenericOp::create(
          b, loc, part.getType(), ValueRange{}, part, SmallVector<AffineMap>{identity}, iterators(4, 0),
          [&](OpBuilder &nb, Location l, ValueRange) {
            auto at = [&](int64_t outputDim) -> Value {
              if (outputDim == p.data.h) return partPosition(nb, l, outputDim, rowPart.first);
              if (outputDim == p.data.w) return partPosition(nb, l, outputDim, columnPart.first);
              return linalg::IndexOp::create(nb, l, outputDim);
            };
            Value acc = arith::ConstantOp::create(nb, l, identityOf(nb, p.combine, p.accType, p.isUnsigned));
            for (int64_t i = 0; i < p.rows.window; ++i)
              for (int64_t j = 0; j < p.cols.window; ++j) {
                Reach rowReach = reachOf(rows, rowPart, i), columnReach = reachOf(columns, columnPart, j);
                if (rowReach == Reach::Outside || columnReach == Reach::Outside) continue;
                Value x = p.read(nb, l, at, constantIndex(nb, l, i), constantIndex(nb, l, j), rowReach == Reach::Inside,
                                 columnReach == Reach::Inside);
                acc = combineOf(nb, l, p.combine, acc, x, p.isUnsigned);
              }
            linalg::YieldOp::create(nb, l, p.finish(nb, l, acc, at));
          });
      return pool.getResult(0);
    };
    SmallVector<AxisPart> rowParts = axisParts(rewriter, loc, rows, false);
    SmallVector<AxisPart> columnParts = axisParts(rewriter, loc, columns, p.data.c == 1);
    return writeWindowParts(rewriter, loc, init, p.data.h, p.data.w, rowParts, columnParts, writePart);
  }

  // A large window: reduction loops, with output dims 0-2, then the window's row and column, then
  // output dim 3, so that the innermost loop walks a row of accumulators every window position
  // updates (with the window innermost, NHWC average pooling ran at 0.19x a plain loop). A
  // constant of the window's shape gives its loops their bounds. An epilogue finishes each element.
  static Value windowLoops(OpBuilder &rewriter, Location loc, const Pooling &p, Value init) {
    MLIRContext *context = rewriter.getContext();
    auto type = tensorType(init);
    Value acc =
        emptyTensor(rewriter, loc, type.clone(p.accType), [&](int64_t i) { return dim(rewriter, loc, init, i); });
    acc = fill(rewriter, loc, acc, identityOf(rewriter, p.combine, p.accType, p.isUnsigned));
    auto windowType = RankedTensorType::get({p.rows.window, p.cols.window}, rewriter.getI8Type());
    Value windowShape = arith::ConstantOp::create(rewriter, loc, cast<TypedAttr>(rewriter.getZeroAttr(windowType)));
    auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
    constexpr int64_t kWindowRow = 3, kWindowColumn = 4, kLastOutput = 5;
    SmallVector<AffineMap> maps{AffineMap::get(6, 0, {d(kWindowRow), d(kWindowColumn)}, context),
                                AffineMap::get(6, 0, {d(0), d(1), d(2), d(kLastOutput)}, context)};
    SmallVector<utils::IteratorType> loops = iterators(3, 2);
    loops.push_back(utils::IteratorType::parallel);
    auto sum = linalg::GenericOp::create(
        rewriter, loc, acc.getType(), ValueRange{windowShape}, acc, maps, loops,
        [&](OpBuilder &b, Location l, ValueRange args) {
          auto at = [&](int64_t outputDim) -> Value {
            return linalg::IndexOp::create(b, l, outputDim < 3 ? outputDim : kLastOutput);
          };
          Value x = p.read(b, l, at, linalg::IndexOp::create(b, l, kWindowRow),
                           linalg::IndexOp::create(b, l, kWindowColumn));
          linalg::YieldOp::create(b, l, combineOf(b, l, p.combine, args[1], x, p.isUnsigned));
        });
    AffineMap identity = rewriter.getMultiDimIdentityMap(4);
    auto epilogue = linalg::GenericOp::create(
        rewriter, loc, type, sum.getResult(0), init, SmallVector<AffineMap>{identity, identity}, iterators(4, 0),
        [&](OpBuilder &b, Location l, ValueRange args) {
          auto at = [&](int64_t outputDim) -> Value { return linalg::IndexOp::create(b, l, outputDim); };
          linalg::YieldOp::create(b, l, p.finish(b, l, args[0], at));
        });
    return epilogue.getResult(0);
  }

  LogicalResult matchAndRewrite(Pool2DOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Pooling p;
    p.exclusive = op.getExclusive();
    p.divisorOverride = op.getDivisorOverride();
    p.input = adaptor.getInput();
    p.element = op.getInput().getType().getElementType();
    p.accType = computeType(p.element);
    p.isUnsigned = p.element.isUnsignedInteger();
    p.isMax = op.getMode() == "max";
    p.combine = p.isMax ? Combine::Max : Combine::Sum;
    p.data = *convLayout(op.getDataFormat(), false);
    p.rows = poolAxis(rewriter, loc, op, p.input, p.data.h, 0);
    p.cols = poolAxis(rewriter, loc, op, p.input, p.data.w, 1);
    Value init = emptyTensor(rewriter, loc, resultType, [&](int64_t i) -> Value {
      if (i == p.data.h) return p.rows.outputSize;
      if (i == p.data.w) return p.cols.outputSize;
      return dim(rewriter, loc, p.input, i);
    });
    if (p.rows.window * p.cols.window > kUnrolledWindow) {
      rewriter.replaceOp(op, windowLoops(rewriter, loc, p, init));
      return success();
    }
    auto inputType = tensorType(p.input);
    WindowAxis rows = windowAxis(op, p.rows, inputType, resultType, p.data.h, 0);
    WindowAxis columns = windowAxis(op, p.cols, inputType, resultType, p.data.w, 1);
    rewriter.replaceOp(op, unrolledWindows(rewriter, loc, p, init, rows, columns));
    return success();
  }
};

} // namespace

void mlir::aclop::populatePool2DToLinalgPatterns(const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<Pool2DPattern>(converter, patterns.getContext());
}
