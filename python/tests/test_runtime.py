"""acl and acl.rt: conventions, memory, streams, events, callbacks, errors as codes."""
import ctypes
import mmap
import sys
import threading

import numpy as np
import pytest

import acl
from device import from_device, to_device

ACL_ERROR_INVALID_PARAM = 100000
ACL_ERROR_UNINITIALIZE = 100001


def test_calls_before_init_return_codes():
    assert acl.rt.set_device(0) == ACL_ERROR_UNINITIALIZE
    ptr, ret = acl.rt.malloc(16, 0)
    assert (ptr, ret) == (0, ACL_ERROR_UNINITIALIZE)


def test_version_needs_no_init():
    major, minor, patch, ret = acl.get_version()
    assert ret == 0 and major >= 1 and minor >= 0 and patch >= 0


def test_peer_access_is_one_way_bookkeeping(stream):
    assert acl.rt.device_can_access_peer(0, 0)[1] == ACL_ERROR_INVALID_PARAM
    assert acl.rt.device_enable_peer_access(0, 0) == ACL_ERROR_INVALID_PARAM  # the current device
    assert acl.rt.device_disable_peer_access(0) == ACL_ERROR_INVALID_PARAM
    assert acl.rt.device_peer_access_status(0, 0) == (0, 0)
    default, ret = acl.rt.ctx_get_current_default_stream()
    assert ret == 0 and default != 0
    assert acl.rt.synchronize_stream(default) == 0
    assert acl.rt.destroy_stream(default) == ACL_ERROR_INVALID_PARAM
    assert acl.rt.get_primary_ctx_state(0) == (1, 0)
    assert acl.rt.device_get_stream_priority_range() == (7, 0, 0)
    assert acl.rt.query_device_status(0) == (0, 0)  # ACL_RT_DEVICE_STATUS_NORMAL
    assert acl.rt.get_device_sat_mode() == (1, 0)  # ACL_RT_OVERFLOW_MODE_INFNAN
    assert acl.rt.set_device_sat_mode(0) == 200001  # saturation: ACL_ERROR_API_NOT_SUPPORT


def test_values_come_with_codes(stream):
    count, ret = acl.rt.get_device_count()
    assert ret == 0 and count >= 1
    device, ret = acl.rt.get_device()
    assert (device, ret) == (0, 0)
    mode, ret = acl.rt.get_run_mode()
    assert (mode, ret) == (1, 0)  # ACL_HOST
    free, total, ret = acl.rt.get_mem_info(0)
    assert ret == 0 and 0 < free <= total
    assert isinstance(stream, int) and stream != 0


def test_device_info_queries_and_resource_limits(stream):
    cube, vector = 0, 1  # ACL_RT_DEV_RES_CUBE_CORE, ACL_RT_DEV_RES_VECTOR_CORE
    threads, ret = acl.rt.get_device_res_limit(0, cube)
    assert ret == 0 and threads >= 1
    assert acl.rt.get_device_info(0, 201) == (threads, 0)  # ACL_DEV_ATTR_VECTOR_CORE_NUM
    assert acl.get_soc_name().startswith("aclcpu")
    assert acl.rt.stream_query(stream) == (0, 0)  # ACL_STREAM_STATUS_COMPLETE
    assert acl.rt.synchronize_stream_with_timeout(stream, 1000) == 0
    assert acl.rt.synchronize_device_with_timeout(-1) == 0
    assert acl.rt.set_device_res_limit(0, cube, 1) == 0
    assert acl.rt.get_stream_res_limit(stream, cube) == (1, 0)
    assert acl.rt.get_stream_res_limit(stream, vector) == (threads, 0)
    assert acl.rt.set_stream_res_limit(stream, vector, 1) == 0
    assert acl.rt.get_res_in_current_thread(vector) == (threads, 0)
    assert acl.rt.use_stream_res_in_current_thread(stream) == 0
    assert acl.rt.get_res_in_current_thread(vector) == (1, 0)
    assert acl.rt.unuse_stream_res_in_current_thread(stream) == 0
    assert acl.rt.set_device_res_limit(0, cube, threads + 1) == ACL_ERROR_INVALID_PARAM
    assert acl.rt.set_stream_res_limit(stream, 2, 1) == ACL_ERROR_INVALID_PARAM
    assert acl.rt.reset_stream_res_limit(stream) == 0
    assert acl.rt.reset_device_res_limit(0) == 0
    assert acl.rt.get_stream_res_limit(stream, cube) == (threads, 0)


