//===- AclopToLinalg.cpp - aclop -> linalg on tensors ---------------------===//
//
// One pattern per op family. Every generic iterates over its kept/parallel dimensions first so
// that, after bufferization, the outermost parallel loop of every loop nest an op produces
// walks the same data dimension: the block partitioning of aclop-map-to-kernel-abi relies on it.
//
//===----------------------------------------------------------------------===//

#include "aclop/AclopOps.h"
#include "aclop/Passes.h"
#include "LinalgBuilders.h"
#include "ScalarOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::aclop {
#define GEN_PASS_DEF_CONVERTACLOPTOLINALG
#include "aclop/Passes.h.inc"
} // namespace mlir::aclop

using namespace mlir;
using namespace mlir::aclop;

namespace {

// Tensors and memrefs take their elements' storage types (ui8 and i1 become i8; the ops carry
// the signedness and read bytes as bools); scalars only lose their signedness.
class SignlessTypeConverter : public TypeConverter {
public:
  SignlessTypeConverter() {
    addConversion([](Type type) { return type; });
    addConversion([](IntegerType type) -> Type {
      return type.isUnsigned() ? IntegerType::get(type.getContext(), type.getWidth()) : type;
    });
    addConversion([](RankedTensorType type) -> Type {
      return RankedTensorType::get(type.getShape(), storageType(type.getElementType()), type.getEncoding());
    });
    addConversion([](MemRefType type) -> Type {
      return MemRefType::get(type.getShape(), storageType(type.getElementType()), type.getLayout(),
                             type.getMemorySpace());
    });
  }
};

// The map from a broadcast operand into the iteration space of `resultRank` dims.
AffineMap broadcastMap(MLIRContext *context, RankedTensorType operand, RankedTensorType result) {
  int64_t offset = result.getRank() - operand.getRank();
  SmallVector<AffineExpr> exprs;
  for (int64_t i = 0; i < operand.getRank(); ++i) {
    bool stretched = operand.getDimSize(i) == 1 && result.getDimSize(i + offset) != 1;
    exprs.push_back(stretched ? getAffineConstantExpr(0, context) : getAffineDimExpr(i + offset, context));
  }
  return AffineMap::get(result.getRank(), 0, exprs, context);
}

// A dynamic result dim of a broadcast comes from an operand whose aligned dim is dynamic.
Value broadcastSize(OpBuilder &b, Location loc, ArrayRef<Value> operands, RankedTensorType result, int64_t i) {
  for (Value operand : operands) {
    auto type = tensorType(operand);
    int64_t j = i - (result.getRank() - type.getRank());
    if (j >= 0 && type.isDynamicDim(j)) return dim(b, loc, operand, j);
  }
  llvm_unreachable("a dynamic result dim has a dynamic operand dim");
}

//===----------------------------------------------------------------------===//
// Element-wise ops and casts
//===----------------------------------------------------------------------===//

template <typename Op>
struct ElementwisePattern : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> inputs(adaptor.getOperands());
    auto resultType = cast<RankedTensorType>(this->getTypeConverter()->convertType(op.getType()));
    Value init = emptyTensor(rewriter, loc, resultType,
                             [&](int64_t i) { return broadcastSize(rewriter, loc, inputs, resultType, i); });
    SmallVector<AffineMap> maps;
    for (Value input : inputs) maps.push_back(broadcastMap(op.getContext(), tensorType(input), resultType));
    maps.push_back(rewriter.getMultiDimIdentityMap(resultType.getRank()));
    Operation *source = op;
    auto generic = linalg::GenericOp::create(
        rewriter, loc, resultType, inputs, init, maps, iterators(resultType.getRank(), 0),
        [&](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(b, l, elementwiseScalar(b, l, source, args.drop_back()));
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

struct CastPattern : OpConversionPattern<CastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(CastOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value input = adaptor.getInput();
    Type from = op.getInput().getType().getElementType(), to = op.getType().getElementType();
    rewriter.replaceOp(op, castTensor(rewriter, op.getLoc(), input, resultType, from, to, op.getTruncate()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Products: gemm, matmul, batch_matmul
//===----------------------------------------------------------------------===//

} // namespace

// sum_k op(a)[.., m, k] * op(b)[.., k, n] in the accumulator type, over dims (batch?, m, k, n):
// with n innermost the inner loop is a contiguous multiply-add over a row of b and of the
// result, which vectorizes; m stays the outer parallel dim the blocks divide. With
// `roundToBf16` each (widened) f32 input is rounded to bf16 and widened again before the product
// (gemm's low_precision; aclop-select-strategy gives such a product a bf16 pair ukernel).
Value aclop::contraction(OpBuilder &b, Location loc, Value lhs, Value rhs, bool transposeA, bool transposeB,
                         bool batched, RankedTensorType resultShape, Type inputType, bool roundToBf16) {
  MLIRContext *context = b.getContext();
  Type accumulator = accumulatorType(inputType);
  int64_t offset = batched ? 1 : 0;
  auto d = [&](int64_t i) { return getAffineDimExpr(i, context); };
  AffineExpr m = d(offset), k = d(offset + 1), n = d(offset + 2);
  auto operandMap = [&](Value operand, AffineExpr row, AffineExpr col, bool transpose) {
    SmallVector<AffineExpr> exprs;
    if (batched) {
      bool stretched = tensorType(operand).getDimSize(0) == 1 && resultShape.getDimSize(0) != 1;
      exprs.push_back(stretched ? getAffineConstantExpr(0, context) : d(0));
    }
    exprs.push_back(transpose ? col : row);
    exprs.push_back(transpose ? row : col);
    return AffineMap::get(offset + 3, 0, exprs, context);
  };
  SmallVector<AffineExpr> outExprs;
  if (batched) outExprs.push_back(d(0));
  outExprs.append({m, n});
  SmallVector<AffineMap> maps{operandMap(lhs, m, k, transposeA), operandMap(rhs, k, n, transposeB),
                              AffineMap::get(offset + 3, 0, outExprs, context)};
  auto accType = RankedTensorType::get(resultShape.getShape(), accumulator);
  Value init = emptyTensor(b, loc, accType, [&](int64_t i) {
    if (batched && i == 0) return broadcastSize(b, loc, {lhs, rhs}, resultShape.clone(accumulator), 0);
    int64_t row = i - offset;  // 0: rows of op(a), 1: cols of op(b)
    if (row == 0) return dim(b, loc, lhs, offset + (transposeA ? 1 : 0));
    return dim(b, loc, rhs, offset + (transposeB ? 0 : 1));
  });
  init = fill(b, loc, init, b.getZeroAttr(accumulator));
  Type source = inputType;
  SmallVector<utils::IteratorType> order(offset + 1, utils::IteratorType::parallel);
  order.append({utils::IteratorType::reduction, utils::IteratorType::parallel});
  return linalg::GenericOp::create(b, loc, accType, ValueRange{lhs, rhs}, init, maps, order,
                                   [&](OpBuilder &nb, Location l, ValueRange args) {
                                     auto operand = [&](Value value) {
                                       Value wide = castScalar(nb, l, value, source, accumulator, true);
                                       if (!roundToBf16) return wide;
                                       Value rounded = arith::TruncFOp::create(nb, l, nb.getBF16Type(), wide);
                                       return Value(arith::ExtFOp::create(nb, l, accumulator, rounded));
                                     };
                                     Value x = operand(args[0]), y = operand(args[1]);
                                     linalg::YieldOp::create(nb, l, addOf(nb, l, args[2], mulOf(nb, l, x, y)));
                                   })
      .getResult(0);
}

namespace {

template <typename Op>
struct ProductPattern : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    constexpr bool batched = std::is_same_v<Op, BatchMatMulOp>;
    auto resultType = cast<RankedTensorType>(op.getType());
    Value acc = contraction(rewriter, op.getLoc(), adaptor.getA(), adaptor.getB(), op.getTransposeA(),
                            op.getTransposeB(), batched, resultType, op.getA().getType().getElementType());
    Type accumulator = tensorType(acc).getElementType(), element = resultType.getElementType();
    Value bias = adaptor.getBias();
    if (!bias) {
      rewriter.replaceOp(op, castTensor(rewriter, op.getLoc(), acc, resultType, accumulator, element, /*truncate=*/true));
      return success();
    }
    // result = narrow(acc + widen(bias[n])), one element-wise pass over the result.
    Location loc = op.getLoc();
    int64_t rank = resultType.getRank();
    Type biasElement = op.getBias().getType().getElementType();
    Value init = emptyTensor(rewriter, loc, resultType, [&](int64_t i) { return dim(rewriter, loc, acc, i); });
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap overN = AffineMap::get(rank, 0, {getAffineDimExpr(rank - 1, op.getContext())}, op.getContext());
    auto epilogue = linalg::GenericOp::create(
        rewriter, loc, resultType, ValueRange{acc, bias}, init, SmallVector<AffineMap>{identity, overN, identity},
        iterators(rank, 0), [&](OpBuilder &b, Location l, ValueRange args) {
          Value sum = addOf(b, l, args[0], castScalar(b, l, args[1], biasElement, accumulator, true));
          linalg::YieldOp::create(b, l, castScalar(b, l, sum, accumulator, element, true));
        });
    rewriter.replaceOp(op, epilogue.getResults());
    return success();
  }
};

struct GemmPattern : OpConversionPattern<GemmOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(GemmOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type inputType = op.getA().getType().getElementType(), resultElement = resultType.getElementType();
    Value acc = contraction(rewriter, loc, adaptor.getA(), adaptor.getB(), op.getTransposeA(), op.getTransposeB(),
                            /*batched=*/false, resultType, inputType,
                            op.getLowPrecision() && (inputType.isF16() || inputType.isF32()));
    Type accumulator = accumulatorType(inputType);
    // result = alpha * acc + beta * c, computed in the accumulator type; c is not read when
    // beta == 0 (as in BLAS, so NaN or garbage in c does not leak into the result).
    MLIRContext *context = op.getContext();
    AffineMap identity = rewriter.getMultiDimIdentityMap(2), scalar = AffineMap::get(2, 0, {}, context);
    Value init = emptyTensor(rewriter, loc, resultType, [&](int64_t i) { return dim(rewriter, loc, acc, i); });
    auto epilogue = linalg::GenericOp::create(
        rewriter, loc, resultType, ValueRange{acc, adaptor.getC(), adaptor.getAlpha(), adaptor.getBeta()}, init,
        SmallVector<AffineMap>{identity, identity, scalar, scalar, identity}, iterators(2, 0),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value c = castScalar(b, l, args[1], resultElement, accumulator, true);
          Value alpha = castScalar(b, l, args[2], resultElement, accumulator, true);
          Value beta = castScalar(b, l, args[3], resultElement, accumulator, true);
          Value scaled = mulOf(b, l, alpha, args[0]);
          Value withC = addOf(b, l, scaled, mulOf(b, l, beta, c));
          Value zero = arith::ConstantOp::create(b, l, b.getZeroAttr(accumulator));
          Value betaIsZero = isa<FloatType>(accumulator)
                                 ? Value(arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, beta, zero))
                                 : Value(arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, beta, zero));
          Value result = arith::SelectOp::create(b, l, betaIsZero, scaled, withC);
          linalg::YieldOp::create(b, l, castScalar(b, l, result, accumulator, resultElement, true));
        });
    rewriter.replaceOp(op, epilogue.getResults());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Reductions and softmax
//===----------------------------------------------------------------------===//

// The dimensions of a reduction and the order the generic iterates them: kept ones first,
// then reduced ones, except that when the input's last dim is kept it goes innermost, after
// the reduced ones: the innermost loop then walks contiguous rows of input and accumulators,
// which LLVM vectorizes (ReduceSum over the rows of 4096x4096 f32 walked each column, at 0.4 GB/s).
// The block partitioning divides a leading kept dim; with none before the reduced ones, the
// nest is one block.
struct ReductionDims {
  SmallVector<int64_t> kept, reduced;
  SmallVector<int64_t> order;  // input dims in iteration order
  ReductionDims(int64_t rank, ArrayRef<int64_t> axes) {
    for (int64_t i = 0; i < rank; ++i) {
      bool isReduced = axes.empty() || llvm::is_contained(axes, i) || llvm::is_contained(axes, i - rank);
      (isReduced ? reduced : kept).push_back(i);
    }
    order = kept;
    bool lastKept = !kept.empty() && kept.back() == rank - 1;
    if (lastKept && !reduced.empty()) order.pop_back();
    order.append(reduced.begin(), reduced.end());
    if (lastKept && !reduced.empty()) order.push_back(rank - 1);
  }
  // Iteration dim of input dim `i`.
  int64_t position(int64_t i) const { return llvm::find(order, i) - order.begin(); }
  SmallVector<utils::IteratorType> iteratorTypes() const {
    SmallVector<utils::IteratorType> types;
    for (int64_t i : order)
      types.push_back(llvm::is_contained(reduced, i) ? utils::IteratorType::reduction : utils::IteratorType::parallel);
    return types;
  }
  int64_t rank() const { return kept.size() + reduced.size(); }
  AffineMap inputMap(MLIRContext *context) const {
    SmallVector<AffineExpr> exprs;
    for (int64_t i = 0; i < rank(); ++i) exprs.push_back(getAffineDimExpr(position(i), context));
    return AffineMap::get(rank(), 0, exprs, context);
  }
  AffineMap keptMap(MLIRContext *context) const {
    SmallVector<AffineExpr> exprs;
    for (int64_t i : kept) exprs.push_back(getAffineDimExpr(position(i), context));
    return AffineMap::get(rank(), 0, exprs, context);
  }
  RankedTensorType keptType(RankedTensorType input, Type element) const {
    SmallVector<int64_t> shape;
    for (int64_t i : kept) shape.push_back(input.getDimSize(i));
    return RankedTensorType::get(shape, element);
  }
  Value keptEmpty(OpBuilder &b, Location loc, Value input, Type element) const {
    return emptyTensor(b, loc, keptType(tensorType(input), element),
                       [&](int64_t i) { return dim(b, loc, input, kept[i]); });
  }
};

// Reduces `input` over `dims` into a tensor of the kept dims; `element(x)` maps each input
// element (already in `accType`) before it is combined.
Value reduce(OpBuilder &b, Location loc, Value input, const ReductionDims &dims, Combine combine, Type accType,
             bool isUnsigned, ValueRange extraInputs, ArrayRef<AffineMap> extraMaps,
             function_ref<Value(OpBuilder &, Location, ValueRange)> element) {
  MLIRContext *context = b.getContext();
  Value init = fill(b, loc, dims.keptEmpty(b, loc, input, accType), identityOf(b, combine, accType, isUnsigned));
  SmallVector<Value> inputs{input};
  inputs.append(extraInputs.begin(), extraInputs.end());
  SmallVector<AffineMap> maps{dims.inputMap(context)};
  maps.append(extraMaps.begin(), extraMaps.end());
  maps.push_back(dims.keptMap(context));
  return linalg::GenericOp::create(b, loc, init.getType(), inputs, init, maps,
                                   dims.iteratorTypes(),
                                   [&](OpBuilder &nb, Location l, ValueRange args) {
                                     Value x = element(nb, l, args.drop_back());
                                     linalg::YieldOp::create(nb, l, combineOf(nb, l, combine, args.back(), x, isUnsigned));
                                   })
      .getResult(0);
}

// The number of elements a reduction over `dims` combines into each result, as `type` (known at
// run time for dynamic dims).
Value reducedCount(OpBuilder &b, Location loc, Value input, const ReductionDims &dims, Type type) {
  Value elements = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t i : dims.reduced) elements = arith::MulIOp::create(b, loc, elements, dim(b, loc, input, i));
  Value asInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), elements);
  return arith::UIToFPOp::create(b, loc, type, asInt);
}

