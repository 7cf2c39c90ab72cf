"""Writes the sample's inputs to test_data/data/ (as the public samples' gen_data.py do)."""
import os

import numpy as np

rng = np.random.default_rng(2026)
os.makedirs("test_data/data", exist_ok=True)
inputs = {
    "gemm_a": rng.uniform(-1, 1, (16, 16)).astype(np.float16),
    "gemm_b": rng.uniform(-1, 1, (16, 16)).astype(np.float16),
    "gemm_c": rng.uniform(-1, 1, (16, 16)).astype(np.float16),
    "add_x1": rng.integers(-2**31, 2**31, (8, 16), dtype=np.int64).astype(np.int32),
    "add_x2": rng.integers(-2**31, 2**31, (8, 16), dtype=np.int64).astype(np.int32),
    "softmax_x": rng.uniform(-5, 5, (4, 10)).astype(np.float32),
    "dyn_x1": rng.uniform(-1, 1, (64, 16)).astype(np.float32),
    "dyn_x2": rng.uniform(-1, 1, (64, 16)).astype(np.float32),
}
for name, array in inputs.items():
    array.tofile(f"test_data/data/{name}.bin")
