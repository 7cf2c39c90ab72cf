//===- ScalarOps.cpp - per-element semantics of aclop ops -----------------===//
#include "ScalarOps.h"

#include "aclop/AclopOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::aclop;

namespace {

bool isUnsigned(Type type) { return type.isUnsignedInteger() || type.isInteger(1); }

Type signless(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type)) return IntegerType::get(type.getContext(), integer.getWidth());
  return type;
}

Value floatConstant(OpBuilder &b, Location loc, Type type, double value) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

Value intConstant(OpBuilder &b, Location loc, Type type, const APInt &value) {
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

// Float -> integer: round toward zero, saturate at the type's range, NaN -> 0.
Value floatToInt(OpBuilder &b, Location loc, Value value, Type to) {
  Type target = signless(to);
  unsigned width = target.getIntOrFloatBitWidth();
  bool isUnsignedTarget = to.isUnsignedInteger();
  Type floatType = value.getType();
  Value converted = isUnsignedTarget ? Value(arith::FPToUIOp::create(b, loc, target, value))
                                     : Value(arith::FPToSIOp::create(b, loc, target, value));
  // Limits as powers of two are exact in every float type: x >= 2^(w-1) (2^w unsigned) is too big.
  double upper = std::ldexp(1.0, isUnsignedTarget ? width : width - 1);
  double lower = isUnsignedTarget ? -1.0 : -upper;
  Value tooBig = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, value, floatConstant(b, loc, floatType, upper));
  Value tooSmall = arith::CmpFOp::create(b, loc, isUnsignedTarget ? arith::CmpFPredicate::OLE : arith::CmpFPredicate::OLT,
                                         value, floatConstant(b, loc, floatType, lower));
  Value isNan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, value, value);
  APInt maxValue = isUnsignedTarget ? APInt::getMaxValue(width) : APInt::getSignedMaxValue(width);
  APInt minValue = isUnsignedTarget ? APInt::getMinValue(width) : APInt::getSignedMinValue(width);
  Value result = arith::SelectOp::create(b, loc, tooBig, intConstant(b, loc, target, maxValue), converted);
  result = arith::SelectOp::create(b, loc, tooSmall, intConstant(b, loc, target, minValue), result);
  return arith::SelectOp::create(b, loc, isNan, intConstant(b, loc, target, APInt::getZero(width)), result);
}

// Integer -> narrower or equal-width integer, saturating at the target's range.
Value saturateInt(OpBuilder &b, Location loc, Value value, Type from, Type to) {
  Type source = signless(from), target = signless(to);
  unsigned sourceWidth = source.getIntOrFloatBitWidth(), targetWidth = target.getIntOrFloatBitWidth();
  bool sourceUnsigned = isUnsigned(from), targetUnsigned = to.isUnsignedInteger();
  APInt maxValue = targetUnsigned ? APInt::getMaxValue(targetWidth) : APInt::getSignedMaxValue(targetWidth);
  APInt minValue = targetUnsigned ? APInt::getMinValue(targetWidth) : APInt::getSignedMinValue(targetWidth);
  // Compare in the source width (sign- or zero-extended limits).
  APInt maxWide = targetUnsigned ? maxValue.zext(sourceWidth) : maxValue.sext(sourceWidth);
  APInt minWide = targetUnsigned ? minValue.zext(sourceWidth) : minValue.sext(sourceWidth);
  if (sourceWidth == targetWidth) {  // ui8 <-> i8
    maxWide = maxValue;
    minWide = minValue;
  }
  Value result = value;
  if (sourceUnsigned) {
    if (!(sourceWidth == targetWidth && targetUnsigned))
      result = arith::MinUIOp::create(b, loc, result, intConstant(b, loc, source, maxWide));
  } else {
    result = arith::MinSIOp::create(b, loc, result, intConstant(b, loc, source, maxWide));
    result = arith::MaxSIOp::create(b, loc, result, intConstant(b, loc, source, targetUnsigned ? APInt::getZero(sourceWidth) : minWide));
  }
  if (targetWidth < sourceWidth) result = arith::TruncIOp::create(b, loc, target, result);
  return result;
}

