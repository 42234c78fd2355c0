"""Convolution and pooling: padding modes, depthwise/grouped, 1-D, and NHWC layout (few TRANSPOSEs)."""

import numpy as np
import pytest
from onnx import helper

from tests.runtimes.tflite.helpers import assert_matches, graph_model

RNG = np.random.default_rng(1)
X = RNG.standard_normal((1, 4, 9, 9)).astype(np.float32)


def conv_model(weight, **attrs):
    bias = RNG.standard_normal(weight.shape[0]).astype(np.float32)
    node = helper.make_node("Conv", ["x", "w", "b"], ["y"], **attrs)
    return graph_model([node], {"x": X}, ["y"], {"w": weight, "b": bias})


@pytest.mark.parametrize(
    "attrs",
    [
        {},
        {"pads": [1, 1, 1, 1]},
        {"pads": [1, 1, 1, 1], "strides": [2, 2]},
        {"pads": [0, 1, 2, 1]},
        {"auto_pad": "SAME_UPPER", "strides": [2, 2]},
        {"dilations": [2, 2], "pads": [2, 2, 2, 2]},
    ],  # fmt: skip
)
def test_conv2d_padding(attrs):
    weight = RNG.standard_normal((6, 4, 3, 3)).astype(np.float32)
    info = assert_matches(conv_model(weight, **attrs), {"x": X}, atol=1e-4)
    assert info["ops"].get("CONV_2D") == 1


def test_depthwise_and_grouped():
    depthwise = RNG.standard_normal((8, 1, 3, 3)).astype(np.float32)
    info = assert_matches(conv_model(depthwise, group=4, pads=[1, 1, 1, 1]), {"x": X}, atol=1e-4)
    assert info["ops"].get("DEPTHWISE_CONV_2D") == 1
    grouped = RNG.standard_normal((6, 2, 3, 3)).astype(np.float32)
    assert_matches(conv_model(grouped, group=2), {"x": X}, atol=1e-4)


def test_conv1d():
    x = RNG.standard_normal((2, 3, 11)).astype(np.float32)
    w = RNG.standard_normal((5, 3, 3)).astype(np.float32)
    model = graph_model([helper.make_node("Conv", ["x", "w"], ["y"], pads=[1, 1])], {"x": x}, ["y"], {"w": w})
    assert_matches(model, {"x": x}, atol=1e-4)


