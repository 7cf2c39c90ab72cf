//===- LinalgBuilders.h - shared pieces of the aclop lowerings --*- C++ -*-===//
//
// Tensor and linalg construction helpers every aclop -> linalg pattern uses, and the entry
// points of patterns that live in their own files.
//
//===----------------------------------------------------------------------===//
#ifndef ACLOP_CONVERSION_LINALGBUILDERS_H
#define ACLOP_CONVERSION_LINALGBUILDERS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::aclop {

RankedTensorType tensorType(Value value);
// tensor.empty of `type`; `sizeOf(i)` supplies dynamic dimension i.
Value emptyTensor(OpBuilder &b, Location loc, RankedTensorType type, function_ref<Value(int64_t)> sizeOf);
Value dim(OpBuilder &b, Location loc, Value tensor, int64_t index);
Value constantIndex(OpBuilder &b, Location loc, int64_t value);
Value fill(OpBuilder &b, Location loc, Value tensor, TypedAttr value);
// `parallel` parallel iterators followed by `reduction` reduction iterators.
SmallVector<utils::IteratorType> iterators(int64_t parallel, int64_t reduction);
// Casts `value` element-wise (aclop types `from` -> `to`) into a tensor of `resultType`;
// nothing to do when the types agree.
Value castTensor(OpBuilder &b, Location loc, Value value, RankedTensorType resultType, Type from, Type to,
                 bool truncate);

// `init` filled with source[sourceIndex(0, i0), sourceIndex(1, i1), ...] at each index
// (i0, i1, ...): a copy written as reads (tensor.extract), which canonicalization does not fold
// into a strided memref.copy (the kernels have no runtime library to run one).
Value gatherInto(OpBuilder &b, Location loc, Value source, Value init,
                 function_ref<Value(OpBuilder &, Location, int64_t dim, Value index)> sourceIndex);

// `destination` with `source` copied into it at `offsets`: a copy (gatherInto) into a tensor of
// its own, then tensor.insert_slice, which aclop-eliminate-expanded-empty-tensors places in the
// destination's slice, so the copy writes the destination in place.
Value insertCopy(OpBuilder &b, Location loc, Value source, Value destination, ArrayRef<int64_t> offsets);

// `init` written part by part: `bounds[k]` divides dim `dims[k]` (from 0 to its size), and
// each part of that grid, [bounds[k][i_k], bounds[k][i_k + 1]) along each dim, is written by
// `write(b, loc, part, {i_0, i_1, ...})`, where `part` is that slice of `init` (the nest writes it
// in place), and put back with tensor.insert_slice. Each slice is taken from the whole tensor as
// written so far; a part of `init` that is still a tensor.empty is an empty of its own, which
// eliminate-empty-tensors places in the destination (a slice of the empty would be allocated).
Value writeInParts(OpBuilder &b, Location loc, Value init, ArrayRef<int64_t> dims, ArrayRef<SmallVector<Value>> bounds,
                   function_ref<Value(OpBuilder &, Location, Value part, ArrayRef<size_t> index)> write);

// An axis attribute in [-rank, rank) (the op's verifier checked it) as a dim in [0, rank).
int64_t normalizedAxis(int64_t axis, int64_t rank);

// Whether `index` (index type) lies in [0, size): where a read by index may go.
Value isInRange(OpBuilder &b, Location loc, Value index, Value size);
// `position` where it lies in [0, size), else 0: an index that reads in bounds whatever the
// position, the read then masked by `valid`, which is ANDed with the test (or set by it, if null).
Value maskedIndex(OpBuilder &b, Location loc, Value position, Value size, Value &valid);

// The accumulator type of a product of `input` elements.
Type accumulatorType(Type input);
// Float adds and multiplies may fuse into FMAs (`contract`); sums over a reduction may be
// reordered (`reassoc`), which is what lets them vectorize.
Value addOf(OpBuilder &b, Location loc, Value x, Value y, arith::FastMathFlags flags = arith::FastMathFlags::contract);
Value mulOf(OpBuilder &b, Location loc, Value x, Value y);

// How a reduction combines its elements: the identity it starts from (the extreme of the type
// for max and min; `type` signless, `isUnsigned` its signedness) and one combining step. Max
// and Min propagate NaN; MaxNum and MinNum skip it (llvm.maxnum: 3 vector instructions a step on
// x86 against llvm.maximum's 5), for an extreme whose NaN reaches the results another way (a
// softmax's sum) or is looked for apart (ArgMax's scan). On integers they are Max and Min.
enum class Combine { Sum, Prod, Max, Min, MaxNum, MinNum };
TypedAttr identityOf(OpBuilder &b, Combine combine, Type type, bool isUnsigned);
Value combineOf(OpBuilder &b, Location loc, Combine combine, Value acc, Value x, bool isUnsigned);

// sum_k op(a)[.., m, k] * op(b)[.., k, n] in the accumulator type of `inputType` (the
// operands' aclop element type), over dims (batch?, m, k, n): the product generic that
// aclop-select-strategy recognizes and gives GEMM's tiling, packing and ukernels. A batch dim
// of size 1 in an operand is broadcast. `resultShape` gives the result's static sizes.
Value contraction(OpBuilder &b, Location loc, Value lhs, Value rhs, bool transposeA, bool transposeB, bool batched,
                  RankedTensorType resultShape, Type inputType, bool roundToBf16 = false);

// The input position a window element reads (index type): out * stride + k * dilation - pad.
Value windowPosition(OpBuilder &b, Location loc, Value out, Value k, int64_t stride, int64_t dilation, Value pad);

// aclop.conv2d (Conv2DToLinalg.cpp) and aclop.pool2d (Pool2DToLinalg.cpp).
void populateConv2DToLinalgPatterns(const TypeConverter &converter, RewritePatternSet &patterns);
void populatePool2DToLinalgPatterns(const TypeConverter &converter, RewritePatternSet &patterns);

} // namespace mlir::aclop

#endif // ACLOP_CONVERSION_LINALGBUILDERS_H