// `kept` as `resultType`, whose dims other than `keptDims` (ascending) are 1s inserted: a view,
// no copy loop of its own. Each kept dim's group takes the unit dims after it; leading unit dims
// join the first group.
Value insertUnitDims(OpBuilder &b, Location loc, Value kept, RankedTensorType resultType, ArrayRef<int64_t> keptDims) {
  auto keptType = tensorType(kept);
  if (resultType.getRank() == keptType.getRank()) return kept;
  SmallVector<ReassociationIndices> groups(keptType.getRank());
  SmallVector<int64_t> leading;
  int64_t group = -1;
  for (int64_t i = 0; i < resultType.getRank(); ++i) {
    if (llvm::is_contained(keptDims, i)) ++group;
    if (group < 0) leading.push_back(i);
    else groups[group].push_back(i);
  }
  if (!groups.empty()) groups.front().insert(groups.front().begin(), leading.begin(), leading.end());
  return tensor::ExpandShapeOp::create(b, loc, resultType, kept, groups);
}

// A generic over the kept dims of `dims` reading `inputs` (tensors of those dims) into a new
// tensor of `element` (`into`, if given), each element `body(inputs' elements)`.
Value mapKept(OpBuilder &b, Location loc, ValueRange inputs, Value like, const ReductionDims &dims, Type element,
              function_ref<Value(OpBuilder &, Location, ValueRange)> body, Value into = {}) {
  Value init = into ? into : dims.keptEmpty(b, loc, like, element);
  auto type = tensorType(init);
  SmallVector<AffineMap> maps(inputs.size() + 1, b.getMultiDimIdentityMap(type.getRank()));
  return linalg::GenericOp::create(b, loc, type, inputs, init, maps, iterators(type.getRank(), 0),
                                   [&](OpBuilder &nb, Location l, ValueRange args) {
                                     linalg::YieldOp::create(nb, l, body(nb, l, args.drop_back()));
                                   })
      .getResult(0);
}

