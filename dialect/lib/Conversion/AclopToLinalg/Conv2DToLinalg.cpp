//===- Conv2DToLinalg.cpp - aclop.conv2d -> linalg ------------------------===//
//
// Without groups, a convolution is a product (im2col): for each image, the patch matrix
// P[pixel, (c, kh, kw) in the filter's order] times the filter read as a (depth x out channels)
// matrix, through `contraction`, so it gets GEMM's tiling, packing and ukernels. P is built by
// one generic whose innermost dim is the filter's innermost (channels for NHWC and HWCN filters:
// contiguous runs of the input); positions in the padding read as zero. A 1x1 convolution with
// stride 1 and no padding reads the input as P itself. The epilogue adds the bias, narrows f16
// and bf16 accumulators and, for NCHW, transposes (pixel, out channel) into the output.
// Every nest iterates (image, output pixel) first, with the pixel dims collapsed as the product
// has them, so the block partitioning gives each block the same rows in all of them.
//
// Groups of few input channels (depthwise: one), where a group's window holds at most
// kUnrolledWindow elements, as pooling's small windows: a parallel generic over (a part of) the
// output, each element's window read in a straight run, the products summed in registers, the bias
// added and the sum narrowed there, and stored once. The innermost loop walks the output's last
// dim: channels for NHWC, which a depthwise convolution reads as contiguous runs of input and
// filter (with several out channels a group, the output is viewed as [n, h, w, group, out in
// group], so that a vector's out channels share one input channel); columns for NCHW. The
// output is written in parts (WindowParts): along each padded axis, the positions whose windows
// lie inside the input read with no mask; the edges around them
// drop the kernel positions that fall in the padding where the shapes are static, and read
// masked where they are not. NCHW's column edges are split a column a part, since a masked read
// along columns is a gather a vector. No padded copy of the input is made: blocks divide each
// part as they divide any nest, and every part reads only the caller's input.
//
// Other groups: one generic over (the four output dims in the output's order; input channel
// within the group, kernel row, kernel column) reads the input with tensor.extract at the window
// position (padding masked to zero) and accumulates in place: such thin filters are not worth a
// product.
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

// What both forms share: the layouts, the filter's extent and the output's height and width.
struct Geometry {
  ConvLayout data, weights;
  int64_t kh, kw;
  ArrayRef<int64_t> strides, pads, dilations;
  Value height, width, outHeight, outWidth;  // index values
};

// The input element at window element (kernel row, kernel column) of output position (oh, ow) of
// channel `channel` of image `n`, or zero in the padding. Only an axis with padding can place a
// window outside the input, and only its index is masked; `rowsInside` and `columnsInside` say
// the caller's rows or columns all read inside. An unmasked index stays contiguous along the loop
// that walks it, and an unmasked read needs no select.
Value windowElement(OpBuilder &b, Location loc, Value input, const Geometry &g, Value n, Value channel, Value oh,
                    Value ow, Value kernelRow, Value kernelCol, bool rowsInside = false, bool columnsInside = false) {
  Value row = windowPosition(b, loc, oh, kernelRow, g.strides[0], g.dilations[0], constantIndex(b, loc, g.pads[0]));
  Value col = windowPosition(b, loc, ow, kernelCol, g.strides[1], g.dilations[1], constantIndex(b, loc, g.pads[2]));
  SmallVector<Value> indices(4);
  indices[g.data.n] = n;
  indices[g.data.c] = channel;
  Value valid;
  indices[g.data.h] = !rowsInside && (g.pads[0] || g.pads[1]) ? maskedIndex(b, loc, row, g.height, valid) : row;
  indices[g.data.w] = !columnsInside && (g.pads[2] || g.pads[3]) ? maskedIndex(b, loc, col, g.width, valid) : col;
  Value x = tensor::ExtractOp::create(b, loc, input, indices);
  if (!valid) return x;
  Value none = arith::ConstantOp::create(b, loc, b.getZeroAttr(x.getType()));
  return arith::SelectOp::create(b, loc, valid, x, none);
}

