//===- AclopOps.cpp - aclop shape inference and verification --------------===//
//
// Every op infers its result type here; the same code verifies parsed IR (through
// InferTypeOpInterface) and answers aclopInferShape, so there is one definition of shapes.
//
//===----------------------------------------------------------------------===//

#include "aclop/AclopOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::aclop;

namespace {

// Element type classes an op may accept.
enum TypeClass : unsigned { Float = 1, SignedInt = 2, UnsignedInt = 4, Bool = 8 };
constexpr unsigned kNumeric = Float | SignedInt | UnsignedInt;
constexpr unsigned kAnyType = kNumeric | Bool;

unsigned classify(Type type) {
  if (type.isF16() || type.isBF16() || type.isF32() || type.isF64()) return Float;
  if (auto integer = dyn_cast<IntegerType>(type)) {
    unsigned width = integer.getWidth();
    if (width == 1 && integer.isSignless()) return Bool;
    if (integer.isUnsigned() && width == 8) return UnsignedInt;
    if (integer.isSignless() && (width == 8 || width == 16 || width == 32 || width == 64)) return SignedInt;
  }
  return 0;
}

std::string describe(unsigned classes) {
  SmallVector<std::string> parts;
  if (classes & Float) parts.push_back("f16, bf16, f32, f64");
  if (classes & SignedInt) parts.push_back("i8, i16, i32, i64");
  if (classes & UnsignedInt) parts.push_back("ui8");
  if (classes & Bool) parts.push_back("i1");
  return llvm::join(parts, ", ");
}

// Operand access with the checks every op shares.
class Inference {
public:
  Inference(std::optional<Location> loc, StringRef opName) : loc(loc), opName(opName) {}

  LogicalResult fail(const Twine &message) const { return emitOptionalError(loc, "'", opName, "' ", message); }

  FailureOr<RankedTensorType> tensor(Value value, StringRef what, unsigned classes) const {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type) return fail(Twine(what) + " must be a ranked tensor");
    if (!(classify(type.getElementType()) & classes)) {
      std::string element;
      llvm::raw_string_ostream(element) << type.getElementType();
      return fail(Twine(what) + " has element type " + element + "; allowed: " + describe(classes));
    }
    return type;
  }

  FailureOr<RankedTensorType> tensorOfRank(Value value, StringRef what, unsigned classes, int64_t rank) const {
    auto type = tensor(value, what, classes);
    if (failed(type)) return failure();
    if (type->getRank() != rank)
      return fail(Twine(what) + " must have rank " + Twine(rank) + ", not " + Twine(type->getRank()));
    return type;
  }

  // Two sizes of one dimension that must agree (dynamic agrees with anything).
  FailureOr<int64_t> merge(int64_t a, int64_t b, const Twine &what) const {
    if (ShapedType::isDynamic(a)) return b;
    if (ShapedType::isDynamic(b) || a == b) return a;
    return fail(what + " disagree: " + Twine(a) + " vs " + Twine(b));
  }

  // NumPy broadcasting, aligned from the right. A static 1 stretches; a dynamic dim is
  // assumed to equal the other side (it never broadcasts).
  LogicalResult broadcast(ArrayRef<int64_t> a, ArrayRef<int64_t> b, SmallVectorImpl<int64_t> &out) const {
    size_t rank = std::max(a.size(), b.size());
    out.assign(rank, 1);
    for (size_t i = 0; i < rank; ++i) {
      int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
      int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
      if (x == y) out[i] = x;
      else if (x == 1) out[i] = y;
      else if (y == 1) out[i] = x;
      else if (ShapedType::isDynamic(x)) out[i] = y;
      else if (ShapedType::isDynamic(y)) out[i] = x;
      else
        return fail("operand shapes do not broadcast: dimension " + Twine(i) + " is " + Twine(x) + " vs " +
                    Twine(y));
    }
    return success();
  }

  // An [h, w] pair of sizes >= 1 (strides, dilations, windows), and [top, bottom, left, right]
  // pads >= 0: what the windowed ops (conv2d, pool2d) take.
  LogicalResult spatialPair(ArrayRef<int64_t> values, StringRef name) const {
    if (values.size() == 2 && llvm::all_of(values, [](int64_t v) { return v >= 1; })) return success();
    return fail(Twine(name) + " must be 2 values [h, w] >= 1");
  }
  LogicalResult spatialPads(ArrayRef<int64_t> pads) const {
    if (pads.size() == 4 && llvm::all_of(pads, [](int64_t p) { return p >= 0; })) return success();
    return fail("pads must be 4 values [top, bottom, left, right] >= 0");
  }

  // A list attribute with one entry per dim.
  LogicalResult onePerDim(ArrayRef<int64_t> values, StringRef name, int64_t rank) const {
    if (static_cast<int64_t>(values.size()) == rank) return success();
    return fail(Twine(name) + " has " + Twine(values.size()) + " entries for rank " + Twine(rank));
  }

  // Axes in [-rank, rank), distinct, normalized to [0, rank). Empty means every dimension
  // when `emptyMeansAll`.
  LogicalResult axes(ArrayRef<int64_t> axes, int64_t rank, bool emptyMeansAll, SmallVectorImpl<int64_t> &out) const {
    out.clear();
    if (axes.empty()) {
      if (!emptyMeansAll) return fail("axes must not be empty");
      for (int64_t i = 0; i < rank; ++i) out.push_back(i);
      return success();
    }
    llvm::SmallSet<int64_t, 8> seen;
    for (int64_t axis : axes) {
      if (axis < -rank || axis >= rank)
        return fail("axis " + Twine(axis) + " is out of range for rank " + Twine(rank));
      int64_t normalized = axis < 0 ? axis + rank : axis;
      if (!seen.insert(normalized).second) return fail("axis " + Twine(axis) + " appears twice");
      out.push_back(normalized);
    }
    llvm::sort(out);
    return success();
  }

private:
  std::optional<Location> loc;
  StringRef opName;
};

// The result element types a product of `input` elements may have; the first is the default.
SmallVector<Type> productResultTypes(Type input) {
  MLIRContext *context = input.getContext();
  Type f32 = Float32Type::get(context);
  if (input.isF16() || input.isBF16()) return {input, f32};
  if (input.isInteger(8)) return {IntegerType::get(context, 32)};
  return {input};
}

