"""The samples through ONNX -> .tflite: parity with eager PyTorch (<= 1e-4 relative), <= 2 TRANSPOSEs per CNN,
unchanged I/O shapes, and the transformer at several sequence lengths (dynamic dim)."""

import numpy as np
import pytest
import torch

from deploy.runtimes.tflite.emit import emit_tflite
from deploy.runtimes.tflite.session import load
from tests.runtimes.tflite.export_helpers import load_sample, to_onnx
from tests.runtimes.tflite.helpers import relative_error


@pytest.mark.parametrize("name", ["mobilenet_v2", "resnet"])
def test_cnn_parity_and_transposes(name, tmp_path):
    sample = load_sample(name)
    model = sample.model().eval()
    example = (
        torch.randn(1, 3, 64, 64),
    )  # small input keeps the test fast; the nets are fully convolutional
    info = emit_tflite(to_onnx(model, example), tmp_path / "m.tflite")
    assert info["ops"].get("TRANSPOSE", 0) <= 2, info["ops"]
    session = load(info["path"])
    assert session.input_specs[0].shape == (1, 3, 64, 64)
    fresh = torch.randn(1, 3, 64, 64, generator=torch.Generator().manual_seed(7))
    actual = session.run([fresh.numpy()])[0]
    with torch.no_grad():
        expected = model(fresh).numpy()
    assert actual.shape == expected.shape == (1, 1000)
    assert relative_error(actual, expected) <= 1e-4


def test_tiny_transformer_dynamic_sequence(tmp_path):
    sample = load_sample("tiny_transformer")
    model = sample.model().eval()
    info = emit_tflite(
        to_onnx(model, sample.example_inputs(), sample.dynamic_shapes()), tmp_path / "t.tflite"
    )
    session = load(info["path"])
    assert session.input_specs[0].shape == (1, None) and session.input_specs[0].dtype == "int64"
    rng = np.random.default_rng(11)
    for length in (16, 5, 40):
        tokens = rng.integers(0, 1000, (1, length))
        actual = session.run([tokens])[0]
        with torch.no_grad():
            expected = model(torch.from_numpy(tokens)).numpy()
        assert actual.shape == expected.shape == (1, length, 1000)
        assert relative_error(actual, expected) <= 1e-4
