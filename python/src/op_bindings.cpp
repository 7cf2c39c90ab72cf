// acl.op: attributes, compile, execute_v2, handles, infer_shape, cast, model loading.
// Descriptions, buffers, attributes and handles must be live objects of this module.
#include "bindings.h"

#include <pybind11/stl.h>

namespace aclpy {
namespace {

constexpr int kInvalid = code(ACL_ERROR_INVALID_PARAM);

// The C arrays of one operator call, resolved from lists of handles.
struct OpCall {
  std::vector<aclTensorDesc *> inputDesc, outputDesc;
  std::vector<aclDataBuffer *> inputs, outputs;
  aclopAttr *attr = nullptr;
  bool resolve(const std::vector<uint64_t> &inDesc, const std::vector<uint64_t> &outDesc, uint64_t attrHandle) {
    return resolveAll(inDesc, liveTensorDescs(), inputDesc) && resolveAll(outDesc, liveTensorDescs(), outputDesc) &&
           resolveOne(attrHandle, liveAttrs(), attr, /*allowNull=*/true);
  }
  bool resolveBuffers(const std::vector<uint64_t> &in, const std::vector<uint64_t> &out) {
    // An absent optional input is passed as a NULL buffer.
    return resolveAll(in, liveDataBuffers(), inputs, /*allowNull=*/true) && resolveAll(out, liveDataBuffers(), outputs);
  }
  const aclTensorDesc *const *constInputDesc() const { return inputDesc.data(); }
  const aclTensorDesc *const *constOutputDesc() const { return outputDesc.data(); }
  int numInputs() const { return static_cast<int>(inputDesc.size()); }
  int numOutputs() const { return static_cast<int>(outputDesc.size()); }
};

template <typename T, typename Setter>
int setList(uint64_t attrHandle, const std::string &name, std::vector<T> &values, Setter setter) {
  aclopAttr *attr = nullptr;
  if (!resolveOne(attrHandle, liveAttrs(), attr)) return kInvalid;
  return code(setter(attr, name.c_str(), static_cast<int>(values.size()), values.data()));
}

}  // namespace

void bindOperators(py::module_ &op) {
  // Attributes.
  op.def("create_attr", [] {
    aclopAttr *attr = aclopCreateAttr();
    if (attr) liveAttrs().add(attr);
    return handleOf(attr);
  });
  op.def("destroy_attr", [](uint64_t handle) {
    aclopAttr *attr = pointer<aclopAttr>(handle);
    if (!liveAttrs().remove(attr)) return kInvalid;
    aclopDestroyAttr(attr);
    return code(ACL_SUCCESS);
  });
  auto scalar = [](uint64_t handle, auto set) {
    aclopAttr *attr = nullptr;
    return resolveOne(handle, liveAttrs(), attr) ? code(set(attr)) : kInvalid;
  };
  op.def("set_attr_bool", [scalar](uint64_t a, const std::string &name, bool value) {
    return scalar(a, [&](aclopAttr *attr) { return aclopSetAttrBool(attr, name.c_str(), value); });
  });
  op.def("set_attr_int", [scalar](uint64_t a, const std::string &name, int64_t value) {
    return scalar(a, [&](aclopAttr *attr) { return aclopSetAttrInt(attr, name.c_str(), value); });
  });
  op.def("set_attr_float", [scalar](uint64_t a, const std::string &name, float value) {
    return scalar(a, [&](aclopAttr *attr) { return aclopSetAttrFloat(attr, name.c_str(), value); });
  });
  op.def("set_attr_string", [scalar](uint64_t a, const std::string &name, const std::string &value) {
    return scalar(a, [&](aclopAttr *attr) { return aclopSetAttrString(attr, name.c_str(), value.c_str()); });
  });
  op.def("set_attr_data_type", [scalar](uint64_t a, const std::string &name, int value) {
    return scalar(a, [&](aclopAttr *attr) { return aclopSetAttrDataType(attr, name.c_str(), static_cast<aclDataType>(value)); });
  });
  op.def("set_attr_list_int", [](uint64_t a, const std::string &name, std::vector<int64_t> values) {
    return setList(a, name, values, aclopSetAttrListInt);
  });
  op.def("set_attr_list_float", [](uint64_t a, const std::string &name, std::vector<float> values) {
    return setList(a, name, values, aclopSetAttrListFloat);
  });
  op.def("set_attr_list_bool", [](uint64_t a, const std::string &name, const std::vector<bool> &values) {
    std::vector<uint8_t> bytes(values.begin(), values.end());
    return setList(a, name, bytes, aclopSetAttrListBool);
  });
  op.def("set_attr_list_string", [](uint64_t a, const std::string &name, const std::vector<std::string> &values) {
    std::vector<const char *> texts;
    for (const std::string &value : values) texts.push_back(value.c_str());
    return setList(a, name, texts, aclopSetAttrListString);
  });
  op.def("set_attr_list_data_type", [](uint64_t a, const std::string &name, const std::vector<int> &values) {
    std::vector<aclDataType> types;
    for (int value : values) types.push_back(static_cast<aclDataType>(value));
    return setList(a, name, types, aclopSetAttrListDataType);
  });
  op.def("set_attr_list_list_int", [scalar](uint64_t a, const std::string &name,
                                            const std::vector<std::vector<int64_t>> &values) {
    std::vector<int> counts;
    std::vector<const int64_t *> lists;
    for (const auto &list : values) {
      counts.push_back(static_cast<int>(list.size()));
      lists.push_back(list.data());
    }
    return scalar(a, [&](aclopAttr *attr) {
      return aclopSetAttrListListInt(attr, name.c_str(), static_cast<int>(values.size()), counts.data(), lists.data());
    });
  });

  // Compile and execute.
  op.def("compile", [](const std::string &type, const std::vector<uint64_t> &inDesc,
                       const std::vector<uint64_t> &outDesc, uint64_t attr, int engine, int flag, const py::object &path) {
    OpCall call;
    if (!call.resolve(inDesc, outDesc, attr)) return kInvalid;
    std::string opPath = path.is_none() ? "" : path.cast<std::string>();
    py::gil_scoped_release release;
    return code(aclopCompile(type.c_str(), call.numInputs(), call.constInputDesc(), call.numOutputs(),
                             call.constOutputDesc(), call.attr, static_cast<aclopEngineType>(engine),
                             static_cast<aclopCompileType>(flag), opPath.empty() ? nullptr : opPath.c_str()));
  }, py::arg("op_type"), py::arg("input_desc"), py::arg("output_desc"), py::arg("attr"), py::arg("engine_type") = 0,
     py::arg("compile_flag") = 0, py::arg("op_path") = py::none());
  op.def("execute_v2", [](const std::string &type, const std::vector<uint64_t> &inDesc, const std::vector<uint64_t> &in,
                          const std::vector<uint64_t> &outDesc, const std::vector<uint64_t> &out, uint64_t attr,
                          uint64_t stream) {
    OpCall call;
    if (!call.resolve(inDesc, outDesc, attr) || !call.resolveBuffers(in, out)) return kInvalid;
    py::gil_scoped_release release;
    return code(aclopExecuteV2(type.c_str(), call.numInputs(), call.inputDesc.data(), call.inputs.data(),
                               call.numOutputs(), call.outputDesc.data(), call.outputs.data(), call.attr,
                               pointer<void>(stream)));
  });
  op.def("create_handle", [](const std::string &type, const std::vector<uint64_t> &inDesc,
                             const std::vector<uint64_t> &outDesc, uint64_t attr) {
    OpCall call;
    if (!call.resolve(inDesc, outDesc, attr)) return py::make_tuple(0, kInvalid);
    aclopHandle *handle = nullptr;
    aclError error;
    {
      py::gil_scoped_release release;
      error = aclopCreateHandle(type.c_str(), call.numInputs(), call.constInputDesc(), call.numOutputs(),
                                call.constOutputDesc(), call.attr, &handle);
    }
    return newOpHandle(error, handle);
  });
  op.def("destroy_handle", [](uint64_t handle) {
    aclopHandle *h = pointer<aclopHandle>(handle);
    if (!liveOpHandles().remove(h)) return kInvalid;
    aclopDestroyHandle(h);
    return code(ACL_SUCCESS);
  });
  op.def("exec_with_handle", [](uint64_t handle, const std::vector<uint64_t> &in, const std::vector<uint64_t> &out,
                                uint64_t stream) {
    aclopHandle *h = nullptr;
    OpCall call;
    if (!resolveOne(handle, liveOpHandles(), h) || !call.resolveBuffers(in, out)) return kInvalid;
    std::vector<const aclDataBuffer *> inputs(call.inputs.begin(), call.inputs.end());
    return code(aclopExecWithHandle(h, static_cast<int>(inputs.size()), inputs.data(),
                                    static_cast<int>(call.outputs.size()), call.outputs.data(), pointer<void>(stream)));
  });
  op.def("infer_shape", [](const std::string &type, const std::vector<uint64_t> &inDesc, const std::vector<uint64_t> &in,
                           const std::vector<uint64_t> &outDesc, uint64_t attr) {
    OpCall call;
    if (!call.resolve(inDesc, outDesc, attr) || !resolveAll(in, liveDataBuffers(), call.inputs, true)) return kInvalid;
    py::gil_scoped_release release;
    return code(aclopInferShape(type.c_str(), call.numInputs(), call.inputDesc.data(), call.inputs.data(),
                                call.numOutputs(), call.outputDesc.data(), call.attr));
  });
  op.def("cast", [](uint64_t srcDesc, uint64_t src, uint64_t dstDesc, uint64_t dst, bool truncate, uint64_t stream) {
    aclTensorDesc *from = nullptr, *to = nullptr;
    aclDataBuffer *input = nullptr, *output = nullptr;
    if (!resolveOne(srcDesc, liveTensorDescs(), from) || !resolveOne(dstDesc, liveTensorDescs(), to) ||
        !resolveOne(src, liveDataBuffers(), input) || !resolveOne(dst, liveDataBuffers(), output))
      return kInvalid;
    py::gil_scoped_release release;  // compiles on first use
    return code(aclopCast(from, input, to, output, truncate, pointer<void>(stream)));
  });
  op.def("create_handle_for_cast", [](uint64_t srcDesc, uint64_t dstDesc, bool truncate) {
    aclTensorDesc *from = nullptr, *to = nullptr;
    if (!resolveOne(srcDesc, liveTensorDescs(), from) || !resolveOne(dstDesc, liveTensorDescs(), to))
      return py::make_tuple(0, kInvalid);
    aclopHandle *handle = nullptr;
    aclError error;
    {
      py::gil_scoped_release release;
      error = aclopCreateHandleForCast(from, to, truncate, &handle);
    }
    return newOpHandle(error, handle);
  });
  op.def("set_compile_flag", [](int flag) { return code(aclopSetCompileFlag(static_cast<aclOpCompileFlag>(flag))); });
  op.def("set_model_dir", [](const std::string &dir) {
    py::gil_scoped_release release;
    return code(aclopSetModelDir(dir.c_str()));
  });
  op.def("load", [](const py::object &model, size_t size) {
    return code(aclopLoad(pointer<const void>(addressOf(model)), size));
  });
}

}  // namespace aclpy
