"""NumPy arrays in device memory, through the acl module only."""
import numpy as np

import acl

HOST_TO_DEVICE, DEVICE_TO_HOST = 1, 2


def to_device(array):
    """Copies a NumPy array into new device memory; returns the device address."""
    array = np.ascontiguousarray(array)
    ptr, ret = acl.rt.malloc(max(array.nbytes, 1), 0)
    assert ret == 0, acl.get_recent_err_msg()
    if array.nbytes:
        assert acl.rt.memcpy(ptr, array.nbytes, acl.util.numpy_to_ptr(array), array.nbytes, HOST_TO_DEVICE) == 0
    return ptr


def from_device(ptr, shape, dtype):
    """Copies device memory back into a new NumPy array."""
    out = np.empty(shape, dtype=dtype)
    if out.nbytes:
        assert acl.rt.memcpy(acl.util.numpy_to_ptr(out), out.nbytes, ptr, out.nbytes, DEVICE_TO_HOST) == 0
    return out