// f64 -> f32 rounded to odd: the nearest-even result, stepped toward zero when it rounded up
// in magnitude, with the lowest bit set when inexact. A second rounding to a narrower type is
// then correctly rounded (f64 -> bf16 has no library routine on every platform).
Value truncateToOddF32(OpBuilder &b, Location loc, Value x) {
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  Value nearest = arith::TruncFOp::create(b, loc, f32, x);
  Value back = arith::ExtFOp::create(b, loc, x.getType(), nearest);
  Value inexact = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE, back, x);
  Value roundedAway = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, math::AbsFOp::create(b, loc, back),
                                            math::AbsFOp::create(b, loc, x));
  Value bits = arith::BitcastOp::create(b, loc, i32, nearest);
  Value one = arith::ConstantIntOp::create(b, loc, i32, 1);
  Value towardZero = arith::SelectOp::create(b, loc, roundedAway, arith::SubIOp::create(b, loc, bits, one), bits);
  Value odd = arith::OrIOp::create(b, loc, towardZero, one);
  return arith::BitcastOp::create(b, loc, f32, arith::SelectOp::create(b, loc, inexact, odd, bits));
}

// log(1 + u), accurate for small u where 1 + u rounds: log(1 + u) * u / ((1 + u) - 1), which
// cancels the rounding of 1 + u, and u itself where 1 + u rounds to 1 (Goldberg's method); an
// infinite 1 + u gives its log (the correction would be inf / inf).
Value log1p(OpBuilder &b, Location loc, Value u) {
  Type type = u.getType();
  Value one = floatConstant(b, loc, type, 1.0);
  Value onePlus = arith::AddFOp::create(b, loc, one, u);
  Value stored = arith::SubFOp::create(b, loc, onePlus, one);
  Value roundedToOne = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, stored, floatConstant(b, loc, type, 0.0));
  Value logarithm = logOf(b, loc, onePlus);
  Value correction = arith::DivFOp::create(b, loc, u, stored);
  Value corrected = arith::MulFOp::create(b, loc, logarithm, correction);
  Value infinite = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, onePlus,
                                         floatConstant(b, loc, type, std::numeric_limits<double>::infinity()));
  Value finite = arith::SelectOp::create(b, loc, infinite, logarithm, corrected);
  return arith::SelectOp::create(b, loc, roundedToOne, u, finite);
}

// The predicates of a comparison op, for floats and for integers of the given signedness.
std::optional<std::pair<arith::CmpFPredicate, arith::CmpIPredicate>> comparison(Operation *op, bool unsignedInts) {
  using F = arith::CmpFPredicate;
  using I = arith::CmpIPredicate;
  using Result = std::optional<std::pair<F, I>>;
  return llvm::TypeSwitch<Operation *, Result>(op)
      .Case([](EqualOp) { return Result({F::OEQ, I::eq}); })
      .Case([](NotEqualOp) { return Result({F::UNE, I::ne}); })
      .Case([&](GreaterOp) { return Result({F::OGT, unsignedInts ? I::ugt : I::sgt}); })
      .Case([&](GreaterEqualOp) { return Result({F::OGE, unsignedInts ? I::uge : I::sge}); })
      .Case([&](LessOp) { return Result({F::OLT, unsignedInts ? I::ult : I::slt}); })
      .Case([&](LessEqualOp) { return Result({F::OLE, unsignedInts ? I::ule : I::sle}); })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace

Value mlir::aclop::expOf(OpBuilder &b, Location loc, Value x) {
  if (!x.getType().isF32()) return math::ExpOp::create(b, loc, x);
  // Where e^x is subnormal, math.exp flushes it to 0 (below -87.68): there exp(x) = exp(x + c) *
  // e^-c, c being 24 ln 2 to a multiple of 2^-17, x's ulp there, so that x + c is exact (24 ln 2
  // itself rounded the sum by up to 32 ulp of the result). One rounding into the subnormals, as
  // libm's; results from -87.5 up (the normal ones among them) take math.exp directly.
  constexpr double kShift = 16.635528564453125;
  Value low = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, floatConstant(b, loc, x.getType(), -87.5));
  Value shifted = arith::AddFOp::create(b, loc, x, floatConstant(b, loc, x.getType(), kShift));
  Value value = math::ExpOp::create(b, loc, arith::SelectOp::create(b, loc, low, shifted, x));
  Value scale = arith::SelectOp::create(b, loc, low, floatConstant(b, loc, x.getType(), std::exp(-kShift)),
                                        floatConstant(b, loc, x.getType(), 1.0));
  return arith::MulFOp::create(b, loc, value, scale);
}