// The filter's channel, row and column dims (0, 1, 2) in the order it stores them.
SmallVector<int64_t, 3> filterWindowOrder(const ConvLayout &weights) {
  SmallVector<int64_t, 3> order{0, 1, 2};
  int64_t position[] = {weights.c, weights.h, weights.w};
  llvm::sort(order, [&](int64_t x, int64_t y) { return position[x] < position[y]; });
  return order;
}

// im2col: P[n, pixel, window] with the window dims (channel, kernel row, kernel column) in the
// filter's order, so that P collapsed to a matrix (a view) is the filter's partner as it is
// stored.
Value patchMatrix(OpBuilder &b, Location loc, Value input, const Geometry &g, ArrayRef<int64_t> filterShape,
                  int64_t staticPixels, Value pixels) {
  MLIRContext *context = b.getContext();
  auto inputType = tensorType(input);
  SmallVector<int64_t, 3> order = filterWindowOrder(g.weights);
  int64_t extent[] = {filterShape[g.weights.c], g.kh, g.kw};
  SmallVector<int64_t> shape{inputType.getDimSize(g.data.n), staticPixels};
  for (int64_t which : order) shape.push_back(extent[which]);
  auto patchType = RankedTensorType::get(shape, inputType.getElementType());
  Value init = emptyTensor(b, loc, patchType, [&](int64_t i) { return i == 0 ? dim(b, loc, input, g.data.n) : pixels; });
  auto generic = linalg::GenericOp::create(
      b, loc, patchType, ValueRange{}, init, SmallVector<AffineMap>{AffineMap::getMultiDimIdentityMap(5, context)},
      iterators(5, 0), [&](OpBuilder &nb, Location l, ValueRange) {
        auto at = [&](int64_t i) -> Value { return linalg::IndexOp::create(nb, l, i); };
        Value window[3];
        for (auto [position, which] : llvm::enumerate(order)) window[which] = at(2 + position);
        Value pixel = at(1);
        Value oh = arith::DivUIOp::create(nb, l, pixel, g.outWidth), ow = arith::RemUIOp::create(nb, l, pixel, g.outWidth);
        linalg::YieldOp::create(nb, l, windowElement(nb, l, input, g, at(0), window[0], oh, ow, window[1], window[2]));
      });
  return generic.getResult(0);
}

// `value` with its dims collapsed as `groups` says (a view).
Value collapse(OpBuilder &b, Location loc, Value value, ArrayRef<ReassociationIndices> groups) {
  auto type = tensor::CollapseShapeOp::inferCollapsedType(tensorType(value), groups);
  return tensor::CollapseShapeOp::create(b, loc, type, value, groups);
}

