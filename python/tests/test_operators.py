"""acl.op and acl.blas against NumPy: compile + execute_v2, handles, infer_shape, cast
(fp16/bf16 round trips), GEMM through acl.blas, .om models through set_model_dir."""
import subprocess

import numpy as np
import pytest

import acl
from device import from_device, to_device

ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_BOOL, ACL_BF16 = 0, 1, 3, 12, 27
ACL_FORMAT_ND = 2
ACL_ERROR_INVALID_PARAM = 100000


class Tensor:
    """A description and a data buffer over device memory holding `array`."""

    def __init__(self, array, dtype_code, shape=None):
        self.array = np.ascontiguousarray(array)
        self.shape = list(self.array.shape if shape is None else shape)
        self.desc = acl.create_tensor_desc(dtype_code, self.shape, ACL_FORMAT_ND)
        assert self.desc != 0
        self.ptr = to_device(self.array)
        self.buffer = acl.create_data_buffer(self.ptr, self.array.nbytes)

    def read(self, dtype=None):
        return from_device(self.ptr, self.array.shape, dtype or self.array.dtype)

    def release(self):
        assert acl.destroy_data_buffer(self.buffer) == 0
        assert acl.destroy_tensor_desc(self.desc) == 0
        assert acl.rt.free(self.ptr) == 0