Value mlir::aclop::logOf(OpBuilder &b, Location loc, Value x) {
  if (!x.getType().isF32()) return math::LogOp::create(b, loc, x);
  // log(x) = log(x * 2^24) - 24 ln 2 for x below the smallest normal (0 and negatives keep
  // their -inf and NaN).
  Value small = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                                      floatConstant(b, loc, x.getType(), std::numeric_limits<float>::min()));
  Value scaled = arith::MulFOp::create(b, loc, x, floatConstant(b, loc, x.getType(), 0x1p24));
  Value value = math::LogOp::create(b, loc, arith::SelectOp::create(b, loc, small, scaled, x));
  Value offset = arith::SelectOp::create(b, loc, small, floatConstant(b, loc, x.getType(), 24 * M_LN2),
                                         floatConstant(b, loc, x.getType(), 0.0));
  return arith::SubFOp::create(b, loc, value, offset);
}

Type mlir::aclop::storageType(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return IntegerType::get(type.getContext(), std::max(8u, integer.getWidth()));
  return type;
}

Value mlir::aclop::fromStorage(OpBuilder &b, Location loc, Value stored, Type type) {
  if (!type.isInteger(1)) return stored;
  Value zero = intConstant(b, loc, stored.getType(), APInt::getZero(stored.getType().getIntOrFloatBitWidth()));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, stored, zero);
}

Value mlir::aclop::toStorage(OpBuilder &b, Location loc, Value value, Type type) {
  if (!type.isInteger(1)) return value;
  return arith::ExtUIOp::create(b, loc, storageType(type), value);
}

Type mlir::aclop::computeType(Type type) {
  if (type.isF16() || type.isBF16()) return Float32Type::get(type.getContext());
  return signless(type);
}

Value mlir::aclop::castScalar(OpBuilder &b, Location loc, Value value, Type from, Type to, bool truncate) {
  if (from == to) return value;
  Type target = signless(to);
  bool fromFloat = isa<FloatType>(from), toFloat = isa<FloatType>(to);
  if (to.isInteger(1)) {  // "not equal to zero"; NaN counts as non-zero
    if (fromFloat)
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, value, floatConstant(b, loc, from, 0.0));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, value,
                                 intConstant(b, loc, signless(from), APInt::getZero(from.getIntOrFloatBitWidth())));
  }
  if (fromFloat && toFloat) {
    unsigned fromWidth = from.getIntOrFloatBitWidth(), toWidth = to.getIntOrFloatBitWidth();
    if (fromWidth == toWidth) {  // f16 <-> bf16: through f32, which holds both exactly
      Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
      return arith::TruncFOp::create(b, loc, target, wide);
    }
    if (fromWidth < toWidth) return arith::ExtFOp::create(b, loc, target, value);
    if (from.isF64() && to.isBF16()) return arith::TruncFOp::create(b, loc, target, truncateToOddF32(b, loc, value));
    return arith::TruncFOp::create(b, loc, target, value);  // one correctly rounded step
  }
  if (!fromFloat && toFloat) {
    return isUnsigned(from) ? Value(arith::UIToFPOp::create(b, loc, target, value))
                            : Value(arith::SIToFPOp::create(b, loc, target, value));
  }
  if (fromFloat) {
    Value wide = from.isF16() || from.isBF16() ? Value(arith::ExtFOp::create(b, loc, b.getF32Type(), value)) : value;
    return floatToInt(b, loc, wide, to);
  }
  unsigned fromWidth = from.getIntOrFloatBitWidth(), toWidth = to.getIntOrFloatBitWidth();
  if (toWidth > fromWidth)
    return isUnsigned(from) ? Value(arith::ExtUIOp::create(b, loc, target, value))
                            : Value(arith::ExtSIOp::create(b, loc, target, value));
  if (truncate) return toWidth < fromWidth ? Value(arith::TruncIOp::create(b, loc, target, value)) : value;
  return saturateInt(b, loc, value, from, to);
}

namespace {

// Integer division that never traps: by 0 the results are 0 (orZero), and MIN / -1 wraps to
// MIN (as -x does). The quotient rounds toward zero; the remainder has the dividend's sign.
struct IntegerDivision {
  OpBuilder &b;
  Location loc;
  Value lhs, rhs, isZero, quotient;
  bool unsignedInts;