// Whether `input`'s reduced dims are the trailing ones, so that the reduction runs along rows
// (forEachRow), and none is statically empty (a row of no elements cannot be sliced).
bool reducesRows(const ReductionDims &dims, Value input) {
  return llvm::all_of(llvm::enumerate(dims.kept), [](auto pair) { return int64_t(pair.index()) == pair.value(); }) &&
         !llvm::is_contained(tensorType(input).getShape(), 0);
}

// Where a row-wise loop's iteration `ivs` (one index per kept dim) sits in `tensor`, whose dim i
// is dim firstDim + i of the loop's input: offset ivs and size 1 along kept dims, whole along
// the rest.
struct RowPlace {
  SmallVector<OpFoldResult> offsets, sizes, strides;
};
RowPlace rowPlace(OpBuilder &b, Location loc, Value tensor, ValueRange ivs, int64_t firstDim = 0) {
  RowPlace place;
  for (int64_t i = 0, rank = tensorType(tensor).getRank(); i < rank; ++i) {
    bool kept = firstDim + i < int64_t(ivs.size());
    place.offsets.push_back(kept ? OpFoldResult(ivs[firstDim + i]) : b.getIndexAttr(0));
    place.sizes.push_back(kept ? b.getIndexAttr(1) : tensor::getMixedSize(b, loc, tensor, i));
    place.strides.push_back(b.getIndexAttr(1));
  }
  return place;
}
Value rowSlice(OpBuilder &b, Location loc, Value tensor, ValueRange ivs, int64_t firstDim = 0) {
  RowPlace place = rowPlace(b, loc, tensor, ivs, firstDim);
  return tensor::ExtractSliceOp::create(b, loc, tensor, place.offsets, place.sizes, place.strides).getResult();
}

// One scf.forall over the kept dims of a row-wise op (reducesRows): each iteration computes a
// row's statistics and outputs while the row is in cache, where a nest per step over the whole
// tensor reads it from memory again for each (Softmax: three reads; LayerNorm: three). `inits`
// are the shared outputs, each shaped like `input` or like its kept dims; `body` gets the row
// of the input and of each init (rank kept, unit sizes along the kept dims, which the loop's
// indices give) and returns the new rows of the inits. Blocks divide the loop's first
// non-unit dim, as they divide every other nest's.
using RowBody = function_ref<SmallVector<Value>(OpBuilder &, Location, Value row, ValueRange outRows, ValueRange ivs)>;
SmallVector<Value> forEachRow(OpBuilder &b, Location loc, Value input, const ReductionDims &dims, ValueRange inits,
                              RowBody body) {
  int64_t kept = dims.kept.size();
  SmallVector<OpFoldResult> counts;
  for (int64_t i = 0; i < kept; ++i) counts.push_back(tensor::getMixedSize(b, loc, input, i));
  auto buildRow = [&](OpBuilder &nb, Location l, ValueRange args) {
    ValueRange ivs = args.take_front(kept), outs = args.drop_front(kept);
    SmallVector<Value> outRows;
    for (Value out : outs) outRows.push_back(rowSlice(nb, l, out, ivs));
    SmallVector<Value> results = body(nb, l, rowSlice(nb, l, input, ivs), outRows, ivs);
    // Sizes first: the terminator holds nothing but the inserts.
    SmallVector<RowPlace> places;
    for (Value out : outs) places.push_back(rowPlace(nb, l, out, ivs));
    auto terminator = scf::InParallelOp::create(nb, l);
    nb.setInsertionPointToStart(terminator.getBody());
    for (auto [result, out, place] : llvm::zip(results, outs, places))
      tensor::ParallelInsertSliceOp::create(nb, l, result, out, place.offsets, place.sizes, place.strides);
  };
  return scf::ForallOp::create(b, loc, counts, inits, std::nullopt, buildRow).getResults();
}

template <typename Op>
struct ReducePattern : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = tensorType(input);
    Type element = op.getInput().getType().getElementType();
    bool isUnsigned = element.isUnsignedInteger();
    constexpr bool isMean = std::is_same_v<Op, ReduceMeanOp>;
    constexpr Combine combine = std::is_same_v<Op, ReduceMaxOp>    ? Combine::Max
                                : std::is_same_v<Op, ReduceMinOp>  ? Combine::Min
                                : std::is_same_v<Op, ReduceProdOp> ? Combine::Prod
                                                                   : Combine::Sum;
    ReductionDims dims(inputType.getRank(), op.getAxes());
    Type accType = computeType(element);
    Value sum = reduce(rewriter, loc, input, dims, combine, accType, isUnsigned, {}, {},
                       [&](OpBuilder &b, Location l, ValueRange args) { return castScalar(b, l, args[0], element, accType, true); });
    Type resultElement = this->getTypeConverter()->convertType(element);
    Value result = sum;
    if (isMean || accType != resultElement) {
      Value count = isMean ? reducedCount(rewriter, loc, input, dims, accType) : Value();
      result = mapKept(rewriter, loc, sum, input, dims, resultElement, [&](OpBuilder &b, Location l, ValueRange args) {
        Value x = isMean ? Value(arith::DivFOp::create(b, l, args[0], count)) : args[0];
        return castScalar(b, l, x, accType, element, true);
      });
    }
    auto resultType = cast<RankedTensorType>(this->getTypeConverter()->convertType(op.getType()));
    rewriter.replaceOp(op, insertUnitDims(rewriter, loc, result, resultType, dims.kept));  // keep_dims
    return success();
  }
};