def test_compile_execute_v2_and_handles(stream):
    rng = np.random.default_rng(3)
    a, b = Tensor(rng.random((4, 3), np.float32), ACL_FLOAT), Tensor(rng.random(3, np.float32), ACL_FLOAT)
    out = Tensor(np.zeros((4, 3), np.float32), ACL_FLOAT)
    assert acl.op.compile("Add", [a.desc, b.desc], [out.desc], 0, 0, 0, None) == 0, acl.get_recent_err_msg()
    assert acl.op.execute_v2("Add", [a.desc, b.desc], [a.buffer, b.buffer], [out.desc], [out.buffer], 0, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    np.testing.assert_array_equal(out.read(), a.array + b.array)
    handle, ret = acl.op.create_handle("Add", [a.desc, b.desc], [out.desc], 0)
    assert ret == 0
    assert acl.rt.memset(out.ptr, out.array.nbytes, 0, out.array.nbytes) == 0
    assert acl.op.exec_with_handle(handle, [a.buffer, b.buffer], [out.buffer], stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    np.testing.assert_array_equal(out.read(), a.array + b.array)
    assert acl.op.destroy_handle(handle) == 0
    assert acl.op.destroy_handle(handle) == ACL_ERROR_INVALID_PARAM
    assert acl.op.execute_v2("Add", [a.desc, 999], [a.buffer, b.buffer], [out.desc], [out.buffer], 0, stream) == \
        ACL_ERROR_INVALID_PARAM
    for t in (a, b, out):
        t.release()


def test_bools_and_selection_round_trip_through_numpy(stream):
    # Comparisons give NumPy bools (a byte each), which Select and Gather then take.
    rng = np.random.default_rng(5)
    x, y = rng.integers(-3, 4, (33, 17)).astype(np.float32), rng.integers(-3, 4, 17).astype(np.float32)
    a, b = Tensor(x, ACL_FLOAT), Tensor(y, ACL_FLOAT)
    mask = Tensor(np.zeros((33, 17), np.bool_), ACL_BOOL)
    picked = Tensor(np.zeros((33, 17), np.float32), ACL_FLOAT)
    for op, inputs, output in (("Greater", [a, b], mask), ("SelectV2", [mask, a, b], picked)):
        descs, buffers = [t.desc for t in inputs], [t.buffer for t in inputs]
        assert acl.op.compile(op, descs, [output.desc], 0, 0, 0, None) == 0, acl.get_recent_err_msg()
        assert acl.op.execute_v2(op, descs, buffers, [output.desc], [output.buffer], 0, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    np.testing.assert_array_equal(mask.read(), x > y)
    np.testing.assert_array_equal(picked.read(), np.where(x > y, x, y))
    for t in (a, b, mask, picked):
        t.release()


def test_operators_with_several_outputs(stream):
    # LayerNorm's y, mean and variance, and a SplitV's three pieces, as NumPy computes them.
    rng = np.random.default_rng(6)
    x = rng.standard_normal((6, 40)).astype(np.float32)
    gamma, beta = rng.standard_normal(40).astype(np.float32), rng.standard_normal(40).astype(np.float32)
    inputs = [Tensor(v, ACL_FLOAT) for v in (x, gamma, beta)]
    outputs = [Tensor(np.zeros(shape, np.float32), ACL_FLOAT) for shape in ((6, 40), (6, 1), (6, 1))]
    attr = acl.op.create_attr()
    assert acl.op.set_attr_int(attr, "begin_norm_axis", 1) == 0
    assert acl.op.set_attr_int(attr, "begin_params_axis", 1) == 0
    assert acl.op.set_attr_float(attr, "epsilon", 1e-5) == 0
    descs, buffers = [t.desc for t in inputs], [t.buffer for t in inputs]
    out_descs, out_buffers = [t.desc for t in outputs], [t.buffer for t in outputs]
    assert acl.op.compile("LayerNorm", descs, out_descs, attr, 0, 0, None) == 0, acl.get_recent_err_msg()
    assert acl.op.execute_v2("LayerNorm", descs, buffers, out_descs, out_buffers, attr, stream) == 0
    pieces = [Tensor(np.zeros((6, n), np.float32), ACL_FLOAT) for n in (7, 30, 3)]
    split = acl.op.create_attr()
    assert acl.op.set_attr_list_int(split, "size_splits", [7, -1, 3]) == 0
    assert acl.op.set_attr_int(split, "split_dim", 1) == 0
    assert acl.op.set_attr_int(split, "num_split", 3) == 0
    piece_descs, piece_buffers = [t.desc for t in pieces], [t.buffer for t in pieces]
    assert acl.op.compile("SplitVD", descs[:1], piece_descs, split, 0, 0, None) == 0, acl.get_recent_err_msg()
    assert acl.op.execute_v2("SplitVD", descs[:1], buffers[:1], piece_descs, piece_buffers, split, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    mean, variance = x.mean(axis=1, keepdims=True), x.var(axis=1, keepdims=True)
    np.testing.assert_allclose(outputs[0].read(), (x - mean) / np.sqrt(variance + 1e-5) * gamma + beta, rtol=2e-5, atol=2e-5)
    np.testing.assert_allclose(outputs[1].read(), mean, rtol=2e-5, atol=2e-6)
    np.testing.assert_allclose(outputs[2].read(), variance, rtol=2e-5, atol=2e-6)
    for piece, want in zip(pieces, np.split(x, [7, 37], axis=1)):
        np.testing.assert_array_equal(piece.read(), want)
    for a in (attr, split):
        assert acl.op.destroy_attr(a) == 0
    for t in inputs + outputs + pieces:
        t.release()


def test_attributes_and_infer_shape(stream):
    attr = acl.op.create_attr()
    assert acl.op.set_attr_list_int(attr, "axes", [1]) == 0
    assert acl.op.set_attr_bool(attr, "keep_dims", True) == 0
    x = acl.create_tensor_desc(ACL_FLOAT, [5, -1, 7], ACL_FORMAT_ND)
    assert acl.set_tensor_shape_range(x, [[5, 5], [2, 9], [7, 7]]) == 0
    y = acl.create_tensor_desc(ACL_FLOAT, [-2], ACL_FORMAT_ND)
    assert acl.op.infer_shape("ReduceSum", [x], [0], [y], attr) == 0, acl.get_recent_err_msg()
    assert acl.get_tensor_desc_num_dims(y) == 3
    assert [acl.get_tensor_desc_dim_v2(y, i)[0] for i in range(3)] == [5, 1, 7]
    for d in (x, y):
        assert acl.destroy_tensor_desc(d) == 0
    assert acl.op.destroy_attr(attr) == 0


def bf16_bits(values):
    """The bf16 bits of f16 or f32 values: the top 16 bits of the f32, rounded to nearest even."""
    bits = values.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


@pytest.mark.parametrize("dst_code, to_numpy", [(ACL_FLOAT16, np.float16), (ACL_BF16, np.uint16)])
def test_cast_round_trips_fp16_and_bf16(stream, dst_code, to_numpy):
    values = np.array([0.0, 1.0, -2.5, 3.140625, 65504.0 if dst_code == ACL_FLOAT16 else 1e30, 1e-3], np.float32)
    src = Tensor(values, ACL_FLOAT)
    mid = Tensor(np.zeros(values.shape, to_numpy), dst_code)
    back = Tensor(np.zeros(values.shape, np.float32), ACL_FLOAT)
    assert acl.op.cast(src.desc, src.buffer, mid.desc, mid.buffer, False, stream) == 0, acl.get_recent_err_msg()
    assert acl.op.cast(mid.desc, mid.buffer, back.desc, back.buffer, False, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    if dst_code == ACL_FLOAT16:
        np.testing.assert_array_equal(mid.read(), values.astype(np.float16))
        expected = values.astype(np.float16).astype(np.float32)
    else:  # bf16: the top 16 bits of the f32, rounded to nearest even
        rounded = bf16_bits(values)
        np.testing.assert_array_equal(mid.read(), rounded)
        expected = (rounded.astype(np.uint32) << 16).view(np.float32)
    np.testing.assert_array_equal(back.read(), expected)
    for t in (src, mid, back):
        t.release()


@pytest.mark.parametrize("trans_a, trans_b", [(0, 0), (1, 0), (0, 1), (1, 1)])
def test_gemm_ex_fp16_in_fp32_out(stream, trans_a, trans_b):
    m, n, k = 33, 17, 40
    rng = np.random.default_rng(4)
    a = rng.uniform(-1, 1, (k, m) if trans_a else (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (n, k) if trans_b else (k, n)).astype(np.float16)
    c = rng.uniform(-1, 1, (m, n)).astype(np.float32)
    da, db, dc = to_device(a), to_device(b), to_device(c)
    alpha, beta = to_device(np.array([1.5], np.float32)), to_device(np.array([0.25], np.float32))
    ret = acl.blas.gemm_ex(trans_a, trans_b, 0, m, n, k, alpha, da, -1, ACL_FLOAT16, db, -1, ACL_FLOAT16, beta, dc,
                           -1, ACL_FLOAT, 0, stream)
    assert ret == 0, acl.get_recent_err_msg()
    assert acl.rt.synchronize_stream(stream) == 0
    op_a = a.T if trans_a else a
    op_b = b.T if trans_b else b
    expected = 1.5 * (op_a.astype(np.float32) @ op_b.astype(np.float32)) + 0.25 * c
    np.testing.assert_allclose(from_device(dc, (m, n), np.float32), expected, rtol=1e-5, atol=1e-5)
    for p in (da, db, dc, alpha, beta):
        assert acl.rt.free(p) == 0


def to_bf16(values):
    """f16 or f32 values rounded to bf16 (nearest even), as float64."""
    return (bf16_bits(values).astype(np.uint32) << 16).view(np.float32).astype(np.float64)


@pytest.mark.parametrize("gemv", [False, True])
def test_fp16_low_precision_rounds_inputs_to_bf16(stream, gemv):
    """ACL_COMPUTE_LOW_PRECISION (1) in gemm_ex and gemv_ex: each f16 input rounded to bf16, f32 sums."""
    m, n, k = (40, 1, 64) if gemv else (40, 24, 64)
    rng = np.random.default_rng(6)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    da, db, dc = to_device(a), to_device(b), to_device(np.zeros((m, n), np.float32))
    alpha, beta = to_device(np.array([1.0], np.float32)), to_device(np.array([0.0], np.float32))
    if gemv:
        ret = acl.blas.gemv_ex(0, m, k, alpha, da, -1, ACL_FLOAT16, db, 1, ACL_FLOAT16, beta, dc, 1, ACL_FLOAT, 1,
                               stream)
    else:
        ret = acl.blas.gemm_ex(0, 0, 0, m, n, k, alpha, da, -1, ACL_FLOAT16, db, -1, ACL_FLOAT16, beta, dc, -1,
                               ACL_FLOAT, 1, stream)
    assert ret == 0, acl.get_recent_err_msg()
    assert acl.rt.synchronize_stream(stream) == 0
    result = from_device(dc, (m, n), np.float32)
    rounded = to_bf16(a) @ to_bf16(b)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(result, rounded, rtol=1e-5, atol=1e-5)
    assert np.abs(result - rounded).sum() < 0.1 * np.abs(result - exact).sum()
    for p in (da, db, dc, alpha, beta):
        assert acl.rt.free(p) == 0


def test_gemm_handle(stream):
    m, n, k = 8, 5, 7
    handle, ret = acl.blas.create_handle_for_gemm_ex(0, 0, 0, m, n, k, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, 0)
    assert ret == 0, acl.get_recent_err_msg()
    rng = np.random.default_rng(5)
    a, b = Tensor(rng.random((m, k), np.float32), ACL_FLOAT), Tensor(rng.random((k, n), np.float32), ACL_FLOAT)
    c = Tensor(np.zeros((m, n), np.float32), ACL_FLOAT)
    one, zero = Tensor(np.ones(1, np.float32), ACL_FLOAT, []), Tensor(np.zeros(1, np.float32), ACL_FLOAT, [])
    assert acl.op.exec_with_handle(handle, [a.buffer, b.buffer, c.buffer, one.buffer, zero.buffer], [c.buffer],
                                   stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    np.testing.assert_allclose(c.read(), a.array @ b.array, rtol=1e-5)
    assert acl.op.destroy_handle(handle) == 0
    for t in (a, b, c, one, zero):
        t.release()


def test_offline_models_from_atc(stream, tmp_path):
    ops = tmp_path / "ops.json"
    ops.write_text('[{"op": "Mul", "input_desc": [{"format": "ND", "shape": [6], "type": "int32"},'
                   '{"format": "ND", "shape": [6], "type": "int32"}],'
                   '"output_desc": [{"format": "ND", "shape": [6], "type": "int32"}]}]')
    atc = __import__("os").environ.get("ACLCPU_ATC", "atc")
    try:
        subprocess.run([atc, f"--singleop={ops}", f"--output={tmp_path / 'models'}"], check=True, capture_output=True)
    except FileNotFoundError:
        pytest.skip("atc is not on PATH (set ACLCPU_ATC)")
    assert acl.op.set_model_dir(str(tmp_path / "models")) == 0
    x = Tensor(np.arange(6, dtype=np.int32), ACL_INT32)
    y = Tensor(np.full(6, -3, np.int32), ACL_INT32)
    z = Tensor(np.zeros(6, np.int32), ACL_INT32)
    assert acl.op.execute_v2("Mul", [x.desc, y.desc], [x.buffer, y.buffer], [z.desc], [z.buffer], 0, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    np.testing.assert_array_equal(z.read(), np.arange(6) * -3)
    for t in (x, y, z):
        t.release()


def test_pad_d_takes_paddings_as_a_list_of_lists(stream):
    # set_attr_list_list_int (aclopSetAttrListListInt): PadD against np.pad.
    rng = np.random.default_rng(11)
    x = Tensor(rng.random((2, 3), np.float32), ACL_FLOAT)
    out = Tensor(np.full((3, 7), -1, np.float32), ACL_FLOAT)
    attr = acl.op.create_attr()
    assert acl.op.set_attr_list_list_int(attr, "paddings", [[1, 0], [2, 2]]) == 0
    assert acl.op.set_attr_list_data_type(attr, "unused", [ACL_FLOAT, ACL_INT32]) == 0
    assert acl.op.set_attr_list_data_type(attr, "unused", [ACL_FLOAT, 5]) == ACL_ERROR_INVALID_PARAM
    assert acl.op.compile("PadD", [x.desc], [out.desc], attr, 0, 0, None) == 0, acl.get_recent_err_msg()
    assert acl.op.execute_v2("PadD", [x.desc], [x.buffer], [out.desc], [out.buffer], attr, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    np.testing.assert_array_equal(out.read(), np.pad(x.array, [(1, 0), (2, 2)]))
    assert acl.op.destroy_attr(attr) == 0
    for t in (x, out):
        t.release()