  IntegerDivision(OpBuilder &b, Location loc, Value lhs, Value rhs, bool unsignedInts)
      : b(b), loc(loc), lhs(lhs), rhs(rhs), unsignedInts(unsignedInts) {
    Type type = lhs.getType();
    unsigned width = type.getIntOrFloatBitWidth();
    Value zero = intConstant(b, loc, type, APInt::getZero(width));
    Value one = intConstant(b, loc, type, APInt(width, 1));
    isZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, zero);
    Value safe = arith::SelectOp::create(b, loc, isZero, one, rhs);
    if (unsignedInts) {
      quotient = arith::DivUIOp::create(b, loc, lhs, safe);
      return;
    }
    Value minusOne = intConstant(b, loc, type, APInt::getAllOnes(width));
    Value isMinusOne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, safe, minusOne);
    safe = arith::SelectOp::create(b, loc, isMinusOne, one, safe);
    Value divided = arith::DivSIOp::create(b, loc, lhs, safe);
    Value negated = arith::SubIOp::create(b, loc, zero, lhs);
    quotient = arith::SelectOp::create(b, loc, isMinusOne, negated, divided);
  }
  Value zero() const { return intConstant(b, loc, lhs.getType(), APInt::getZero(lhs.getType().getIntOrFloatBitWidth())); }
  // lhs - quotient * rhs (0 for MIN / -1, whose product wraps back to MIN).
  Value remainder() const { return arith::SubIOp::create(b, loc, lhs, arith::MulIOp::create(b, loc, quotient, rhs)); }
  // Signed: whether the remainder is not 0 and its sign is not the divisor's (floor division
  // then takes one off the quotient and adds the divisor to the remainder).
  Value remainderOpposesDivisor() const {
    Value r = remainder();
    Value nonZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, r, zero());
    Value signs = arith::XOrIOp::create(b, loc, r, rhs);
    Value opposite = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, signs, zero());
    return arith::AndIOp::create(b, loc, nonZero, opposite);
  }
  Value orZero(Value result) const { return arith::SelectOp::create(b, loc, isZero, zero(), result); }
};