// The filter as an [out channels, depth] or [depth, out channels] matrix (a view), with a unit
// batch in front (broadcast over images) when `batched`; whether it is the former (`transposed`).
Value filterMatrix(OpBuilder &b, Location loc, Value filter, const ConvLayout &weights, bool batched,
                   bool &transposed) {
  transposed = weights.n == 0;  // NCHW (OIHW) and NHWC (OHWI) filters; HWCN has it last
  Value matrix = collapse(b, loc, filter,
                          transposed ? SmallVector<ReassociationIndices>{{0}, {1, 2, 3}}
                                     : SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
  if (!batched) return matrix;
  ArrayRef<int64_t> shape = tensorType(matrix).getShape();
  return tensor::ExpandShapeOp::create(b, loc, tensorType(matrix).clone({1, shape[0], shape[1]}), matrix,
                                       SmallVector<ReassociationIndices>{{0, 1}, {2}});
}

// The result from the product's [n, x, y] accumulator ([x, y] for one image): the bias added,
// narrowed, and written in the output's layout. `channelsLast`: y is the out channel and x the
// pixel, else the reverse. The generic writes a collapsed view of the output (pixels as one dim,
// as the accumulator has them), which aclop-eliminate-expanded-empty-tensors makes the kernel's
// output buffer. One image in the output's layout keeps the accumulator's two dims, so that the
// epilogue reads the product's result itself: a bias then folds into a ukernel's call.
Value productEpilogue(OpBuilder &b, Location loc, Value acc, Value bias, RankedTensorType resultType, const Geometry &g,
                      bool channelsLast, Type biasElement) {
  MLIRContext *context = b.getContext();
  const bool nhwc = g.data.c == 3, transposed = nhwc != channelsLast;
  if (auto type = tensorType(acc); type.getRank() == 2 && transposed) {  // one image: [1, x, y]
    SmallVector<int64_t> shape{1, type.getDimSize(0), type.getDimSize(1)};
    SmallVector<OpFoldResult> sizes{b.getIndexAttr(1), tensor::getMixedSize(b, loc, acc, 0),
                                    tensor::getMixedSize(b, loc, acc, 1)};
    acc = tensor::ExpandShapeOp::create(b, loc, type.clone(shape), acc, SmallVector<ReassociationIndices>{{0, 1}, {2}},
                                        sizes);
  }
  const int64_t rank = tensorType(acc).getRank();
  Type accumulator = tensorType(acc).getElementType(), element = resultType.getElementType();
  int64_t channelDim = (channelsLast ? 2 : 1) - (3 - rank);
  SmallVector<Value> sizes(4);
  sizes[g.data.n] = rank == 3 ? dim(b, loc, acc, 0) : arith::ConstantIndexOp::create(b, loc, 1);
  sizes[g.data.c] = dim(b, loc, acc, channelDim);
  sizes[g.data.h] = g.outHeight;
  sizes[g.data.w] = g.outWidth;
  Value out = emptyTensor(b, loc, resultType, [&](int64_t i) { return sizes[i]; });
  using Groups = SmallVector<ReassociationIndices>;
  Groups groups;
  if (rank == 2)
    groups = nhwc ? Groups{{0, 1, 2}, {3}} : Groups{{0, 1}, {2, 3}};
  else
    groups = nhwc ? Groups{{0}, {1, 2}, {3}} : Groups{{0}, {1}, {2, 3}};
  Value init = collapse(b, loc, out, groups);
  auto collapsedType = tensorType(init);
  auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, context);
  SmallVector<Value> inputs{acc};
  SmallVector<AffineMap> maps{identity};
  if (bias) {
    inputs.push_back(bias);
    maps.push_back(AffineMap::get(rank, 0, {d(channelDim)}, context));
  }
  maps.push_back(transposed ? AffineMap::get(3, 0, {d(0), d(2), d(1)}, context) : identity);
  auto epilogue = linalg::GenericOp::create(
      b, loc, collapsedType, inputs, init, maps, iterators(rank, 0), [&](OpBuilder &nb, Location l, ValueRange args) {
        Value sum = args[0];
        if (bias) sum = addOf(nb, l, sum, castScalar(nb, l, args[1], biasElement, accumulator, true));
        linalg::YieldOp::create(nb, l, castScalar(nb, l, sum, accumulator, element, true));
      });
  SmallVector<OpFoldResult> outputShape;
  for (auto [i, size] : llvm::enumerate(sizes))
    outputShape.push_back(resultType.isDynamicDim(i) ? OpFoldResult(size) : b.getIndexAttr(resultType.getDimSize(i)));
  return tensor::ExpandShapeOp::create(b, loc, resultType, epilogue.getResult(0), groups, outputShape);
}

