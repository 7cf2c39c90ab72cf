//===- MapToKernelAbi.cpp - blocks and the aclcpu kernel entry point ------===//
//
// Partitioning: the op lowerings iterate kept/parallel data dimensions first, so the first
// non-unit dimension of every top-level scf.parallel walks the same data rows; giving each
// block an even share of that dimension in every nest keeps all of a block's reads within the
// rows it wrote itself. Anything else that writes memory makes the function single-block.
// Each block runs the function with buffers of its own (its allocations): a nest that reads
// what another wrote (or writes what another read) must give each block exactly the rows it
// gave it there. Such linked nests must run over one range, which then has one grain; where
// they do not (a product over 32-column strips after the patch matrix it reads, 64 against
// 12544 pixels), the function is single-block: those blocks read rows of their own
// allocations that only other blocks wrote.
//
//===----------------------------------------------------------------------===//

#include "aclop/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <numeric>

namespace mlir::aclop {
#define GEN_PASS_DEF_ACLOPMAPTOKERNELABI
#include "aclop/Passes.h.inc"
} // namespace mlir::aclop

using namespace mlir;

namespace {

constexpr int64_t kBlockIdxOffset = 4;  // offsetof(aclcpuBlockCtx, blockIdx)
constexpr int64_t kBlockNumOffset = 8;  // offsetof(aclcpuBlockCtx, blockNum)
constexpr uint32_t kKernelAbiVersion = 1;  // ACLCPU_KERNEL_ABI_VERSION

// True if `op` (with its regions) may write memory other than allocating or freeing it.
bool writesMemory(Operation *op) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects = getEffectsRecursively(op);
  if (!effects) return true;
  return llvm::any_of(*effects, [](const MemoryEffects::EffectInstance &effect) {
    return isa<MemoryEffects::Write>(effect.getEffect());
  });
}

// The first dimension of `loop` whose trip count is not statically 1.
std::optional<unsigned> partitionDim(scf::ParallelOp loop) {
  for (unsigned d = 0; d < loop.getNumLoops(); ++d) {
    auto lb = getConstantIntValue(loop.getLowerBound()[d]), ub = getConstantIntValue(loop.getUpperBound()[d]);
    auto step = getConstantIntValue(loop.getStep()[d]);
    if (lb && ub && step && *step > 0 && (*ub - *lb + *step - 1) / *step <= 1) continue;
    return d;
  }
  return std::nullopt;
}

// Restricts dimension `d` of `loop` to this block's share of its range: block b of B takes
// [lb + g(span * b / B), lb + g(span * (b + 1) / B)) with g rounding down to a multiple of
// `grain` (the last block ends at ub). Nests over the same range use the same grain
// (partitionGrains), so a nest stepping by row tiles and one stepping by rows give each block
// the same rows.
void partition(scf::ParallelOp loop, unsigned d, Value blockIdx, Value blockNum, int64_t grain) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value lb = loop.getLowerBound()[d], ub = loop.getUpperBound()[d];
  Value span = arith::SubIOp::create(b, loc, ub, lb);
  Value granule = arith::ConstantIndexOp::create(b, loc, grain);
  auto boundary = [&](Value block) -> Value {
    Value scaled = arith::DivUIOp::create(b, loc, arith::MulIOp::create(b, loc, span, block), blockNum);
    Value rounded = arith::MulIOp::create(b, loc, arith::DivUIOp::create(b, loc, scaled, granule), granule);
    return arith::AddIOp::create(b, loc, lb, rounded);
  };
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value next = arith::AddIOp::create(b, loc, blockIdx, one);
  Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, next, blockNum);
  Value end = arith::SelectOp::create(b, loc, last, ub, boundary(next));
  loop.getLowerBoundMutable()[d].assign(boundary(blockIdx));
  loop.getUpperBoundMutable()[d].assign(end);
}

// True if `a`'s dimension `da` and `b`'s `db` are known to run over different ranges: both
// constant, and not the same.
bool differentRanges(std::pair<scf::ParallelOp, unsigned> a, std::pair<scf::ParallelOp, unsigned> b) {
  auto bounds = [](std::pair<scf::ParallelOp, unsigned> nest) -> std::optional<std::pair<int64_t, int64_t>> {
    std::optional<int64_t> lb = getConstantIntValue(nest.first.getLowerBound()[nest.second]);
    std::optional<int64_t> ub = getConstantIntValue(nest.first.getUpperBound()[nest.second]);
    if (!lb || !ub) return std::nullopt;
    return std::pair{*lb, *ub};
  };
  auto ra = bounds(a), rb = bounds(b);
  return ra && rb && *ra != *rb;
}

