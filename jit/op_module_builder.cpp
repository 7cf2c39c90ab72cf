// Builds the module for one operator instance; the op's result type comes from the dialect's
// shape inference (aclop::createInferredOp), so outputs are never guessed here.
#include "op_module_builder.h"

#include "aclop/AclopOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace aclcpu {

using namespace mlir;

Type toMlirElementType(MLIRContext &context, ElementType type) {
  switch (type) {
    case ElementType::F32: return Float32Type::get(&context);
    case ElementType::F16: return Float16Type::get(&context);
    case ElementType::BF16: return BFloat16Type::get(&context);
    case ElementType::F64: return Float64Type::get(&context);
    case ElementType::I8: return IntegerType::get(&context, 8);
    case ElementType::U8: return IntegerType::get(&context, 8, IntegerType::Unsigned);
    case ElementType::I16: return IntegerType::get(&context, 16);
    case ElementType::I32: return IntegerType::get(&context, 32);
    case ElementType::I64: return IntegerType::get(&context, 64);
    case ElementType::Bool: return IntegerType::get(&context, 1);
  }
  return {};
}

namespace {

std::optional<ElementType> fromMlirElementType(Type type) {
  for (ElementType candidate : {ElementType::F32, ElementType::F16, ElementType::BF16, ElementType::F64, ElementType::I8,
                                ElementType::U8, ElementType::I16, ElementType::I32, ElementType::I64, ElementType::Bool})
    if (toMlirElementType(*type.getContext(), candidate) == type) return candidate;
  return std::nullopt;
}

SmallVector<int64_t> mlirShape(const TensorSpec &tensor) {
  SmallVector<int64_t> shape;
  for (int64_t d : tensor.shape) shape.push_back(d < 0 ? ShapedType::kDynamic : d);
  return shape;
}

Attribute toAttribute(Builder &b, const AttributeValue &value) {
  if (auto *flag = std::get_if<bool>(&value)) return b.getBoolAttr(*flag);
  if (auto *integer = std::get_if<int64_t>(&value)) return b.getI64IntegerAttr(*integer);
  if (auto *real = std::get_if<double>(&value)) return b.getF32FloatAttr(static_cast<float>(*real));
  if (auto *text = std::get_if<std::string>(&value)) return b.getStringAttr(*text);
  if (auto *list = std::get_if<std::vector<int64_t>>(&value)) return b.getDenseI64ArrayAttr(*list);
  return TypeAttr::get(toMlirElementType(*b.getContext(), std::get<TypeValue>(value).type));
}

}  // namespace

OwningOpRef<ModuleOp> buildOpModule(MLIRContext &context, const OpSpec &spec, StringRef kernelName,
                                    std::vector<TensorSpec> &outputs) {
  OpBuilder b(&context);
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  SmallVector<Type> arguments;
  for (const TensorSpec &input : spec.inputs)
    arguments.push_back(MemRefType::get(mlirShape(input), toMlirElementType(context, input.type)));
  arguments.append(2, b.getIndexType());
  b.setInsertionPointToEnd(module->getBody());
  auto func = func::FuncOp::create(b, loc, "compute", b.getFunctionType(arguments, {}));
  func->setAttr("aclop.kernel", b.getStringAttr(kernelName));
  Block *body = func.addEntryBlock();
  b.setInsertionPointToStart(body);
  SmallVector<Value> tensors;
  for (size_t i = 0; i < spec.inputs.size(); ++i) {
    auto memref = cast<MemRefType>(arguments[i]);
    auto tensor = RankedTensorType::get(memref.getShape(), memref.getElementType());
    tensors.push_back(bufferization::ToTensorOp::create(b, loc, tensor, body->getArgument(i), /*restrict=*/true,
                                                         /*writable=*/false));
  }
  SmallVector<NamedAttribute> attributes;
  for (const auto &[name, value] : spec.attributes) attributes.push_back(b.getNamedAttr(name, toAttribute(b, value)));
  FailureOr<Operation *> op =
      aclop::createInferredOp(b, loc, ("aclop." + spec.op).c_str(), tensors, attributes);
  if (failed(op)) return nullptr;
  outputs.clear();
  SmallVector<std::pair<Value, MemRefType>> results;
  for (Value result : (*op)->getResults()) {
    auto type = cast<RankedTensorType>(result.getType());
    std::optional<ElementType> element = fromMlirElementType(type.getElementType());
    if (!element) {
      emitError(loc, "unsupported result element type");
      return nullptr;
    }
    TensorSpec output{*element, {}};
    for (int64_t d : type.getShape()) output.shape.push_back(ShapedType::isDynamic(d) ? -1 : d);
    outputs.push_back(output);
    results.emplace_back(result, MemRefType::get(type.getShape(), type.getElementType()));
  }
  // Outputs go after the inputs, before the block index and count.
  unsigned position = spec.inputs.size();
  for (auto &[result, memref] : results) {
    if (failed(func.insertArgument(position, memref, {}, loc))) return nullptr;
    auto materialize = bufferization::MaterializeInDestinationOp::create(b, loc, result, body->getArgument(position));
    materialize.setRestrict(true);
    materialize.setWritable(true);
    ++position;
  }
  func::ReturnOp::create(b, loc);
  return module;
}

}  // namespace aclcpu
