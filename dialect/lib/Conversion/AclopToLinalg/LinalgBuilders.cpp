//===- LinalgBuilders.cpp - shared pieces of the aclop lowerings ----------===//
#include "LinalgBuilders.h"
#include "ScalarOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::aclop {

RankedTensorType tensorType(Value value) { return cast<RankedTensorType>(value.getType()); }

Value emptyTensor(OpBuilder &b, Location loc, RankedTensorType type, function_ref<Value(int64_t)> sizeOf) {
  SmallVector<Value> dynamic;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i)) dynamic.push_back(sizeOf(i));
  return tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType(), dynamic);
}

Value dim(OpBuilder &b, Location loc, Value tensor, int64_t index) {
  return tensor::DimOp::create(b, loc, tensor, index);
}

Value fill(OpBuilder &b, Location loc, Value tensor, TypedAttr value) {
  Value constant = arith::ConstantOp::create(b, loc, value);
  return linalg::FillOp::create(b, loc, constant, tensor).getResult(0);
}

SmallVector<utils::IteratorType> iterators(int64_t parallel, int64_t reduction) {
  SmallVector<utils::IteratorType> types(parallel, utils::IteratorType::parallel);
  types.append(reduction, utils::IteratorType::reduction);
  return types;
}

Value castTensor(OpBuilder &b, Location loc, Value value, RankedTensorType resultType, Type from, Type to,
                 bool truncate) {
  if (from == to) return value;
  auto type = tensorType(value);
  Value init = emptyTensor(b, loc, resultType, [&](int64_t i) { return dim(b, loc, value, i); });
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  return linalg::GenericOp::create(b, loc, resultType, value, init, SmallVector<AffineMap>{identity, identity},
                                   iterators(type.getRank(), 0),
                                   [&](OpBuilder &nb, Location l, ValueRange args) {
                                     Value value = fromStorage(nb, l, args[0], from);
                                     value = castScalar(nb, l, value, from, to, truncate);
                                     linalg::YieldOp::create(nb, l, toStorage(nb, l, value, to));
                                   })
      .getResult(0);
}

Value gatherInto(OpBuilder &b, Location loc, Value source, Value init,
                 function_ref<Value(OpBuilder &, Location, int64_t dim, Value index)> sourceIndex) {
  auto type = tensorType(init);
  return linalg::GenericOp::create(b, loc, type, ValueRange{}, init,
                                   SmallVector<AffineMap>{b.getMultiDimIdentityMap(type.getRank())},
                                   iterators(type.getRank(), 0),
                                   [&](OpBuilder &nb, Location l, ValueRange) {
                                     SmallVector<Value> indices;
                                     for (int64_t i = 0; i < type.getRank(); ++i)
                                       indices.push_back(sourceIndex(nb, l, i, linalg::IndexOp::create(nb, l, i)));
                                     Value element = tensor::ExtractOp::create(nb, l, source, indices);
                                     linalg::YieldOp::create(nb, l, element);
                                   })
      .getResult(0);
}

Value insertCopy(OpBuilder &b, Location loc, Value source, Value destination, ArrayRef<int64_t> offsets) {
  auto type = tensorType(source);
  Value part = emptyTensor(b, loc, type.clone(tensorType(destination).getElementType()),
                           [&](int64_t i) { return dim(b, loc, source, i); });
  Value copied = gatherInto(b, loc, source, part, [](OpBuilder &, Location, int64_t, Value index) { return index; });
  SmallVector<OpFoldResult> offsetValues, strides(type.getRank(), b.getIndexAttr(1));
  for (int64_t offset : offsets) offsetValues.push_back(b.getIndexAttr(offset));
  return tensor::InsertSliceOp::create(b, loc, copied, destination, offsetValues, tensor::getMixedSizes(b, loc, source),
                                       strides);
}

Value writeInParts(OpBuilder &b, Location loc, Value init, ArrayRef<int64_t> dims, ArrayRef<SmallVector<Value>> bounds,
                   function_ref<Value(OpBuilder &, Location, Value part, ArrayRef<size_t> index)> write) {
  int64_t rank = tensorType(init).getRank();
  SmallVector<size_t> index(dims.size(), 0);
  while (true) {
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), sizes = tensor::getMixedSizes(b, loc, init),
                                                                 strides(rank, b.getIndexAttr(1));
    for (auto [k, d] : llvm::enumerate(dims)) {
      Value first = bounds[k][index[k]], end = bounds[k][index[k] + 1];
      offsets[d] = getAsOpFoldResult(first);
      sizes[d] = getAsOpFoldResult(b.createOrFold<arith::SubIOp>(loc, end, first));
    }
    // A slice of nothing written yet is a tensor.empty of its own, which eliminate-empty-tensors
    // places in the destination (a slice of a tensor.empty it would leave to be allocated).
    Value part = init.getDefiningOp<tensor::EmptyOp>()
                     ? tensor::EmptyOp::create(b, loc, sizes, tensorType(init).getElementType()).getResult()
                     : tensor::ExtractSliceOp::create(b, loc, init, offsets, sizes, strides).getResult();
    init = tensor::InsertSliceOp::create(b, loc, write(b, loc, part, index), init, offsets, sizes, strides);
    size_t k = dims.size();  // the next part, the last dim's index running fastest
    while (k > 0 && ++index[k - 1] + 1 == bounds[k - 1].size()) index[--k] = 0;
    if (k == 0) return init;
  }
}

