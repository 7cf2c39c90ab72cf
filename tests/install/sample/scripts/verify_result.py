"""Checks result_files/ against NumPy; prints one line per output and exits 1 on a mismatch."""
import sys

import numpy as np


def load(name, dtype, shape):
    return np.fromfile(name, dtype=dtype).reshape(shape)


data = "test_data/data/"
failures = 0


def check(name, actual, expected, rtol, atol):
    global failures
    ok = actual.shape == expected.shape and np.allclose(actual, expected, rtol=rtol, atol=atol)
    error = np.max(np.abs(actual.astype(np.float64) - expected)) if actual.shape == expected.shape else float("inf")
    print(f"{name}: {'PASSED' if ok else 'FAILED'} (max abs error {error:.3g})")
    failures += not ok


a, b, c = (load(data + f"gemm_{n}.bin", np.float16, (16, 16)).astype(np.float64) for n in "abc")
alpha, beta = 1.5, 0.5  # the values main.cpp passes
check("gemm", load("result_files/gemm.bin", np.float16, (16, 16)).astype(np.float64),
      alpha * a @ b + beta * c, 4e-3, 2e-2)
x1 = load(data + "add_x1.bin", np.int32, (8, 16))
x2 = load(data + "add_x2.bin", np.int32, (8, 16))
check("add_int32", load("result_files/add_int32.bin", np.int32, (8, 16)),
      (x1.astype(np.int64) + x2).astype(np.int32), 0, 0)  # wraps like int32 hardware
x = load(data + "softmax_x.bin", np.float32, (4, 10)).astype(np.float64)
e = np.exp(x - x.max(axis=-1, keepdims=True))
check("softmax", load("result_files/softmax.bin", np.float32, (4, 10)), e / e.sum(axis=-1, keepdims=True), 1e-5, 1e-7)
for rows in (5, 33, 64):
    d1 = load(data + "dyn_x1.bin", np.float32, (64, 16))[:rows]
    d2 = load(data + "dyn_x2.bin", np.float32, (64, 16))[:rows]
    check(f"dynamic_add_{rows}", load(f"result_files/dynamic_add_{rows}.bin", np.float32, (rows, 16)), d1 + d2, 0, 0)
sys.exit(1 if failures else 0)