def test_conv_chain_stays_nhwc_and_fuses():
    """Conv -> Relu -> Conv -> Add(residual) -> MaxPool -> GlobalAveragePool: one TRANSPOSE in, one out."""
    w1 = RNG.standard_normal((4, 4, 3, 3)).astype(np.float32)
    w2 = RNG.standard_normal((4, 4, 1, 1)).astype(np.float32)
    nodes = [
        helper.make_node("Conv", ["x", "w1"], ["a"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["a"], ["b"]),
        helper.make_node("Conv", ["b", "w2"], ["c"]),
        helper.make_node("Add", ["c", "x"], ["d"]),
        helper.make_node("MaxPool", ["d"], ["e"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
        helper.make_node("GlobalAveragePool", ["e"], ["y"]),
    ]
    info = assert_matches(graph_model(nodes, {"x": X}, ["y"], {"w1": w1, "w2": w2}), {"x": X}, atol=1e-4)
    assert info["ops"].get("TRANSPOSE", 0) <= 2
    assert "RELU" not in info["ops"]  # fused into the first CONV_2D


@pytest.mark.parametrize(
    ("op", "attrs"),
    [
        ("MaxPool", {"kernel_shape": [2, 2], "strides": [2, 2]}),
        ("MaxPool", {"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1}),
        ("AveragePool", {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1]}),
        ("AveragePool", {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1], "count_include_pad": 1}),
        ("GlobalMaxPool", {}),
    ],  # fmt: skip
)
def test_pools(op, attrs):
    model = graph_model([helper.make_node(op, ["x"], ["y"], **attrs)], {"x": X}, ["y"])
    assert_matches(model, {"x": X})


def test_channels_last_io_removes_boundary_transposes(tmp_path):
    from deploy.runtimes.tflite.emit import emit_tflite
    from deploy.runtimes.tflite.session import load

    w = RNG.standard_normal((6, 4, 3, 3)).astype(np.float32)
    model = conv_model(w, pads=[1, 1, 1, 1])
    info = emit_tflite(model, tmp_path / "m.tflite", channels_last_io=True)
    assert "TRANSPOSE" not in info["ops"]
    session = load(info["path"])
    assert session.input_specs[0].shape == (1, 9, 9, 4)
    out = session.run([X.transpose(0, 2, 3, 1)])[0]
    from tests.runtimes.tflite.helpers import reference

    np.testing.assert_allclose(out, reference(model, {"x": X})[0].transpose(0, 2, 3, 1), atol=1e-4)


@pytest.mark.parametrize(
    "attrs",
    [
        {"strides": [2, 2]},
        {"strides": [2, 2], "pads": [1, 1, 1, 1], "output_padding": [1, 1]},
        {"group": 2, "strides": [1, 2], "pads": [0, 1, 0, 1]},
        {"dilations": [2, 2]},
    ],  # fmt: skip
)
def test_conv_transpose(attrs):
    groups = attrs.get("group", 1)
    w = RNG.standard_normal((4, 6 // groups, 3, 3)).astype(np.float32)
    b = RNG.standard_normal(6).astype(np.float32)
    node = helper.make_node("ConvTranspose", ["x", "w", "b"], ["y"], **attrs)
    info = assert_matches(graph_model([node], {"x": X}, ["y"], {"w": w, "b": b}), {"x": X}, atol=1e-4)
    assert info["ops"]["TRANSPOSE_CONV"] == groups


@pytest.mark.parametrize(
    ("mode", "coordinates", "expected_op"),
    [
        ("linear", "half_pixel", "RESIZE_BILINEAR"),
        ("nearest", "asymmetric", "RESIZE_NEAREST_NEIGHBOR"),
        ("cubic", "half_pixel", "FULLY_CONNECTED"),
        ("nearest", "half_pixel", "FULLY_CONNECTED"),
    ],  # fmt: skip
)
def test_resize(mode, coordinates, expected_op):
    """TFLite's own RESIZE_* where it has the mode, exact interpolation matrices otherwise."""
    attrs = {"mode": mode, "coordinate_transformation_mode": coordinates}
    if mode == "nearest" and coordinates == "asymmetric":
        attrs["nearest_mode"] = "floor"
    node = helper.make_node("Resize", ["x", "", "s"], ["y"], **attrs)
    model = graph_model([node], {"x": X}, ["y"], {"s": np.array([1, 1, 2, 2], np.float32)})
    info = assert_matches(model, {"x": X}, atol=1e-5)
    assert expected_op in info["ops"]


def test_dynamic_batch_cnn_keeps_one_transpose():
    """Conv -> GlobalAveragePool -> Flatten -> Gemm with a dynamic batch: the flatten is a RESHAPE."""
    import onnx
    from onnx import TensorProto

    from tests.runtimes.tflite.helpers import lower_and_run, reference

    w = RNG.standard_normal((6, 4, 3, 3)).astype(np.float32)
    fc = RNG.standard_normal((5, 6)).astype(np.float32)
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("GlobalAveragePool", ["c"], ["g"]),
        helper.make_node("Flatten", ["g"], ["f"]),
        helper.make_node("Gemm", ["f", "fc"], ["y"], transB=1),
    ]
    inits = [onnx.numpy_helper.from_array(w, "w"), onnx.numpy_helper.from_array(fc, "fc")]
    value = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 4, 9, 9])
    graph = helper.make_graph(nodes, "g", [value], [helper.make_empty_tensor_value_info("y")], inits)
    model = onnx.shape_inference.infer_shapes(
        helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    )
    for batch in (1, 3):
        x = RNG.standard_normal((batch, 4, 9, 9)).astype(np.float32)
        actual, info = lower_and_run(model, {"x": x})
        np.testing.assert_allclose(actual[0], reference(model, {"x": x})[0], atol=1e-4)
    assert info["ops"].get("TRANSPOSE", 0) == 1


def test_max_pool_after_relu_pads_with_zeros():
    """After RELU the pads of a max pool can be zeros: PAD (kept in XNNPACK) instead of PADV2(-inf)."""
    nodes = [
        helper.make_node("Relu", ["x"], ["r"]),
        helper.make_node("MaxPool", ["r"], ["y"], kernel_shape=[2, 2], strides=[2, 2], pads=[1, 1, 1, 1]),
    ]
    info = assert_matches(graph_model(nodes, {"x": X}, ["y"]), {"x": X})
    assert "PADV2" not in info["ops"] and info["ops"]["PAD"] == 1


def _dynamic_length_pool(op: str, **attrs):
    import onnx

    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 3, "length"])
    graph = helper.make_graph(
        [helper.make_node(op, ["x"], ["y"], **attrs)], "pool", [x], [helper.make_empty_tensor_value_info("y")]
    )
    return onnx.shape_inference.infer_shapes(
        helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    )


