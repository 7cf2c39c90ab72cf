"""Fixtures for the acl module tests: an initialized runtime with a device and a stream."""
import os

import pytest

import acl

ACL_SUCCESS = 0


@pytest.fixture
def stream():
    assert acl.init() == ACL_SUCCESS, acl.get_recent_err_msg()
    assert acl.rt.set_device(0) == ACL_SUCCESS
    handle, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    yield handle
    assert acl.rt.destroy_stream(handle) == ACL_SUCCESS
    assert acl.rt.reset_device(0) == ACL_SUCCESS
    assert acl.finalize() == ACL_SUCCESS


@pytest.fixture
def kernel_dir():
    return os.environ.get("ACLCPU_KERNEL_DIR", os.path.join(os.path.dirname(__file__), "../../build/kernels"))