Value binaryScalar(OpBuilder &b, Location loc, Operation *op, Value lhs, Value rhs, Type type) {
  Type compute = computeType(type);
  bool isFloat = isa<FloatType>(compute), unsignedInts = isUnsigned(type);
  if (compute != signless(type)) {
    lhs = castScalar(b, loc, lhs, type, compute, true);
    rhs = castScalar(b, loc, rhs, type, compute, true);
  }
  Value result = llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](AddOp) { return isFloat ? Value(arith::AddFOp::create(b, loc, lhs, rhs)) : Value(arith::AddIOp::create(b, loc, lhs, rhs)); })
      .Case([&](SubOp) { return isFloat ? Value(arith::SubFOp::create(b, loc, lhs, rhs)) : Value(arith::SubIOp::create(b, loc, lhs, rhs)); })
      .Case([&](MulOp) { return isFloat ? Value(arith::MulFOp::create(b, loc, lhs, rhs)) : Value(arith::MulIOp::create(b, loc, lhs, rhs)); })
      .Case([&](MaximumOp) {
        if (isFloat) return Value(arith::MaximumFOp::create(b, loc, lhs, rhs));
        return unsignedInts ? Value(arith::MaxUIOp::create(b, loc, lhs, rhs)) : Value(arith::MaxSIOp::create(b, loc, lhs, rhs));
      })
      .Case([&](MinimumOp) {
        if (isFloat) return Value(arith::MinimumFOp::create(b, loc, lhs, rhs));
        return unsignedInts ? Value(arith::MinUIOp::create(b, loc, lhs, rhs)) : Value(arith::MinSIOp::create(b, loc, lhs, rhs));
      })
      .Case([&](DivOp) {
        if (isFloat) return Value(arith::DivFOp::create(b, loc, lhs, rhs));
        IntegerDivision division(b, loc, lhs, rhs, unsignedInts);
        return division.orZero(division.quotient);
      })
      .Case([&](FloorDivOp) {
        if (isFloat) return Value(math::FloorOp::create(b, loc, arith::DivFOp::create(b, loc, lhs, rhs)));
        IntegerDivision division(b, loc, lhs, rhs, unsignedInts);
        if (unsignedInts) return division.orZero(division.quotient);
        Value one = intConstant(b, loc, compute, APInt(compute.getIntOrFloatBitWidth(), 1));
        Value lower = arith::SubIOp::create(b, loc, division.quotient, one);
        return division.orZero(arith::SelectOp::create(b, loc, division.remainderOpposesDivisor(), lower, division.quotient));
      })
      .Case([&](FloorModOp) {
        if (isFloat) {
          Value zero = floatConstant(b, loc, compute, 0.0);
          Value remainder = arith::RemFOp::create(b, loc, lhs, rhs);  // fmod: the dividend's sign
          Value nonZero = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, remainder, zero);
          Value opposite = arith::XOrIOp::create(b, loc, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, remainder, zero),
                                                 arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, rhs, zero));
          Value adjust = arith::AndIOp::create(b, loc, nonZero, opposite);
          return Value(arith::SelectOp::create(b, loc, adjust, arith::AddFOp::create(b, loc, remainder, rhs), remainder));
        }
        IntegerDivision division(b, loc, lhs, rhs, unsignedInts);
        if (unsignedInts) return division.orZero(division.remainder());
        Value shifted = arith::AddIOp::create(b, loc, division.remainder(), rhs);
        return division.orZero(arith::SelectOp::create(b, loc, division.remainderOpposesDivisor(), shifted, division.remainder()));
      })
      .Case([&](SquaredDifferenceOp) {
        if (isFloat) {
          Value difference = arith::SubFOp::create(b, loc, lhs, rhs);
          return Value(arith::MulFOp::create(b, loc, difference, difference));
        }
        Value difference = arith::SubIOp::create(b, loc, lhs, rhs);
        return Value(arith::MulIOp::create(b, loc, difference, difference));
      })
      .Case([&](LogicalAndOp) { return Value(arith::AndIOp::create(b, loc, lhs, rhs)); })
      .Case([&](LogicalOrOp) { return Value(arith::OrIOp::create(b, loc, lhs, rhs)); })
      .Case([&](PowOp) {
        if (isFloat) return Value(math::PowFOp::create(b, loc, lhs, rhs));
        if (!unsignedInts) return Value(math::IPowIOp::create(b, loc, lhs, rhs));
        // Unsigned: an exponent of 128..255 must not read as negative; wrapping is width-independent.
        Type wide = b.getI32Type();
        Value base = arith::ExtUIOp::create(b, loc, wide, lhs), exponent = arith::ExtUIOp::create(b, loc, wide, rhs);
        return Value(arith::TruncIOp::create(b, loc, compute, math::IPowIOp::create(b, loc, base, exponent)));
      })
      .Default([](Operation *) { return Value(); });
  if (compute != signless(type)) result = castScalar(b, loc, result, compute, type, true);
  return result;
}

