"""The seed's kernel-launch flow from Python: load a kernel binary built by the project, append
arguments (pointers, scalars, a placeholder struct), launch with N blocks, check with NumPy."""
import os
import struct

import numpy as np
import pytest

import acl
from device import from_device, to_device

ACL_ERROR_INVALID_FILE = 100003


def load(kernel_dir, name):
    binary, ret = acl.rt.binary_load_from_file(os.path.join(kernel_dir, name + ".o"), [])
    assert ret == 0, acl.get_recent_err_msg()
    return binary


@pytest.mark.parametrize("blocks", [1, 3, 64])
def test_vector_add(stream, kernel_dir, blocks):
    n = 4099
    x, y = np.random.default_rng(1).random((2, n), dtype=np.float32)
    dx, dy, dz = to_device(x), to_device(y), to_device(np.zeros(n, np.float32))
    binary = load(kernel_dir, "vector_add")
    func, ret = acl.rt.binary_get_function(binary, "add_custom")
    assert ret == 0
    args, ret = acl.rt.kernel_args_init(func)
    assert ret == 0
    for pointer in (dx, dy, dz):
        address = np.array([pointer], dtype=np.uint64)
        _, ret = acl.rt.kernel_args_append(args, acl.util.numpy_to_ptr(address), 8)
        assert ret == 0
    count = struct.pack("<I", n)
    _, ret = acl.rt.kernel_args_append(args, acl.util.bytes_to_ptr(count), len(count))
    assert ret == 0
    assert acl.rt.kernel_args_finalize(args) == 0
    assert acl.rt.launch_kernel_with_config(func, blocks, stream, None, args, 0) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    np.testing.assert_array_equal(from_device(dz, n, np.float32), x + y)
    assert acl.rt.binary_unload(binary) == 0
    for p in (dx, dy, dz):
        assert acl.rt.free(p) == 0


def test_placeholder_and_para_update(stream, kernel_dir):
    n = 1000
    x = np.linspace(-1, 1, n, dtype=np.float32)
    dx, dy = to_device(x), to_device(np.zeros(n, np.float32))
    binary = load(kernel_dir, "affine_placeholder")
    func, _ = acl.rt.binary_get_function(binary, "affine_custom")
    args, _ = acl.rt.kernel_args_init(func)
    _, ret = acl.rt.kernel_args_append(args, np.array([dx], np.uint64), 8)  # buffers pass directly too
    assert ret == 0
    y_param, ret = acl.rt.kernel_args_append(args, np.array([dy], np.uint64), 8)
    assert ret == 0
    holder, ret = acl.rt.kernel_args_append_place_holder(args)
    assert ret == 0
    buffer, ret = acl.rt.kernel_args_get_place_holder_buffer(args, holder, 12)
    assert ret == 0 and buffer != 0
    params = acl.util.ptr_to_numpy(buffer, [12], np.uint8)
    params[:] = np.frombuffer(struct.pack("<ffI", 2.0, 0.5, n), np.uint8)
    assert acl.rt.kernel_args_finalize(args) == 0
    assert acl.rt.launch_kernel_with_config(func, 4, stream, [], args, 0) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    np.testing.assert_allclose(from_device(dy, n, np.float32), x * 2 + 0.5, rtol=1e-6)

    # Point y somewhere else after Finalize: ParaUpdate, then Finalize again.
    dy2 = to_device(np.zeros(n, np.float32))
    assert acl.rt.kernel_args_para_update(args, y_param, np.array([dy2], np.uint64), 8) == 0
    assert acl.rt.kernel_args_finalize(args) == 0
    assert acl.rt.launch_kernel_with_config(func, 2, stream, [{"id": 2, "value": 65536}], args, 0) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    np.testing.assert_allclose(from_device(dy2, n, np.float32), x * 2 + 0.5, rtol=1e-6)
    assert acl.rt.binary_unload(binary) == 0
    for p in (dx, dy, dy2):
        assert acl.rt.free(p) == 0


def test_loading_errors_are_codes(stream, kernel_dir, tmp_path):
    _, ret = acl.rt.binary_load_from_file(str(tmp_path / "missing.o"), [])
    assert ret == ACL_ERROR_INVALID_FILE
    garbage = tmp_path / "garbage.o"
    garbage.write_bytes(b"\x7fELF" + b"\x00" * 60)
    _, ret = acl.rt.binary_load_from_file(str(garbage), [])
    assert ret == ACL_ERROR_INVALID_FILE
    data = open(os.path.join(kernel_dir, "vector_add.o"), "rb").read()
    binary, ret = acl.rt.binary_load_from_data(data, [])
    assert ret == 0
    _, ret = acl.rt.binary_get_function(binary, "no_such_kernel")
    assert ret != 0
    assert acl.rt.binary_unload(binary) == 0
    assert acl.rt.binary_unload(binary) != 0
