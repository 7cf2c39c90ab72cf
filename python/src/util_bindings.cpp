// acl.util: addresses of Python buffers and NumPy views of memory, as in pyACL.
#include "bindings.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>

namespace aclpy {

void bindUtil(py::module_ &util) {
  // The data address of a C-contiguous array (no copy: the array must outlive its uses).
  util.def("numpy_to_ptr", [](const py::array &array) {
    if (!(array.flags() & py::array::c_style)) throw py::value_error("numpy_to_ptr needs a C-contiguous array");
    return handleOf(array.data());
  });
  // An array of `shape` and NumPy type (a type number such as 11 for float32, or a dtype)
  // viewing the memory at `ptr` (no copy, not owned).
  util.def("ptr_to_numpy", [](uint64_t ptr, const std::vector<py::ssize_t> &shape, const py::object &type) {
    if (ptr == 0) throw py::value_error("ptr_to_numpy: the address is 0");
    py::dtype dtype = py::isinstance<py::int_>(type) ? py::dtype(type.cast<int>()) : py::dtype::from_args(type);
    py::capsule notOwned(pointer<void>(ptr), [](void *) {});  // a base object: no copy, no free
    return py::array(dtype, shape, pointer<void>(ptr), notOwned);
  });
  util.def("bytes_to_ptr", [](const py::bytes &bytes) {
    return handleOf(PyBytes_AsString(bytes.ptr()));
  });
  util.def("ptr_to_bytes", [](uint64_t ptr, size_t size) {
    if (ptr == 0 && size != 0) throw py::value_error("ptr_to_bytes: the address is 0");
    return py::bytes(pointer<const char>(ptr), size);
  });
}

}  // namespace aclpy