LogicalResult checkProductResult(const Inference &inference, Type input, Type result) {
  auto allowed = productResultTypes(input);
  if (llvm::is_contained(allowed, result)) return success();
  std::string in, out;
  llvm::raw_string_ostream(in) << input;
  llvm::raw_string_ostream(out) << result;
  return inference.fail("cannot produce " + out + " from " + in + " inputs");
}

constexpr unsigned kProductInputs = Float | SignedInt;

LogicalResult checkProductInput(const Inference &inference, RankedTensorType a, RankedTensorType b) {
  Type element = a.getElementType();
  if (element != b.getElementType()) return inference.fail("a and b must have the same element type");
  if (classify(element) == SignedInt && !element.isInteger(8))
    return inference.fail("integer products take i8 inputs");
  return success();
}

// [rows, cols] of op(x) for a 2-d x.
std::pair<int64_t, int64_t> transposed(RankedTensorType type, bool transpose, unsigned offset = 0) {
  auto shape = type.getShape();
  return transpose ? std::make_pair(shape[offset + 1], shape[offset]) : std::make_pair(shape[offset], shape[offset + 1]);
}

// Infers matmul / batch_matmul; `batched` adds a leading (broadcastable) batch dim.
LogicalResult inferProduct(const Inference &inference, Value aValue, Value bValue, Value bias, bool transposeA,
                           bool transposeB, std::optional<Type> resultType, bool batched,
                           SmallVectorImpl<Type> &results) {
  int64_t rank = batched ? 3 : 2;
  auto a = inference.tensorOfRank(aValue, "a", kProductInputs, rank);
  auto b = inference.tensorOfRank(bValue, "b", kProductInputs, rank);
  if (failed(a) || failed(b) || failed(checkProductInput(inference, *a, *b))) return failure();
  Type element = resultType ? *resultType : productResultTypes(a->getElementType()).front();
  if (failed(checkProductResult(inference, a->getElementType(), element))) return failure();
  unsigned offset = batched ? 1 : 0;
  auto [m, ka] = transposed(*a, transposeA, offset);
  auto [kb, n] = transposed(*b, transposeB, offset);
  if (failed(inference.merge(ka, kb, "the contraction sizes of a and b"))) return failure();
  SmallVector<int64_t> shape;
  if (batched) {
    SmallVector<int64_t> batch;
    if (failed(inference.broadcast(a->getShape().take_front(1), b->getShape().take_front(1), batch))) return failure();
    shape.push_back(batch[0]);
  }
  shape.append({m, n});
  if (bias) {
    auto biasType = inference.tensorOfRank(bias, "bias", kProductInputs, 1);
    if (failed(biasType)) return failure();
    if (biasType->getElementType() != a->getElementType() && biasType->getElementType() != element)
      return inference.fail("bias must have the input's or the result's element type");
    if (failed(inference.merge(biasType->getDimSize(0), n, "bias size and N"))) return failure();
  }
  results.push_back(RankedTensorType::get(shape, element));
  return success();
}

// Two operands of one element type in `classes`, broadcast together; the result has the
// operands' element type, or i1 for a comparison.
LogicalResult inferBinary(const Inference &inference, Value lhsValue, Value rhsValue, unsigned classes,
                          bool comparison, SmallVectorImpl<Type> &results) {
  auto lhs = inference.tensor(lhsValue, "lhs", classes);
  auto rhs = inference.tensor(rhsValue, "rhs", classes);
  if (failed(lhs) || failed(rhs)) return failure();
  if (lhs->getElementType() != rhs->getElementType())
    return inference.fail("lhs and rhs must have the same element type");
  SmallVector<int64_t> shape;
  if (failed(inference.broadcast(lhs->getShape(), rhs->getShape(), shape))) return failure();
  Type element = comparison ? IntegerType::get(lhs->getContext(), 1) : lhs->getElementType();
  results.push_back(RankedTensorType::get(shape, element));
  return success();
}

LogicalResult inferUnary(const Inference &inference, Value input, unsigned classes, SmallVectorImpl<Type> &results) {
  auto type = inference.tensor(input, "input", classes);
  if (failed(type)) return failure();
  results.push_back(*type);
  return success();
}

LogicalResult inferReduce(const Inference &inference, Value input, ArrayRef<int64_t> axes, bool keepDims,
                          unsigned classes, SmallVectorImpl<Type> &results) {
  auto type = inference.tensor(input, "input", classes);
  SmallVector<int64_t> reduced;
  if (failed(type) || failed(inference.axes(axes, type->getRank(), /*emptyMeansAll=*/true, reduced)))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < type->getRank(); ++i) {
    if (!llvm::is_contained(reduced, i)) shape.push_back(type->getDimSize(i));
    else if (keepDims) shape.push_back(1);
  }
  results.push_back(RankedTensorType::get(shape, type->getElementType()));
  return success();
}

// Output size of one spatial dim: floor((in + pads - dilated kernel) / stride) + 1.
int64_t convOutputSize(int64_t in, int64_t padBefore, int64_t padAfter, int64_t kernel, int64_t stride,
                       int64_t dilation) {
  if (ShapedType::isDynamic(in)) return ShapedType::kDynamic;
  int64_t span = in + padBefore + padAfter - (dilation * (kernel - 1) + 1);
  return span < 0 ? -1 : span / stride + 1;
}

// Output size of one pooled dim (Pool2DOp's padding modes); -1 when no window fits.
int64_t poolOutputSize(StringRef paddingMode, int64_t in, int64_t padBefore, int64_t padAfter, int64_t window,
                       int64_t stride, bool ceilMode) {
  if (ShapedType::isDynamic(in)) return ShapedType::kDynamic;
  if (in == 0) return 0;  // no windows, whatever the padding
  if (paddingMode == "SAME") return llvm::divideCeil(in, stride);
  int64_t span = in + padBefore + padAfter - window;
  if (span < 0) return -1;
  if (!ceilMode) return span / stride + 1;
  int64_t out = llvm::divideCeil(span, stride) + 1;
  return (out - 1) * stride >= in + padBefore ? out - 1 : out;  // the last window would start in padding
}

} // namespace