// Each partitioned dimension's grain: the least common multiple of the steps of the partitioned
// dimensions that may run over the same range as it (1 if one of those steps is not a
// constant). Only nests over the same range can give each block the same rows; nests over
// ranges known to differ (a product split at its last whole 12-row tile, 252 rows stepping by
// 12, and its last 4 rows, 256 columns stepping by 32) keep grains of their own, where a common
// one (96) gave one block 96 of the 252 rows and the other 156.
SmallVector<int64_t> partitionGrains(ArrayRef<std::pair<scf::ParallelOp, unsigned>> loops) {
  SmallVector<int64_t> grains;
  for (auto nest : loops) {
    int64_t grain = 1;
    for (auto other : loops) {
      if (differentRanges(nest, other)) continue;
      std::optional<int64_t> step = getConstantIntValue(other.first.getStep()[other.second]);
      if (!step || *step <= 0) {
        grain = 1;
        break;
      }
      grain = std::lcm(grain, *step);
    }
    grains.push_back(grain);
  }
  return grains;
}

// The buffer a memref is a view of: a function argument or an allocation.
Value rootBuffer(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>()) memref = view.getViewSource();
  return memref;
}

// The buffers a nest reads and writes. Buffers whose address escapes (into a ukernel call's
// pointer arguments) or that ops of unknown effects use count as both.
struct BufferUse {
  llvm::SmallDenseSet<Value> reads, writes;
};

BufferUse bufferUse(Operation *nest) {
  BufferUse use;
  nest->walk([&](Operation *op) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    for (Value operand : op->getOperands()) {
      // A view's own users say how it is used.
      if (!isa<BaseMemRefType>(operand.getType()) || isa<ViewLikeOpInterface>(op)) continue;
      Value root = rootBuffer(operand);
      if (!effects || isa<memref::ExtractAlignedPointerAsIndexOp>(op)) {
        use.reads.insert(root);
        use.writes.insert(root);
        continue;
      }
      SmallVector<MemoryEffects::EffectInstance> instances;
      effects.getEffectsOnValue(operand, instances);
      for (const MemoryEffects::EffectInstance &instance : instances) {
        if (isa<MemoryEffects::Read>(instance.getEffect())) use.reads.insert(root);
        if (isa<MemoryEffects::Write>(instance.getEffect())) use.writes.insert(root);
      }
    }
  });
  return use;
}

// True if one nest reads a buffer the other writes (both writing one buffer is not a link: the
// split parts of a product write disjoint rows of it).
bool linked(const BufferUse &a, const BufferUse &b) {
  auto writesWhatReads = [](const BufferUse &writer, const BufferUse &reader) {
    return llvm::any_of(writer.writes, [&](Value buffer) { return reader.reads.contains(buffer); });
  };
  return writesWhatReads(a, b) || writesWhatReads(b, a);
}

// True if both nests' partitioned dims may run over the same range: bounds that are the same
// value, or both constants and equal, or both dynamic (the output's images and the input's are
// different values, equal at run time; what is dynamic cannot be checked here).
bool sameRange(std::pair<scf::ParallelOp, unsigned> a, std::pair<scf::ParallelOp, unsigned> b) {
  auto same = [](Value x, Value y) {
    std::optional<int64_t> cx = getConstantIntValue(x), cy = getConstantIntValue(y);
    return x == y || (cx && cy && *cx == *cy) || (!cx && !cy);
  };
  return same(a.first.getLowerBound()[a.second], b.first.getLowerBound()[b.second]) &&
         same(a.first.getUpperBound()[a.second], b.first.getUpperBound()[b.second]);
}

// True if every two linked nests run over the same range.
bool linkedNestsAgree(ArrayRef<std::pair<scf::ParallelOp, unsigned>> loops) {
  SmallVector<BufferUse> uses;
  for (auto nest : loops) uses.push_back(bufferUse(nest.first));
  for (size_t i = 0; i < loops.size(); ++i)
    for (size_t j = i + 1; j < loops.size(); ++j)
      if (linked(uses[i], uses[j]) && !sameRange(loops[i], loops[j])) return false;
  return true;
}