// Conv2D without groups as a product; see the file comment.
Value productConvolution(OpBuilder &b, Location loc, Conv2DOp op, Value input, Value filter, Value bias,
                         const Geometry &g) {
  auto resultType = cast<RankedTensorType>(op.getType());
  Type element = resultType.getElementType();
  auto filterType = tensorType(filter);
  int64_t outChannels = filterType.getDimSize(g.weights.n);
  int64_t batch = resultType.getDimSize(g.data.n), outHeight = resultType.getDimSize(g.data.h),
          outWidth = resultType.getDimSize(g.data.w);
  // One image: an unbatched product, GEMM's own (its accumulator's fill fused into the tiles, and
  // a lone product's blocks dividing columns when rows are few).
  bool batched = batch != 1;
  bool filterTransposed;
  Value weights = filterMatrix(b, loc, filter, g.weights, batched, filterTransposed);
  Type biasElement = bias ? tensorType(bias).getElementType() : Type();
  int64_t staticPixels = ShapedType::isDynamic(outHeight) || ShapedType::isDynamic(outWidth)
                             ? ShapedType::kDynamic
                             : outHeight * outWidth;
  auto accType = [&](int64_t rows, int64_t columns) {
    return batched ? RankedTensorType::get({batch, rows, columns}, element)
                   : RankedTensorType::get({rows, columns}, element);
  };
  // The leading image dim joins the next group when there is one image.
  auto groups = [&](SmallVector<ReassociationIndices> perImage) {
    if (!batched) {
      perImage[1].insert(perImage[1].begin(), 0);
      perImage.erase(perImage.begin());
    }
    return perImage;
  };
  bool pointwise = g.kh == 1 && g.kw == 1 && llvm::all_of(g.strides, [](int64_t s) { return s == 1; }) &&
                   llvm::all_of(g.pads, [](int64_t p) { return p == 0; });
  if (pointwise && g.data.c == 1) {
    // NCHW, 1x1: out[n] = W[out channels, c] * x[n][c, pixels], rows the out channels.
    Value pixels = collapse(b, loc, input, groups({{0}, {1}, {2, 3}}));
    Value acc = contraction(b, loc, weights, pixels, /*transposeA=*/!filterTransposed, /*transposeB=*/false, batched,
                            accType(outChannels, staticPixels), element);
    return productEpilogue(b, loc, acc, bias, resultType, g, /*channelsLast=*/false, biasElement);
  }
  Value patches;
  if (pointwise) {  // NHWC, 1x1: the input is the patch matrix
    patches = collapse(b, loc, input, groups({{0}, {1, 2}, {3}}));
  } else {
    Value pixels = arith::MulIOp::create(b, loc, g.outHeight, g.outWidth);
    patches = collapse(b, loc, patchMatrix(b, loc, input, g, filterType.getShape(), staticPixels, pixels),
                       groups({{0}, {1}, {2, 3, 4}}));
  }
  Value acc = contraction(b, loc, patches, weights, /*transposeA=*/false, /*transposeB=*/filterTransposed, batched,
                          accType(staticPixels, outChannels), element);
  return productEpilogue(b, loc, acc, bias, resultType, g, /*channelsLast=*/true, biasElement);
}

// A tensor.empty of the output's dims in `type` (the channels are static: the filter's).
Value outputEmpty(OpBuilder &b, Location loc, RankedTensorType type, Value input, const Geometry &g) {
  return emptyTensor(b, loc, type, [&](int64_t i) -> Value {
    if (i == g.data.n) return dim(b, loc, input, g.data.n);
    return i == g.data.h ? g.outHeight : g.outWidth;
  });
}

// Group windows (input channels of a group x kernel rows x columns) of at most this many
// elements are read in one straight run per output element: a 7x7 depthwise filter (ConvNeXt)
// and a ResNeXt group's 4 channels x 3x3 are.
constexpr int64_t kUnrolledWindow = 49;

// One spatial axis of the convolution (columns, or rows), for writing the output in parts.
WindowAxis windowAxis(const Geometry &g, Value input, RankedTensorType resultType, bool columns) {
  int64_t dimIndex = columns ? g.data.w : g.data.h, pad = columns ? 2 : 0, i = columns ? 1 : 0;
  return WindowAxis{g.pads[pad],
                    g.pads[pad + 1],
                    g.strides[i],
                    g.dilations[i],
                    columns ? g.kw : g.kh,
                    staticSize(tensorType(input).getDimSize(dimIndex)),
                    staticSize(resultType.getDimSize(dimIndex)),
                    columns ? g.width : g.height,
                    columns ? g.outWidth : g.outHeight};
}