std::optional<ConvLayout> mlir::aclop::convLayout(StringRef format, bool filter) {
  if (format == "NCHW") return ConvLayout{0, 1, 2, 3};
  if (format == "NHWC") return ConvLayout{0, 3, 1, 2};
  if (filter && format == "HWCN") return ConvLayout{3, 2, 0, 1};
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Per-op inference
//===----------------------------------------------------------------------===//

LogicalResult Conv2DOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  Inference inference(loc, getOperationName());
  auto input = inference.tensorOfRank(adaptor.getInput(), "input", Float, 4);
  auto filter = inference.tensorOfRank(adaptor.getFilter(), "filter", Float, 4);
  if (failed(input) || failed(filter)) return failure();
  Type element = input->getElementType();
  if (filter->getElementType() != element) return inference.fail("input and filter must have the same element type");
  std::optional<ConvLayout> data = convLayout(adaptor.getDataFormat(), false);
  std::optional<ConvLayout> weights = convLayout(adaptor.getFilterFormat(), true);
  if (!data) return inference.fail("data_format must be NCHW or NHWC, not " + adaptor.getDataFormat());
  if (!weights) return inference.fail("filter_format must be NCHW, NHWC or HWCN, not " + adaptor.getFilterFormat());
  ArrayRef<int64_t> strides = adaptor.getStrides(), pads = adaptor.getPads(), dilations = adaptor.getDilations();
  if (failed(inference.spatialPair(strides, "strides")) || failed(inference.spatialPair(dilations, "dilations")) ||
      failed(inference.spatialPads(pads)))
    return failure();
  int64_t groups = adaptor.getGroups();
  auto in = input->getShape(), w = filter->getShape();
  int64_t channels = in[data->c], outChannels = w[weights->n], groupChannels = w[weights->c];
  int64_t kh = w[weights->h], kw = w[weights->w];
  if (!filter->hasStaticShape() || ShapedType::isDynamic(channels))
    return inference.fail("the filter and the input's channel dim must be static");
  if (groups < 1 || channels != groupChannels * groups || outChannels % groups != 0)
    return inference.fail("groups " + Twine(groups) + " does not divide " + Twine(channels) + " input channels into " +
                          Twine(groupChannels) + " per filter, and " + Twine(outChannels) + " output channels evenly");
  if (Value bias = adaptor.getBias()) {
    auto biasType = inference.tensorOfRank(bias, "bias", Float, 1);
    if (failed(biasType)) return failure();
    if (biasType->getElementType() != element) return inference.fail("bias must have the input's element type");
    if (failed(inference.merge(biasType->getDimSize(0), outChannels, "bias size and output channels")))
      return failure();
  }
  if (kh < 1 || kw < 1) return inference.fail("the filter's height and width must be at least 1");
  if (in[data->h] == 0 || in[data->w] == 0)  // every window would lie in the padding
    return inference.fail("the input's height and width must not be 0");
  int64_t oh = convOutputSize(in[data->h], pads[0], pads[1], kh, strides[0], dilations[0]);
  int64_t ow = convOutputSize(in[data->w], pads[2], pads[3], kw, strides[1], dilations[1]);
  if (oh == -1 || ow == -1)
    return inference.fail("the dilated filter is larger than the padded input (" + Twine(in[data->h]) + "x" +
                          Twine(in[data->w]) + ")");
  SmallVector<int64_t> shape(4);
  shape[data->n] = in[data->n];
  shape[data->c] = outChannels;
  shape[data->h] = oh;
  shape[data->w] = ow;
  results.push_back(RankedTensorType::get(shape, element));
  return success();
}

LogicalResult Pool2DOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  Inference inference(loc, getOperationName());
  StringRef mode = adaptor.getMode(), paddingMode = adaptor.getPaddingMode();
  if (mode != "max" && mode != "avg") return inference.fail("mode must be \"max\" or \"avg\", not " + mode);
  auto input = inference.tensorOfRank(adaptor.getInput(), "input", mode == "max" ? kNumeric : Float, 4);
  if (failed(input)) return failure();
  std::optional<ConvLayout> data = convLayout(adaptor.getDataFormat(), false);
  if (!data) return inference.fail("data_format must be NCHW or NHWC, not " + adaptor.getDataFormat());
  ArrayRef<int64_t> window = adaptor.getWindow(), strides = adaptor.getStrides(), pads = adaptor.getPads();
  if (failed(inference.spatialPair(window, "window")) || failed(inference.spatialPair(strides, "strides")))
    return failure();
  if (paddingMode != "CALCULATED" && paddingMode != "SAME" && paddingMode != "VALID")
    return inference.fail("padding_mode must be CALCULATED, SAME or VALID, not " + paddingMode);
  if (failed(inference.spatialPads(pads))) return failure();
  if (paddingMode != "CALCULATED" && llvm::any_of(pads, [](int64_t p) { return p != 0; }))
    return inference.fail("pads apply to padding_mode CALCULATED only");
  if (pads[0] >= window[0] || pads[1] >= window[0] || pads[2] >= window[1] || pads[3] >= window[1])
    return inference.fail("each pad must be smaller than the window along its axis");
  if (static_cast<int64_t>(adaptor.getDivisorOverride()) < 0) return inference.fail("divisor_override must be >= 0");
  auto in = input->getShape();
  int64_t oh = poolOutputSize(paddingMode, in[data->h], pads[0], pads[1], window[0], strides[0], adaptor.getCeilMode());
  int64_t ow = poolOutputSize(paddingMode, in[data->w], pads[2], pads[3], window[1], strides[1], adaptor.getCeilMode());
  if (oh == -1 || ow == -1)
    return inference.fail("the window is larger than the padded input (" + Twine(in[data->h]) + "x" +
                          Twine(in[data->w]) + ")");
  SmallVector<int64_t> shape(in.begin(), in.end());
  shape[data->h] = oh;
  shape[data->w] = ow;
  results.push_back(RankedTensorType::get(shape, input->getElementType()));
  return success();
}

