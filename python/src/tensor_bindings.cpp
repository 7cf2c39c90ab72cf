// acl.create_tensor_desc and friends, data buffers, dtype helpers (top level, as in pyACL).
#include "bindings.h"

#include <pybind11/stl.h>

namespace aclpy {

void bindTensors(py::module_ &acl) {
  acl.def(
      "create_tensor_desc",
      [](int dataType, const std::vector<int64_t> &dims, int format) {
        aclTensorDesc *desc = aclCreateTensorDesc(static_cast<aclDataType>(dataType), static_cast<int>(dims.size()),
                                                  dims.data(), static_cast<aclFormat>(format));
        if (desc) liveTensorDescs().add(desc);
        return handleOf(desc);
      },
      py::arg("data_type"), py::arg("dims"), py::arg("format"));
  acl.def("destroy_tensor_desc", [](uint64_t handle) {
    aclTensorDesc *desc = pointer<aclTensorDesc>(handle);
    if (!liveTensorDescs().remove(desc)) return code(ACL_ERROR_INVALID_PARAM);
    aclDestroyTensorDesc(desc);
    return code(ACL_SUCCESS);
  });
  // Getters on a stale description answer as the C API does for NULL.
  auto desc = [](uint64_t handle) -> const aclTensorDesc * {
    const aclTensorDesc *d = pointer<const aclTensorDesc>(handle);
    return liveTensorDescs().contains(d) ? d : nullptr;
  };
  acl.def("get_tensor_desc_type", [desc](uint64_t d) { return static_cast<int>(aclGetTensorDescType(desc(d))); });
  acl.def("get_tensor_desc_format", [desc](uint64_t d) { return static_cast<int>(aclGetTensorDescFormat(desc(d))); });
  acl.def("get_tensor_desc_num_dims", [desc](uint64_t d) { return aclGetTensorDescNumDims(desc(d)); });
  acl.def("get_tensor_desc_size", [desc](uint64_t d) { return aclGetTensorDescSize(desc(d)); });
  acl.def("get_tensor_desc_element_count", [desc](uint64_t d) { return aclGetTensorDescElementCount(desc(d)); });
  acl.def("get_tensor_desc_dim_v2", [desc](uint64_t d, size_t index) {
    int64_t dim = 0;
    aclError ret = aclGetTensorDescDimV2(desc(d), index, &dim);
    return py::make_tuple(dim, code(ret));
  });
  acl.def("get_tensor_desc_dim_range", [desc](uint64_t d, size_t index) {
    int64_t range[2] = {0, 0};
    aclError ret = aclGetTensorDescDimRange(desc(d), index, 2, range);
    return py::make_tuple(std::vector<int64_t>{range[0], range[1]}, code(ret));
  });
  acl.def("set_tensor_shape_range", [](uint64_t handle, const std::vector<std::vector<int64_t>> &ranges) {
    aclTensorDesc *d = nullptr;
    if (!resolveOne(handle, liveTensorDescs(), d)) return code(ACL_ERROR_INVALID_PARAM);
    std::vector<int64_t> flat;
    for (const auto &range : ranges) {
      if (range.size() != 2) return code(ACL_ERROR_INVALID_PARAM);
      flat.insert(flat.end(), range.begin(), range.end());
    }
    return code(aclSetTensorShapeRange(d, ranges.size(),
                                                    reinterpret_cast<int64_t(*)[ACL_TENSOR_SHAPE_RANGE_NUM]>(flat.data())));
  });
  acl.def("set_tensor_const", [](uint64_t handle, const py::object &data, size_t length) {
    aclTensorDesc *d = nullptr;
    if (!resolveOne(handle, liveTensorDescs(), d)) return code(ACL_ERROR_INVALID_PARAM);
    return code(aclSetTensorConst(d, pointer<void>(addressOf(data)), length));
  });

  acl.def("create_data_buffer", [](uint64_t data, size_t size) {
    aclDataBuffer *buffer = aclCreateDataBuffer(pointer<void>(data), size);
    if (buffer) liveDataBuffers().add(buffer);
    return handleOf(buffer);
  });
  acl.def("destroy_data_buffer", [](uint64_t handle) {
    aclDataBuffer *buffer = pointer<aclDataBuffer>(handle);
    if (!liveDataBuffers().remove(buffer)) return code(ACL_ERROR_INVALID_PARAM);
    return code(aclDestroyDataBuffer(buffer));
  });
  acl.def("get_data_buffer_addr", [](uint64_t handle) {
    aclDataBuffer *buffer = nullptr;
    return resolveOne(handle, liveDataBuffers(), buffer) ? handleOf(aclGetDataBufferAddr(buffer)) : 0;
  });
  acl.def("get_data_buffer_size_v2", [](uint64_t handle) -> size_t {
    aclDataBuffer *buffer = nullptr;
    return resolveOne(handle, liveDataBuffers(), buffer) ? aclGetDataBufferSizeV2(buffer) : 0;
  });
  acl.def("update_data_buffer", [](uint64_t handle, uint64_t data, size_t size) {
    aclDataBuffer *buffer = nullptr;
    if (!resolveOne(handle, liveDataBuffers(), buffer)) return code(ACL_ERROR_INVALID_PARAM);
    return code(aclUpdateDataBuffer(buffer, pointer<void>(data), size));
  });

  acl.def("data_type_size", [](int dataType) { return aclDataTypeSize(static_cast<aclDataType>(dataType)); });
  acl.def("float16_to_float", [](uint16_t value) { return aclFloat16ToFloat(value); });
  acl.def("float_to_float16", [](float value) { return static_cast<uint16_t>(aclFloatToFloat16(value)); });
}

}  // namespace aclpy
