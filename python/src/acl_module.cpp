// The `acl` extension module: pyACL's names and conventions over libascendcl.so.
#include "bindings.h"

#include <pybind11/stl.h>

namespace aclpy {

namespace {
// One never-destroyed set per kind (callbacks may still run while the interpreter exits).
template <int Kind>
LiveObjects &liveSet() {
  static LiveObjects *live = new LiveObjects();
  return *live;
}
}  // namespace

LiveObjects &liveTensorDescs() { return liveSet<0>(); }
LiveObjects &liveDataBuffers() { return liveSet<1>(); }
LiveObjects &liveAttrs() { return liveSet<2>(); }
LiveObjects &liveOpHandles() { return liveSet<3>(); }

py::tuple newOpHandle(aclError error, aclopHandle *handle) {
  if (error == ACL_SUCCESS) liveOpHandles().add(handle);
  return py::make_tuple(handleOf(error == ACL_SUCCESS ? handle : nullptr), code(error));
}

uint64_t addressOf(const py::object &hostData) {
  if (py::isinstance<py::int_>(hostData)) return hostData.cast<uint64_t>();
  if (PyObject_CheckBuffer(hostData.ptr())) {
    py::buffer_info info = py::reinterpret_borrow<py::buffer>(hostData).request();
    return handleOf(info.ptr);
  }
  throw py::type_error("expected an address (int) or a buffer (bytes, bytearray, numpy array)");
}

}  // namespace aclpy

using namespace aclpy;

PYBIND11_MODULE(acl, m) {
  m.doc() = "AscendCL for the CPU (aclcpu), with pyACL's names and conventions";
  m.def(
      "init",
      [](const py::object &configPath) {
        std::string path = configPath.is_none() ? "" : configPath.cast<std::string>();
        py::gil_scoped_release release;
        return code(aclInit(path.empty() ? nullptr : path.c_str()));
      },
      py::arg("config_path") = py::none());
  m.def("finalize", [] { return code(aclFinalize()); }, py::call_guard<py::gil_scoped_release>());
  m.def("get_recent_err_msg", [] {
    const char *message = aclGetRecentErrMsg();
    return std::string(message ? message : "");
  });
  m.def("get_soc_name", [] {  // None before init, as the C call's NULL
    const char *name = aclrtGetSocName();
    return name ? py::object(py::str(name)) : py::object(py::none());
  });
  m.def("get_version", [] {
    int32_t major = 0, minor = 0, patch = 0;
    aclError error = aclrtGetVersion(&major, &minor, &patch);
    return py::make_tuple(major, minor, patch, static_cast<int>(error));
  });
  bindTensors(m);
  py::module_ rt = m.def_submodule("rt", "devices, contexts, streams, events, memory, callbacks, kernel binaries");
  bindRuntime(rt);
  py::module_ op = m.def_submodule("op", "single operators: attributes, compile, execute, handles, cast");
  bindOperators(op);
  py::module_ blas = m.def_submodule("blas", "GEMM and GEMV");
  bindBlas(blas);
  py::module_ util = m.def_submodule("util", "addresses of Python buffers and NumPy views of memory");
  bindUtil(util);
}