LogicalResult GemmOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  Inference inference(loc, getOperationName());
  auto a = inference.tensorOfRank(adaptor.getA(), "a", kProductInputs, 2);
  auto b = inference.tensorOfRank(adaptor.getB(), "b", kProductInputs, 2);
  auto c = inference.tensorOfRank(adaptor.getC(), "c", Float | SignedInt, 2);
  auto alpha = inference.tensorOfRank(adaptor.getAlpha(), "alpha", Float | SignedInt, 0);
  auto beta = inference.tensorOfRank(adaptor.getBeta(), "beta", Float | SignedInt, 0);
  if (failed(a) || failed(b) || failed(c) || failed(alpha) || failed(beta)) return failure();
  if (failed(checkProductInput(inference, *a, *b)) ||
      failed(checkProductResult(inference, a->getElementType(), c->getElementType())))
    return failure();
  if (alpha->getElementType() != c->getElementType() || beta->getElementType() != c->getElementType())
    return inference.fail("alpha and beta must have the element type of c");
  auto [m, ka] = transposed(*a, adaptor.getTransposeA());
  auto [kb, n] = transposed(*b, adaptor.getTransposeB());
  if (failed(inference.merge(ka, kb, "the contraction sizes of a and b"))) return failure();
  auto rows = inference.merge(m, c->getDimSize(0), "the row counts of op(a) and c");
  auto cols = inference.merge(n, c->getDimSize(1), "the column counts of op(b) and c");
  if (failed(rows) || failed(cols)) return failure();
  results.push_back(RankedTensorType::get({*rows, *cols}, c->getElementType()));
  return success();
}

LogicalResult MatMulOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  return inferProduct(Inference(loc, getOperationName()), adaptor.getA(), adaptor.getB(), adaptor.getBias(),
                      adaptor.getTransposeA(), adaptor.getTransposeB(), adaptor.getResultType(), /*batched=*/false,
                      results);
}

LogicalResult BatchMatMulOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                              SmallVectorImpl<Type> &results) {
  return inferProduct(Inference(loc, getOperationName()), adaptor.getA(), adaptor.getB(), adaptor.getBias(),
                      adaptor.getTransposeA(), adaptor.getTransposeB(), adaptor.getResultType(), /*batched=*/true,
                      results);
}

LogicalResult CastOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  Inference inference(loc, getOperationName());
  auto input = inference.tensor(adaptor.getInput(), "input", kAnyType);
  if (failed(input)) return failure();
  Type target = adaptor.getDstType();
  if (!(classify(target) & kAnyType)) return inference.fail("dst_type must be one of " + describe(kAnyType));
  results.push_back(RankedTensorType::get(input->getShape(), target));
  return success();
}

#define ACLOP_BINARY_INFERENCE(Op, classes, comparison)                                                   \
  LogicalResult Op::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,          \
                                     SmallVectorImpl<Type> &results) {                                     \
    return inferBinary(Inference(loc, getOperationName()), adaptor.getLhs(), adaptor.getRhs(), classes,    \
                       comparison, results);                                                               \
  }
ACLOP_BINARY_INFERENCE(AddOp, kNumeric, false)
ACLOP_BINARY_INFERENCE(SubOp, kNumeric, false)
ACLOP_BINARY_INFERENCE(MulOp, kNumeric, false)
ACLOP_BINARY_INFERENCE(DivOp, kNumeric, false)
ACLOP_BINARY_INFERENCE(MaximumOp, kNumeric, false)
ACLOP_BINARY_INFERENCE(MinimumOp, kNumeric, false)
ACLOP_BINARY_INFERENCE(PowOp, kNumeric, false)
ACLOP_BINARY_INFERENCE(SquaredDifferenceOp, kNumeric, false)
ACLOP_BINARY_INFERENCE(FloorDivOp, kNumeric, false)
ACLOP_BINARY_INFERENCE(FloorModOp, kNumeric, false)
ACLOP_BINARY_INFERENCE(EqualOp, kAnyType, true)
ACLOP_BINARY_INFERENCE(NotEqualOp, kAnyType, true)
ACLOP_BINARY_INFERENCE(GreaterOp, kNumeric, true)
ACLOP_BINARY_INFERENCE(GreaterEqualOp, kNumeric, true)
ACLOP_BINARY_INFERENCE(LessOp, kNumeric, true)
ACLOP_BINARY_INFERENCE(LessEqualOp, kNumeric, true)
ACLOP_BINARY_INFERENCE(LogicalAndOp, Bool, false)
ACLOP_BINARY_INFERENCE(LogicalOrOp, Bool, false)
#undef ACLOP_BINARY_INFERENCE

LogicalResult SelectOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  Inference inference(loc, getOperationName());
  auto condition = inference.tensor(adaptor.getCondition(), "condition", Bool);
  auto x = inference.tensor(adaptor.getX(), "x", kAnyType);
  auto y = inference.tensor(adaptor.getY(), "y", kAnyType);
  if (failed(condition) || failed(x) || failed(y)) return failure();
  if (x->getElementType() != y->getElementType()) return inference.fail("x and y must have the same element type");
  SmallVector<int64_t> values, shape;
  if (failed(inference.broadcast(x->getShape(), y->getShape(), values)) ||
      failed(inference.broadcast(condition->getShape(), values, shape)))
    return failure();
  results.push_back(RankedTensorType::get(shape, x->getElementType()));
  return success();
}

LogicalResult ClipByValueOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                              SmallVectorImpl<Type> &results) {
  Inference inference(loc, getOperationName());
  auto x = inference.tensor(adaptor.getX(), "x", kNumeric);
  auto low = inference.tensor(adaptor.getLow(), "low", kNumeric);
  auto high = inference.tensor(adaptor.getHigh(), "high", kNumeric);
  if (failed(x) || failed(low) || failed(high)) return failure();
  if (low->getElementType() != x->getElementType() || high->getElementType() != x->getElementType())
    return inference.fail("x, low and high must have the same element type");
  SmallVector<int64_t> bounds, shape;
  if (failed(inference.broadcast(low->getShape(), high->getShape(), bounds)) ||
      failed(inference.broadcast(x->getShape(), bounds, shape)))
    return failure();
  results.push_back(RankedTensorType::get(shape, x->getElementType()));
  return success();
}