// One reduction with two accumulators, the extreme so far (in the compute type) and its index,
// iterating the kept dims first. A strict comparison keeps the first of equal elements and never
// takes a NaN; the index starts at 0. Along the last dim, row by row (forEachRow): the row's
// extreme first (a max or min reduction LLVM vectorizes), then the first index holding it (a min
// reduction of index-or-size); a float row whose extreme is NaN holds a NaN and takes the strict
// scan, and a row whose extreme is still the identity (-inf for max: one of no elements, sized at
// run time) gives 0, as the scan does. The scan's two accumulators carried through one loop ran
// ArgMax over rows of 4096 f32 at 1.2 GB/s; row by row 16.4 (0.69x memcpy).
template <typename Op>
struct ArgReducePattern : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    constexpr bool isMax = std::is_same_v<Op, ArgMaxOp>;
    constexpr Combine extreme = isMax ? Combine::Max : Combine::Min;
    // The scan's extreme so far skips NaN (a NaN x leaves it; it is never NaN itself).
    constexpr Combine extremeSoFar = isMax ? Combine::MaxNum : Combine::MinNum;
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = tensorType(input);
    Type element = op.getInput().getType().getElementType(), accType = computeType(element);
    bool isUnsigned = element.isUnsignedInteger(), isFloat = isa<FloatType>(accType);
    ReductionDims dims(inputType.getRank(), {static_cast<int64_t>(op.getAxis())});  // counts negative axes too
    Type indexType = op.getType().getElementType();
    MLIRContext *context = op.getContext();
    int64_t reducedPosition = dims.position(dims.reduced.front());
    auto widen = [&](OpBuilder &b, Location l, Value x) { return castScalar(b, l, x, element, accType, true); };
    auto equal = [&](OpBuilder &b, Location l, Value x, Value y) -> Value {
      if (isFloat) return arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, x, y);
      return arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, x, y);
    };
    auto position = [&](OpBuilder &b, Location l) {
      return arith::IndexCastOp::create(b, l, indexType, linalg::IndexOp::create(b, l, reducedPosition));
    };
    // The strict scan of `x` into `where` (a tensor of its kept dims).
    auto scan = [&](OpBuilder &b, Location l, Value x, Value where) -> Value {
      Value best = fill(b, l, dims.keptEmpty(b, l, x, accType), identityOf(b, extreme, accType, isUnsigned));
      where = fill(b, l, where, b.getZeroAttr(indexType));
      SmallVector<AffineMap> maps{dims.inputMap(context), dims.keptMap(context), dims.keptMap(context)};
      auto generic = linalg::GenericOp::create(
          b, l, TypeRange{best.getType(), where.getType()}, x, ValueRange{best, where}, maps, dims.iteratorTypes(),
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            Value x = widen(nb, nl, args[0]);
            Value better;
            if (isFloat)
              better =
                  arith::CmpFOp::create(nb, nl, isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT, x, args[1]);
            else
              better = arith::CmpIOp::create(
                  nb, nl,
                  isMax ? (isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt)
                        : (isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt),
                  x, args[1]);
            // The extreme so far as maxnum / minnum, the extreme first, not select(better, x,
            // extreme): LLVM folds a store of that select of the loaded extreme into a masked
            // store (vmaskmovps, microcoded on AMD).
            Value value = combineOf(nb, nl, extremeSoFar, args[1], x, isUnsigned);
            Value at = arith::SelectOp::create(nb, nl, better, position(nb, nl), args[2]);
            linalg::YieldOp::create(nb, nl, ValueRange{value, at});
          });
      return generic.getResult(1);
    };
    Value where = dims.keptEmpty(rewriter, loc, input, indexType);
    bool alongRows = !dims.kept.empty() && dims.reduced.front() == dims.rank() - 1 && reducesRows(dims, input);
    if (!alongRows) {
      rewriter.replaceOp(op, scan(rewriter, loc, input, where));
      return success();
    }
    AffineMap keptMap = dims.keptMap(context);
    auto firstHolding = [&](OpBuilder &b, Location l, Value row, Value best, Value out) -> Value {
      Value size = arith::IndexCastOp::create(b, l, indexType, dim(b, l, row, dims.rank() - 1));
      Value first = reduce(b, l, row, dims, Combine::Min, indexType, false, best, keptMap,
                           [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
                             Value holds = equal(nb, nl, widen(nb, nl, args[0]), args[1]);
                             return arith::SelectOp::create(nb, nl, holds, position(nb, nl), size);
                           });
      return mapKept(
          b, l, ValueRange{best, first}, row, dims, indexType,
          [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
            Value identity = arith::ConstantOp::create(nb, nl, identityOf(nb, extreme, accType, isUnsigned));
            Value none = equal(nb, nl, args[0], identity);
            Value zero = arith::ConstantOp::create(nb, nl, nb.getZeroAttr(indexType));
            return arith::SelectOp::create(nb, nl, none, zero, args[1]);
          },
          out);
    };
    SmallVector<Value> results = forEachRow(
        rewriter, loc, input, dims, where, [&](OpBuilder &b, Location l, Value row, ValueRange outs, ValueRange) {
          Value best = reduce(b, l, row, dims, extreme, accType, isUnsigned, {}, {},
                              [&](OpBuilder &nb, Location nl, ValueRange args) { return widen(nb, nl, args[0]); });
          if (!isFloat) return SmallVector<Value>{firstHolding(b, l, row, best, outs[0])};
          SmallVector<Value> origin(dims.kept.size(), constantIndex(b, l, 0));
          Value value = tensor::ExtractOp::create(b, l, best, origin);
          Value holdsNaN = arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, value, value);
          auto choice = scf::IfOp::create(
              b, l, holdsNaN,
              [&](OpBuilder &nb, Location nl) { scf::YieldOp::create(nb, nl, scan(nb, nl, row, outs[0])); },
              [&](OpBuilder &nb, Location nl) {
                scf::YieldOp::create(nb, nl, firstHolding(nb, nl, row, best, outs[0]));
              });
          return SmallVector<Value>{choice.getResult(0)};
        });
    rewriter.replaceOp(op, results.front());
    return success();
  }
};