def test_memory_round_trip_and_async_copies(stream):
    data = np.arange(1000, dtype=np.float32)
    ptr = to_device(data)
    other, ret = acl.rt.malloc(data.nbytes, 0)
    assert ret == 0
    assert acl.rt.memcpy_async(other, data.nbytes, ptr, data.nbytes, 3, stream) == 0  # device to device
    assert acl.rt.memset_async(ptr, data.nbytes, 0, data.nbytes, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    np.testing.assert_array_equal(from_device(other, data.shape, data.dtype), data)
    np.testing.assert_array_equal(from_device(ptr, data.shape, data.dtype), np.zeros_like(data))
    host, ret = acl.rt.malloc_host(64)
    assert ret == 0
    assert acl.rt.memcpy(host, 64, np.ones(16, np.float32), 64, 0) == 0  # buffers pass as addresses too
    np.testing.assert_array_equal(acl.util.ptr_to_numpy(host, [16], 11), np.ones(16, np.float32))
    assert acl.rt.free_host(host) == 0
    for p in (ptr, other):
        assert acl.rt.free(p) == 0


def test_bad_handles_sizes_and_freed_memory_are_codes(stream):
    ptr, ret = acl.rt.malloc(64, 0)
    assert ret == 0
    host = np.zeros(32, np.float32)
    assert acl.rt.memcpy(ptr, 64, acl.util.numpy_to_ptr(host), 128, 1) == ACL_ERROR_INVALID_PARAM  # count > destMax
    assert acl.rt.free(ptr) == 0
    assert acl.rt.free(ptr) != 0  # double free
    assert acl.rt.memcpy(ptr, 64, acl.util.numpy_to_ptr(host), 64, 1) != 0  # freed device memory
    assert acl.rt.synchronize_stream(0xdead0) != 0
    assert acl.rt.destroy_event(12345) != 0
    assert acl.destroy_tensor_desc(12345) == ACL_ERROR_INVALID_PARAM
    assert acl.destroy_data_buffer(0) == ACL_ERROR_INVALID_PARAM
    assert acl.op.destroy_attr(99) == ACL_ERROR_INVALID_PARAM
    assert acl.op.exec_with_handle(77, [], [], stream) == ACL_ERROR_INVALID_PARAM
    func, ret = acl.rt.binary_get_function(4242, "add_custom")
    assert func == 0 and ret != 0


def test_wrong_argument_types_raise_type_error(stream):
    with pytest.raises(TypeError):
        acl.rt.malloc("sixteen", 0)
    with pytest.raises(TypeError):
        acl.rt.synchronize_stream(None)
    with pytest.raises(TypeError):
        acl.create_tensor_desc(0, "2x3", 2)
    with pytest.raises(TypeError):
        acl.rt.memcpy(1, 4, object(), 4, 1)


def test_events_time_two_copies(stream):
    start, ret = acl.rt.create_event()
    end, _ = acl.rt.create_event()
    assert ret == 0
    data = np.ones(1 << 20, np.float32)
    ptr = to_device(data)
    assert acl.rt.record_event(start, stream) == 0
    assert acl.rt.memset_async(ptr, data.nbytes, 1, data.nbytes, stream) == 0
    assert acl.rt.record_event(end, stream) == 0
    assert acl.rt.synchronize_event(end) == 0
    status, ret = acl.rt.query_event_status(end)
    assert (status, ret) == (1, 0)  # ACL_EVENT_RECORDED_STATUS_COMPLETE
    ms, ret = acl.rt.event_elapsed_time(start, end)
    assert ret == 0 and ms >= 0
    for event in (start, end):
        assert acl.rt.destroy_event(event) == 0
    assert acl.rt.free(ptr) == 0


def test_flagged_events_reset_and_report(stream):
    ACL_EVENT_SYNC, ACL_EVENT_TIME_LINE = 0x1, 0x8
    available, ret = acl.rt.get_event_avail_num()
    assert ret == 0
    event, ret = acl.rt.create_event_with_flag(ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE)
    assert ret == 0
    assert acl.rt.get_event_avail_num() == (available - 1, 0)
    other, _ = acl.rt.create_event_ex_with_flag(ACL_EVENT_SYNC)
    assert acl.rt.get_event_id(event)[0] != acl.rt.get_event_id(other)[0]
    assert acl.rt.record_event(event, stream) == 0
    assert acl.rt.stream_wait_event(stream, event) == 0
    assert acl.rt.synchronize_event_with_timeout(event, 10000) == 0
    assert acl.rt.stream_wait_event_with_timeout(stream, event, 10000) == 0  # recorded: no wait
    assert acl.rt.stream_wait_event_with_timeout(stream, event, 0) == ACL_ERROR_INVALID_PARAM
    assert acl.rt.set_op_wait_timeout(0) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.query_event_wait_status(event) == (0, 0)  # ACL_EVENT_WAIT_STATUS_COMPLETE
    timestamp, ret = acl.rt.event_get_timestamp(event)
    assert ret == 0 and timestamp > 0
    assert acl.rt.reset_event(event, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.query_event_status(event) == (0, 0)  # reset: ACL_EVENT_RECORDED_STATUS_NOT_READY
    assert acl.rt.event_get_timestamp(event)[1] == ACL_ERROR_INVALID_PARAM
    assert acl.rt.query_event_wait_status(other)[1] == ACL_ERROR_INVALID_PARAM
    assert acl.rt.synchronize_event_with_timeout(event, 0) == ACL_ERROR_INVALID_PARAM
    assert acl.rt.create_event_with_flag(0x40)[1] == 200001  # ACL_EVENT_IPC: ACL_ERROR_API_NOT_SUPPORT
    for e in (event, other):
        assert acl.rt.destroy_event(e) == 0
    assert acl.rt.get_event_avail_num() == (available, 0)


def test_configured_streams_and_forced_destroy(stream):
    ACL_STREAM_FAST_SYNC, ACL_STREAM_PERSISTENT = 0x2, 0x4
    available, ret = acl.rt.get_stream_available_num()
    assert ret == 0
    configured, ret = acl.rt.create_stream_with_config(9, ACL_STREAM_FAST_SYNC)
    assert ret == 0
    assert acl.rt.get_stream_available_num() == (available - 1, 0)
    assert acl.rt.stream_get_priority(configured) == (7, 0)  # past the range: its bound
    assert acl.rt.stream_get_flags(configured) == (ACL_STREAM_FAST_SYNC, 0)
    assert acl.rt.stream_get_id(configured)[0] != acl.rt.stream_get_id(stream)[0]
    assert acl.rt.create_stream_with_config(0, ACL_STREAM_PERSISTENT)[1] == 200001  # ACL_ERROR_API_NOT_SUPPORT
    assert acl.rt.set_stream_failure_mode(configured, 1) == 0  # ACL_STOP_ON_FAILURE
    assert acl.rt.set_stream_failure_mode(configured, 2) == ACL_ERROR_INVALID_PARAM
    data = np.ones(1 << 16, np.float32)
    ptr = to_device(data)
    assert acl.rt.memset_async(ptr, data.nbytes, 0, data.nbytes, configured) == 0
    assert acl.rt.stream_abort(configured) == 0
    assert acl.rt.memset_async(ptr, data.nbytes, 0, data.nbytes, configured) == 0
    assert acl.rt.destroy_stream_force(configured) == 0
    assert acl.rt.synchronize_device() == 0
    assert acl.rt.get_stream_available_num() == (available, 0)
    assert acl.rt.stream_get_flags(configured)[1] == 107017  # ACL_ERROR_RT_INVALID_HANDLE
    assert acl.rt.free(ptr) == 0


def test_2d_copies_and_aligned_memory(stream):
    ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST = 1, 2
    matrix = np.arange(7 * 13, dtype=np.float32).reshape(7, 13)
    block = matrix[1:6, 2:11]  # 5 x 9, rows 52 bytes apart
    device, ret = acl.rt.malloc_align32(5 * 64)
    assert ret == 0
    row = matrix.strides[0]
    assert acl.rt.memcpy2d(device, 64, block.ctypes.data, row, 9 * 4, 5, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    out = np.zeros((5, 9), np.float32)
    assert acl.rt.memcpy2d_async(out, 9 * 4, device, 64, 9 * 4, 5, ACL_MEMCPY_DEVICE_TO_HOST, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    np.testing.assert_array_equal(out, block)
    assert acl.rt.memcpy2d(device, 64, out, 36, 37, 5, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_ERROR_INVALID_PARAM
    assert acl.rt.mem_flush(device, 5 * 64) == 0
    assert acl.rt.mem_invalidate(device, 5 * 64 + 1) == ACL_ERROR_INVALID_PARAM
    assert acl.rt.free(device) == 0
    cached, ret = acl.rt.malloc_cached(256)
    assert ret == 0 and acl.rt.free(cached) == 0


def test_host_registration_maps_host_memory(stream):
    pages = mmap.mmap(-1, 2 * 4096)  # page-aligned, as CANN asks
    host = ctypes.addressof(ctypes.c_char.from_buffer(pages))
    device, ret = acl.rt.host_register(host, 4096, 0)
    assert ret == 0 and device == host
    assert acl.rt.host_register(host, 4096, 0)[1] == ACL_ERROR_INVALID_PARAM  # registered already
    assert acl.rt.host_register(host + 64, 4096, 0)[1] == ACL_ERROR_INVALID_PARAM  # not page-aligned
    assert acl.rt.host_get_device_pointer(host + 8) == (host + 8, 0)
    assert acl.rt.host_register_v2(host + 4096, 4096, 0x2 | 0x10000000) == 0
    assert acl.rt.host_get_device_pointer(host + 4096, 0) == (host + 4096, 0)
    assert acl.rt.host_unregister(host) == 0
    assert acl.rt.host_unregister(host + 4096) == 0
    assert acl.rt.host_get_device_pointer(host, 0)[1] == ACL_ERROR_INVALID_PARAM
    assert acl.rt.host_unregister(host) == ACL_ERROR_INVALID_PARAM


def test_host_functions_run_python_in_stream_order(stream):
    data = np.zeros(4, np.float32)
    ptr = to_device(data)
    seen, unraisable = [], []
    previous_hook = sys.unraisablehook
    sys.unraisablehook = lambda report: unraisable.append(report.exc_type)

    def look(tag):
        seen.append((tag, from_device(ptr, 4, np.float32).tolist()))

    def explode(_):
        raise ZeroDivisionError("a host function that raises")

    assert acl.rt.launch_host_func(stream, look, "before") == 0
    assert acl.rt.memset_async(ptr, 16, 0x3F, 16, stream) == 0
    assert acl.rt.launch_host_func(stream, explode, None) == 0
    assert acl.rt.launch_host_func(stream, look, "after") == 0
    assert acl.rt.synchronize_stream(stream) == 0
    sys.unraisablehook = previous_hook
    assert seen[0] == ("before", [0.0] * 4)
    assert seen[1][0] == "after" and seen[1][1] == [np.frombuffer(b"\x3f" * 4, np.float32)[0]] * 4
    assert unraisable == [ZeroDivisionError]  # reported, and the stream ran on
    with pytest.raises(TypeError):
        acl.rt.launch_host_func(stream, "not callable", None)
    assert acl.rt.free(ptr) == 0


def test_callbacks_run_python_and_survive_exceptions(stream):
    seen, unraisable = [], []
    done = threading.Event()
    previous_hook = sys.unraisablehook
    sys.unraisablehook = lambda report: unraisable.append(report.exc_type)

    def reporter():
        while not done.is_set():
            acl.rt.process_report(10)

    thread = threading.Thread(target=reporter)
    thread.start()
    assert acl.rt.subscribe_report(thread.ident, stream) == 0

    def record(value):
        seen.append(value)

    def explode(_):
        raise RuntimeError("a callback that raises")

    assert acl.rt.launch_callback(record, "first", 1, stream) == 0  # blocking
    assert acl.rt.launch_callback(explode, None, 1, stream) == 0
    assert acl.rt.launch_callback(record, ("second", 2), 0, stream) == 0  # non-blocking
    assert acl.rt.synchronize_stream(stream) == 0
    for _ in range(500):  # the non-blocking one may still be on its way to the report thread
        if len(seen) == 2:
            break
        threading.Event().wait(0.01)
    done.set()
    thread.join()
    sys.unraisablehook = previous_hook
    assert acl.rt.unsubscribe_report(thread.ident, stream) == 0
    assert seen == ["first", ("second", 2)]
    assert unraisable == [RuntimeError]  # reported, and the process carried on