LogicalResult AddNOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  Inference inference(loc, getOperationName());
  ValueRange inputs = adaptor.getInputs();
  if (inputs.empty()) return inference.fail("needs at least one input");
  auto first = inference.tensor(inputs.front(), "input 0", kNumeric);
  if (failed(first)) return failure();
  SmallVector<int64_t> shape(first->getShape());
  for (auto [index, value] : llvm::enumerate(inputs)) {
    std::string name = "input " + std::to_string(index);
    auto type = inference.tensor(value, name, kNumeric);
    if (failed(type)) return failure();
    if (type->getElementType() != first->getElementType() || type->getRank() != first->getRank())
      return inference.fail(name + " must have input 0's element type and rank");
    for (int64_t i = 0; i < type->getRank(); ++i) {
      auto merged = inference.merge(shape[i], type->getDimSize(i), Twine("dim ") + Twine(i) + " of the inputs");
      if (failed(merged)) return failure();
      shape[i] = *merged;
    }
  }
  results.push_back(RankedTensorType::get(shape, first->getElementType()));
  return success();
}

#define ACLOP_UNARY_INFERENCE(Op, classes)                                                           \
  LogicalResult Op::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,    \
                                     SmallVectorImpl<Type> &results) {                               \
    return inferUnary(Inference(loc, getOperationName()), adaptor.getInput(), classes, results);     \
  }
ACLOP_UNARY_INFERENCE(ReluOp, Float | SignedInt)
ACLOP_UNARY_INFERENCE(GeluOp, Float)
ACLOP_UNARY_INFERENCE(SigmoidOp, Float)
ACLOP_UNARY_INFERENCE(TanhOp, Float)
ACLOP_UNARY_INFERENCE(ExpOp, Float)
ACLOP_UNARY_INFERENCE(LogOp, Float)
ACLOP_UNARY_INFERENCE(SqrtOp, Float)
ACLOP_UNARY_INFERENCE(RsqrtOp, Float)
ACLOP_UNARY_INFERENCE(AbsOp, Float | SignedInt)
ACLOP_UNARY_INFERENCE(NegOp, Float | SignedInt)
ACLOP_UNARY_INFERENCE(SquareOp, Float | SignedInt)
ACLOP_UNARY_INFERENCE(ReciprocalOp, Float)
ACLOP_UNARY_INFERENCE(SignOp, Float | SignedInt)
ACLOP_UNARY_INFERENCE(FloorOp, Float)
ACLOP_UNARY_INFERENCE(CeilOp, Float)
ACLOP_UNARY_INFERENCE(RoundOp, Float)
ACLOP_UNARY_INFERENCE(SinOp, Float)
ACLOP_UNARY_INFERENCE(CosOp, Float)
ACLOP_UNARY_INFERENCE(ErfOp, Float)
ACLOP_UNARY_INFERENCE(SoftplusOp, Float)
ACLOP_UNARY_INFERENCE(LogicalNotOp, Bool)
ACLOP_UNARY_INFERENCE(LeakyReluOp, Float)
ACLOP_UNARY_INFERENCE(Log1pOp, Float)
ACLOP_UNARY_INFERENCE(Expm1Op, Float)
ACLOP_UNARY_INFERENCE(ZerosLikeOp, kAnyType)
ACLOP_UNARY_INFERENCE(OnesLikeOp, kAnyType)
#undef ACLOP_UNARY_INFERENCE

#define ACLOP_REDUCE_INFERENCE(Op, classes)                                                               \
  LogicalResult Op::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,         \
                                     SmallVectorImpl<Type> &results) {                                    \
    return inferReduce(Inference(loc, getOperationName()), adaptor.getInput(), adaptor.getAxes(),         \
                       adaptor.getKeepDims(), classes, results);                                          \
  }
ACLOP_REDUCE_INFERENCE(ReduceSumOp, kNumeric)
ACLOP_REDUCE_INFERENCE(ReduceMaxOp, kNumeric)
ACLOP_REDUCE_INFERENCE(ReduceMeanOp, Float)
ACLOP_REDUCE_INFERENCE(ReduceMinOp, kNumeric)
ACLOP_REDUCE_INFERENCE(ReduceProdOp, kNumeric)
#undef ACLOP_REDUCE_INFERENCE

LogicalResult inferArgReduce(const Inference &inference, Value input, int64_t axis, std::optional<Type> resultType,
                             SmallVectorImpl<Type> &results) {
  auto type = inference.tensor(input, "input", kNumeric);
  SmallVector<int64_t> reduced;
  if (failed(type) || failed(inference.axes({axis}, type->getRank(), /*emptyMeansAll=*/false, reduced)))
    return failure();
  Type element = resultType ? *resultType : IntegerType::get(type->getContext(), 64);
  if (!element.isSignlessInteger(32) && !element.isSignlessInteger(64))
    return inference.fail("result_type must be i32 or i64");
  SmallVector<int64_t> shape(type->getShape());
  shape.erase(shape.begin() + reduced.front());
  results.push_back(RankedTensorType::get(shape, element));
  return success();
}

LogicalResult ArgMaxOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  return inferArgReduce(Inference(loc, getOperationName()), adaptor.getInput(), static_cast<int64_t>(adaptor.getAxis()),
                        adaptor.getResultType(), results);
}

LogicalResult ArgMinOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  return inferArgReduce(Inference(loc, getOperationName()), adaptor.getInput(), static_cast<int64_t>(adaptor.getAxis()),
                        adaptor.getResultType(), results);
}

// Softmax and log-softmax: a float input, the result its type; axes must not be empty.
#define ACLOP_SOFTMAX_INFERENCE(Op)                                                                            \
  LogicalResult Op::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,              \
                                     SmallVectorImpl<Type> &results) {                                         \
    Inference inference(loc, getOperationName());                                                              \
    auto type = inference.tensor(adaptor.getInput(), "input", Float);                                          \
    SmallVector<int64_t> axes;                                                                                 \
    if (failed(type) || failed(inference.axes(adaptor.getAxes(), type->getRank(), /*emptyMeansAll=*/false, axes))) \
      return failure();                                                                                        \
    results.push_back(*type);                                                                                  \
    return success();                                                                                          \
  }
ACLOP_SOFTMAX_INFERENCE(SoftmaxOp)
ACLOP_SOFTMAX_INFERENCE(LogSoftmaxOp)
#undef ACLOP_SOFTMAX_INFERENCE

