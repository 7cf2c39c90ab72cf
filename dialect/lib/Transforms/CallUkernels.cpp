//===- CallUkernels.cpp - cache tiles that a ukernel computes --------------===//
//
// A product's cache tile marked with a ukernel (aclop-select-strategy) reaches this pass as a
// linalg.generic on memref subviews. It becomes a call that hands the ukernel each operand as
// (aligned base pointer, element offset, strides of the two matrix dims), then rows, columns
// and depth; see kernels/ukernels/ukernels.h for the C side. A tile whose accumulator is a
// temporary filled with zero and read only by GEMM's epilogue (aclop-tile-and-vectorize fuses
// them so) becomes one call in the ukernel's scaled mode, writing the epilogue's result: the
// fill, the epilogue and the temporary go. A tile right after a zero fill of its own
// accumulator (MatMul) becomes a call in scaled mode with alpha 1 and beta 0, which writes C
// without reading it: the fill goes. A bias epilogue folds into the call the same way, as
// alpha = beta = 1 with the bias as Cin: along the columns (MatMul's) each row reads it (row
// stride 0); along the rows (an NCHW convolution's) each row broadcasts its element (column
// stride 0).
//
//===----------------------------------------------------------------------===//

#include "aclop/Passes.h"

#include "GemmEpilogue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::aclop {
#define GEN_PASS_DEF_ACLOPCALLUKERNELS
#include "aclop/Passes.h.inc"
} // namespace mlir::aclop

using namespace mlir;

namespace {

// The position of the result of `map` that is loop dim `dim`, if any.
std::optional<unsigned> resultOf(AffineMap map, unsigned dim) {
  for (unsigned i = 0; i < map.getNumResults(); ++i)
    if (auto expr = dyn_cast<AffineDimExpr>(map.getResult(i)); expr && expr.getPosition() == dim) return i;
  return std::nullopt;
}

// One operand as the ukernel sees it: the two matrix dims of a memref with (batch?, x, y)
// dims, the batch a unit (so the offset already points at it).
struct MatrixOperand {
  Value pointer, offset;
  SmallVector<Value, 2> sizes, strides;
};

std::optional<MatrixOperand> matrixOperand(OpBuilder &b, Location loc, Value memref, AffineMap map, unsigned first,
                                           unsigned second, unsigned loops) {
  std::optional<unsigned> x = resultOf(map, first), y = resultOf(map, second);
  if (!x || !y) return std::nullopt;
  for (unsigned i = 0; i < map.getNumResults(); ++i) {
    if (i == *x || i == *y) continue;
    auto batch = dyn_cast<AffineDimExpr>(map.getResult(i));
    auto constant = dyn_cast<AffineConstantExpr>(map.getResult(i));
    if (!(batch && loops == 4 && batch.getPosition() == 0) && !(constant && constant.getValue() == 0))
      return std::nullopt;
  }
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  MatrixOperand operand;
  operand.pointer = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  operand.offset = metadata.getOffset();
  for (unsigned i : {*x, *y}) {
    operand.sizes.push_back(metadata.getSizes()[i]);
    operand.strides.push_back(metadata.getStrides()[i]);
  }
  return operand;
}

// True if the memref's dim that is loop dim `dim` has a static unit stride.
bool hasUnitStride(Value memref, AffineMap map, unsigned dim) {
  std::optional<unsigned> position = resultOf(map, dim);
  SmallVector<int64_t> strides;
  int64_t offset;
  auto type = cast<MemRefType>(memref.getType());
  return position && succeeded(type.getStridesAndOffset(strides, offset)) && strides[*position] == 1;
}

// The fill and epilogue of a tile's accumulator when the tile can compute them itself: the
// accumulator is a temporary that is filled with zero before the tile, read by GEMM's
// epilogue (or a bias add) after it and otherwise only freed, and the epilogue's c (or bias)
// and result have unit column strides.
struct FusedEpilogue {
  enum class Kind { Scaled, ColumnBias, RowBias };
  linalg::FillOp fill;
  linalg::GenericOp epilogue;
  Kind kind;  // GEMM's alpha/beta epilogue, or acc + bias (aclop::isBiasEpilogue, isRowBiasEpilogue)
};

std::optional<FusedEpilogue> fusedEpilogue(linalg::GenericOp tile) {
  Value accumulator = tile.getDpsInits()[0];
  // Small static temporaries are on the stack (promote-buffers-to-stack), larger ones malloc'd.
  if (!isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(accumulator.getDefiningOp())) return std::nullopt;
  FusedEpilogue fused;
  for (Operation *user : accumulator.getUsers()) {
    if (user == tile.getOperation() || isa<memref::DeallocOp>(user)) continue;
    auto fill = dyn_cast<linalg::FillOp>(user);
    if (fill && !fused.fill && fill->getBlock() == tile->getBlock() && fill->isBeforeInBlock(tile) &&
        aclop::isZeroConstant(fill.value())) {
      fused.fill = fill;
      continue;
    }
    auto epilogue = dyn_cast<linalg::GenericOp>(user);
    if (!epilogue || fused.epilogue || epilogue.getNumLoops() != 2 || epilogue->getBlock() != tile->getBlock() ||
        !tile->isBeforeInBlock(epilogue) || !epilogue.hasPureBufferSemantics() ||
        epilogue.getDpsInputs()[0] != accumulator || llvm::count(epilogue->getOperands(), accumulator) != 1)
      return std::nullopt;
    if (aclop::isBiasEpilogue(epilogue))
      fused.kind = FusedEpilogue::Kind::ColumnBias;
    else if (aclop::isRowBiasEpilogue(epilogue))
      fused.kind = FusedEpilogue::Kind::RowBias;
    else if (aclop::isScaledGemmEpilogue(epilogue))
      fused.kind = FusedEpilogue::Kind::Scaled;
    else
      return std::nullopt;
    fused.epilogue = epilogue;
  }
  if (!fused.fill || !fused.epilogue) return std::nullopt;
  // C's columns, and Cin's where it has them, are contiguous (a row bias has a stride of 0 there).
  SmallVector<AffineMap> maps = fused.epilogue.getIndexingMapsArray();
  if ((fused.kind != FusedEpilogue::Kind::RowBias && !hasUnitStride(fused.epilogue.getDpsInputs()[1], maps[1], 1)) ||
      !hasUnitStride(fused.epilogue.getDpsInits()[0], maps.back(), 1))
    return std::nullopt;
  return fused;
}

// A bias (1-D) as the ukernel's Cin: along the columns every row reads it (row stride 0); along
// the rows each row reads one element of it (column stride 0).
MatrixOperand biasOperand(OpBuilder &b, Location loc, Value bias, bool alongRows) {
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, bias);
  MatrixOperand operand;
  operand.pointer = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, bias);
  operand.offset = metadata.getOffset();
  Value one = arith::ConstantIndexOp::create(b, loc, 1), zero = arith::ConstantIndexOp::create(b, loc, 0);
  operand.sizes = {one, metadata.getSizes()[0]};
  operand.strides = {zero, metadata.getStrides()[0]};
  if (alongRows) {
    std::swap(operand.sizes[0], operand.sizes[1]);
    std::swap(operand.strides[0], operand.strides[1]);
  }
  return operand;
}