// Conv2D with groups, a small group window: the unrolled generic, one for each part of the
// output (axisParts); see the file comment.
Value unrolledGroupConvolution(OpBuilder &b, Location loc, Conv2DOp op, Value input, Value filter, Value bias,
                               const Geometry &g) {
  MLIRContext *context = b.getContext();
  auto resultType = cast<RankedTensorType>(op.getType());
  Type element = resultType.getElementType(), accumulator = accumulatorType(element);
  ArrayRef<int64_t> filterShape = tensorType(filter).getShape();
  int64_t groupChannels = filterShape[g.weights.c], outPerGroup = filterShape[g.weights.n] / op.getGroups();
  const ConvLayout &data = g.data;
  WindowAxis rows = windowAxis(g, input, resultType, false), columns = windowAxis(g, input, resultType, true);
  // NHWC with several out channels a group: the output is viewed as [n, h, w, group, out channel
  // in the group], so that a vector walks one group's out channels, which all read the same input
  // channel (a broadcast). Walking all the out channels, a vector spans groups, and each of its
  // input reads is a gather (ResNeXt's 32 groups of 4: 6.1 GFLOP/s).
  const bool groupDims = data.c == 3 && outPerGroup > 1;
  const int64_t rank = groupDims ? 5 : 4;
  const int64_t groups = op.getGroups();
  if (groupDims && bias) {
    auto groupedBias = RankedTensorType::get({groups, outPerGroup}, tensorType(bias).getElementType());
    bias = tensor::ExpandShapeOp::create(b, loc, groupedBias, bias, SmallVector<ReassociationIndices>{{0, 1}});
  }
  // The output's part `rowPart` x `columnPart`.
  auto writePart = [&](OpBuilder &b, Location loc, Value part, const AxisPart &rowPart,
                       const AxisPart &columnPart) -> Value {
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    Type biasElement;
    if (bias) {
      inputs.push_back(bias);
      SmallVector<AffineExpr> channel{getAffineDimExpr(data.c, context)};
      if (groupDims) channel.push_back(getAffineDimExpr(4, context));
      maps.push_back(AffineMap::get(rank, 0, channel, context));
      biasElement = tensorType(bias).getElementType();
    }
    maps.push_back(b.getMultiDimIdentityMap(rank));
    auto conv = linalg::GenericOp::create(
        b, loc, part.getType(), inputs, part, maps, iterators(rank, 0),
        [&](OpBuilder &nb, Location l, ValueRange args) {
          auto at = [&](int64_t i) -> Value { return linalg::IndexOp::create(nb, l, i); };
          Value outRow = partPosition(nb, l, data.h, rowPart.first);
          Value outColumn = partPosition(nb, l, data.w, columnPart.first);
          Value perGroup = constantIndex(nb, l, outPerGroup);
          Value outChannel =
              groupDims ? arith::AddIOp::create(nb, l, arith::MulIOp::create(nb, l, at(3), perGroup), at(4)).getResult()
                        : at(data.c);
          Value group = groupDims           ? at(3)
                        : outPerGroup == 1 ? outChannel
                                           : arith::DivUIOp::create(nb, l, outChannel, perGroup);
          Value firstChannel =
              groupChannels == 1 ? group : arith::MulIOp::create(nb, l, group, constantIndex(nb, l, groupChannels));
          Value acc = arith::ConstantOp::create(nb, l, nb.getZeroAttr(accumulator));
          for (int64_t inGroup = 0; inGroup < groupChannels; ++inGroup) {
            Value channel = inGroup == 0 ? firstChannel
                                         : arith::AddIOp::create(nb, l, firstChannel, constantIndex(nb, l, inGroup));
            for (int64_t row = 0; row < g.kh; ++row)
              for (int64_t col = 0; col < g.kw; ++col) {
                Reach rowReach = reachOf(rows, rowPart, row), columnReach = reachOf(columns, columnPart, col);
                if (rowReach == Reach::Outside || columnReach == Reach::Outside) continue;
                Value kernelRow = constantIndex(nb, l, row), kernelCol = constantIndex(nb, l, col);
                Value x = windowElement(nb, l, input, g, at(data.n), channel, outRow, outColumn, kernelRow, kernelCol,
                                        rowReach == Reach::Inside, columnReach == Reach::Inside);
                SmallVector<Value> indices(4);
                indices[g.weights.n] = outChannel;
                indices[g.weights.c] = constantIndex(nb, l, inGroup);
                indices[g.weights.h] = kernelRow;
                indices[g.weights.w] = kernelCol;
                Value w = tensor::ExtractOp::create(nb, l, filter, indices);
                acc = addOf(nb, l, acc,
                            mulOf(nb, l, castScalar(nb, l, x, element, accumulator, true),
                                  castScalar(nb, l, w, element, accumulator, true)));
              }
          }
          if (bias) acc = addOf(nb, l, acc, castScalar(nb, l, args[0], biasElement, accumulator, true));
          linalg::YieldOp::create(nb, l, castScalar(nb, l, acc, accumulator, element, true));
        });
    return conv.getResult(0);
  };
  // NCHW walks columns innermost, where a masked read is a gather a vector: its column edges
  // are split a position a part. A masked row (or an NHWC column) is one select a vector.
  SmallVector<AxisPart> rowParts = axisParts(b, loc, rows, false);
  SmallVector<AxisPart> columnParts = axisParts(b, loc, columns, data.c == 1);
  if (!groupDims) {
    Value init = outputEmpty(b, loc, resultType, input, g);
    return writeWindowParts(b, loc, init, data.h, data.w, rowParts, columnParts, writePart);
  }
  SmallVector<int64_t> shape(resultType.getShape().drop_back());
  shape.append({groups, outPerGroup});
  Value init = outputEmpty(b, loc, RankedTensorType::get(shape, element), input, g);
  Value out = writeWindowParts(b, loc, init, data.h, data.w, rowParts, columnParts, writePart);
  return tensor::CollapseShapeOp::create(b, loc, resultType, out,
                                         SmallVector<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
}

// Conv2D with groups: the direct generic; see the file comment.
Value groupedConvolution(OpBuilder &b, Location loc, Conv2DOp op, Value input, Value filter, Value bias,
                         const Geometry &g) {
  MLIRContext *context = b.getContext();
  auto resultType = cast<RankedTensorType>(op.getType());
  Type element = resultType.getElementType(), accumulator = accumulatorType(element);
  ArrayRef<int64_t> filterShape = tensorType(filter).getShape();
  int64_t groupChannels = filterShape[g.weights.c], outPerGroup = filterShape[g.weights.n] / op.getGroups();
  const ConvLayout &data = g.data;
  auto accType = resultType.clone(accumulator);
  Value init = outputEmpty(b, loc, accType, input, g);
  init = fill(b, loc, init, b.getZeroAttr(accumulator));
  auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
  SmallVector<AffineExpr> filterExprs(4);
  filterExprs[g.weights.n] = d(data.c);
  filterExprs[g.weights.c] = d(4);
  filterExprs[g.weights.h] = d(5);
  filterExprs[g.weights.w] = d(6);
  SmallVector<AffineMap> maps{AffineMap::get(7, 0, filterExprs, context),
                              AffineMap::getMultiDimIdentityMap(7, context).getMajorSubMap(4)};
  auto conv = linalg::GenericOp::create(
      b, loc, accType, ValueRange{filter}, init, maps, iterators(4, 3), [&](OpBuilder &nb, Location l, ValueRange args) {
        auto at = [&](int64_t i) -> Value { return linalg::IndexOp::create(nb, l, i); };
        Value group = arith::DivUIOp::create(nb, l, at(data.c), constantIndex(nb, l, outPerGroup));
        Value channel =
            arith::AddIOp::create(nb, l, arith::MulIOp::create(nb, l, group, constantIndex(nb, l, groupChannels)), at(4));
        Value x = windowElement(nb, l, input, g, at(data.n), channel, at(data.h), at(data.w), at(5), at(6));
        Value product = mulOf(nb, l, castScalar(nb, l, x, element, accumulator, true),
                              castScalar(nb, l, args[0], element, accumulator, true));
        linalg::YieldOp::create(nb, l, addOf(nb, l, args[1], product));
      });
  Value acc = conv.getResult(0);
  if (!bias) return castTensor(b, loc, acc, resultType, accumulator, element, /*truncate=*/true);
  Type biasElement = tensorType(bias).getElementType();
  Value out = emptyTensor(b, loc, resultType, [&](int64_t i) { return dim(b, loc, acc, i); });
  AffineMap identity = b.getMultiDimIdentityMap(4);
  auto epilogue = linalg::GenericOp::create(
      b, loc, resultType, ValueRange{acc, bias}, out,
      SmallVector<AffineMap>{identity, AffineMap::get(4, 0, {d(data.c)}, context), identity}, iterators(4, 0),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value sum = addOf(nb, l, args[0], castScalar(nb, l, args[1], biasElement, accumulator, true));
        linalg::YieldOp::create(nb, l, castScalar(nb, l, sum, accumulator, element, true));
      });
  return epilogue.getResult(0);
}