LogicalResult LayerNormOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  Inference inference(loc, getOperationName());
  auto type = inference.tensor(adaptor.getInput(), "input", Float);
  if (failed(type)) return failure();
  int64_t rank = type->getRank();
  if (rank == 0) return inference.fail("input must have rank >= 1");
  SmallVector<int64_t> normAxis, paramsAxis;
  if (failed(inference.axes({static_cast<int64_t>(adaptor.getBeginNormAxis())}, rank, false, normAxis)) ||
      failed(inference.axes({static_cast<int64_t>(adaptor.getBeginParamsAxis())}, rank, false, paramsAxis)))
    return failure();
  ArrayRef<int64_t> paramsShape = type->getShape().drop_front(paramsAxis.front());
  for (auto [value, name] : {std::pair{adaptor.getGamma(), "gamma"}, std::pair{adaptor.getBeta(), "beta"}}) {
    auto param = inference.tensorOfRank(value, name, Float, static_cast<int64_t>(paramsShape.size()));
    if (failed(param)) return failure();
    if (param->getElementType() != type->getElementType() && !param->getElementType().isF32())
      return inference.fail(Twine(name) + " must have the input's element type or f32");
    for (auto [i, sizes] : llvm::enumerate(llvm::zip(param->getShape(), paramsShape)))
      if (failed(inference.merge(std::get<0>(sizes), std::get<1>(sizes),
                                 Twine(name) + " dim " + Twine(i) + " and the input's dims from begin_params_axis")))
        return failure();
  }
  if (cast<RankedTensorType>(adaptor.getGamma().getType()).getElementType() !=
      cast<RankedTensorType>(adaptor.getBeta().getType()).getElementType())
    return inference.fail("gamma and beta must have one element type");
  SmallVector<int64_t> statistics(type->getShape());
  for (int64_t i = normAxis.front(); i < rank; ++i) statistics[i] = 1;
  auto statisticsType = RankedTensorType::get(statistics, type->getElementType());
  results.append({*type, statisticsType, statisticsType});
  return success();
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  Inference inference(loc, getOperationName());
  auto type = inference.tensor(adaptor.getInput(), "input", kAnyType);
  if (failed(type)) return failure();
  ArrayRef<int64_t> perm = adaptor.getPerm();
  if (failed(inference.onePerDim(perm, "perm", type->getRank()))) return failure();
  SmallVector<bool> used(perm.size(), false);
  SmallVector<int64_t> shape;
  for (int64_t index : perm) {
    if (index < 0 || index >= type->getRank() || used[index])
      return inference.fail("perm is not a permutation of [0, " + Twine(type->getRank()) + ")");
    used[index] = true;
    shape.push_back(type->getDimSize(index));
  }
  results.push_back(RankedTensorType::get(shape, type->getElementType()));
  return success();
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  Inference inference(loc, getOperationName());
  auto type = inference.tensor(adaptor.getInput(), "input", kAnyType);
  if (failed(type)) return failure();
  ArrayRef<int64_t> offsets = adaptor.getOffsets(), sizes = adaptor.getSizes();
  int64_t rank = type->getRank();
  if (static_cast<int64_t>(offsets.size()) != rank || static_cast<int64_t>(sizes.size()) != rank)
    return inference.fail("offsets and sizes need " + Twine(rank) + " entries each, not " + Twine(offsets.size()) +
                          " and " + Twine(sizes.size()));
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t dim = type->getDimSize(i), offset = offsets[i], size = sizes[i];
    if (ShapedType::isDynamic(dim)) {
      if (offset != 0 || size != -1)
        return inference.fail("dim " + Twine(i) + " is dynamic: only all of it (offset 0, size -1) can be taken");
      shape.push_back(dim);
      continue;
    }
    if (offset < 0 || offset > dim || size < -1 || (size >= 0 && size > dim - offset))
      return inference.fail("dim " + Twine(i) + ": offset " + Twine(offset) + " and size " + Twine(size) +
                            " do not fit in " + Twine(dim));
    shape.push_back(size == -1 ? dim - offset : size);
  }
  results.push_back(RankedTensorType::get(shape, type->getElementType()));
  return success();
}

LogicalResult StridedSliceOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                               SmallVectorImpl<Type> &results) {
  Inference inference(loc, getOperationName());
  auto type = inference.tensor(adaptor.getInput(), "input", kAnyType);
  if (failed(type)) return failure();
  ArrayRef<int64_t> offsets = adaptor.getOffsets(), sizes = adaptor.getSizes(), strides = adaptor.getStrides();
  int64_t rank = type->getRank();
  if (failed(inference.onePerDim(offsets, "offsets", rank)) || failed(inference.onePerDim(sizes, "sizes", rank)) ||
      failed(inference.onePerDim(strides, "strides", rank)))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t dim = type->getDimSize(i), offset = offsets[i], size = sizes[i], stride = strides[i];
    if (ShapedType::isDynamic(dim)) {
      if (offset != 0 || size != -1 || stride != 1)
        return inference.fail("dim " + Twine(i) + " is dynamic: only all of it (offset 0, size -1, stride 1) can be taken");
      shape.push_back(dim);
      continue;
    }
    if (stride == 0) return inference.fail("dim " + Twine(i) + ": the stride must not be 0");
    int64_t span = 0, last = 0;
    bool overflows = size > 0 && (llvm::MulOverflow(size - 1, stride, span) || llvm::AddOverflow(offset, span, last));
    if (size < 0 || (size > 0 && (overflows || offset < 0 || offset >= dim || last < 0 || last >= dim)))
      return inference.fail("dim " + Twine(i) + ": " + Twine(size) + " elements from " + Twine(offset) + " by " +
                            Twine(stride) + " do not fit in " + Twine(dim));
    shape.push_back(size);
  }
  SmallVector<int64_t> shrink;
  if (!adaptor.getShrink().empty() &&
      failed(inference.axes(adaptor.getShrink(), rank, /*emptyMeansAll=*/false, shrink)))
    return failure();
  for (int64_t i : llvm::reverse(shrink)) {
    if (shape[i] != 1) return inference.fail("shrink dim " + Twine(i) + " has " + Twine(shape[i]) + " elements, not 1");
    shape.erase(shape.begin() + i);
  }
  SmallVector<int64_t> newAxes;
  int64_t resultRank = static_cast<int64_t>(shape.size() + adaptor.getNewAxes().size());
  if (!adaptor.getNewAxes().empty() &&
      failed(inference.axes(adaptor.getNewAxes(), resultRank, /*emptyMeansAll=*/false, newAxes)))
    return failure();
  for (int64_t i : newAxes) shape.insert(shape.begin() + i, 1);
  results.push_back(RankedTensorType::get(shape, type->getElementType()));
  return success();
}