Value unaryScalar(OpBuilder &b, Location loc, Operation *op, Value input, Type type) {
  Type compute = computeType(type);
  bool isFloat = isa<FloatType>(compute);
  Value x = compute != signless(type) ? castScalar(b, loc, input, type, compute, true) : input;
  auto one = [&] { return floatConstant(b, loc, compute, 1.0); };
  Value zero = isFloat ? floatConstant(b, loc, compute, 0.0)
                       : intConstant(b, loc, compute, APInt::getZero(compute.getIntOrFloatBitWidth()));
  Value result = llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](ReluOp) { return isFloat ? Value(arith::MaximumFOp::create(b, loc, x, zero)) : Value(arith::MaxSIOp::create(b, loc, x, zero)); })
      .Case([&](GeluOp) {
        // 0.5 * x * (1 + erf(x / sqrt(2))), the exact form CANN's Gelu approximates, as PyTorch
        // and oneDNN compute it: 1 + erf cancels below about x = -5, where |gelu| < 5e-7 (an
        // absolute error that small). 0.5 * x * erfc(-x / sqrt(2)) keeps the digits but took
        // 1.8x as long (f32, AVX2: 4.2 against 7.6 GB/s).
        Value scaled = arith::MulFOp::create(b, loc, x, floatConstant(b, loc, compute, M_SQRT1_2));
        Value half = arith::MulFOp::create(b, loc, x, floatConstant(b, loc, compute, 0.5));
        Value onePlusErf = arith::AddFOp::create(b, loc, one(), math::ErfOp::create(b, loc, scaled));
        return Value(arith::MulFOp::create(b, loc, half, onePlusErf));
      })
      .Case([&](SigmoidOp) {
        // exp(-x) is subnormal only where 1 + exp(-x) rounds to 1: plain math.exp, not expOf.
        Value negated = arith::NegFOp::create(b, loc, x);
        Value denominator = arith::AddFOp::create(b, loc, one(), math::ExpOp::create(b, loc, negated));
        return Value(arith::DivFOp::create(b, loc, one(), denominator));
      })
      .Case([&](TanhOp) { return Value(math::TanhOp::create(b, loc, x)); })
      .Case([&](ExpOp) { return expOf(b, loc, x); })
      .Case([&](LogOp) { return logOf(b, loc, x); })
      .Case([&](SqrtOp) { return Value(math::SqrtOp::create(b, loc, x)); })
      .Case([&](RsqrtOp) { return Value(math::RsqrtOp::create(b, loc, x)); })
      .Case([&](AbsOp) { return isFloat ? Value(math::AbsFOp::create(b, loc, x)) : Value(math::AbsIOp::create(b, loc, x)); })
      .Case([&](NegOp) { return isFloat ? Value(arith::NegFOp::create(b, loc, x)) : Value(arith::SubIOp::create(b, loc, zero, x)); })
      .Case([&](SquareOp) { return isFloat ? Value(arith::MulFOp::create(b, loc, x, x)) : Value(arith::MulIOp::create(b, loc, x, x)); })
      .Case([&](ReciprocalOp) { return Value(arith::DivFOp::create(b, loc, one(), x)); })
      .Case([&](SignOp) {  // NaN and signed zeros stay as they are
        unsigned width = compute.getIntOrFloatBitWidth();
        Value plus = isFloat ? one() : intConstant(b, loc, compute, APInt(width, 1));
        Value minus = isFloat ? floatConstant(b, loc, compute, -1.0) : intConstant(b, loc, compute, APInt::getAllOnes(width));
        Value positive = isFloat ? Value(arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, zero))
                                 : Value(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, x, zero));
        Value negative = isFloat ? Value(arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, zero))
                                 : Value(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, zero));
        Value otherwise = arith::SelectOp::create(b, loc, negative, minus, x);
        return Value(arith::SelectOp::create(b, loc, positive, plus, otherwise));
      })
      .Case([&](FloorOp) { return Value(math::FloorOp::create(b, loc, x)); })
      .Case([&](CeilOp) { return Value(math::CeilOp::create(b, loc, x)); })
      .Case([&](RoundOp) { return Value(math::RoundEvenOp::create(b, loc, x)); })
      .Case([&](SinOp) { return Value(math::SinOp::create(b, loc, x)); })
      .Case([&](CosOp) { return Value(math::CosOp::create(b, loc, x)); })
      .Case([&](ErfOp) { return Value(math::ErfOp::create(b, loc, x)); })
      .Case([&](SoftplusOp) {
        Value small = expOf(b, loc, arith::NegFOp::create(b, loc, math::AbsFOp::create(b, loc, x)));
        Value positivePart = arith::MaximumFOp::create(b, loc, x, zero);
        return Value(arith::AddFOp::create(b, loc, positivePart, log1p(b, loc, small)));
      })
      .Case([&](Log1pOp) { return log1p(b, loc, x); })
      .Case([&](Expm1Op) {
        // (u - 1) * x / log(u) cancels the rounding of u = exp(x); u rounding to 1 gives x, and
        // u - 1 = -1 (x far below 0) or u = inf give u - 1.
        Value u = expOf(b, loc, x);
        Value uMinusOne = arith::SubFOp::create(b, loc, u, one());
        Value scaled = arith::DivFOp::create(b, loc, arith::MulFOp::create(b, loc, uMinusOne, x), logOf(b, loc, u));
        Value isOne = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, u, one());
        Value saturated = arith::OrIOp::create(
            b, loc, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, uMinusOne, floatConstant(b, loc, compute, -1.0)),
            arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, u,
                                  floatConstant(b, loc, compute, std::numeric_limits<double>::infinity())));
        Value otherwise = arith::SelectOp::create(b, loc, saturated, uMinusOne, scaled);
        return Value(arith::SelectOp::create(b, loc, isOne, x, otherwise));
      })
      .Case([&](ZerosLikeOp) { return zero; })
      .Case([&](OnesLikeOp) {
        return isFloat ? one() : intConstant(b, loc, compute, APInt(compute.getIntOrFloatBitWidth(), 1));
      })
      .Case([&](LogicalNotOp) { return Value(arith::XOrIOp::create(b, loc, x, intConstant(b, loc, compute, APInt(1, 1)))); })
      .Case([&](LeakyReluOp op) {
        Value slope = floatConstant(b, loc, compute, op.getNegativeSlope().convertToFloat());
        Value nonNegative = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, x, zero);
        return Value(arith::SelectOp::create(b, loc, nonNegative, x, arith::MulFOp::create(b, loc, x, slope)));
      })
      .Default([](Operation *) { return Value(); });
  if (compute != signless(type)) result = castScalar(b, loc, result, compute, type, true);
  return result;
}

} // namespace