// Softmax: exp(x - max) * (1 / sum); log-softmax: x - (max + log(sum)), the offset taken once
// a row. Over trailing axes, row by row (forEachRow); otherwise a nest per step. exp(x - max)
// is at most 1 and the sum at least 1, so exponentials below the smallest normal float may
// flush to 0 (an absolute error below 2^-126): plain math.exp, not expOf.
template <typename Op>
struct SoftmaxPattern : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    constexpr bool isLog = std::is_same_v<Op, LogSoftmaxOp>;
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = tensorType(input);
    Type element = inputType.getElementType(), accType = computeType(element);
    MLIRContext *context = op.getContext();
    ReductionDims dims(inputType.getRank(), op.getAxes());
    auto widen = [&](OpBuilder &b, Location l, Value x) { return castScalar(b, l, x, element, accType, true); };
    AffineMap keptMap = dims.keptMap(context), inputMap = dims.inputMap(context);
    auto shiftedExp = [&](OpBuilder &b, Location l, Value x, Value m) {
      return math::ExpOp::create(b, l, arith::SubFOp::create(b, l, widen(b, l, x), m)).getResult();
    };
    // The softmax of `x` (the input or a row of it) into `init`. With a `kept` tensor (f32 and
    // f64: the row of `init`; f16/bf16: an f32 row) exp(x - max) is written there, summed from
    // there and scaled into `init`: each exponential is taken once, not again for the result.
    // The shift skips NaN (MaxNum): a NaN in the row makes its exponential, the sum and so every
    // result NaN all the same.
    auto softmax = [&](OpBuilder &b, Location l, Value x, Value init, Value kept) -> Value {
      Value max = reduce(b, l, x, dims, Combine::MaxNum, accType, false, {}, {},
                         [&](OpBuilder &nb, Location nl, ValueRange args) { return widen(nb, nl, args[0]); });
      Value exponentials, sum;
      if (kept) {
        exponentials = linalg::GenericOp::create(
                           b, l, tensorType(kept), ValueRange{x, max}, kept,
                           SmallVector<AffineMap>{inputMap, keptMap, inputMap}, iterators(dims.rank(), 0),
                           [&](OpBuilder &nb, Location nl, ValueRange args) {
                             linalg::YieldOp::create(nb, nl, shiftedExp(nb, nl, args[0], args[1]));
                           })
                           .getResult(0);
        sum = reduce(b, l, exponentials, dims, Combine::Sum, accType, false, {}, {},
                     [](OpBuilder &, Location, ValueRange args) { return args[0]; });
      } else {
        sum = reduce(b, l, x, dims, Combine::Sum, accType, false, max, keptMap,
                     [&](OpBuilder &nb, Location nl, ValueRange args) { return shiftedExp(nb, nl, args[0], args[1]); });
      }
      // Per row: log-softmax's offset max + log(sum), softmax's 1 / sum (a multiply an element).
      Value offset = mapKept(
          b, l, ValueRange{max, sum}, x, dims, accType,
          [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
            if constexpr (isLog) return arith::AddFOp::create(nb, nl, args[0], logOf(nb, nl, args[1]));
            Value one = arith::ConstantOp::create(nb, nl, nb.getFloatAttr(args[1].getType(), 1.0));
            return arith::DivFOp::create(nb, nl, one, args[1]);
          },
          sum);
      if (kept == init)  // scaled in place: read through the output operand, or it would be copied
        return linalg::GenericOp::create(b, l, tensorType(init), ValueRange{offset}, exponentials,
                                         SmallVector<AffineMap>{keptMap, inputMap}, iterators(dims.rank(), 0),
                                         [](OpBuilder &nb, Location nl, ValueRange args) {
                                           Value scaled = arith::MulFOp::create(nb, nl, args[1], args[0]);
                                           linalg::YieldOp::create(nb, nl, scaled);
                                         })
            .getResult(0);
      if (kept)
        return linalg::GenericOp::create(b, l, tensorType(init), ValueRange{exponentials, offset}, init,
                                         SmallVector<AffineMap>{inputMap, keptMap, inputMap},
                                         iterators(dims.rank(), 0),
                                         [&](OpBuilder &nb, Location nl, ValueRange args) {
                                           Value scaled = arith::MulFOp::create(nb, nl, args[0], args[1]);
                                           linalg::YieldOp::create(nb, nl, castScalar(nb, nl, scaled, accType,
                                                                                      element, true));
                                         })
            .getResult(0);
      return linalg::GenericOp::create(
                 b, l, tensorType(init), ValueRange{x, max, offset}, init,
                 SmallVector<AffineMap>{inputMap, keptMap, keptMap, inputMap}, iterators(dims.rank(), 0),
                 [&](OpBuilder &nb, Location nl, ValueRange args) {
                   Value value =
                       isLog ? Value(arith::SubFOp::create(nb, nl, widen(nb, nl, args[0]), args[2]))
                             : Value(arith::MulFOp::create(nb, nl, shiftedExp(nb, nl, args[0], args[1]), args[2]));
                   linalg::YieldOp::create(nb, nl, castScalar(nb, nl, value, accType, element, true));
                 })
          .getResult(0);
    };
    Value init = emptyTensor(rewriter, loc, inputType, [&](int64_t i) { return dim(rewriter, loc, input, i); });
    if (!reducesRows(dims, input)) {
      rewriter.replaceOp(op, softmax(rewriter, loc, input, init, Value()));
      return success();
    }
    // A narrower type's exponentials go to an f32 row on the stack (promote-buffers-to-stack's
    // limit, Pipelines.cpp), where rounding them to the output's type would round each twice.
    ArrayRef<int64_t> rowShape = inputType.getShape().drop_front(dims.kept.size());
    bool keptInOutput = !isLog && element == accType;
    bool keptOnStack = !isLog && !keptInOutput && !ShapedType::isDynamicShape(rowShape) &&
                       ShapedType::getNumElements(rowShape) * accType.getIntOrFloatBitWidth() / 8 <=
                           kMaxStackBufferBytes;
    SmallVector<Value> results = forEachRow(
        rewriter, loc, input, dims, init, [&](OpBuilder &b, Location l, Value row, ValueRange outs, ValueRange) {
          Value kept = keptInOutput ? outs[0]
                       : keptOnStack ? tensor::EmptyOp::create(b, l, tensorType(row).getShape(), accType).getResult()
                                     : Value();
          return SmallVector<Value>{softmax(b, l, row, outs[0], kept)};
        });
    rewriter.replaceOp(op, results.front());
    return success();
  }
};