@pytest.mark.parametrize("op", ["AveragePool", "MaxPool"])
@pytest.mark.parametrize("kernel,stride", [(2, 2), (4, 4), (3, 2)])
def test_ceil_mode_pool_over_a_dynamic_length(tmp_path, op, kernel, stride):
    """ceil_mode over a length known only at run time: the last window overhangs the end (an
    average over its cells inside the input, as PyTorch's `avg_pool1d(x, 4, 4, ceil_mode=True)`)."""
    from deploy.runtimes.tflite.emit import emit_tflite
    from deploy.runtimes.tflite.session import load
    from tests.runtimes.tflite.helpers import reference

    model = _dynamic_length_pool(op, kernel_shape=[kernel], strides=[stride], ceil_mode=1)
    session = load(emit_tflite(model, tmp_path / "pool.tflite")["path"])
    for length in (4, 5, 8, 17, 22):
        x = RNG.standard_normal((2, 3, length)).astype(np.float32)
        (expected,) = reference(model, {"x": x})
        (actual,) = session.run([x])
        assert actual.shape == expected.shape == (2, 3, -(-(length - kernel) // stride) + 1)
        np.testing.assert_allclose(actual, expected, rtol=1e-6, atol=1e-6)


def test_ceil_mode_pool_that_same_padding_cannot_express_is_refused(tmp_path):
    from deploy.runtimes.tflite.emit import emit_tflite

    model = _dynamic_length_pool("MaxPool", kernel_shape=[2], strides=[3], ceil_mode=1)
    with pytest.raises(Exception, match="ceil_mode pooling over a dynamic spatial size"):
        emit_tflite(model, tmp_path / "pool.tflite")


def test_conv1d_with_dynamic_batch_and_length(tmp_path):
    """A 1-D convolution runs as a 2-D one with a unit height: with two run-time dims the height is
    inserted/removed by EXPAND_DIMS/SQUEEZE (RESHAPE takes only one unknown dim)."""
    import torch

    from deploy.runtimes.tflite.emit import emit_tflite
    from deploy.runtimes.tflite.session import load
    from tests.runtimes.tflite.export_helpers import to_onnx

    torch.manual_seed(0)
    conv = torch.nn.Conv1d(3, 5, 5, padding=2)
    dims = {0: torch.export.Dim("n", min=1, max=8), 2: torch.export.Dim("t", min=5, max=64)}
    model = to_onnx(conv, (torch.randn(2, 3, 16),), dynamic_shapes=({**dims},))
    session = load(emit_tflite(model, tmp_path / "conv1d.tflite")["path"])
    for n, t in ((1, 5), (3, 16), (4, 33)):
        x = torch.randn(n, 3, t)
        (actual,) = session.run([x.numpy()])
        np.testing.assert_allclose(actual, conv(x).detach().numpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
def test_whole_scale_resize_over_run_time_sizes(tmp_path, mode):
    """F.interpolate(scale_factor=2) on an image whose H and W are dynamic: the output sizes are
    computed in the graph (SHAPE * 2), where TFLite's in/out mapping equals ONNX's 1/scale."""
    import torch
    import torch.nn.functional as F

    from deploy.runtimes.tflite.emit import emit_tflite
    from deploy.runtimes.tflite.session import load
    from tests.runtimes.tflite.export_helpers import to_onnx

    class Up(torch.nn.Module):
        def forward(self, x):
            return F.interpolate(x, scale_factor=2.0, mode=mode)

    side = torch.export.Dim("side", min=2, max=40)
    model = to_onnx(Up(), (torch.randn(1, 3, 8, 8),), dynamic_shapes=({2: side, 3: side},))
    session = load(emit_tflite(model, tmp_path / "up.tflite")["path"])
    for size in (2, 7, 16):
        x = torch.randn(1, 3, size, size)
        (actual,) = session.run([x.numpy()])
        np.testing.assert_allclose(actual, Up()(x).numpy(), rtol=1e-5, atol=1e-5)


def test_a_dynamic_vector_times_a_laid_out_pool_output(tmp_path):
    """A 1-D pool's (1, C, T/2) output times its first row (T/2,), T a run-time size: the row cannot
    get its leading ones statically, so the product runs in native layout."""
    import torch
    import torch.nn.functional as F

    from deploy.runtimes.tflite.emit import emit_tflite
    from deploy.runtimes.tflite.session import load
    from tests.runtimes.tflite.export_helpers import to_onnx

    class Weighted(torch.nn.Module):
        def forward(self, x):
            pooled = F.avg_pool1d(x, 2)
            return pooled * pooled[0, 0]

    example = (torch.randn(1, 3, 16),)
    half = torch.export.Dim("half", min=2, max=32)
    model = to_onnx(Weighted(), example, dynamic_shapes=({2: 2 * half},))
    session = load(emit_tflite(model, tmp_path / "weighted.tflite")["path"])
    for length in (4, 16, 34):
        x = torch.randn(1, 3, length)
        (actual,) = session.run([x.numpy()])
        np.testing.assert_allclose(actual, Weighted()(x).numpy(), rtol=1e-5, atol=1e-5)


def test_cross_correlation_with_a_filter_read_from_the_input(tmp_path):
    """``conv1d(pad(a), b)`` of two signals of a run-time length: the kernel's size is known only at
    run time (no window extent to pad a branch's input to), and the filter is a run-time tensor."""
    import torch
    import torch.nn.functional as F

    from deploy.runtimes.tflite.emit import emit_tflite
    from deploy.runtimes.tflite.session import load
    from tests.runtimes.tflite.export_helpers import to_onnx

    class CrossCorrelation(torch.nn.Module):
        def forward(self, a, b):
            n = a.shape[0]
            return F.conv1d(F.pad(a, (n - 1, n - 1)).view(1, 1, -1), b.view(1, 1, -1)).view(-1)

    n = torch.export.Dim("n", min=4, max=64)
    model = to_onnx(CrossCorrelation(), (torch.randn(16), torch.randn(16)), dynamic_shapes=({0: n}, {0: n}))
    session = load(emit_tflite(model, tmp_path / "xcorr.tflite")["path"])
    for length in (4, 16, 41):
        a, b = torch.randn(length), torch.randn(length)
        (actual,) = session.run([a.numpy(), b.numpy()])
        np.testing.assert_allclose(actual, CrossCorrelation()(a, b).numpy(), rtol=1e-5, atol=1e-5)


def test_1d_pool_over_run_time_channels_and_length(tmp_path):
    """``avg_pool1d(v.t()[None], 2, 2)`` of a (gates, azimuths) field with both sizes dynamic: the
    channels and the length are unknown, so the unit height is inserted by EXPAND_DIMS (a RESHAPE
    takes one unknown dim)."""
    import torch
    import torch.nn.functional as F

    from deploy.runtimes.tflite.emit import emit_tflite
    from deploy.runtimes.tflite.session import load
    from tests.runtimes.tflite.export_helpers import to_onnx

    class Downsample(torch.nn.Module):
        def forward(self, v):
            return F.avg_pool1d(v.t()[None], 2, 2) * 2.0

    gates, azimuths = torch.export.Dim("gates", min=8, max=256), torch.export.Dim("az", min=8, max=90)
    model = to_onnx(Downsample(), (torch.randn(40, 12),), dynamic_shapes=({0: gates, 1: azimuths},))
    session = load(emit_tflite(model, tmp_path / "pool.tflite")["path"])
    for shape in ((8, 8), (40, 12), (130, 90)):
        v = torch.randn(*shape)
        (actual,) = session.run([v.numpy()])
        np.testing.assert_allclose(actual, Downsample()(v).numpy(), rtol=1e-5, atol=1e-5)