// The zero fill of exactly `tile`'s accumulator right before it, if any.
linalg::FillOp zeroFillBefore(linalg::GenericOp tile) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(tile->getPrevNode());
  if (!fill || !fill.hasPureBufferSemantics() || fill.getDpsInits()[0] != tile.getDpsInits()[0] ||
      !aclop::isZeroConstant(fill.value()))
    return {};
  return fill;
}

// A constant 0-d memref of `value` (a private global of the module, made once per name).
Value constantScalar(OpBuilder &b, Operation *inside, StringRef name, TypedAttr value) {
  auto module = inside->getParentOfType<ModuleOp>();
  auto type = MemRefType::get({}, value.getType());
  if (!module.lookupSymbol<memref::GlobalOp>(name)) {
    OpBuilder top = OpBuilder::atBlockBegin(module.getBody());
    memref::GlobalOp::create(top, inside->getLoc(), name, top.getStringAttr("private"), type,
                             DenseElementsAttr::get(RankedTensorType::get({}, value.getType()), value),
                             /*constant=*/true, /*alignment=*/IntegerAttr());
  }
  return memref::GetGlobalOp::create(b, inside->getLoc(), type, name);
}

// The address of a 0-d memref's element, as an index.
Value scalarAddress(OpBuilder &b, Location loc, Value memref) {
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  unsigned bytes = cast<MemRefType>(memref.getType()).getElementTypeBitWidth() / 8;
  Value offset = arith::MulIOp::create(b, loc, metadata.getOffset(), arith::ConstantIndexOp::create(b, loc, bytes));
  return arith::AddIOp::create(b, loc, base, offset);
}

// A tile that does not fit the ukernel's ABI stays a generic: correct, only slower.
enum class Outcome { Called, Skipped, Failed };