Value constantIndex(OpBuilder &b, Location loc, int64_t value) { return arith::ConstantIndexOp::create(b, loc, value); }

int64_t normalizedAxis(int64_t axis, int64_t rank) { return axis < 0 ? axis + rank : axis; }

Value isInRange(OpBuilder &b, Location loc, Value index, Value size) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value notBelow = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, index, zero);
  Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, size);
  return arith::AndIOp::create(b, loc, notBelow, below);
}

TypedAttr identityOf(OpBuilder &b, Combine combine, Type type, bool isUnsigned) {
  if (combine == Combine::Sum) return cast<TypedAttr>(b.getZeroAttr(type));
  if (combine == Combine::Prod) return cast<TypedAttr>(b.getOneAttr(type));
  bool max = combine == Combine::Max || combine == Combine::MaxNum;
  if (auto floatType = dyn_cast<FloatType>(type))
    return b.getFloatAttr(type, APFloat::getInf(floatType.getFloatSemantics(), /*Negative=*/max));
  unsigned width = type.getIntOrFloatBitWidth();
  if (isUnsigned) return b.getIntegerAttr(type, max ? APInt::getZero(width) : APInt::getMaxValue(width));
  return b.getIntegerAttr(type, max ? APInt::getSignedMinValue(width) : APInt::getSignedMaxValue(width));
}

Value combineOf(OpBuilder &b, Location loc, Combine combine, Value acc, Value x, bool isUnsigned) {
  bool isFloat = isa<FloatType>(x.getType());
  switch (combine) {
  case Combine::Sum:
    return addOf(b, loc, acc, x, arith::FastMathFlags::reassoc | arith::FastMathFlags::contract);
  case Combine::Prod:
    if (isFloat) return arith::MulFOp::create(b, loc, acc, x, arith::FastMathFlags::reassoc);
    return arith::MulIOp::create(b, loc, acc, x);
  case Combine::MinNum:
    if (isFloat) return arith::MinNumFOp::create(b, loc, acc, x);
    [[fallthrough]];
  case Combine::Min:
    if (isFloat) return arith::MinimumFOp::create(b, loc, acc, x);
    return isUnsigned ? Value(arith::MinUIOp::create(b, loc, acc, x)) : Value(arith::MinSIOp::create(b, loc, acc, x));
  case Combine::MaxNum:
    if (isFloat) return arith::MaxNumFOp::create(b, loc, acc, x);
    break;
  case Combine::Max:
    break;
  }
  if (isFloat) return arith::MaximumFOp::create(b, loc, acc, x);
  return isUnsigned ? Value(arith::MaxUIOp::create(b, loc, acc, x)) : Value(arith::MaxSIOp::create(b, loc, acc, x));
}

Value windowPosition(OpBuilder &b, Location loc, Value out, Value k, int64_t stride, int64_t dilation, Value pad) {
  // Folded as built (x * 1, x + 0): the vectorizer sees a unit stride as a contiguous read.
  Value strided = b.createOrFold<arith::MulIOp>(loc, out, arith::ConstantIndexOp::create(b, loc, stride));
  Value dilated = b.createOrFold<arith::MulIOp>(loc, k, arith::ConstantIndexOp::create(b, loc, dilation));
  return b.createOrFold<arith::SubIOp>(loc, b.createOrFold<arith::AddIOp>(loc, strided, dilated), pad);
}

Value maskedIndex(OpBuilder &b, Location loc, Value position, Value size, Value &valid) {
  Value inside = isInRange(b, loc, position, size);
  valid = valid ? arith::AndIOp::create(b, loc, valid, inside).getResult() : inside;
  return arith::SelectOp::create(b, loc, inside, position, arith::ConstantIndexOp::create(b, loc, 0));
}

Type accumulatorType(Type input) {
  if (input.isInteger(8)) return IntegerType::get(input.getContext(), 32);
  return computeType(input);
}

Value addOf(OpBuilder &b, Location loc, Value x, Value y, arith::FastMathFlags flags) {
  if (!isa<FloatType>(x.getType())) return arith::AddIOp::create(b, loc, x, y);
  return arith::AddFOp::create(b, loc, x, y, flags);
}

Value mulOf(OpBuilder &b, Location loc, Value x, Value y) {
  if (!isa<FloatType>(x.getType())) return arith::MulIOp::create(b, loc, x, y);
  return arith::MulFOp::create(b, loc, x, y, arith::FastMathFlags::contract);
}

} // namespace mlir::aclop