LogicalResult BroadcastToOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                              SmallVectorImpl<Type> &results) {
  Inference inference(loc, getOperationName());
  auto type = inference.tensor(adaptor.getInput(), "input", kAnyType);
  if (failed(type)) return failure();
  ArrayRef<int64_t> target = adaptor.getShape();
  int64_t rank = type->getRank(), offset = static_cast<int64_t>(target.size()) - rank;
  if (offset < 0)
    return inference.fail("shape has rank " + Twine(target.size()) + ", less than the input's " + Twine(rank));
  for (int64_t size : target)
    if (size < 0) return inference.fail("shape sizes must be >= 0, not " + Twine(size));
  for (int64_t i = 0; i < rank; ++i) {
    int64_t dim = type->getDimSize(i), want = target[i + offset];
    if (dim != 1 && dim != want && !ShapedType::isDynamic(dim))
      return inference.fail("input dim " + Twine(i) + " (" + Twine(dim) + ") does not broadcast to " + Twine(want));
  }
  results.push_back(RankedTensorType::get(target, type->getElementType()));
  return success();
}

LogicalResult TileOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  Inference inference(loc, getOperationName());
  auto type = inference.tensor(adaptor.getInput(), "input", kAnyType);
  if (failed(type)) return failure();
  ArrayRef<int64_t> multiples = adaptor.getMultiples();
  if (failed(inference.onePerDim(multiples, "multiples", type->getRank()))) return failure();
  SmallVector<int64_t> shape;
  for (auto [dim, multiple] : llvm::zip(type->getShape(), multiples)) {
    if (multiple < 0) return inference.fail("multiples must be >= 0, not " + Twine(multiple));
    if (ShapedType::isDynamic(dim) && multiple != 1)
      return inference.fail("a dynamic dim can only be repeated once, not " + Twine(multiple) + " times");
    shape.push_back(ShapedType::isDynamic(dim) ? dim : dim * multiple);
  }
  results.push_back(RankedTensorType::get(shape, type->getElementType()));
  return success();
}

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  Inference inference(loc, getOperationName());
  ValueRange inputs = adaptor.getInputs();
  if (inputs.empty()) return inference.fail("needs at least one input");
  auto first = inference.tensor(inputs.front(), "input 0", kAnyType);
  if (failed(first)) return failure();
  int64_t rank = first->getRank();
  if (rank == 0) return inference.fail("inputs must have rank >= 1");
  SmallVector<int64_t> normalized;
  if (failed(inference.axes({static_cast<int64_t>(adaptor.getAxis())}, rank, /*emptyMeansAll=*/false, normalized)))
    return failure();
  int64_t axis = normalized.front();
  SmallVector<int64_t> shape(first->getShape());
  shape[axis] = 0;
  for (auto [index, value] : llvm::enumerate(inputs)) {
    std::string name = "input " + std::to_string(index);
    auto type = inference.tensor(value, name, kAnyType);
    if (failed(type)) return failure();
    if (type->getElementType() != first->getElementType() || type->getRank() != rank)
      return inference.fail(name + " must have input 0's element type and rank");
    for (int64_t i = 0; i < rank; ++i) {
      if (i == axis) continue;
      auto merged = inference.merge(shape[i], type->getDimSize(i), Twine("dim ") + Twine(i) + " of the inputs");
      if (failed(merged)) return failure();
      shape[i] = *merged;
    }
    if (type->isDynamicDim(axis)) return inference.fail(name + "'s size along the axis must be static");
    shape[axis] += type->getDimSize(axis);
  }
  results.push_back(RankedTensorType::get(shape, first->getElementType()));
  return success();
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  Inference inference(loc, getOperationName());
  auto type = inference.tensor(adaptor.getInput(), "input", kAnyType);
  if (failed(type)) return failure();
  ArrayRef<int64_t> low = adaptor.getLow(), high = adaptor.getHigh();
  int64_t rank = type->getRank();
  if (static_cast<int64_t>(low.size()) != rank || static_cast<int64_t>(high.size()) != rank)
    return inference.fail("low and high need " + Twine(rank) + " entries each, not " + Twine(low.size()) + " and " +
                          Twine(high.size()));
  StringRef mode = adaptor.getMode();
  if (mode != "constant" && mode != "reflect" && mode != "symmetric" && mode != "edge")
    return inference.fail("mode must be constant, reflect, symmetric or edge, not " + mode);
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i) {
    if (low[i] < 0 || high[i] < 0) return inference.fail("pads must be >= 0");
    int64_t dim = type->getDimSize(i);
    // A dim that may be empty at run time would leave no element to read safely.
    if (ShapedType::isDynamic(dim)) return inference.fail("the input's dims must be static");
    // The padding mirrors or repeats the input: it needs elements to take.
    int64_t most = mode == "reflect"             ? std::max<int64_t>(dim - 1, 0)
                   : mode == "symmetric"         ? dim
                   : mode == "edge" && dim == 0 ? 0
                                                 : -1;  // no bound
    if (most >= 0 && std::max(low[i], high[i]) > most)
      return inference.fail(mode + " padding of dim " + Twine(i) + " (size " + Twine(dim) + ") must be at most " +
                            Twine(most) + " a side, not " + Twine(std::max(low[i], high[i])));
    shape.push_back(dim + low[i] + high[i]);
  }
  results.push_back(RankedTensorType::get(shape, type->getElementType()));
  return success();
}