// Mean, then the variance about it (two passes, so that a large offset does not cancel), over
// the dims from begin_norm_axis; then y = (x - mean) * rstd * gamma + beta. Row by row
// (forEachRow: the normalized dims are the trailing ones), each row's three reads from cache.
struct LayerNormPattern : OpConversionPattern<LayerNormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LayerNormOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = tensorType(input);
    int64_t rank = inputType.getRank();
    int64_t normAxis = normalizedAxis(op.getBeginNormAxis(), rank);
    int64_t paramsAxis = normalizedAxis(op.getBeginParamsAxis(), rank);
    Type element = inputType.getElementType(), accType = computeType(element);
    Type paramElement = tensorType(adaptor.getGamma()).getElementType();
    MLIRContext *context = op.getContext();
    ReductionDims dims(rank, llvm::to_vector(llvm::seq<int64_t>(normAxis, rank)));
    auto widen = [&](OpBuilder &b, Location l, Value x) { return castScalar(b, l, x, element, accType, true); };
    AffineMap keptMap = dims.keptMap(context), identity = dims.inputMap(context);
    SmallVector<AffineExpr> paramDims;
    for (int64_t i = paramsAxis; i < rank; ++i) paramDims.push_back(getAffineDimExpr(i, context));
    AffineMap paramsMap = AffineMap::get(rank, 0, paramDims, context);
    Value epsilon =
        arith::ConstantOp::create(rewriter, loc, rewriter.getFloatAttr(accType, op.getEpsilon().convertToFloat()));
    // y of `x` (a row, or the whole input) into `init`, its mean and variance into `meanInit`
    // and `varianceInit`; `gamma` and `beta` are the parameters for it.
    auto normalize = [&](OpBuilder &b, Location l, Value x, Value init, Value meanInit, Value varianceInit, Value gamma,
                         Value beta) {
      Value count = reducedCount(b, l, x, dims, accType);
      auto divideByCount = [&](OpBuilder &nb, Location nl, ValueRange args) {
        return Value(arith::DivFOp::create(nb, nl, args[0], count));
      };
      Value sum = reduce(b, l, x, dims, Combine::Sum, accType, false, {}, {},
                         [&](OpBuilder &nb, Location nl, ValueRange args) { return widen(nb, nl, args[0]); });
      Value mean = mapKept(b, l, sum, x, dims, accType, divideByCount, meanInit);
      Value squares = reduce(b, l, x, dims, Combine::Sum, accType, false, mean, keptMap,
                             [&](OpBuilder &nb, Location nl, ValueRange args) {
                               Value deviation = arith::SubFOp::create(nb, nl, widen(nb, nl, args[0]), args[1]);
                               return Value(arith::MulFOp::create(nb, nl, deviation, deviation));
                             });
      Value variance = mapKept(b, l, squares, x, dims, accType, divideByCount, varianceInit);
      Value rstd = mapKept(b, l, variance, x, dims, accType, [&](OpBuilder &nb, Location nl, ValueRange args) {
        return Value(math::RsqrtOp::create(nb, nl, arith::AddFOp::create(nb, nl, args[0], epsilon)));
      });
      auto y = linalg::GenericOp::create(
          b, l, tensorType(init), ValueRange{x, mean, rstd, gamma, beta}, init,
          SmallVector<AffineMap>{identity, keptMap, keptMap, paramsMap, paramsMap, identity}, iterators(rank, 0),
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            Value normalized =
                arith::MulFOp::create(nb, nl, arith::SubFOp::create(nb, nl, widen(nb, nl, args[0]), args[1]), args[2]);
            Value gammaValue = castScalar(nb, nl, args[3], paramElement, accType, true);
            Value betaValue = castScalar(nb, nl, args[4], paramElement, accType, true);
            Value value = addOf(nb, nl, arith::MulFOp::create(nb, nl, normalized, gammaValue), betaValue);
            linalg::YieldOp::create(nb, nl, castScalar(nb, nl, value, accType, element, true));
          });
      return SmallVector<Value>{y.getResult(0), mean, variance};
    };
    Value init = emptyTensor(rewriter, loc, inputType, [&](int64_t i) { return dim(rewriter, loc, input, i); });
    Value meanInit = dims.keptEmpty(rewriter, loc, input, accType);
    Value varianceInit = dims.keptEmpty(rewriter, loc, input, accType);
    // Parameters that vary along kept dims (begin_params_axis before begin_norm_axis) are sliced
    // at the row's indices there.
    SmallVector<Value> rows =
        !reducesRows(dims, input)  // an empty tensor: no rows to slice
            ? normalize(rewriter, loc, input, init, meanInit, varianceInit, adaptor.getGamma(), adaptor.getBeta())
            : forEachRow(rewriter, loc, input, dims, {init, meanInit, varianceInit},
                         [&](OpBuilder &b, Location l, Value row, ValueRange outs, ValueRange ivs) {
                           Value gamma = paramsAxis < normAxis ? rowSlice(b, l, adaptor.getGamma(), ivs, paramsAxis)
                                                               : adaptor.getGamma();
                           Value beta = paramsAxis < normAxis ? rowSlice(b, l, adaptor.getBeta(), ivs, paramsAxis)
                                                              : adaptor.getBeta();
                           return normalize(b, l, row, outs[0], outs[1], outs[2], gamma, beta);
                         });
    SmallVector<Value> results{rows[0]};
    for (auto [statistic, result] : llvm::zip(ArrayRef<Value>(rows).drop_front(), op->getResults().drop_front())) {
      auto resultType = cast<RankedTensorType>(getTypeConverter()->convertType(result.getType()));
      Value narrowed = castTensor(rewriter, loc, statistic, dims.keptType(inputType, element), accType, element, true);
      results.push_back(insertUnitDims(rewriter, loc, narrowed, resultType, dims.kept));  // keep_dims
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct TransposePattern : OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(TransposeOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto resultType = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    ArrayRef<int64_t> perm = op.getPerm();
    Value init = emptyTensor(rewriter, loc, resultType, [&](int64_t i) { return dim(rewriter, loc, input, perm[i]); });
    rewriter.replaceOp(op, linalg::TransposeOp::create(rewriter, loc, input, init, perm).getResults());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Data movement: slice, broadcast_to, tile, concat
//===----------------------------------------------------------------------===//

// Where a result element of a slice or tile reads the input: its index along dim `d` shifted by
// the slice's offset, or wrapped around the input's size.
Value sourceIndex(SliceOp op, RankedTensorType, OpBuilder &b, Location loc, int64_t d, Value index) {
  int64_t offset = op.getOffsets()[d];
  if (offset == 0) return index;
  return arith::AddIOp::create(b, loc, index, arith::ConstantIndexOp::create(b, loc, offset));
}

Value sourceIndex(TileOp op, RankedTensorType input, OpBuilder &b, Location loc, int64_t d, Value index) {
  if (op.getMultiples()[d] == 1) return index;  // dynamic dims too (inference allows only 1)
  return arith::RemUIOp::create(b, loc, index, arith::ConstantIndexOp::create(b, loc, input.getDimSize(d)));
}

Value sourceIndex(StridedSliceOp op, RankedTensorType, OpBuilder &b, Location loc, int64_t d, Value index) {
  int64_t offset = op.getOffsets()[d], stride = op.getStrides()[d];
  Value scaled = stride == 1 ? index : arith::MulIOp::create(b, loc, index, arith::ConstantIndexOp::create(b, loc, stride));
  if (offset == 0) return scaled;
  return arith::AddIOp::create(b, loc, scaled, arith::ConstantIndexOp::create(b, loc, offset));
}

// The result a strided slice gathers before its shrink dims are dropped: one dim per input dim.
RankedTensorType unshrunkType(StridedSliceOp op, RankedTensorType input, Type element) {
  SmallVector<int64_t> shape;
  for (auto [size, dim] : llvm::zip(op.getSizes(), input.getShape())) shape.push_back(size == -1 ? dim : size);
  return RankedTensorType::get(shape, element);
}

// Drops a strided slice's shrink dims (each of size 1) from `gathered`, then inserts its new
// axes: views. Each shrink dim joins the group of the next kept dim, trailing ones the last
// group.
Value shapeStridedSlice(OpBuilder &b, Location loc, StridedSliceOp op, Value gathered, RankedTensorType resultType) {
  int64_t resultRank = resultType.getRank();
  SmallVector<int64_t> keptDims, shrunkShape;  // of the result: the dims that are not new axes
  for (int64_t i = 0; i < resultRank; ++i)
    if (!llvm::is_contained(op.getNewAxes(), i) && !llvm::is_contained(op.getNewAxes(), i - resultRank)) {
      keptDims.push_back(i);
      shrunkShape.push_back(resultType.getDimSize(i));
    }
  Value shrunk = gathered;
  if (!op.getShrink().empty()) {
    SmallVector<ReassociationIndices> groups;
    ReassociationIndices pending;
    int64_t rank = tensorType(gathered).getRank();
    for (int64_t i = 0; i < rank; ++i) {
      pending.push_back(i);
      if (llvm::is_contained(op.getShrink(), i) || llvm::is_contained(op.getShrink(), i - rank)) continue;
      groups.push_back(pending);
      pending.clear();
    }
    if (!groups.empty()) groups.back().append(pending.begin(), pending.end());
    auto shrunkType = RankedTensorType::get(shrunkShape, resultType.getElementType());
    shrunk = tensor::CollapseShapeOp::create(b, loc, shrunkType, gathered, groups);
  }
  return insertUnitDims(b, loc, shrunk, resultType, keptDims);
}

// Slice, strided slice and tile: each result element read from the input at its sourceIndex. A
// dynamic result dim is the input's (taken whole, or repeated once).
template <typename Op>
struct SourceIndexPattern : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto resultType = cast<RankedTensorType>(this->getTypeConverter()->convertType(op.getType()));
    RankedTensorType gatheredType = resultType;
    if constexpr (std::is_same_v<Op, StridedSliceOp>)
      gatheredType = unshrunkType(op, tensorType(input), resultType.getElementType());
    Value init = emptyTensor(rewriter, loc, gatheredType, [&](int64_t i) { return dim(rewriter, loc, input, i); });
    Value gathered = gatherInto(rewriter, loc, input, init, [&](OpBuilder &b, Location l, int64_t d, Value index) {
      return sourceIndex(op, tensorType(input), b, l, d, index);
    });
    if constexpr (std::is_same_v<Op, StridedSliceOp>) gathered = shapeStridedSlice(rewriter, loc, op, gathered, resultType);
    rewriter.replaceOp(op, gathered);
    return success();
  }
};