Outcome callUkernel(ModuleOp module, linalg::GenericOp tile, StringRef symbol) {
  unsigned loops = tile.getNumLoops();
  if (loops != 3 && loops != 4) return Outcome::Skipped;
  if (loops == 4 && tile.getStaticLoopRanges()[0] != 1) return Outcome::Skipped;
  const unsigned m = loops - 3, k = loops - 2, n = loops - 1;
  Value a = tile.getDpsInputs()[0], b = tile.getDpsInputs()[1], c = tile.getDpsInits()[0];
  SmallVector<AffineMap> maps = tile.getIndexingMapsArray();
  if (!hasUnitStride(c, maps[2], n)) return Outcome::Skipped;
  std::optional<FusedEpilogue> fused = fusedEpilogue(tile);
  linalg::FillOp zeroed = fused ? linalg::FillOp() : zeroFillBefore(tile);
  // In scaled mode the call takes the epilogue's place: its operands (result and c subviews)
  // are defined between the tile and it.
  OpBuilder builder(fused ? fused->epilogue.getOperation() : tile.getOperation());
  Location loc = tile.getLoc();
  std::optional<MatrixOperand> lhs = matrixOperand(builder, loc, a, maps[0], m, k, loops);
  std::optional<MatrixOperand> rhs = matrixOperand(builder, loc, b, maps[1], k, n, loops);
  // Scaled mode writes the epilogue's result (same shape, identity maps) instead of c.
  AffineMap identity = AffineMap::getMultiDimIdentityMap(2, tile.getContext());
  std::optional<MatrixOperand> acc = fused ? matrixOperand(builder, loc, fused->epilogue.getDpsInits()[0], identity,
                                                           0, 1, 2)
                                           : matrixOperand(builder, loc, c, maps[2], m, n, loops);
  using Kind = FusedEpilogue::Kind;
  std::optional<MatrixOperand> cIn;
  if (fused && fused->kind == Kind::Scaled)
    cIn = matrixOperand(builder, loc, fused->epilogue.getDpsInputs()[1], identity, 0, 1, 2);
  else if (fused)
    cIn = biasOperand(builder, loc, fused->epilogue.getDpsInputs()[1], fused->kind == Kind::RowBias);
  if (!lhs || !rhs || !acc || (fused && !cIn))
    return Outcome::Skipped;  // metadata ops left behind are dead: canonicalize drops them
  SmallVector<Value> arguments{lhs->pointer, lhs->offset,     lhs->strides[0], lhs->strides[1],
                               rhs->pointer, rhs->offset,     rhs->strides[0], rhs->strides[1],
                               acc->pointer, acc->offset,     acc->strides[0], acc->sizes[0],
                               acc->sizes[1], lhs->sizes[1]};
  // Scaled mode: alpha, beta (0-d memrefs) and Cin. GEMM's epilogue brings its own; after a
  // zero fill, C = 1 * P + 0 * C (C, as Cin, is not read).
  // A bias: C = 1 * P + 1 * bias.
  Value alpha, beta;
  Type element = cast<MemRefType>(c.getType()).getElementType();
  std::string suffix;
  llvm::raw_string_ostream(suffix) << element;
  auto one = [&] {
    return constantScalar(builder, tile, "__aclop_one_" + suffix, cast<TypedAttr>(builder.getOneAttr(element)));
  };
  if (fused && fused->kind == Kind::Scaled) {
    alpha = fused->epilogue.getDpsInputs()[2];
    beta = fused->epilogue.getDpsInputs()[3];
  } else if (fused) {
    alpha = beta = one();
  } else if (zeroed) {
    alpha = one();
    beta = constantScalar(builder, tile, "__aclop_zero_" + suffix, cast<TypedAttr>(builder.getZeroAttr(element)));
    cIn = acc;
  }
  if (alpha)
    arguments.append({scalarAddress(builder, loc, alpha), scalarAddress(builder, loc, beta), cIn->pointer, cIn->offset,
                      cIn->strides[0], cIn->strides[1]});
  else  // accumulate mode
    arguments.append(6, arith::ConstantIndexOp::create(builder, loc, 0));
  SmallVector<Type> types(arguments.size(), builder.getIndexType());
  auto type = builder.getFunctionType(types, {});
  auto callee = module.lookupSymbol<func::FuncOp>(symbol);
  if (!callee) {
    OpBuilder top = OpBuilder::atBlockBegin(module.getBody());
    callee = func::FuncOp::create(top, loc, symbol, type);
    callee.setPrivate();
  } else if (callee.getFunctionType() != type) {
    tile.emitOpError("ukernel ") << symbol << " is declared with another type";
    return Outcome::Failed;
  }
  func::CallOp::create(builder, loc, callee, arguments);
  tile.erase();
  if (zeroed) zeroed.erase();
  if (fused) {  // the temporary is left with its allocation (and deallocation): canonicalize drops them
    fused->epilogue.erase();
    fused->fill.erase();
  }
  return Outcome::Called;
}

struct AclopCallUkernelsPass : aclop::impl::AclopCallUkernelsBase<AclopCallUkernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::pair<linalg::GenericOp, StringAttr>> tiles;
    module.walk([&](linalg::GenericOp generic) {
      auto strategy = generic->getAttrOfType<DictionaryAttr>("aclop.strategy");
      auto symbol = strategy ? strategy.getAs<StringAttr>("ukernel") : StringAttr();
      if (symbol && generic.hasPureBufferSemantics()) tiles.push_back({generic, symbol});
    });
    for (auto [tile, symbol] : tiles)
      if (callUkernel(module, tile, symbol.getValue()) == Outcome::Failed) return signalPassFailure();
  }
};

} // namespace