namespace {

// clip_by_value and add_n, in the compute type.
Value naryScalar(OpBuilder &b, Location loc, Operation *op, ValueRange operands, Type type) {
  Type compute = computeType(type);
  bool widen = compute != signless(type);  // f16 and bf16
  SmallVector<Value> values;
  for (Value operand : operands) values.push_back(widen ? castScalar(b, loc, operand, type, compute, true) : operand);
  bool isFloat = isa<FloatType>(compute), unsignedInts = isUnsigned(type);
  Value result;
  if (isa<ClipByValueOp>(op)) {
    Value raised = isFloat ? Value(arith::MaximumFOp::create(b, loc, values[0], values[1]))
                   : unsignedInts ? Value(arith::MaxUIOp::create(b, loc, values[0], values[1]))
                                  : Value(arith::MaxSIOp::create(b, loc, values[0], values[1]));
    result = isFloat ? Value(arith::MinimumFOp::create(b, loc, raised, values[2]))
             : unsignedInts ? Value(arith::MinUIOp::create(b, loc, raised, values[2]))
                            : Value(arith::MinSIOp::create(b, loc, raised, values[2]));
  } else {  // add_n
    result = values.front();
    for (Value value : ArrayRef<Value>(values).drop_front())
      result = isFloat ? Value(arith::AddFOp::create(b, loc, result, value)) : Value(arith::AddIOp::create(b, loc, result, value));
  }
  return widen ? castScalar(b, loc, result, compute, type, true) : result;
}

Value elementwiseValue(OpBuilder &b, Location loc, Operation *op, ValueRange operands) {
  if (isa<SelectOp>(op)) return arith::SelectOp::create(b, loc, operands[0], operands[1], operands[2]);
  Type type = cast<RankedTensorType>(op->getOperand(0).getType()).getElementType();
  if (isa<ClipByValueOp, AddNOp>(op)) return naryScalar(b, loc, op, operands, type);
  if (auto predicates = comparison(op, isUnsigned(type))) {
    Type compute = computeType(type);  // f16 and bf16 widen exactly
    Value lhs = castScalar(b, loc, operands[0], type, compute, true);
    Value rhs = castScalar(b, loc, operands[1], type, compute, true);
    if (isa<FloatType>(compute)) return arith::CmpFOp::create(b, loc, predicates->first, lhs, rhs);
    return arith::CmpIOp::create(b, loc, predicates->second, lhs, rhs);
  }
  if (operands.size() == 2) return binaryScalar(b, loc, op, operands[0], operands[1], type);
  return unaryScalar(b, loc, op, operands[0], type);
}

} // namespace

Value mlir::aclop::elementwiseScalar(OpBuilder &b, Location loc, Operation *op, ValueRange stored) {
  SmallVector<Value> operands;
  for (auto [value, operand] : llvm::zip(stored, op->getOperands()))
    operands.push_back(fromStorage(b, loc, value, cast<RankedTensorType>(operand.getType()).getElementType()));
  Value result = elementwiseValue(b, loc, op, operands);
  return toStorage(b, loc, result, cast<RankedTensorType>(op->getResult(0).getType()).getElementType());
}