// A generic reading the input through the broadcast map, as element-wise ops read operands.
struct BroadcastToPattern : OpConversionPattern<BroadcastToOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(BroadcastToOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto resultType = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value init = emptyTensor(rewriter, loc, resultType, [&](int64_t) -> Value { llvm_unreachable("static"); });
    SmallVector<AffineMap> maps{broadcastMap(op.getContext(), tensorType(input), resultType),
                                rewriter.getMultiDimIdentityMap(resultType.getRank())};
    auto generic = linalg::GenericOp::create(rewriter, loc, resultType, input, init, maps,
                                             iterators(resultType.getRank(), 0),
                                             [](OpBuilder &b, Location l, ValueRange args) {
                                               linalg::YieldOp::create(b, l, args[0]);
                                             });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

// The padded result written in parts (writeInParts): along each padded dim, the padding before,
// the input's extent and the padding after. The part inside the input along every dim is a copy
// of it, read and written as contiguous runs; each other part is written by `edge(part, first,
// inside)`, `first` its offsets (index values) and `inside[d]` whether it lies within the input's
// extent along dim d. Nothing is written twice (filled, then copied over), and the copy reads no
// masked or mirrored index.
using PadEdge = function_ref<Value(OpBuilder &, Location, Value part, ArrayRef<Value> first, ArrayRef<bool> inside)>;
Value padInParts(OpBuilder &b, Location loc, Value input, Value init, ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                 PadEdge edge) {
  auto inputType = tensorType(input);  // static (inference)
  if (tensorType(init).getNumElements() == 0) return init;  // nothing to write (nor to slice)
  int64_t rank = inputType.getRank();
  SmallVector<int64_t> dims;
  SmallVector<SmallVector<Value>> bounds;
  SmallVector<std::optional<size_t>> interior;  // the part within the input, per padded dim
  for (int64_t d = 0; d < rank; ++d) {
    if (low[d] == 0 && high[d] == 0) continue;
    int64_t size = inputType.getDimSize(d), cuts[] = {0, low[d], low[d] + size, low[d] + size + high[d]};
    SmallVector<Value> dimBounds{constantIndex(b, loc, 0)};
    std::optional<size_t> within;
    for (int64_t i = 1; i < 4; ++i) {
      if (cuts[i] == cuts[i - 1]) continue;  // no part
      if (i == 2) within = dimBounds.size() - 1;
      dimBounds.push_back(constantIndex(b, loc, cuts[i]));
    }
    dims.push_back(d);
    bounds.push_back(dimBounds);
    interior.push_back(within);
  }
  return writeInParts(b, loc, init, dims, bounds, [&](OpBuilder &nb, Location l, Value part, ArrayRef<size_t> index) {
    SmallVector<Value> first(rank, constantIndex(nb, l, 0));
    SmallVector<bool> inside(rank, true);
    for (auto [k, d] : llvm::enumerate(dims)) {
      first[d] = bounds[k][index[k]];
      inside[d] = interior[k] == index[k];
    }
    if (llvm::all_of(inside, [](bool within) { return within; }))
      return gatherInto(nb, l, input, part, [](OpBuilder &, Location, int64_t, Value i) { return i; });
    return edge(nb, l, part, first, inside);
  });
}

// A part of a mirrored or clamped pad (padInParts): each element reads the input element its
// position mirrors or clamps to along the dims where the part lies in the padding, and its own
// along the others. With j the position less the padding before and n the dim's size (inference
// bounds the padding, so one mirroring is enough): reflect min(|j|, 2n - 2 - |j|), symmetric
// min(a, 2n - 1 - a) with a = max(j, -j - 1), edge clamp(j, 0, n - 1).
Value mirroredPart(OpBuilder &b, Location loc, Value input, Value part, ArrayRef<int64_t> low, StringRef mode,
                   ArrayRef<Value> first, ArrayRef<bool> inside) {
  auto inputType = tensorType(input);
  return gatherInto(b, loc, input, part, [&](OpBuilder &nb, Location l, int64_t d, Value index) -> Value {
    int64_t n = inputType.getDimSize(d);
    auto constant = [&](int64_t value) { return constantIndex(nb, l, value); };
    // index + (first - low), folded: along a dim the part lies inside, a contiguous run.
    Value j = nb.createOrFold<arith::AddIOp>(l, index, nb.createOrFold<arith::SubIOp>(l, first[d], constant(low[d])));
    if (inside[d]) return j;
    if (mode == "edge") return arith::MinSIOp::create(nb, l, arith::MaxSIOp::create(nb, l, j, constant(0)), constant(n - 1));
    bool reflect = mode == "reflect";
    Value mirrored = reflect ? arith::SubIOp::create(nb, l, constant(0), j)
                             : arith::SubIOp::create(nb, l, constant(-1), j);  // -j or -j - 1
    Value a = arith::MaxSIOp::create(nb, l, j, mirrored);
    Value b2 = arith::SubIOp::create(nb, l, constant(reflect ? 2 * n - 2 : 2 * n - 1), a);
    return arith::MinSIOp::create(nb, l, a, b2);
  });
}

// Every mode writes the result in parts (padInParts): the input copied into the middle, and the
// padding filled with the value (constant mode) or mirrored (mirroredPart). Until session 36 a
// constant pad filled the whole output and copied the input over it, or read every element
// through a masked gather; MirrorPad gathered every element.
struct PadPattern : OpConversionPattern<PadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(PadOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto resultType = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Type element = op.getType().getElementType();
    ArrayRef<int64_t> low = op.getLow(), high = op.getHigh();
    Value init = emptyTensor(rewriter, loc, resultType, [&](int64_t) -> Value { llvm_unreachable("static"); });
    StringRef mode = op.getMode();
    float fillValue = op.getValue().convertToFloat();
    Value result = padInParts(
        rewriter, loc, input, init, low, high,
        [&](OpBuilder &b, Location l, Value part, ArrayRef<Value> first, ArrayRef<bool> inside) -> Value {
          if (mode != "constant") return mirroredPart(b, l, input, part, low, mode, first, inside);
          Value constant = arith::ConstantOp::create(b, l, b.getF32FloatAttr(fillValue));
          Value value = toStorage(b, l, castScalar(b, l, constant, b.getF32Type(), element, true), element);
          return linalg::FillOp::create(b, l, value, part).getResult(0);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

// Each input copied into its slice of the result, in order along the axis.
struct ConcatPattern : OpConversionPattern<ConcatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ConcatOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ValueRange inputs = adaptor.getInputs();
    auto resultType = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    int64_t rank = resultType.getRank(), axis = normalizedAxis(op.getAxis(), rank);
    Value result = emptyTensor(rewriter, loc, resultType,
                               [&](int64_t i) { return dim(rewriter, loc, inputs.front(), i); });
    // The empty output becomes the destination before eliminate-empty-tensors runs
    // (aclop-eliminate-expanded-empty-tensors), so every part is written in place. (Until
    // session 36 the output was zero-filled first to get it placed: one more write of the
    // output, ConcatV2D at 0.74x memcpy.)
    SmallVector<int64_t> offsets(rank, 0);
    for (Value input : inputs) {
      // A part of its own (insertCopy), which aclop-eliminate-expanded-empty-tensors then
      // places in the result's slice (an extract_slice of the result would leave the first part
      // out of place).
      result = insertCopy(rewriter, loc, input, result, offsets);
      offsets[axis] += tensorType(input).getDimSize(axis);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

// A generic over the result reading each index (indices' dims sit at `axis` in the result's)
// and then params at it; an index out of range reads nothing and gives zero.
struct GatherPattern : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(GatherOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value params = adaptor.getParams(), indices = adaptor.getIndices();
    auto paramsType = tensorType(params), indicesType = tensorType(indices);
    auto resultType = cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    int64_t rank = paramsType.getRank(), axis = normalizedAxis(op.getAxis(), rank);
    int64_t indexRank = indicesType.getRank();
    Value init = emptyTensor(rewriter, loc, resultType, [&](int64_t i) {
      if (i < axis) return dim(rewriter, loc, params, i);
      if (i < axis + indexRank) return dim(rewriter, loc, indices, i - axis);
      return dim(rewriter, loc, params, i - indexRank + 1);
    });
    Value size = dim(rewriter, loc, params, axis);
    Type element = resultType.getElementType();
    // The index is read with tensor.extract too, not as an operand: the vectorizer then sees it
    // is the same along the innermost dims, and reads params' rows with vector loads, not gathers.
    auto generic = linalg::GenericOp::create(
        rewriter, loc, resultType, ValueRange{}, init,
        SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(resultType.getRank())},
        iterators(resultType.getRank(), 0), [&](OpBuilder &b, Location l, ValueRange) {
          SmallVector<Value> at;
          for (int64_t i = 0; i < indexRank; ++i) at.push_back(linalg::IndexOp::create(b, l, axis + i));
          Value raw = tensor::ExtractOp::create(b, l, indices, at);
          Value index = arith::IndexCastOp::create(b, l, b.getIndexType(), raw);
          Value zeroIndex = arith::ConstantIndexOp::create(b, l, 0);
          Value inRange = isInRange(b, l, index, size);
          SmallVector<Value> source;
          for (int64_t i = 0; i < axis; ++i) source.push_back(linalg::IndexOp::create(b, l, i));
          source.push_back(arith::SelectOp::create(b, l, inRange, index, zeroIndex));
          for (int64_t i = axis + 1; i < rank; ++i) source.push_back(linalg::IndexOp::create(b, l, i + indexRank - 1));
          Value zero = arith::ConstantOp::create(b, l, b.getZeroAttr(element));
          int64_t staticSize = paramsType.getDimSize(axis);
          if (staticSize == 0) {  // nothing to read
            linalg::YieldOp::create(b, l, zero);
            return;
          }
          if (ShapedType::isDynamic(staticSize)) {  // maybe empty: read only in range
            auto read = scf::IfOp::create(
                b, l, inRange,
                [&](OpBuilder &nb, Location nl) {
                  scf::YieldOp::create(nb, nl, ValueRange{tensor::ExtractOp::create(nb, nl, params, source)});
                },
                [&](OpBuilder &nb, Location nl) { scf::YieldOp::create(nb, nl, zero); });
            linalg::YieldOp::create(b, l, read.getResult(0));
            return;
          }
          Value value = tensor::ExtractOp::create(b, l, params, source);
          linalg::YieldOp::create(b, l, Value(arith::SelectOp::create(b, l, inRange, value, zero)));
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

// Each result a copy of its piece of the input: read at its index plus the piece's offset along
// the axis. Offsets are constants but after a dynamic piece (the rest of a dynamic dim).
struct SplitPattern : OpConversionPattern<SplitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(SplitOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = tensorType(input);
    int64_t rank = inputType.getRank(), axis = normalizedAxis(op.getAxis(), rank);
    int64_t known = 0;
    for (int64_t size : op.getSizes()) known += std::max<int64_t>(size, 0);
    Value dynamicBase;  // the sum of the dynamic pieces before, when there is one
    int64_t constantOffset = 0;
    SmallVector<Value> results;
    for (auto [size, result] : llvm::zip(op.getSizes(), op.getResults())) {
      auto resultType = cast<RankedTensorType>(getTypeConverter()->convertType(result.getType()));
      Value offset = dynamicBase;
      if (constantOffset != 0 || !offset) {
        Value constant = arith::ConstantIndexOp::create(rewriter, loc, constantOffset);
        offset = offset ? Value(arith::AddIOp::create(rewriter, loc, offset, constant)) : constant;
      }
      Value pieceSize;  // of a dynamic piece
      Value init = emptyTensor(rewriter, loc, resultType, [&](int64_t i) -> Value {
        if (i != axis) return dim(rewriter, loc, input, i);
        Value knownSizes = arith::ConstantIndexOp::create(rewriter, loc, known);
        return pieceSize = arith::SubIOp::create(rewriter, loc, dim(rewriter, loc, input, axis), knownSizes);
      });
      results.push_back(gatherInto(rewriter, loc, input, init, [&](OpBuilder &b, Location l, int64_t d, Value index) {
        if (d != axis) return index;
        return Value(arith::AddIOp::create(b, l, index, offset));
      }));
      if (pieceSize) dynamicBase = pieceSize;
      else constantOffset += resultType.getDimSize(axis);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

// Re-types any other op whose operand or result types mention ui8 (to_tensor, dims, ...).
struct RetypeOtherOps : ConversionPattern {
  RetypeOtherOps(TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/0, context) {}
  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &rewriter) const override {
    if (op->getNumRegions() != 0 || isa<func::ReturnOp, func::CallOp>(op)) return failure();
    SmallVector<Type> results;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(), results))) return failure();
    OperationState state(op->getLoc(), op->getName(), operands, results, op->getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

struct ConvertAclopToLinalgPass : aclop::impl::ConvertAclopToLinalgBase<ConvertAclopToLinalgPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    SignlessTypeConverter converter;
    ConversionTarget target(*context);
    target.addIllegalDialect<AclopDialect>();
    target.markUnknownOpDynamicallyLegal([&](Operation *op) {
      if (auto func = dyn_cast<func::FuncOp>(op))
        return converter.isSignatureLegal(func.getFunctionType()) && converter.isLegal(&func.getBody());
      return converter.isLegal(op);
    });
    RewritePatternSet patterns(context);
    patterns.add<ElementwisePattern<AddOp>, ElementwisePattern<SubOp>, ElementwisePattern<MulOp>,
                 ElementwisePattern<DivOp>, ElementwisePattern<MaximumOp>, ElementwisePattern<MinimumOp>,
                 ElementwisePattern<PowOp>, ElementwisePattern<ReluOp>, ElementwisePattern<GeluOp>,
                 ElementwisePattern<SigmoidOp>, ElementwisePattern<TanhOp>, ElementwisePattern<ExpOp>,
                 ElementwisePattern<LogOp>, ElementwisePattern<SqrtOp>, ElementwisePattern<RsqrtOp>,
                 ElementwisePattern<AbsOp>, ElementwisePattern<NegOp>, ElementwisePattern<SquareOp>,
                 ElementwisePattern<ReciprocalOp>, ElementwisePattern<SignOp>, ElementwisePattern<FloorOp>,
                 ElementwisePattern<CeilOp>, ElementwisePattern<RoundOp>, ElementwisePattern<SinOp>,
                 ElementwisePattern<CosOp>, ElementwisePattern<ErfOp>, ElementwisePattern<SoftplusOp>,
                 ElementwisePattern<LogicalNotOp>, ElementwisePattern<LeakyReluOp>, ElementwisePattern<EqualOp>,
                 ElementwisePattern<NotEqualOp>, ElementwisePattern<GreaterOp>, ElementwisePattern<GreaterEqualOp>,
                 ElementwisePattern<LessOp>, ElementwisePattern<LessEqualOp>, ElementwisePattern<LogicalAndOp>,
                 ElementwisePattern<LogicalOrOp>, ElementwisePattern<SelectOp>,
                 ElementwisePattern<SquaredDifferenceOp>, ElementwisePattern<FloorDivOp>,
                 ElementwisePattern<FloorModOp>, ElementwisePattern<ClipByValueOp>, ElementwisePattern<AddNOp>,
                 ElementwisePattern<Log1pOp>, ElementwisePattern<Expm1Op>, ElementwisePattern<ZerosLikeOp>,
                 ElementwisePattern<OnesLikeOp>, CastPattern, GemmPattern,
                 ProductPattern<MatMulOp>, ProductPattern<BatchMatMulOp>, ReducePattern<ReduceSumOp>,
                 ReducePattern<ReduceMaxOp>, ReducePattern<ReduceMeanOp>, ReducePattern<ReduceMinOp>,
                 ReducePattern<ReduceProdOp>, ArgReducePattern<ArgMaxOp>, ArgReducePattern<ArgMinOp>, SourceIndexPattern<SliceOp>, SourceIndexPattern<StridedSliceOp>, BroadcastToPattern, SourceIndexPattern<TileOp>, ConcatPattern, GatherPattern, PadPattern, SplitPattern, SoftmaxPattern<SoftmaxOp>,
                 SoftmaxPattern<LogSoftmaxOp>, LayerNormPattern, TransposePattern>(
        converter, context);
    populateConv2DToLinalgPatterns(converter, patterns);
    populatePool2DToLinalgPatterns(converter, patterns);
    patterns.add<RetypeOtherOps>(converter, context);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns)))) signalPassFailure();
  }
};

} // namespace