// Divides the function's work over blocks; returns whether it could.
bool partitionOverBlocks(func::FuncOp func, Value blockIdx, Value blockNum) {
  Block &body = func.getBody().front();
  SmallVector<std::pair<scf::ParallelOp, unsigned>> loops;
  bool divisible = true;
  for (Operation &op : body.without_terminator()) {
    if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
      if (std::optional<unsigned> d = partitionDim(loop)) {
        loops.emplace_back(loop, *d);
        continue;
      }
    }
    if (writesMemory(&op)) divisible = false;
  }
  if (divisible && !loops.empty() && linkedNestsAgree(loops)) {
    SmallVector<int64_t> grains = partitionGrains(loops);
    for (auto [nest, grain] : llvm::zip_equal(loops, grains))
      partition(nest.first, nest.second, blockIdx, blockNum, grain);
    return true;
  }
  // Single block: everything runs under `if (blockIdx == 0)`.
  OpBuilder b(&body, body.begin());
  Location loc = func.getLoc();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, blockIdx, zero);
  auto guard = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
  Block *then = guard.thenBlock();
  SmallVector<Operation *> moved;
  for (Operation &op : llvm::make_range(std::next(Block::iterator(guard)), Block::iterator(body.getTerminator())))
    moved.push_back(&op);
  for (Operation *op : moved) op->moveBefore(then->getTerminator());
  return false;
}

// memref<...> from a data pointer and its sizes: the descriptor LLVM lowering expects,
// made a memref again by an unrealized cast that the LLVM conversion folds away.
Value memrefFromPointer(OpBuilder &b, Location loc, MemRefType type, Value pointer, ArrayRef<Value> dynamicSizes) {
  MLIRContext *context = b.getContext();
  Type i64 = b.getI64Type();
  int64_t rank = type.getRank();
  SmallVector<Type> fields{LLVM::LLVMPointerType::get(context), LLVM::LLVMPointerType::get(context), i64};
  if (rank > 0) fields.append(2, LLVM::LLVMArrayType::get(i64, rank));
  auto descriptorType = LLVM::LLVMStructType::getLiteral(context, fields);
  Value descriptor = LLVM::UndefOp::create(b, loc, descriptorType);
  descriptor = LLVM::InsertValueOp::create(b, loc, descriptor, pointer, ArrayRef<int64_t>{0});
  descriptor = LLVM::InsertValueOp::create(b, loc, descriptor, pointer, ArrayRef<int64_t>{1});
  auto constant = [&](int64_t v) { return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v)); };
  descriptor = LLVM::InsertValueOp::create(b, loc, descriptor, constant(0), ArrayRef<int64_t>{2});
  SmallVector<Value> sizes;
  size_t next = 0;
  for (int64_t i = 0; i < rank; ++i)
    sizes.push_back(type.isDynamicDim(i) ? dynamicSizes[next++] : Value(constant(type.getDimSize(i))));
  Value stride = constant(1);
  for (int64_t i = rank - 1; i >= 0; --i) {  // row-major, contiguous
    descriptor = LLVM::InsertValueOp::create(b, loc, descriptor, sizes[i], ArrayRef<int64_t>{3, i});
    descriptor = LLVM::InsertValueOp::create(b, loc, descriptor, stride, ArrayRef<int64_t>{4, i});
    stride = LLVM::MulOp::create(b, loc, stride, sizes[i]);
  }
  return UnrealizedConversionCastOp::create(b, loc, type, descriptor).getResult(0);
}

Value loadAt(OpBuilder &b, Location loc, Type type, Value base, int64_t offset) {
  Type i8 = b.getI8Type();
  Value address = LLVM::GEPOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()), i8, base,
                                      ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(offset)});
  return LLVM::LoadOp::create(b, loc, type, address);
}

