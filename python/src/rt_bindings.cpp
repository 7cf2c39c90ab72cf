// acl.rt: devices, contexts, streams, events, memory, callbacks and the kernel-binary flow.
// Calls that can block (synchronize, copies, process_report) release the GIL.
#include "bindings.h"

#include <pybind11/stl.h>

#include <memory>

namespace aclpy {
namespace {

template <typename T>
py::tuple valueAnd(T value, aclError error) {
  return py::make_tuple(value, code(error));
}

// A Python callable and its argument, carried through aclrtLaunchCallback's userData or
// aclrtLaunchHostFunc's args; `where` names the binding in reports of its exceptions.
struct PythonCallback {
  py::function function;
  py::object userData;
  const char *where;
};

// Runs on the thread that called process_report (a callback) or on the worker running the stream
// (a host function), the GIL released by the Python thread that waits: takes the GIL, calls, and
// reports an exception as unraisable instead of letting it unwind into the runtime.
void runPythonCallback(void *data) {
  py::gil_scoped_acquire gil;
  std::unique_ptr<PythonCallback> callback(static_cast<PythonCallback *>(data));
  try {
    callback->function(callback->userData);
  } catch (py::error_already_set &error) {
    error.discard_as_unraisable(callback->where);
  } catch (const std::exception &error) {
    PyErr_SetString(PyExc_RuntimeError, error.what());
    PyErr_WriteUnraisable(callback->function.ptr());
  }
}

// pyACL spells option and attribute lists as [{"type"/"id": t, "value": v}, ...].
std::vector<std::pair<int64_t, int64_t>> pairs(const py::object &list, const char *key) {
  std::vector<std::pair<int64_t, int64_t>> out;
  if (list.is_none() || (py::isinstance<py::int_>(list) && list.cast<int64_t>() == 0)) return out;
  for (const py::handle item : list.cast<py::list>()) {
    py::dict entry = item.cast<py::dict>();
    out.emplace_back(entry[key].cast<int64_t>(), entry["value"].cast<int64_t>());
  }
  return out;
}

aclError loadBinary(const std::string *path, const py::bytes *data, const py::object &options, aclrtBinHandle &handle) {
  std::vector<aclrtBinaryLoadOption> list;
  for (auto [type, value] : pairs(options, "type")) {
    aclrtBinaryLoadOption option{};
    option.type = static_cast<aclrtBinaryLoadOptionType>(type);
    if (type == ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE) option.value.cpuKernelMode = static_cast<int32_t>(value);
    else option.value.rsv[0] = static_cast<uint32_t>(value);
    list.push_back(option);
  }
  aclrtBinaryLoadOptions all{list.data(), list.size()};
  aclrtBinaryLoadOptions *optionsArg = list.empty() ? nullptr : &all;
  if (path) {
    py::gil_scoped_release release;
    return aclrtBinaryLoadFromFile(path->c_str(), optionsArg, &handle);
  }
  std::string_view bytes = *data;
  return aclrtBinaryLoadFromData(bytes.data(), bytes.size(), optionsArg, &handle);
}

}  // namespace

void bindRuntime(py::module_ &rt) {
  using Release = py::call_guard<py::gil_scoped_release>;
  // Devices and contexts.
  rt.def("set_device", [](int32_t device) { return code(aclrtSetDevice(device)); });
  rt.def("reset_device", [](int32_t device) { return code(aclrtResetDevice(device)); }, Release());
  rt.def("reset_device_force", [](int32_t device) { return code(aclrtResetDeviceForce(device)); }, Release());
  rt.def("get_device", [] {
    int32_t device = -1;
    aclError error = aclrtGetDevice(&device);
    return valueAnd(device, error);
  });
  rt.def("get_device_count", [] {
    uint32_t count = 0;
    aclError error = aclrtGetDeviceCount(&count);
    return valueAnd(count, error);
  });
  rt.def("get_device_info", [](uint32_t device, int attr) {
    int64_t value = 0;
    aclError error = aclrtGetDeviceInfo(device, static_cast<aclrtDevAttr>(attr), &value);
    return valueAnd(value, error);
  });
  rt.def("get_run_mode", [] {
    aclrtRunMode mode = ACL_HOST;
    aclError error = aclrtGetRunMode(&mode);
    return valueAnd(static_cast<int>(mode), error);
  });
  rt.def("create_context", [](int32_t device) {
    aclrtContext context = nullptr;
    aclError error = aclrtCreateContext(&context, device);
    return valueAnd(handleOf(context), error);
  });
  rt.def("destroy_context", [](uint64_t context) { return code(aclrtDestroyContext(pointer<void>(context))); }, Release());
  rt.def("set_context", [](uint64_t context) { return code(aclrtSetCurrentContext(pointer<void>(context))); });
  rt.def("get_context", [] {
    aclrtContext context = nullptr;
    aclError error = aclrtGetCurrentContext(&context);
    return valueAnd(handleOf(context), error);
  });

  // Device resource limits: the worker threads a launch may use (type 0 cube cores, 1 vector).
  rt.def("set_device_res_limit", [](int32_t device, int type, uint32_t value) {
    return code(aclrtSetDeviceResLimit(device, static_cast<aclrtDevResLimitType>(type), value));
  });
  rt.def("get_device_res_limit", [](int32_t device, int type) {
    uint32_t value = 0;
    aclError error = aclrtGetDeviceResLimit(device, static_cast<aclrtDevResLimitType>(type), &value);
    return valueAnd(value, error);
  });
  rt.def("reset_device_res_limit", [](int32_t device) { return code(aclrtResetDeviceResLimit(device)); });
  rt.def("set_stream_res_limit", [](uint64_t stream, int type, uint32_t value) {
    return code(aclrtSetStreamResLimit(pointer<void>(stream), static_cast<aclrtDevResLimitType>(type), value));
  });
  rt.def("get_stream_res_limit", [](uint64_t stream, int type) {
    uint32_t value = 0;
    aclError error = aclrtGetStreamResLimit(pointer<void>(stream), static_cast<aclrtDevResLimitType>(type), &value);
    return valueAnd(value, error);
  });
  rt.def("reset_stream_res_limit",
         [](uint64_t stream) { return code(aclrtResetStreamResLimit(pointer<void>(stream))); });
  rt.def("use_stream_res_in_current_thread",
         [](uint64_t stream) { return code(aclrtUseStreamResInCurrentThread(pointer<void>(stream))); });
  rt.def("unuse_stream_res_in_current_thread",
         [](uint64_t stream) { return code(aclrtUnuseStreamResInCurrentThread(pointer<void>(stream))); });
  rt.def("get_res_in_current_thread", [](int type) {
    uint32_t value = 0;
    aclError error = aclrtGetResInCurrentThread(static_cast<aclrtDevResLimitType>(type), &value);
    return valueAnd(value, error);
  });

  rt.def("ctx_get_current_default_stream", [] {
    aclrtStream stream = nullptr;
    aclError error = aclrtCtxGetCurrentDefaultStream(&stream);
    return valueAnd(handleOf(stream), error);
  });
  rt.def("get_primary_ctx_state", [](int32_t device) {
    int32_t active = 0;
    aclError error = aclrtGetPrimaryCtxState(device, nullptr, &active);
    return valueAnd(active, error);
  });
  rt.def("device_can_access_peer", [](int32_t device, int32_t peer) {
    int32_t can = 0;
    aclError error = aclrtDeviceCanAccessPeer(&can, device, peer);
    return valueAnd(can, error);
  });
  rt.def("device_enable_peer_access",
         [](int32_t peer, uint32_t flags) { return code(aclrtDeviceEnablePeerAccess(peer, flags)); });
  rt.def("device_disable_peer_access", [](int32_t peer) { return code(aclrtDeviceDisablePeerAccess(peer)); });
  rt.def("device_peer_access_status", [](int32_t device, int32_t peer) {
    int32_t status = 0;
    aclError error = aclrtDevicePeerAccessStatus(device, peer, &status);
    return valueAnd(status, error);
  });
  rt.def("device_get_stream_priority_range", [] {
    int32_t least = 0, greatest = 0;
    aclError error = aclrtDeviceGetStreamPriorityRange(&least, &greatest);
    return py::make_tuple(least, greatest, static_cast<int>(error));
  });
  rt.def("query_device_status", [](int32_t device) {
    aclrtDeviceStatus status = ACL_RT_DEVICE_STATUS_END;
    aclError error = aclrtQueryDeviceStatus(device, &status);
    return valueAnd(static_cast<int>(status), error);
  });
  rt.def("set_device_sat_mode",
         [](int mode) { return code(aclrtSetDeviceSatMode(static_cast<aclrtFloatOverflowMode>(mode))); });
  rt.def("get_device_sat_mode", [] {
    aclrtFloatOverflowMode mode = ACL_RT_OVERFLOW_MODE_UNDEF;
    aclError error = aclrtGetDeviceSatMode(&mode);
    return valueAnd(static_cast<int>(mode), error);
  });

  // Streams and events.
  rt.def("create_stream", [] {
    aclrtStream stream = nullptr;
    aclError error = aclrtCreateStream(&stream);
    return valueAnd(handleOf(stream), error);
  });
  rt.def("create_stream_with_config", [](uint32_t priority, uint32_t flag) {
    aclrtStream stream = nullptr;
    aclError error = aclrtCreateStreamWithConfig(&stream, priority, flag);
    return valueAnd(handleOf(stream), error);
  });
  rt.def("destroy_stream", [](uint64_t stream) { return code(aclrtDestroyStream(pointer<void>(stream))); }, Release());
  rt.def("destroy_stream_force", [](uint64_t stream) { return code(aclrtDestroyStreamForce(pointer<void>(stream))); });
  rt.def("stream_abort", [](uint64_t stream) { return code(aclrtStreamAbort(pointer<void>(stream))); }, Release());
  rt.def("set_stream_failure_mode", [](uint64_t stream, uint64_t mode) {
    return code(aclrtSetStreamFailureMode(pointer<void>(stream), mode));
  });
  rt.def("get_stream_available_num", [] {
    uint32_t count = 0;
    aclError error = aclrtGetStreamAvailableNum(&count);
    return valueAnd(count, error);
  });
  rt.def("stream_get_id", [](uint64_t stream) {
    int32_t id = 0;
    aclError error = aclrtStreamGetId(pointer<void>(stream), &id);
    return valueAnd(id, error);
  });
  rt.def("stream_get_priority", [](uint64_t stream) {
    uint32_t priority = 0;
    aclError error = aclrtStreamGetPriority(pointer<void>(stream), &priority);
    return valueAnd(priority, error);
  });
  rt.def("stream_get_flags", [](uint64_t stream) {
    uint32_t flags = 0;
    aclError error = aclrtStreamGetFlags(pointer<void>(stream), &flags);
    return valueAnd(flags, error);
  });
  rt.def("synchronize_stream", [](uint64_t stream) { return code(aclrtSynchronizeStream(pointer<void>(stream))); },
         Release());
  rt.def("synchronize_device", [] { return code(aclrtSynchronizeDevice()); }, Release());
  rt.def("synchronize_stream_with_timeout", [](uint64_t stream, int32_t timeout) {
    return code(aclrtSynchronizeStreamWithTimeout(pointer<void>(stream), timeout));
  }, Release());
  rt.def("synchronize_device_with_timeout",
         [](int32_t timeout) { return code(aclrtSynchronizeDeviceWithTimeout(timeout)); }, Release());
  rt.def("stream_query", [](uint64_t stream) {
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    aclError error = aclrtStreamQuery(pointer<void>(stream), &status);
    return valueAnd(static_cast<int>(status), error);
  });
  rt.def("create_event", [] {
    aclrtEvent event = nullptr;
    aclError error = aclrtCreateEvent(&event);
    return valueAnd(handleOf(event), error);
  });
  rt.def("create_event_with_flag", [](uint32_t flag) {
    aclrtEvent event = nullptr;
    aclError error = aclrtCreateEventWithFlag(&event, flag);
    return valueAnd(handleOf(event), error);
  });
  rt.def("create_event_ex_with_flag", [](uint32_t flag) {
    aclrtEvent event = nullptr;
    aclError error = aclrtCreateEventExWithFlag(&event, flag);
    return valueAnd(handleOf(event), error);
  });
  rt.def("destroy_event", [](uint64_t event) { return code(aclrtDestroyEvent(pointer<void>(event))); });
  rt.def("reset_event", [](uint64_t event, uint64_t stream) {
    return code(aclrtResetEvent(pointer<void>(event), pointer<void>(stream)));
  });
  rt.def("query_event_wait_status", [](uint64_t event) {
    aclrtEventWaitStatus status = ACL_EVENT_WAIT_STATUS_RESERVED;
    aclError error = aclrtQueryEventWaitStatus(pointer<void>(event), &status);
    return valueAnd(static_cast<int>(status), error);
  });
  rt.def("synchronize_event_with_timeout", [](uint64_t event, int32_t timeout) {
    return code(aclrtSynchronizeEventWithTimeout(pointer<void>(event), timeout));
  }, Release());
  rt.def("event_get_timestamp", [](uint64_t event) {
    uint64_t timestamp = 0;
    aclError error = aclrtEventGetTimestamp(pointer<void>(event), &timestamp);
    return valueAnd(timestamp, error);
  });
  rt.def("get_event_id", [](uint64_t event) {
    uint32_t id = 0;
    aclError error = aclrtGetEventId(pointer<void>(event), &id);
    return valueAnd(id, error);
  });
  rt.def("get_event_avail_num", [] {
    uint32_t count = 0;
    aclError error = aclrtGetEventAvailNum(&count);
    return valueAnd(count, error);
  });
  rt.def("record_event", [](uint64_t event, uint64_t stream) {
    return code(aclrtRecordEvent(pointer<void>(event), pointer<void>(stream)));
  });
  rt.def("stream_wait_event", [](uint64_t stream, uint64_t event) {
    return code(aclrtStreamWaitEvent(pointer<void>(stream), pointer<void>(event)));
  });
  rt.def("stream_wait_event_with_timeout", [](uint64_t stream, uint64_t event, int32_t timeout) {
    return code(aclrtStreamWaitEventWithTimeout(pointer<void>(stream), pointer<void>(event), timeout));
  });
  rt.def("set_op_wait_timeout", [](uint32_t timeout) { return code(aclrtSetOpWaitTimeout(timeout)); });
  rt.def("synchronize_event", [](uint64_t event) { return code(aclrtSynchronizeEvent(pointer<void>(event))); },
         Release());
  rt.def("query_event_status", [](uint64_t event) {
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    aclError error = aclrtQueryEventStatus(pointer<void>(event), &status);
    return valueAnd(static_cast<int>(status), error);
  });
  rt.def("event_elapsed_time", [](uint64_t start, uint64_t end) {
    float ms = 0;
    aclError error = aclrtEventElapsedTime(&ms, pointer<void>(start), pointer<void>(end));
    return valueAnd(ms, error);
  });

  // Memory. Host-side arguments may be ints or Python buffers (bytes, numpy arrays).
  rt.def("malloc", [](size_t size, int policy) {
    void *memory = nullptr;
    aclError error = aclrtMalloc(&memory, size, static_cast<aclrtMemMallocPolicy>(policy));
    return valueAnd(handleOf(memory), error);
  }, py::arg("size"), py::arg("policy") = 0);
  rt.def("malloc_align32", [](size_t size, int policy) {
    void *memory = nullptr;
    aclError error = aclrtMallocAlign32(&memory, size, static_cast<aclrtMemMallocPolicy>(policy));
    return valueAnd(handleOf(memory), error);
  }, py::arg("size"), py::arg("policy") = 0);
  rt.def("malloc_cached", [](size_t size, int policy) {
    void *memory = nullptr;
    aclError error = aclrtMallocCached(&memory, size, static_cast<aclrtMemMallocPolicy>(policy));
    return valueAnd(handleOf(memory), error);
  }, py::arg("size"), py::arg("policy") = 0);
  rt.def("mem_flush", [](uint64_t memory, size_t size) { return code(aclrtMemFlush(pointer<void>(memory), size)); });
  rt.def("mem_invalidate",
         [](uint64_t memory, size_t size) { return code(aclrtMemInvalidate(pointer<void>(memory), size)); });
  rt.def("free", [](uint64_t memory) { return code(aclrtFree(pointer<void>(memory))); });
  rt.def("malloc_host", [](size_t size) {
    void *memory = nullptr;
    aclError error = aclrtMallocHost(&memory, size);
    return valueAnd(handleOf(memory), error);
  });
  rt.def("free_host", [](uint64_t memory) { return code(aclrtFreeHost(pointer<void>(memory))); });
  rt.def("host_register", [](uint64_t memory, uint64_t size, int type) {
    void *device = nullptr;
    aclError error = aclrtHostRegister(pointer<void>(memory), size, static_cast<aclrtHostRegisterType>(type), &device);
    return valueAnd(handleOf(device), error);
  }, py::arg("ptr"), py::arg("size"), py::arg("type") = 0);
  rt.def("host_register_v2", [](uint64_t memory, uint64_t size, uint32_t flag) {
    return code(aclrtHostRegisterV2(pointer<void>(memory), size, flag));
  });
  rt.def("host_get_device_pointer", [](uint64_t memory, uint32_t flag) {
    void *device = nullptr;
    aclError error = aclrtHostGetDevicePointer(pointer<void>(memory), &device, flag);
    return valueAnd(handleOf(device), error);
  }, py::arg("ptr_host"), py::arg("flag") = 0);
  rt.def("host_unregister", [](uint64_t memory) { return code(aclrtHostUnregister(pointer<void>(memory))); });
  rt.def("memcpy", [](const py::object &dst, size_t destMax, const py::object &src, size_t count, int kind) {
    void *to = pointer<void>(addressOf(dst));
    const void *from = pointer<const void>(addressOf(src));
    py::gil_scoped_release release;
    return code(aclrtMemcpy(to, destMax, from, count, static_cast<aclrtMemcpyKind>(kind)));
  });
  rt.def("memcpy_async", [](const py::object &dst, size_t destMax, const py::object &src, size_t count, int kind,
                            uint64_t stream) {
    return code(aclrtMemcpyAsync(pointer<void>(addressOf(dst)), destMax, pointer<const void>(addressOf(src)), count,
                                 static_cast<aclrtMemcpyKind>(kind), pointer<void>(stream)));
  });
  rt.def("memcpy2d", [](const py::object &dst, size_t dpitch, const py::object &src, size_t spitch, size_t width,
                        size_t height, int kind) {
    void *to = pointer<void>(addressOf(dst));
    const void *from = pointer<const void>(addressOf(src));
    py::gil_scoped_release release;
    return code(aclrtMemcpy2d(to, dpitch, from, spitch, width, height, static_cast<aclrtMemcpyKind>(kind)));
  });
  rt.def("memcpy2d_async", [](const py::object &dst, size_t dpitch, const py::object &src, size_t spitch,
                              size_t width, size_t height, int kind, uint64_t stream) {
    return code(aclrtMemcpy2dAsync(pointer<void>(addressOf(dst)), dpitch, pointer<const void>(addressOf(src)), spitch,
                                   width, height, static_cast<aclrtMemcpyKind>(kind), pointer<void>(stream)));
  });
  rt.def("memset", [](uint64_t dst, size_t destMax, int32_t value, size_t count) {
    return code(aclrtMemset(pointer<void>(dst), destMax, value, count));
  }, Release());
  rt.def("memset_async", [](uint64_t dst, size_t destMax, int32_t value, size_t count, uint64_t stream) {
    return code(aclrtMemsetAsync(pointer<void>(dst), destMax, value, count, pointer<void>(stream)));
  });
  rt.def("get_mem_info", [](int attribute) {
    size_t free = 0, total = 0;
    aclError error = aclrtGetMemInfo(static_cast<aclrtMemAttr>(attribute), &free, &total);
    return py::make_tuple(free, total, code(error));
  });

  // Callbacks: fn(user_data) runs on the thread that calls process_report.
  rt.def("launch_callback", [](py::function function, py::object userData, int blockType, uint64_t stream) {
    auto *callback = new PythonCallback{std::move(function), std::move(userData), "acl.rt.launch_callback callback"};
    aclError error = aclrtLaunchCallback(runPythonCallback, callback, static_cast<aclrtCallbackBlockType>(blockType),
                                         pointer<void>(stream));
    if (error != ACL_SUCCESS) delete callback;
    return code(error);
  });
  // In C's order: the stream first. The function runs on the worker running the stream, in
  // stream order, with the GIL taken there; a stream's synchronize releases it meanwhile.
  rt.def("launch_host_func", [](uint64_t stream, py::function function, py::object args) {
    auto *callback = new PythonCallback{std::move(function), std::move(args), "acl.rt.launch_host_func function"};
    aclError error = aclrtLaunchHostFunc(pointer<void>(stream), runPythonCallback, callback);
    if (error != ACL_SUCCESS) delete callback;
    return code(error);
  });
  rt.def("subscribe_report", [](uint64_t thread, uint64_t stream) {
    return code(aclrtSubscribeReport(thread, pointer<void>(stream)));
  });
  rt.def("unsubscribe_report", [](uint64_t thread, uint64_t stream) {
    return code(aclrtUnSubscribeReport(thread, pointer<void>(stream)));
  }, Release());
  rt.def("process_report", [](int32_t timeout) { return code(aclrtProcessReport(timeout)); }, Release());

  // Kernel binaries.
  rt.def("binary_load_from_file", [](const std::string &path, const py::object &options) {
    aclrtBinHandle handle = nullptr;
    aclError error = loadBinary(&path, nullptr, options, handle);
    return valueAnd(handleOf(handle), error);
  }, py::arg("path"), py::arg("options") = py::none());
  rt.def("binary_load_from_data", [](const py::bytes &data, const py::object &options) {
    aclrtBinHandle handle = nullptr;
    aclError error = loadBinary(nullptr, &data, options, handle);
    return valueAnd(handleOf(handle), error);
  }, py::arg("data"), py::arg("options") = py::none());
  rt.def("binary_get_function", [](uint64_t binary, const std::string &name) {
    aclrtFuncHandle function = nullptr;
    aclError error = aclrtBinaryGetFunction(pointer<void>(binary), name.c_str(), &function);
    return valueAnd(handleOf(function), error);
  });
  rt.def("binary_unload", [](uint64_t binary) { return code(aclrtBinaryUnLoad(pointer<void>(binary))); }, Release());
  rt.def("kernel_args_init", [](uint64_t function) {
    aclrtArgsHandle args = nullptr;
    aclError error = aclrtKernelArgsInit(pointer<void>(function), &args);
    return valueAnd(handleOf(args), error);
  });
  rt.def("kernel_args_append", [](uint64_t args, const py::object &hostData, size_t size) {
    aclrtParamHandle param = nullptr;
    aclError error = aclrtKernelArgsAppend(pointer<void>(args), pointer<void>(addressOf(hostData)), size, &param);
    return valueAnd(handleOf(param), error);
  });
  rt.def("kernel_args_append_place_holder", [](uint64_t args) {
    aclrtParamHandle param = nullptr;
    aclError error = aclrtKernelArgsAppendPlaceHolder(pointer<void>(args), &param);
    return valueAnd(handleOf(param), error);
  });
  rt.def("kernel_args_get_place_holder_buffer", [](uint64_t args, uint64_t param, size_t size) {
    void *buffer = nullptr;
    aclError error = aclrtKernelArgsGetPlaceHolderBuffer(pointer<void>(args), pointer<void>(param), size, &buffer);
    return valueAnd(handleOf(buffer), error);
  });
  rt.def("kernel_args_para_update", [](uint64_t args, uint64_t param, const py::object &hostData, size_t size) {
    return code(aclrtKernelArgsParaUpdate(pointer<void>(args), pointer<void>(param), pointer<void>(addressOf(hostData)),
                                          size));
  });
  rt.def("kernel_args_finalize", [](uint64_t args) { return code(aclrtKernelArgsFinalize(pointer<void>(args))); });
  rt.def("launch_kernel_with_config", [](uint64_t function, uint32_t numBlocks, uint64_t stream, const py::object &cfg,
                                         uint64_t args, uint64_t reserve) {
    std::vector<aclrtLaunchKernelAttr> attrs;
    for (auto [id, value] : pairs(cfg, "id")) {
      aclrtLaunchKernelAttr attr{};
      attr.id = static_cast<aclrtLaunchKernelAttrId>(id);
      attr.value.rsv[0] = static_cast<uint32_t>(value);  // every small attribute value sits at the start
      attrs.push_back(attr);
    }
    aclrtLaunchKernelCfg config{attrs.data(), attrs.size()};
    return code(aclrtLaunchKernelWithConfig(pointer<void>(function), numBlocks, pointer<void>(stream),
                                            attrs.empty() ? nullptr : &config, pointer<void>(args),
                                            pointer<void>(reserve)));
  }, py::arg("func"), py::arg("num_blocks"), py::arg("stream"), py::arg("cfg"), py::arg("args"),
     py::arg("reserve") = 0);
}

}  // namespace aclpy
