#!/usr/bin/python3
"""The two call flows of the vendor pages, from Python:

1. Kernel launch (seed 003): load the project's vector-add kernel binary, append its arguments,
   launch it with 8 blocks, check z = x + y.
2. Single operator (seed 000): describe GEMM with tensor descriptions, compile it, bind a
   handle, execute on a stream, check C = alpha * A @ B + beta * C with NumPy.

Run with PYTHONPATH=build/python (and ACLCPU_KERNEL_DIR=build/kernels) from the checkout.
"""
import os
import struct
import sys

import numpy as np

import acl

ACL_FLOAT, ACL_FORMAT_ND = 0, 2
HOST_TO_DEVICE, DEVICE_TO_HOST = 1, 2


def check(ret, what):
    if ret != 0:
        sys.exit(f"{what} failed with {ret}: {acl.get_recent_err_msg()}")


def to_device(array):
    ptr, ret = acl.rt.malloc(array.nbytes, 0)
    check(ret, "acl.rt.malloc")
    check(acl.rt.memcpy(ptr, array.nbytes, acl.util.numpy_to_ptr(array), array.nbytes, HOST_TO_DEVICE), "memcpy")
    return ptr


def from_device(ptr, shape, dtype):
    out = np.empty(shape, dtype)
    check(acl.rt.memcpy(acl.util.numpy_to_ptr(out), out.nbytes, ptr, out.nbytes, DEVICE_TO_HOST), "memcpy")
    return out


def kernel_launch(stream, kernel_dir):
    n = 1 << 16
    x, y = np.random.default_rng(0).random((2, n), dtype=np.float32)
    dx, dy, dz = to_device(x), to_device(y), to_device(np.zeros(n, np.float32))
    binary, ret = acl.rt.binary_load_from_file(os.path.join(kernel_dir, "vector_add.o"), [])
    check(ret, "binary_load_from_file")
    func, ret = acl.rt.binary_get_function(binary, "add_custom")
    check(ret, "binary_get_function")
    args, ret = acl.rt.kernel_args_init(func)
    check(ret, "kernel_args_init")
    for pointer in (dx, dy, dz):
        address = np.array([pointer], np.uint64)
        _, ret = acl.rt.kernel_args_append(args, acl.util.numpy_to_ptr(address), 8)
        check(ret, "kernel_args_append")
    count = struct.pack("<I", n)
    _, ret = acl.rt.kernel_args_append(args, acl.util.bytes_to_ptr(count), len(count))
    check(ret, "kernel_args_append")
    check(acl.rt.kernel_args_finalize(args), "kernel_args_finalize")
    check(acl.rt.launch_kernel_with_config(func, 8, stream, None, args, 0), "launch_kernel_with_config")
    check(acl.rt.synchronize_stream(stream), "synchronize_stream")
    ok = np.array_equal(from_device(dz, n, np.float32), x + y)
    check(acl.rt.binary_unload(binary), "binary_unload")
    for p in (dx, dy, dz):
        check(acl.rt.free(p), "free")
    print(f"kernel launch: add_custom over {n} floats in 8 blocks: {'ok' if ok else 'WRONG'}")
    return ok


def gemm(stream):
    m, n, k = 64, 48, 96
    rng = np.random.default_rng(1)
    a, b, c = (rng.standard_normal(s).astype(np.float32) for s in ((m, k), (k, n), (m, n)))
    alpha, beta = np.array(2.0, np.float32), np.array(0.5, np.float32)
    shapes = [[m, k], [k, n], [m, n], [], []]
    inputs = [a, b, c, alpha, beta]
    in_desc = [acl.create_tensor_desc(ACL_FLOAT, s, ACL_FORMAT_ND) for s in shapes]
    out_desc = [acl.create_tensor_desc(ACL_FLOAT, [m, n], ACL_FORMAT_ND)]
    check(acl.op.compile("GEMM", in_desc, out_desc, 0, 0, 0, None), "acl.op.compile")
    handle, ret = acl.op.create_handle("GEMM", in_desc, out_desc, 0)
    check(ret, "acl.op.create_handle")
    device = [to_device(np.ascontiguousarray(x)) for x in inputs]
    buffers = [acl.create_data_buffer(p, x.nbytes) for p, x in zip(device, inputs)]
    check(acl.op.exec_with_handle(handle, buffers, [buffers[2]], stream), "acl.op.exec_with_handle")
    check(acl.rt.synchronize_stream(stream), "synchronize_stream")
    result = from_device(device[2], (m, n), np.float32)
    ok = np.allclose(result, 2.0 * a @ b + 0.5 * c, rtol=1e-4, atol=1e-4)
    check(acl.op.destroy_handle(handle), "destroy_handle")
    for buffer, desc, p in zip(buffers, in_desc, device):
        acl.destroy_data_buffer(buffer)
        acl.destroy_tensor_desc(desc)
        acl.rt.free(p)
    acl.destroy_tensor_desc(out_desc[0])
    print(f"single operator: GEMM {m}x{n}x{k} compiled, run through a handle: {'ok' if ok else 'WRONG'}")
    return ok


def main():
    kernel_dir = os.environ.get("ACLCPU_KERNEL_DIR", os.path.join(os.path.dirname(__file__), "../../build/kernels"))
    check(acl.init(), "acl.init")
    check(acl.rt.set_device(0), "acl.rt.set_device")
    stream, ret = acl.rt.create_stream()
    check(ret, "acl.rt.create_stream")
    ok = kernel_launch(stream, kernel_dir) and gemm(stream)
    check(acl.rt.destroy_stream(stream), "destroy_stream")
    check(acl.rt.reset_device(0), "reset_device")
    check(acl.finalize(), "acl.finalize")
    print("PASSED" if ok else "FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