// func.func @<name>(%args: !llvm.ptr, %ctx: !llvm.ptr) -> i32 calling `compute`.
void createEntry(ModuleOp module, func::FuncOp compute, StringRef name) {
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = compute.getLoc();
  MLIRContext *context = b.getContext();
  auto pointer = LLVM::LLVMPointerType::get(context);
  auto entry = func::FuncOp::create(b, loc, name, b.getFunctionType({pointer, pointer}, {b.getI32Type()}));
  Block *body = entry.addEntryBlock();
  b.setInsertionPointToStart(body);
  Value args = body->getArgument(0), ctx = body->getArgument(1);
  SmallVector<MemRefType> buffers;
  for (Type type : compute.getArgumentTypes())
    if (auto memref = dyn_cast<MemRefType>(type)) buffers.push_back(memref);
  int64_t sizeOffset = 8 * static_cast<int64_t>(buffers.size());
  SmallVector<Value> operands;
  for (auto [i, type] : llvm::enumerate(buffers)) {
    Value data = loadAt(b, loc, pointer, args, 8 * static_cast<int64_t>(i));
    SmallVector<Value> dynamicSizes;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!type.isDynamicDim(d)) continue;
      dynamicSizes.push_back(loadAt(b, loc, b.getI64Type(), args, sizeOffset));
      sizeOffset += 8;
    }
    operands.push_back(memrefFromPointer(b, loc, type, data, dynamicSizes));
  }
  for (int64_t offset : {kBlockIdxOffset, kBlockNumOffset}) {
    Value value = loadAt(b, loc, b.getI32Type(), ctx, offset);
    Value wide = arith::ExtUIOp::create(b, loc, b.getI64Type(), value);
    operands.push_back(arith::IndexCastOp::create(b, loc, b.getIndexType(), wide));
  }
  func::CallOp::create(b, loc, compute, operands);
  func::ReturnOp::create(b, loc, ValueRange{arith::ConstantIntOp::create(b, loc, 0, 32).getResult()});
  // The ABI version the runtime checks: const uint32_t <name>__aclcpu_abi.
  b.setInsertionPointToEnd(module.getBody());
  LLVM::GlobalOp::create(b, loc, b.getI32Type(), /*isConstant=*/true, LLVM::Linkage::External,
                         (name + "__aclcpu_abi").str(), b.getI32IntegerAttr(kKernelAbiVersion));
}

struct AclopMapToKernelAbiPass : aclop::impl::AclopMapToKernelAbiBase<AclopMapToKernelAbiPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> kernels;
    module.walk([&](func::FuncOp func) {
      if (func->hasAttr("aclop.kernel")) kernels.push_back(func);
    });
    for (func::FuncOp compute : kernels) {
      auto name = compute->getAttrOfType<StringAttr>("aclop.kernel");
      unsigned n = compute.getNumArguments();
      if (!name || n < 2 || !compute.getArgumentTypes().take_back(2).front().isIndex() ||
          !compute.getArgumentTypes().back().isIndex() || compute.getNumResults() != 0 || compute.isExternal()) {
        compute.emitError("aclop.kernel functions take buffers, then the block index and count, and return nothing");
        return signalPassFailure();
      }
      bool partitioned = partitionOverBlocks(compute, compute.getArgument(n - 2), compute.getArgument(n - 1));
      // Recorded on the module, which the LLVM lowering leaves alone: the launch recipe reads it.
      NamedAttrList recorded(module->getAttrOfType<DictionaryAttr>("aclop.partitioned"));
      recorded.set(name, BoolAttr::get(&getContext(), partitioned));
      module->setAttr("aclop.partitioned", recorded.getDictionary(&getContext()));
      // What a partitioned kernel tells its launch recipe is recorded beside: the blocks per
      // worker it asks for (aclop-tile-and-vectorize: one row tile per block) and the work of
      // one output element, or where a dynamic depth gives it (aclop-select-strategy).
      for (StringRef recipe : {"aclop.blocks_per_worker", "aclop.work_per_element", "aclop.work_depth"}) {
        Attribute value = compute->getAttr(recipe);
        if (!value || !partitioned) continue;
        NamedAttrList perKernel(module->getAttrOfType<DictionaryAttr>(recipe));
        perKernel.set(name, value);
        module->setAttr(recipe, perKernel.getDictionary(&getContext()));
      }
      compute.setPrivate();
      std::string computeName = ("__aclop_compute_" + name.getValue()).str();
      compute.setName(computeName);
      createEntry(module, compute, name.getValue());
    }
  }
};

} // namespace