LogicalResult GatherOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  Inference inference(loc, getOperationName());
  auto params = inference.tensor(adaptor.getParams(), "params", kAnyType);
  auto indices = inference.tensor(adaptor.getIndices(), "indices", SignedInt);
  if (failed(params) || failed(indices)) return failure();
  Type index = indices->getElementType();
  if (!index.isInteger(32) && !index.isInteger(64)) return inference.fail("indices must be i32 or i64");
  int64_t rank = params->getRank();
  if (rank == 0) return inference.fail("params must have rank >= 1");
  SmallVector<int64_t> normalized;
  if (failed(inference.axes({static_cast<int64_t>(adaptor.getAxis())}, rank, /*emptyMeansAll=*/false, normalized)))
    return failure();
  int64_t axis = normalized.front();
  SmallVector<int64_t> shape(params->getShape().take_front(axis));
  llvm::append_range(shape, indices->getShape());
  llvm::append_range(shape, params->getShape().drop_front(axis + 1));
  results.push_back(RankedTensorType::get(shape, params->getElementType()));
  return success();
}

LogicalResult SplitOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  Inference inference(loc, getOperationName());
  auto type = inference.tensor(adaptor.getInput(), "input", kAnyType);
  if (failed(type)) return failure();
  int64_t rank = type->getRank();
  if (rank == 0) return inference.fail("input must have rank >= 1");
  SmallVector<int64_t> normalized;
  if (failed(inference.axes({static_cast<int64_t>(adaptor.getAxis())}, rank, /*emptyMeansAll=*/false, normalized)))
    return failure();
  int64_t axis = normalized.front(), dim = type->getDimSize(axis);
  ArrayRef<int64_t> sizes = adaptor.getSizes();
  if (sizes.empty()) return inference.fail("sizes must not be empty");
  int64_t known = 0, rest = 0;
  for (int64_t size : sizes) {
    if (size < -1) return inference.fail("sizes must be >= 0 or -1, not " + Twine(size));
    if (size == -1 && ++rest > 1) return inference.fail("only one size may be -1");
    if (size > 0) known += size;
  }
  if (ShapedType::isDynamic(dim) && rest == 0)
    return inference.fail("the split dim is dynamic: one size must be -1 (the rest)");
  if (!ShapedType::isDynamic(dim) && (rest ? known > dim : known != dim))
    return inference.fail("sizes sum to " + Twine(known) + ", not the split dim's " + Twine(dim));
  for (int64_t size : sizes) {
    SmallVector<int64_t> shape(type->getShape());
    shape[axis] = size >= 0 ? size : ShapedType::isDynamic(dim) ? dim : dim - known;
    results.push_back(RankedTensorType::get(shape, type->getElementType()));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Creation with inferred result types
//===----------------------------------------------------------------------===//

namespace {

// The operand count an aclop op's ODS definition fixes, if it does.
std::optional<unsigned> fixedArity(Operation *op) {
  if (op->hasTrait<OpTrait::OneOperand>()) return 1;
  if (op->hasTrait<OpTrait::NOperands<2>::Impl>()) return 2;
  if (op->hasTrait<OpTrait::NOperands<3>::Impl>()) return 3;
  if (op->hasTrait<OpTrait::NOperands<5>::Impl>()) return 5;
  return std::nullopt;
}

// Ops with one optional trailing operand (a bias) take their minimum or one more; concat any.
bool acceptsOperandCount(Operation *op, unsigned count) {
  if (isa<ConcatOp, AddNOp>(op)) return count >= 1;
  if (op->hasTrait<OpTrait::AtLeastNOperands<2>::Impl>()) return count == 2 || count == 3;
  std::optional<unsigned> arity = fixedArity(op);
  return arity && count == *arity;
}

// ODS's own checks of operand and result type constraints and of required, well-typed
// attributes, dispatched to the op's class.
template <typename... Ops>
LogicalResult verifyOdsInvariants(Operation *op) {
  LogicalResult result = failure();
  (void)((isa<Ops>(op) ? (result = cast<Ops>(op).verifyInvariantsImpl(), true) : false) || ...);
  return result;
}

} // namespace

FailureOr<Operation *> mlir::aclop::createInferredOp(OpBuilder &builder, Location loc, StringRef name,
                                                     ValueRange operands, ArrayRef<NamedAttribute> attributes) {
  MLIRContext *context = builder.getContext();
  std::optional<RegisteredOperationName> registered = RegisteredOperationName::lookup(name, context);
  if (!registered || registered->getDialectNamespace() != AclopDialect::getDialectNamespace())
    return emitError(loc, "'") << name << "' is not an aclop operation";
  // Create with placeholder result types (they satisfy the result constraints; one for a
  // variadic result list), check arity and the ODS invariants, infer from the op's own
  // properties, then create the op with the real types.
  OperationState state(loc, *registered);
  state.addOperands(operands);
  state.addAttributes(attributes);
  unsigned placeholders = registered->hasTrait<OpTrait::NResults<3>::Impl>() ? 3 : 1;
  state.addTypes(SmallVector<Type>(placeholders, RankedTensorType::get({}, builder.getF32Type())));
  Operation *op = builder.create(state);
  auto discard = [&]() -> FailureOr<Operation *> {
    op->erase();
    return failure();
  };
  if (!acceptsOperandCount(op, op->getNumOperands())) {
    std::optional<unsigned> arity = fixedArity(op);
    const char *counts = isa<ConcatOp, AddNOp>(op) ? "1 or more" : "2 or 3";
    op->emitError() << "takes " << (arity ? std::to_string(*arity) : counts) << " operands, not "
                    << op->getNumOperands();
    return discard();
  }
  if (failed(verifyOdsInvariants<
#define GET_OP_LIST
#include "aclop/AclopOps.cpp.inc"
          >(op)))
    return discard();
  auto inferred = cast<InferTypeOpInterface>(op);
  SmallVector<Type> types;
  if (failed(inferred.inferReturnTypes(context, loc, op->getOperands(), op->getAttrDictionary(),
                                       op->getPropertiesStorage(), op->getRegions(), types)))
    return discard();
  if (types.size() == op->getNumResults()) {
    for (auto [result, type] : llvm::zip(op->getResults(), types)) result.setType(type);
    return op;
  }
  state.types.assign(types.begin(), types.end());  // a variadic result list of another length
  op->erase();
  return builder.create(state);
}

#define GET_OP_CLASSES
#include "aclop/AclopOps.cpp.inc"