struct Conv2DPattern : OpConversionPattern<Conv2DOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(Conv2DOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput(), filter = adaptor.getFilter();
    ArrayRef<int64_t> filterShape = tensorType(filter).getShape();
    Geometry g{*convLayout(op.getDataFormat(), false), *convLayout(op.getFilterFormat(), true), 0, 0,
               op.getStrides(), op.getPads(), op.getDilations(), {}, {}, {}, {}};
    g.kh = filterShape[g.weights.h];
    g.kw = filterShape[g.weights.w];
    g.height = dim(rewriter, loc, input, g.data.h);
    g.width = dim(rewriter, loc, input, g.data.w);
    // As inference computes them: (size + pads - dilated extent) / stride + 1.
    auto outputSize = [&](Value size, int64_t pads, int64_t kernel, int64_t stride, int64_t dilation) -> Value {
      Value padded = arith::AddIOp::create(rewriter, loc, size, constantIndex(rewriter, loc, pads));
      Value span = arith::SubIOp::create(rewriter, loc, padded, constantIndex(rewriter, loc, dilation * (kernel - 1) + 1));
      Value steps = arith::DivSIOp::create(rewriter, loc, span, constantIndex(rewriter, loc, stride));
      return arith::AddIOp::create(rewriter, loc, steps, constantIndex(rewriter, loc, 1));
    };
    g.outHeight = outputSize(g.height, g.pads[0] + g.pads[1], g.kh, g.strides[0], g.dilations[0]);
    g.outWidth = outputSize(g.width, g.pads[2] + g.pads[3], g.kw, g.strides[1], g.dilations[1]);
    Value bias = adaptor.getBias();
    bool unrolled = op.getGroups() > 1 && filterShape[g.weights.c] * g.kh * g.kw <= kUnrolledWindow;
    Value result = op.getGroups() == 1 ? productConvolution(rewriter, loc, op, input, filter, bias, g)
                   : unrolled          ? unrolledGroupConvolution(rewriter, loc, op, input, filter, bias, g)
                                       : groupedConvolution(rewriter, loc, op, input, filter, bias, g);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::aclop::populateConv2DToLinalgPatterns(const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<Conv2DPattern>(converter, patterns.getContext());
}
