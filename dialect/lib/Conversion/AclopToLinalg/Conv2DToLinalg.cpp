//===- Conv2DToLinalg.cpp - aclop.conv2d -> linalg ------------------------===//
//
// One generic over (the four output dims in the output's order; input channel within the
// group, kernel row, kernel column): the output dims come first, as every aclop lowering
// iterates its kept dims first (the block partitioning relies on it). The input is read with
// tensor.extract at the window position, and positions in the padding read as zero, so no
// padded copy of the input is made. An optional bias is added in the epilogue that also
// narrows f16/bf16 accumulators.
//
//===----------------------------------------------------------------------===//

#include "LinalgBuilders.h"
#include "ScalarOps.h"
#include "aclop/AclopOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::aclop;

namespace {

Value constantIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

struct Conv2DPattern : OpConversionPattern<Conv2DOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(Conv2DOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = op.getContext();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type element = resultType.getElementType(), accumulator = accumulatorType(element);
    ConvLayout data = *convLayout(op.getDataFormat(), false), weights = *convLayout(op.getFilterFormat(), true);
    Value input = adaptor.getInput(), filter = adaptor.getFilter();
    ArrayRef<int64_t> filterShape = tensorType(filter).getShape();
    ArrayRef<int64_t> strides = op.getStrides(), pads = op.getPads(), dilations = op.getDilations();
    int64_t groupChannels = filterShape[weights.c], kh = filterShape[weights.h], kw = filterShape[weights.w];
    int64_t outPerGroup = filterShape[weights.n] / op.getGroups();

    // Dynamic output dims: the batch from the input; height and width as inference computes them.
    auto outputSize = [&](int64_t dimIndex, int64_t pads, int64_t kernel, int64_t stride, int64_t dilation) -> Value {
      Value padded = arith::AddIOp::create(rewriter, loc, dim(rewriter, loc, input, dimIndex),
                                           constantIndex(rewriter, loc, pads));
      Value span = arith::SubIOp::create(rewriter, loc, padded, constantIndex(rewriter, loc, dilation * (kernel - 1) + 1));
      Value steps = arith::DivSIOp::create(rewriter, loc, span, constantIndex(rewriter, loc, stride));
      return arith::AddIOp::create(rewriter, loc, steps, constantIndex(rewriter, loc, 1));
    };
    auto accType = resultType.clone(accumulator);
    Value init = emptyTensor(rewriter, loc, accType, [&](int64_t i) -> Value {
      if (i == data.n) return dim(rewriter, loc, input, data.n);
      if (i == data.h) return outputSize(data.h, pads[0] + pads[1], kh, strides[0], dilations[0]);
      return outputSize(data.w, pads[2] + pads[3], kw, strides[1], dilations[1]);
    });
    init = fill(rewriter, loc, init, rewriter.getZeroAttr(accumulator));
    Value height = dim(rewriter, loc, input, data.h), width = dim(rewriter, loc, input, data.w);

    auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
    SmallVector<AffineExpr> filterExprs(4);
    filterExprs[weights.n] = d(data.c);
    filterExprs[weights.c] = d(4);
    filterExprs[weights.h] = d(5);
    filterExprs[weights.w] = d(6);
    SmallVector<AffineMap> maps{AffineMap::get(7, 0, filterExprs, context),
                                AffineMap::getMultiDimIdentityMap(7, context).getMajorSubMap(4)};
    auto conv = linalg::GenericOp::create(
        rewriter, loc, accType, ValueRange{filter}, init, maps, iterators(4, 3),
        [&](OpBuilder &b, Location l, ValueRange args) {
          auto at = [&](int64_t i) -> Value { return linalg::IndexOp::create(b, l, i); };
          Value group = arith::DivUIOp::create(b, l, at(data.c), constantIndex(b, l, outPerGroup));
          Value channel = arith::AddIOp::create(
              b, l, arith::MulIOp::create(b, l, group, constantIndex(b, l, groupChannels)), at(4));
          Value row = windowPosition(b, l, at(data.h), at(5), strides[0], dilations[0], constantIndex(b, l, pads[0]));
          Value col = windowPosition(b, l, at(data.w), at(6), strides[1], dilations[1], constantIndex(b, l, pads[2]));
          Value valid = arith::AndIOp::create(b, l, isInRange(b, l, row, height), isInRange(b, l, col, width));
          Value zero = constantIndex(b, l, 0);
          SmallVector<Value> indices(4);
          indices[data.n] = at(data.n);
          indices[data.c] = channel;
          indices[data.h] = arith::SelectOp::create(b, l, valid, row, zero);  // in bounds; masked below
          indices[data.w] = arith::SelectOp::create(b, l, valid, col, zero);
          Value x = castScalar(b, l, tensor::ExtractOp::create(b, l, input, indices), element, accumulator, true);
          Value w = castScalar(b, l, args[0], element, accumulator, true);
          Value none = arith::ConstantOp::create(b, l, b.getZeroAttr(accumulator));
          Value product = arith::SelectOp::create(b, l, valid, mulOf(b, l, x, w), none);
          linalg::YieldOp::create(b, l, addOf(b, l, args[1], product));
        });
    Value acc = conv.getResult(0);
    Value bias = adaptor.getBias();
    if (!bias) {
      rewriter.replaceOp(op, castTensor(rewriter, loc, acc, resultType, accumulator, element, /*truncate=*/true));
      return success();
    }
    Value out = emptyTensor(rewriter, loc, resultType, [&](int64_t i) { return dim(rewriter, loc, acc, i); });
    AffineMap identity = rewriter.getMultiDimIdentityMap(4);
    auto epilogue = linalg::GenericOp::create(
        rewriter, loc, resultType, ValueRange{acc, bias}, out,
        SmallVector<AffineMap>{identity, AffineMap::get(4, 0, {d(data.c)}, context), identity}, iterators(4, 0),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value sum = addOf(b, l, args[0], castScalar(b, l, args[1], element, accumulator, true));
          linalg::YieldOp::create(b, l, castScalar(b, l, sum, accumulator, element, true));
        });
    rewriter.replaceOp(op, epilogue.getResults());
    return success();
  }
};

} // namespace

void mlir::aclop::populateConv2DToLinalgPatterns(const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<Conv2DPattern>(converter, patterns.getContext());
}
